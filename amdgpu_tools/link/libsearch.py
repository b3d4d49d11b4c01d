"""``-l NAME`` as ld.lld resolves it against the ``-L`` directories.

Each directory in command-line order is tried for ``libNAME.so`` (unless
static linking was asked for with -Bstatic / -static) and then
``libNAME.a``; ``-l:FILE`` looks for FILE itself. The first hit wins. All -L
options count, wherever they appear on the command line, as in ld.lld.
"""

from __future__ import annotations

import os

from ..errors import LinkError


def library_candidates(name: str, static_only: bool) -> list[str]:
    """File names ``-l NAME`` may stand for, in the order they are tried."""
    if name.startswith(":"):
        return [name[1:]]
    return ([f"lib{name}.a"] if static_only else [f"lib{name}.so", f"lib{name}.a"])


def find_library(name: str, search_dirs, static_only: bool = False) -> str:
    """The path of the library ``-l NAME`` names (a LinkError when none exists)."""
    if not name:
        raise LinkError("-l needs a library name")
    for directory in search_dirs:
        for candidate in library_candidates(name, static_only):
            path = os.path.join(directory, candidate)
            if os.path.isfile(path):
                return path
    raise LinkError(f"unable to find library -l{name}")

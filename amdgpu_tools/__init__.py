"""amdgpu-tools: a pure-Python toolchain for AMD GCN (GFX6-GFX9) code objects.

The high-level API (``Device``, ``LocalMemory``) is imported lazily so that the
command-line tools start quickly without loading NumPy-heavy modules they do
not need.
"""

from .version import __version__
__all__ = ["Device", "LocalMemory", "__version__"]


def __getattr__(name):
    if name in ("Device", "LocalMemory"):
        from .runtime import api
        return getattr(api, name)
    raise AttributeError(f"module 'amdgpu_tools' has no attribute {name!r}")

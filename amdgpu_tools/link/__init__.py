"""amdgpu-ld: linking relocatable AMDGPU objects into a shared code object.

``link(inputs) -> bytes`` lays the output out as ``ld.lld -shared`` does
(see ``layout``), with one merged note set (see ``notes``) and
``--no-undefined`` on by default.
"""

from .linker import LINKER_COMMENT, Linker, LinkResult, link, link_result

__all__ = ["link", "link_result", "Linker", "LinkResult", "LINKER_COMMENT"]

"""amdgpu-ld: linking relocatable AMDGPU objects into a shared code object.

``link(inputs, *, no_undefined=True, merge_notes=True, entry=None,
soname=None) -> bytes`` takes paths, bytes or (name, bytes) pairs of ET_REL
objects (code object v2-v5) and static or thin archives (``WholeArchive(x)``
links every member), and lays the output out as ``ld.lld -shared`` does
(``layout``): same program headers, section order, addresses, .dynsym, hash
tables, GOT and .rela.dyn; COMDAT groups (``comdat``) and SHF_MERGE sections
(``merge``) are resolved as ld.lld resolves them. ``link_result`` also gives
the link map.

Where it differs from ld.lld, on purpose:

* notes are merged into one set with one metadata document
  (``merge_notes=False`` concatenates them as ld.lld does);
* ``--no-undefined`` is the default;
* R_AMDGPU_ABS32_LO/HI are applied against link-time constants (ld.lld
  rejects these types), and relocation fields are checked for overflow;
* .comment names amdgpu-ld.
"""

from .archive import WholeArchive
from .linker import LINKER_COMMENT, Linker, LinkResult, link, link_result

__all__ = ["link", "link_result", "Linker", "LinkResult", "LINKER_COMMENT", "WholeArchive"]

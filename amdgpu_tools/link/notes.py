"""Merging the AMDGPU notes of several objects into one note set.

ld.lld concatenates note sections, so a link of N objects carries N
metadata documents and the loader only reads one. amdgpu-ld instead writes
one set: each identification note (code object version, ISA version, ISA
name) once, and a single metadata document whose kernel lists are the
concatenation of all inputs' (v2 YAML ``Kernels`` / v3+ msgpack
``amdhsa.kernels``, and the printf format lists likewise). A single input's
notes are copied byte for byte.
"""

from __future__ import annotations

import msgpack
import yaml

from ..elf import constants as C
from ..elf.notes import Note, decode_notes, encode_notes, hsa_metadata_note
from ..errors import LinkError

_V2_METADATA = (C.NOTE_OWNER_AMD, C.NT_AMD_HSA_METADATA)
_V3_METADATA = (C.NOTE_OWNER_AMDGPU, C.NT_AMDGPU_METADATA)
#: Notes that identify the code object: all inputs must agree on them.
_IDENTITY = {(C.NOTE_OWNER_AMD, C.NT_AMD_HSA_CODE_OBJECT_VERSION),
             (C.NOTE_OWNER_AMD, C.NT_AMD_HSA_ISA_VERSION),
             (C.NOTE_OWNER_AMD, C.NT_AMD_HSA_ISA_NAME)}
#: Metadata lists that grow with every input; other keys keep the first value.
_V3_LISTS = ("amdhsa.kernels", "amdhsa.printf")
_V2_LISTS = ("Kernels", "Printf")


def merge_note_sections(sections) -> bytes:
    """One note section's bytes from several input note sections."""
    if len(sections) == 1:
        return sections[0].data
    notes = []
    for section in sections:
        for note in decode_notes(section.data, f"{section.obj.name}: section '{section.name}'"):
            notes.append((note, section.obj.name))
    return encode_notes(merge_notes(notes))


def merge_notes(notes) -> list[Note]:
    """``notes`` are (Note, object name) pairs in link order."""
    merged, seen, metadata, kept = [], {}, {}, set()
    for note, origin in notes:
        key = (note.owner, note.type)
        if key in (_V2_METADATA, _V3_METADATA):
            if key not in metadata:
                metadata[key] = []
                merged.append(key)
            metadata[key].append((note, origin))
            continue
        if key in _IDENTITY and key in seen:
            first, first_origin = seen[key]
            if first.desc != note.desc:
                raise LinkError(f"incompatible {note.type_name} notes: {first_origin} and "
                                f"{origin} describe different targets")
            continue
        if note in kept:
            continue
        kept.add(note)
        seen.setdefault(key, (note, origin))
        merged.append(note)
    return [_merge_metadata(item, metadata[item]) if isinstance(item, tuple) else item
            for item in merged]


def _merge_metadata(key, documents) -> Note:
    if len(documents) == 1:
        return documents[0][0]
    if key == _V3_METADATA:
        merged = _merge_maps([_decode_msgpack(note, origin) for note, origin in documents],
                             _V3_LISTS)
        return Note(C.NOTE_OWNER_AMDGPU, C.NT_AMDGPU_METADATA,
                    msgpack.packb(merged, use_bin_type=True))
    merged = _merge_maps([_decode_yaml(note, origin) for note, origin in documents], _V2_LISTS)
    text = yaml.safe_dump(merged, sort_keys=False, default_flow_style=None, width=1 << 16)
    return hsa_metadata_note(f"---\n{text}...\n")


def _merge_maps(documents, list_keys) -> dict:
    merged = dict(documents[0])
    for document in documents[1:]:
        for name, value in document.items():
            if name in list_keys:
                merged[name] = list(merged.get(name, [])) + list(value)
            else:
                merged.setdefault(name, value)
    return merged


def _decode_msgpack(note, origin) -> dict:
    try:
        document = msgpack.unpackb(note.desc, raw=False, strict_map_key=False)
    except Exception as bad:  # msgpack raises several unrelated exception types
        raise LinkError(f"{origin}: malformed NT_AMDGPU_METADATA note: {bad}") from None
    if not isinstance(document, dict):
        raise LinkError(f"{origin}: NT_AMDGPU_METADATA is not a map")
    return document


def _decode_yaml(note, origin) -> dict:
    try:
        document = yaml.safe_load(note.desc.rstrip(b"\0").decode("utf-8"))
    except (yaml.YAMLError, UnicodeDecodeError) as bad:
        raise LinkError(f"{origin}: malformed NT_AMD_HSA_METADATA note: {bad}") from None
    if not isinstance(document, dict):
        raise LinkError(f"{origin}: NT_AMD_HSA_METADATA is not a map")
    return document

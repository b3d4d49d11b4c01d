"""Merging the AMDGPU notes of several objects into one note set.

ld.lld concatenates note sections, so a link of N objects carries N
metadata documents and the loader only reads one. amdgpu-ld instead writes
one set: each identification note (code object version, ISA version, ISA
name) once, and a single metadata document whose kernel lists are the
concatenation of all inputs' (v2 YAML ``Kernels`` / v3+ msgpack
``amdhsa.kernels``, and the printf format lists likewise). The ELF layer's
metadata module decodes, merges (v3+) and re-encodes the documents in
LLVM's style. A single input's notes are copied byte for byte.

Printf format ids are numbered per compilation unit by the compiler (from 1)
and compiled into the code that writes printf records, so they cannot be
renumbered after the fact; formats of one merged document must therefore
not give one id two meanings. An entry repeated word for word is kept once;
one id with two different formats is an error naming both objects
(``--concatenate-notes`` keeps the documents apart, as ld.lld does).
"""

from __future__ import annotations

import msgpack

from ..elf import constants as C
from ..elf import metadata
from ..elf.notes import (Note, decode_hsa_metadata_text, decode_notes, encode_notes,
                         hsa_metadata_note)
from ..elf.metadata_v3 import MSGPACK_ERRORS, not_msgpack
from ..errors import LinkError, ToolchainError

_V2_METADATA = (C.NOTE_OWNER_AMD, C.NT_AMD_HSA_METADATA)
_V3_METADATA = (C.NOTE_OWNER_AMDGPU, C.NT_AMDGPU_METADATA)
#: Notes that identify the code object: all inputs must agree on them.
_IDENTITY = {(C.NOTE_OWNER_AMD, C.NT_AMD_HSA_CODE_OBJECT_VERSION),
             (C.NOTE_OWNER_AMD, C.NT_AMD_HSA_ISA_VERSION),
             (C.NOTE_OWNER_AMD, C.NT_AMD_HSA_ISA_NAME)}
#: Metadata lists that grow with every input; other keys keep the first value.
_V2_LISTS = ("Kernels", "Printf")
_V3_LISTS = ("amdhsa.kernels", "amdhsa.printf")


def merge_note_sections(sections) -> bytes:
    """One note section's bytes from several input note sections."""
    if len(sections) == 1:
        return sections[0].data
    notes = []
    for section in sections:
        for note in decode_notes(section.data,
                                 f"{section.obj.name}: section '{section.name}'"):
            notes.append((note, section.obj.name))
    return encode_notes(merge_notes(notes))


def merge_notes(notes) -> list[Note]:
    """``notes`` are (Note, object name) pairs in link order."""
    merged, seen, documents, kept = [], {}, {}, set()
    for note, origin in notes:
        key = (note.owner, note.type)
        if key in (_V2_METADATA, _V3_METADATA):
            if key not in documents:
                documents[key] = []
                merged.append(key)  # the merged document takes the first one's place
            documents[key].append((note, origin))
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
    return [_merge_metadata(item, documents[item]) if isinstance(item, tuple) else item
            for item in merged]


def _merge_metadata(key, documents) -> Note:
    if len(documents) == 1:
        return documents[0][0]
    try:
        if key == _V3_METADATA:
            return Note(C.NOTE_OWNER_AMDGPU, C.NT_AMDGPU_METADATA,
                        merge_msgpack_documents([note.desc for note, _ in documents],
                                                [origin for _, origin in documents]))
        merged = _merge_v2([metadata.parse_v2_yaml(decode_hsa_metadata_text(note.desc))
                            for note, _ in documents], [origin for _, origin in documents])
        return hsa_metadata_note(metadata.emit_v2_yaml(merged))
    except ToolchainError as bad:
        origins = ", ".join(origin for _, origin in documents)
        raise LinkError(f"cannot merge the metadata of {origins}: {bad}") from None


def merge_msgpack_documents(descriptors, origins=None) -> bytes:
    """One v3+ metadata document from several, as bytes.

    The ELF layer merges and encodes the small top-level entries (and checks
    that versions and targets agree); the kernel and printf lists, which are
    most of the bytes, are spliced in element by element without decoding:
    each element is already in its producer's canonical encoding.
    """
    small_documents, lists, printf = [], {}, []
    origins = origins or [f"document {n}" for n in range(len(descriptors))]
    for descriptor, origin in zip(descriptors, origins):
        small, found = _split_lists(descriptor)
        small_documents.append(small)
        for name, (count, raw) in found.items():
            total, pieces = lists.setdefault(name, (0, []))
            pieces.append(raw)
            lists[name] = (total + count, pieces)
            if name == "amdhsa.printf":
                printf.append((origin, _elements(raw, count)))
    if printf:
        kept = unique_printf_formats(printf)
        if len(kept) != lists["amdhsa.printf"][0]:
            packer = msgpack.Packer()
            lists["amdhsa.printf"] = (len(kept), [b"".join(packer.pack(e) for e in kept)])
    merged = metadata.merge_documents(small_documents)
    merged.update({name: [] for name in lists})
    return _splice_lists(metadata.encode_msgpack(merged), lists)


def unique_printf_formats(lists) -> list:
    """The printf entries of several objects ((origin, entries) pairs), each
    once; a LinkError when one id stands for two different formats."""
    kept, by_id = [], {}
    for origin, entries in lists:
        for entry in entries:
            text = str(entry)
            printf_id = text.split(":", 1)[0]
            if printf_id not in by_id:
                by_id[printf_id] = (text, origin)
                kept.append(entry)
                continue
            first, first_origin = by_id[printf_id]
            if first != text:
                raise LinkError(
                    f"printf format id {printf_id} means {first!r} in {first_origin} and "
                    f"{text!r} in {origin}: the compiler numbers printf formats per "
                    "compilation unit and writes the ids into the code, so one merged "
                    "metadata document cannot describe both; compile them as one unit "
                    "(link their bitcode first) or keep the notes apart with "
                    "--concatenate-notes (merge_notes=False), as ld.lld does")
    return kept


def _elements(raw: bytes, count: int) -> list:
    reader = msgpack.Unpacker(raw=False, strict_map_key=False)
    reader.feed(raw)
    try:
        return [reader.unpack() for _ in range(count)]
    except MSGPACK_ERRORS as bad:
        raise not_msgpack(bad) from None


def _split_lists(descriptor: bytes):
    """(top-level entries except the lists, {list name: (count, raw element bytes)})."""
    reader = msgpack.Unpacker(raw=False, strict_map_key=False)
    reader.feed(descriptor)
    small, found = {}, {}
    try:
        for _ in range(reader.read_map_header()):
            name = reader.unpack()
            if name not in _V3_LISTS:
                small[name] = reader.unpack()
                continue
            count = reader.read_array_header()
            start = reader.tell()
            for _ in range(count):
                reader.skip()
            found[name] = (count, descriptor[start:reader.tell()])
    except MSGPACK_ERRORS as bad:
        raise not_msgpack(bad) from None
    if reader.tell() != len(descriptor):   # as decode_msgpack, which the loader uses
        raise not_msgpack(ValueError(f"{len(descriptor) - reader.tell()} extra bytes "
                                     "after the document"))
    return small, found


def _splice_lists(encoded: bytes, lists) -> bytes:
    """``encoded`` with each (empty) list replaced by the concatenated elements."""
    reader = msgpack.Unpacker(raw=False, strict_map_key=False)
    reader.feed(encoded)
    header = reader.read_map_header()
    out, packer = [encoded[:reader.tell()]], msgpack.Packer()
    for _ in range(header):
        start = reader.tell()
        name = reader.unpack()
        if name in lists:
            reader.read_array_header()
            count, pieces = lists[name]
            out += [encoded[start:reader.tell() - 1], packer.pack_array_header(count), *pieces]
        else:
            reader.skip()
            out.append(encoded[start:reader.tell()])
    return b"".join(out)


def _merge_v2(documents, origins) -> dict:
    """v2 documents: Version from the first, Kernels concatenated, Printf
    formats each once (see ``unique_printf_formats``)."""
    merged = dict(documents[0])
    for document in documents[1:]:
        for name, value in document.items():
            if name in _V2_LISTS:
                merged[name] = list(merged.get(name, [])) + list(value)
            else:
                merged.setdefault(name, value)
    printf = [(origin, d["Printf"]) for d, origin in zip(documents, origins) if d.get("Printf")]
    if printf:
        merged["Printf"] = unique_printf_formats(printf)
    return merged

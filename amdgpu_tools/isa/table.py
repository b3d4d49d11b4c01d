"""The instruction tables: rows loaded from ``isa/data/<family>.json``.

A row describes one operation in one encoding: ``name`` (canonical mnemonic),
``asm`` (the mnemonic llvm prints, with _e32/_e64/_dpp/_sdwa), ``encoding``,
``format`` (the field layout), ``opcodes`` ({generation: opcode}), optional
``targets`` (the only processors that have it), ``operands`` (the syntax:
``{"field", "kind", "width", "type"}`` or ``{"fixed": text}``), ``modifiers``
and flags.  Rows are plain dicts wrapped by ``OpInfo`` for attribute access.
The memory families (ds, buffer, flat) use the same rows; their family keys
(gds and offset styles, lds/tfe, seg, operands_glc) stay in ``row``.
"""

import json
from functools import lru_cache
from importlib import resources

from .targets import get_target


class OpInfo:
    """One table row; ``row`` keeps the raw dict for family-specific keys."""

    __slots__ = ("name", "asm", "encoding", "format", "opcodes", "targets", "operands",
                 "modifiers", "family", "row")

    def __init__(self, row, family):
        self.row = row
        self.family = family
        self.name = row["name"]
        self.asm = row.get("asm", row["name"])
        self.encoding = row["encoding"]
        self.format = row.get("format", row["encoding"])
        self.opcodes = {int(g): op for g, op in row["opcodes"].items()}
        self.targets = frozenset(row["targets"]) if row.get("targets") else None
        self.operands = tuple(row.get("operands", ()))
        self.modifiers = tuple(row.get("modifiers", ()))

    def get(self, key, default=None):
        return self.row.get(key, default)

    def restricted_to(self, generation):
        """The processors of ``generation`` the row is limited to (empty: all of them)."""
        if self.targets is None:
            return []
        return [t for t in self.targets if t.startswith(f"gfx{generation}")]

    def available_on(self, target):
        if target.generation not in self.opcodes:
            return False
        same_gen = self.restricted_to(target.generation)
        return not same_gen or target.name in self.targets or _alias_match(target, same_gen)

    def listed_for(self, processor, generation):
        """Whether the row applies to the processor named ``processor`` exactly
        (no aliasing: the memory families pick the swept processor themselves)."""
        if generation not in self.opcodes:
            return False
        same_gen = self.restricted_to(generation)
        return not same_gen or processor in same_gen

    def __repr__(self):
        return f"OpInfo({self.asm}, {self.format}, {self.opcodes})"


def _alias_match(target, names):
    """Processors not swept inherit from the swept processor with the same features."""
    for name in names:
        other = get_target(name)
        if other.generation == target.generation and other.features == target.features:
            return True
    return False


@lru_cache(maxsize=None)
def load_document(data_file):
    """The JSON document ``data_file`` inside ``amdgpu_tools.isa.data`` (read once)."""
    text = resources.files("amdgpu_tools.isa.data").joinpath(data_file).read_text()
    return json.loads(text)


def load_rows(data_file, family):
    """Rows of one family's data file (a name inside ``amdgpu_tools.isa.data``)."""
    return [OpInfo(row, family) for row in load_document(data_file)["ops"]]

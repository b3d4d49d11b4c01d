"""The table-driven engine behind the scalar and vector-ALU families.

A ``TableFamily`` owns some formats and one data file of rows (see
``isa/table.py``).  It indexes rows by (matched format, generation, opcode)
for decoding and by mnemonic for encoding, reads the literal dword when an
operand asks for it, and prints operands by kind through the shared operand
codec.  Family modules (sop.py, smem.py, vop.py) configure one instance and
add their modifier printing.
"""

import struct

from ...errors import DecodeError
from .. import operands as codec
from .. import spelling
from ..decoder import read_words
from ..fields import words_to_int
from ..instruction import Instruction
from ..table import load_rows
from .encoding_forms import EncodingMixin
from .operand_types import is_float_type, type_size

#: operand kinds whose field may hold the literal marker (255)
LITERAL_KINDS = ("src", "ssrc")

class DecodePlan:
    """What one (target, format, opcode) decodes to, worked out on its first sight:
    the row, the layout to unpack, when a literal follows, the validity rules."""

    __slots__ = ("row", "layout", "unpack", "literal_rule", "rules", "op", "encoding",
                 "base_encoding")

    def __init__(self, row, layout, literal_rule, rules):
        self.row = row
        self.layout = layout
        self.unpack = layout.unpack
        self.literal_rule = literal_rule
        self.rules = rules
        self.op = row.name
        self.encoding = row.encoding
        self.base_encoding = row.get("base_encoding", row.encoding)


class TableFamily(EncodingMixin):
    """Decode/print (and, with ``encoder.py``, encode) the rows of one data file."""

    def __init__(self, name, formats, layouts, data_file):
        self.name = name
        self.FORMATS = tuple(formats)
        self.layouts = {}
        for fmt in tuple(formats) + tuple(layouts):
            for gen in fmt.generations:
                self.layouts[(fmt.name, gen)] = fmt
        self.data_file = data_file
        self._rows = None
        self._plans = {}  # {(target name, format, opcode): DecodePlan}
        self._print_plans = {}  # {generation: {row: print plan}}
        self._index = None
        self._by_asm = None

    # ---- tables ---------------------------------------------------------------
    @property
    def rows(self):
        if self._rows is None:
            self._rows = load_rows(self.data_file, self.name)
        return self._rows

    def _build_indexes(self):
        index, by_asm = {}, {}
        for row in self.rows:
            for gen, opcode in row.opcodes.items():
                key = (self.match_name(row.format), gen, opcode)
                index.setdefault(key, []).append(row)
            by_asm.setdefault(row.asm, []).append(row)
            if row.name != row.asm:
                by_asm.setdefault(row.name, []).append(row)
        self._index, self._by_asm = index, by_asm

    def match_name(self, layout_name):
        """The matchable format a layout decodes through (VOP3B -> VOP3)."""
        return "VOP3" if layout_name == "VOP3B" else layout_name

    def rows_for(self, fmt_name, generation, opcode):
        if self._index is None:
            self._build_indexes()
        return self._index.get((fmt_name, generation, opcode), ())

    def rows_named(self, mnemonic):
        if self._by_asm is None:
            self._build_indexes()
        return self._by_asm.get(mnemonic, ())

    def instructions(self, target):
        return [row for row in self.rows if row.available_on(target)]

    def lookup(self, name, target):
        for row in self.rows_named(name):
            if row.available_on(target):
                return row
        return None

    # ---- decoding -------------------------------------------------------------
    def decode_instruction(self, fmt, code, offset, target):
        try:
            words = fmt.read_words(code, offset)
        except struct.error:  # too few bytes left: read_words names the problem
            words = read_words(code, offset, fmt.words)
        value = words[0] if len(words) == 1 else words_to_int(words)
        opcode = fmt.opcode_of(value)
        plan = self._plans.get((target.name, fmt, opcode))
        if plan is None:
            plan = self._decode_plan(fmt, opcode, target, words)
        fields = plan.unpack(value)
        literal = None
        needs = plan.literal_rule
        if needs is not None and (needs is True or needs(fields)):
            literal, = read_words(code, offset + 4 * len(words), 1)
            words = words + (literal,)
        for rule in plan.rules:
            rule(fields)
        return Instruction(plan.op, plan.encoding, plan.base_encoding, opcode, words, fields,
                           plan.row, target, self, plan.layout, literal)

    def _decode_plan(self, fmt, opcode, target, words):
        row = None
        for candidate in self.rows_for(fmt.name, target.generation, opcode):
            if candidate.available_on(target):
                row = candidate
                break
        if row is None:
            raise DecodeError(f"no {target.name} {fmt.encoding} instruction with opcode {opcode}"
                              f" (0x{words[0]:08x})")
        plan = DecodePlan(row, self.layouts[(row.format, target.generation)],
                          self.literal_rule(row), tuple(self.decode_rules(row, target)))
        self._plans[(target.name, fmt, opcode)] = plan
        return plan

    def literal_rule(self, row):
        """When a literal dword follows ``row``: None (never), True (always) or a test
        of the decoded fields (an operand holds the literal marker)."""
        marked = []
        for spec in row.operands:
            kind = spec.get("kind")
            if kind == "literal":
                return True
            if kind in LITERAL_KINDS:
                marked.append(spec["field"])
        if not marked:
            return None
        marked = tuple(marked)

        def holds_marker(fields):
            for name in marked:
                if fields.get(name) == codec.LITERAL:
                    return True
            return False
        return holds_marker

    def decode_rules(self, row, target):
        """Tests of the decoded fields (each raises DecodeError) for encodings llvm
        refuses to decode: reserved operand codes (and DPP/SDWA markers outside
        VOP1/2/C src0), a 64-bit operand starting at the high half of a named pair.
        Families add their rules."""
        bad_codes, half_pairs = _reserved_codes(target.generation)
        checked = tuple((spec["field"], spec.get("width", 1) == 2) for spec in row.operands
                        if spec.get("kind") in ("src", "ssrc", "sdst"))
        if not checked:
            return []

        def reserved_codes(fields):
            for name, wide in checked:
                code = fields.get(name)
                if code in bad_codes or (wide and code in half_pairs):
                    raise DecodeError(f"{row.asm}: operand code {code} is not valid for"
                                      f" {name} on {target.name}")
        return [reserved_codes]

    # ---- printing -------------------------------------------------------------
    def instruction_text(self, inst):
        asm, printers, modifiers = self.print_plan(inst.info, inst.target.generation)
        parts = []
        for printer in printers:
            text = printer(inst)
            if text is not None:
                parts.append(text)
        out = asm
        if parts:
            out += " " + ", ".join(parts)
        if modifiers is not None:
            mods = modifiers(inst)
            if mods:
                out += " " + " ".join(mods)
        return out

    def print_plan(self, row, generation):
        """``(mnemonic, operand printers, modifier printer or None)`` of ``row``: each
        operand's kind, width and type are looked at once per row and generation,
        not once per instruction."""
        plans = self._print_plans.get(generation)
        if plans is None:
            plans = self._print_plans[generation] = {}
        plan = plans.get(row)
        if plan is None:
            plan = plans[row] = (row.asm, tuple(
                self.operand_printer(row, spec, generation) for spec in row.operands),
                self.modifier_printer(row))
        return plan

    def modifier_printer(self, row):
        """``modifier_texts`` when ``row`` can have trailing modifiers, else None."""
        return None

    def text(self, info, fields, target):
        raise NotImplementedError("table families print whole Instructions")

    def modifier_texts(self, inst):
        return []

    def operand_text(self, inst, spec):
        """The text of one operand ``spec`` of ``inst`` (None: an optional one left out)."""
        return self.operand_printer(inst.info, spec, inst.target.generation)(inst)

    def operand_printer(self, row, spec, generation):
        """``printer(inst) -> text | None`` for operand ``spec`` of ``row``: a fixed text,
        else the symbol a fixup fills, else the field's value printed by kind."""
        if "fixed" in spec:
            fixed = spec["fixed"]
            return lambda inst: fixed
        field = spec["field"] if "field" in spec else None
        optional = spec.get("optional")
        show = self.value_printer(row, spec, generation)

        def printer(inst):
            symbols = inst.symbols
            if symbols and field in symbols:
                return symbols[field]
            value = inst.fields.get(field)
            if optional and not value:
                return None
            return show(inst, value)
        return printer

    def value_printer(self, row, spec, gen):
        """``show(inst, value) -> text`` for the operand kind of ``spec``."""
        kind = spec["kind"]
        width = spec.get("width", 1)
        if kind == "vgpr":
            return lambda inst, value: codec.register_text("v", value, width)
        if kind in ("src", "ssrc"):
            return self.source_printer(row, spec, gen)
        if kind == "sdst":
            return lambda inst, value: scalar_text(value, gen, width)
        if kind == "sbase":
            return lambda inst, value: scalar_text(value * 2, gen, width)
        if kind == "simm16":
            if row.encoding == "SOPP":
                return lambda inst, value: str(value) if value <= 64 else f"0x{value:x}"
            return lambda inst, value: f"0x{value:x}"
        if kind in ("label", "imm"):
            return lambda inst, value: str(value)
        if kind == "imm_hex":
            return lambda inst, value: f"0x{value:x}"
        if kind == "gpr_idx":
            return lambda inst, value: spelling.gpr_idx_text(value)
        if kind in ("hwreg", "sendmsg", "waitcnt"):
            spell = getattr(spelling, f"{kind}_text")
            return lambda inst, value: spell(value, gen)
        if kind == "literal":
            if row.encoding == "SOPK":
                return lambda inst, value: codec.literal_text(inst.literal, 32, gen)
            return lambda inst, value: f"0x{inst.literal:x}"

        def unknown(inst, value):
            raise ValueError(f"no printer for operand kind {kind!r}")
        return unknown

    def source_printer(self, row, spec, gen):
        """A source field: register, inline constant or literal, then its modifiers."""
        width = spec.get("width", 1)
        size, is_float, int16 = type_size(spec), is_float_type(spec), spec.get("type") == "i16"
        flag_exec = spec.get("no_const") and spec["kind"] == "src"
        wrap = self.wrap_source if self.wraps_source(row, spec) else None
        text_of = codec.operand_text

        def show(inst, value):
            text = text_of(value, gen, width, size, inst.literal, is_float, int16)
            if flag_exec and value == 126:
                text += "/*Invalid register, operand has 'SReg_1_XEXEC' register class*/"
            return text if wrap is None else wrap(inst, spec, text)
        return show

    def wraps_source(self, row, spec):
        """Whether ``wrap_source`` may change the text of this source of ``row``."""
        return False

    def wrap_source(self, inst, spec, text):
        """A source's text with its modifiers (neg, abs, sext): none by default."""
        return text


_RESERVED = {}


def _reserved_codes(generation):
    """(codes no operand may hold here, named 32-bit halves that start no 64-bit pair)."""
    if generation not in _RESERVED:
        bad = frozenset(code for code in range(256) if codec.decode_operand(code, generation).kind
                        in ("invalid", "dpp", "sdwa"))
        half = frozenset(code for code, (_, pair) in codec.layout(generation).named.items()
                         if pair is None)
        _RESERVED[generation] = (bad, half)
    return _RESERVED[generation]


def scalar_text(code, generation, width):
    """A scalar destination/range: SGPR tuples are aligned as llvm prints them."""
    op = codec.decode_operand(code, generation)
    if op.kind in ("sgpr", "ttmp") and width > 1:
        align = 2 if width == 2 else 4
        index = op.index - op.index % align
        return codec.register_text("s" if op.kind == "sgpr" else "ttmp", index, width)
    return codec.operand_text(code, generation, width)


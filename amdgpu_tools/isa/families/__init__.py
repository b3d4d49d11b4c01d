"""Instruction families: each plugs its formats, table, printer and encoder into the core.

HOW TO ADD A FAMILY (for the ISA-memory helper and anyone after):

1. Declare the field layouts with ``isa.fields.Format`` (``[hi:lo]`` as the
   manuals write them, bit 32 = bit 0 of dword 1)::

       DS_VI = Format("DS", (8, 9), 2, "encoding[31:26]=0b110110 op[24:17] ...")

   ``name`` is the key rows refer to; ``encoding`` (defaults to name) is what
   ``Instruction.encoding`` reports.  A format whose fixed bits lie inside
   another's space says ``refines="OTHER"`` (tests/isa/test_formats.py then
   accepts the overlap; any other overlap between formats of one generation
   fails the test).

2. Create ``isa/families/<family>.py`` exposing, at module level (or on an
   object bound to ``FAMILY`` -- the registry uses ``module.FAMILY`` when it
   exists, else the module itself):

   ``FORMATS``                          tuple of Format (decoded by mask/match)
   ``decode_fields(fields, target, value) -> info``
        the op for the unpacked fields of a matched format (``value`` is the
        whole instruction as an int); raise ``errors.DecodeError`` when there
        is none.  ``info`` needs ``.name`` and ``.encoding`` (and may have
        ``.base_encoding``, ``.format``, ``.operands``: the contract's info).
   ``text(info, fields, target) -> str``   the llvm-objdump text
   ``lookup(name, target) -> info | None`` the op a mnemonic names (encoder)
   ``encode(info, operands, target) -> fields``  field values from parsed
        operands (``isa.asm_operands``); raise any exception class with an
        ``operand_index`` attribute (or named ``OperandError``) for bad input:
        the core turns it into ``encoder.InstructionError``.  The core picks
        the Format by ``info.format`` or ``info.encoding`` for the target's
        generation and packs it.
   ``instructions(target) -> [info]``     every op of the target (listing)

   Optional richer hooks (used by the scalar/VALU families, which need
   literals and fixups): ``decode_instruction(fmt, code, offset, target) ->
   Instruction``, ``instruction_text(inst)`` and
   ``encode_instruction(mnemonic, operands, target) -> Encoded | None``.

3. Add the module name to ``FAMILY_MODULES`` below.  Decoding tries every
   registered format (most fixed bits first), so order does not matter.

4. Shared helpers: ``isa.operands`` (the operand codec: SGPR/TTMP/named
   register numbering per generation, inline constants, ``register_text``),
   ``isa.decoder.read_words``, ``isa.spelling`` (waitcnt/hwreg/sendmsg).
"""

import importlib

FAMILY_MODULES = ("sop", "smem", "vop", "ds", "buffer", "mimg", "flat", "export", "vintrp")


class Family:
    """Base class of a family plug-in; the defaults suit families printed by the core."""

    name = None
    formats = ()
    data_files = ()

    def operand_text(self, inst, operand):
        return None

    def modifier_texts(self, inst):
        return []

    def encode_operand(self, row, spec, operand, fields, ctx):
        return False

    def encode_modifiers(self, row, modifiers, fields, ctx):
        for modifier in modifiers:
            ctx.error(f"invalid modifier '{modifier}' for {row.asm}", modifier)


_FAMILIES = None


def families():
    """Every registered family: a module's ``FAMILY`` object, else the module itself."""
    global _FAMILIES
    if _FAMILIES is None:
        found = []
        for module_name in FAMILY_MODULES:
            module = importlib.import_module(f"{__name__}.{module_name}")
            found.append(getattr(module, "FAMILY", module))
        _FAMILIES = tuple(found)
    return _FAMILIES

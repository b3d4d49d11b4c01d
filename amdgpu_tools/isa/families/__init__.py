"""Instruction families: each module declares formats, loads its rows, prints and encodes.

HOW TO ADD A FAMILY (for the ISA-memory helper and anyone after):

1. Declare the field layouts in your module with ``isa.fields.Format``::

       DS_GFX8 = Format("DS", (8, 9), 2, "encoding[31:26]=0b110110 op[24:17] gds[16]"
                        " offset1[15:8] offset0[7:0] vdst[63:56] data1[55:48]"
                        " data0[47:40] addr[39:32]")

   The format ``name`` is the key rows refer to (row["format"]); ``encoding``
   (defaults to name) is what ``Instruction.encoding`` reports.  Formats whose
   fixed bits lie inside another format's space say ``refines="OTHER"``.

2. Generate ``isa/data/<family>.json``: ``{"generated_by": "tools/isa_gen/...,
   do not edit", "family": "<family>", "ops": [row, ...]}``; a row is
   ``{"name", "asm", "encoding", "format", "opcodes": {"8": 12, "9": 12},
   "targets": [optional cpu list], "operands": [...], "modifiers": [...]}``.
   An operand is ``{"field": "vdst", "kind": "vgpr", "width": 2}`` or
   ``{"fixed": "vcc"}``; kinds the core prints are listed in
   ``isa.printer.CORE_KINDS`` (vgpr, sdst, ssrc, src, sbase, simm16, label,
   hwreg, sendmsg, waitcnt, literal, imm, imm_hex).  Invent your own kinds
   freely and print/encode them in your Family subclass.

3. In ``isa/families/<family>.py`` define ``FAMILY = MyFamily()`` where
   ``MyFamily(Family)`` sets ``name``, ``formats`` and ``data_files`` and
   overrides what it needs:
     - ``operand_text(inst, operand)``: text of one operand (return None to
       fall back to the core printer for core kinds);
     - ``modifier_texts(inst)``: list of trailing modifier strings;
     - ``encode_operand(row, operand_spec, asm_operand, fields, ctx)``: set
       ``fields[...]`` from a parsed operand (return False to use the core);
     - ``encode_modifiers(row, modifiers, fields, ctx)``: apply Modifier objects;
     - ``extra_words(inst)``: trailing dwords beyond the format (rare).
   Then add the module name to ``FAMILY_MODULES`` below (the order is
   irrelevant: decoding is by mask/match over all formats).

4. Tests: ``tests/isa/test_formats.py`` checks coverage/overlap of every
   registered format automatically; add golden (target, text, bytes) rows to
   ``tests/isa/data/`` via ``tools/isa_gen/gen_corpus.py`` or your own script.
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

    def extra_words(self, inst):
        return 0


_FAMILIES = None


def families():
    """Every registered family: a module's ``FAMILY`` object, else the module itself."""
    global _FAMILIES
    if _FAMILIES is None:
        found = []
        for module_name in FAMILY_MODULES:
            try:
                module = importlib.import_module(f"{__name__}.{module_name}")
            except ModuleNotFoundError as exc:
                if exc.name != f"{__name__}.{module_name}":
                    raise
                continue
            found.append(getattr(module, "FAMILY", module))
        _FAMILIES = tuple(found)
    return _FAMILIES

"""Relocations: deciding what each one needs (scan), then patching (apply).

The scan runs before layout because it decides the sizes of .got and
.rela.dyn. Per ld.lld for ``-shared``:

* GOT-relative types (GOTPCREL*) get one GOT slot per symbol; the loader
  fills a slot with R_AMDGPU_ABS64 for a preemptible symbol and with
  R_AMDGPU_RELATIVE64 for any other address (a constant needs neither);
* R_AMDGPU_ABS64 becomes a dynamic ABS64 against a preemptible symbol and a
  RELATIVE64 against a local address; only writable sections may carry
  dynamic relocations (else the same -fPIC error as ld.lld);
* 32-bit absolute types cannot be finished by the loader, so they only work
  against link-time constants; PC-relative types cannot reach a preemptible
  symbol. Both are rejected with ld.lld's advice (recompile with -fPIC);
  a PC-relative reference to an absolute symbol is rejected too (its
  distance changes with the load address).

The apply step computes each field from the ELF layer's recipe table and
checks that it fits.
"""

from __future__ import annotations

from ..elf import constants as C
from ..errors import LinkError
from .dynamic import DynamicRelocation, unsigned64
from .symbols import ABSOLUTE

_GOT_TYPES = {C.R_AMDGPU_GOTPCREL, C.R_AMDGPU_GOTPCREL32_LO, C.R_AMDGPU_GOTPCREL32_HI}
_PC_TYPES = {C.R_AMDGPU_REL32, C.R_AMDGPU_REL64, C.R_AMDGPU_REL32_LO, C.R_AMDGPU_REL32_HI,
             C.R_AMDGPU_REL16}
_ABS32_TYPES = {C.R_AMDGPU_ABS32, C.R_AMDGPU_ABS32_LO, C.R_AMDGPU_ABS32_HI}
#: Types whose whole value must fit their field: (low, high) bounds inclusive.
_RANGES = {
    C.R_AMDGPU_ABS32: (-(1 << 31), (1 << 32) - 1),
    C.R_AMDGPU_REL32: (-(1 << 31), (1 << 31) - 1),
    C.R_AMDGPU_GOTPCREL: (-(1 << 31), (1 << 31) - 1),
    C.R_AMDGPU_REL16: (-(1 << 15), (1 << 15) - 1),
}


class RelocationPlan:
    """What the scan decided: GOT slots, dynamic relocations, static patches."""

    def __init__(self):
        self.got_symbols = []
        self.dynamic = []
        #: input section -> list of (offset, type, symbol, addend) applied at link time
        self.static = {}
        #: local symbol of a discarded COMDAT section -> places that refer to it
        self.discarded_references = {}
        self._needs_got = {}

    def got_slot(self, symbol) -> None:
        self._needs_got[id(symbol)] = symbol

    def allocate_got(self, symbols_in_order) -> None:
        """GOT slots in symbol-table order (globals, then each file's locals),
        the order ld.lld allocates them in after scanning."""
        needed = self._needs_got
        for symbol in symbols_in_order:
            if len(self.got_symbols) == len(needed):
                return
            if id(symbol) in needed and symbol.got_index is None:
                symbol.got_index = len(self.got_symbols)
                self.got_symbols.append(symbol)


def scan(sections, plan: RelocationPlan) -> None:
    """Classify every relocation of the given input sections."""
    for section in sections:
        if not section.relocations:
            continue
        refs = section.obj.symbol_refs
        patches = plan.static.setdefault(section, [])
        writable = bool(section.flags & C.SHF_WRITE)
        for offset, rtype, index, addend in section.relocations:
            symbol = refs[index]
            if symbol.type == C.STT_SECTION and symbol.section is not None \
                    and symbol.section.merge is not None:
                symbol, addend = symbol.section.merge.section_reference(
                    symbol.section, symbol.value + addend)
            if not section.is_alloc:
                patches.append((offset, rtype, symbol, addend))
                continue
            if symbol.discarded_with is not None:
                plan.discarded_references.setdefault(symbol, []).append(section.where(offset))
                continue
            if rtype in _GOT_TYPES:
                plan.got_slot(symbol)
                patches.append((offset, rtype, symbol, addend))
            elif rtype == C.R_AMDGPU_ABS64 and not symbol.is_link_time_constant:
                if not writable:
                    raise LinkError(_pic_message(rtype, symbol, section, offset))
                dynamic_type = C.R_AMDGPU_ABS64 if symbol.preemptible else C.R_AMDGPU_RELATIVE64
                plan.dynamic.append(DynamicRelocation(section, offset, dynamic_type, symbol, addend))
            elif rtype in _ABS32_TYPES and not symbol.is_link_time_constant:
                raise LinkError(_pic_message(rtype, symbol, section, offset))
            elif rtype in _PC_TYPES and symbol.preemptible:
                raise LinkError(_pic_message(rtype, symbol, section, offset))
            elif rtype in _PC_TYPES and symbol.kind == ABSOLUTE:
                raise LinkError(f"relocation {C.relocation_name(rtype)} cannot refer to "
                                f"absolute symbol: {symbol.name}\n"
                                f">>> defined in {symbol.defined_in()}\n"
                                f">>> referenced by {section.where(offset)}")
            else:
                patches.append((offset, rtype, symbol, addend))


def check_discarded_references(plan: RelocationPlan) -> None:
    """ld.lld's error for allocated code or data that refers to a section its
    COMDAT group lost (debug sections may: they get 0); one message per symbol."""
    if not plan.discarded_references:
        return
    messages = []
    for symbol, places in plan.discarded_references.items():
        dropped = symbol.discarded_with
        messages.append("\n".join(
            [f"relocation refers to a discarded section: {dropped.name}",
             f">>> defined in {symbol.defined_in()}",
             f">>> section group signature: {dropped.signature}",
             f">>> prevailing definition is in {dropped.winner}"]
            + [f">>> referenced by {place}" for place in places]))
    failure = LinkError("\n".join(messages))
    failure.diagnostics = messages
    raise failure


def got_dynamic_relocations(plan: RelocationPlan, got_section) -> None:
    """The loader fills GOT slots of addresses; constants are written directly."""
    for symbol in plan.got_symbols:
        if symbol.is_link_time_constant:
            continue
        dynamic_type = C.R_AMDGPU_ABS64 if symbol.preemptible else C.R_AMDGPU_RELATIVE64
        plan.dynamic.append(DynamicRelocation(got_section, 8 * symbol.got_index,
                                              dynamic_type, symbol, 0))


def got_contents(plan: RelocationPlan) -> bytes:
    """The GOT as linked: link-time constants written in, address slots left zero
    for the loader's dynamic relocations to fill."""
    out = bytearray(8 * len(plan.got_symbols))
    for symbol in plan.got_symbols:
        if symbol.is_link_time_constant:
            out[8 * symbol.got_index:8 * symbol.got_index + 8] = \
                unsigned64(symbol.address).to_bytes(8, "little")
    return bytes(out)


def apply(section, patches, got_address: int) -> bytes:
    """The section's bytes with every link-time relocation written in."""
    data = bytearray(section.data)
    base = section.address if section.is_alloc else section.out_offset
    for offset, rtype, symbol, addend in patches:
        recipe = C.RELOCATION_BY_VALUE[rtype]
        place = base + offset
        got = 8 * symbol.got_index if symbol.got_index is not None else 0
        raw = recipe.formula(S=symbol.address, A=addend, P=place, G=got, GOT=got_address, B=0)
        bounds = _RANGES.get(rtype)
        if bounds and not bounds[0] <= raw <= bounds[1]:
            raise LinkError(f"{section.where(offset)}: relocation {recipe.name} out of range: "
                            f"{raw} is not in [{bounds[0]}, {bounds[1]}]; references "
                            f"'{symbol.name or '<section>'}'")
        size = recipe.size
        data[offset:offset + size] = (raw & ((1 << (8 * size)) - 1)).to_bytes(size, "little")
    return bytes(data)


def _symbol_description(symbol) -> str:
    if symbol.bind == C.STB_LOCAL:
        return f"local symbol '{symbol.name}'" if symbol.name else "a local section"
    return f"symbol '{symbol.name}'"


def _pic_message(rtype, symbol, section, offset) -> str:
    return (f"relocation {C.relocation_name(rtype)} cannot be used against "
            f"{_symbol_description(symbol)}; recompile with -fPIC\n"
            f">>> defined in {symbol.defined_in()}\n"
            f">>> referenced by {section.where(offset)}")

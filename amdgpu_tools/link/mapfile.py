"""The link map (``-Map`` / ``--print-map``) in ld.lld's column layout.

One line per output section, then per input section placed in it, then per
symbol defined there: address, load address, size, alignment.
"""

from __future__ import annotations

from .symbols import DEFINED

_HEADER = f"{'VMA':>16} {'LMA':>16} {'Size':>8} {'Align':>5} Out     In      Symbol"


def render_map(linker) -> str:
    """The map of a finished link (``Linker`` after ``run``)."""
    by_section: dict = {}
    local, global_ = linker.symtab_symbols()
    for symbol in local + global_:
        if symbol.kind == DEFINED and symbol.name:
            merged = symbol.section.merge   # a symbol in merged pieces: under the merged section
            home = merged.section if merged is not None else symbol.section
            by_section.setdefault(id(home), []).append(symbol)
    lines = [_HEADER]
    for out in linker.outputs:
        lines.append(_row(out.addr, out.size, out.align, out.name))
        for section in out.sections:
            origin = section.obj.name if section.obj is not None else "<internal>"
            lines.append(_row(section.address if out.is_alloc else section.out_offset,
                              section.size, section.align,
                              f"        {origin}:({section.name})"))
            for symbol in sorted(by_section.get(id(section), []), key=lambda s: s.address):
                lines.append(_row(symbol.address, 0, 1, f"                {symbol.name}"))
    return "\n".join(lines) + "\n"


def _row(address: int, size: int, align: int, text: str) -> str:
    return f"{address:>16x} {address:>16x} {size:>8x} {align:>5} {text}"

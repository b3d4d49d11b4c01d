"""The target-independent directives llvm-mc accepts for ELF output.

Each handler takes the ``context.DirectiveContext`` (symbols, sections,
diagnostics, debug information) and the ``Directive`` statement (name and raw
argument text) and parses its own arguments with ``syntax.parse_arguments``.
Bookkeeping directives that do not change the bytes llvm-mc writes for GCN
code objects are accepted and ignored; the debug-information ones (.file,
.loc, .cfi_*) live in dwarf_line.py and cfi.py.
"""

from __future__ import annotations

from ..elf import constants as elfc
from .diagnostics import StatementError
from .expr import Const, Sym
from .leb128 import encode_leb128
from .limits import MAX_SECTION_BYTES
from .source import find_include, split_arguments
from .syntax import AtType, StringLit, parse_arguments

#: Bytes emitted by each integer data directive.
DATA_SIZES = {
    ".byte": 1, ".short": 2, ".hword": 2, ".2byte": 2, ".value": 2,
    ".long": 4, ".int": 4, ".4byte": 4, ".word": 4,
    ".quad": 8, ".8byte": 8,
}

_SYMBOL_TYPES = {
    "function": elfc.STT_FUNC, "object": elfc.STT_OBJECT, "notype": elfc.STT_NOTYPE,
    "tls_object": elfc.STT_TLS, "common": elfc.STT_COMMON,
    "stt_func": elfc.STT_FUNC, "stt_object": elfc.STT_OBJECT, "stt_notype": elfc.STT_NOTYPE,
    "stt_tls": elfc.STT_TLS, "stt_common": elfc.STT_COMMON,
    "amdgpu_hsa_kernel": elfc.STT_AMDGPU_HSA_KERNEL,
}

_SECTION_TYPES = {
    "progbits": elfc.SHT_PROGBITS, "nobits": elfc.SHT_NOBITS, "note": elfc.SHT_NOTE,
    "init_array": elfc.SHT_INIT_ARRAY, "fini_array": elfc.SHT_FINI_ARRAY,
}

_SECTION_FLAGS = {
    "a": elfc.SHF_ALLOC, "w": elfc.SHF_WRITE, "x": elfc.SHF_EXECINSTR,
    "M": elfc.SHF_MERGE, "S": elfc.SHF_STRINGS, "G": elfc.SHF_GROUP,
    "T": elfc.SHF_TLS, "e": elfc.SHF_EXCLUDE, "o": elfc.SHF_LINK_ORDER, "R": elfc.SHF_GNU_RETAIN, "l": 0,
    "d": 0, "y": 0, "c": 0,
}

def _args(directive):
    return parse_arguments(directive.rest, directive.rest_column - 1) if directive.rest else []


def _symbol_names(ctx, directive):
    names = []
    for arg in _args(directive):
        if not isinstance(arg, Sym) or arg.specifier:
            raise _error(ctx, "expected identifier")
        names.append(arg.name)
    if not names:
        raise _error(ctx, "expected identifier")
    return names


def _error(ctx, message):
    return StatementError(message)


# ---- sections --------------------------------------------------------------------

def _simple_section(name):
    def handler(ctx, directive):
        if directive.rest:
            _section_with_subsection(ctx, name, directive)
        else:
            ctx.sections.switch(name)
    return handler


def _section_with_subsection(ctx, name, directive):
    ctx.symbols.absolute(_single(ctx, directive))  # subsections are numbered; all fold into one
    ctx.sections.switch(name)


def _single(ctx, directive):
    args = _args(directive)
    if len(args) != 1:
        raise _error(ctx, "expected one expression")
    return args[0]


def directive_section(ctx, directive):
    name, rest = _split_section_name(directive.rest)
    if not name:
        raise _error(ctx, "expected section name")
    if name in (".strtab", ".symtab", ".shstrtab") or name.startswith(".rela"):
        raise _error(ctx, f"section '{name}' is written by the assembler itself")
    flags = sh_type = None
    if rest.strip().startswith("#"):  # Solaris style: .section .rodata,#alloc,#write
        rest, flags = "", _sun_style_flags(ctx, rest)
    args = parse_arguments(rest, 0) if rest.strip() else []
    entsize = 0
    if args:
        first = args[0]
        if not isinstance(first, StringLit):
            raise _error(ctx, "expected string in directive")
        flags = 0
        for letter in first.value.decode():
            if letter not in _SECTION_FLAGS:
                raise _error(ctx, f"unknown flag '{letter}'")
            flags |= _SECTION_FLAGS[letter]
    if len(args) > 1:
        kind = args[1]
        type_name = kind.name if isinstance(kind, AtType) else \
            (kind.value.decode() if isinstance(kind, StringLit) else None)
        if type_name is None or type_name.lower() not in _SECTION_TYPES:
            raise _error(ctx, "unknown section type")
        sh_type = _SECTION_TYPES[type_name.lower()]
    if len(args) > 2:
        entsize = ctx.symbols.absolute(args[2])
    if name in ctx.sections and flags is not None:
        section = ctx.sections[name]
        if section.flags != flags and (flags | elfc.SHF_ALLOC) != section.flags | elfc.SHF_ALLOC:
            raise _error(ctx, "changed section flags for " + name)
    ctx.sections.switch(name, sh_type, flags, entsize)


_SUN_STYLE_FLAGS = {"alloc": elfc.SHF_ALLOC, "write": elfc.SHF_WRITE, "execinstr": elfc.SHF_EXECINSTR,
                    "exclude": elfc.SHF_EXCLUDE, "tls": elfc.SHF_TLS}


def _sun_style_flags(ctx, text: str) -> int:
    """``#alloc,#write,...`` (clang-14 writes ``.section .rodata,#alloc``)."""
    flags = 0
    for word in text.split(","):
        word = word.strip()
        if not word.startswith("#") or word[1:] not in _SUN_STYLE_FLAGS:
            raise _error(ctx, "unknown flag")
        flags |= _SUN_STYLE_FLAGS[word[1:]]
    return flags


def _split_section_name(rest: str):
    rest = rest.strip()
    if rest.startswith('"'):
        end = rest.find('"', 1)
        return rest[1:end], rest[end + 1:].lstrip().lstrip(",")
    name, _, tail = rest.partition(",")
    return name.strip(), tail


def directive_pushsection(ctx, directive):
    ctx.sections.stack.append((ctx.sections.current, ctx.sections.previous))
    directive_section(ctx, directive)


def directive_popsection(ctx, directive):
    if not ctx.sections.stack:
        raise _error(ctx, ".popsection without corresponding .pushsection")
    ctx.sections.current, ctx.sections.previous = ctx.sections.stack.pop()


def directive_previous(ctx, directive):
    ctx.sections.current, ctx.sections.previous = ctx.sections.previous, ctx.sections.current


# ---- symbols ---------------------------------------------------------------------

def _binding(binding):
    def handler(ctx, directive):
        for name in _symbol_names(ctx, directive):
            ctx.symbols.named(name).binding = binding
    return handler


def _visibility(visibility):
    def handler(ctx, directive):
        for name in _symbol_names(ctx, directive):
            ctx.symbols.named(name).visibility = visibility
    return handler


def directive_type(ctx, directive):
    args = _args(directive)
    if len(args) != 2 or not isinstance(args[0], Sym):
        raise _error(ctx, "expected identifier and symbol type")
    kind = args[1]
    name = kind.name if isinstance(kind, (AtType, Sym)) else \
        (kind.value.decode() if isinstance(kind, StringLit) else "")
    sym_type = _SYMBOL_TYPES.get(name.lower())
    if sym_type is None:
        raise _error(ctx, "unsupported attribute in '.type' directive")
    ctx.symbols.named(args[0].name).sym_type = sym_type


def directive_size(ctx, directive):
    args = _args(directive)
    if len(args) != 2 or not isinstance(args[0], Sym):
        raise _error(ctx, "expected identifier and size expression")
    symbol = ctx.symbols.named(args[0].name)
    symbol.size_expr = ctx.symbols.freeze(args[1])
    symbol.size_where = ctx.diagnostics.location(directive.rest_column)


def directive_set(ctx, directive):
    args = _args(directive)
    if len(args) != 2 or not isinstance(args[0], Sym):
        raise _error(ctx, "expected identifier and expression")
    if directive.name == ".equiv" and ctx.symbols.get(args[0].name) is not None \
            and ctx.symbols[args[0].name].defined:
        raise _error(ctx, f"redefinition of '{args[0].name}'")
    ctx.symbols.assign(args[0].name, args[1], directive.rest_column)


def directive_comm(ctx, directive):
    """``.comm sym, size[, log2 alignment]``; ``.lcomm sym, size`` reserves local .bss space."""
    args = _args(directive)
    if len(args) not in (2, 3) or not isinstance(args[0], Sym):
        raise _error(ctx, "expected identifier, size and optional alignment")
    symbol = ctx.symbols.named(args[0].name)
    size = ctx.symbols.absolute(args[1])
    if directive.name == ".lcomm":
        if len(args) == 3:
            raise _error(ctx, "alignment not supported on this target")
        current, previous = ctx.sections.current, ctx.sections.previous
        ctx.sections.switch(".bss")
        ctx.symbols.define_label(symbol.name)
        symbol.sym_type = elfc.STT_OBJECT
        symbol.size_expr = Const(size)
        ctx.sections.emit(bytes(size))
        ctx.sections.current, ctx.sections.previous = current, previous
        return
    power = ctx.symbols.absolute(args[2]) if len(args) == 3 else 0
    if not 0 <= power < 32:
        raise _error(ctx, "invalid '.comm' alignment")
    if symbol.defined and not symbol.common_size:
        raise _error(ctx, "invalid symbol redefinition")
    size = max(size, symbol.common_size)
    symbol.common_size = size
    symbol.common_align = 1 << power
    symbol.defined = True
    if symbol.binding is None:
        symbol.binding = elfc.STB_GLOBAL
    symbol.sym_type = elfc.STT_OBJECT


# ---- data ------------------------------------------------------------------------

def _data(size):
    def handler(ctx, directive):
        for arg in _args(directive):
            if isinstance(arg, (StringLit, AtType)):
                raise _error(ctx, "unexpected token in directive")
            ctx.emit_value(arg, size, directive.rest_column)
    return handler


def _strings(terminate):
    def handler(ctx, directive):
        for arg in _args(directive):
            if not isinstance(arg, StringLit):
                raise _error(ctx, "expected string")
            ctx.sections.emit(arg.value + (b"\0" if terminate else b""))
    return handler


def directive_incbin(ctx, directive):
    """``.incbin "file"[, skip[, count]]``: the file's bytes from ``skip`` on,
    at most ``count`` of them, looked up as ``.include`` looks for files."""
    args = _args(directive)
    if not args or not isinstance(args[0], StringLit):
        raise _error(ctx, "expected string in '.incbin' directive")
    if len(args) > 3:
        raise _error(ctx, "unexpected token in '.incbin' directive")
    name = args[0].value.decode("utf-8", "surrogateescape")
    skip = ctx.symbols.absolute(args[1]) if len(args) > 1 else 0
    count = ctx.symbols.absolute(args[2]) if len(args) > 2 else None
    if skip < 0:
        error = _error(ctx, "skip is negative")
        error.column = _argument_column(directive, 1)
        raise error
    if count is not None and count < 0:
        ctx.diagnostics.warning("negative count has no effect", _argument_column(directive, 2))
        return
    path = find_include(name, ctx.options.include_dirs)
    if path is None:
        raise _error(ctx, f"Could not find incbin file '{name}'")
    try:
        with open(path, "rb") as handle:
            handle.seek(skip)
            data = handle.read() if count is None else handle.read(count)
    except OSError as error:
        raise _error(ctx, f"cannot read incbin file '{name}': {error.strerror}") from None
    ctx.sections.emit(data)


def _argument_column(directive, index):
    """Column of the ``index``-th comma-separated argument of a directive
    (commas inside string literals do not count)."""
    rest, commas, quoted = directive.rest, 0, False
    for offset, char in enumerate(rest):
        if char == '"':
            quoted = not quoted
        elif char == "," and not quoted:
            commas += 1
            if commas == index:
                tail = rest[offset + 1:]
                return directive.rest_column + offset + 1 + len(tail) - len(tail.lstrip())
    return directive.rest_column


def directive_zero(ctx, directive):
    args = _args(directive)
    if not args or len(args) > 2:
        raise _error(ctx, "expected size and optional fill value")
    count = ctx.symbols.absolute(args[0])
    fill = ctx.symbols.absolute(args[1]) if len(args) > 1 else 0
    if count < 0:
        ctx.diagnostics.warning(
            f"'{directive.name}' directive with negative repeat count has no effect",
            directive.rest_column)
        return
    _check_size(ctx, count)
    ctx.sections.emit_fill(bytes([fill & 0xFF]) * count)


def directive_fill(ctx, directive):
    args = _args(directive)
    if not args or len(args) > 3:
        raise _error(ctx, "expected count, size and value")
    count = ctx.symbols.absolute(args[0])
    size = ctx.symbols.absolute(args[1]) if len(args) > 1 else 1
    value = ctx.symbols.absolute(args[2]) if len(args) > 2 else 0
    if count < 0:
        ctx.diagnostics.warning("'.fill' directive with negative repeat count has no effect", directive.rest_column)
        return
    size = min(max(size, 0), 8)
    _check_size(ctx, count * size)
    unit = (value & 0xFFFFFFFF).to_bytes(8, "little")[:size]
    ctx.sections.emit(unit * count)


def _check_size(ctx, nbytes):
    if ctx.sections.current.size + nbytes > MAX_SECTION_BYTES:
        raise _error(ctx, f"section '{ctx.sections.current.name}' would exceed {MAX_SECTION_BYTES} bytes")


def _alignment(power_of_two):
    def handler(ctx, directive):
        pieces = split_arguments(directive.rest) if directive.rest else []
        if not pieces or not pieces[0] or len(pieces) > 3:
            raise _error(ctx, "expected alignment")
        values = [ctx.symbols.absolute(_one(ctx, piece)) if piece else None for piece in pieces]
        amount = values[0]
        if power_of_two:
            if not 0 <= amount < 32:
                raise _error(ctx, "invalid alignment value")
            alignment = 1 << amount
        else:
            alignment = amount or 1
            if alignment & (alignment - 1):
                raise _error(ctx, "alignment must be a power of 2")
        fill = values[1] if len(values) > 1 else None   # ``.p2align 3,,7``: no fill value
        max_skip = values[2] if len(values) > 2 else None
        ctx.sections.align(alignment, fill, max_skip)
    return handler


def _one(ctx, text):
    args = parse_arguments(text)
    if len(args) != 1:
        raise _error(ctx, "expected one expression")
    return args[0]


def directive_ident(ctx, directive):
    args = _args(directive)
    if len(args) != 1 or not isinstance(args[0], StringLit):
        raise _error(ctx, "expected string")
    current, previous = ctx.sections.current, ctx.sections.previous
    comment = ctx.sections.switch(".comment", elfc.SHT_PROGBITS, elfc.SHF_MERGE | elfc.SHF_STRINGS, 1)
    if not comment.data:
        comment.data += b"\0"
    comment.data += args[0].value + b"\0"
    ctx.sections.current, ctx.sections.previous = current, previous


def _leb128(signed):
    def handler(ctx, directive):
        for arg in _args(directive):
            ctx.sections.emit(encode_leb128(ctx.symbols.absolute(arg), signed))
    return handler


def directive_addrsig(ctx, directive):
    """``.addrsig``: write an address-significance table (.llvm_addrsig) at the end."""
    ctx.symbols.addrsig = True


def directive_addrsig_sym(ctx, directive):
    for name in _symbol_names(ctx, directive):
        symbol = ctx.symbols.named(name)
        if symbol not in ctx.symbols.addrsig_symbols:
            ctx.symbols.addrsig_symbols.append(symbol)


def _ignored(ctx, directive):
    """Accepted for compatibility; changes nothing llvm-mc emits for GCN objects."""


def directive_error(ctx, directive):
    args = _args(directive)
    message = args[0].value.decode() if args and isinstance(args[0], StringLit) else ".error directive invoked in source file"
    raise _error(ctx, message)


def directive_warning(ctx, directive):
    args = _args(directive)
    message = args[0].value.decode() if args and isinstance(args[0], StringLit) else ".warning directive invoked in source file"
    ctx.diagnostics.warning(message, directive.column)


HANDLERS = {
    ".text": _simple_section(".text"),
    ".data": _simple_section(".data"),
    ".rodata": _simple_section(".rodata"),
    ".bss": _simple_section(".bss"),
    ".section": directive_section,
    ".pushsection": directive_pushsection,
    ".popsection": directive_popsection,
    ".previous": directive_previous,
    ".globl": _binding(elfc.STB_GLOBAL), ".global": _binding(elfc.STB_GLOBAL),
    ".local": _binding(elfc.STB_LOCAL), ".weak": _binding(elfc.STB_WEAK),
    ".protected": _visibility(elfc.STV_PROTECTED), ".hidden": _visibility(elfc.STV_HIDDEN),
    ".internal": _visibility(elfc.STV_INTERNAL),
    ".type": directive_type,
    ".size": directive_size,
    ".set": directive_set, ".equ": directive_set, ".equiv": directive_set,
    ".comm": directive_comm, ".common": directive_comm, ".lcomm": directive_comm,
    ".ascii": _strings(False), ".asciz": _strings(True), ".string": _strings(True),
    ".incbin": directive_incbin,
    ".zero": directive_zero, ".space": directive_zero, ".skip": directive_zero,
    ".fill": directive_fill,
    ".uleb128": _leb128(False), ".sleb128": _leb128(True),
    ".p2align": _alignment(True), ".align": _alignment(False), ".balign": _alignment(False),
    ".ident": directive_ident,
    ".addrsig": directive_addrsig, ".addrsig_sym": directive_addrsig_sym,
    ".error": directive_error, ".warning": directive_warning,
}
HANDLERS.update({name: _data(size) for name, size in DATA_SIZES.items()})
# .file, .loc and .cfi_* are written out by dwarf_line.py and cfi.py
for _name in (".loc_mark_labels", ".nops", ".file_info",
              ".debug_line", ".end_section", ".subsections_via_symbols", ".amdgpu_ias"):
    HANDLERS.setdefault(_name, _ignored)

__all__ = ["HANDLERS", "DATA_SIZES"]

"""AMDGPU directives of code object v2 (llvm-mc 14) and v3-v5 (llvm-mc 19).

The assembler collects what the directives say (kernel code structures,
kernel descriptors, metadata, notes, kernel symbols); the ELF package knows
the binary layouts (``elf.kernel_code``, ``elf.kernel_descriptor``,
``elf.metadata``, ``elf.notes``) and builds the bytes.
"""

from __future__ import annotations

import re

from ..elf import constants as elfc
from ..elf import notes as elf_notes
from ..elf.kernel_code import AmdKernelCodeT
from ..elf.kernel_descriptor import KERNEL_DESCRIPTOR_SIZE, KernelDescriptor
from ..errors import ToolchainError
from ..isa.targets import v2_isa
from .expr import Binary, Const, Sym
from .model import Fixup, Location
from .syntax import StringLit, parse_arguments

#: Sections of code object v2 with their llvm-mc 14 types and flags.
_HSA_SECTIONS = {
    ".hsatext": (elfc.SHT_PROGBITS, elfc.SHF_ALLOC | elfc.SHF_WRITE | elfc.SHF_EXECINSTR
                 | elfc.SHF_AMDGPU_HSA_AGENT | elfc.SHF_AMDGPU_HSA_CODE),
    ".hsadata_global_agent": (elfc.SHT_PROGBITS, elfc.SHF_ALLOC | elfc.SHF_WRITE
                              | elfc.SHF_AMDGPU_HSA_GLOBAL | elfc.SHF_AMDGPU_HSA_AGENT),
    ".hsadata_global_program": (elfc.SHT_PROGBITS, elfc.SHF_ALLOC | elfc.SHF_WRITE
                                | elfc.SHF_AMDGPU_HSA_GLOBAL),
    ".hsarodata_readonly_agent": (elfc.SHT_PROGBITS, elfc.SHF_ALLOC | elfc.SHF_AMDGPU_HSA_READONLY
                                  | elfc.SHF_AMDGPU_HSA_AGENT),
}

#: Directives that exist only in code object v2 (llvm-mc 14) sources.
_V2_DIRECTIVES = re.compile(
    r"^\s*\.(hsa_code_object_version|hsa_code_object_isa|amd_kernel_code_t|"
    r"amd_amdgpu_hsa_metadata|amd_amdgpu_isa)\b", re.MULTILINE)
_V3_VERSION = re.compile(r"^\s*\.amdhsa_code_object_version\s+([345])\b", re.MULTILINE)



class AmdgpuState:
    """What the AMDGPU directives of one file have said so far."""

    def __init__(self, ctx):
        self.ctx = ctx
        self.notes: list = []

    # ---- version ---------------------------------------------------------------

    def detect_version(self, source: str):
        """Pick the code object version: option, else directives, else llvm-mc 19's default."""
        ctx = self.ctx
        if ctx.options.requested_version is not None:
            return
        match = _V3_VERSION.search(source)
        if match:
            ctx.options.code_object_version = int(match.group(1))
        elif _V2_DIRECTIVES.search(source):
            ctx.options.code_object_version = 2

    @property
    def is_v2(self) -> bool:
        return self.ctx.options.code_object_version == 2

    def require(self, v2: bool, name: str):
        if v2 != self.is_v2:
            raise ToolchainError(f"directive {name} is not supported with code object "
                                 f"version {self.ctx.options.code_object_version}")

    # ---- notes -----------------------------------------------------------------

    def add_note(self, note):
        """Notes go to ``.note``, created at the point of the first note as llvm-mc does."""
        if ".note" not in self.ctx.sections:
            current, previous = self.ctx.sections.current, self.ctx.sections.previous
            self.ctx.sections.switch(".note", elfc.SHT_NOTE, elfc.SHF_ALLOC)
            self.ctx.sections.current, self.ctx.sections.previous = current, previous
        self.ctx.sections[".note"].alignment = 4
        self.notes.append(note)

    # ---- blocks ----------------------------------------------------------------

    def block(self, name, rest, body, first, end):
        """A collected block; errors at its end line, as llvm-mc reports them."""
        if name == ".amd_kernel_code_t":
            self._amd_kernel_code_t(body, end)
        elif name == ".amdhsa_kernel":
            self._amdhsa_kernel(rest, body, end)
        elif name == ".amdgpu_metadata":
            self._at_end(end, lambda: self._metadata_v3(body))
        elif name == ".amd_amdgpu_hsa_metadata":
            self._at_end(end, lambda: self._metadata_v2(body))

    def _at_end(self, end, action):
        try:
            action()
        except ToolchainError as error:
            self.ctx.diagnostics.error(str(error), None, self._where(end, end.text.strip()))

    def _abandon(self, rest_of_block, end):
        """After a bad line llvm-mc stops reading the block: the rest are plain lines."""
        self.ctx.pending.extendleft(reversed(list(rest_of_block) + [end]))

    def finish(self):
        """Fill in the note section's bytes."""
        section = self.ctx.sections.get(".note")
        if section is not None and self.notes:
            section.data[:] = elf_notes.encode_notes(self.notes)

    # ---- code object v2 ----------------------------------------------------------

    def _amd_kernel_code_t(self, body, end):
        self.require(True, ".amd_kernel_code_t")
        code = AmdKernelCodeT.defaults(self.ctx.target)
        for index, line in enumerate(body):
            text = line.text.strip()
            if not text:
                continue
            key, sep, value = text.partition("=")
            try:
                if not sep:
                    raise ToolchainError("expected '='")
                code.set(key.strip(), self._kernel_code_value(value.strip()))
            except ToolchainError as error:
                self.ctx.diagnostics.error(str(error), None, self._where(line, key.strip()))
                self._abandon(body[index + 1:], end)
                return
        self.ctx.sections.emit(code.to_bytes())

    def _kernel_code_value(self, text):
        args = parse_arguments(text)
        if len(args) != 1:
            raise ToolchainError("expected one value")
        return self.ctx.symbols.absolute(args[0])

    def _where(self, line, token):
        return Location(line.filename, line.number, _column_of(line.raw, token), line.raw)

    def _metadata_v2(self, body):
        from ..elf.metadata import v2_yaml_source_to_note_text  # YAML only when used
        self.require(True, ".amd_amdgpu_hsa_metadata")
        text = "\n".join(line.raw for line in body)
        self.add_note(elf_notes.hsa_metadata_note(v2_yaml_source_to_note_text(text)))

    # ---- code object v3+ ---------------------------------------------------------

    def _amdhsa_kernel(self, rest, body, end):
        self.require(False, ".amdhsa_kernel")
        name = rest.strip()
        if not name:
            raise ToolchainError("expected symbol name after .amdhsa_kernel")
        descriptor = KernelDescriptor.defaults(self.ctx.target,
                                               self.ctx.options.code_object_version,
                                               _target_id(self.ctx))
        seen = set()
        for index, line in enumerate(body):
            text = line.text.strip()
            if not text:
                continue
            key, _, value = text.partition(" ")
            key = key.split("\t")[0]
            try:
                if not key.startswith(".amdhsa_"):
                    raise ToolchainError("expected .amdhsa_ directive or .end_amdhsa_kernel")
                if key in seen:
                    raise ToolchainError(f"{key} already set")
                seen.add(key)
                descriptor.set(key, self._kernel_code_value(text[len(key):].strip()))
            except ToolchainError as error:
                self.ctx.diagnostics.error(str(error), None, self._where(line, key))
                self._abandon(body[index + 1:], end)
                return
        try:
            descriptor.finish()
        except ToolchainError as error:
            self.ctx.diagnostics.error(str(error), None, self._where(end, end.text.strip()))
            return
        self._emit_kernel_descriptor(name, descriptor.to_bytes())

    def _emit_kernel_descriptor(self, name, data):
        """``name.kd``: a 64-byte object in the current section, entry offset relocated."""
        ctx = self.ctx
        kernel = ctx.symbols.named(name)
        kd = ctx.symbols.define_label(name + ".kd")
        kd.visibility = kernel.visibility
        if kernel.visibility == elfc.STV_DEFAULT:
            kernel.visibility = elfc.STV_PROTECTED
        kd.sym_type = elfc.STT_OBJECT
        kd.size_expr = Const(KERNEL_DESCRIPTOR_SIZE)
        kd.binding = kernel.binding if kernel.binding is not None else elfc.STB_LOCAL
        start = ctx.sections.current.size
        ctx.sections.emit(data)
        entry = Binary("-", Sym(name), Sym(kd.name))
        ctx.sections.current.fixups.append(_kd_fixup(ctx, start + 16, entry))

    def _metadata_v3(self, body):
        from ..elf.metadata import yaml_source_to_msgpack  # YAML, MessagePack only when used
        self.require(False, ".amdgpu_metadata")
        text = "\n".join(line.raw for line in body)
        self.add_note(elf_notes.amdgpu_metadata_note(yaml_source_to_msgpack(text)))


def _kd_fixup(ctx, offset, expr):
    return Fixup(ctx.sections.current, offset, 8, "kd_entry", expr, ctx.diagnostics.location())


def _column_of(raw: str, token: str) -> int:
    index = raw.find(token) if token else -1
    return index + 1 if index >= 0 else len(raw) - len(raw.lstrip()) + 1


def _string_arg(ctx, directive):
    args = parse_arguments(directive.rest, directive.rest_column - 1) if directive.rest else []
    if len(args) != 1 or not isinstance(args[0], StringLit):
        raise ToolchainError("expected a string")
    return args[0].value.decode()


# ---- one-line directives ----------------------------------------------------------

def directive_hsa_code_object_version(ctx, directive):
    ctx.amdgpu.require(True, directive.name)
    args = parse_arguments(directive.rest) if directive.rest else []
    if len(args) != 2:
        raise ToolchainError("expected major and minor version")
    ctx.amdgpu.add_note(elf_notes.code_object_version_note(ctx.symbols.absolute(args[0]),
                                                           ctx.symbols.absolute(args[1])))


def directive_hsa_code_object_isa(ctx, directive):
    ctx.amdgpu.require(True, directive.name)
    args = parse_arguments(directive.rest) if directive.rest else []
    if not args:
        major, minor, stepping = v2_isa(ctx.target, ctx.features.get("xnack"))[1]
        vendor, arch = "AMD", "AMDGPU"
    elif len(args) == 5 and all(isinstance(a, StringLit) for a in args[3:]):
        major, minor, stepping = (ctx.symbols.absolute(a) for a in args[:3])
        vendor, arch = args[3].value.decode(), args[4].value.decode()
    else:
        raise ToolchainError("expected major, minor, stepping, vendor and arch")
    ctx.amdgpu.add_note(elf_notes.isa_version_note(major, minor, stepping, vendor, arch))


def directive_amd_amdgpu_isa(ctx, directive):
    ctx.amdgpu.require(True, directive.name)
    isa_name = _string_arg(ctx, directive)
    expected = _target_id(ctx)
    if isa_name != expected:
        raise ToolchainError(".amd_amdgpu_isa directive does not match triple and/or mcpu "
                             "arguments specified through the command line")
    ctx.amdgpu.add_note(elf_notes.isa_name_note(isa_name))


def _target_id(ctx) -> str:
    """The target id llvm-mc expects, spelled as the code object version does:
    v2 a processor name of its own for xnack (gfx901), v3 ``+xnack+sram-ecc``
    for features on or any, v4+ ``:sramecc±:xnack±`` for features set."""
    target, features = ctx.target, ctx.features
    version = ctx.options.code_object_version
    if version == 2:
        return f"amdgcn-amd-amdhsa--{v2_isa(target, features.get('xnack'))[0]}"
    text = f"amdgcn-amd-amdhsa--{target.name}"
    if version == 3:
        if target.supports_xnack and features.get("xnack") is not False:
            text += "+xnack"
        if target.supports_sramecc and features.get("sramecc") is not False:
            text += "+sram-ecc"
        return text
    for feature in ("sramecc", "xnack"):
        setting = features.get(feature)
        if setting is not None:
            text += f":{feature}{'+' if setting else '-'}"
    return text


def directive_amdgcn_target(ctx, directive):
    ctx.amdgpu.require(False, directive.name)
    target_id = _string_arg(ctx, directive)
    expected = _target_id(ctx)
    if target_id != expected:
        raise ToolchainError(f".amdgcn_target directive's target id {target_id} does not match "
                             f"the specified target id {expected}")


def directive_amdhsa_code_object_version(ctx, directive):
    ctx.amdgpu.require(False, directive.name)
    args = parse_arguments(directive.rest) if directive.rest else []
    if len(args) != 1:
        raise ToolchainError("expected a version number")
    version = ctx.symbols.absolute(args[0])
    if version not in (3, 4, 5):
        ctx.diagnostics.warning(f"code object version {version} is not supported; keeping "
                                f"version {ctx.options.code_object_version}",
                                directive.rest_column)
        return
    ctx.options.code_object_version = version


def directive_amdgpu_hsa_kernel(ctx, directive):
    args = parse_arguments(directive.rest) if directive.rest else []
    if len(args) != 1 or not isinstance(args[0], Sym):
        raise ToolchainError("expected symbol name")
    symbol = ctx.symbols.named(args[0].name)
    symbol.sym_type = elfc.STT_AMDGPU_HSA_KERNEL


def directive_amdgpu_lds(ctx, directive):
    args = parse_arguments(directive.rest) if directive.rest else []
    if len(args) not in (2, 3) or not isinstance(args[0], Sym):
        raise ToolchainError("expected symbol name, size and optional alignment")
    symbol = ctx.symbols.named(args[0].name)
    size = ctx.symbols.absolute(args[1])
    align = ctx.symbols.absolute(args[2]) if len(args) == 3 else 4
    if size < 0 or size > 0xFFFFFFFF:
        raise ToolchainError("size is too large")
    if align <= 0 or align & (align - 1):
        raise ToolchainError("alignment must be a power of two")
    if symbol.defined:
        raise ToolchainError(f"symbol '{symbol.name}' is already defined")
    symbol.defined = True
    symbol.lds = (size, align)
    symbol.sym_type = elfc.STT_OBJECT
    if symbol.binding is None:
        symbol.binding = elfc.STB_GLOBAL


def _hsa_section(name):
    def handler(ctx, directive):
        sh_type, flags = _HSA_SECTIONS[name]
        ctx.sections.switch(name, sh_type, flags)
    return handler


HANDLERS = {
    ".hsa_code_object_version": directive_hsa_code_object_version,
    ".hsa_code_object_isa": directive_hsa_code_object_isa,
    ".amd_amdgpu_isa": directive_amd_amdgpu_isa,
    ".amdgcn_target": directive_amdgcn_target,
    ".amdhsa_code_object_version": directive_amdhsa_code_object_version,
    ".amdgpu_hsa_kernel": directive_amdgpu_hsa_kernel,
    ".amdgpu_lds": directive_amdgpu_lds,
}
HANDLERS.update({name: _hsa_section(name) for name in _HSA_SECTIONS})

"""Line-level control before parsing: conditionals, macros and repetition.

These work on raw source lines (macro bodies need not parse until they are
expanded; lines in a false ``.if`` branch are never parsed), so the
assembler's driver consults them before handing a line to the grammar.
Expanded lines go back to the front of the pending queue with their
original line numbers, and a nesting depth bounded as in llvm-mc.
"""

from __future__ import annotations

import re

from ..errors import ToolchainError
from .diagnostics import StatementError
from .source import SourceLine, find_include, split_arguments, strip_comments
from .syntax import parse_arguments

#: Directives that open a block whose lines are collected raw until the end marker.
BLOCKS = {
    ".macro": ".endm", ".rept": ".endr", ".irp": ".endr", ".irpc": ".endr",
    ".amd_kernel_code_t": ".end_amd_kernel_code_t",
    ".amdhsa_kernel": ".end_amdhsa_kernel",
    ".amdgpu_metadata": ".end_amdgpu_metadata",
    ".amd_amdgpu_hsa_metadata": ".end_amd_amdgpu_hsa_metadata",
}
_NESTING = {".macro": (".macro",), ".endm": (".macro",),
            ".rept": (".rept", ".irp", ".irpc"), ".irp": (".rept", ".irp", ".irpc"),
            ".irpc": (".rept", ".irp", ".irpc")}

_CONDITIONALS = frozenset((
    ".if", ".ifdef", ".ifndef", ".ifnotdef", ".ifeq", ".ifne", ".ifgt", ".ifge",
    ".iflt", ".ifle", ".ifb", ".ifnb", ".ifc", ".ifnc", ".ifeqs", ".ifnes",
    ".elseif", ".else", ".endif",
))

_MAX_EXPANSION_LINES = 1_000_000
_MAX_NESTING = 20
#: Files deep that .include may nest (llvm-mc recurses without a bound).
_MAX_INCLUDE_DEPTH = 64


class ControlFlow:
    """Mixin of ``Assembler``: the pre-parse handling of each line."""

    @property
    def active(self) -> bool:
        conditions = self.conditions
        return not conditions or all(entry[0] for entry in conditions)

    def _handle_control(self, line: SourceLine, text: str) -> bool:
        """Conditionals, blocks and macro calls, handled before parsing the line."""
        word, _, rest = text.partition(" ")
        if "\t" in word:
            word, _, more = word.partition("\t")
            rest = (more + " " + rest).strip()
        lowered = word.lower()
        if lowered in _CONDITIONALS:
            self._conditional(lowered, rest.strip())
            return True
        if not self.active:
            return True
        if lowered in BLOCKS:
            if lowered in (".irp", ".irpc") and not rest.strip().split(",")[0].strip():
                raise StatementError(f"expected identifier in '{lowered}' directive",
                                     self._first_column(line))
            self._collect_block(lowered, rest.strip(), line)
            return True
        if lowered in (".endm", ".endr", ".endmacro"):
            raise StatementError(f"unexpected '{word}' outside a block", self._first_column(line))
        if lowered == ".include":
            self._include(rest, line)
            return True
        if lowered in (".end",):
            self.pending.clear()
            return True
        if lowered in self.macros:
            self._expand_macro(lowered, rest, line)
            return True
        return False

    # ---- .include ------------------------------------------------------------------

    def _include(self, rest: str, line: SourceLine):
        """Queue the lines of the named file in place of the ``.include`` line.

        The file is looked up as llvm-mc does (source.find_include); its lines
        keep their own file name and numbers, and carry the chain of include
        sites so diagnostics print llvm-mc's "Included from" lines.
        """
        column = len(line.text) - len(line.text.lstrip()) + len(".include") + 1
        column += len(rest) - len(rest.lstrip()) + 1
        name = _quoted(rest)
        if name is None:
            raise StatementError("expected string in '.include' directive", column)
        chain = line.included_from + ((line.filename, line.number),)
        if len(chain) > _MAX_INCLUDE_DEPTH:
            raise StatementError(f"'.include' nested more than {_MAX_INCLUDE_DEPTH} files deep "
                                 "(a file that includes itself?)", column)
        path = find_include(name, self.options.include_dirs)
        if path is None:
            raise StatementError(f"Could not find include file '{name}'", column)
        try:
            with open(path, encoding="utf-8", errors="surrogateescape") as handle:
                text = handle.read()
        except OSError as error:
            raise StatementError(f"cannot read include file '{name}': {error.strerror}",
                                 column) from None
        self.amdgpu.detect_version(text)
        self.pending.extendleft(reversed(strip_comments(text, path, chain)))

    # ---- conditionals ------------------------------------------------------------

    def _conditional(self, name: str, rest: str):
        if name == ".endif":
            if not self.conditions:
                raise StatementError("unmatched .endif", 1)
            self.conditions.pop()
            return
        if name in (".else", ".elseif"):
            if not self.conditions:
                raise StatementError(f"unmatched {name}", 1)
            _, taken, parent = self.conditions[-1]
            if name == ".else":
                self.conditions[-1] = (parent and not taken, True, parent)
            else:
                value = (parent and not taken) and self._condition_value(".if", rest)
                self.conditions[-1] = (value, taken or value, parent)
            return
        parent = self.active
        try:
            value = parent and self._condition_value(name, rest)
        except ToolchainError:
            self.conditions.append((False, True, parent))  # the block still needs its .endif
            raise
        self.conditions.append((value, value, parent))

    def _condition_value(self, name: str, rest: str) -> bool:
        if name in (".ifdef", ".ifndef", ".ifnotdef"):
            symbol = self.symbols.get(rest.strip())
            defined = symbol is not None and (symbol.defined or symbol.variable is not None)
            return defined if name == ".ifdef" else not defined
        if name in (".ifb", ".ifnb"):
            return (not rest) == (name == ".ifb")
        if name in (".ifc", ".ifnc", ".ifeqs", ".ifnes"):
            parts = split_arguments(rest)
            if len(parts) != 2:
                raise StatementError(f"{name} needs two arguments", 1)
            same = parts[0].strip().strip('"') == parts[1].strip().strip('"')
            return same if name in (".ifc", ".ifeqs") else not same
        value = self.symbols.absolute(self._single_expression(rest))
        return {
            ".if": value != 0, ".ifne": value != 0, ".ifeq": value == 0,
            ".ifgt": value > 0, ".ifge": value >= 0, ".iflt": value < 0, ".ifle": value <= 0,
        }[name]

    def _single_expression(self, text: str):
        args = parse_arguments(text)
        if len(args) != 1:
            raise StatementError("expected one expression", 1)
        return args[0]

    # ---- blocks, macros, repetition ----------------------------------------------

    def _collect_block(self, name: str, rest: str, first: SourceLine):
        end = BLOCKS[name]
        family = _NESTING.get(name, ())
        depth = 1
        body = []
        while self.pending:
            line = self.pending.popleft()
            word = line.text.strip().split(None, 1)[0].lower() if line.text.strip() else ""
            if word in family:
                depth += 1
            elif word == end or (end == ".endm" and word == ".endmacro"):
                depth -= 1
                if depth == 0:
                    self._block(name, rest, body, first, line)
                    return
            body.append(line)
        raise StatementError(f"no matching '{end}' for '{name}'", self._first_column(first))

    def _block(self, name, rest, body, first, end):
        if name == ".macro":
            self._define_macro(rest, body)
        elif name == ".rept":
            count = self.symbols.absolute(self._single_expression(rest))
            if count < 0:
                raise StatementError("Count is negative", None)
            self._check_expansion(count * len(body))
            self._push_expansion([line for _ in range(count) for line in body], first)
        elif name in (".irp", ".irpc"):
            self._irp(name, rest, body, first)
        else:
            self.amdgpu.block(name, rest, body, first, end)

    def _check_expansion(self, count):
        if self.expanded_lines + count > _MAX_EXPANSION_LINES:
            raise StatementError(f"macro or repetition expansion exceeds {_MAX_EXPANSION_LINES} lines", None)

    def _push_expansion(self, lines, origin):
        """Queue expanded lines; nesting deeper than llvm-mc's 20 levels is an error.
        After that error the rest of the runaway expansion (every queued line
        from a macro, up to the next line of a file) is dropped: a macro that calls
        itself twice would otherwise report 2**20 depth errors (llvm-mc-19, which
        goes on, runs for minutes on such a file)."""
        depth = origin.depth + 1
        if depth > _MAX_NESTING:
            while self.pending and self.pending[0].depth > 0:
                self.pending.popleft()
            raise StatementError(f"macros cannot be nested more than {_MAX_NESTING} levels deep", None)
        self._check_expansion(len(lines))
        self.expanded_lines += len(lines)
        self.pending.extendleft(reversed([l._replace(depth=depth) for l in lines]))

    def _irp(self, name, rest, body, first):
        symbol, _, values = rest.partition(",")
        symbol = symbol.strip()
        if not symbol:
            raise StatementError(f"{name} needs a parameter name", 1)
        items = split_arguments(values) if name == ".irp" else list(values.strip())
        lines = []
        for item in items or [""]:
            lines.extend(_substitute(line, {symbol: item}) for line in body)
        self._push_expansion(lines, first)

    def _define_macro(self, rest, body):
        match = re.match(r"\s*([^\s,]+)\s*,?\s*(.*)", rest)
        name, params = (match.group(1).lower(), match.group(2)) if match else ("", "")
        if not name:
            raise StatementError("expected a macro name", 1)
        parameters = []
        for param in split_arguments(params.replace(" ", ",")) if params.strip() else []:
            if not param:
                continue
            pname, _, default = param.partition("=")
            pname = pname.split(":")[0].strip()
            parameters.append((pname, default.strip()))
        self.macros[name] = (parameters, body)

    def _expand_macro(self, name, rest, line):
        parameters, body = self.macros[name]
        args = split_arguments(rest) if rest.strip() else []
        if len(args) == 1 and len(parameters) > 1 and " " in args[0]:
            args = args[0].split()
        if len(args) > len(parameters):
            raise StatementError(f"too many arguments for macro '{name}'", self._first_column(line))
        values = {}
        for index, (pname, default) in enumerate(parameters):
            values[pname] = args[index] if index < len(args) and args[index] != "" else default
        values["@"] = str(self.macro_counter)
        self.macro_counter += 1
        expanded = [line._replace(text=_substitute(b, values).text) for b in body]
        self._push_expansion(expanded, line)


def _substitute(line: SourceLine, values: dict) -> SourceLine:
    text = line.text
    if "\\" in text:
        for name in sorted(values, key=len, reverse=True):
            text = text.replace("\\" + name, values[name])
        text = text.replace("\\()", "")
    return line._replace(text=text)


def _quoted(text: str) -> str | None:
    """The contents of a double-quoted string that is all of ``text``, else None."""
    match = re.fullmatch(r'\s*"((?:[^"\\]|\\.)*)"\s*', text)
    return match.group(1) if match else None

"""Diagnostics in llvm-mc's format: ``FILE:LINE:COL: error: MESSAGE``, the
source line, and a caret under the column."""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import ToolchainError
from .model import Location


class StatementError(ToolchainError):
    """An error at a given column of the current line."""

    def __init__(self, message, column=None):
        super().__init__(message)
        self.column = column


@dataclass
class Diagnostic:
    severity: str  # 'error' or 'warning'
    message: str
    where: object  # model.Location

    def format(self) -> str:
        where = self.where
        head = f"{where.filename}:{where.line}:{where.column}: {self.severity}: {self.message}"
        included = "".join(f"Included from {filename}:{line}:\n"
                           for filename, line in getattr(where, "included_from", ()))
        head = included + head
        if not where.line:
            return head
        source = where.source.expandtabs(8)
        caret = " " * len(where.source[:max(where.column - 1, 0)].expandtabs(8)) + "^"
        return f"{head}\n{source}\n{caret}"

    def __str__(self):
        return self.format()


class Diagnostics(list):
    """Every diagnostic of one file, in order, and where assembly is in the file."""

    def __init__(self, filename: str):
        super().__init__()
        self.filename = filename
        self.line = None      # the SourceLine being assembled (None outside the line loop)
        self.end_line = 0     # where end-of-file errors point

    def location(self, column=None) -> Location:
        line = self.line
        if line is None:
            return Location(self.filename, 0, 1, "")
        return Location(line.filename, line.number, column or first_column(line), line.raw,
                        line.included_from)

    def error(self, message, column=None, where: Location | None = None):
        self.append(Diagnostic("error", message, where or self.location(column)))

    def warning(self, message, column=None, where: Location | None = None):
        self.append(Diagnostic("warning", message, where or self.location(column)))


def first_column(line) -> int:
    """The column of a line's first non-blank character."""
    return len(line.text) - len(line.text.lstrip()) + 1

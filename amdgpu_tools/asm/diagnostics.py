"""Diagnostics in llvm-mc's format: ``FILE:LINE:COL: error: MESSAGE``, the
source line, and a caret under the column."""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import ToolchainError


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

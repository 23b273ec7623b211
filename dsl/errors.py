"""Located errors shared by every stage: a fault in a data file, at a line and column.

Kept apart from the YAML loader so that code that only reports errors does not import the YAML
and JSON Schema libraries (start-up time matters to a command line).
"""

from __future__ import annotations


class SantoriniError(Exception):
    """The root of every error the package raises on purpose: a caller (a bot, a web front end)
    can catch this one class and be sure that anything else is a bug."""


class SourceError(SantoriniError):
    """One fault in a data file, at a 1-based line and column, printed like a compiler error."""

    def __init__(self, file: str, line: int, column: int, message: str) -> None:
        self.file = file
        self.line = line
        self.column = column
        self.message = message
        super().__init__(str(self))

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}: {self.message}"


class SourceErrors(SantoriniError):
    """All the faults of one file: an author fixes them in one pass instead of one run per fault."""

    def __init__(self, errors: list[SourceError]) -> None:
        self.errors = errors
        super().__init__(str(self))

    def __str__(self) -> str:
        return "\n".join(str(error) for error in self.errors)

"""The raw results of a run as a CSV table, one row a game: what a user loads into a spreadsheet or
a data frame, and what `read_raw` turns back into the very records the report was built from."""

from __future__ import annotations

import csv
from collections.abc import Iterable
from pathlib import Path

from ...dsl.errors import SantoriniError
from .records import EndKind, GameResult, Matchup

__all__ = ["COLUMNS", "RawResultsError", "read_raw", "write_raw"]

COLUMNS = ("first", "second", "index", "seed", "agent", "winner", "end", "turns")


class RawResultsError(SantoriniError):
    """A results table that is not one this module wrote: the file and line, and what is wrong."""


def write_raw(results: Iterable[GameResult], path: Path) -> Path:
    """Write `results` to `path`, sorted by matchup and game (the same file for the same games).
    `winner` is the seat, 0 or 1, and empty when no one won; `end` is the EndKind's value."""
    rows = sorted(results, key=lambda r: (r.matchup, r.index, r.seed, r.agent))
    with path.open("w", encoding="utf-8", newline="") as out:
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(COLUMNS)
        for r in rows:
            writer.writerow([r.matchup.first, r.matchup.second, r.index, r.seed, r.agent,
                             "" if r.winner is None else r.winner, r.end.value, r.turns])
    return path


def read_raw(path: Path) -> list[GameResult]:
    """The records of a table written by `write_raw`, in its order."""
    with Path(path).open(encoding="utf-8", newline="") as source:
        reader = csv.reader(source)
        header = next(reader, None)
        if header is None or tuple(header) != COLUMNS:
            raise RawResultsError(f"{path}:1: expected the columns {','.join(COLUMNS)}, found {header}")
        return [_record(row, path, reader.line_num) for row in reader if row]


def _record(row: list[str], path: Path, line: int) -> GameResult:
    if len(row) != len(COLUMNS):
        raise RawResultsError(f"{path}:{line}: expected {len(COLUMNS)} fields, found {len(row)}")
    first, second, index, seed, agent, winner, end, turns = row
    try:
        kind = EndKind(end)
    except ValueError:
        raise RawResultsError(f"{path}:{line}: unknown end {end!r}; ends are "
                              f"{', '.join(k.value for k in EndKind)}") from None
    if winner not in ("", "0", "1"):
        raise RawResultsError(f"{path}:{line}: the winner is seat 0, 1 or empty, not {winner!r}")
    return GameResult(Matchup(first, second), _int(index, "index", path, line), _int(seed, "seed", path, line),
                      agent, None if winner == "" else int(winner), kind, _int(turns, "turns", path, line))


def _int(text: str, name: str, path: Path, line: int) -> int:
    try:
        return int(text)
    except ValueError:
        raise RawResultsError(f"{path}:{line}: {name} is a whole number, not {text!r}") from None

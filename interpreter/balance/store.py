"""The results of a run, in SQLite (`DIR/results.sqlite`), written as they arrive.

One folder holds one run. The `run` table keeps the run's identity (plan.RunSpec); the `games`
table one row per game, keyed by (matchup key, index). Each batch of results is committed as soon
as it comes back, so a run that is killed loses only the games still being played, and the same
command run again plays only the games the store does not have. A run of another identity (other
agent, seed, pack rules, cards, games or turn limit) in the same folder is refused: its games
would not be the same games, and mixing them would make a report of nothing in particular.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable
from pathlib import Path

from ...dsl.errors import SantoriniError
from .plan import RunSpec
from .records import EndKind, GameResult, Matchup

FILE_NAME = "results.sqlite"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS run (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    identity TEXT NOT NULL,
    pack TEXT NOT NULL, pack_digest TEXT NOT NULL, agent TEXT NOT NULL, seed INTEGER NOT NULL,
    games INTEGER NOT NULL, gods TEXT NOT NULL, against TEXT NOT NULL, matrix INTEGER NOT NULL,
    max_turns INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS games (
    matchup TEXT NOT NULL, idx INTEGER NOT NULL,
    first TEXT NOT NULL, second TEXT NOT NULL, seed INTEGER NOT NULL, agent TEXT NOT NULL,
    winner INTEGER, end_kind TEXT NOT NULL, turns INTEGER NOT NULL,
    PRIMARY KEY (matchup, idx)
);
"""


class StoreError(SantoriniError):
    """A store that cannot hold this run: another run's folder, or a file that is not a store."""


class Store:
    """A run's results on disk. Use as a context manager (closes the connection)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        try:
            self._db = sqlite3.connect(path)
            self._db.execute("PRAGMA journal_mode=WAL")  # readers (a progress watcher, a test) do not block it
            self._db.executescript(_SCHEMA)
        except sqlite3.DatabaseError as err:
            raise StoreError(f"{path}: not a results store ({err})") from None

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._db.close()

    def claim(self, spec: RunSpec) -> None:
        """Make this store the store of `spec`'s run, or check that it already is."""
        row = self._db.execute("SELECT identity FROM run WHERE id = 1").fetchone()
        if row is None:
            with self._db:
                self._db.execute("INSERT INTO run VALUES (1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                                 (spec.identity(), spec.pack, spec.pack_digest, spec.agent, spec.seed, spec.games,
                                  ",".join(spec.gods), ",".join(spec.against), int(spec.matrix), spec.max_turns))
        elif row[0] != spec.identity():
            raise StoreError(f"{self.path.parent} holds another run ({_differences(row[0], spec)}); "
                             "give another --out folder, or the same settings to resume it")

    def done(self) -> set[tuple[str, int]]:
        """The (matchup key, index) of every game stored."""
        return {(key, index) for key, index in self._db.execute("SELECT matchup, idx FROM games")}

    def add(self, results: Iterable[GameResult]) -> None:
        """Store results and commit them now (a batch at a time)."""
        with self._db:
            self._db.executemany("INSERT OR REPLACE INTO games VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                                 [(r.matchup.key, r.index, r.matchup.first, r.matchup.second, r.seed, r.agent,
                                   r.winner, r.end.value, r.turns) for r in results])

    def results(self) -> list[GameResult]:
        """Every stored game, sorted by matchup key and index (the same order whoever played them)."""
        rows = self._db.execute("SELECT first, second, idx, seed, agent, winner, end_kind, turns FROM games "
                                "ORDER BY matchup, idx")
        return [GameResult(Matchup(first, second), index, seed, agent, winner, EndKind(end), turns)
                for first, second, index, seed, agent, winner, end, turns in rows]

    def count(self) -> int:
        count: int = self._db.execute("SELECT COUNT(*) FROM games").fetchone()[0]
        return count


def open_store(out_dir: Path) -> Store:
    """The store of the run folder `out_dir` (made if missing)."""
    if out_dir.exists() and not out_dir.is_dir():
        raise StoreError(f"--out {out_dir}: that is a file; give a folder")
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise StoreError(f"--out {out_dir}: cannot make the folder ({(err.strerror or str(err)).lower()})") from None
    return Store(out_dir / FILE_NAME)


def _differences(stored: str, spec: RunSpec) -> str:
    """What differs between the stored identity and this one, as 'agent greedy, not mcts:5'."""
    old, new = json.loads(stored), json.loads(spec.identity())
    parts = [f"{key} {_shown(old.get(key))}, not {_shown(new[key])}" for key in sorted(new) if old.get(key) != new[key]]
    return "; ".join(parts) or "another identity"


def _shown(value: object) -> str:
    return ",".join(map(str, value)) if isinstance(value, list) else str(value)

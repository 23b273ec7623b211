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
from .plan import MAX_TURNS, RunSpec
from .records import EndKind, GameResult, Matchup
from .seeding import game_seed

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


#: The files SQLite keeps in the run's folder: the store, and (in WAL mode) its log and index.
FILES = (FILE_NAME, f"{FILE_NAME}-wal", f"{FILE_NAME}-shm")

#: What a damaged store's message ends with: how to go on.
_RECOVER = "fix or delete that row, or delete the store to play the run again, or give another --out folder"


class Store:
    """A run's results on disk. Use as a context manager (closes the connection).

    Nothing is taken from the file on trust: it may have been edited, or written by something else,
    so each value read is checked (its type, its range, the seat, the end) and a bad one is one
    StoreError naming the file and the row, before any game is played from it."""

    def __init__(self, path: Path) -> None:
        self.path = path
        #: The run this store was claimed for: what the rows read are checked against.
        self._spec: RunSpec | None = None
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
        rows = self._query("SELECT identity FROM run WHERE id = 1")
        if not rows:
            try:
                with self._db:
                    self._db.execute("INSERT INTO run VALUES (1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                                     (spec.identity(), spec.pack, spec.pack_digest, spec.agent, spec.seed,
                                      spec.games, ",".join(spec.gods), ",".join(spec.against), int(spec.matrix),
                                      spec.max_turns))
            except (sqlite3.Error, OverflowError) as err:
                raise StoreError(f"{self.path}: cannot record the run ({err})") from None
        elif rows[0][0] != spec.identity():
            raise StoreError(f"{self.path.parent} holds another run ({self._differences(rows[0][0], spec)}); "
                             "give another --out folder, or the same settings to resume it")
        self._spec = spec

    def done(self) -> set[tuple[str, int]]:
        """The (matchup key, index) of every game stored (every row checked, as `results` does)."""
        return {(r.matchup.key, r.index) for r in self.results()}

    def add(self, results: Iterable[GameResult]) -> None:
        """Store results and commit them now (a batch at a time)."""
        try:
            with self._db:
                self._db.executemany("INSERT OR REPLACE INTO games VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                                     [(r.matchup.key, r.index, r.matchup.first, r.matchup.second, r.seed, r.agent,
                                       r.winner, r.end.value, r.turns) for r in results])
        except sqlite3.Error as err:  # a full disk, a folder made read-only during the run
            raise StoreError(f"{self.path}: cannot store results ({err}); the games stored before are kept: "
                             "run the same command again to play the rest") from None

    def results(self) -> list[GameResult]:
        """Every stored game, sorted by matchup key and index (the same order whoever played them).

        Each row is checked (StoreError names the file and the row): a report must not be built
        from a winner or an end that no game could have had."""
        rows = self._query("SELECT rowid, matchup, idx, first, second, seed, agent, winner, end_kind, turns "
                           "FROM games ORDER BY matchup, idx")
        results = []
        seen: set[tuple[str, int]] = set()
        for row in rows:
            result = self._game(row)
            key = (result.matchup.key, result.index)
            if key in seen:
                raise self._damaged(f"row {row[0]} repeats {key[0]!r} game {key[1]}")
            seen.add(key)
            results.append(result)
        return results

    def count(self) -> int:
        count = self._query("SELECT COUNT(*) FROM games")[0][0]
        return count if isinstance(count, int) else 0  # (SQLite's COUNT is always an integer)

    def _query(self, sql: str) -> list[tuple[object, ...]]:
        """The rows of a query; tables that are not this program's (edited, or another program's
        file) are one StoreError instead of SQLite's own traceback."""
        try:
            return list(self._db.execute(sql).fetchall())
        except sqlite3.Error as err:
            raise StoreError(f"{self.path}: not a results store of this program ({err}); delete it to play the "
                             "run again, or give another --out folder") from None

    def _damaged(self, what: str) -> StoreError:
        return StoreError(f"{self.path}: damaged results store: {what}; {_RECOVER}")

    def _game(self, row: tuple[object, ...]) -> GameResult:
        """One row of the games table as a record, each value checked (against the claimed run
        when there is one: its agent, each game's seed, the turn limit)."""
        rowid, key, index, first, second, seed, agent, winner, end, turns = row
        name = f"row {rowid} ({_clipped(key)} game {_clipped(index)})"

        def bad(what: str) -> StoreError:
            return self._damaged(f"{name}: {what}")
        spec = self._spec
        if not (isinstance(first, str) and first and isinstance(second, str) and second):
            raise bad(f"the cards are names, not {_clipped(first)} and {_clipped(second)}")
        matchup = Matchup(first, second)
        if key != matchup.key:
            raise bad(f"the matchup is {matchup.key!r}, from its cards")
        if type(index) is not int or index < 0:
            raise bad(f"the game's index is a whole number, 0 or more, not {_clipped(index)}")
        if type(seed) is not int or not 0 <= seed < 2**63:
            raise bad(f"the seed is a whole number from 0 to 2^63 - 1, not {_clipped(seed)}")
        if spec is not None and seed != game_seed(spec.seed, key, index):
            raise bad(f"the seed {seed} is not that game's (run seed {spec.seed})")
        if not isinstance(agent, str):
            raise bad(f"the agent is a spec such as 'greedy', not {_clipped(agent)}")
        if spec is not None and agent != spec.agent:
            raise bad(f"the agent is the run's, {spec.agent!r}, not {_clipped(agent)}")
        if winner is not None and (type(winner) is not int or winner not in (0, 1)):
            raise bad(f"the winner is seat 0, 1 or NULL (no one), not {_clipped(winner)}")
        kinds = [kind.value for kind in EndKind]
        if end not in kinds:
            raise bad(f"the end is one of {', '.join(kinds)}, not {_clipped(end)}")
        kind = EndKind(end)
        if (winner is None) != (kind is EndKind.LIMIT):
            raise bad(f"a game with {'no' if winner is None else 'a'} winner cannot end by {end}")
        most, limit = (spec.max_turns, "the run's turn limit") if spec else (MAX_TURNS, "the longest turn limit")
        if type(turns) is not int or not 0 <= turns <= most:
            raise bad(f"the turns are a whole number from 0 to {most} ({limit}), not {_clipped(turns)}")
        return GameResult(matchup, index, seed, agent, winner, kind, turns)

    def _differences(self, stored: object, spec: RunSpec) -> str:
        """What differs between the stored identity and this one, as 'agent greedy, not mcts:5'."""
        try:
            old = json.loads(stored) if isinstance(stored, str) else None
        except (ValueError, RecursionError):  # (JSON nested deeper than the parser goes)
            old = None
        if not isinstance(old, dict):
            raise self._damaged(f"the run's identity (table run) is not a run's JSON record: {_clipped(stored)}")
        new = json.loads(spec.identity())
        parts = [f"{key} {_shown(old.get(key))}, not {_shown(new[key])}" for key in sorted(new)
                 if old.get(key) != new[key]]
        return "; ".join(parts) or "another identity"


def open_store(out_dir: Path) -> Store:
    """The store of the run folder `out_dir` (made if missing)."""
    if out_dir.exists() and not out_dir.is_dir():
        raise StoreError(f"--out {out_dir}: that is a file; give a folder")
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise StoreError(f"--out {out_dir}: cannot make the folder ({(err.strerror or str(err)).lower()})") from None
    return Store(out_dir / FILE_NAME)


def _shown(value: object) -> str:
    return ",".join(map(str, value)) if isinstance(value, list) else str(value)


def _clipped(value: object, most: int = 60) -> str:
    """A value as shown in a message, cut short: a damaged field may be long."""
    text = repr(value)
    return text if len(text) <= most else f"{text[:most]}..."

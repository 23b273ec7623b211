"""What a balance run stores and reports on: one record per game played.

The runner (runner.py) writes these records as games finish (store.py keeps them in SQLite), and
the statistics and the report (stats.py, ratings.py, report.py) read nothing else. Keeping the
record flat and complete is what lets a report be rebuilt from the store alone, and what makes two
runs comparable record by record whatever played them (`--jobs`, the backend).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class EndKind(str, Enum):
    """How a game ended."""

    #: A worker moved up onto the winning level (the rulebook's win).
    CLIMB = "climb"
    #: A win or a loss that a power gave (a win condition of a card, a power that makes a player lose).
    POWER = "power"
    #: A player could not complete a turn (with two players, the other one wins).
    STUCK = "stuck"
    #: No winner within the turn limit.
    LIMIT = "limit"


@dataclass(frozen=True, order=True)
class Matchup:
    """Two cards in one seat order: `first` plays seat A (moves first), `second` seat B."""

    first: str
    second: str

    @property
    def key(self) -> str:
        """The seat-ordered name, 'First v Second': part of every game's seed."""
        return f"{self.first} v {self.second}"

    @property
    def swapped(self) -> Matchup:
        return Matchup(self.second, self.first)


@dataclass(frozen=True)
class GameResult:
    """One game of a balance run: who played which seat, with what, and how it ended."""

    matchup: Matchup
    #: The game's number within its seat-ordered matchup, from 0.
    index: int
    #: The seed the game was played from (derived from the run's seed, the matchup and `index`).
    seed: int
    #: The agent spec both seats played with (e.g. 'mcts:400').
    agent: str
    #: The seat that won: 0 (seat A, `matchup.first`), 1 (seat B), or None when no one won.
    winner: int | None
    end: EndKind
    #: Turns played (plies: each seat's turn counts one).
    turns: int

    @property
    def winner_card(self) -> str | None:
        if self.winner is None:
            return None
        return self.matchup.first if self.winner == 0 else self.matchup.second

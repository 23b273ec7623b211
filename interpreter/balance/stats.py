"""The figures of a balance report, computed from game records alone (records.py).

How a game scores: a win is 1, a loss 0, and a game with no winner (the turn limit) half a win to
each side, as chess scores a draw. A no-winner game thus pulls a matchup towards 50% instead of
vanishing from it, and the interval stays one of a proportion of `games`. The first-seat figures
are different: they ask which seat won, so they count decided games only.

Every function here sorts what it aggregates, so that the same games give the same figures (to the
bit) in whatever order they arrive: the report built on them is then byte-deterministic.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Iterable
from dataclasses import dataclass

from ...dsl.errors import SantoriniError
from .records import EndKind, GameResult

__all__ = [
    "BAND",
    "DRAW_SCORE",
    "LengthSummary",
    "OpponentRow",
    "SeatAdvantage",
    "StatsError",
    "Z95",
    "card_scores",
    "cards_of",
    "end_counts",
    "first_seat_advantage",
    "length_summary",
    "opponent_rows",
    "score_of",
    "unbalanced",
    "wilson",
    "win_matrix",
]

#: The band a fair matchup's interval should reach into: a matchup is flagged when its 95%
#: interval lies wholly outside it.
BAND = (0.35, 0.65)
#: What a game with no winner is worth to each side.
DRAW_SCORE = 0.5
#: The normal quantile of a two-sided 95% interval.
Z95 = 1.959964


class StatsError(SantoriniError):
    """Figures asked of impossible counts (more wins than games, say): a bug in the caller."""


def wilson(wins: float, games: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion `wins / games`.

    Chosen over the textbook p ± z·sqrt(p(1-p)/n) because that one collapses to a single point at
    0 or n wins and leaves [0, 1] near them, which is exactly where an unbalanced matchup sits.
    `wins` may be fractional (half a win per no-winner game). No games give (0, 1): nothing known.
    """
    if games < 0 or not 0 <= wins <= games or z <= 0:
        raise StatsError(f"no interval for {wins} wins in {games} games (z = {z})")
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    z2 = z * z
    denominator = 1 + z2 / games
    centre = (p + z2 / (2 * games)) / denominator
    half = z / denominator * math.sqrt(p * (1 - p) / games + z2 / (4 * games * games))
    low = 0.0 if wins == 0 else max(0.0, centre - half)
    high = 1.0 if wins == games else min(1.0, centre + half)
    return low, high


def unbalanced(low: float, high: float, band: tuple[float, float] = BAND) -> bool:
    """True when the interval lies wholly outside the band: the matchup is unfair beyond doubt
    (at 95%) and by more than the band allows, not merely short of games."""
    return high < band[0] or low > band[1]


def score_of(result: GameResult, card: str) -> float:
    """What `result` is worth to the seat(s) playing `card`: 1, 0 or DRAW_SCORE (also for a mirror,
    where the card wins and loses the same game)."""
    if result.winner is None or result.matchup.first == result.matchup.second:
        return DRAW_SCORE
    return 1.0 if result.winner_card == card else 0.0


@dataclass(frozen=True)
class OpponentRow:
    """`god` against one opponent, both seat orders pooled.

    For a mirror (god v god) every game is won by the god, so `wins` is half the games and the rate
    is 0.5 by construction, with no interval to speak of (low = high = 0.5) and never flagged; the
    figure worth reading there is `first_seat_rate`.
    """

    god: str
    opponent: str
    games: int
    #: The god's score: wins plus half the no-winner games.
    wins: float
    rate: float
    #: The 95% Wilson interval of `rate`.
    low: float
    high: float
    #: The share of the pair's decided games won by seat A, both seat orders; None if none decided.
    first_seat_rate: float | None
    mean_turns: float
    #: Games by how they ended, every kind listed (zeros included), in the enum's order.
    ends: dict[EndKind, int]
    unbalanced: bool

    @property
    def mirror(self) -> bool:
        return self.god == self.opponent


def opponent_rows(results: Iterable[GameResult], god: str) -> list[OpponentRow]:
    """One row per opponent of `god` (both seat orders pooled), sorted by opponent name."""
    games: dict[str, list[GameResult]] = {}
    for result in results:
        first, second = result.matchup.first, result.matchup.second
        if god in (first, second):
            games.setdefault(second if first == god else first, []).append(result)
    return [_row(god, opponent, _sorted(games[opponent])) for opponent in sorted(games)]


def _row(god: str, opponent: str, games: list[GameResult]) -> OpponentRow:
    count = len(games)
    wins = math.fsum(score_of(result, god) for result in games)
    low, high = (DRAW_SCORE, DRAW_SCORE) if god == opponent else wilson(wins, count)
    return OpponentRow(
        god=god, opponent=opponent, games=count, wins=wins, rate=wins / count, low=low, high=high,
        first_seat_rate=_first_seat_rate(games), mean_turns=math.fsum(r.turns for r in games) / count,
        ends=end_counts(games), unbalanced=god != opponent and unbalanced(low, high))


def _first_seat_rate(games: Iterable[GameResult]) -> float | None:
    decided = [result.winner for result in games if result.winner is not None]
    return decided.count(0) / len(decided) if decided else None


def _sorted(results: Iterable[GameResult]) -> list[GameResult]:
    return sorted(results, key=lambda r: (r.matchup, r.index, r.seed, r.agent))


@dataclass(frozen=True)
class SeatAdvantage:
    """Seat A's share of the decided games, with its 95% Wilson interval."""

    decided: int
    first_wins: int
    rate: float | None
    low: float
    high: float


def first_seat_advantage(results: Iterable[GameResult]) -> SeatAdvantage:
    """How often seat A (who moves first) wins, over every decided game, mirrors included.

    Every matchup is played in both seat orders, so the cards cancel out of this figure and what
    is left is the worth of moving first (under the agent that played)."""
    decided = [result.winner for result in results if result.winner is not None]
    first = decided.count(0)
    low, high = wilson(first, len(decided))
    return SeatAdvantage(len(decided), first, first / len(decided) if decided else None, low, high)


@dataclass(frozen=True)
class LengthSummary:
    """Game lengths in turns (plies). Quartiles are the inclusive kind (statistics.quantiles)."""

    games: int
    mean: float
    median: float
    q1: float
    q3: float
    shortest: int
    longest: int


def length_summary(results: Iterable[GameResult]) -> LengthSummary | None:
    """The spread of game lengths, or None for no games."""
    turns = sorted(result.turns for result in results)
    if not turns:
        return None
    quartiles = statistics.quantiles(turns, n=4, method="inclusive") if len(turns) > 1 else [float(turns[0])] * 3
    q1, median, q3 = quartiles
    return LengthSummary(len(turns), math.fsum(turns) / len(turns), float(median), float(q1), float(q3),
                         turns[0], turns[-1])


def end_counts(results: Iterable[GameResult]) -> dict[EndKind, int]:
    """Games by how they ended: every kind, in the enum's order, zeros included."""
    counts = dict.fromkeys(EndKind, 0)
    for result in results:
        counts[result.end] += 1
    return counts


def cards_of(results: Iterable[GameResult]) -> list[str]:
    """Every card that played in `results`, sorted."""
    return sorted({card for result in results for card in (result.matchup.first, result.matchup.second)})


def card_scores(results: Iterable[GameResult]) -> dict[str, tuple[int, float]]:
    """Each card's (games, score) outside mirrors, the raw form of what the ratings fit."""
    tally: dict[str, list[float]] = {}
    for result in _sorted(results):
        first, second = result.matchup.first, result.matchup.second
        if first != second:
            for card in (first, second):
                tally.setdefault(card, []).append(score_of(result, card))
    return {card: (len(scores), math.fsum(scores)) for card, scores in sorted(tally.items())}


def win_matrix(results: Iterable[GameResult], cards: list[str]) -> list[list[float]]:
    """matrix[i][j]: card i's score rate against card j, both seat orders pooled; NaN for a pair
    that did not play (a ban, or outside the run) and on the diagonal (a mirror is 0.5 by
    construction, which says nothing)."""
    scores: dict[tuple[str, str], list[float]] = {}
    for result in _sorted(results):
        first, second = result.matchup.first, result.matchup.second
        if first != second:
            scores.setdefault((first, second), []).append(score_of(result, first))
            scores.setdefault((second, first), []).append(score_of(result, second))
    return [[math.fsum(s) / len(s) if (s := scores.get((row, column))) else math.nan for column in cards]
            for row in cards]

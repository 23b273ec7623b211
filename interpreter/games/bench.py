"""`santorini bench`: random games, each turn a uniformly drawn distinct outcome.

Games start from S0 (A on b3 and d3, B on c4 and c2, empty board), the position the reference
generator in benchmarks/ starts from, so the two can be compared game for game. A third seat and
more (S0 has two), and a seat whose card's setup refuses S0, place their workers at random among
their legal placements.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from ..model.board import parse_square
from .game import Game, new_game, parse_players, placing_seats
from .packs import Pack
from .play import GameLog, RandomAgent, place_all, play_turns, run_game
from .setup import placement_fault

S0_SQUARES = tuple(tuple(parse_square(name) for name in seat) for seat in (("b3", "d3"), ("c4", "c2")))


@dataclass
class BenchResult:
    games: int
    turns: int
    elapsed: float
    wins: dict[str, int] = field(default_factory=dict)  # by seat letter; a balance measure too


class S0Agent(RandomAgent):
    """A random player that places its workers on the S0 squares of its seat (seats A and B). A
    third seat and more, which S0 does not place, and a seat whose card's setup refuses S0 (a
    third worker, placements on the perimeter...) place at random among their legal placements
    (seeded, like every choice of the agent). `from_s0`: the seats whose setup allows S0, when
    the caller has found them once for many games (else each placement finds out)."""

    def __init__(self, rng: random.Random, from_s0: frozenset[int] | None = None) -> None:
        super().__init__(rng)
        self.from_s0 = from_s0

    def placement(self, game: Game, seat: int) -> list[int]:
        allowed = starts_at_s0(game, seat) if self.from_s0 is None else seat in self.from_s0
        if allowed and not any(game.state.blocked[square] for square in S0_SQUARES[seat]):
            return list(S0_SQUARES[seat])  # (a seat placed at random before may hold one of them)
        return super().placement(game, seat)


def starts_at_s0(game: Game, seat: int) -> bool:
    """Whether the seat's card's setup allows its S0 squares (judged on the board as it is)."""
    return seat < len(S0_SQUARES) and placement_fault(game, seat, S0_SQUARES[seat]) is None


def bench_games(pack: Pack, gods: list[str], seed: int) -> Iterator[GameLog]:
    """Random games from S0, one after another, for as long as the caller asks: what `run_bench`
    times, for callers that time the games their own way (benchmarks/compare.py interleaves
    them with the reference's). A bad name raises SetupError at once, not at the first game."""
    template = new_game(pack, parse_players(gods))
    rng = random.Random(seed)
    from_s0 = frozenset(seat for seat in placing_seats(template) if starts_at_s0(template, seat))  # once

    if from_s0 == frozenset(range(len(template.players))):
        # Every seat places on S0, drawing nothing: set up once, then play each game from a copy
        # of the placed game (the same games; the reference starts from a placed S0 too).
        placed, agents = template.restart(), [S0Agent(rng, from_s0) for _ in template.players]
        setup = GameLog(placed.state)
        place_all(placed, agents, setup)

        def from_placed() -> Iterator[GameLog]:
            while True:
                game = placed.copy()
                yield play_turns(game, agents, GameLog(game.state, list(setup.placements)))
        return from_placed()

    def games() -> Iterator[GameLog]:
        while True:
            yield run_game(template.restart(), [S0Agent(rng, from_s0) for _ in template.players])
    return games()


def run_bench(pack: Pack, gods: list[str], seconds: float, seed: int,
              on_progress: Callable[[float], None] | None = None) -> BenchResult:
    """Play for `seconds`; `on_progress(seconds)` hears of the time each game took."""
    games_played = bench_games(pack, gods, seed)
    games = turns = 0
    wins: dict[str, int] = {}
    start = last = time.perf_counter()
    while last - start < seconds:
        log = next(games_played)
        now = time.perf_counter()
        if on_progress is not None:
            on_progress(min(now, start + seconds) - last)
        last = now
        games += 1
        turns += len(log.turn_steps)
        wins[log.winner or "none"] = wins.get(log.winner or "none", 0) + 1
    return BenchResult(games, turns, time.perf_counter() - start, dict(sorted(wins.items())))

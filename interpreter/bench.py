"""`santorini bench`: random playouts that enumerate every turn's distinct outcomes.

Games start from S0 (A on b3 and d3, B on c4 and c2, empty board), the position the reference
generator in benchmarks/ starts from, so the two can be compared game for game.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field

from .board import parse_square
from .game import Game, new_game, parse_players
from .packs import Pack
from .play import RandomAgent, run_game

S0_SQUARES = tuple(tuple(parse_square(name) for name in seat) for seat in (("b3", "d3"), ("c4", "c2")))


@dataclass
class BenchResult:
    games: int
    turns: int
    elapsed: float
    wins: dict[str, int] = field(default_factory=dict)  # by seat letter; a balance measure too


class S0Agent(RandomAgent):
    """A random player that places its workers on the S0 squares of its seat."""

    def placement(self, game: Game, seat: int) -> list[int]:
        return list(S0_SQUARES[seat])


def run_bench(pack: Pack, gods: list[str], seconds: float, seed: int) -> BenchResult:
    template = new_game(pack, parse_players(gods))
    rng = random.Random(seed)
    games = turns = 0
    wins: dict[str, int] = {}
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        game = template.restart()
        agents = [S0Agent(rng), S0Agent(rng)]
        log = run_game(game, agents)
        games += 1
        turns += len(log.turn_steps)
        wins[log.winner or "none"] = wins.get(log.winner or "none", 0) + 1
    return BenchResult(games, turns, time.perf_counter() - start, dict(sorted(wins.items())))

"""Measure every ordered matchup of a pack against Mortal v Mortal: random games and greedy games.

A card's cost depends on what it plays against: an opponent's restriction, veto or obligation
binds the card's seat, and a fast path that does not understand the binding leaves the seat on
the generic chain. benchmarks/compare.py measures each card against a Mortal; this script
measures every ordered matchup that two players can play: card X in seat A against card Y in
seat B, for every X and Y of the pack (Mortal included, X and Y possibly the same card; a pair
where one card bans the other, or a card that is not for two players, cannot be played and is
listed apart). Each matchup is measured in games per CPU second of two kinds of game:

* random games: the engine's random players, each turn a uniform draw among the turn's distinct
  outcomes, from S0, as `santorini bench` plays them (games.bench.bench_games, here with a cap on
  the turns of a game);
* greedy games: two greedy agents (agents.greedy.GreedyAgent, one a seat, sharing one seeded
  generator, each turn checked by the game loop), as `santorini play --agent A=greedy --agent
  B=greedy` plays them, from S0 too. A greedy agent takes the turns in a random order
  (Engine.turns_in_random_order: drawn by index where the seat's turns are counted, else from
  the list) and plays each on a copy until one does not hand the next seat a win: what an agent
  that looks one turn ahead pays.

Every figure is a ratio: the matchup's games/s over Mortal v Mortal's games/s (the same kind of
game, on the fast engine) measured in the same stretch of time. The matchups are measured in
blocks of --block; in a block, the matchups and a Mortal v Mortal side take turns in slices of
CPU time (compare.py's play_interleaved, the order rotating on every pass) until each has had
--seconds, so a stretch when the machine is slower falls on a matchup and on its yardstick alike.
Each side's time is the CPU time of this process while it plays. Every block's Mortal v Mortal
plays the same games (the round's seed), so its spread from block to block is the machine's noise,
which the report prints. Round r (from 1) uses seed --seed + r - 1 for every side, and puts the
matchups in a different order, so a matchup meets other neighbours in its block; a matchup's
ratio is the median of its rounds' ratios. Mortal v Mortal is the yardstick: its ratio is 1 by
definition (its games/s is the median of the rounds', each the median of the round's blocks'). A
card whose setup refuses S0 (a third worker, placement rules) starts from a legal placement drawn
by the seeded agent, as in bench.

A game is capped at --max-turns turns (a capped game counts as a game and is reported). A game
that takes longer than --game-limit CPU seconds makes its matchup "over budget": it is reported
with the time that game took and is measured no further (a greedy game is stopped at the first of
its turns that starts past the limit, and its figure is then an upper bound, printed with "<"),
and the run goes on. A matchup whose games raise an error is reported and dropped; the others go
on, and the script exits 1.

    python benchmarks/matchups.py                                       # bga, every matchup, both kinds
    python benchmarks/matchups.py --no-greedy --seconds 0.2 --rounds 2  # the whole bga matrix, random games
    python benchmarks/matchups.py --cards Demeter Aphrodite Hera Poseidon --rounds 3 --out /tmp/m.json
    python benchmarks/matchups.py --no-random --greedy-sample 100 --seconds 0.3 --game-limit 5
    python benchmarks/matchups.py --pack-path tests/invented/inventions --against Mortal
    python benchmarks/matchups.py --cards Hermes --against Mortal --generic --no-greedy
    python benchmarks/matchups.py --derived --no-greedy                 # every draw by the derived count

--pack-path measures a pack folder (an author's pack): by default its own cards (not those it
extends), Mortal always among them. --generic turns the fast paths off for the matchups
(`Engine(fast=False)`, the reference chain) while the yardstick stays Mortal v Mortal on the fast
engine, so the ratios compare with a fast run's; --derived draws every random turn with the
derived count instead of the hand-tuned pickers of interpreter/fast. The report ends with Markdown tables for
docs/performance.md: the distribution of the ratios (minimum, 5th, 25th and 50th percentiles, how
many under 0.1 and 0.01), the twenty slowest matchups, and each card's lowest matchups; --out
writes every figure as JSON.

The whole bga matrix (1,493 matchups) of random games at the defaults takes about 12 minutes of
CPU time; greedy games of every matchup take far longer while some pairs list their turns on the
generic chain (a game of Hermes v Mortal: 30 s), hence --greedy-sample and --game-limit.
docs/performance.md keeps the figures and the commands that made them.

Speed is never asserted by a test; this script reports it. Run it from the repository, with the
package installed (`pip install -e .`) or with PYTHONPATH pointing at a folder holding `santorini`.
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime
import importlib.util
import json
import math
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from types import ModuleType
from typing import Any

import santorini
from santorini.dsl.errors import SantoriniError
from santorini.interpreter.agents.base import Turn
from santorini.interpreter.agents.greedy import GreedyAgent
from santorini.interpreter.engine.engine import Engine
from santorini.interpreter.games.bench import S0Agent, starts_at_s0
from santorini.interpreter.games.game import Game, SetupError, new_game, parse_players, placing_seats
from santorini.interpreter.games.packs import MORTAL, Card, Pack, load_pack, pack_names, resolve_pack
from santorini.interpreter.games.play import Agent, GameLog, place_all, play_turns, run_game

HERE = Path(__file__).resolve().parent
COMPARE_PATH = HERE / "compare.py"


def load_compare() -> ModuleType:
    """benchmarks/compare.py, imported by path (benchmarks/ is a folder of scripts, not a
    package), under the name tests/test_benchmarks.py gives it too."""
    loaded = sys.modules.get("benchmarks_compare")
    if loaded is not None:
        return loaded
    spec = importlib.util.spec_from_file_location("benchmarks_compare", COMPARE_PATH)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load {COMPARE_PATH}")
    module = importlib.util.module_from_spec(spec)
    sys.modules["benchmarks_compare"] = module  # (dataclasses look their module up)
    spec.loader.exec_module(module)
    return module


#: compare.py's helpers, with their types: figures are printed, sides interleaved and cards
#: ranked as compare.py does.
compare = load_compare()
fmt_rate: Callable[[float], str] = compare.fmt_rate
fmt_ratio: Callable[[float], str] = compare.fmt_ratio
rate: Callable[[float, float], float] = compare.rate
machine_lines: Callable[[datetime.datetime], list[str]] = compare.machine_lines
card_tier: Callable[[Card | None], str] = compare.card_tier
TIER_ORDER: tuple[str, ...] = compare.TIER_ORDER

RANDOM = "random"
GREEDY = "greedy"
KINDS = (RANDOM, GREEDY)

#: The targets of the project's issue 19 ("Speed"), as ratios to Mortal v Mortal of the same kind:
#: every matchup at least `EVERY`, and for random games the median at least `MEDIAN`.
EVERY = 0.1
MEDIAN = {RANDOM: 0.4}
#: The thresholds the distribution counts matchups under.
UNDER = (0.1, 0.01)
SLOWEST = 20


# ---------------------------------------------------------------------------- games


class OverBudget(Exception):  # noqa: N818 - a verdict on a matchup, not an error of the engine
    """One game took longer than the matchup's limit: `seconds` of CPU time, `turns` played;
    `finished` False when the game was stopped before its end (its time is then a lower bound)."""

    def __init__(self, seconds: float, turns: int, finished: bool) -> None:
        super().__init__(f"one game {'took' if finished else 'was stopped after'} {seconds:.2f} s "
                         f"({turns} turn{'' if turns == 1 else 's'}{'' if finished else ', unfinished'})")
        self.seconds = seconds
        self.turns = turns
        self.finished = finished


class Chain(Enum):
    """Which engine plays the matchups: the fast engine as games build it, the fast engine with
    every random turn drawn by the derived count (no hand-tuned picker), or the generic chain."""

    FAST = "fast"
    DERIVED = "derived"
    GENERIC = "generic"


def with_engine(game: Game, chain: Chain) -> Game:
    """The game on the chain asked for: the engine built as new_game builds it, with the
    hand-tuned pickers off (Chain.DERIVED) or the fast paths off (Chain.GENERIC, the reference
    the fast paths are tested against)."""
    if chain is Chain.FAST:
        return game
    pack = game.pack
    engine = Engine(pack.base.power, [[card.power for card in seat] for seat in game.cards],
                    fast=chain is Chain.DERIVED, teams=[seat.team for seat in game.state.seats],
                    if_possible=pack.if_possible, hand_tuned_pickers=False)
    return dataclasses.replace(game, engine=engine)


def s0_seats(game: Game) -> frozenset[int]:
    """The seats whose card's setup allows their S0 squares (found once for many games)."""
    return frozenset(seat for seat in placing_seats(game) if starts_at_s0(game, seat))


def random_games(pack: Pack, gods: Sequence[str], seed: int, max_turns: int, chain: Chain = Chain.FAST
                 ) -> Iterator[GameLog]:
    """Random games from S0, one after another: games.bench.bench_games (the same games, from the
    same seed, while none reaches the cap), each game capped at `max_turns` turns. A game the
    pack cannot set up raises SetupError at once, not at the first game."""
    template = with_engine(new_game(pack, parse_players(list(gods))), chain)
    rng = random.Random(seed)
    from_s0 = s0_seats(template)
    if from_s0 == frozenset(range(len(template.players))):
        # Every seat places on S0, drawing nothing: set up once, play each game from a copy.
        placed = template.restart()
        agents: list[Agent] = [S0Agent(rng, from_s0) for _ in template.players]
        setup = GameLog(placed.state)
        place_all(placed, agents, setup)

        def from_placed() -> Iterator[GameLog]:
            while True:
                game = placed.copy()
                yield play_turns(game, agents, GameLog(game.state, list(setup.placements)), max_turns=max_turns)
        return from_placed()

    def games() -> Iterator[GameLog]:
        while True:
            seated: list[Agent] = [S0Agent(rng, from_s0) for _ in template.players]
            yield run_game(template.restart(), seated, max_turns=max_turns)
    return games()


@dataclass
class GameClock:
    """The CPU time of the game being played, against a limit: checked before every turn of a
    turn-by-turn game, so that a slow game stops soon after the limit instead of hanging."""

    limit: float | None
    start: float = 0.0
    turns: int = 0

    def begin(self) -> None:
        self.start, self.turns = time.process_time(), 0

    def check(self) -> None:
        """OverBudget (unfinished) once the game has passed its limit; else count the turn."""
        elapsed = time.process_time() - self.start
        if self.limit is not None and elapsed > self.limit:
            raise OverBudget(elapsed, self.turns, finished=False)
        self.turns += 1


class TimedGreedy(GreedyAgent):
    """The greedy agent, with the game's clock looked at before each of its turns."""

    def __init__(self, rng: random.Random, clock: GameClock) -> None:
        super().__init__(rng)
        self.clock = clock

    def turn(self, game: Game) -> Turn | None:
        self.clock.check()
        return super().turn(game)


def greedy_games(pack: Pack, gods: Sequence[str], seed: int, max_turns: int, limit: float | None = None,
                 chain: Chain = Chain.FAST) -> Iterator[GameLog]:
    """Games between greedy agents, one after another, as `santorini play --agent A=greedy --agent
    B=greedy` plays them (a GreedyAgent a seat, one generator for both, each turn checked by the
    game loop), from S0 (or a seeded legal start where a card's setup refuses S0), each capped at
    `max_turns` turns and stopped (OverBudget) at a turn that starts past `limit` CPU seconds."""
    template = with_engine(new_game(pack, parse_players(list(gods))), chain)
    rng = random.Random(seed)
    from_s0 = s0_seats(template)
    clock = GameClock(limit)
    placers: list[Agent] = [S0Agent(rng, from_s0) for _ in template.players]
    players: list[Agent] = [TimedGreedy(rng, clock) for _ in template.players]

    def games() -> Iterator[GameLog]:
        while True:
            game = template.restart()
            log = GameLog(game.state)
            place_all(game, placers, log)
            clock.begin()
            yield play_turns(game, players, log, max_turns=max_turns)
    return games()


@dataclass
class GameSide:
    """A side of a block, as compare.Side (which compare.play_interleaved gives its slices): its
    games go on from slice to slice, and its time is the CPU time of this process while it plays.
    Two differences: the time of a slice cut short by an exception is counted (an over-budget
    game's time belongs to its figure), and `capped` counts the games that reached the cap on
    turns without a winner."""

    play_game: Callable[[], int]  # plays one game; returns its number of turns
    games: int = 0
    turns: int = 0
    spent: float = 0.0
    #: A matchup's side may fail (an engine fault, or a game over budget): it then leaves the
    #: block and is reported. The yardstick's may not: its figures are every ratio's base.
    may_fail: bool = False
    failure: Exception | None = None
    capped: int = 0

    def play_for(self, seconds: float) -> None:
        """Whole games until `seconds` of CPU time have gone (at least one game)."""
        clock = time.process_time
        start = clock()
        try:
            while True:
                self.turns += self.play_game()
                self.games += 1
                if clock() - start >= seconds:
                    break
        finally:
            self.spent += clock() - start

    @property
    def games_per_s(self) -> float:
        return rate(self.games, self.spent)

    @property
    def turns_per_game(self) -> float:
        return self.turns / self.games if self.games else math.nan


#: compare.play_interleaved: every side `seconds` of CPU time, in slices taken in turn, the order
#: rotating on every pass; a side that may fail and raises is marked failed and leaves.
play_interleaved: Callable[[Sequence[GameSide], float, float], None] = compare.play_interleaved


def game_side(games: Iterator[GameLog], limit: float | None, may_fail: bool = True) -> GameSide:
    """A side playing `games`; a game that takes longer than `limit` raises OverBudget."""
    side = GameSide(lambda: 0, may_fail=may_fail)

    def play_game() -> int:
        start = time.process_time()
        log = next(games)
        elapsed = time.process_time() - start
        turns = len(log.turn_steps)
        if log.winner is None:
            side.capped += 1
        if limit is not None and elapsed > limit:
            raise OverBudget(elapsed, turns, finished=True)
        return turns
    side.play_game = play_game
    return side


def make_side(kind: str, pack: Pack, gods: Sequence[str], seed: int, max_turns: int, limit: float | None,
              chain: Chain = Chain.FAST, may_fail: bool = True) -> GameSide:
    """A side of `kind` for these seats; SetupError if the pack cannot set the game up."""
    if kind == RANDOM:
        return game_side(random_games(pack, gods, seed, max_turns, chain), limit, may_fail)
    return game_side(greedy_games(pack, gods, seed, max_turns, limit, chain), limit, may_fail)


# ---------------------------------------------------------------------------- matchups


@dataclass
class Matchup:
    """One ordered matchup of one kind of game, round by round."""

    a: str
    b: str
    kind: str
    #: Whether every seat starts from S0 (else from a seeded legal start: its setup refuses S0).
    from_s0: bool = True
    #: Mortal v Mortal on the fast engine: the yardstick itself, not played apart (ratio 1).
    yardstick: bool = False
    games_per_s: list[float] = field(default_factory=list)
    turns_per_game: list[float] = field(default_factory=list)
    ratios: list[float] = field(default_factory=list)
    games: list[int] = field(default_factory=list)
    capped: int = 0
    #: Set when a game took longer than the limit: (seconds, turns, finished).
    over_budget: OverBudget | None = None
    failure: str | None = None

    @property
    def label(self) -> str:
        return f"{self.a} v {self.b}"

    @property
    def done(self) -> bool:
        """Measured no further: over budget, or failed."""
        return self.over_budget is not None or self.failure is not None

    @property
    def ratio(self) -> float:
        """The median of the rounds' ratios (NaN before any)."""
        return statistics.median(self.ratios) if self.ratios else math.nan

    @property
    def bound(self) -> bool:
        """Whether the ratio is an upper bound (a greedy game stopped before its end)."""
        return self.over_budget is not None and not self.over_budget.finished

    def as_json(self) -> dict[str, Any]:
        over = self.over_budget
        return {
            "a": self.a, "b": self.b, "kind": self.kind, "from_s0": self.from_s0, "yardstick": self.yardstick,
            "ratio": finite(self.ratio), "ratio_is_upper_bound": self.bound,
            "games_per_s": finite(median_or_nan(self.games_per_s)),
            "turns_per_game": finite(median_or_nan(self.turns_per_game)),
            "rounds": [{"ratio": finite(r), "games_per_s": finite(g), "turns_per_game": finite(t), "games": n}
                       for r, g, t, n in zip(self.ratios, self.games_per_s, self.turns_per_game, self.games,
                                             strict=True)],
            "capped_games": self.capped,
            "over_budget": None if over is None else
            {"seconds": round(over.seconds, 4), "turns": over.turns, "finished": over.finished},
            "failure": self.failure,
        }


def finite(value: float) -> float | None:
    """A float for JSON: NaN and infinities as null."""
    return value if math.isfinite(value) else None


def median_or_nan(values: Sequence[float]) -> float:
    return statistics.median(values) if values else math.nan


@dataclass
class Yardstick:
    """Mortal v Mortal of one kind, block by block: games/s and turns/game of each block."""

    kind: str
    games_per_s: list[float] = field(default_factory=list)
    turns_per_game: list[float] = field(default_factory=list)
    #: The blocks' games/s, round by round: the yardstick's figure for each round is their median.
    by_round: list[list[float]] = field(default_factory=list)

    @property
    def figure(self) -> float:
        """Games/s: the median of the rounds' figures (each the median of the round's blocks), as
        a matchup's is the median of its rounds'."""
        return median_or_nan([statistics.median(blocks) for blocks in self.by_round if blocks])

    def as_json(self) -> dict[str, Any]:
        return {"games_per_s": finite(self.figure),
                "turns_per_game": finite(median_or_nan(self.turns_per_game)),
                "blocks": len(self.games_per_s),
                "blocks_games_per_s": [round(v, 3) for v in self.games_per_s]}


@dataclass
class Report:
    """The matchups, the yardsticks and the pairs that cannot be played, gathered while measuring."""

    out: Callable[[str], None] = print
    matchups: dict[str, list[Matchup]] = field(default_factory=dict)
    yardsticks: dict[str, Yardstick] = field(default_factory=dict)
    #: Ordered pairs the pack cannot set up (a ban, a card not for two players): (A, B, why).
    not_playable: list[tuple[str, str, str]] = field(default_factory=list)
    meta: dict[str, Any] = field(default_factory=dict)

    def line(self, text: str = "") -> None:
        self.out(text)

    @property
    def failures(self) -> list[Matchup]:
        return [m for kind in self.matchups.values() for m in kind if m.failure is not None]


def ordered_cards(pack: Pack, own_folder: Path | None = None) -> list[str]:
    """Mortal, then the pack's god and hero cards (simple, advanced, heroes, each group in
    alphabetical order); with `own_folder`, only the cards whose file is in that folder."""
    rank = {tier: index for index, tier in enumerate(TIER_ORDER)}
    cards = [card for card in pack.cards.values()
             if own_folder is None or Path(card.path).resolve().parent == own_folder.resolve()]
    cards.sort(key=lambda card: (rank.get(card_tier(card), len(rank)), card.name.lower()))
    return [MORTAL, *(card.name for card in cards)]


def canonical(pack: Pack, names: Sequence[str]) -> list[str]:
    """The names as the pack spells them (Mortal for no card), in order, each once; UnknownName
    for a name the pack does not have."""
    seen: list[str] = []
    for name in names:
        card = pack.card(name)
        label = MORTAL if card is None else card.name
        if label not in seen:
            seen.append(label)
    return seen


def plan_matchups(pack: Pack, seat_a: Sequence[str], seat_b: Sequence[str]
                  ) -> tuple[list[tuple[str, str, bool]], list[tuple[str, str, str]]]:
    """Every ordered pair (A, B) the pack can set up for two players, with whether both seats
    start from S0; and those it cannot, with the reason (a ban, a card's player counts)."""
    playable, refused = [], []
    for a in seat_a:
        for b in seat_b:
            try:
                game = new_game(pack, parse_players([a, b]))
            except SetupError as err:
                refused.append((a, b, str(err)))
                continue
            playable.append((a, b, s0_seats(game) == frozenset(range(2))))
    return playable, refused


def sample(pairs: list[tuple[str, str, bool]], count: int | None, seed: int) -> list[tuple[str, str, bool]]:
    """`count` of the pairs drawn with a seeded generator (in their order), Mortal v Mortal always
    among them; all of them without a count."""
    if count is None or count >= len(pairs):
        return pairs
    mortal = [pair for pair in pairs if pair[:2] == (MORTAL, MORTAL)]
    others = [pair for pair in pairs if pair[:2] != (MORTAL, MORTAL)]
    chosen = set(random.Random(seed).sample(range(len(others)), max(count - len(mortal), 0)))
    return mortal + [pair for index, pair in enumerate(others) if index in chosen]


@dataclass
class Settings:
    """What the measurement needs from the options."""

    pack: Pack
    seconds: float
    slice_seconds: float
    rounds: int
    seed: int
    block: int
    max_turns: int
    game_limit: float | None
    chain: Chain = Chain.FAST


def measure_kind(report: Report, kind: str, matchups: list[Matchup], settings: Settings) -> Yardstick:
    """Every round: the matchups still measured, in blocks, each block with its own Mortal v
    Mortal (fast engine, the round's seed), interleaved in slices."""
    yardstick = Yardstick(kind)
    played = [m for m in matchups if not m.yardstick]
    for index in range(settings.rounds):
        seed = settings.seed + index
        pending = [m for m in played if not m.done]
        random.Random(f"{seed}-{index}-order").shuffle(pending)
        blocks = [pending[start:start + settings.block] for start in range(0, len(pending), settings.block)] or [[]]
        yardstick.by_round.append([])
        for number, block in enumerate(blocks, 1):
            measure_block(report, kind, block, settings, seed, index, yardstick)
            if len(blocks) > 1 and (number % 10 == 0 or number == len(blocks)):
                report.line(f"round {index + 1} {kind}: block {number} of {len(blocks)}, Mortal v Mortal "
                            f"{fmt_rate(yardstick.by_round[-1][-1])} games/s")
        base = statistics.median(yardstick.by_round[-1])
        for matchup in matchups:
            if matchup.yardstick:
                matchup.games_per_s.append(base)
                matchup.turns_per_game.append(statistics.median(yardstick.turns_per_game))
                matchup.ratios.append(1.0)
                matchup.games.append(0)
        report.line(f"round {index + 1} {kind}: Mortal v Mortal {fmt_rate(base)} games/s (median of "
                    f"{len(yardstick.by_round[-1])} blocks; lowest {fmt_rate(min(yardstick.by_round[-1]))}, "
                    f"highest {fmt_rate(max(yardstick.by_round[-1]))})")
    return yardstick


def measure_block(report: Report, kind: str, block: list[Matchup], settings: Settings, seed: int, index: int,
                  yardstick: Yardstick) -> None:
    """One block: Mortal v Mortal and the block's matchups take turns in slices; each matchup's
    figure for the round is its games/s over the block's Mortal v Mortal."""
    reference = make_side(kind, settings.pack, (MORTAL, MORTAL), seed, settings.max_turns, None, may_fail=False)
    sides: dict[int, GameSide] = {}
    for position, matchup in enumerate(block):
        try:
            sides[position] = make_side(kind, settings.pack, (matchup.a, matchup.b), seed, settings.max_turns,
                                        settings.game_limit, settings.chain)
        except Exception as err:  # noqa: BLE001 - a matchup's fault is reported, the others go on
            fail(report, matchup, err, index)
    order = [reference, *sides.values()]
    shift = index % len(order)
    play_interleaved(order[shift:] + order[:shift], settings.seconds, settings.slice_seconds)
    base = reference.games_per_s
    yardstick.games_per_s.append(base)
    yardstick.turns_per_game.append(reference.turns_per_game)
    yardstick.by_round[-1].append(base)
    for position, side in sides.items():
        matchup = block[position]
        matchup.capped += side.capped
        error = side.failure
        if isinstance(error, OverBudget):
            matchup.over_budget = error
            games = side.games + 1  # (the over-budget game, finished or, for an upper bound, not)
            games_per_s = rate(games, side.spent)
            record(matchup, games_per_s, (side.turns + error.turns) / games, games_per_s / base, games)
            report.line(f"round {index + 1} {kind} {matchup.label}: OVER BUDGET ({error}; limit "
                        f"{settings.game_limit:g} s): ratio {'<' if not error.finished else ''}"
                        f"{fmt_ratio(matchup.ratios[-1])}; measured no further")
        elif error is not None:
            fail(report, matchup, error, index)
        else:
            record(matchup, side.games_per_s, side.turns_per_game, side.games_per_s / base, side.games)


def record(matchup: Matchup, games_per_s: float, turns_per_game: float, ratio: float, games: int) -> None:
    matchup.games_per_s.append(games_per_s)
    matchup.turns_per_game.append(turns_per_game)
    matchup.ratios.append(ratio)
    matchup.games.append(games)


def fail(report: Report, matchup: Matchup, err: BaseException, index: int) -> None:
    matchup.failure = f"{type(err).__name__}: {err}"
    report.line(f"round {index + 1} {matchup.kind} {matchup.label}: FAILED ({matchup.failure})")


# ---------------------------------------------------------------------------- the report


def percentile(values: Sequence[float], share: float) -> float:
    """The `share` (0 to 1) percentile of the values, interpolated between the two nearest ranks."""
    ordered = sorted(values)
    if not ordered:
        return math.nan
    where = share * (len(ordered) - 1)
    low = math.floor(where)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (where - low)


def measured(matchups: Sequence[Matchup]) -> list[Matchup]:
    """The matchups with a figure (not failed before their first)."""
    return [m for m in matchups if m.ratios and m.failure is None]


def distribution(matchups: Sequence[Matchup]) -> dict[str, Any]:
    """The spread of the ratios: count, minimum, percentiles, maximum, how many under each of
    UNDER, and how many were over budget or had capped games. An over-budget matchup counts with
    its figure (an upper bound when its game was stopped)."""
    ratios = [m.ratio for m in measured(matchups)]
    figures: dict[str, Any] = {"matchups": len(ratios)}
    for name, share in (("min", 0.0), ("p5", 0.05), ("p25", 0.25), ("p50", 0.5), ("p75", 0.75), ("max", 1.0)):
        figures[name] = finite(percentile(ratios, share))
    for limit in UNDER:
        figures[f"under_{limit:g}"] = sum(r < limit for r in ratios)
    figures["over_budget"] = sum(m.over_budget is not None for m in matchups)
    figures["with_capped_games"] = sum(m.capped > 0 for m in matchups)
    figures["failed"] = sum(m.failure is not None for m in matchups)
    spreads = [max(m.ratios) / min(m.ratios) for m in measured(matchups) if len(m.ratios) > 1 and min(m.ratios) > 0]
    figures["median_rounds_spread"] = finite(statistics.median(spreads)) if spreads else None
    return figures


def shown_ratio(matchup: Matchup) -> str:
    return ("<" if matchup.bound else "") + fmt_ratio(matchup.ratio)


def note(matchup: Matchup) -> str:
    """What a reader must know beside the figure: over budget, capped games, a seeded start."""
    notes = []
    if matchup.over_budget is not None:
        notes.append(f"over budget: {matchup.over_budget}")
    if matchup.capped:
        notes.append(f"{matchup.capped} game(s) capped")
    if not matchup.from_s0:
        notes.append("seeded start")
    return "; ".join(notes)


def rounds_text(matchup: Matchup) -> str:
    low, high = min(matchup.ratios), max(matchup.ratios)
    return fmt_ratio(low) if low == high else f"{fmt_ratio(low)}-{fmt_ratio(high)}"


def report_kind(report: Report, kind: str, settings: Settings) -> list[str]:
    """The kind's summary lines, printed; returns its Markdown tables."""
    matchups = report.matchups[kind]
    yardstick = report.yardsticks[kind]
    figures = distribution(matchups)
    base = yardstick.figure
    blocks = yardstick.games_per_s
    report.line(f"\n## {kind.capitalize()} games: {figures['matchups']} matchups measured")
    report.line(f"Mortal v Mortal ({kind}): {fmt_rate(base)} games/s, {median_or_nan(yardstick.turns_per_game):.1f} "
                f"turns/game (median of {len(yardstick.by_round)} round(s), each the median of its blocks'; "
                f"{len(blocks)} blocks ranged {fmt_rate(min(blocks))}-{fmt_rate(max(blocks))}, quartiles "
                f"{fmt_rate(percentile(blocks, 0.25))}-{fmt_rate(percentile(blocks, 0.75))}: the same games in every "
                "block of a round, so that spread is the machine's noise)")
    report.line(f"ratios: min {fmt_ratio(figures['min'] or math.nan)}, 5th percentile "
                f"{fmt_ratio(figures['p5'] or math.nan)}, 25th {fmt_ratio(figures['p25'] or math.nan)}, "
                f"median {fmt_ratio(figures['p50'] or math.nan)}, 75th {fmt_ratio(figures['p75'] or math.nan)}, "
                f"max {fmt_ratio(figures['max'] or math.nan)}; under 0.1: {figures['under_0.1']}, "
                f"under 0.01: {figures['under_0.01']}; over budget: {figures['over_budget']}; "
                f"with capped games: {figures['with_capped_games']}; failed: {figures['failed']}")
    if figures["median_rounds_spread"] is not None:
        report.line(f"a matchup's rounds differ by a factor of {figures['median_rounds_spread']:.2f} "
                    "(median over the matchups of highest / lowest round)")
    verdict = f"target: every matchup at least {EVERY:g}: {'met' if figures['under_0.1'] == 0 else 'NOT met'}"
    if kind in MEDIAN and figures["p50"] is not None:
        verdict += (f"; median at least {MEDIAN[kind]:g}: "
                    f"{'met' if figures['p50'] >= MEDIAN[kind] else 'NOT met'}")
    report.line(verdict)
    slowest = sorted(measured(matchups), key=lambda m: m.ratio)[:SLOWEST]
    report.line(f"the {len(slowest)} slowest:")
    for place, matchup in enumerate(slowest, 1):
        extra = note(matchup)
        report.line(f"  {place:2}. {matchup.label}: ratio {shown_ratio(matchup)}, "
                    f"{fmt_rate(median_or_nan(matchup.games_per_s))} games/s, "
                    f"{median_or_nan(matchup.turns_per_game):.1f} turns/game" + (f" ({extra})" if extra else ""))
    for matchup in matchups:
        if matchup.failure is not None:
            report.line(f"FAILED: {matchup.label}: {matchup.failure}")

    tables = [f"{kind.capitalize()} games, pack {settings.pack.name}: ratio of each ordered matchup's games/s to "
              f"Mortal v Mortal's ({fmt_rate(base)} games/s, {median_or_nan(yardstick.turns_per_game):.1f} "
              f"turns/game), median of {settings.rounds} round(s) of {settings.seconds:g} s a side"
              + _CHAIN_NOTES[settings.chain] + ":", "",
              "| games | matchups | min | 5th pct | 25th pct | median | under 0.1 | under 0.01 | over budget |",
              "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
              f"| {kind} | {figures['matchups']} | {fmt_ratio(figures['min'] or math.nan)} | "
              f"{fmt_ratio(figures['p5'] or math.nan)} | {fmt_ratio(figures['p25'] or math.nan)} | "
              f"{fmt_ratio(figures['p50'] or math.nan)} | {figures['under_0.1']} | {figures['under_0.01']} | "
              f"{figures['over_budget']} |", "",
              f"The {len(slowest)} slowest {kind} matchups:", "",
              "| # | A v B | ratio | rounds' ratios | games/s | turns/game | note |",
              "| ---: | --- | ---: | ---: | ---: | ---: | --- |"]
    tables += [f"| {place} | {m.label} | {shown_ratio(m)} | {rounds_text(m)} | "
               f"{fmt_rate(median_or_nan(m.games_per_s))} | {median_or_nan(m.turns_per_game):.1f} | {note(m)} |"
               for place, m in enumerate(slowest, 1)]
    tables += ["", *card_table(kind, matchups)]
    return tables


def card_table(kind: str, matchups: Sequence[Matchup]) -> list[str]:
    """Card by card: the median and the lowest of its matchups' ratios, in seat A and in seat B."""
    cards: list[str] = []
    for name in [m.a for m in matchups] + [m.b for m in matchups]:  # (seat A's in the plan's order first)
        if name not in cards:
            cards.append(name)
    lines = [f"Card by card ({kind}): the median and the lowest ratio of the card's matchups, in each seat:", "",
             "| card | as A: median | as A: lowest (against) | as B: median | as B: lowest (against) |",
             "| --- | ---: | --- | ---: | --- |"]
    shown = measured(matchups)
    for name in cards:
        cells = []
        for seat in ("a", "b"):
            own = [m for m in shown if getattr(m, seat) == name]
            if not own:
                cells += ["-", "-"]
                continue
            low = min(own, key=lambda m: m.ratio)
            cells += [fmt_ratio(statistics.median(m.ratio for m in own)),
                      f"{shown_ratio(low)} ({low.b if seat == 'a' else low.a})"]
        lines.append(f"| {name} | {' | '.join(cells)} |")
    return lines


# ---------------------------------------------------------------------------- the run


def package_lines() -> list[str]:
    """Which code was measured: the package's folder and, in a git checkout, its commit."""
    folder = Path(santorini.__file__).resolve().parent
    lines = [f"package: {folder}"]
    head = subprocess.run(["git", "-C", str(folder), "rev-parse", "HEAD"], capture_output=True, text=True,
                          check=False)
    if head.returncode == 0:
        changed = subprocess.run(["git", "-C", str(folder), "status", "--porcelain", "--untracked-files=no"],
                                 capture_output=True, text=True, check=False).stdout.strip()
        lines.append(f"commit: {head.stdout.strip()}{' (with uncommitted changes)' if changed else ''}")
    return lines


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    """The options; every budget can be made small so a test can run the whole script."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--pack", default="bga", choices=pack_names(), help="the shipped pack (default bga)")
    where.add_argument("--pack-path", metavar="FOLDER",
                       help="a pack folder (with a pack.yaml); by default its own cards are measured")
    parser.add_argument("--cards", nargs="+", metavar="CARD",
                        help="the cards of seat A (and of seat B without --against); Mortal is always one "
                             "(default: every card of the pack, or of the --pack-path folder)")
    parser.add_argument("--against", nargs="+", metavar="CARD", help="the cards of seat B (default: as seat A's)")
    parser.add_argument("--seconds", type=float, default=0.2,
                        help="CPU seconds of games per side (each matchup, each block's Mortal v Mortal) and per "
                             "round (default 0.2)")
    parser.add_argument("--rounds", type=int, default=2,
                        help="rounds; a ratio is the median of its rounds' (default 2)")
    parser.add_argument("--slice", type=float, default=0.05, dest="slice_seconds",
                        help="seconds of a slice: the sides of a block take turns in slices this long (default 0.05)")
    parser.add_argument("--block", type=int, default=8,
                        help="matchups measured together with one Mortal v Mortal (default 8)")
    parser.add_argument("--seed", type=int, default=1, help="seed of round 1; round r uses seed + r - 1 (default 1)")
    parser.add_argument("--random", action=argparse.BooleanOptionalAction, default=True,
                        help="measure random games (default: yes)")
    parser.add_argument("--greedy", action=argparse.BooleanOptionalAction, default=True,
                        help="measure games between greedy agents (default: yes)")
    parser.add_argument("--greedy-sample", type=int, metavar="N",
                        help="greedy games for a seeded sample of N matchups (Mortal v Mortal among them) "
                             "instead of every one")
    parser.add_argument("--max-turns", type=int, default=300, help="turns after which a game stops (default 300)")
    parser.add_argument("--game-limit", type=float, metavar="SECONDS",
                        help="CPU seconds after which one game puts its matchup over budget "
                             "(default: 10 x --seconds, at least 1)")
    chains = parser.add_mutually_exclusive_group()
    chains.add_argument("--generic", action="store_true",
                        help="matchups on the generic chain (Engine(fast=False)); the yardstick stays fast")
    chains.add_argument("--derived", action="store_true",
                        help="matchups with every random turn drawn by the derived count, no hand-tuned picker "
                             "(Engine(hand_tuned_pickers=False)); the yardstick stays the fast engine's")
    parser.add_argument("--out", metavar="FILE", help="write every figure as JSON to FILE")
    args = parser.parse_args(argv)
    if args.rounds < 1 or args.block < 1 or args.max_turns < 1 or args.seconds <= 0 or args.slice_seconds <= 0 \
            or (args.greedy_sample is not None and args.greedy_sample < 1) \
            or (args.game_limit is not None and args.game_limit <= 0):
        parser.error("--rounds, --block, --max-turns and --greedy-sample must be at least 1; --seconds, --slice "
                     "and --game-limit positive")
    if not args.random and not args.greedy:
        parser.error("nothing to measure: --no-random and --no-greedy")
    if args.game_limit is None:
        args.game_limit = max(10 * args.seconds, 1.0)
    return args


#: What the report adds to its headings for matchups off the fast engine.
_CHAIN_NOTES = {Chain.FAST: "", Chain.GENERIC: "; matchups on the generic chain (fast=False)",
                Chain.DERIVED: "; matchups drawn by the derived count (hand_tuned_pickers=False)"}


def chain_of(args: argparse.Namespace) -> Chain:
    """The engine the options ask the matchups to be played on."""
    return Chain.GENERIC if args.generic else Chain.DERIVED if args.derived else Chain.FAST


def run(args: argparse.Namespace, out: Callable[[str], None] = print) -> Report:
    """Measure what the options ask for, printing as it goes; returns the report."""
    report = Report(out)
    started = datetime.datetime.now(datetime.UTC)
    wall, cpu = time.perf_counter(), time.process_time()
    pack = resolve_pack(args.pack_path) if args.pack_path else load_pack(args.pack)
    default = ordered_cards(pack, Path(args.pack_path) if args.pack_path else None)
    seat_a = canonical(pack, [MORTAL, *args.cards]) if args.cards else default
    seat_b = canonical(pack, args.against) if args.against else seat_a
    settings = Settings(pack, args.seconds, args.slice_seconds, args.rounds, args.seed, args.block, args.max_turns,
                        args.game_limit, chain_of(args))
    pairs, report.not_playable = plan_matchups(pack, seat_a, seat_b)
    kinds = [kind for kind, wanted in ((RANDOM, args.random), (GREEDY, args.greedy)) if wanted]

    report.line("# Matchups v Mortal v Mortal")
    header = [*machine_lines(started), *package_lines()]
    for text in header:
        report.line(text)
    report.line(f"pack: {pack.name}{f' ({args.pack_path})' if args.pack_path else ''}; seat A: {len(seat_a)} cards, "
                f"seat B: {len(seat_b)}; {len(pairs)} ordered matchups ({len(report.not_playable)} more cannot be "
                f"played); {', '.join(kinds)} games; {args.rounds} round(s) x {args.seconds:g} s a side in slices of "
                f"{args.slice_seconds:g} s, blocks of {args.block}; seed {args.seed}; games capped at "
                f"{args.max_turns} turns; over budget past {args.game_limit:g} s a game"
                + _CHAIN_NOTES[settings.chain])
    for a, b, why in report.not_playable:
        report.line(f"{a} v {b}: cannot be played ({why})")

    for kind in kinds:
        chosen = sample(pairs, args.greedy_sample, args.seed) if kind == GREEDY else pairs
        report.matchups[kind] = [Matchup(a, b, kind, from_s0,
                                         yardstick=(a, b) == (MORTAL, MORTAL) and settings.chain is Chain.FAST)
                                 for a, b, from_s0 in chosen]
        report.line(f"\n## Measuring {kind} games: {len(chosen)} matchups")
        report.yardsticks[kind] = measure_kind(report, kind, report.matchups[kind], settings)

    tables = [f"{text}  " for text in header] + [""]
    for kind in kinds:
        tables += report_kind(report, kind, settings) + [""]
    if report.not_playable:
        tables.append("Pairs that cannot be played: " + "; ".join(
            f"{a} v {b} ({why.split(':')[0]})" for a, b, why in report.not_playable))
    report.meta = {
        "date": started.isoformat(timespec="seconds"), "lines": header,
        "options": dict(vars(args)), "pack": pack.name,
        "wall_seconds": round(time.perf_counter() - wall, 1), "cpu_seconds": round(time.process_time() - cpu, 1),
    }
    report.line(f"\nthe run took {report.meta['wall_seconds']:.1f} s of wall time, "
                f"{report.meta['cpu_seconds']:.1f} s of CPU time")
    report.line("\n## Tables (Markdown)\n")
    for text in tables:
        report.line(text)
    if args.out:
        Path(args.out).write_text(json.dumps(as_json(report), indent=1) + "\n", encoding="utf-8")
        report.line(f"\nevery figure written to {args.out}")
    return report


def as_json(report: Report) -> dict[str, Any]:
    """Every figure: the run's date, machine and options, then for each kind of game the
    yardstick, the distribution and every matchup round by round; the pairs that cannot be played."""
    return {
        "meta": report.meta,
        "kinds": {kind: {"mortal_v_mortal": report.yardsticks[kind].as_json(),
                         "distribution": distribution(matchups),
                         "matchups": [m.as_json() for m in matchups]}
                  for kind, matchups in report.matchups.items()},
        "not_playable": [{"a": a, "b": b, "why": why} for a, b, why in report.not_playable],
    }


def main(argv: Sequence[str] | None = None) -> int:
    """Command line entry point: see the module docstring. 1 when a matchup's games raised an
    error (reported, the others measured), 2 for a bad name or pack."""
    args = parse_args(argv)
    try:
        report = run(args, out=lambda text: print(text, flush=True))
    except SantoriniError as err:  # an unknown card or pack, a pack folder with faults
        print(f"error: {err}", file=sys.stderr)
        return 2
    return 1 if report.failures else 0


if __name__ == "__main__":
    sys.exit(main())

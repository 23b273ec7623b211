"""Measure the rule interpreter against hand-written random players of the mortal rules.

The interpreter runs every rule from data through one generic turn engine; the reference
(`benchmarks/reference_mortal.py`) hard-codes the mortal rules in tight loops. It has two random
players: the counting player (`counting_game`), which uses the interpreter's own algorithm for a
random turn (count each move's outcomes, draw an index, make only the chosen turn) and plays the
interpreter's very games from the same seed, and the listing player (`random_game`), which lists
every turn and picks one. The counting player is the yardstick. Every figure is printed with its
ratio (interpreter / hand-written, higher is better for the interpreter), and all are measured in
the same process, alternately. Random games take turns in short slices (0.1 s of each side, then
the next), and each side's time is the CPU time of this process while it plays: a machine that
is busier during one stretch than another (other jobs, frequency scaling, a warming cache) then
disturbs every side alike instead of biasing the ratio, and time during which another process
had the CPU is not counted against any side.

Figures:

* games/s (per CPU second) of random games from S0, Mortal v Mortal, every turn choosing
  uniformly among all distinct outcomes (the interpreter's `bench_games`, which `santorini
  bench` plays, and the reference's `counting_game` and `random_game`), with the issue's
  target for the interpreter against the counting player (0.8);
* games/s of each card against a Mortal (the ten simple gods, those given with --gods, or every
  card of the pack with --all-cards), as a ratio to the Mortal v Mortal games/s of the same
  rounds (what a power costs over the plain turn), card by card with its tier and its target
  (simple 0.5, Hermes 0.1, advanced and heroes 0.25), and which seats draw their turn by
  counting; a card that cannot be played by two players is skipped with a note, and a card
  whose setup rules refuse S0 (where every other game starts) plays from a seeded legal start,
  with a note;
* perft from S0 (350,208 leaves at depth 3): leaves/s of both, the counts cross-checked;
* start-up: the wall time of fresh processes (`python -m santorini cards`, loading all packs),
  with the compile cache warm and turned off when the package has one;
* the peak resident memory of this process, at the end.

Speed is never asserted by a test; this script reports it. Run it from the repository, with the
package installed (`pip install .`) or with PYTHONPATH pointing at a folder holding `santorini`:

    python benchmarks/compare.py                      # 3 rounds x 5 s, all simple gods
    python benchmarks/compare.py --rounds 5 --seconds 10 --gods Apollo Minotaur
    python benchmarks/compare.py --all-cards --pack bga --rounds 7 --seconds 2 --slice 0.05
    python benchmarks/compare.py --no-gods --perft-depth 2

The last section is two Markdown tables for docs/performance.md: the figures, and the cards.
The script exits 1 when the perft counts disagree or a card's games failed (an engine fault:
the card is dropped, reported, and the other sides go on).
"""

from __future__ import annotations

import argparse
import datetime
import importlib.util
import os
import platform
import random
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

from santorini.interpreter.games.bench import S0_SQUARES, S0Agent, bench_games, starts_at_s0
from santorini.interpreter.games.game import (Game, SetupError, end_of_setup, new_game,
                                             parse_players, place_workers, placing_seats)
from santorini.interpreter.games.packs import Card, UnknownName, load_pack, pack_names

HERE = Path(__file__).resolve().parent
REFERENCE_PATH = HERE / "reference_mortal.py"

SIMPLE_GODS = ("Apollo", "Artemis", "Athena", "Atlas", "Demeter", "Hephaestus", "Hermes",
               "Minotaur", "Pan", "Prometheus")

#: Perft of S0 under the mortal rules, cross-checked by independent enumerators
#: (tests/scenarios/bga/mortal-perft.yaml, tests/test_reference_mortal.py).
S0_PERFT = {1: 68, 2: 5_156, 3: 350_208}

#: The start-up commands: what a user waits for before the first line of output.
CARDS_COMMAND = ("-m", "santorini", "cards", "--pack", "bga")
LOAD_ALL_COMMAND = ("-c", "from santorini.interpreter.games.packs import load_pack; "
                          "[load_pack(p) for p in ('bga','pantheon','first-edition')]")


def load_reference() -> ModuleType:
    """The reference generator, imported by path: benchmarks/ is a folder of scripts, not a
    package, and the reference must not depend on the package it measures."""
    spec = importlib.util.spec_from_file_location("reference_mortal", REFERENCE_PATH)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load {REFERENCE_PATH}")
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("reference_mortal", module)  # dataclasses/typing look the module up
    spec.loader.exec_module(module)
    return module


# ---------------------------------------------------------------------------- small helpers


def ratio(numerator: float, denominator: float) -> float:
    """numerator / denominator, NaN when the denominator is zero (a budget too small to finish
    one game must not crash the report)."""
    return numerator / denominator if denominator else float("nan")


def rate(count: float, elapsed: float) -> float:
    """count per second; infinite for an elapsed time too small to measure."""
    return count / elapsed if elapsed > 0 else float("inf")


def fmt_ratio(value: float) -> str:
    """Ratios span 0.1 to 10: three significant digits are what the eye compares."""
    return f"{value:.3g}"


def fmt_rate(value: float) -> str:
    """Large rates (leaves/s) with thousands separators, small ones (games/s) with a decimal."""
    return f"{value:,.0f}" if value >= 10_000 else f"{value:,.1f}"


def peak_rss_mib() -> float:
    """Peak resident memory of this process in MiB. ru_maxrss is in KiB on Linux and in bytes
    on macOS."""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / (1024 * 1024) if sys.platform == "darwin" else peak / 1024


def machine_lines(now: datetime.datetime | None = None) -> list[str]:
    """Date and machine, printed first: a figure without its machine cannot be compared."""
    now = now or datetime.datetime.now(datetime.timezone.utc)
    return [
        f"date: {now:%Y-%m-%d %H:%M %Z}",
        f"machine: {platform.platform()}, {platform.machine()}, {os.cpu_count()} CPUs",
        f"python: {platform.python_implementation()} {platform.python_version()} ({sys.executable})",
    ]


# ---------------------------------------------------------------------------- the figures


@dataclass
class Row:
    """One line of the final table: a figure for the interpreter, the reference's figure when
    there is one, and the ratio to compare them (or a note for figures without a reference)."""

    figure: str
    interpreter: str
    reference: str = "-"
    ratio: str = "-"


@dataclass
class CardRow:
    """One line of the card table: a card v Mortal, as a ratio to the interpreter's Mortal v
    Mortal of the same rounds, with the card's target (issue 9) and whether the ratio meets it."""

    card: str
    tier: str
    turns_per_game: str
    games_per_s: str
    ratio: str
    rounds: str  # the rounds' ratios, lowest to highest: how far the median can be trusted
    target: str
    met: str
    counted: str = "?"  # the seats whose random turn is counted, not listed (A: the card, B: the Mortal)


@dataclass
class Report:
    """The printed lines, and the table rows, gathered while measuring."""

    out: Callable[[str], None] = print
    rows: list[Row] = field(default_factory=list)
    cards: list[CardRow] = field(default_factory=list)
    #: Notes under the card table: cards skipped, and why.
    notes: list[str] = field(default_factory=list)
    #: False when the perft counts disagree: a wrong count makes every speed figure moot.
    counts_agree: bool = True
    #: Cards whose games raised an error (an engine fault): the run exits 1.
    failures: dict[str, str] = field(default_factory=dict)

    def line(self, text: str = "") -> None:
        """Print at once: a long run should show progress, not one block at the end."""
        self.out(text)


#: The targets of the project's issue 9 ("Speed"), as ratios of games per CPU second: the
#: interpreter's Mortal v Mortal to the hand-written counting player's; each card v Mortal to
#: the interpreter's Mortal v Mortal, by the card's tier ("hero" for a hero, whatever its tier),
#: with a target of its own for Hermes (any number of moves: its turns cannot be counted in closed
#: form like the plain turn's).
MORTAL_TARGET = 0.8
TIER_TARGETS = {"simple": 0.5, "advanced": 0.25, "hero": 0.25}
CARD_TARGETS = {"Hermes": 0.1}
TIER_ORDER = ("simple", "advanced", "hero")


@dataclass
class MortalRounds:
    """Games/s per round, Mortal v Mortal from S0: the interpreter, the hand-written counting
    player (the yardstick: the interpreter's own algorithm) and the hand-written listing player."""

    interpreter: list[float] = field(default_factory=list)
    counting: list[float] = field(default_factory=list)
    listing: list[float] = field(default_factory=list)
    turns_per_game: list[float] = field(default_factory=list)
    counting_turns_per_game: list[float] = field(default_factory=list)

    @property
    def interpreter_median(self) -> float:
        return statistics.median(self.interpreter)


@dataclass
class CardRounds:
    """A card v Mortal on the interpreter: its tier and target, and per round its games/s, turns
    per game and ratio to the interpreter's Mortal v Mortal of that round."""

    name: str
    tier: str
    target: float | None
    counted: str = "?"
    #: Whether the card's games start from S0 (else from a seeded legal start: its setup refuses S0).
    from_s0: bool = True
    games_per_s: list[float] = field(default_factory=list)
    turns_per_game: list[float] = field(default_factory=list)
    ratios: list[float] = field(default_factory=list)


@dataclass
class Side:
    """One side of a comparison (an engine and the gods it plays), measured in slices: its games
    go on from slice to slice, and its time is the CPU time of this process while it plays."""

    play_game: Callable[[], int]  # plays one game; returns its number of turns
    games: int = 0
    turns: int = 0
    spent: float = 0.0
    #: A card's side may fail (an engine fault on that card): it is then dropped and reported,
    #: and the other sides go on. The Mortal sides may not: their figures are every ratio's base.
    may_fail: bool = False
    failure: Exception | None = None

    def play_for(self, seconds: float) -> None:
        """Whole games until `seconds` of CPU time have gone (at least one game)."""
        clock = time.process_time
        start = clock()
        while True:
            self.turns += self.play_game()
            self.games += 1
            elapsed = clock() - start
            if elapsed >= seconds:
                break
        self.spent += elapsed

    @property
    def games_per_s(self) -> float:
        return rate(self.games, self.spent)

    @property
    def turns_per_game(self) -> float:
        return ratio(self.turns, self.games)


def interpreter_side(pack_name: str, gods: Sequence[str], seed: int) -> Side:
    """The interpreter's random games from S0 (`santorini bench`); SetupError for a bad name."""
    games = bench_games(load_pack(pack_name), list(gods), seed)
    return Side(lambda: len(next(games).turn_steps))


def reference_side(reference: ModuleType, seed: int) -> Side:
    """The hand-written listing player's random games from S0 (the reference's `random_game`:
    every legal turn listed, one picked); it does not count turns."""
    rng, start = random.Random(seed), reference.s0()

    def play_game() -> int:
        reference.random_game(rng, start)
        return 0  # (the listing player does not count turns)
    return Side(play_game)


def counting_side(reference: ModuleType, seed: int) -> Side:
    """The hand-written counting player's random games from S0 (`counting_game`: each move's
    outcomes counted, an index drawn, only the chosen turn made), the interpreter's algorithm:
    from the same seed it plays the interpreter's very games (tests/test_benchmarks.py)."""
    rng, start = random.Random(seed), reference.s0_placed()
    game = reference.counting_game
    return Side(lambda: game(rng, start)[1])


def play_interleaved(sides: Sequence[Side], seconds: float, slice_seconds: float) -> None:
    """Give every side `seconds` of CPU time, in slices taken in turn, the order rotating on
    every pass: a stretch of time when the machine is busier falls on all of them alike. A side
    that may fail and raises is marked failed and leaves; any other side's error stops the run."""
    order = list(sides)

    def playing(side: Side) -> bool:
        return side.spent < seconds and side.failure is None
    while any(playing(side) for side in order):
        for side in order:
            if playing(side):
                try:
                    side.play_for(min(slice_seconds, seconds - side.spent))
                except Exception as err:  # noqa: BLE001 - reported by the caller
                    if not side.may_fail:
                        raise
                    side.failure = err
        order = order[1:] + order[:1]


def card_tier(card: Card | None) -> str:
    """A card's tier as the targets read it: 'hero' for a hero, else its tier ('mortal' for
    no card)."""
    if card is None:
        return "mortal"
    return "hero" if card.kind == "hero" else (card.tier or card.kind)


def card_target(name: str, tier: str) -> float | None:
    """The issue's target for a card v Mortal, as a ratio to Mortal v Mortal (None: no target)."""
    return CARD_TARGETS.get(name, TIER_TARGETS.get(tier))


def all_cards(pack_name: str) -> list[str]:
    """Every god and hero card of the pack, simple ones first, then advanced, then heroes, each
    group in alphabetical order."""
    cards = load_pack(pack_name).cards.values()
    rank = {tier: index for index, tier in enumerate(TIER_ORDER)}
    return [card.name for card in sorted(cards, key=lambda c: (rank.get(card_tier(c), len(rank)),
                                                              c.name.lower()))]


def counted_seats(pack_name: str, gods: Sequence[str]) -> str:
    """The seats of a game of `gods` whose random turn the engine draws by counting (a picker:
    interpreter/fast/plain.py, counted.py; or the derived code's kernels or count:
    interpreter/derived/kernel.py, tally.py) rather than from the list of every outcome
    (`Engine.turns`): 'A, B', 'A', 'B' or 'none' ('?' if the engine does not say). A listed
    seat is what most often keeps a card far under its target. The game is set up at S0, as
    the measured games are: SetupError if the cards' setup rules do not allow it."""
    engine = s0_game(pack_name, gods).engine
    def internal(name: str, default: object) -> Any:
        """An engine's internal list: named with a leading underscore now, without one
        in older engines (a snapshot of one is measured too)."""
        return getattr(engine, "_" + name, getattr(engine, name, default))
    pickers = internal("pickers", None)
    if pickers is None:
        return "?"
    kernelled = internal("kernelled", [False] * len(pickers))
    counting = internal("counting", [False] * len(pickers))
    return ", ".join(chr(ord("A") + seat) for seat, picker in enumerate(pickers)
                     if picker is not None or kernelled[seat] or counting[seat]) or "none"


def resolve_cards(pack_name: str, names: Sequence[str], players: int = 2
                  ) -> tuple[dict[str, CardRounds], dict[str, str]]:
    """The cards to measure (with their tier, target and counted seats) and those to skip, with
    the reason: a name the pack does not have, a card that cannot be played by `players` players
    (its `players:`), or a game that cannot be set up. A card whose setup rules refuse S0 (a
    third worker, workers placed on the perimeter...) is measured from a seeded legal start
    (`from_s0` False: a note under the table says so)."""
    pack = load_pack(pack_name)
    cards: dict[str, CardRounds] = {}
    skipped: dict[str, str] = {}
    for name in names:
        try:
            card = pack.card(name)
        except UnknownName as err:
            skipped[name] = f"{type(err).__name__}: {err}"
            continue
        if card is not None and players not in card.players:
            skipped[card.name] = (f"not a {players}-player card (players: "
                                  f"{', '.join(map(str, card.players))})")
            continue
        label = card.name if card is not None else name
        tier = card_tier(card)
        try:
            counted = counted_seats(pack_name, (label, *["Mortal"] * (players - 1)))
            game = new_game(pack, parse_players([label, *["Mortal"] * (players - 1)]))
        except SetupError as err:
            skipped[label] = f"cannot start from S0: {type(err).__name__}: {err}"
            continue
        cards[label] = CardRounds(label, tier, card_target(label, tier), counted,
                                  from_s0=all(starts_at_s0(game, seat) for seat in placing_seats(game)))
    return cards, skipped


def measure_games(report: Report, reference: ModuleType, pack_name: str, rounds: int, seconds: float,
                  seed: int, gods: Sequence[str], slice_seconds: float = 0.1
                  ) -> tuple[MortalRounds, dict[str, CardRounds], dict[str, str]]:
    """Mortal v Mortal on the interpreter and on both hand-written players, and each card v
    Mortal on the interpreter, interleaved.

    In every round each of them plays `seconds` of CPU time, in slices of `slice_seconds` taken
    in turn, so a card's figure, the Mortal figure it is divided by and the hand-written players'
    come from the same stretches of time. Round r (from 1) uses seed `seed + r - 1`: the rounds
    sample different games, every side the same seed (so the interpreter and the counting player
    play the same games, as many as each has time for).
    """
    mortal = MortalRounds()
    load_pack(pack_name)  # compile the pack before the clock starts (cached per process)
    cards, skipped = resolve_cards(pack_name, gods)
    for name, why in skipped.items():
        report.line(f"{name} v Mortal: skipped ({why})")
    for index in range(rounds):
        round_seed = seed + index
        interpreter = interpreter_side(pack_name, ("Mortal", "Mortal"), round_seed)
        counting, listing = counting_side(reference, round_seed), reference_side(reference, round_seed)
        card_sides: dict[str, Side] = {}
        for name in list(cards):  # (a card dropped in an earlier round is no longer there)
            try:
                card_sides[name] = interpreter_side(pack_name, (name, "Mortal"), round_seed)
            except (SetupError, UnknownName) as err:  # a game the pack cannot set up: say so, go on
                # Anything else is a fault of the engine and stops the run: figures of a broken
                # engine mean nothing, and a "skipped" line would hide the fault.
                skipped[name] = f"{type(err).__name__}: {err}"
                del cards[name]
                report.line(f"round {index + 1} {name} v Mortal: skipped ({skipped[name]})")
                continue
            card_sides[name].may_fail = True
        sides = [interpreter, counting, listing, *card_sides.values()]
        shift = index % len(sides)
        play_interleaved(sides[shift:] + sides[:shift], seconds, slice_seconds)
        mortal.interpreter.append(interpreter.games_per_s)
        mortal.counting.append(counting.games_per_s)
        mortal.listing.append(listing.games_per_s)
        mortal.turns_per_game.append(interpreter.turns_per_game)
        mortal.counting_turns_per_game.append(counting.turns_per_game)
        report.line(f"round {index + 1} Mortal v Mortal games/s: interpreter {fmt_rate(interpreter.games_per_s)} "
                    f"({interpreter.turns_per_game:.1f} turns/game), counting player "
                    f"{fmt_rate(counting.games_per_s)} ({counting.turns_per_game:.1f} turns/game), ratio "
                    f"{fmt_ratio(ratio(interpreter.games_per_s, counting.games_per_s))}; listing player "
                    f"{fmt_rate(listing.games_per_s)}, ratio "
                    f"{fmt_ratio(ratio(interpreter.games_per_s, listing.games_per_s))}")
        for name, side in card_sides.items():
            if side.failure is not None:
                why = f"{type(side.failure).__name__}: {side.failure}"
                del cards[name]
                if isinstance(side.failure, (SetupError, UnknownName)):  # the game, not the engine
                    skipped[name] = why
                    report.line(f"round {index + 1} {name} v Mortal: skipped ({why})")
                else:  # an engine fault: reported, and the run exits 1
                    report.failures[name] = why
                    report.line(f"round {index + 1} {name} v Mortal: FAILED ({why})")
                continue
            card = cards[name]
            card.games_per_s.append(side.games_per_s)
            card.turns_per_game.append(side.turns_per_game)
            card.ratios.append(ratio(side.games_per_s, interpreter.games_per_s))
            report.line(f"round {index + 1} {name} v Mortal games/s: {fmt_rate(side.games_per_s)} "
                        f"({side.turns_per_game:.1f} turns/game), "
                        f"ratio to Mortal v Mortal {fmt_ratio(card.ratios[-1])}")
    return mortal, {n: c for n, c in cards.items() if c.ratios}, skipped


def met(value: float, target: float | None) -> str:
    """'yes' or 'NO' (capitals: a missed target must stand out in a long table); '-' without a
    target."""
    if target is None:
        return "-"
    return "yes" if value >= target else "NO"


def report_games(report: Report, mortal: MortalRounds, cards: dict[str, CardRounds],
                 skipped: dict[str, str], rounds: int, seconds: float) -> None:
    """Medians and ratios of the game figures, printed and added to the tables.

    A ratio is the median of the rounds' ratios: each round's two figures were measured in the
    same stretches of time, so their ratio is steadier than either figure (the raw figures are
    medians too, for the record). Turns per game are shown beside games/s because a power
    changes how long games last (Pan wins sooner, Athena's opponent climbs less): games/s mixes
    the cost of a turn with the length of a game, and the two are told apart only with both
    numbers."""
    interp = mortal.interpreter_median
    turns = statistics.median(mortal.turns_per_game)
    for label, figures, note in (
            ("counting", mortal.counting, f"the yardstick; target {MORTAL_TARGET:g}"),
            ("listing", mortal.listing, "reference_mortal.random_game")):
        if not figures:
            continue
        share = statistics.median(ratio(i, r) for i, r in zip(mortal.interpreter, figures))
        verdict = f", target {MORTAL_TARGET:g} {'met' if share >= MORTAL_TARGET else 'NOT met'}" \
            if label == "counting" else ""
        report.line(f"Mortal v Mortal games/s median: interpreter {fmt_rate(interp)}, hand-written {label} "
                    f"player {fmt_rate(statistics.median(figures))}, ratio {fmt_ratio(share)} (median of the "
                    f"rounds' ratios; interpreter turns/game {turns:.1f}){verdict}")
        report.rows.append(Row(f"games/s, Mortal v Mortal from S0, interpreter v hand-written {label} player "
                               f"({note}; {turns:.1f} turns/game; median of {rounds} x {seconds:g} s)",
                               fmt_rate(interp), fmt_rate(statistics.median(figures)), fmt_ratio(share)))
    for name, card in cards.items():
        median = statistics.median(card.games_per_s)
        card_turns = statistics.median(card.turns_per_game)
        share = statistics.median(card.ratios)
        target = f", target {card.target:g}: {'met' if share >= card.target else 'NOT met'}" \
            if card.target is not None else ""
        report.line(f"{name} v Mortal games/s median: {fmt_rate(median)} ({card_turns:.1f} turns/game), "
                    f"ratio to Mortal v Mortal {fmt_ratio(share)} ({card.tier}{target})")
        report.cards.append(CardRow(name, card.tier, f"{card_turns:.1f}", fmt_rate(median), fmt_ratio(share),
                                    f"{fmt_ratio(min(card.ratios))}-{fmt_ratio(max(card.ratios))}",
                                    "-" if card.target is None else f"{card.target:g}",
                                    met(share, card.target), card.counted))
    for name, card in cards.items():
        if not card.from_s0:
            report.notes.append(f"{name}: its setup refuses S0, so its games start from a legal placement "
                                "drawn by the seeded agent")
    for name, why in skipped.items():
        report.notes.append(f"{name}: skipped ({why.split(';')[0]})")
    for name, why in report.failures.items():
        report.notes.append(f"{name}: FAILED ({why})")
    with_target = [c for c in report.cards if c.target != "-"]
    if with_target:
        missed = [c.card for c in with_target if c.met != "yes"]
        report.line(f"cards at or above their target: {len(with_target) - len(missed)} of {len(with_target)}"
                    + (f"; under it: {', '.join(missed)}" if missed else ""))


# ---------------------------------------------------------------------------- perft


def s0_game(pack_name: str, gods: Sequence[str] = ("Mortal", "Mortal")) -> Game:
    """Mortal v Mortal (or `gods`) at S0 (A on b3 and d3, B on c4 and c2, A to move), built
    through the game API the same way `santorini bench` places its workers; no scenario file is
    needed, so this works for any pack and when the package is installed without its tests. A
    seat whose card's setup refuses S0 (a third worker, placement rules) places at random among
    its legal placements, as in `santorini bench`."""
    game = new_game(load_pack(pack_name), parse_players(list(gods)))
    agent = S0Agent(random.Random(0))  # S0, or a seeded legal start where a card's setup refuses S0
    for seat in placing_seats(game):
        place_workers(game, seat, agent.placement(game, seat))
    end_of_setup(game)
    return game


@dataclass
class PerftResult:
    """Leaf counts (they must all agree) and elapsed times per round, for each counter."""

    counts: dict[str, int] = field(default_factory=dict)
    times: dict[str, list[float]] = field(default_factory=dict)

    def leaves_per_s(self, name: str) -> float:
        return rate(self.counts[name], statistics.median(self.times[name]))

    @property
    def agree(self) -> bool:
        return len(set(self.counts.values())) == 1


#: The perft counters, in table order. The interpreter's perft finds the leaves of the last ply
#: as Zobrist outcome keys (each leaf's key is computed and deduplicated, no leaf state is
#: built); the reference's non-bulk perft builds every leaf Position, and its bulk perft only
#: counts the last ply (popcounts, no leaf at all). The interpreter does more than the bulk
#: counter and less than the non-bulk one, so both are shown.
INTERPRETER = "interpreter"
REFERENCE_NO_BULK = "reference, bulk counting off"
REFERENCE_BULK = "reference, bulk counting on"


def measure_perft(report: Report, reference: ModuleType, pack_name: str, depth: int,
                  rounds: int) -> PerftResult:
    """Perft from S0 at `depth`, each counter once per round, the order rotating by round."""
    game = s0_game(pack_name)
    engine, state = game.engine, game.state
    ref_s0 = reference.s0()
    counters: dict[str, Callable[[], int]] = {
        INTERPRETER: lambda: engine.perft(state, depth),
        REFERENCE_NO_BULK: lambda: reference.perft(ref_s0, depth, bulk=False),
        REFERENCE_BULK: lambda: reference.perft(ref_s0, depth, bulk=True),
    }
    result = PerftResult(times={name: [] for name in counters})
    names = list(counters)
    for index in range(rounds):
        shift = index % len(names)
        for name in names[shift:] + names[:shift]:
            start = time.perf_counter()
            count = counters[name]()
            result.times[name].append(time.perf_counter() - start)
            if result.counts.setdefault(name, count) != count:
                raise AssertionError(f"perft {name}: {count} leaves now, {result.counts[name]} before")
    expected = S0_PERFT.get(depth)
    interp = result.leaves_per_s(INTERPRETER)
    for name in names:
        median_time = statistics.median(result.times[name])
        line = f"perft depth {depth} {name}: {result.counts[name]:,} leaves, {median_time:.3f} s, " \
               f"{fmt_rate(result.leaves_per_s(name))} leaves/s"
        if name != INTERPRETER:
            line += f", ratio {fmt_ratio(ratio(interp, result.leaves_per_s(name)))}"
        report.line(line)
    counts = " = ".join(f"{result.counts[n]:,}" for n in names)
    if result.agree and (expected is None or result.counts[INTERPRETER] == expected):
        known = f" (the known count is {expected:,})" if expected is not None else ""
        report.line(f"perft counts agree: {counts}{known}")
    else:
        report.counts_agree = False
        report.line(f"perft counts DISAGREE: {', '.join(f'{n} {result.counts[n]:,}' for n in names)}"
                    + (f" (the known count is {expected:,})" if expected is not None else ""))
    for name in names[1:]:
        report.rows.append(Row(f"leaves/s, perft S0 depth {depth} (interpreter v {name})",
                               fmt_rate(interp), fmt_rate(result.leaves_per_s(name)),
                               fmt_ratio(ratio(interp, result.leaves_per_s(name)))))
    return result


# ---------------------------------------------------------------------------- start-up


def has_compile_cache() -> bool:
    """Whether the package keeps compiled packs between processes (interpreter/games/cache.py).
    A fresh process then starts from the cache, so start-up is measured both ways: as the user's
    environment has it, and with the cache turned off (SANTORINI_CACHE_DIR set to ''), which is
    what the first command after a change to any card pays."""
    return importlib.util.find_spec("santorini.interpreter.games.cache") is not None


def time_process(arguments: Sequence[str], runs: int, env_changes: dict[str, str] | None = None,
                 warm_up: bool = False) -> list[float]:
    """Wall times of `runs` fresh processes of this same interpreter, in this same environment
    (PYTHONPATH, working folder) but for `env_changes`, so they import the very package being
    measured. `warm_up` runs the command once untimed first, so that a cache the command fills
    is filled before the clock runs. A failing process is an error, not a fast start."""
    env = {**os.environ, **(env_changes or {})}
    times = []
    for index in range(-1 if warm_up else 0, runs):
        start = time.perf_counter()
        done = subprocess.run([sys.executable, *arguments], capture_output=True, text=True, env=env)
        if index >= 0:
            times.append(time.perf_counter() - start)
        if done.returncode != 0:
            raise RuntimeError(f"{' '.join(arguments)} exited {done.returncode}: {done.stderr.strip()}")
    return times


def measure_startup(report: Report, runs: int) -> dict[str, float]:
    """Median wall time of a fresh `cards` command and of a fresh process loading every pack:
    start-up is paid on every command and is where parsing and compiling the cards show."""
    variants: list[tuple[str, dict[str, str], bool]] = [("", {}, False)]
    if has_compile_cache():
        variants = [(", compile cache warm", {}, True),
                    (", compile cache off", {"SANTORINI_CACHE_DIR": ""}, False)]
    medians = {}
    for label, arguments in (("python -m santorini cards --pack bga", CARDS_COMMAND),
                             ("python -c load_pack(bga, pantheon, first-edition)", LOAD_ALL_COMMAND)):
        for note, env_changes, warm_up in variants:
            times = time_process(arguments, runs, env_changes, warm_up)
            median = medians[label + note] = statistics.median(times)
            report.line(f"start-up {label}{note}: median {median:.3f} s of {runs} "
                        f"(min {min(times):.3f} s, max {max(times):.3f} s)")
            report.rows.append(Row(f"start-up, `{label}`{note} (median of {runs})", f"{median:.3f} s"))
    return medians


# ---------------------------------------------------------------------------- report


def markdown_table(rows: Sequence[Row]) -> list[str]:
    """The rows as a Markdown table, ready for docs/performance.md."""
    lines = ["| figure | interpreter | reference | ratio |", "| --- | ---: | ---: | ---: |"]
    lines += [f"| {r.figure} | {r.interpreter} | {r.reference} | {r.ratio} |" for r in rows]
    return lines


CARD_HEADER = ("| card v Mortal | tier | turns/game | games/s | ratio to Mortal v Mortal | rounds' ratios "
               "| target | met | counted |")


def card_table(rows: Sequence[CardRow]) -> list[str]:
    """The cards as a Markdown table, card by card, ready for docs/performance.md."""
    lines = [CARD_HEADER, "| --- | --- | ---: | ---: | ---: | ---: | ---: | --- | --- |"]
    lines += [f"| {r.card} | {r.tier} | {r.turns_per_game} | {r.games_per_s} | {r.ratio} | {r.rounds} "
              f"| {r.target} | {r.met} | {r.counted} |" for r in rows]
    return lines


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    """The options; every budget can be made small so a test can run the whole script."""
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=3,
                        help="alternating rounds of every measurement (default 3)")
    parser.add_argument("--seconds", type=float, default=5.0,
                        help="CPU seconds of random games per side (each engine, each card) and per round "
                             "(default 5)")
    parser.add_argument("--slice", type=float, default=0.1, dest="slice_seconds",
                        help="seconds of a slice: the sides take turns in slices this long (default 0.1)")
    parser.add_argument("--seed", type=int, default=1,
                        help="seed of round 1; round r uses seed + r - 1 (default 1)")
    parser.add_argument("--pack", default="bga", choices=pack_names(),
                        help="rule pack of the interpreter and of --all-cards (default bga)")
    gods = parser.add_mutually_exclusive_group()
    gods.add_argument("--gods", nargs="+", metavar="GOD", default=list(SIMPLE_GODS),
                      help="gods to measure against a Mortal (default: the ten simple gods)")
    gods.add_argument("--all-cards", action="store_true",
                      help="every god and hero card of --pack against a Mortal, card by card")
    gods.add_argument("--no-gods", action="store_true", help="skip the gods")
    parser.add_argument("--perft-depth", type=int, default=3,
                        help="perft depth from S0 (default 3: 350,208 leaves)")
    parser.add_argument("--startup-runs", type=int, default=5,
                        help="fresh processes per start-up figure; 0 skips start-up (default 5)")
    args = parser.parse_args(argv)
    if args.rounds < 1 or args.seconds <= 0 or args.slice_seconds <= 0 or args.perft_depth < 1 \
            or args.startup_runs < 0:
        parser.error("--rounds and --perft-depth must be at least 1, --seconds and --slice positive, "
                     "--startup-runs at least 0")
    return args


def run(args: argparse.Namespace, out: Callable[[str], None] = print) -> Report:
    """Measure everything the options ask for, printing as it goes; returns the report (the
    rows of the table) so that tests can inspect it."""
    report = Report(out)
    reference = load_reference()
    started = datetime.datetime.now(datetime.timezone.utc)
    report.line("# Rule interpreter v hand-written mortal reference")
    for text in machine_lines(started):
        report.line(text)
    gods = [] if args.no_gods else all_cards(args.pack) if args.all_cards else list(args.gods)
    report.line(f"pack: {args.pack}; {args.rounds} rounds x {args.seconds:g} s in slices of "
                f"{args.slice_seconds:g} s; seed {args.seed}; "
                f"{'all cards' if args.all_cards else 'gods'}: {', '.join(gods) or 'none'}; "
                f"perft depth {args.perft_depth}")

    report.line("\n## Random games from S0 (games per CPU second; ratio interpreter / hand-written)")
    mortal, cards, skipped = measure_games(report, reference, args.pack, args.rounds, args.seconds,
                                           args.seed, gods, args.slice_seconds)
    report_games(report, mortal, cards, skipped, args.rounds, args.seconds)

    report.line(f"\n## Perft from S0, depth {args.perft_depth} (leaves/s; median of {args.rounds})")
    measure_perft(report, reference, args.pack, args.perft_depth, args.rounds)

    if args.startup_runs:
        report.line("\n## Start-up (wall time of a fresh process)")
        measure_startup(report, args.startup_runs)

    peak = peak_rss_mib()
    report.line("\n## Memory")
    report.line(f"peak resident memory of this process: {peak:.1f} MiB")
    report.rows.append(Row("peak resident memory of the benchmark process (both engines)", f"{peak:.1f} MiB"))

    report.line("\n## Table (Markdown)\n")
    for text in machine_lines(started):
        report.line(text + "  ")  # two spaces: a Markdown line break
    report.line("")
    for text in markdown_table(report.rows):
        report.line(text)
    if report.cards or report.notes:
        report.line("")
        report.line(f"Cards v Mortal, pack {args.pack} (games/s of the interpreter; ratio to its Mortal v "
                    f"Mortal games/s of the same rounds, median of {args.rounds}; counted: the seats whose "
                    "random turn is counted, not listed, A the card's, B the Mortal's):")
        report.line("")
        for text in card_table(report.cards) if report.cards else []:
            report.line(text)
        if report.notes:
            report.line("")
        for text in report.notes:
            report.line(f"- {text}")
    return report


def main(argv: Sequence[str] | None = None) -> None:
    """Command line entry point: see the module docstring. Exits 1 when the perft counts
    disagree or a card's games failed, so that a script or CI job running the benchmark notices."""
    report = run(parse_args(argv), out=lambda text: print(text, flush=True))
    if not report.counts_agree or report.failures:
        sys.exit(1)


if __name__ == "__main__":
    main()

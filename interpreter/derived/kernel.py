"""A whole turn in one generated function: a move (or two), then the moved worker's build.

The fused count (steps.py) counts the build after a move inside the move's step, and gives the
tally one record per move; the engine still walks to that step and decodes a record. When that
move is the first step of a seat's only turn program and the build its last, the turn needs none
of it, and the *kernels* serve it alone: `draw` (a random turn), `count` (how many distinct
outcomes: perft's last ply), `turns` (the list, with each turn's events for an agent that plays
them) and `can_win`.

The text of each is written from the seat's typed parts by a writer: `writer.Writer` for a move
then its build, `two_moves.TwoMoves` for a second move the worker may make before the build,
`repeated_moves.RepeatedMoves` for a move it may make again each time its move matches,
`two_builds.TwoBuilds` for a second build it may make after, `later_builds` for its build made
again and again or followed by the builds of the worker that did not move, and `last_choice`
for a last step the seat may take (a token put around the worker, a block taken off by
another). What a turn may do after its build is described by after_build.py's parts. Every
writer draws outcomes in the generic listing's order, so a seeded draw is the listing's, which
tests/test_kernel.py checks index by index.
"""

from __future__ import annotations

from collections.abc import Callable
from random import Random
from typing import TYPE_CHECKING

from ...dsl.vocabulary import Step
from ..engine.effects import apply_counter, undo_counter
from ..engine.walk import Walk
from ..model.state import Action, Event
from .after_build import TokenAfter
from .last_choice import RemoveAfterWriter, TokenAfterWriter
from .later_builds import LaterBuildsWriter, RepeatedBuildsWriter
from .repeated_moves import MovesAgain, RepeatedMoves
from .two_builds import TwoBuilds
from .two_moves import TwoMoves
from .writer import Counter, Drawn, Kernel, Listed, Lister, Outcomes, Writer

if TYPE_CHECKING:
    from .steps import DerivedCompiler, Fusion


class Kernels:
    """The generated functions of a turn that is a move (or two) and then the moved worker's
    build (see the module docstring): `draw` (a random turn), `count` (the number of distinct
    outcomes: perft's last ply), `turns` (every turn in the listing's order, with its events and
    winner for a caller that keeps them) and `can_win`.
    `lowers_obligations` says whether they judge the obligations other seats lay on the turn
    (else the engine leaves a turn to the count while one is in force); `board_wins`, the board
    wins some build of the turn may make hold, which they judge only where none holds as the
    turn starts (a position set up so: the engine then leaves the turn to the chain)."""

    __slots__ = ("draw", "count", "turns", "can_win", "lowers_obligations", "board_wins", "serves", "outcomes")

    def __init__(self, draw: Kernel, count: Counter, turns: Lister, can_win: Callable[[Walk], bool],
                 lowers_obligations: bool, board_wins: Callable[[Walk], int | None] | None = None,
                 serves: Callable[[Walk], bool] | None = None, outcomes: Outcomes | None = None) -> None:
        self.draw, self.count, self.turns, self.can_win = draw, count, turns, can_win
        self.lowers_obligations = lowers_obligations
        self.board_wins = board_wins
        #: Whether they serve a position (None: every one); the engine leaves the others to the
        #: chain.
        self.serves = serves
        #: What the turns they find may add to the board and whether they win (None: not known),
        #: which tells one program's turns from another's (`alternatives`).
        self.outcomes = outcomes


def move_then_build(compiler: DerivedCompiler, step: Step, fusion: Fusion,
                    second: Step | None = None, again: MovesAgain | None = None) -> Kernels | None:
    """The kernels of a turn whose first step is `step`, a move followed by the counted build of
    `fusion` (with `second`, a move the same worker may make before the build); None when the
    moves' targets are not bits (a region other than the worker's neighbours, a filter with no
    bit lowering), or when a way forces a worker that may be the seat's own or before a build
    that reads where other workers stand."""
    writer: Writer
    if again is not None:
        if second is not None:
            return None
        writer = RepeatedMoves(compiler, step, fusion, again)
    elif fusion.last is not None:
        if second is not None:
            return None
        last = TokenAfterWriter if isinstance(fusion.last, TokenAfter) else RemoveAfterWriter
        writer = last(compiler, step, fusion)
    elif fusion.repeats is not None:
        if second is not None:
            return None
        writer = RepeatedBuildsWriter(compiler, step, fusion)
    elif fusion.later is not None:
        if second is not None:
            return None
        writer = LaterBuildsWriter(compiler, step, fusion)
    elif fusion.again is not None:
        if second is not None:
            return None
        writer = TwoBuilds(compiler, step, fusion)
    else:
        writer = Writer(compiler, step, fusion) if second is None else TwoMoves(compiler, step, fusion, second)
    if not writer.fits():
        return None
    draw, count, turns, can_win = writer.draw(), writer.count(), writer.turns(), writer.can_win()
    if draw is None or count is None or turns is None or can_win is None:
        return None
    return Kernels(draw, count, turns, can_win, writer.lowers_obligations,
                   compiler.board_wins if writer.fusion.winnable else None, writer.serves(), writer.outcome_kinds())


def after_gains(kernels: Kernels, seat: int, gains: tuple[tuple[str, int], ...]) -> Kernels:
    """The kernels of a turn that starts with gains to the seat's counters ('you gain 1 coin'):
    each function runs with the gains made on the state (and taken back after), and the events
    of a turn drawn or listed begin with them, as the chain logs them."""
    def gained(walk: Walk) -> tuple[tuple[Event, ...], list[int]]:
        st = walk.state
        events: tuple[Event, ...] = ()
        before = []
        for name, amount in gains:
            value = st.counters.get((seat, name), 0) + amount
            before.append(apply_counter(walk, seat, name, value))
            events += (("counter", seat, name, value),)
        return events, before

    def taken_back(walk: Walk, before: list[int]) -> None:
        for (name, _), value in reversed(list(zip(gains, before, strict=True))):
            undo_counter(walk, seat, name, value)

    def draw(walk: Walk, rng: Random) -> Drawn:
        events, before = gained(walk)
        try:
            drawn = kernels.draw(walk, rng)
        finally:
            taken_back(walk, before)
        if drawn is None or drawn[1] is None:  # (no turn, or a winning move the engine plays)
            return drawn
        return drawn[0], (*events, *drawn[1])

    def count(walk: Walk) -> int:
        _, before = gained(walk)
        try:
            return kernels.count(walk)
        finally:
            taken_back(walk, before)

    def turns(walk: Walk, listed: Listed | None) -> list[tuple[Action, ...]]:
        events, before = gained(walk)
        try:
            out = kernels.turns(walk, listed)
        finally:
            taken_back(walk, before)
        if listed is not None:
            for turn, (after, winner) in listed.items():
                listed[turn] = ((*events, *after), winner)
        return out

    def can_win(walk: Walk) -> bool:
        _, before = gained(walk)
        try:
            return kernels.can_win(walk)
        finally:
            taken_back(walk, before)
    return Kernels(draw, count, turns, can_win, kernels.lowers_obligations, kernels.board_wins, kernels.serves,
                   kernels.outcomes)




class _Drawn:
    """The generator a program's draw is given once the index is drawn among every program's
    outcomes: its one `randrange` returns the index within that program's."""

    __slots__ = ("index",)

    def __init__(self, index: int) -> None:
        self.index = index

    def randrange(self, total: int) -> int:
        assert self.index < total, "a program's count changed between its count and its draw"
        return self.index


def alternatives(programs: list[Kernels | None]) -> Kernels | None:
    """The kernels of a seat with several turn programs, each with kernels (None where one has
    none). The listing takes the programs one after another and keeps a turn whose outcome was
    not met before; a turn of one program is never a turn of another where no two programs' turns
    add the same number of building pieces and both win or both do not (`Kernels.outcomes`: two
    numbers of pieces are two boards, a won game is not one going on). So the outcomes are
    counted program by program, one index is drawn over their sum, and the program it falls in
    draws that turn. A position one program's kernels do not serve is left to the chain."""
    found = [kernels for kernels in programs if kernels is not None]
    signatures = [kernels.outcomes for kernels in found]
    if len(found) != len(programs) or any(signature is None for signature in signatures):
        return None
    seen: set[tuple[int, bool]] = set()
    for signature in signatures:
        assert signature is not None
        if seen & signature:
            return None  # (two programs may find one outcome: the listing would keep it once)
        seen |= signature
    served = [kernels.serves for kernels in found if kernels.serves is not None]

    def serves(walk: Walk) -> bool:
        return all(serve(walk) for serve in served)

    def count(walk: Walk) -> int:
        return sum(kernels.count(walk) for kernels in found)

    def draw(walk: Walk, rng: Random) -> Drawn:
        counts = [kernels.count(walk) for kernels in found]
        total = sum(counts)
        if not total:
            return None
        index = rng.randrange(total)
        for kernels, n in zip(found, counts, strict=True):
            if index < n:
                return kernels.draw(walk, _Drawn(index))  # type: ignore[arg-type]  # (its one randrange)
            index -= n
        raise AssertionError("an index beyond the programs' counts")

    def turns(walk: Walk, listed: Listed | None) -> list[tuple[Action, ...]]:
        return [turn for kernels in found for turn in kernels.turns(walk, listed)]

    def can_win(walk: Walk) -> bool:
        return any(kernels.can_win(walk) for kernels in found)
    board_wins = [kernels.board_wins for kernels in found if kernels.board_wins is not None]
    return Kernels(draw, count, turns, can_win, all(kernels.lowers_obligations for kernels in found),
                   board_wins[0] if board_wins else None, serves if served else None, seen)  # type: ignore[arg-type]


__all__ = ["Counter", "Drawn", "Kernel", "Kernels", "Listed", "Lister", "Outcomes", "after_gains", "alternatives",
           "move_then_build"]

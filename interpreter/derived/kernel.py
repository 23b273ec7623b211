"""A whole turn in generated functions, written from the seat's typed parts: the kernels.

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
another), and `other_builders` for a build its ways give to workers of their own. What a turn
may do after its build is described by after_build.py's parts. Every writer draws outcomes in
the generic listing's order, so a seeded draw is the listing's, which tests/test_kernel.py checks
index by index.

Other turn shapes have kernels of their own, made the same way: a build before the move
(build_first.py), each worker's move or build (each_worker.py), a worker placed from the card
(placed_first.py). The functions here wrap kernels for what comes around a turn: gains as it
starts (`after_gains`), the announcement of an alternative turn (`after_use`), end-of-turn steps
with no choice (`after_turn_ends`), and several programs side by side (`alternatives`).
"""

from __future__ import annotations

from collections.abc import Callable
from random import Random
from typing import TYPE_CHECKING

from ...dsl.vocabulary import Modality, Step, Verb
from ..chain.effects import apply_counter, undo_counter
from ..chain.walk import Walk
from ..model.state import Action, Event, GameState, apply_events
from .after_build import TokenAfter
from .last_choice import RemoveAfterWriter, TokenAfterWriter
from .later_builds import LaterBuildsWriter, RepeatedBuildsWriter
from .other_builders import OtherBuilders
from .repeated_moves import MovesAgain, RepeatedMoves
from .two_builds import TwoBuilds
from .two_moves import TwoMoves
from .writer import Counter, Drawn, Kernel, Listed, Lister, MovesBuilt, Outcomes, Writer

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

    __slots__ = ("draw", "count", "turns", "can_win", "lowers_obligations", "board_wins", "serves", "outcomes",
                 "moves_built", "after")

    def __init__(self, draw: Kernel, count: Counter, turns: Lister, can_win: Callable[[Walk], bool] | None,
                 lowers_obligations: bool, board_wins: Callable[[Walk], int | None] | None = None,
                 serves: Callable[[Walk], bool] | None = None, outcomes: Outcomes | None = None,
                 moves_built: MovesBuilt | None = None,
                 after: Callable[[Kernels], Kernels | None] | None = None) -> None:
        self.draw, self.count, self.turns, self.can_win = draw, count, turns, can_win
        self.lowers_obligations = lowers_obligations
        self.board_wins = board_wins
        #: Whether they serve a position (None: every one); the engine leaves the others to the
        #: chain.
        self.serves = serves
        #: What the turns they find may add to the board and whether they win (None: not known),
        #: which tells one program's turns from another's (`alternatives`).
        self.outcomes = outcomes
        #: Where each turn is one move and the moved worker's build: per move, the squares it
        #: builds on (`Writer.moves_built`), which a later program's turns may meet again.
        self.moves_built = moves_built
        #: Where these turns may leave boards an earlier program's turns leave: the two programs'
        #: kernels as one, the earlier's turns first and these without the boards met there
        #: (None where the earlier's turns are not known so), for `alternatives`.
        self.after = after


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
    elif fusion.builders:
        if second is not None:
            return None
        writer = OtherBuilders(compiler, step, fusion)
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
                   compiler.board_wins if writer.fusion.winnable else None, writer.serves(), writer.outcome_kinds(),
                   writer.moves_built())


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
        assert kernels.can_win is not None
        _, before = gained(walk)
        try:
            return kernels.can_win(walk)
        finally:
            taken_back(walk, before)
    inner = kernels.serves

    def serves(walk: Walk) -> bool:
        assert inner is not None
        _, before = gained(walk)
        try:
            return inner(walk)
        finally:
            taken_back(walk, before)
    return Kernels(draw, count, turns, can_win if kernels.can_win is not None else None, kernels.lowers_obligations,
                   kernels.board_wins, serves if inner is not None else None, kernels.outcomes)




#: What a seat's automatic end-of-turn steps add to a turn (the engine's `_turn_end`): (the state
#: after the turn's steps, its events, the worker of its last step) -> the events they add, or
#: None where they end the game (the engine then plays the turn step by step).
TurnEnd = Callable[[GameState, tuple[Event, ...], int], tuple[Event, ...] | None]


def ends_without_choice(step: Step) -> bool:
    """Whether an end-of-turn step happens with no choice and only takes workers off the board
    (building where they stood) or makes a team lose: it stops no turn, adds none, and leaves the
    seat's own workers and the squares its turn built as they were, so the turns' outcomes stay
    as many and as distinct (two boards that differ in the seat's workers or in a square built
    while free still differ after it); `after_turn_ends` takes it in."""
    return (step.modality is Modality.AUTOMATIC and step.verb in (Verb.REMOVE, Verb.LOSE) and not step.cost
            and step.otherwise is None)


#: The team that wins once a seat's end-of-turn steps are taken after a turn, or None: (the state
#: after the turn's steps, its events, the worker of its last step) -> team.
TurnEndWinner = Callable[[GameState, tuple[Event, ...], int], int | None]


def after_turn_ends(kernels: Kernels, turn_end: TurnEnd, wins_kept: bool = False,
                    after_moves: TurnEndWinner | None = None, obligations_kept: bool = False) -> Kernels:
    """The kernels of a turn followed by end-of-turn steps of which `ends_without_choice`: the
    same count and list, each turn drawn or listed with what the steps add to its events
    (judged on a copy of the state after it). Whether a turn wins is the kernels' where the steps
    make no win (`wins_kept`: they only take workers off the board, and no win is judged on the
    board, which their builds on the squares left could change); where they make a team lose on
    what no build changes (`after_moves`: where workers stand), it is judged once per move whose
    build completes a turn (`Kernels.moves_built`), with the moved worker put on the square it
    ends on and taken back; else it is the chain's. The obligations are the kernels' where each
    reads only the moves of the turn, as they were made (`obligations_kept`: the steps never stop
    a turn nor change its moves; one that reads where workers stand would see those a step took
    off the board), else the chain's."""
    def ended(state: GameState, steps: tuple[Action, ...], events: tuple[Event, ...]) -> tuple[Event, ...] | None:
        after = state.copy()
        apply_events(after, events)
        extra = turn_end(after, events, steps[-1][1])
        return None if extra is None else (*events, *extra)

    def draw(walk: Walk, rng: Random) -> Drawn:
        drawn = kernels.draw(walk, rng)
        if drawn is None:
            return None
        steps, events = drawn
        if events is None:  # (one the engine plays step by step)
            return drawn
        return steps, ended(walk.state, steps, events)

    def turns(walk: Walk, listed: Listed | None) -> list[tuple[Action, ...]]:
        out = kernels.turns(walk, listed)
        if listed is not None:
            for turn, (events, winner) in list(listed.items()):
                if winner is not None:
                    continue  # (a winning move: the turn ends there)
                whole = ended(walk.state, turn, events)
                if whole is None:
                    del listed[turn]  # (played step by step)
                else:
                    listed[turn] = (whole, None)
        return out
    return Kernels(draw, kernels.count, turns, kernels.can_win if wins_kept else _won_after_moves(kernels, after_moves),
                   kernels.lowers_obligations and obligations_kept, kernels.board_wins, kernels.serves, None)


def _won_after_moves(kernels: Kernels, winner: TurnEndWinner | None) -> Callable[[Walk], bool] | None:
    """Whether some turn wins: a winning move, or a move whose build completes the turn after
    which the end-of-turn steps make the seat's team win (`after_turn_ends`); None where the
    kernels do not tell their moves."""
    moves_built, wins = kernels.moves_built, kernels.can_win
    if winner is None or moves_built is None or wins is None:
        return None

    def can_win(walk: Walk) -> bool:
        if wins(walk):
            return True
        st = walk.state
        team, heights = st.seats[st.to_move].team, st.heights
        for worker, target, built in moves_built(walk):
            if built <= 0:
                continue  # (a winning move, found above)
            origin = st.worker_pos[worker]
            moved: tuple[Event, ...] = (("move", worker, origin, target, heights[origin], heights[target]),)
            st.relocate(worker, target)
            try:
                won = winner(st, moved, worker) == team
            finally:
                st.relocate(worker, origin)
            if won:
                return True
        return False
    return can_win


def after_use(kernels: Kernels, seat: int, name: str | None, once: str | None) -> Kernels:
    """The kernels of an alternative turn the seat announces ('use NAME'), at most once per game
    where `once` names the card's mark: each turn begins with the announcement (and the mark),
    and the turn has none once the mark is set. With no `name`, a turn found by its steps, once
    per game: only the mark."""
    use: tuple[Action, ...] = (("use", -1, name),) if name is not None else ()
    said: tuple[Event, ...] = (*((("use", -1, name),) if name is not None else ()),
                               *((("mark", seat, once),) if once is not None else ()))

    def used(walk: Walk) -> bool:
        return once is not None and (seat, once) in walk.state.marks

    def draw(walk: Walk, rng: Random) -> Drawn:
        drawn = None if used(walk) else kernels.draw(walk, rng)
        if drawn is None:
            return None
        steps, events = drawn
        return (*use, *steps), None if events is None else (*said, *events)

    def count(walk: Walk) -> int:
        return 0 if used(walk) else kernels.count(walk)

    def turns(walk: Walk, listed: Listed | None) -> list[tuple[Action, ...]]:
        if used(walk):
            return []
        found: Listed | None = {} if listed is not None else None
        out = [(*use, *turn) for turn in kernels.turns(walk, found)]
        if listed is not None and found is not None:
            for turn, (events, winner) in found.items():
                listed[(*use, *turn)] = ((*said, *events), winner)
        return out

    def can_win(walk: Walk) -> bool:
        assert kernels.can_win is not None
        return not used(walk) and kernels.can_win(walk)
    inner = kernels.serves

    def serves(walk: Walk) -> bool:
        return used(walk) or inner is None or inner(walk)  # (used: no turn, whatever the position)
    return Kernels(draw, count, turns, can_win if kernels.can_win is not None else None, kernels.lowers_obligations,
                   kernels.board_wins, serves, kernels.outcomes)


class IndexDrawn:
    """The generator a program's draw is given once the index is drawn among every program's
    outcomes: its one `randrange` returns the index within that program's."""

    __slots__ = ("index",)

    def __init__(self, index: int) -> None:
        self.index = index

    def randrange(self, total: int) -> int:
        assert self.index < total, "a program's count changed between its count and its draw"
        return self.index


#: What a program's turns add after an earlier program's, told the earlier one's moves and the
#: squares each builds on (`Kernels.moves_built`, asked for only where needed): (how many new
#: outcomes, the index-th of them, all of them listed in order with their events kept in the
#: given dict where there is one).
Fresh = tuple[int, Callable[[int], Drawn], Callable[[Listed | None], list[tuple[Action, ...]]]]


def after_moves_built(earlier: Kernels, fresh: Callable[[Walk, Callable[[], list[tuple[int, int, int]]]], Fresh],
                      serves: Callable[[Walk], bool], lowers_obligations: bool, outcomes: Outcomes,
                      can_win: Callable[[Walk], bool] | None) -> Kernels | None:
    """The kernels of `earlier`'s turns, then a later program's whose boards may be among them:
    `fresh` makes the later program's new outcomes from the earlier one's moves and their
    builds (`Kernels.moves_built`); the listing's order, one index drawn over both
    (`Kernels.after`). None where the earlier kernels do not tell their moves. The counts are
    kept while the walk's state is the same (the engine counts, then draws, on one walk)."""
    moves_built = earlier.moves_built
    if moves_built is None or earlier.outcomes is None:
        return None
    kept: list[object] = [None, 0, None]

    def counted(walk: Walk) -> tuple[int, Fresh]:
        if kept[0] is walk and kept[1] == walk.state.hash:
            return kept[2]  # type: ignore[return-value]
        built = moves_built(walk)  # (the earlier turns' count too: a win one, else one per square built on)
        both = sum(1 if squares < 0 else squares.bit_count() for _, _, squares in built), fresh(walk, lambda: built)
        kept[:] = walk, walk.state.hash, both
        return both

    def count(walk: Walk) -> int:
        first, (n, _, _) = counted(walk)
        return first + n

    def draw(walk: Walk, rng: Random) -> Drawn:
        first, (n, nth, _) = counted(walk)
        if not n:
            return earlier.draw(walk, rng)
        index = rng.randrange(first + n)
        if index < first:
            return earlier.draw(walk, IndexDrawn(index))  # type: ignore[arg-type]  # (its one randrange)
        return nth(index - first)

    def turns(walk: Walk, listed: Listed | None) -> list[tuple[Action, ...]]:
        return [*earlier.turns(walk, listed), *fresh(walk, lambda: moves_built(walk))[2](listed)]
    inner = earlier.serves

    def served(walk: Walk) -> bool:
        return serves(walk) and (inner is None or inner(walk))
    searches = [search for search in (earlier.can_win, can_win) if search is not None]

    def wins(walk: Walk) -> bool:
        return any(search(walk) for search in searches)
    return Kernels(draw, count, turns, wins if len(searches) == 2 else None,
                   earlier.lowers_obligations and lowers_obligations, earlier.board_wins, served,
                   earlier.outcomes | outcomes)


def once_spent(kernels: Kernels, seat: int, marks: frozenset[str]) -> Kernels:
    """The kernels of a seat's turns once it has used its once-per-game ways (`marks`, set on
    its card), found without them: they serve a position only where every mark is set (else the
    chain, which offers the ways not used yet)."""
    keys = tuple((seat, mark) for mark in sorted(marks))
    inner = kernels.serves

    def serves(walk: Walk) -> bool:
        marked = walk.state.marks
        return all(key in marked for key in keys) and (inner is None or inner(walk))
    return Kernels(kernels.draw, kernels.count, kernels.turns, kernels.can_win, kernels.lowers_obligations,
                   kernels.board_wins, serves, kernels.outcomes, kernels.moves_built)


def alternatives(programs: list[Kernels | None]) -> Kernels | None:
    """The kernels of a seat with several turn programs, each with kernels (None where one has
    none). The listing takes the programs one after another and keeps a turn whose outcome was
    not met before; a turn of one program is never a turn of another where no two programs' turns
    add the same numbers of building pieces and of workers and both win or both do not
    (`Kernels.outcomes`: two numbers of pieces or workers are two boards, a won game is not one
    going on). So the outcomes are
    counted program by program, one index is drawn over their sum, and the program it falls in
    draws that turn. A position one program's kernels do not serve is left to the chain.
    Programs whose turns may leave the same boards are taken together where the later one's
    kernels know how to leave out the earlier one's boards (`Kernels.after`: its program comes
    right after the earlier one)."""
    if any(kernels is None or kernels.outcomes is None for kernels in programs):
        return None
    found: list[Kernels] = []
    seen: set[tuple[int, int, bool]] = set()
    for kernels in programs:
        assert kernels is not None and kernels.outcomes is not None
        signature = kernels.outcomes
        if seen & signature:  # (two programs may find one outcome: the listing keeps it once)
            earlier = found[-1] if found else None
            if (kernels.after is None or earlier is None or earlier.outcomes is None
                    or any(other.outcomes is None or other.outcomes & signature for other in found[:-1])):
                return None
            together = kernels.after(earlier)
            if together is None:
                return None
            found[-1] = together
        else:
            found.append(kernels)
        seen |= signature
    if len(found) == 1:
        return found[0]
    served = [kernels.serves for kernels in found if kernels.serves is not None]

    def serves(walk: Walk) -> bool:
        return all(serve(walk) for serve in served)

    def count(walk: Walk) -> int:
        return sum(kernels.count(walk) for kernels in found)

    first, others = found[0], found[1:]

    def draw(walk: Walk, rng: Random) -> Drawn:
        later = [kernels.count(walk) for kernels in others]
        if not any(later):  # (the first program's turns alone: its draw counts them itself)
            return first.draw(walk, rng)
        counts = [first.count(walk), *later]
        total = sum(counts)
        if not total:
            return None
        index = rng.randrange(total)
        for kernels, n in zip(found, counts, strict=True):
            if index < n:
                return kernels.draw(walk, IndexDrawn(index))  # type: ignore[arg-type]  # (its one randrange)
            index -= n
        raise AssertionError("an index beyond the programs' counts")

    def turns(walk: Walk, listed: Listed | None) -> list[tuple[Action, ...]]:
        return [turn for kernels in found for turn in kernels.turns(walk, listed)]

    searches = [kernels.can_win for kernels in found if kernels.can_win is not None]

    def can_win(walk: Walk) -> bool:
        return any(search(walk) for search in searches)
    board_wins = [kernels.board_wins for kernels in found if kernels.board_wins is not None]
    return Kernels(draw, count, turns, can_win if len(searches) == len(found) else None,  # (else the chain's)
                   all(kernels.lowers_obligations for kernels in found), board_wins[0] if board_wins else None,
                   serves if served else None, frozenset(seen))


__all__ = ["Counter", "Drawn", "Fresh", "IndexDrawn", "Kernel", "Kernels", "Listed", "Lister", "Outcomes", "TurnEnd",
           "TurnEndWinner",
           "after_gains", "after_moves_built", "after_turn_ends", "after_use", "alternatives", "ends_without_choice",
           "once_spent",
           "move_then_build"]

"""The kernels of a turn program whose one step each of the seat's workers takes once, in the
order the player picks (`Role.EVERY`: 'each of your workers builds', 'each of your workers
moves'), where the seat has two workers on the board.

The generated code lowers the step's parts to squares as bits, per worker (`masks`); what the
two orders make is then counted from those sets by the functions here, the same for every card.
The step's filters and the other seats' bans must read only the square they judge and the
acting worker's own values (and, for builds, where workers stand, which no build changes): so
one worker's step changes the other's squares only where that step went (a square built one
level higher; a square left free, one taken).

* **Builds.** A the first worker's squares, B the second's, `A1` and `B1` those where each may
  build once a block is on the square. The first worker first builds x in A, then the second y
  in B without x, or on x itself where x is in B1 below level 3. The other order meets every
  pair on two squares again (the same board), and adds only a second block on a square where
  the second worker may start and the first follow (`B & A1`), not met before: so
  |A||B| - |A ∩ B| + |A ∩ B1| + |(B ∩ A1) \\ (A ∩ B1)| outcomes.
* **Moves.** `A` and `B` the targets of each worker, each with the other worker in place. The
  first worker first moves to a in A, then the second to b in B without a, or onto the first
  one's square where it may (`behind_a`). The other order meets every pair again but those
  where the first worker takes the second one's square (`behind_b`): |A||B| - |A ∩ B| +
  behind_a |A| + behind_b |B| outcomes.

* **Builds after a move.** Where one of the seat's workers moves first ('one of your workers
  moves, not up. each of your workers builds.'), each move's builds are counted so, with the
  two builders' squares found where the mover went (`each_builds_after_a_move`); two moves never
  leave the same board, so the turns are those of each move in the listing's order.
* **Builds after each worker's move.** Where each of the seat's workers moves and then each
  builds ('each of your workers moves. each of your workers builds.'), the moves' boards come in
  the moves' listing order (each once; a winning move is a whole turn), and after each the two
  builds are counted so on that board (`each_builds_after_each_move`); builds move no worker, so
  two boards never meet again.
* **Moves slid on.** Where another seat's slide takes each moved worker on (a reaction to its
  moves, lowered as writer.py lowers it), where a worker ends depends on where the other one
  stands: the second worker's slide stops before the square the first ended on and may pass
  the one it left. The moves are then listed in the chain's order (`moves_with_slides`), each
  board once, the slide judged by a generated function told those two squares (slides.py).
* **Moves that may win.** A winning move ends the turn before the other worker's, which the
  counts above do not follow: where some move of either worker may win, the moves are listed in
  the chain's order instead (`moves_with_wins`), each board once (won or not). Beside an earlier
  program (the usual turn), a first move that wins leaves the board of that program's win, and
  so does a pair whose second move wins where the two stand as after one of its winning moves:
  those boards, told by its kernels (`Kernels.moves_built`), are left out (`Kernels.after`).

Builds that may make a board win hold (two on one square may complete a tower), and positions
with more or fewer than two workers, are left to the chain (`serves`). Outcomes come in the
generic listing's order, so a seeded draw is the listing's.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import replace
from random import Random
from typing import TYPE_CHECKING, TypeVar

from ...dsl.vocabulary import (
    ActorIs,
    AllOf,
    AnyOf,
    LastMoves,
    Modality,
    Near,
    Not,
    OccupiedBy,
    Owner,
    Piece,
    Region,
    Role,
    StandsHighest,
    Step,
    Verb,
    WorkerSelector,
)
from ...dsl.vocabulary.parts import Condition
from ..chain.actions import actions
from ..chain.walk import Walk
from ..model.board import ALL_BITS, nth_bit
from ..model.state import Action, Event, GameState, apply_events
from .conditions import PROLOGUE, Lowering, View
from .invariance import may_match_together
from .kernel import Fresh, Kernels, after_moves_built
from .masks import LEVELS_AFTER_A_BLOCK, board_bits
from .slides import Slid, slide_function
from .source import Source
from .tally import Tokens, build_events
from .writer import Drawn, Listed, board_win_near, holders_own, obligations_as_squares, pointwise

if TYPE_CHECKING:
    from ..chain.steps import WayParts
    from .steps import DerivedCompiler

T = TypeVar("T")

#: What the lowered masks of two workers' builds say: (first worker, second worker, A, A1, B, B1).
BuildMasks = tuple[int, int, int, int, int, int]
#: What the lowered masks of two workers' moves say: (first worker, second worker, A, behind_b,
#: the squares the first may win on, B, behind_a, the squares the second may win on; each with
#: the other's square free).
MoveMasks = tuple[int, int, int, bool, int, int, bool, int]


def _each_single(compiler: DerivedCompiler, step: Step) -> tuple[Step, list[WayParts]] | None:
    """`step` as one worker takes it, and its one way, where the parts are lowered here."""
    if (step.actor.role is not Role.EVERY or step.modality is not Modality.MUST or compiler.rules.memory
            or step.verb not in (Verb.MOVE, Verb.BUILD)):
        return None
    if (step.effects or step.guard is not None or step.cost or step.per_game or step.token is not None
            or step.target is not None or step.repeat.times != 1 or step.repeat.up_to):
        return None
    single = _single(step)
    ways = compiler.way_parts(single)
    if (len(ways) != 1 or ways[0].region is not Region.NEIGHBORING or ways[0].actor is not None or ways[0].forces
            or ways[0].once):
        return None
    return single, ways


def each_worker(compiler: DerivedCompiler, step: Step) -> Kernels | None:
    """The kernels of a program that is `step` alone, each of the seat's workers taking it (the
    module docstring); None when its parts are not all lowered so."""
    found = _each_single(compiler, step)
    if found is None:
        return None
    single, ways = found
    if step.verb is Verb.BUILD:
        return _each_builds(compiler, single, ways)
    if step.verb is Verb.MOVE:  # (a reaction to a move: lowered where it is another seat's slide)
        slide = slide_function(compiler) if compiler.reactions else None
        if compiler.reactions and slide is None:
            return None
        return _each_moves(compiler, single, ways, slide)
    return None


#: A board the moves of `each_builds_after_each_move` leave: the moves' steps and events, and the
#: two builders' squares there (None where the moves win: the turn ends with them).
MovedBoard = tuple[tuple[Action, ...], tuple[Event, ...], BuildMasks | None]


def each_builds_after_each_move(compiler: DerivedCompiler, move: Step, step: Step) -> Kernels | None:
    """The kernels of a program that is `move`, each of the seat's workers moving once, then
    `step`, each of them building once ('each of your workers moves. each of your workers
    builds.'): the moves' outcomes in the listing's order as `each_worker` finds them (each board
    once; a move that wins ends the turn), each that does not win followed by the builds counted
    on the board it leaves (the module docstring's count of two workers' builds). Builds move no
    worker, so the outcomes of two boards never meet: the turns are those of each board in turn.
    None when the parts are not all lowered so."""
    if move.verb is not Verb.MOVE or step.verb is not Verb.BUILD:
        return None
    moves = each_worker(compiler, move)
    builds = _each_single(compiler, step)
    lowered = _build_masks(compiler, *builds) if builds is not None else None
    if moves is None or lowered is None:
        return None
    team = compiler.judge.team

    def boards(walk: Walk) -> list[MovedBoard] | None:
        if moves.serves is not None and not moves.serves(walk):
            return None
        st = walk.state
        listed: Listed = {}
        found: list[MovedBoard] = []
        for turn in moves.turns(walk, listed):
            events, winner = listed[turn]
            if winner is not None:
                found.append((turn, events, None))
                continue
            moved = st.copy()
            apply_events(moved, events)
            walk.state = moved  # (the builds' squares, judged where the moves left the workers)
            try:
                squares = lowered(walk)
            finally:
                walk.state = st
            if squares is None:
                return None
            found.append((turn, events, squares))
        return found
    served = remembered(boards)

    def counts(found: list[MovedBoard]) -> list[int]:
        return [1 if squares is None else builds_counted(*squares[2:]) for _, _, squares in found]

    def count(walk: Walk) -> int:
        found = served(walk)
        return 0 if found is None else sum(counts(found))

    def built(st: GameState, turn: tuple[Action, ...], events: tuple[Event, ...],
              pair: tuple[int, int, int, int]) -> tuple[tuple[Action, ...], tuple[Event, ...]]:
        first, second, x, y = pair
        steps, more = two_builders(first, x, second, y, st.heights, st.tokens)
        return (*turn, *steps), (*events, *more)

    def draw(walk: Walk, rng: Random) -> Drawn:
        found = served(walk)
        assert found is not None
        each = counts(found)
        total = sum(each)
        if not total:
            return None
        index = rng.randrange(total)
        for (turn, events, squares), n in zip(found, each, strict=True):
            if index < n:
                if squares is None:
                    return turn, None  # (a win: the engine plays it step by step)
                return built(walk.state, turn, events, nth_pair_of_builds(index, *squares))
            index -= n
        raise AssertionError("an index beyond the boards' counts")

    def turns(walk: Walk, listed: Listed | None) -> list[tuple[Action, ...]]:
        found = served(walk)
        assert found is not None
        out: list[tuple[Action, ...]] = []
        for turn, events, squares in found:
            if squares is None:
                out.append(turn)
                if listed is not None:
                    listed[turn] = (events, team)
                continue
            out += listing((built(walk.state, turn, events, pair) for pair in pairs_of_builds(*squares)), listed)
        return out
    # (an obligation on the workers' last moves is the moves' to meet: the builds move no worker)
    met = moves.lowers_obligations and all(isinstance(bound.obligation.requirement, LastMoves)
                                           for bound in compiler.obligations)
    return Kernels(draw, count, turns, moves.can_win, met, None, lambda walk: served(walk) is not None)


def each_builds_after_a_move(compiler: DerivedCompiler, move: Step, step: Step) -> Kernels | None:
    """The kernels of a program that is `move`, one of the seat's workers moving, then `step`,
    each of its workers building once, in the order the player picks ('one of your workers
    moves, not up. each of your workers builds.'): per move, the two builders' squares as
    `_each_builds` finds them, with the mover where it went (the module docstring's count of
    two workers' builds); None when the parts are not all lowered so. A move that may win ends
    the turn before the builds: such a program is left to the chain."""
    if (step.actor.role is not Role.EVERY or step.modality is not Modality.MUST or step.verb is not Verb.BUILD
            or compiler.rules.memory or compiler.reactions or compiler.obligations):
        return None
    if (step.effects or step.guard is not None or step.cost or step.per_game or step.token is not None
            or step.target is not None or step.repeat.times != 1 or step.repeat.up_to):
        return None
    if (move.verb is not Verb.MOVE or move.actor.role is not Role.CHOSEN or move.actor.sex is not None
            or move.modality is not Modality.MUST or move.effects or move.guard is not None or move.cost
            or move.per_game or move.token is not None or move.target is not None or move.repeat.times != 1
            or move.repeat.up_to):
        return None
    single = _single(step)
    ways, moving = compiler.way_parts(single), compiler.way_parts(move)
    if len(ways) != 1 or len(moving) != 1:
        return None
    for way in (ways[0], moving[0]):
        if way.region is not Region.NEIGHBORING or way.actor is not None or way.forces or way.once:
            return None
    build_bans = [ban for ban in compiler.bans if ban.verb is Verb.BUILD]
    move_bans = [ban for ban in compiler.bans if ban.verb is Verb.MOVE]
    if ways[0].piece is not Piece.NEXT or not all(fixed_while_building(p) for p in (*ways[0].filters, *(
            part for ban in build_bans for part in ban.filters))):
        return None
    if not all(pointwise(p) for p in moving[0].filters) or not all(
            holders_own(p, (StandsHighest, ActorIs), ban.own) for ban in move_bans for p in ban.filters):
        return None
    wins = [win.pattern for win in compiler.rules.wins if win.pattern.verb is Verb.MOVE
            and win.pattern.owner is not Owner.OPPONENTS]
    if moving[0].can_win and any(may_match_together(moving[0].filters, pattern.filters) for pattern in wins):
        return None  # (a winning move ends the turn before the builds)
    masks = _moved_build_masks(compiler, single, ways, moving)
    near = board_win_near(compiler, 2, anywhere=True)  # (two builds may go on one square)
    if masks is None or near is None:
        return None

    def lowered(walk: Walk) -> MovedBuilds | None:
        return None if near(walk) or walk.state.tokens else masks(walk)
    served = remembered(lowered)

    def counts(found: MovedBuilds) -> list[int]:
        return [builds_counted(*squares) for _, _, *squares in found[2]]

    def count(walk: Walk) -> int:
        found = served(walk)
        return 0 if found is None else sum(counts(found))

    def draw(walk: Walk, rng: Random) -> Drawn:
        found = served(walk)
        assert found is not None
        each = counts(found)
        total = sum(each)
        if not total:
            return None
        index = rng.randrange(total)
        wa, wb, moves = found
        for (mover, target, *squares), n in zip(moves, each, strict=True):
            if index < n:
                return moved_then_built(walk.state, mover, target, *nth_pair_of_builds(index, wa, wb, *squares))
            index -= n
        raise AssertionError("an index beyond the moves' counts")

    def turns(walk: Walk, listed: Listed | None) -> list[tuple[Action, ...]]:
        found = served(walk)
        assert found is not None
        wa, wb, moves = found
        return listing((moved_then_built(walk.state, mover, target, *pair) for mover, target, *squares in moves
                        for pair in pairs_of_builds(wa, wb, *squares)), listed)
    return Kernels(draw, count, turns, lambda walk: False, False, None, lambda walk: served(walk) is not None,
                   frozenset({(2, 0, False)}))


#: What the generated masks of a move and then each worker's build say: (first worker, second
#: worker, [(mover, its target, A, A1, B, B1)] per move in the listing's order: the two
#: builders' squares with the mover on its target, as `BuildMasks`).
MovedBuilds = tuple[int, int, list[tuple[int, int, int, int, int, int]]]


def _moved_build_masks(compiler: DerivedCompiler, step: Step, ways: list[WayParts],
                       moving: list[WayParts]) -> Callable[[Walk], MovedBuilds | None] | None:
    """The generated function of `MovedBuilds`, or None when a part has no bit lowering."""
    from .steps import Fusion  # (here: steps.py imports this module)
    fusion = Fusion(step, ways, _never)
    source = Source()
    begin_masks(compiler, source)
    move_flags = compiler.bans_in_force(source, Verb.MOVE, 1)
    build_flags = compiler.bans_in_force(source, Verb.BUILD, 1, "bb")
    view = View("w", "o", "t", "hh", "th")
    targets = compiler.move_targets(source, Lowering(source, compiler.judge), moving, move_flags, view)
    if targets is None:
        return None
    source.line(1, "for i, mover in enumerate(ws):")
    source.line(2, "w = mover")
    source.line(2, "o = POS[w]")
    source.line(2, "hh = H[o]")
    source.hoisting_point(2)
    source.line(2, f"M = {targets[0]}")
    source.line(2, "while M:")
    source.line(3, "low = M & -M")
    source.line(3, "M ^= low")
    source.line(3, "m = low.bit_length() - 1")
    source.line(3, "BM = (BLOCKED ^ (1 << o)) | low")  # (the mover on its target)
    source.line(3, "row = [mover, m]")
    for index in (0, 1):
        source.line(3, f"w = ws[{index}]")
        source.line(3, f"t = m if i == {index} else POS[w]")
        for planes in (None, LEVELS_AFTER_A_BLOCK):
            whole = (compiler.fused_masks(source, fusion, build_flags, 3, "BM", count_only=True) if planes is None
                     else compiler.fused_masks(source, fusion, build_flags, 3, "BM", count_only=True, planes=planes))
            if not whole:
                return None
            source.line(3, "row.append(c)" if planes is None else "row.append(c & ~L3)")
    source.line(3, "out.append(tuple(row))")
    source.line(1, "return ws[0], ws[1], out")
    function: Callable[[Walk], MovedBuilds | None] = source.function("masks")
    return function


def moved_then_built(st: GameState, mover: int, target: int, first: int, second: int, x: int,
                     y: int) -> tuple[tuple[Action, ...], tuple[Event, ...]]:
    """The steps and events of `mover`'s move to `target`, then `first`'s build on `x` and
    `second`'s on `y` (`two_builders`)."""
    origin = st.worker_pos[mover]
    steps, events = two_builders(first, x, second, y, st.heights, st.tokens)
    return ((actions("move", mover)[target], *steps),
            (("move", mover, origin, target, st.heights[origin], st.heights[target]), *events))


def _single(step: Step) -> Step:
    """The step as one worker takes it (the generic chain's `_every` makes the same)."""
    return replace(step, actor=WorkerSelector(Role.THAT), modality=Modality.MUST)


def fixed_while_building(part: Condition) -> bool:
    """Whether a condition on a build reads only what a build of the turn leaves as it was but on
    the square it judges: that square, the builder's values, where workers stand."""
    if isinstance(part, Not):
        return fixed_while_building(part.part)
    if isinstance(part, (AnyOf, AllOf)):
        return all(fixed_while_building(p) for p in part.parts)
    return pointwise(part) or isinstance(part, (Near, OccupiedBy))


def begin_masks(compiler: DerivedCompiler, source: Source) -> None:
    """The head of a generated `masks(walk)`: the board's bits, and the seat's two workers on
    the board as `ws` (the function returns None for another number of them)."""
    source.line(0, "def masks(walk):")
    for line in PROLOGUE:
        source.lazy(1, line)
    board_bits(source, 1)
    source.line(1, f"ws = [w for w in st.members.get({source.constant(compiler.judge.team, 'TEAM')}, ()) "
                   "if POS[w] >= 0]")
    source.line(1, "if len(ws) != 2:")
    source.line(2, "return None")
    source.line(1, "out = []")
    source.constants.update(ALL=ALL_BITS, P_DOME=Piece.DOME, P_BLOCK=Piece.BLOCK)


def _build_masks(compiler: DerivedCompiler, step: Step,
                 ways: list[WayParts]) -> Callable[[Walk], BuildMasks | None] | None:
    """The generated function of the two builders' squares (`BuildMasks`) on the walk's board,
    None there where two builds may make a board win hold; None where a part has no bit
    lowering."""
    way = ways[0]
    bans = [ban for ban in compiler.bans if ban.verb is Verb.BUILD]
    if way.piece is not Piece.NEXT or not all(fixed_while_building(p) for p in way.filters) or not all(
            fixed_while_building(p) for ban in bans for p in ban.filters):
        return None
    from .steps import Fusion  # (here: steps.py imports this module)
    fusion = Fusion(step, ways, _never)
    source = Source()
    begin_masks(compiler, source)
    flags = compiler.bans_in_force(source, Verb.BUILD, 1, "bb")
    source.line(1, "for w in ws:")
    source.line(2, "t = POS[w]")
    source.line(2, "BO = BLOCKED")
    source.hoisting_point(2)
    for planes in (None, LEVELS_AFTER_A_BLOCK):
        whole = (compiler.fused_masks(source, fusion, flags, 2, "BO", hoist=True, count_only=True)
                 if planes is None else
                 compiler.fused_masks(source, fusion, flags, 2, "BO", hoist=True, count_only=True, planes=planes))
        if not whole:
            return None
        source.line(2, "out.append(c)" if planes is None else "out.append(c & ~L3)")
    source.line(1, "return (ws[0], ws[1], *out)")
    masks: Callable[[Walk], BuildMasks | None] = source.function("masks")
    near = board_win_near(compiler, 2, anywhere=True)  # (two builds may go on one square)
    if near is None:
        return None

    def lowered(walk: Walk) -> BuildMasks | None:
        return None if near(walk) else masks(walk)
    return lowered


def _each_builds(compiler: DerivedCompiler, step: Step, ways: list[WayParts]) -> Kernels | None:
    lowered = _build_masks(compiler, step, ways)
    if lowered is None:
        return None
    served = remembered(lowered)

    def count(walk: Walk) -> int:
        found = served(walk)
        return 0 if found is None else builds_counted(*found[2:])

    def draw(walk: Walk, rng: Random) -> Drawn:
        found = served(walk)
        assert found is not None
        total = builds_counted(*found[2:])
        if not total:
            return None
        first, second, x, y = nth_pair_of_builds(rng.randrange(total), *found)
        return two_builders(first, x, second, y, walk.state.heights, walk.state.tokens)

    def turns(walk: Walk, listed: Listed | None) -> list[tuple[Action, ...]]:
        found = served(walk)
        assert found is not None
        st = walk.state
        return listing((two_builders(first, x, second, y, st.heights, st.tokens)
                        for first, second, x, y in pairs_of_builds(*found)), listed)
    # (an obligation on the workers' last moves binds no worker that does not move: met)
    met = all(isinstance(bound.obligation.requirement, LastMoves) for bound in compiler.obligations)
    return Kernels(draw, count, turns, lambda walk: False, met, None, lambda walk: served(walk) is not None,
                   frozenset({(2, 0, False)}))


def listing(made: Iterable[tuple[tuple[Action, ...], tuple[Event, ...]]],
            listed: Listed | None) -> list[tuple[Action, ...]]:
    """The turns `made` (each with its events) as a kernel lists them, their events kept in
    `listed` where given (none of them wins: the kernels here leave such positions to the chain)."""
    out = []
    for turn, events in made:
        out.append(turn)
        if listed is not None:
            listed[turn] = (events, None)
    return out


def remembered(lowered: Callable[[Walk], T]) -> Callable[[Walk], T]:
    """`lowered`, whose answer for a walk is kept while its state is the same: the engine asks
    whether the kernels serve a position, then for its count, then for a draw, on one walk."""
    last: list[object] = [None, 0, None]

    def remembered(walk: Walk) -> T:
        if last[0] is walk and last[1] == walk.state.hash:
            return last[2]  # type: ignore[return-value]
        found = lowered(walk)
        last[:] = walk, walk.state.hash, found
        return found
    return remembered


def _never(walk: Walk) -> bool:  # pragma: no cover - a Fusion's closure the kernels never call
    raise AssertionError("the kernels of each worker's build call no chain")


def pairs_counted(first: int, second: int, same: int, home: int, unordered: bool) -> int:
    """The number of pairs the first worker's step then the second's make, in the first
    worker's order (`pairs_in_order`)."""
    met = first & second
    i = met.bit_count()
    return (first.bit_count() * (second.bit_count() + home.bit_count()) - i + (first & same).bit_count()
            - (i * (i - 1) >> 1 if unordered else 0))


def _seconds(low: int, first: int, second: int, same: int, home: int, unordered: bool) -> int:
    """The second worker's squares once the first took the square `low` (a bit): its own but
    that one, that one where it may follow (`same`), the first worker's square where it may
    take it once left (`home`); without those whose pair came first the other way round, where
    the two workers are alike (the same board, `unordered`)."""
    seconds = (second & ~low) | (same & low) | home
    if unordered and second & low:
        seconds &= ~(first & second & (low - 1))
    return seconds


def pairs_in_order(first: int, second: int, same: int, home: int, unordered: bool) -> list[tuple[int, int]]:
    """The pairs of squares the first worker's step then the second's take, each a new outcome,
    in the listing's order: the first's squares in square order, then the second's."""
    out = []
    squares = first
    while squares:
        low = squares & -squares
        squares ^= low
        x = low.bit_length() - 1
        seconds = _seconds(low, first, second, same, home, unordered)
        while seconds:
            bit = seconds & -seconds
            seconds ^= bit
            out.append((x, bit.bit_length() - 1))
    return out


def nth_pair(index: int, first: int, second: int, same: int, home: int, unordered: bool) -> tuple[int, int]:
    """`pairs_in_order(...)[index]`, found without listing the others."""
    squares = first
    while squares:
        low = squares & -squares
        squares ^= low
        seconds = _seconds(low, first, second, same, home, unordered)
        n = seconds.bit_count()
        if index < n:
            return low.bit_length() - 1, nth_bit(seconds, index)
        index -= n
    raise IndexError(index)  # pragma: no cover - the counts say the index is in these pairs


def builds_counted(a: int, a1: int, b: int, b1: int) -> int:
    """The number of outcomes of two workers' builds (the module docstring)."""
    return pairs_counted(a, b, b1, 0, True) + (b & a1 & ~(a & b1)).bit_count()


def pairs_of_builds(wa: int, wb: int, a: int, a1: int, b: int, b1: int) -> list[tuple[int, int, int, int]]:
    """The builds of two workers in the listing's order, as (first builder, second builder, the
    first's square, the second's)."""
    out = [(wa, wb, x, y) for x, y in pairs_in_order(a, b, b1, 0, True)]
    late = b & a1 & ~(a & b1)
    while late:
        bit = late & -late
        late ^= bit
        y = bit.bit_length() - 1
        out.append((wb, wa, y, y))
    return out


def nth_pair_of_builds(index: int, wa: int, wb: int, a: int, a1: int, b: int, b1: int) -> tuple[int, int, int, int]:
    """`pairs_of_builds(...)[index]`, found without listing the others."""
    n = pairs_counted(a, b, b1, 0, True)
    if index < n:
        return (wa, wb, *nth_pair(index, a, b, b1, 0, True))
    y = nth_bit(b & a1 & ~(a & b1), index - n)
    return wb, wa, y, y


def two_builders(first: int, x: int, second: int, y: int, heights: Sequence[int],
                 tokens: Tokens) -> tuple[tuple[Action, ...], tuple[Event, ...]]:
    """The steps and events of `first`'s build on `x`, then `second`'s on `y` (the next piece
    each time: on the same square, on the block just built)."""
    verb, built = build_events(first, x, heights[x] == 3, heights, tokens)
    steps: tuple[Action, ...] = (actions(verb, first)[x],)
    if y == x:
        level = heights[x] + 1
        return ((*steps, actions("build", second)[x]),
                (*built, ("build", second, x, level + (level < 3), level == 3)))
    verb, more = build_events(second, y, heights[y] == 3, heights, tokens)
    return (*steps, actions(verb, second)[y]), (*built, *more)


def _each_moves(compiler: DerivedCompiler, step: Step, ways: list[WayParts], slide: Slid | None) -> Kernels | None:
    bans = [ban for ban in compiler.bans if ban.verb is Verb.MOVE]
    # (a ban may read where the workers stood as the turn started, which no move changes: 'while
    # higher than all their other workers')
    if not all(pointwise(p) for p in ways[0].filters) or not all(
            holders_own(p, (StandsHighest, ActorIs), ban.own) for ban in bans for p in ban.filters):
        return None
    source = Source()
    begin_masks(compiler, source)
    view = View("w", "o", "t", "hh", "th")
    flags = compiler.bans_in_force(source, Verb.MOVE, 1)
    lowering = Lowering(source, compiler.judge)
    placed = compiler.move_targets(source, lowering, ways, flags, view)
    freed = compiler.move_targets(source, lowering, ways, flags, view, "BX")
    if placed is None or freed is None:
        return None
    win_bits = compiler.win_squares(source, view, ways[0].can_win)
    if win_bits is None:
        return None
    required = _required(compiler, source, view)
    source.line(1, "for i, w in enumerate(ws):")
    source.line(2, "o = POS[w]")
    source.line(2, "hh = H[o]")
    source.line(2, "other = POS[ws[1 - i]]")
    source.line(2, "BX = BLOCKED ^ (1 << other)")
    source.hoisting_point(2)
    source.line(2, f"M = {placed[0]}")
    source.line(2, f"MX = {freed[0]}")
    for flag, mask in required or ():  # (the squares other seats' obligations leave each worker)
        source.line(2, f"if {flag}:")
        source.line(3, f"M &= {mask}")
        source.line(3, f"MX &= {mask}")
    source.line(2, "out.append(M)")
    source.line(2, "out.append(bool(MX >> other & 1))")
    source.line(2, f"out.append((M | MX) & ({win_bits}))")
    source.line(1, "return (ws[0], ws[1], *out)")
    masks: Callable[[Walk], MoveMasks | None] = source.function("masks")

    served = remembered(masks)

    def fresh(walk: Walk, moves_built: Callable[[], list[tuple[int, int, int]]]) -> Fresh:
        found = served(walk)
        assert found is not None
        st = walk.state
        wa, wb, a, behind_b, win_a, b, behind_a, win_b = found
        alike = _alike(st, wa, wb)
        if slide is not None:  # (each move slid on: the moves listed, each board once)
            seen = {_board(wa, wb, st.worker_pos, worker, target, alike) for worker, target, built in moves_built()
                    if built < 0}
            slid = moves_with_slides(walk, slide, found, alike, seen)
            return (len(slid), lambda index: _slid_drawn(st, slid[index]),
                    lambda listed: listing_won((_slid_moves(st, move) for move in slid), listed,
                                               compiler.judge.team))
        if not win_a | win_b:  # (no move wins: the closed forms, and no board of a win met before)
            n = moves_counted(a, behind_b, b, behind_a, st.worker_pos, wa, wb, alike)
            return (n, lambda index: two_movers(*nth_pair_of_moves(index, wa, wb, a, behind_b, b, behind_a,
                                                                   st.worker_pos, alike), st),
                    lambda listed: listing((two_movers(*pair, st) for pair in pairs_of_moves(
                        wa, wb, a, behind_b, b, behind_a, st.worker_pos, alike)), listed))
        positions = st.worker_pos
        seen = {_board(wa, wb, positions, worker, target, alike) for worker, target, built in moves_built()
                if built < 0}  # (the boards of the earlier program's wins)
        moves = moves_with_wins(found, positions, alike, seen)
        team = compiler.judge.team
        return (len(moves), lambda index: _drawn(st, moves[index]),
                lambda listed: listing_won((_moved(st, move) for move in moves), listed, team))

    def count(walk: Walk) -> int:
        return fresh(walk, list)[0]

    def draw(walk: Walk, rng: Random) -> Drawn:
        n, nth, _ = fresh(walk, list)
        return nth(rng.randrange(n)) if n else None

    def turns(walk: Walk, listed: Listed | None) -> list[tuple[Action, ...]]:
        return fresh(walk, list)[2](listed)

    def can_win(walk: Walk) -> bool:
        found = served(walk)
        if found is None or not found[4] | found[7]:
            return False
        st = walk.state  # (a square a worker wins on once the other has left: if it can leave)
        if slide is not None:
            return any(move[-1] for move in moves_with_slides(walk, slide, found, _alike(st, found[0], found[1]),
                                                               set()))
        return any(move[4] for move in moves_with_wins(found, st.worker_pos, _alike(st, found[0], found[1]), set()))
    outcomes = frozenset({(0, 0, False), (0, 0, True)})

    def after(earlier: Kernels) -> Kernels | None:
        return after_moves_built(earlier, fresh, lambda walk: served(walk) is not None, required is not None,
                                 outcomes, can_win)
    return Kernels(draw, count, turns, can_win, required is not None, None, lambda walk: served(walk) is not None,
                   outcomes, after=after)


#: Where each worker's moves leave the two (the first worker's square, the second's: a set for
#: two workers alike) and whether the turn is won: an outcome's identity.
Board = tuple[int, int, bool]
#: One turn of each worker's move: (first mover, its target, second mover, its target, or -1
#: where the first move wins and ends the turn, whether the turn is won).
Moved = tuple[int, int, int, int, bool]


def _board(wa: int, wb: int, positions: Sequence[int], worker: int, target: int, alike: bool,
           won: bool = True) -> Board:
    """The board of `worker`'s move to `target`, the other worker where it stands."""
    first, second = (target, positions[wb]) if worker == wa else (positions[wa], target)
    return (min(first, second), max(first, second), won) if alike else (first, second, won)


def moves_with_wins(found: MoveMasks, positions: Sequence[int], alike: bool, seen: set[Board]) -> list[Moved]:
    """Each worker's move in the listing's order, where a move may win (`seen`: the boards met
    before, which it adds to): the first worker first, each of its targets in square order; a
    move that wins ends the turn there; else each target of the other worker's move, its own
    square taken and the first one's left (`behind`); then the second worker first."""
    wa, wb, a, behind_b, win_a, b, behind_a, win_b = found
    out: list[Moved] = []
    for first, second, targets, wins, behind, later, later_wins in (
            (wa, wb, a, win_a, behind_a, b, win_b), (wb, wa, b, win_b, behind_b, a, win_a)):
        home = positions[first]
        for x in squares_of(targets):
            if wins >> x & 1:
                board = _board(wa, wb, positions, first, x, alike)
                if board not in seen:
                    seen.add(board)
                    out.append((first, x, second, -1, True))
                continue
            onward = (later | (1 << home if behind else 0)) & ~(1 << x)
            for y in squares_of(onward):
                won = bool(later_wins >> y & 1)
                xa, xb = (x, y) if first == wa else (y, x)
                board = (min(xa, xb), max(xa, xb), won) if alike else (xa, xb, won)
                if board not in seen:
                    seen.add(board)
                    out.append((first, x, second, y, won))
    return out


#: One turn of each worker's move, each slid on: (first mover, its target, where it ends, second
#: mover, its target and where it ends, or -1 where the first move wins and ends the turn,
#: whether the turn is won).
SlidMoves = tuple[int, int, int, int, int, int, bool]


def moves_with_slides(walk: Walk, slide: Slid, found: MoveMasks, alike: bool, seen: set[Board]) -> list[SlidMoves]:
    """Each worker's move in the listing's order (as `moves_with_wins`), where another seat's
    slide takes each moved worker on (a move that wins does not slide): the second worker's
    targets are those with the first where it ended, its own square left, and its slide is told
    both (`seen`: the boards met before, which it adds to)."""
    wa, wb, a, behind_b, win_a, b, behind_a, win_b = found
    positions = walk.state.worker_pos
    out: list[SlidMoves] = []
    for first, second, targets, wins, behind, later, later_wins in (
            (wa, wb, a, win_a, behind_a, b, win_b), (wb, wa, b, win_b, behind_b, a, win_a)):
        home, other = positions[first], positions[second]
        for x in squares_of(targets):
            if wins >> x & 1:
                board = _board(wa, wb, positions, first, x, alike)
                if board not in seen:
                    seen.add(board)
                    out.append((first, x, x, second, -1, -1, True))
                continue
            ended = slide(walk, first, home, x, -1, -1, -1)
            onward = (later | (1 << home if behind else 0)) & ~(1 << ended)
            for y in squares_of(onward):
                won = bool(later_wins >> y & 1)
                last = y if won else slide(walk, second, other, y, home, ended, -1)
                xa, xb = (ended, last) if first == wa else (last, ended)
                board = (min(xa, xb), max(xa, xb), won) if alike else (xa, xb, won)
                if board not in seen:
                    seen.add(board)
                    out.append((first, x, ended, second, y, last, won))
    return out


def _slid_moves(st: GameState, move: SlidMoves) -> tuple[tuple[Action, ...], tuple[Event, ...], bool]:
    """The steps and events of one turn of `moves_with_slides` (each move, then the slide that
    took its worker on, where it did), and whether it wins."""
    first, x, ended, second, y, last, won = move
    heights, positions = st.heights, st.worker_pos
    o1, o2 = positions[first], positions[second]
    events: list[Event] = [("move", first, o1, x, heights[o1], heights[x])]
    if ended != x:
        events.append(("force", first, x, ended))
    if y < 0:
        return (actions("move", first)[x],), tuple(events), won
    events.append(("move", second, o2, y, heights[o2], heights[y]))
    if last != y:
        events.append(("force", second, y, last))
    return (actions("move", first)[x], actions("move", second)[y]), tuple(events), won


def _slid_drawn(st: GameState, move: SlidMoves) -> Drawn:
    """A drawn turn of `moves_with_slides` (events None where it wins: the engine plays it step
    by step)."""
    steps, events, won = _slid_moves(st, move)
    return steps, None if won else events


def _moved(st: GameState, move: Moved) -> tuple[tuple[Action, ...], tuple[Event, ...], bool]:
    """The steps and events of one turn of `moves_with_wins`, and whether it wins."""
    first, x, second, y, won = move
    if y < 0:
        origin = st.worker_pos[first]
        return (actions("move", first)[x],), (("move", first, origin, x, st.heights[origin], st.heights[x]),), True
    steps, events = two_movers(first, x, second, y, st)
    return steps, events, won


def _drawn(st: GameState, move: Moved) -> Drawn:
    """A drawn turn of `moves_with_wins` (events None where it wins: the engine plays it step by
    step)."""
    steps, events, won = _moved(st, move)
    return steps, None if won else events


def listing_won(made: Iterable[tuple[tuple[Action, ...], tuple[Event, ...], bool]], listed: Listed | None,
                team: int) -> list[tuple[Action, ...]]:
    """The turns `made` (each with its events and whether it wins) as a kernel lists them, their
    events and winner kept in `listed` where given."""
    out = []
    for turn, events, won in made:
        out.append(turn)
        if listed is not None:
            listed[turn] = (events, team if won else None)
    return out


def _required(compiler: DerivedCompiler, source: Source, view: View) -> list[tuple[str, str]] | None:
    """The obligations other seats lay on the turn as squares each worker's last move must end
    on (writer.py's `obligations_as_squares`), where each binds a worker's last move and reads
    only its start and end and the holder's workers, which no move of this turn changes: so each
    worker's move is bound alone, whichever moves first. None where one is not so (the engine
    then leaves a turn to the chain while it is in force)."""
    for bound in compiler.obligations:
        requirement = bound.obligation.requirement
        if not isinstance(requirement, LastMoves) or not all(
                holders_own(part) for part in (*requirement.started, *requirement.ended)):
            return None
    return obligations_as_squares(compiler, source, view)


def moves_counted(a: int, behind_b: bool, b: int, behind_a: bool, positions: Sequence[int], wa: int, wb: int,
                  unordered: bool) -> int:
    """The number of outcomes of two workers' moves (the module docstring): `behind_b` whether
    the first may take the second's square once it has left, `behind_a` the other way round;
    `unordered` where the two workers are alike (two moves that swap their targets leave one
    board)."""
    home = 1 << positions[wa] if behind_a else 0
    return pairs_counted(a, b, 0, home, unordered) + (b.bit_count() if behind_b else 0)


def pairs_of_moves(wa: int, wb: int, a: int, behind_b: bool, b: int, behind_a: bool,
                   positions: Sequence[int], unordered: bool) -> list[tuple[int, int, int, int]]:
    """The moves of two workers in the listing's order, as (first mover, its target, second
    mover, its target): the first worker first, then the second first where the first takes
    the second one's square after it."""
    home = 1 << positions[wa] if behind_a else 0
    out = [(wa, x, wb, y) for x, y in pairs_in_order(a, b, 0, home, unordered)]
    if behind_b:
        squares = b
        while squares:
            low = squares & -squares
            squares ^= low
            out.append((wb, low.bit_length() - 1, wa, positions[wb]))
    return out


def nth_pair_of_moves(index: int, wa: int, wb: int, a: int, behind_b: bool, b: int, behind_a: bool,
                      positions: Sequence[int], unordered: bool) -> tuple[int, int, int, int]:
    """`pairs_of_moves(...)[index]`, found without listing the others."""
    home = 1 << positions[wa] if behind_a else 0
    n = pairs_counted(a, b, 0, home, unordered)
    if index < n:
        x, y = nth_pair(index, a, b, 0, home, unordered)
        return wa, x, wb, y
    return wb, nth_bit(b, index - n), wa, positions[wb]


def two_movers(first: int, x: int, second: int, y: int,
               st: GameState) -> tuple[tuple[Action, ...], tuple[Event, ...]]:
    """The steps and events of `first`'s move to `x`, then `second`'s to `y`."""
    heights, positions = st.heights, st.worker_pos
    o1, o2 = positions[first], positions[second]
    return ((actions("move", first)[x], actions("move", second)[y]),
            (("move", first, o1, x, heights[o1], heights[x]), ("move", second, o2, y, heights[o2], heights[y])))


def _alike(st: GameState, wa: int, wb: int) -> bool:
    """Whether two workers are one to the board (the outcome's key: engine.py), so that two
    moves that swap their targets leave one board."""
    return st.worker_class[wa] == st.worker_class[wb]


def squares_of(bits: int) -> Iterator[int]:
    """The squares of `bits`, in square order."""
    while bits:
        low = bits & -bits
        bits ^= low
        yield low.bit_length() - 1

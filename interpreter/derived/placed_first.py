"""The kernels of a turn program that places a worker waiting on the card, then moves it, then
builds with it ('you place your extra worker on an unoccupied perimeter space, on the ground
level; that worker must move; that worker must build').

The generated code lowers the parts to squares as bits (`masks`): `P` where the worker may be
placed, per place p the squares `T(p)` its move from p reaches, and per target m the build's
squares `C(m)` after the move. Where it was placed leaves no trace (the worker has moved on, and
the place is free again, as it was), so a turn's board is its target and its build: the chain
meets each target m first from the first place whose `T(p)` holds it, and a later place adds
nothing for m. So the outcomes are, in order, for each place p, the targets of `T(p)` not met
before, each with every square of `C(m)`: Σ |C(m)| over the targets. Every filter and ban must
read only the square it judges and the acting worker's own values, so that `C(m)` is the same
from every place. The obligations other seats lay on the turn are lowered as the squares the
move must end on (writer.py's `required_squares`, judged from the place: the move's start).

Where another seat's slide takes the worker on after its move (slides.py), a turn's board is
where it ends and its build: the outcomes are, per place and target in order, the ends not met
before, each with every square of the build around it (`slid_targets`).

A position where the move may win is left to the chain (`serves`: the turn would end there),
and so is one where builds may make a board win hold. Outcomes come in the generic listing's
order, so a seeded draw is the listing's.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from random import Random
from typing import TYPE_CHECKING

from ...dsl.vocabulary import Modality, Owner, Piece, Region, Role, Step, Verb
from ...dsl.vocabulary.parts import Condition
from ..chain.actions import actions
from ..chain.walk import Walk
from ..model.board import ALL_BITS, nth_bit
from ..model.state import Action, Event, GameState
from .conditions import Lowering, View
from .each_worker import fixed_while_building, listing, remembered, squares_of
from .kernel import Kernels
from .masks import MaskLowering, board_function, loop_over_targets
from .slides import Slid, slide_function
from .tally import build_events
from .writer import Drawn, Listed, board_win_near, obligations_as_squares, pointwise

if TYPE_CHECKING:
    from ..chain.steps import WayParts
    from .steps import DerivedCompiler, Fusion

#: What the lowered masks say: (the worker placed, [(place, its targets not met before)],
#: {target: the build's squares}, the squares a move wins on). Where a move may win, or asked
#: for the wins only, the build's squares are left out ({}).
PlacedMasks = tuple[int, list[tuple[int, int]], dict[int, int], int]
#: (walk at the turn's start, whether only the winning squares are wanted) -> PlacedMasks
Masks = Callable[[Walk, bool], PlacedMasks | None]


def placed_first(compiler: DerivedCompiler, step: Step, move: Step, fusion: Fusion) -> Kernels | None:
    """The kernels of a program whose first step, `step`, places a worker from the card, which
    then takes `move` and the counted build of `fusion`; None when the parts are not all lowered
    so (the module docstring)."""
    move_ways = compiler.way_parts(move)
    destination = step.destination
    if (step.verb is not Verb.PLACE or step.actor.role is not Role.RESERVE or step.actor.owner is not Owner.YOURS
            or destination is None or destination.region is not Region.ANYWHERE or destination.ref is not None
            or destination.lowest or step.modality is Modality.IF_POSSIBLE
            or step.effects or step.cost or step.guard is not None or step.token is not None
            or step.per_game is not None or step.target is not None or step.repeat.times != 1
            or compiler.rules.memory or not fusion.beside_wins
            or len(move_ways) != 1 or len(fusion.ways) != 1):
        return None
    # (a reaction to the move: lowered where it is another seat's slide, with no obligation
    # beside it, which would read the move, not where it slid to)
    slide = slide_function(compiler) if compiler.reactions else None
    if compiler.reactions and (slide is None or compiler.obligations):
        return None
    moving, building = move_ways[0], fusion.ways[0]
    for way in (moving, building):
        if way.region is not Region.NEIGHBORING or way.actor is not None or way.forces or way.once:
            return None
    move_bans = [p for ban in compiler.bans if ban.verb is Verb.MOVE for p in ban.filters]
    build_bans = [p for ban in compiler.bans if ban.verb is Verb.BUILD for p in ban.filters]
    if (building.piece is not Piece.NEXT or not all(pointwise(p) for p in (*moving.filters, *building.filters,
                                                                           *move_bans))
            or not all(fixed_while_building(p) for p in build_bans)):
        return None
    written = _masks(compiler, (*destination.filters, *step.filters), move_ways, fusion, slide is None)
    if written is None:
        return None
    masks, lowers = written
    near = board_win_near(compiler, 1)
    if near is None:
        return None
    if slide is not None:
        builds = _builds(compiler, fusion)
        return None if builds is None else _slid_kernels(masks, near, slide, builds)

    def lowered(walk: Walk) -> PlacedMasks | None:
        if near(walk):
            return None
        found = masks(walk, False)
        return None if found is None or found[3] else found
    served = remembered(lowered)

    def count(walk: Walk) -> int:
        found = served(walk)
        return 0 if found is None else placed_count(found[2])

    def draw(walk: Walk, rng: Random) -> Drawn:
        found = served(walk)
        assert found is not None
        total = placed_count(found[2])
        if not total:
            return None
        return placed_turn(found[0], *nth_placed(rng.randrange(total), found[1], found[2]), walk.state)

    def turns(walk: Walk, listed: Listed | None) -> list[tuple[Action, ...]]:
        found = served(walk)
        assert found is not None
        return listing((placed_turn(found[0], *outcome, walk.state)
                        for outcome in placed_in_order(found[1], found[2])), listed)

    def can_win(walk: Walk) -> bool:
        found = masks(walk, True)
        return found is not None and bool(found[3])
    return Kernels(draw, count, turns, can_win, lowers, None, lambda walk: served(walk) is not None,
                   frozenset({(1, 1, False)}))


def _masks(compiler: DerivedCompiler, places: tuple[Condition, ...], move_ways: list[WayParts],
           fusion: Fusion, after: bool = True) -> tuple[Masks, bool] | None:
    """The generated function of the sets of the module docstring, and whether it lowers the
    obligations other seats lay on the turn; None when a part has no bit lowering. Without
    `after`, each place comes with all of its targets and the build's squares are left out (the
    caller finds them where the worker slid to)."""
    source = board_function("def masks(walk, wins_only=False):")
    team = source.constant(compiler.judge.team, "TEAM")
    source.line(1, f"waiting = [w for w in st.members.get({team}, ()) if w in st.reserve]")
    source.line(1, "if not waiting:")
    source.line(2, "return -1, [], {}, 0")  # (no worker waits: no turn)
    source.line(1, "w = waiting[0]")  # (the workers on a card are alike: the first one enters)
    lowering = Lowering(source, compiler.judge)
    placed = MaskLowering(lowering, None).all(places, View("w", "-1", "s", "0", "h"))
    view = View("w", "o", "t", "hh", "th")
    move_flags = compiler.bans_in_force(source, Verb.MOVE, 1)
    build_flags = compiler.bans_in_force(source, Verb.BUILD, 1, "bb")
    targets = compiler.move_targets(source, lowering, move_ways, move_flags, view)
    if placed is None or targets is None:
        return None
    win_bits = compiler.win_squares(source, view, move_ways[0].can_win)
    if win_bits is None:
        return None
    required = obligations_as_squares(compiler, source, view)
    lowers = required is not None
    source.constants.update(ALL=ALL_BITS, P_DOME=Piece.DOME, P_BLOCK=Piece.BLOCK)
    source.line(1, f"PLACES = ALL & ~(BLOCKED | DOMELIKE) & ({placed})")  # (a token does not occupy a space)
    source.line(1, "seen = WIN = 0")
    source.line(1, "firsts = []")
    body = loop_over_targets(source, 1, "PLACES", "PL", "o", "hh")
    source.line(body, "hh = H[o]")
    source.hoisting_point(body)
    source.line(body, f"T = {targets[0]}")
    for flag, mask in required or ():  # (the squares other seats' obligations leave the move)
        source.line(body, f"if {flag}:")
        source.line(body + 1, f"T &= {mask}")
    source.line(body, f"WIN |= T & ({win_bits})")
    source.line(body, "firsts.append((o, T & ~seen))" if after else "firsts.append((o, T))")
    source.line(body, "seen |= T")
    # (a move that may win leaves the position to the chain, and a search for a win reads no more)
    if not after:
        source.line(1, "return w, firsts, {}, WIN")
        function: Masks = source.function("masks")
        return function, lowers
    source.line(1, "if WIN or wins_only:")
    source.line(2, "return w, firsts, {}, WIN")
    source.line(1, "after = {}")
    inner = loop_over_targets(source, 1, "seen", "MT")
    if not compiler.fused_masks(source, fusion, build_flags, inner, "BLOCKED", count_only=True):
        return None
    source.line(inner, "after[t] = c")
    source.line(1, "return w, firsts, after, WIN")
    written: Masks = source.function("masks")
    return written, lowers


#: (walk, the worker, the square it stands on) -> the squares of its build, as bits.
Builds = Callable[[Walk, int, int], int]


def _builds(compiler: DerivedCompiler, fusion: Fusion) -> Builds | None:
    """The generated function of the build's squares around where the worker ended (after a
    slide), as `_masks` finds them per target; None where they are not bits."""
    source = board_function("def builds(walk, w, t):")
    build_flags = compiler.bans_in_force(source, Verb.BUILD, 1, "bb")
    source.constants.update(ALL=ALL_BITS, P_DOME=Piece.DOME, P_BLOCK=Piece.BLOCK)
    if not compiler.fused_masks(source, fusion, build_flags, 1, "BLOCKED", count_only=True):
        return None
    source.line(1, "return c")
    function: Builds = source.function("builds")
    return function


#: The placed worker's turns after a slide, per end not met before: (place, target, where the
#: worker ended, the build's squares there).
SlidTargets = list[tuple[int, int, int, int]]


def _slid_kernels(masks: Masks, near: Callable[[Walk], bool], slide: Slid, builds: Builds) -> Kernels:
    """The kernels of the placed worker's move and build, where another seat's slide takes it
    on after its move: a turn's board is where it ends and its build, which the chain meets
    first from the first place and target whose slide ends there (`slid_targets`)."""
    def lowered(walk: Walk) -> tuple[int, SlidTargets] | None:
        if near(walk):
            return None
        found = masks(walk, False)
        if found is None or found[3]:
            return None
        return found[0], slid_targets(walk, found, slide, builds)
    served = remembered(lowered)

    def count(walk: Walk) -> int:
        found = served(walk)
        return 0 if found is None else sum(squares.bit_count() for *_, squares in found[1])

    def draw(walk: Walk, rng: Random) -> Drawn:
        found = served(walk)
        assert found is not None
        worker, targets = found
        total = sum(squares.bit_count() for *_, squares in targets)
        if not total:
            return None
        index = rng.randrange(total)
        for place, m, end, squares in targets:
            n = squares.bit_count()
            if index < n:
                return placed_turn(worker, place, m, nth_bit(squares, index), walk.state, end)
            index -= n
        raise AssertionError("an index beyond the placed worker's count")

    def turns(walk: Walk, listed: Listed | None) -> list[tuple[Action, ...]]:
        found = served(walk)
        assert found is not None
        worker, targets = found
        return listing((placed_turn(worker, place, m, square, walk.state, end)
                        for place, m, end, squares in targets for square in squares_of(squares)), listed)

    def can_win(walk: Walk) -> bool:
        found = masks(walk, True)
        return found is not None and bool(found[3])
    return Kernels(draw, count, turns, can_win, False, None, lambda walk: served(walk) is not None,
                   frozenset({(1, 1, False)}))


def slid_targets(walk: Walk, found: PlacedMasks, slide: Slid, builds: Builds) -> SlidTargets:
    """Per place and target in the listing's order, where the slide takes the worker, each end
    once (the first way there: a later one meets the same boards), with the build's squares."""
    worker, firsts = found[0], found[1]
    out: SlidTargets = []
    ended = 0
    for place, targets in firsts:
        for m in squares_of(targets):
            end = slide(walk, worker, place, m, -1, -1, -1)
            if not ended >> end & 1:
                ended |= 1 << end
                out.append((place, m, end, builds(walk, worker, end)))
    return out


def placed_count(after: dict[int, int]) -> int:
    """The outcomes of the placed worker's turns: every target with every square of its build."""
    return sum(squares.bit_count() for squares in after.values())


def _targets(firsts: list[tuple[int, int]]) -> Iterator[tuple[int, int]]:
    """(place, target) for each target not met before, in the listing's order."""
    for place, new in firsts:
        for m in squares_of(new):
            yield place, m


def placed_in_order(firsts: list[tuple[int, int]], after: dict[int, int]) -> list[tuple[int, int, int]]:
    """The turns in the listing's order, as (place, target, build square)."""
    return [(place, m, s) for place, m in _targets(firsts) for s in squares_of(after[m])]


def nth_placed(index: int, firsts: list[tuple[int, int]], after: dict[int, int]) -> tuple[int, int, int]:
    """`placed_in_order(...)[index]`, found without listing the others."""
    for place, m in _targets(firsts):
        n = after[m].bit_count()
        if index < n:
            return place, m, nth_bit(after[m], index)
        index -= n
    raise IndexError(index)  # pragma: no cover - the counts say the index is in these turns


def placed_turn(worker: int, place: int, target: int, square: int, st: GameState,
                end: int = -1) -> tuple[tuple[Action, ...], tuple[Event, ...]]:
    """The steps and events of the worker placed on `place`, moved to `target` (slid on to
    `end` by another seat's slide, where given), built on `square`."""
    heights = st.heights
    verb, built = build_events(worker, square, heights[square] == 3, heights, st.tokens)
    moved: tuple[Event, ...] = (("move", worker, place, target, heights[place], heights[target]),)
    if end >= 0 and end != target:
        moved = (*moved, ("force", worker, target, end))
    return ((("place", worker, place), actions("move", worker)[target], actions(verb, worker)[square]),
            (("place", worker, place), *moved, *built))

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

A position where the move may win is left to the chain (`serves`: the turn would end there),
and so is one where builds may make a board win hold. Outcomes come in the generic listing's
order, so a seeded draw is the listing's.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from random import Random
from typing import TYPE_CHECKING

from ...dsl.vocabulary import Owner, Piece, Region, Role, Step, Verb
from ...dsl.vocabulary.parts import Condition
from ..engine.actions import actions
from ..engine.walk import Walk
from ..model.board import ALL_BITS, nth_bit
from ..model.state import Action, Event, GameState
from .conditions import PROLOGUE, Lowering, View
from .each_worker import fixed_while_building, listing, remembered, squares_of
from .kernel import Kernels
from .masks import MaskLowering, board_bits, loop_over_targets
from .source import Source
from .tally import build_events
from .writer import Drawn, Listed, board_win_near, obligations_as_squares, pointwise

if TYPE_CHECKING:
    from ..engine.steps import WayParts
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
            or step.effects or step.cost or step.guard is not None or step.token is not None
            or step.per_game is not None or step.target is not None or step.repeat.times != 1
            or compiler.rules.memory or compiler.reactions or not fusion.beside_wins
            or len(move_ways) != 1 or len(fusion.ways) != 1):
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
    written = _masks(compiler, (*destination.filters, *step.filters), move_ways, fusion)
    if written is None:
        return None
    masks, lowers = written
    near = board_win_near(compiler, 1)
    if near is None:
        return None

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
           fusion: Fusion) -> tuple[Masks, bool] | None:
    """The generated function of the sets of the module docstring, and whether it lowers the
    obligations other seats lay on the turn; None when a part has no bit lowering."""
    source = Source()
    source.line(0, "def masks(walk, wins_only=False):")
    for line in PROLOGUE:
        source.lazy(1, line)
    board_bits(source, 1)
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
    source.line(1, "TOK = sum(1 << q for q in st.tokens) if st.tokens else 0")
    source.line(1, f"PLACES = ALL & ~(BLOCKED | DOMELIKE | TOK) & ({placed})")
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
    source.line(body, "firsts.append((o, T & ~seen))")
    source.line(body, "seen |= T")
    # (a move that may win leaves the position to the chain, and a search for a win reads no more)
    source.line(1, "if WIN or wins_only:")
    source.line(2, "return w, firsts, {}, WIN")
    source.line(1, "after = {}")
    inner = loop_over_targets(source, 1, "seen", "MT")
    if not compiler.fused_masks(source, fusion, build_flags, inner, "BLOCKED", count_only=True):
        return None
    source.line(inner, "after[t] = c")
    source.line(1, "return w, firsts, after, WIN")
    function: Masks = source.function("masks")
    return function, lowers


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


def placed_turn(worker: int, place: int, target: int, square: int,
                st: GameState) -> tuple[tuple[Action, ...], tuple[Event, ...]]:
    """The steps and events of the worker placed on `place`, moved to `target`, built on `square`."""
    heights = st.heights
    verb, built = build_events(worker, square, heights[square] == 3, heights, st.tokens)
    return ((("place", worker, place), actions("move", worker)[target], actions(verb, worker)[square]),
            (("place", worker, place), ("move", worker, place, target, heights[place], heights[target]), *built))

"""The kernels of a turn program that builds with a worker, then moves it, then builds with it
again ('one of your workers builds; that worker moves, not up; that worker builds').

The generated code lowers the parts to squares as bits, per worker on `o` (`masks`): `PRE` the
first build's squares, `M0` the move's targets, `M1` those a block just built on the square
adds (judged one level higher), and per target m the second build's squares after the move,
`post0(m)`, and those a first block on the square adds, `post1(m)`. Every filter and ban must
read only the square it judges and the acting worker's own values (or where workers stand, for
builds), so that the first build on p changes the move's targets and the second build's squares
only on p. The functions here count from those sets, the same for every card:

* A first build on p, then a move to m: m in M0 other than p, or p itself where it is in M1
  (the worker climbs onto the block just built); then the second build on post0(m) without p,
  or on p where it is in post1(m).
* Two builds on two squares x and y around both o and m leave one board in either order: the
  listing meets it first with the lower square built first, and passes over the other. So a
  worker has, per target m in M0, n·|post0| − |P ∩ post0| + |P ∩ post1| − i(i − 1)/2 outcomes
  (P the first build's squares but m, n their number, i = |PRE ∩ post0|), and |post0(p)| more
  for each p in PRE ∩ M1.

* Where another seat's slide takes the moved worker on (slides.py), the second build is around
  where it ends, which the first build may change (a block on a square the slide passes makes
  the next space higher or not): the turns are then found per first build and move
  (`slid_groups`), a slide once per move and again where the first build is on its way, and two
  builds in either order leave one board where the worker ends on one square both ways.

The obligations other seats lay on the turn are lowered as the squares the move must end on
(writer.py's `required_squares`; a first build does not change them, but on the square it
builds, which a requirement that reads no level leaves alone).

A move that may win (by the seat's wins and the move's filters) is refused: the turn ends there,
before its second build, which these counts do not follow. A position where builds may make a
board win hold is left to the chain (`serves`). Outcomes come in the generic listing's order
(the workers, the first build, the move, the second build, each in square order), so a seeded
draw is the listing's.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from random import Random
from typing import TYPE_CHECKING

from ...dsl.vocabulary import ActorIs, Owner, Piece, Region, Role, StandsHighest, Step, Verb
from ..chain.actions import actions
from ..chain.walk import Walk
from ..model.board import ALL_BITS, BEYOND, nth_bit
from ..model.state import Action, Event, GameState
from .conditions import Lowering, View
from .each_worker import fixed_while_building, listing, remembered, squares_of
from .invariance import may_match_together
from .kernel import Kernels
from .masks import LEVELS_AFTER_A_BLOCK, board_function, loop_over_targets
from .slides import Slid, slide_function
from .source import Source
from .tally import build_events
from .writer import Drawn, Listed, board_win_near, holders_own, obligations_as_squares, pointwise

if TYPE_CHECKING:
    from ..chain.steps import WayParts
    from .steps import Ban, DerivedCompiler, Fusion

#: One worker's squares: (worker, its square, PRE, M0, M1, {target: (post0, post1)}).
WorkerMasks = tuple[int, int, int, int, int, dict[int, tuple[int, int]]]


def build_first(compiler: DerivedCompiler, step: Step, ways: list[WayParts], move: Step,
                fusion: Fusion) -> Kernels | None:
    """The kernels of a program whose first step, `step`, is a build by one of the seat's
    workers, followed by that worker's `move` and then its counted build (`fusion`); None when
    the parts are not all lowered so (the module docstring)."""
    move_ways = compiler.way_parts(move)
    if (step.actor.role is not Role.CHOSEN or step.actor.sex is not None or step.actor.owner is not Owner.YOURS
            or compiler.rules.memory or not fusion.beside_wins or len(ways) != 1
            or len(move_ways) != 1 or len(fusion.ways) != 1):
        return None
    # (a reaction to the move: lowered where it is another seat's slide, with no obligation
    # beside it, which would read the move, not where it slid to)
    slide = slide_function(compiler) if compiler.reactions else None
    if compiler.reactions and (slide is None or compiler.obligations):
        return None
    first, moving, second = ways[0], move_ways[0], fusion.ways[0]
    for way in (first, moving, second):
        if way.region is not Region.NEIGHBORING or way.actor is not None or way.forces or way.once:
            return None
    if first.piece is not Piece.NEXT or second.piece is not Piece.NEXT:
        return None
    build_bans = [ban for ban in compiler.bans if ban.verb is Verb.BUILD]
    move_bans = [ban for ban in compiler.bans if ban.verb is Verb.MOVE]
    if not all(fixed_while_building(part) for part in (*first.filters, *second.filters,
                                                       *(p for ban in build_bans for p in ban.filters))):
        return None
    # (a ban on moves may read where the workers stood as the turn started: 'while higher than ...')
    if not all(pointwise(part) for part in moving.filters) or not all(
            holders_own(part, (StandsHighest, ActorIs), ban.own) for ban in move_bans for part in ban.filters):
        return None
    wins = [win.pattern for win in compiler.rules.wins if win.pattern.verb is Verb.MOVE
            and win.pattern.owner is not Owner.OPPONENTS]
    if moving.can_win and any(may_match_together(moving.filters, pattern.filters) for pattern in wins):
        return None  # (a winning move ends the turn before the second build)
    written = _masks(compiler, step, ways, move_ways, fusion, slide is None)
    if written is None:
        return None
    masks, lowers = written
    near = board_win_near(compiler, 2, anywhere=True)  # (two builds may go on one square)
    if near is None:
        return None
    if slide is not None:
        posts = _posts(compiler, fusion)
        return None if posts is None else _slid_kernels(masks, near, slide, posts)

    def lowered(walk: Walk) -> list[WorkerMasks] | None:
        return None if near(walk) else masks(walk)
    served = remembered(lowered)

    def count(walk: Walk) -> int:
        found = served(walk)
        return 0 if found is None else sum(worker_count(*each[2:]) for each in found)

    def draw(walk: Walk, rng: Random) -> Drawn:
        found = served(walk)
        assert found is not None
        counts = [worker_count(*each[2:]) for each in found]
        total = sum(counts)
        if not total:
            return None
        index = rng.randrange(total)
        for each, n in zip(found, counts, strict=True):
            if index < n:
                return turn_of(each, nth_outcome(index, *each[2:]), walk.state)
            index -= n
        raise AssertionError("an index beyond the workers' counts")

    def turns(walk: Walk, listed: Listed | None) -> list[tuple[Action, ...]]:
        found = served(walk)
        assert found is not None
        return listing((turn_of(each, outcome, walk.state) for each in found
                        for outcome in outcomes_in_order(*each[2:])), listed)
    return Kernels(draw, count, turns, lambda walk: False, lowers, None, lambda walk: served(walk) is not None,
                   frozenset({(2, 0, False)}))


def _masks(compiler: DerivedCompiler, step: Step, ways: list[WayParts], move_ways: list[WayParts],
           fusion: Fusion, after: bool = True) -> tuple[Callable[[Walk], list[WorkerMasks]], bool] | None:
    """The generated function of the sets of the module docstring, per worker of the seat on the
    board (without `after`, the second build's squares are left empty: the caller finds them
    where the worker slid to), and whether it lowers the obligations other seats lay on the
    turn; None when a part has no bit lowering."""
    from .steps import Fusion  # (here: steps.py imports this module)
    source = board_function("def masks(walk):")
    build_flags = compiler.bans_in_force(source, Verb.BUILD, 1, "bb")
    move_flags = compiler.bans_in_force(source, Verb.MOVE, 1)
    view = View("w", "o", "t", "hh", "th")
    lowering = Lowering(source, compiler.judge)
    targets = compiler.move_targets(source, lowering, move_ways, move_flags, view)
    raised = compiler.move_targets(source, lowering, move_ways, move_flags, view, planes=LEVELS_AFTER_A_BLOCK)
    if targets is None or raised is None:
        return None
    # (an obligation that reads a level: a first build on the target changes it)
    required = obligations_as_squares(compiler, source, view, levels=False)
    lowers = required is not None
    first = Fusion(step, ways, fusion.take)
    source.constants.update(ALL=ALL_BITS, P_DOME=Piece.DOME, P_BLOCK=Piece.BLOCK)
    source.line(1, "out = []")
    source.line(1, f"for w in st.members.get({source.constant(compiler.judge.team, 'TEAM')}, ()):")
    source.line(2, "o = POS[w]")
    source.line(2, "if o < 0:")
    source.line(3, "continue")
    source.line(2, "hh = H[o]")
    source.hoisting_point(2)
    source.line(2, "t = o")  # (the first build's builder stands on its own square)
    if not compiler.fused_masks(source, first, build_flags, 2, "BLOCKED", count_only=True):
        return None
    source.line(2, "PRE = c")
    source.line(2, f"M0 = {targets[0]}")
    source.line(2, f"M1 = {raised[0]} & ~L3")
    for flag, mask in required or ():  # (the squares other seats' obligations leave the move)
        source.line(2, f"if {flag}:")
        source.line(3, f"M0 &= {mask}")
        source.line(3, f"M1 &= {mask}")
    source.line(2, "BO = BLOCKED ^ (1 << o)")
    source.line(2, "after = {}")
    if after:
        body = loop_over_targets(source, 2, "M0 | (PRE & M1)")
        if not _second_builds(compiler, source, fusion, build_flags, body):
            return None
        source.line(body, "after[t] = (post0, post1)")
    source.line(2, "out.append((w, o, PRE, M0, M1, after))")
    source.line(1, "return out")
    function: Callable[[Walk], list[WorkerMasks]] = source.function("masks")
    return function, lowers


def _second_builds(compiler: DerivedCompiler, source: Source, fusion: Fusion, build_flags: list[tuple[str, Ban]],
                   depth: int) -> bool:
    """Emit the second build's squares with the worker on `t` (`post0`), and those a first block
    on the square adds (`post1`); False where they are not bits."""
    for planes in (None, LEVELS_AFTER_A_BLOCK):
        whole = (compiler.fused_masks(source, fusion, build_flags, depth, "BO", count_only=True) if planes is None
                 else compiler.fused_masks(source, fusion, build_flags, depth, "BO", count_only=True, planes=planes))
        if not whole:
            return False
        source.line(depth, "post0 = c" if planes is None else "post1 = c & ~L3")
    return True


#: (walk, the worker, the square it moved from, the square it stands on) -> (post0, post1).
Posts = Callable[[Walk, int, int, int], tuple[int, int]]


def _posts(compiler: DerivedCompiler, fusion: Fusion) -> Posts | None:
    """The generated function of the second build's squares where the worker ended (after a
    slide), as `_masks` finds them per target; None where they are not bits."""
    source = board_function("def posts(walk, w, o, t):")
    build_flags = compiler.bans_in_force(source, Verb.BUILD, 1, "bb")
    source.constants.update(ALL=ALL_BITS, P_DOME=Piece.DOME, P_BLOCK=Piece.BLOCK)
    source.line(1, "hh = H[o]")
    source.hoisting_point(1)
    source.line(1, "BO = BLOCKED ^ (1 << o)")
    if not _second_builds(compiler, source, fusion, build_flags, 1):
        return None
    source.line(1, "return post0, post1")
    function: Posts = source.function("posts")
    return function


#: One group of a worker's turns after a slide: (first build, move, where the worker ended, the
#: second build's squares, each a new outcome).
SlidGroup = tuple[int, int, int, int]


def _slid_kernels(masks: Callable[[Walk], list[WorkerMasks]], near: Callable[[Walk], bool], slide: Slid,
                  posts: Posts) -> Kernels:
    """The kernels of a build, a move and a build, where another seat's slide takes the moved
    worker on: per worker, first build and move, where it ends (the first build may stop or
    carry the slide on the squares it passes) and the second build's squares there, each board
    once (`slid_groups`)."""
    def lowered(walk: Walk) -> list[tuple[WorkerMasks, list[SlidGroup]]] | None:
        if near(walk):
            return None
        return [(each, slid_groups(walk, each, slide, posts)) for each in masks(walk)]
    served = remembered(lowered)

    def count(walk: Walk) -> int:
        found = served(walk)
        return 0 if found is None else sum(seconds.bit_count() for _, groups in found for *_, seconds in groups)

    def draw(walk: Walk, rng: Random) -> Drawn:
        found = served(walk)
        assert found is not None
        total = sum(seconds.bit_count() for _, groups in found for *_, seconds in groups)
        if not total:
            return None
        index = rng.randrange(total)
        for each, groups in found:
            for p, m, e, seconds in groups:
                n = seconds.bit_count()
                if index < n:
                    return slid_turn(each, p, m, e, nth_bit(seconds, index), walk.state)
                index -= n
        raise AssertionError("an index beyond the workers' counts")

    def turns(walk: Walk, listed: Listed | None) -> list[tuple[Action, ...]]:
        found = served(walk)
        assert found is not None
        return listing((slid_turn(each, p, m, e, c, walk.state) for each, groups in found
                        for p, m, e, seconds in groups for c in squares_of(seconds)), listed)
    return Kernels(draw, count, turns, lambda walk: False, False, None, lambda walk: served(walk) is not None,
                   frozenset({(2, 0, False)}))


def slid_groups(walk: Walk, each: WorkerMasks, slide: Slid, posts: Posts) -> list[SlidGroup]:
    """One worker's turns in the listing's order (first build, move, second build), each slid on
    after its move: a group per first build and move, with the squares of the second build that
    make a board not met before. Two builds on x and y leave one board in either order where the
    worker ends on one square both ways: the listing meets it with the lower square built first.
    A slide is found once per move, and again where the first build is on the squares it passes
    (a block there changes which space ahead is higher)."""
    w, o, pre, m0, m1, _ = each
    ends: dict[int, tuple[int, int]] = {}  # (move -> where it slides to, the squares it passes)
    second: dict[int, tuple[int, int]] = {}  # (where the worker ends -> post0, post1)

    def end(m: int, p: int) -> int:
        if m not in ends:
            e = slide(walk, w, o, m, -1, -1, -1)
            ends[m] = e, _passed(o, m, e)
        e, passed = ends[m]
        return slide(walk, w, o, m, -1, -1, p) if passed >> p & 1 else e

    out: list[SlidGroup] = []
    for p in squares_of(pre):
        low = 1 << p
        for m in squares_of(_moves(p, m0, m1)):
            e = end(m, p)
            if e not in second:
                second[e] = posts(walk, w, o, e)
            post0, post1 = second[e]
            seconds = (post0 & ~low) | (post1 & low)
            if post0 & low:  # (a pair built the other way round before, where the worker ended alike)
                for c in squares_of(seconds & pre & (low - 1)):
                    if _moves(c, m0, m1) >> m & 1 and end(m, c) == e:
                        seconds &= ~(1 << c)
            out.append((p, m, e, seconds))
    return out


def _passed(origin: int, target: int, end: int) -> int:
    """The squares a worker moving from `origin` to `target` passes on its slide to `end`, both
    ends included, as bits."""
    passed, before, here = 1 << target, origin, target
    while here != end:
        before, here = here, BEYOND[before][here]
        passed |= 1 << here
    return passed


def slid_turn(each: WorkerMasks, p: int, m: int, e: int, c: int,
              st: GameState) -> tuple[tuple[Action, ...], tuple[Event, ...]]:
    """The steps and events of a worker's first build on `p`, move to `m`, slide on to `e` and
    second build on `c`."""
    return turn_of(each, (p, m, c), st, e)


def worker_count(pre: int, m0: int, m1: int, after: dict[int, tuple[int, int]]) -> int:
    """The outcomes of one worker's turns (the module docstring's sum)."""
    total = 0
    for m, (post0, post1) in after.items():
        bit = 1 << m
        if m0 & bit:
            others = pre & ~bit
            i = (pre & post0).bit_count()
            total += (others.bit_count() * post0.bit_count() - (others & post0).bit_count()
                      + (others & post1).bit_count() - (i * (i - 1) >> 1))
        if pre & m1 & bit:
            total += post0.bit_count()
    return total


def _seconds(p: int, m: int, pre: int, after: dict[int, tuple[int, int]]) -> int:
    """The second build's squares after a first on `p` and a move to `m`, each a new outcome."""
    post0, post1 = after[m]
    low = 1 << p
    seconds = (post0 & ~low) | (post1 & low)
    if post0 & low:  # (a pair built the other way round before: its first square lower)
        seconds &= ~(pre & post0 & (low - 1))
    return seconds


def _moves(p: int, m0: int, m1: int) -> int:
    """The move's targets after a first build on `p`."""
    low = 1 << p
    return (m0 & ~low) | (m1 & low)


def _groups(pre: int, m0: int, m1: int, after: dict[int, tuple[int, int]]) -> Iterator[tuple[int, int, int]]:
    """One worker's (first build, move, second builds as bits), in the listing's order."""
    for p in squares_of(pre):
        for m in squares_of(_moves(p, m0, m1)):
            yield p, m, _seconds(p, m, pre, after)


def outcomes_in_order(pre: int, m0: int, m1: int, after: dict[int, tuple[int, int]]) -> list[tuple[int, int, int]]:
    """One worker's turns in the listing's order, as (first build, move, second build)."""
    return [(p, m, c) for p, m, seconds in _groups(pre, m0, m1, after) for c in squares_of(seconds)]


def nth_outcome(index: int, pre: int, m0: int, m1: int, after: dict[int, tuple[int, int]]) -> tuple[int, int, int]:
    """`outcomes_in_order(...)[index]`, found without listing the others."""
    for p, m, seconds in _groups(pre, m0, m1, after):
        n = seconds.bit_count()
        if index < n:
            return p, m, nth_bit(seconds, index)
        index -= n
    raise IndexError(index)  # pragma: no cover - the counts say the index is in these outcomes


def turn_of(each: WorkerMasks, outcome: tuple[int, int, int], st: GameState,
            end: int = -1) -> tuple[tuple[Action, ...], tuple[Event, ...]]:
    """The steps and events of a worker's first build, move and second build (with `end`, the
    square another seat's slide took the worker on to after its move)."""
    worker, origin = each[0], each[1]
    p, m, c = outcome
    heights: Sequence[int] = st.heights
    verb, built = build_events(worker, p, heights[p] == 3, heights, st.tokens)
    there = heights[m] + (m == p)
    moved: tuple[Event, ...] = (("move", worker, origin, m, heights[origin], there),)
    if end >= 0 and end != m:
        moved = (*moved, ("force", worker, m, end))
    if c == p:
        level = heights[p] + 1
        again: tuple[Event, ...] = (("build", worker, p, level + (level < 3), level == 3),)
        last = "build"
    else:
        last, again = build_events(worker, c, heights[c] == 3, heights, st.tokens)
    return ((actions(verb, worker)[p], actions("move", worker)[m], actions(last, worker)[c]),
            (*built, *moved, *again))

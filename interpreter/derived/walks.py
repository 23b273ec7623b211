"""The kernels of moves repeated any number of times by workers chosen anew, each on its own
level, then a build by one of the seat's workers: a move step of `Role.EACH` with no bound on its
repetitions, whose filters keep the mover's level, then a build of `Role.CHOSEN`.

The chain searches such a turn breadth first (chain/steps.py's `breadth_first`): a state once
per (board, last worker to move), those fewer moves away first; at each it lists the builds,
then each worker's moves in the team's order, squares in order, each reaching a state. Nothing
is built before the build, so an outcome is where the two workers stand (a set, for two workers
of one class: the board's key) and one build next to either.

**The parts as squares.** Per worker, the squares its moves may reach anywhere on the board
(`T`, its own and the other worker's squares taken as free): the step's filters and the other
seats' bans must read only the square and the mover's level, and must keep the worker on its
level (T holds only squares of that level, and its own square: so every move can be made back).
Each worker then walks in its *component* of T (a flood fill on bits). The build's squares (`BB`)
must read only the square, and the other seats' bans on builds only the square and the holders'
own workers: no move of the turn changes either.

**The count.** Two workers of one class in one component reach every set of two of its squares
(unlabelled pebbles on a connected graph can always be rearranged); in two components, every
pair of a square of each. So for each square s of BB the outcomes are the configurations not on
s with a worker next to s: C(k, 2) - C(k - m, 2) for the k squares of the component off s, m of
them next to s (k1 k2 - (k1 - m1)(k2 - m2) for two components).

**Beside an earlier program.** A turn program listed before this one (the usual turn) may leave
the same boards: a worker one step from its start on its level, the other on its start, and a
build next to the one that moved. The earlier program's kernels say per move which squares its
build takes (`Kernels.moves_built`); those outcomes are taken off the count, and off the
configuration they belong to when the draw and the listing walk the chain's order
(`Kernels.after`).

The draw goes through the chain's order only as far as its index: the states in the order they
are reached, each worker's moves to states not reached yet read from a mask per square the other
worker stands on, counting the new builds of each configuration the first time it is listed. A
turn's steps are the way the search reached the state where its build is found: a shortest one.

**Obligations on the last moves.** Another seat's obligation that binds each worker's last move
by where it started and ended ('if an opponent worker starts its turn neighboring your workers,
its last move must be to a space neighboring your workers') leaves each worker the squares it
may end on (its own among them, else the position is the chain's). Where both may end on the
same squares, the count keeps the configurations within them (the walks may pass through the
others). Where the obligation binds one worker only, the two are told apart: the chain keeps a
board at the first state of its search where each stands where it may, which the search here
follows too, and the count is the search's own.

Positions left to the chain (`serves`): more or fewer than two workers, workers of two classes,
a filter or ban that lets a worker leave its level or not come back, a move that may win, a
build that may make a board win hold, a bound worker that may not end on its own square.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from random import Random
from typing import TYPE_CHECKING

from ...dsl.vocabulary import (
    ActorIs,
    LastMoves,
    Modality,
    Owner,
    Piece,
    Region,
    Role,
    StandsHighest,
    Step,
    Verb,
    nested,
)
from ..chain.actions import actions
from ..chain.walk import Walk
from ..model.board import ALL_BITS, AROUND_BITS, SQUARE_BITS, grown, nth_bit
from ..model.state import Action, Event, GameState
from .conditions import Lowering, View
from .each_worker import begin_masks, listing, remembered
from .kernel import Fresh, Kernels, after_moves_built
from .masks import MaskLowering
from .source import Source
from .tally import build_events
from .writer import Drawn, Listed, board_win_near, holders_own, pointwise, reads_the_line

if TYPE_CHECKING:
    from ..chain.steps import WayParts
    from .steps import Bound, DerivedCompiler

#: What the generated masks say of a position: (first worker, second worker, T1, the squares the
#: first may win on, the squares its last move may end on by other seats' obligations, the same
#: three of the second, BB).
Masks = tuple[int, int, int, int, int, int, int, int, int]

#: A position the kernels serve: (first worker, its start, its component, T1, second worker, its
#: start, its component, T2, BB, whether the two share a component, the squares the first may
#: end on, the squares the second may).
Walked = tuple[int, int, int, int, int, int, int, int, int, bool, int, int]

#: An index past every turn's: a draw from it runs the whole search and says how many it passed.
_PAST = 1 << 62

#: The outcomes an earlier program leaves at a configuration (the two squares as bits): the build
#: squares to leave out there.
Excluded = dict[int, int]


def walks(compiler: DerivedCompiler, step: Step, build: Step, build_ways: list[WayParts]) -> Kernels | None:
    """The kernels of a program that is `step`, a move any number of times by workers chosen
    anew, then `build` by one of the seat's workers (the module docstring); None where the parts
    are not all lowered so."""
    if (step.verb is not Verb.MOVE or step.actor.role is not Role.EACH or step.repeat.times is not None
            or step.effects or step.guard is not None or step.cost or step.per_game or step.token is not None
            or step.target is not None or compiler.reactions or compiler.rules.memory):
        return None
    if (build.actor.role is not Role.CHOSEN or build.actor.sex is not None or build.modality is not Modality.MUST
            or build.effects or build.guard is not None or build.cost or build.per_game or build.token is not None
            or build.target is not None or build.repeat.times != 1 or build.repeat.up_to):
        return None
    ways = compiler.way_parts(step)
    if (len(ways) != 1 or ways[0].region is not Region.NEIGHBORING or ways[0].actor is not None or ways[0].forces
            or ways[0].once or step.actor.sex is not None or not all(pointwise(p) for p in ways[0].filters)):
        return None
    if (len(build_ways) != 1 or build_ways[0].region is not Region.NEIGHBORING or build_ways[0].actor is not None
            or build_ways[0].forces or build_ways[0].once or build_ways[0].piece is not Piece.NEXT
            or not all(pointwise(p) for p in build_ways[0].filters)):
        return None
    # (a ban may read the levels the workers stand on, which walks keep: 'while higher than ...';
    # not the line from the square a move leaves, which each move of a walk changes)
    if not all(holders_own(part, (StandsHighest, ActorIs) if ban.verb is Verb.MOVE else (StandsHighest,), ban.own)
               and not reads_the_line(part) for ban in compiler.bans for part in ban.filters):
        return None
    if any(reads_the_line(part) for part in (*ways[0].filters, *build_ways[0].filters)):
        return None
    # (the build's squares are made once, for either worker: no part may tell the builders apart)
    if any(isinstance(inner, ActorIs) for part in (*build_ways[0].filters, *(
            p for ban in compiler.bans if ban.verb is Verb.BUILD for p in ban.filters)) for inner in nested(part)):
        return None
    near = board_win_near(compiler, 1)
    lowers_obligations = all(_lowered_obligation(bound) for bound in compiler.obligations)
    masks = _masks(compiler, ways, build_ways[0], lowers_obligations)
    if near is None or masks is None:
        return None
    squares = masks

    def lowered(walk: Walk) -> Walked | None:
        if near(walk):
            return None
        found = squares(walk)
        return None if found is None else _walked(walk.state, found)
    served = remembered(lowered)

    def count(walk: Walk) -> int:
        at = served(walk)
        return 0 if at is None else counted(at)

    def draw(walk: Walk, rng: Random) -> Drawn:
        at = served(walk)
        assert at is not None
        total = counted(at)
        return walk_turn(walk.state, at, {}, rng.randrange(total)) if total else None

    def turns(walk: Walk, listed: Listed | None) -> list[tuple[Action, ...]]:
        at = served(walk)
        assert at is not None
        return listing(every_walk(walk.state, at, {}), listed)

    def after(earlier: Kernels) -> Kernels | None:
        return after_moves_built(earlier, _fresh(served), lambda walk: served(walk) is not None,
                                 lowers_obligations, frozenset({(1, 0, False)}), lambda walk: False)

    return Kernels(draw, count, turns, lambda walk: False, lowers_obligations, None,
                   lambda walk: served(walk) is not None, frozenset({(1, 0, False)}), after=after)


def _fresh(served: Callable[[Walk], Walked | None]
           ) -> Callable[[Walk, Callable[[], list[tuple[int, int, int]]]], Fresh]:
    """The walks' outcomes that the earlier program's moves, and the squares each builds on,
    did not leave (kernel.py's `after_moves_built`)."""
    def fresh(walk: Walk, moves_built: Callable[[], list[tuple[int, int, int]]]) -> Fresh:
        at = served(walk)
        assert at is not None
        st = walk.state
        out: Excluded = {}
        overlap = 0
        w1, s1, _, t1, w2, s2, _, t2, bb, _, ends1, ends2 = at
        for worker, target, built in moves_built():
            if built < 0:
                continue  # (a winning move: no walk wins)
            if worker == w1 and t1 >> target & 1 and ends1 >> target & 1:
                other = s2
            elif worker == w2 and t2 >> target & 1 and ends2 >> target & 1:
                other = s1
            else:
                continue  # (a move off the level, or where the walks may not end: no walk ends there)
            # (one key per move: a worker one step from its start, the other on its own)
            key = 1 << target | 1 << other
            out[key] = built
            overlap += (built & (AROUND_BITS[target] | AROUND_BITS[other]) & bb & ~key).bit_count()
        n = searched(at, out) if ends1 != ends2 else counted(at) - overlap
        return (n, lambda index: walk_turn(st, at, out, index),
                lambda listed: listing(every_walk(st, at, out), listed))
    return fresh


def _lowered_obligation(bound: Bound) -> bool:
    """Whether another seat's obligation binds each worker's last move, by where it started and
    ended (`LastMoves`), reading only those squares, their levels and the holder's own workers,
    never 'if possible': the walks then keep the configurations where each bound worker ends
    where it may."""
    requirement = bound.obligation.requirement
    return (isinstance(requirement, LastMoves) and requirement.owner is not Owner.YOURS
            and not bound.obligation.if_possible
            and all(holders_own(part) for part in (*requirement.started, *requirement.ended)))


def _masks(compiler: DerivedCompiler, ways: list[WayParts], build: WayParts,
           lowers_obligations: bool) -> Callable[[Walk], Masks | None] | None:
    """The generated function of a position's squares as bits (`Masks`), or None where a part
    has no bit lowering. With `lowers_obligations`, each worker's last move is bound to the
    squares other seats' obligations leave it (else every square: the engine leaves a turn to
    the chain while one is in force)."""
    source = Source()
    begin_masks(compiler, source)
    source.line(1, "OWN = (1 << POS[ws[0]]) | (1 << POS[ws[1]])")
    source.line(1, "BX = BLOCKED & ~OWN")
    move_bans = compiler.bans_in_force(source, Verb.MOVE, 1)
    build_bans = compiler.bans_in_force(source, Verb.BUILD, 1, "bb")
    view = View("w", "o", "t", "hh", "th")
    obligations = compiler.obligations if lowers_obligations else ()
    for index, bound in enumerate(obligations):
        source.line(1, f"ob{index} = {source.constant(bound.seat, 'SEAT')} not in st.out")
    source.line(1, "for w in ws:")
    source.line(2, "o = POS[w]")
    source.line(2, "hh = H[o]")
    source.hoisting_point(2)
    targets = compiler.move_targets(source, Lowering(source, compiler.judge), ways, move_bans, view, "BX",
                                    region="ALL")
    wins = compiler.win_squares(source, view, ways[0].can_win)
    if targets is None or wins is None:
        return None
    source.line(2, f"out.append({targets[0]})")
    source.line(2, f"out.append({wins})")
    source.line(2, "E = ALL")
    start = View("w", "o", "o", "hh", "hh")  # (its start as the target)
    for index, bound in enumerate(obligations):
        requirement = bound.obligation.requirement
        assert isinstance(requirement, LastMoves)  # (_lowered_obligation)
        started = MaskLowering(Lowering(source, bound.judge), None, "BX").all(requirement.started, start)
        ended = MaskLowering(Lowering(source, bound.judge), None, "BX", verb=Verb.MOVE).all(requirement.ended, view)
        if started is None or ended is None:
            return None
        source.line(2, f"if ob{index} and ({started}) >> o & 1:")
        source.line(3, f"E &= {ended}")
    source.line(2, "out.append(E)")
    # the build's squares: its filters and the bans read neither the builder nor where it stands
    source.line(1, "w = ws[0]")
    source.line(1, "t = POS[w]")
    source.hoisting_point(1)
    build_view = View("w", "t", "s", "h", "h", "pc")
    terms = ["OPEN", "~(BLOCKED & ~DOMES & ~OWN)"]
    mask = MaskLowering(Lowering(source, compiler.judge), Piece.NEXT, "BX").all(build.filters, build_view)
    if mask is None:
        return None
    if mask != "ALL":
        terms.append(f"({mask})")
    for flag, ban in build_bans:
        banned = MaskLowering(Lowering(source, ban.judge), Piece.NEXT, "BX").all(ban.filters, build_view)
        if banned is None:
            return None
        terms.append(f"(~({banned}) if {flag} else ALL)")
    source.line(1, f"return (ws[0], ws[1], *out, {' & '.join(terms)})")
    function: Callable[[Walk], Masks | None] = source.function("masks")
    return function


def _walked(st: GameState, masks: Masks) -> Walked | None:
    """The position as the kernels serve it (`Walked`), or None where the chain must (the
    module docstring)."""
    w1, w2, t1, win1, ends1, t2, win2, ends2, bb = masks
    if st.worker_class[w1] != st.worker_class[w2]:
        return None
    s1, s2 = st.worker_pos[w1], st.worker_pos[w2]
    # (a worker bound to end where it did not start could stay or go and come back: two turns
    # the chain tells apart)
    if not ends1 >> s1 & 1 or not ends2 >> s2 & 1:
        return None
    # (a worker that cannot move stands in the other's way all along)
    if not t1:
        t2 &= ~(1 << s1)
    if not t2:
        t1 &= ~(1 << s2)
    levels = st.level_field
    for start, reach in ((s1, t1), (s2, t2)):
        if reach and (not reach >> start & 1 or reach & ~(levels >> 25 * st.heights[start] & ALL_BITS)):
            return None  # (a worker that may leave its level, or not come back to its square)
    r1 = _component(s1, t1)
    one = bool(r1 >> s2 & 1)
    if one:
        if t1 != t2:
            return None
        r2 = r1
    else:
        r2 = _component(s2, t2)
        if r1 & r2:
            return None
    if r1 & win1 or r2 & win2:
        return None  # (a move that may win ends the turn there)
    return w1, s1, r1, t1, w2, s2, r2, t2, bb, one, ends1, ends2


def _component(square: int, squares: int) -> int:
    """The squares of `squares` (bits) connected to `square` by steps between them."""
    start = reached = SQUARE_BITS[square]
    while True:
        larger = grown(reached) & squares | start
        if larger == reached:
            return reached
        reached = larger


def counted(at: Walked) -> int:
    """The number of distinct outcomes of the walks (the module docstring); where the two may
    end on different squares (an obligation binds one), the search's own count."""
    _, _, r1, _, _, _, r2, _, bb, one, ends, other_ends = at
    if ends != other_ends:
        return searched(at, {})
    r1, r2 = r1 & ends, r2 & ends  # (the squares they may end on: they may pass through the others)
    total = 0
    if one:
        size = r1.bit_count()
        near = grown(r1) & bb
        while near:
            low = near & -near
            near ^= low
            off = size - (1 if r1 & low else 0)
            apart = off - (AROUND_BITS[low.bit_length() - 1] & r1).bit_count()
            total += (off * (off - 1) - apart * (apart - 1)) >> 1
        return total
    size1, size2 = r1.bit_count(), r2.bit_count()
    near = (grown(r1) | grown(r2)) & bb
    while near:
        low = near & -near
        near ^= low
        around = AROUND_BITS[low.bit_length() - 1]
        off1 = size1 - (1 if r1 & low else 0)
        off2 = size2 - (1 if r2 & low else 0)
        total += off1 * off2 - (off1 - (around & r1).bit_count()) * (off2 - (around & r2).bit_count())
    return total


#: What a search finds: (the path there, as where the two workers stood before each move, each
#: as the first worker's square | the second's << 5; where they stand now, so; the builder; the
#: square built).
Found = tuple[tuple[int, ...], int, int, int]


def _search(at: Walked, out: Excluded, index: int, found: list[Found] | None) -> Found:
    """The walks' new outcomes in the chain's order (`Found`): the `index`-th of them, or, with
    `found`, every one of them added to it; past the last, ((), -1, -1, the index left).

    The chain goes through the states breadth first (chain/steps.py's `breadth_first`): a state
    once per (board, last worker to move), those reached by fewer moves first, and among as many
    moves in the order they were reached; at each it lists the builds, then each worker's moves
    in the team's order, squares in order. A board's outcomes are the first such state's where
    each worker stands where it may end. Where both may end on the same squares, that is the
    first state of the board (`_search_alike`); where an obligation binds one, the two are told
    apart (`_search_told_apart`)."""
    if at[10] == at[11]:
        return _search_alike(at, out, index, found)
    return _search_told_apart(at, out, index, found)


def _search_alike(at: Walked, out: Excluded, index: int, found: list[Found] | None) -> Found:
    """`_search` where both workers may end on the same squares: the chain's order of new boards
    is then a breadth-first search over boards (sets of two squares), each reached once.

    Why: a state of a board reached again (the other worker moved last, or the workers the
    other way round) is visited after the board's first state, and its moves reach the same
    boards, the other worker's moves being the same squares' (in one component both walk the
    same squares; in two, each worker keeps its own): all reached already. So no such state
    lists a new board or reaches one, and only the first state of each board is kept here, its
    workers as it was reached. `seen[a]` holds the squares b of the boards {a, b} reached (and a
    itself: no move goes onto the other worker)."""
    around, bit = AROUND_BITS, SQUARE_BITS
    w1, s1, _, t1, w2, s2, _, t2, bb, _, ends, _ = at
    seen = list(bit)
    seen[s1] |= bit[s2]
    seen[s2] |= bit[s1]
    near = [squares & bb for squares in around]  # (the squares each square's worker may build on)
    states = [s1 | s2 << 5]  # (as in _search_told_apart)
    append = states.append
    anywhere = ends == ALL_BITS
    for number, state in enumerate(states, 1):  # (the list grows as the boards are reached)
        at1, at2 = state & 31, state >> 5 & 31
        bit1, bit2 = bit[at1], bit[at2]
        if anywhere or (ends & bit1 and ends & bit2):
            key = bit1 | bit2
            builds = (near[at1] | near[at2]) & ~key
            if out:
                builds &= ~out.get(key, 0)
            builds1 = near[at1] & builds  # (the first worker's builds, then the second's new ones)
            if found is not None:
                trail = _trail(states, number - 1)
                for builder, squares in ((w1, builds1), (w2, builds & ~builds1)):
                    while squares:
                        low = squares & -squares
                        squares ^= low
                        found.append((trail, state & 1023, builder, low.bit_length() - 1))
            elif builds:
                n = builds.bit_count()
                if index < n:
                    n = builds1.bit_count()
                    if index < n:
                        return _trail(states, number - 1), state & 1023, w1, nth_bit(builds1, index)
                    return _trail(states, number - 1), state & 1023, w2, nth_bit(builds & ~builds1, index - n)
                index -= n
        parent = number << 10
        fresh = around[at1] & t1 & ~seen[at2]  # (the first worker's moves to boards not reached)
        if fresh:
            seen[at2] |= fresh
            rest = at2 << 5 | parent
            while fresh:
                low = fresh & -fresh
                fresh ^= low
                to = low.bit_length() - 1
                seen[to] |= bit2
                append(to | rest)
        fresh = around[at2] & t2 & ~seen[at1]
        if fresh:
            seen[at1] |= fresh
            rest = at1 | parent
            while fresh:
                low = fresh & -fresh
                fresh ^= low
                to = low.bit_length() - 1
                seen[to] |= bit1
                append(rest | to << 5)
    return (), -1, -1, index


def _search_told_apart(at: Walked, out: Excluded, index: int, found: list[Found] | None) -> Found:
    """`_search` where an obligation binds one worker's last move: a board's outcomes are the
    first state's where each stands where it may. The chain visits a state once per board and
    what the obligation reads of the turn's log (chain/conditions.py's `log_context`): which
    worker stands where, each told apart although the two are of one class (the bound worker on
    a square it may not end on, the other where it may, is not the board the other way round).
    So the states are kept per (the first worker's square, the second's, the last worker to
    move); a state reached again with other workers moved has the same moves, and no new board."""
    around, bit = AROUND_BITS, SQUARE_BITS
    w1, s1, _, t1, w2, s2, _, t2, bb, _, ends1, ends2 = at
    # explored1[b]: the squares a such that the state where the first worker moved last to a,
    # the second on b, was reached, and b itself (no move goes onto the other worker);
    # explored2[a] likewise for the second worker's moves; met[b]: the a of the boards whose
    # outcomes were listed
    explored1, explored2, met = list(bit), list(bit), [0] * 25
    met[s2] |= bit[s1]  # (both start where they may end: _walked)
    met[s1] |= bit[s2]
    # queued[b]: the a such that a state with the first worker on a, the second on b, is queued.
    # A state where the two stand as in one queued before (the other worker moved last) has
    # the same moves to the same states and no new board: the chain's visit of it finds nothing,
    # so it is not queued here (its key is marked reached all the same, as the chain's is).
    queued, queued_by_first = [0] * 25, [0] * 25  # (the same, by the second's square and by the first's)
    queued[s2], queued_by_first[s1] = bit[s1], bit[s2]
    states = [s1 | s2 << 5]  # (each state queued, in order: the first's square | the second's << 5
    #                           | the number of the state it was reached from, plus one, << 10)
    append = states.append
    number = 0
    for state in states:  # (the list grows as the states are reached)
        at1, at2 = state & 31, state >> 5 & 31
        bit1, bit2 = bit[at1], bit[at2]
        number += 1
        if number == 1 or (not met[at2] & bit1 and ends1 & bit1 and ends2 & bit2):  # (a new board)
            met[at2] |= bit1
            met[at1] |= bit2
            key = bit1 | bit2
            builds = bb & ~key & ~out.get(key, 0) if out else bb & ~key
            builds1 = around[at1] & builds
            builds2 = around[at2] & builds & ~builds1
            if found is not None:
                trail = _trail(states, number - 1)
                for builder, squares in ((w1, builds1), (w2, builds2)):
                    while squares:
                        low = squares & -squares
                        squares ^= low
                        found.append((trail, state & 1023, builder, low.bit_length() - 1))
            elif builds1 or builds2:
                n = builds1.bit_count()
                if index < n:  # (the first worker's builds, then the second's new ones)
                    return _trail(states, number - 1), state & 1023, w1, nth_bit(builds1, index)
                index -= n
                n = builds2.bit_count()
                if index < n:
                    return _trail(states, number - 1), state & 1023, w2, nth_bit(builds2, index)
                index -= n
        parent = number << 10
        onward = around[at1] & t1 & ~explored1[at2]  # (the first worker's moves to states not reached)
        if onward:
            explored1[at2] |= onward
            fresh = onward & ~queued[at2]
            queued[at2] |= fresh
            while fresh:
                low = fresh & -fresh
                fresh ^= low
                to = low.bit_length() - 1
                queued_by_first[to] |= bit2
                append(to | at2 << 5 | parent)
        onward = around[at2] & t2 & ~explored2[at1]
        if onward:
            explored2[at1] |= onward
            fresh = onward & ~queued_by_first[at1]
            queued_by_first[at1] |= fresh
            while fresh:
                low = fresh & -fresh
                fresh ^= low
                to = low.bit_length() - 1
                queued[to] |= bit1
                append(at1 | to << 5 | parent)
    return (), -1, -1, index


def _trail(states: list[int], number: int) -> tuple[int, ...]:
    """The states the search went through to reach state `number`, from the first (each as
    `_search` keeps them, the number of the state it came from, plus one, above bit 10)."""
    trail: list[int] = []
    number = states[number] >> 10
    while number:
        trail.append(states[number - 1] & 1023)
        number = states[number - 1] >> 10
    return tuple(reversed(trail))


def walk_turn(st: GameState, at: Walked, out: Excluded, index: int) -> Drawn:
    """The walks' `index`-th new outcome in the chain's order, as (steps, events)."""
    found = _search(at, out, index, None)
    assert found[2] >= 0, "a counted walk was not found"
    return _turn(st, at[0], at[4], *found)


def searched(at: Walked, out: Excluded) -> int:
    """The number of the walks' new outcomes, by the chain's own search (`_search`)."""
    return _PAST - _search(at, out, _PAST, None)[3]


def every_walk(st: GameState, at: Walked, out: Excluded) -> Iterator[tuple[tuple[Action, ...], tuple[Event, ...]]]:
    """Every new outcome of the walks in the chain's order, as (steps, events)."""
    found: list[Found] = []
    _search(at, out, 0, found)
    for trail, last, builder, square in found:
        yield _turn(st, at[0], at[4], trail, last, builder, square)


def _turn(st: GameState, first: int, second: int, trail: tuple[int, ...], last: int, builder: int,
          square: int) -> tuple[tuple[Action, ...], tuple[Event, ...]]:
    """(steps, events) of the walk through the configurations of `trail` to `last` (each as
    where the first worker stands | where the second does << 5), then the build."""
    heights = st.heights
    moves1, moves2 = actions("move", first), actions("move", second)
    level1, level2 = heights[st.worker_pos[first]], heights[st.worker_pos[second]]  # (kept by every walk)
    steps: list[Action] = []
    events: list[Event] = []
    path = (*trail, last)
    before = path[0]
    for after in path[1:]:
        if (before ^ after) & 31:
            to = after & 31
            steps.append(moves1[to])
            events.append(("move", first, before & 31, to, level1, level1))
        else:
            to = after >> 5
            steps.append(moves2[to])
            events.append(("move", second, before >> 5, to, level2, level2))
        before = after
    verb, built = build_events(builder, square, heights[square] == 3, heights, st.tokens)
    steps.append(actions(verb, builder)[square])
    return tuple(steps), (*events, *built)


__all__ = ["counted", "every_walk", "searched", "walk_turn", "walks"]

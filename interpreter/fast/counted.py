"""Random turns counted, not listed, for three more turn shapes than the plain turn.

A random player draws uniformly among a turn's distinct outcomes: `turns[rng.randrange(len)]`.
Listing every outcome costs about a thousand instructions each, and a power that adds a second
move or a second build multiplies the outcomes. The plain picker (plain.py) counts instead: each
move's builds by one popcount. This module does the same for the shapes that powers give the
plain turn, each counted in closed form and in the enumeration's own order, so that the turn
drawn is exactly the one `turns` would give at that index:

* a follow-up build ('may build one additional time', on the same space or not on it);
* a follow-up move ('may move one additional time, not back to the start');
* an alternative turn 'one of your workers builds, that worker moves not up, that worker
  builds' beside the plain turn.

Each shape is recognised from the compiled steps, never from a name. Why each count is a count
of *distinct* outcomes is argued where it is made; tests/test_fast_paths.py checks every index
of the count against the generic chain's list on random positions. A seat with move options (into
an opponent's space) or a dome option keeps the listing paths.
"""

from __future__ import annotations

from collections.abc import Callable
from random import Random

from .shape import FastRules, Program, StepSpec
from ..engine.actions import actions
from ..engine.walk import Action
from ..model.board import ADJACENT, ALL_BITS, AROUND_BITS, NEIGHBOURS, SQUARE_BITS, SQUARES
from ..model.state import GameState
from .plain import A_MOVE, A_WIN, _Moves, build_event, is_plain, nth_free

#: picker(state, team, forbid_up, forbid_down, rng) -> (turn, its events) or None when there is
#: none; the events may be None, and the engine then applies the turn step by step (a win).
Picker = Callable[..., "tuple[tuple[Action, ...], tuple | None] | None"]

#: BELOW[s]: the squares numbered below s, as bits (NEIGHBOURS lists squares in ascending order,
#: so these are the squares that come before s in any neighbour list).
_BELOW = tuple((1 << s) - 1 for s in SQUARES)
#: BETWEEN[a][b]: the squares around both a and b.
_BETWEEN = tuple(tuple(tuple(s for s in NEIGHBOURS[a] if s in ADJACENT[b]) for b in SQUARES) for a in SQUARES)
#: AWAY[a][b]: the squares around b other than a (a second move from b never goes back to a).
_AWAY = tuple(tuple(tuple(s for s in NEIGHBOURS[b] if s != a) for b in SQUARES) for a in SQUARES)
#: A square's mark in the follow-up move's count, as bits: nothing more can be counted there
#: (CLOSED), a move's end was counted there (MOVED), a win was counted there (WON); MARK_OF[kind].
CLOSED, MOVED, WON = 1, 2, 4  # CLOSED is 1: the marks start as a copy of `blocked`
MARK_OF = (0, MOVED, WON)
assert MARK_OF[A_MOVE] == MOVED and MARK_OF[A_WIN] == WON
#: _AT_MOST[h]: translates heights to '1' where the height is at most h.
_AT_MOST = tuple(bytes.maketrans(bytes(range(4)), b"".join(b"1" if n <= h else b"0" for n in range(4)))
                 for h in range(4))


def counted_picker(rules: FastRules) -> Picker | None:
    """The counting picker for the seat's programs, if they have one of the shapes above."""
    if rules.move_options or rules.build_options or not rules.programs or not is_plain(
            rules.programs[0], rules, followups=True):
        return None
    if len(rules.programs) == 1 and len(rules.followups) == 1:
        follow = rules.followups[0]
        if follow.after == "build":
            return _follow_up_build_picker(rules, follow.step)
        return _follow_up_move_picker(rules, follow.step)
    if len(rules.programs) == 2 and not rules.followups:
        return _build_first_picker(rules, rules.programs[1])
    return None


def _tail(spec: StepSpec, verb: str) -> bool:
    """A step by the worker of the previous step, taken once."""
    return spec.verb == verb and spec.actor in ("that", "moved") and not spec.repeat


def _height_bits(heights: list[int], at_most: int) -> int:
    """The squares of height at most `at_most`, as bits."""
    return int(bytes(heights).translate(_AT_MOST[at_most])[::-1], 2)


def _draw(counted: list, total: int, rng: Random) -> tuple:
    """The counted group the drawn index falls in, and the index within it."""
    index = rng.randrange(total)
    for group in counted:
        if index < group[0]:
            return group, index - (group[0] - group[1])
    raise AssertionError("the draw is below the total")  # pragma: no cover


def _follow_up_build_picker(rules: FastRules, second: StepSpec) -> Picker | None:
    """The plain turn and an optional second build by the same worker.

    After a move to `to`, let B be the n free squares around it. 'Not on the same space': every
    outcome is one build on B, or two on distinct squares of B; building on one square never
    changes whether another can be built on, and builds on a and b in either order are one
    outcome, which the enumeration finds with the earlier square first (enumeration.py,
    `commutes`). So n + n(n-1)/2 outcomes, in the order: a, (a, each later b), next a...
    'On the same space': a build on a, then maybe a second piece on a if the first was a block
    and the second may be what it makes (a dome only if allowed): n + |B ∩ low| outcomes.
    Outcomes of different moves differ in where the workers stand; a win ends the turn at once.
    """
    constraints = set(second.constraints)
    if not (_tail(second, "build") and second.optional) or constraints not in (
            {"not_same_space"}, {"same_space"}, {"same_space", "not_dome"}):
        return None
    same = "same_space" in constraints
    second_limit = 1 if "not_dome" in constraints else 2  # the first block's level, at most
    kinds = _Moves(rules).kinds

    def pick(st: GameState, team: int, forbid_up: bool, forbid_down: bool, rng: Random) -> tuple | None:
        heights, blocked, position = st.heights, st.blocked, st.worker_pos
        taken = st.blocked_bits()
        again = _height_bits(heights, second_limit) if same else 0
        kinds_from = kinds[forbid_up][forbid_down]
        total, counted = 0, []  # (end of the group, its size, worker, to)
        for worker in st.members.get(team, ()):
            origin = position[worker]
            if origin < 0:
                continue
            kind_of, open_ = kinds_from[heights[origin]], (ALL_BITS ^ taken) | SQUARE_BITS[origin]
            for to in NEIGHBOURS[origin]:
                if blocked[to]:
                    continue
                kind = kind_of[heights[to]]
                if kind == A_MOVE:
                    free = AROUND_BITS[to] & open_
                    n = free.bit_count()
                    size = n + ((free & again).bit_count() if same else n * (n - 1) // 2)
                elif kind:
                    size = 1
                else:
                    continue
                if size:
                    total += size
                    counted.append((total, size, worker, to))
        if not total:
            return None
        (_, _, worker, to), index = _draw(counted, total, rng)
        move, builds = actions("move", worker)[to], actions("build", worker)
        if kinds_from[heights[position[worker]]][heights[to]] == A_WIN:
            return (move,), None
        origin = position[worker]
        squares = [s for s in NEIGHBOURS[to] if s == origin or not blocked[s]]
        for order, square in enumerate(squares):
            size = 1 + ((heights[square] <= second_limit) if same else len(squares) - 1 - order)
            if index < size:
                if not index:
                    return (move, builds[square]), None
                return (move, builds[square], builds[square if same else squares[order + index]]), None
            index -= size
        raise AssertionError("a counted build was not found")  # pragma: no cover
    return pick


def _follow_up_move_picker(rules: FastRules, second: StepSpec) -> Picker | None:
    """The plain turn and an optional second move by the moved worker before it builds.

    No step before the build builds, so every state reached before it has the board's heights:
    two of them differ only in where the workers stand, and their builds give distinct outcomes
    unless they are one state, reached by two paths. The enumeration enters the build once per
    state (enumeration.py, `_once`); here a mark per square says where the worker already ended
    (MOVED) or won (WON), and that square's builds (or win) are counted the first time only, the
    builds by one popcount. A square where nothing more can be counted is CLOSED: a worker or a
    dome stands there, both kinds are counted, or a move's end is counted on a height that no
    move wins on (most squares, so that most second moves are dismissed by one comparison).
    """
    if not (_tail(second, "move") and second.optional) or set(second.constraints) != {"not_back_to_start"}:
        return None  # (two workers that both come back to their squares and build on one square
        #              make one outcome: a second move that may come back is listed, not counted)
    kinds = _Moves(rules).kinds
    wins_onto = [any(kinds[up][down][here][height] == A_WIN for up in (0, 1) for down in (0, 1)
                     for here in range(4)) for height in range(4)]
    moved_mark = tuple(MOVED if wins_onto[height] else CLOSED for height in range(4))

    def pick(st: GameState, team: int, forbid_up: bool, forbid_down: bool, rng: Random) -> tuple | None:
        heights, blocked, position = st.heights, st.blocked, st.worker_pos
        taken = st.blocked_bits()
        kinds_from = kinds[forbid_up][forbid_down]
        around, closed, a_win = AROUND_BITS, CLOSED, A_WIN  # (read in the hottest loop: locals)
        total, counted = 0, []  # (end of the group, its size, worker, first square, whether its
        #                          builds count, the second moves that count)
        for worker in st.members.get(team, ()):
            origin = position[worker]
            if origin < 0:
                continue
            left = taken ^ SQUARE_BITS[origin]  # blocked once the worker has left its square
            free = ALL_BITS ^ left
            marks = blocked[:]  # (1 = CLOSED: workers and domes)
            away = _AWAY[origin]  # (nor is the origin a square to come back to)
            kind_of = kinds_from[heights[origin]]
            for first in NEIGHBOURS[origin]:
                if blocked[first]:
                    continue
                kind = kind_of[heights[first]]
                if not kind:
                    continue
                mark = marks[first]
                if kind == A_WIN:
                    if not mark & (WON | CLOSED):
                        marks[first] = CLOSED if mark else WON
                        total += 1
                        counted.append((total, 1, worker, first, False, ()))
                    continue
                size = 0
                builds_here = not mark or mark == WON  # (its move's end not counted yet)
                if builds_here:
                    marks[first] = CLOSED if mark else moved_mark[heights[first]]
                    size = (free & AROUND_BITS[first]).bit_count()
                onward, fresh = kinds_from[heights[first]], []
                for then in away[first]:
                    mark = marks[then]
                    if mark == closed:
                        continue
                    kind = onward[heights[then]]
                    if not kind or mark and mark & MARK_OF[kind]:
                        continue
                    fresh.append(then)
                    if kind == a_win:
                        marks[then] = closed if mark else WON
                        size += 1
                    else:
                        marks[then] = closed if mark else moved_mark[heights[then]]
                        size += (free & around[then]).bit_count()
                if size:
                    total += size
                    counted.append((total, size, worker, first, builds_here, fresh))
        if not total:
            return None
        (_, _, worker, first, builds_here, fresh), index = _draw(counted, total, rng)
        origin = position[worker]
        moves, builds = actions("move", worker), actions("build", worker)
        free = (ALL_BITS ^ taken) | SQUARE_BITS[origin]
        here, there = heights[origin], heights[first]
        steps, moved = (moves[first],), ("move", worker, origin, first, here, there)
        if kinds_from[here][there] == A_WIN:
            return steps, None
        if builds_here:
            size = (free & AROUND_BITS[first]).bit_count()
            if index < size:
                square = nth_free(first, free, index)
                return steps + (builds[square],), (moved, build_event(worker, square, heights[square]))
            index -= size
        onward = kinds_from[there]
        for then in fresh:
            if onward[heights[then]] == A_WIN:
                if not index:
                    return steps + (moves[then],), None
                index -= 1
                continue
            size = (free & AROUND_BITS[then]).bit_count()
            if index < size:
                square = nth_free(then, free, index)
                return steps + (moves[then], builds[square]), (
                    moved, ("move", worker, first, then, there, heights[then]),
                    build_event(worker, square, heights[square]))
            index -= size
        raise AssertionError("a counted turn was not found")  # pragma: no cover
    return pick


def _build_first_picker(rules: FastRules, program: Program) -> Picker | None:
    """The plain turn, or 'one of your workers builds (x), that worker moves not up (to d), that
    worker builds (y)'.

    The alternative's outcomes have two pieces more on the board and the plain turn's one (or
    none, for a win), so the two programs share no outcome; the alternative cannot win, as long
    as no win of the seat comes from a move that does not go up. Its outcomes are the worker on d
    and a piece on x and on y. (x, d, y) and (y, d, x) are one outcome; the enumeration finds the
    one whose first build comes first around the worker. With x != y, both legal, and d not x (a
    worker on x leaves no build there for the swapped turn): the swap is legal exactly when y is
    free around the worker's square and x is around d (d keeps its height, x stays free). So the
    turns of (x, d) count the free squares around d, less the swapped ones found before.
    """
    if len(program.steps) != 3:
        return None
    build, move, last = program.steps
    if not (build.verb == "build" and build.actor == "any" and _tail(move, "move") and _tail(last, "build")
            and not (build.optional or move.optional or last.optional or build.repeat)
            and not build.constraints and move.constraints == ("not_up",) and not last.constraints):
        return None
    kinds = _Moves(rules).kinds
    if any(A_WIN in row for down in (False, True) for row in kinds[True][down]):
        return None  # (a move that does not go up could win: the shapes' outcomes could meet)
    use = (("use", -1, program.name),) if program.announced else ()

    def pick(st: GameState, team: int, forbid_up: bool, forbid_down: bool, rng: Random) -> tuple | None:
        heights, blocked, position = st.heights, st.blocked, st.worker_pos
        taken = st.blocked_bits()
        kinds_from, level = kinds[forbid_up][forbid_down], kinds[True][forbid_down]
        total, counted = 0, []  # (end of the group, its size, worker, first build or -1, to or -1)
        for worker in st.members.get(team, ()):  # the plain turn, as plain_picker counts it
            origin = position[worker]
            if origin < 0:
                continue
            kind_of, open_ = kinds_from[heights[origin]], (ALL_BITS ^ taken) | SQUARE_BITS[origin]
            for to in NEIGHBOURS[origin]:
                if not blocked[to]:
                    kind = kind_of[heights[to]]
                    size = (open_ & AROUND_BITS[to]).bit_count() if kind == A_MOVE else kind == A_WIN
                    if size:
                        total += size
                        counted.append((total, size, worker, -1, to))
        for worker in st.members.get(team, ()):  # the alternative
            origin = position[worker]
            if origin < 0:
                continue
            here, open_ = heights[origin], (ALL_BITS ^ taken) | SQUARE_BITS[origin]
            around = AROUND_BITS[origin] & ~taken  # where the first build may go
            kind_of = level[here]
            # per destination, the squares free around it and how many: unchanged by a first
            # build elsewhere, except where it domes (0 on a square that is no destination)
            free_at, count_at, all_counts = [0] * len(SQUARES), [0] * len(SQUARES), 0
            for to in NEIGHBOURS[origin]:
                if not blocked[to] and kind_of[heights[to]]:
                    free = free_at[to] = AROUND_BITS[to] & open_
                    count_at[to] = free.bit_count()
                    all_counts += count_at[to]
            between = _BETWEEN[origin]
            for first in NEIGHBOURS[origin]:
                if blocked[first]:
                    continue
                height, earlier = heights[first], around & _BELOW[first]
                size = all_counts - count_at[first]  # every destination but the first build,
                for to in between[first]:  # less, where the first build is around one, the
                    free = free_at[to]  # swapped turns found before and a second build on a dome
                    if free:
                        size -= (free & earlier).bit_count() + (height == 3)
                if height < 3 and kind_of[height + 1]:  # onto the first build
                    size += (open_ & AROUND_BITS[first]).bit_count()
                if size:
                    total += size
                    counted.append((total, size, worker, first, -1))
        if not total:
            return None
        (_, _, worker, first, to), index = _draw(counted, total, rng)
        origin, builds, moves = position[worker], actions("build", worker), actions("move", worker)
        here = heights[origin]
        if first < 0:
            if kinds_from[here][heights[to]] == A_WIN:
                return (moves[to],), None
            square = nth_free(to, (ALL_BITS ^ taken) | SQUARE_BITS[origin], index)
            return (moves[to], builds[square]), (("move", worker, origin, to, here, heights[to]),
                                                 build_event(worker, square, heights[square]))
        kind_of, height = level[here], heights[first]
        for to in NEIGHBOURS[origin]:
            if to == first:
                if height == 3 or not kind_of[height + 1]:
                    continue
            elif blocked[to] or not kind_of[heights[to]]:
                continue
            swapped = to != first and first in ADJACENT[to]
            for square in NEIGHBOURS[to]:
                if square != origin and (blocked[square] or (square == first and height == 3)):
                    continue
                if swapped and square < first and square in ADJACENT[origin] and not blocked[square]:
                    continue  # (square, to, first) was found before
                if not index:  # (the first build raised its square by a block: not a dome, above)
                    there = height + 1 if to == first else heights[to]
                    second = height + 1 if square == first else heights[square]
                    return (*use, builds[first], moves[to], builds[square]), (
                        *use, build_event(worker, first, height), ("move", worker, origin, to, here, there),
                        build_event(worker, square, second))
                index -= 1
        raise AssertionError("a counted build was not found")  # pragma: no cover
    return pick

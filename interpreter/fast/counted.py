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

The counts work on sets of squares as bits (bit n for square n), so that a worker's count is a
few operations on integers rather than a walk over squares and their neighbours: the squares of
each level, read once per pick (`level_reader`); the sum, over a set S, of the free squares
around each square of S, which is the number of neighbouring pairs (s in S, f free), counted by
one multiplication (`PAIR_SPREAD`). Only the worker whose turn is drawn is walked again, in the
enumeration's order, to find the turn.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Sequence
from random import Random
from typing import Any, TypeVar

from ...dsl.vocabulary import Role, Verb
from ..chain.actions import actions
from ..chain.walk import Action
from ..model.board import (
    ALL_BITS,
    AROUND_BITS,
    NEIGHBOUR_BITS,
    NEIGHBOURS,
    PAIR_INSIDE,
    PAIR_LANES,
    PAIR_SHIFTED,
    PAIR_SPREAD,
    SQUARE_BITS,
    SQUARES,
)
from ..model.state import GameState
from .plain import A_MOVE, A_WIN, MOVES_AND_BUILDS, NO_MOVE, Drawn, Kinds, _Moves, is_plain
from .shape import Constraint, FastRules, Program, StepSpec

#: picker(state, team, forbid_up, forbid_down, rng, free) -> (turn, its events) or None when there
#: is none; `free` is the squares with no worker and no dome, as bits (bits.free_bits), which
#: every caller has at hand. The events may be None, and the engine then applies the turn step by
#: step (a win). Or DEFERRED: a state the picker does not count (a shape it knows only in its
#: common form, such as a team of two workers), for which it has drawn nothing: the engine lists
#: the turns instead. A picker may say which kinds of event its turns can have, as its attribute
#: `event_kinds` (a frozenset): the playout loop then plays them without checking each event
#: (tests/test_fast_paths.py holds every picker to what it says). A picker reads the board, the
#: workers and the cards' state, not `state.history`: the playout loop adds the turns it plays to
#: the history in one go, later. One that reads it (through the engine's own steps) says so, with
#: the attribute `reads_history` true, and the loop brings the history up to date first.
Picker = Callable[[GameState, int, bool, bool, Random, int], "Drawn | None | Deferred"]
#: read(level_field, within) -> the squares of each entry (`level_reader`).
LevelReader = Callable[[int, int], tuple[int, ...]]
#: (square, its bit, PAIRED[square]) of each square of a set (`_SQUARES_OF`).
SquaresOf = tuple[tuple[int, int, int], ...]

T = TypeVar("T")


class Deferred:
    """The type of DEFERRED, a picker's answer 'list this one' (see Picker)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "DEFERRED"


DEFERRED = Deferred()

#: BELOW[s]: the squares numbered below s, as bits (NEIGHBOURS lists squares in ascending order,
#: so these are the squares that come before s in any neighbour list).
_BELOW = tuple((1 << s) - 1 for s in SQUARES)
#: PAIRED[s]: the squares around s as bits, twice: at bit n and at bit 25 + n (the follow-up
#: move's ends and wins, as one number).
_PAIRED = tuple(around | around << 25 for around in AROUND_BITS)
#: BUILDS_OF[n]: n + n(n - 1)/2, one build or two on distinct squares among n.
_BUILDS_OF = tuple(n * (n + 1) // 2 for n in range(9))


class _Squares(dict[int, SquaresOf]):
    """SQUARES_OF[bits]: (square, its bit, PAIRED[square]) for each square of `bits`, in
    ascending order (the order of a neighbour list), made the first time a set is asked for. Each
    set asked for is of squares around one square: 25 * 2**8 sets at most."""

    def __missing__(self, bits: int) -> SquaresOf:
        squares = self[bits] = tuple((s, 1 << s, _PAIRED[s]) for s in SQUARES if bits >> s & 1)
        return squares


_SQUARES_OF = _Squares()


class _Steps(dict[int, tuple[Action, ...]]):
    """STEPS[worker]: actions(verb, worker) (a dict is read faster than the call is made)."""

    def __init__(self, verb: str) -> None:
        super().__init__()
        self.verb = verb

    def __missing__(self, worker: int) -> tuple[Action, ...]:
        steps = self[worker] = actions(self.verb, worker)
        return steps


#: WON: with `| WON` on the lanes, a pair count (board.PAIR_SPREAD) also counts the squares of
#: S >> 25 (bits 25-49 of S: lane 0's copy of them, which no other copy reaches): the follow-up
#: move's ends and wins counted as one number.
_WON = ALL_BITS << (PAIR_LANES[0] + 25)

# ---- the squares of each level --------------------------------------------------------------------
_EVERY_LEVEL = 15
#: AT_MOST[h]: the levels at most h (a set of levels: bit h for level h).
_AT_MOST = tuple((2 << h) - 1 for h in range(4))


def _levels_source(levels: int) -> str:
    """Python source for the squares of `levels` (bit h for level h), as bits, read from `field`,
    the state's level_field (board.LEVEL_BIT: level h's squares at bits 25h on): the union of
    the levels' fields, or the complement of the others' where they are fewer."""
    def union(hs: list[int]) -> str:
        parts = [f"field >> {25 * h}" if h else "field" for h in hs]
        return parts[0] if hs == [3] else f"({' | '.join(parts)}) & ALL_BITS"
    inside = [h for h in range(4) if levels >> h & 1]
    outside = [h for h in range(4) if not levels >> h & 1]
    return union(inside) if len(inside) <= len(outside) else f"ALL_BITS ^ {union(outside)}"


def levels_where(table: tuple[tuple[int, ...], ...], wanted: Callable[[int], bool]) -> tuple[int, ...]:
    """For each level here, the levels there (as bits) where `wanted(table[here][there])`."""
    return tuple(sum(1 << there for there in range(4) if wanted(table[here][there])) for here in range(4))


def level_reader(roles: Sequence[tuple[int | tuple[int, int], ...]]) -> LevelReader:
    """How a pick reads the squares by level. Each role is a tuple of entries, say one per level
    `here`: a set of levels (bit h for level h), such as the levels a move from `here` may end
    on, or a pair of sets, the squares of the second put at bits 25-49 (ends and wins as one
    number). `read(state.level_field, within)` gives the squares of every entry of every role,
    one role after the other, and with `within`. Each distinct set is read once, by a few shifts
    of the level field (`_levels_source`), except the empty set and every level, which cost
    nothing, and a set whose complement was read.

    The function is written out as source for the roles and compiled once: it runs once per
    pick, and a loop over the sets, or a table of what to combine, would cost as much again as
    the reads. Its source holds only names made here and the sets' numbers."""
    entries = [entry if isinstance(entry, tuple) else (entry, 0) for role in roles for entry in role]
    names = {0: "0", _EVERY_LEVEL: "ALL_BITS"}
    lines = []
    for levels in sorted({levels for entry in entries for levels in entry} - set(names)):
        if _EVERY_LEVEL ^ levels in names:
            lines.append(f"    m{levels} = ALL_BITS ^ {names[_EVERY_LEVEL ^ levels]}")
        else:
            lines.append(f"    m{levels} = {_levels_source(levels)}")
        names[levels] = f"m{levels}"
    values = ", ".join((names[low] if not high else f"({names[low]} | {names[high]} << 25)") + " & within"
                       for low, high in entries)
    source = "".join(line + "\n" for line in ["def read(field, within):", *lines, f"    return ({values},)"])
    namespace: dict[str, Any] = {"ALL_BITS": ALL_BITS}
    exec(compile(source, "<counted.py: squares by level>", "exec"), namespace)  # noqa: S102 - our own source
    read: LevelReader = namespace["read"]
    return read


def move_readers(kinds: Kinds) -> tuple[tuple[LevelReader, ...], ...]:
    """READERS[forbid_up][forbid_down](level_field, ALL_BITS), for a seat's move kinds
    (plain._Moves.kinds): for a move from each level, the squares of the levels it goes to
    without winning (4 sets), then those of the levels it wins on (4 more)."""
    return tuple(tuple(level_reader([levels_where(kinds[up][down], lambda kind: kind == A_MOVE),
                                     levels_where(kinds[up][down], lambda kind: kind == A_WIN)])
                       for down in (0, 1)) for up in (0, 1))


def drawn(counts: list[int], groups: Sequence[T], total: int, rng: Random) -> tuple[T, int]:
    """The group (a worker, or what is counted of it) whose turns the drawn index falls among,
    and the index among them (`counts`: the index after each group's turns; a group without a
    turn ends where the one before does)."""
    index = rng.randrange(total)
    entry = bisect_right(counts, index)
    return groups[entry], index - (counts[entry - 1] if entry else 0)


def counted_picker(rules: FastRules) -> Picker | None:
    """The counting picker for the seat's programs, if they have one of the shapes above."""
    if rules.move_options or rules.build_options or rules.extended or not rules.programs \
            or not is_plain(rules.programs[0], rules, followups=True):
        return None  # (`extended`: the parts that only masked.py counts)
    if len(rules.programs) == 1 and len(rules.followups) == 1:
        follow = rules.followups[0]
        if follow.after is Verb.BUILD:
            return _follow_up_build_picker(rules, follow.step)
        return _follow_up_move_picker(rules, follow.step)
    if len(rules.programs) == 2 and not rules.followups:
        return _build_first_picker(rules, rules.programs[1])
    return None


def _tail(spec: StepSpec, verb: Verb) -> bool:
    """A step by the worker of the previous step, taken once."""
    return spec.verb is verb and (spec.actor is Role.THAT or spec.actor is Role.MOVED) and not spec.repeat


def _follow_up_build_picker(rules: FastRules, second: StepSpec) -> Picker | None:
    """The plain turn and an optional second build by the same worker.

    After a move to `to`, let B be the n free squares around it. 'Not on the same space': every
    outcome is one build on B, or two on distinct squares of B; building on one square never
    changes whether another can be built on, and builds on a and b in either order are one
    outcome, which the chain's listing finds with the earlier square first (its key is
    the board's). So n + n(n-1)/2 outcomes, in the order: a, (a, each later b), next a...
    'On the same space': a build on a, then maybe a second piece on a if the first was a block
    and the second may be what it makes (a dome only if allowed): n + |B ∩ low| outcomes.
    Outcomes of different moves differ in where the workers stand; a win ends the turn at once.
    Each worker's moves are counted in one pass (no list of them is made), and only the drawn
    worker's are walked again, to the drawn move.
    """
    constraints = set(second.constraints)
    if not (_tail(second, Verb.BUILD) and second.optional) or constraints not in (
            {Constraint.NOT_SAME_SPACE}, {Constraint.SAME_SPACE}, {Constraint.SAME_SPACE, Constraint.NOT_DOME}):
        return None
    same = Constraint.SAME_SPACE in constraints
    second_limit = 1 if Constraint.NOT_DOME in constraints else 2  # the first block's level, at most
    kinds = _Moves(rules).kinds
    read_low = level_reader([(_AT_MOST[second_limit],)])  # (where a second piece may go on the same space)
    neighbour_bits, squares_of, builds_twice, a_move = NEIGHBOUR_BITS, _SQUARES_OF, _BUILDS_OF, A_MOVE
    moves_of, builds_of = _Steps("move"), _Steps("build")

    def pick(st: GameState, team: int, forbid_up: bool, forbid_down: bool, rng: Random, open_: int) -> Drawn | None:
        heights, positions = st.heights, st.worker_pos
        again = read_low(st.level_field, ALL_BITS)[0] if same else 0
        kinds_from = kinds[forbid_up][forbid_down]
        total, counts, workers = 0, [], []  # per worker: the index after its last turn
        for worker in st.members.get(team, ()):
            origin = positions[worker]
            if origin < 0:
                continue
            kind_of, free = kinds_from[heights[origin]], open_ | SQUARE_BITS[origin]
            for to, bit, around in neighbour_bits[origin]:
                if open_ & bit:
                    kind = kind_of[heights[to]]
                    if kind == a_move:
                        builds = free & around
                        total += builds.bit_count() + (builds & again).bit_count() if same \
                            else builds_twice[builds.bit_count()]
                    elif kind:
                        total += 1
            counts.append(total)
            workers.append(worker)
        if not total:
            return None
        worker, index = drawn(counts, workers, total, rng)
        origin = positions[worker]
        kind_of, free = kinds_from[heights[origin]], open_ | SQUARE_BITS[origin]
        for to, bit, around in neighbour_bits[origin]:  # the worker's moves again, to the drawn one
            if open_ & bit:
                kind = kind_of[heights[to]]
                if kind == A_MOVE:
                    builds = free & around
                    size = builds.bit_count() + (builds & again).bit_count() if same \
                        else builds_twice[builds.bit_count()]
                elif kind:
                    size = 1
                else:
                    continue
                if index < size:
                    break
                index -= size
        else:
            raise AssertionError("a counted move was not found")  # pragma: no cover - counts agree
        move, steps = moves_of[worker][to], builds_of[worker]
        if kind == A_WIN:
            return (move,), None
        later = len(squares := squares_of[builds]) - 1  # (the builds after the first, in order)
        for square, _, _ in squares:
            size = 1 + (again >> square & 1 if same else later)
            if index < size:
                if not index:
                    return (move, steps[square]), None
                return (move, steps[square], steps[square if same else squares[index - later - 1][0]]), None
            index -= size
            later -= 1
        raise AssertionError("a counted build was not found")  # pragma: no cover - counts agree
    return pick


def _follow_up_move_picker(rules: FastRules, second: StepSpec) -> Picker | None:
    """The plain turn and an optional second move by the moved worker before it builds.

    No step before the build builds, so every state reached before it has the board's heights:
    two of them differ only in where the workers stand, and their builds give distinct outcomes
    unless they are one state, reached by two paths, whose builds the listing keys as one
    board. So a worker's outcomes are: for each square E where one of
    its paths ends by a move that does not win (a first move, or a second one after a first that
    did not win, never back to its start), one per free square around E (its start free now:
    the board, and so the builds, are the same whatever the path to E); and for each square
    where one of its paths wins, one. With ENDS the first set of squares and WINS the second,
    its count is |WINS| + the sum over ENDS of the free squares around each: one pair count
    (`PAIR_SPREAD`), made on ENDS | WINS << 25 with the start added, whatever the order the
    squares were reached in. ENDS and WINS are the squares a move from the start may end on
    (by its level: the squares of each level, read once per pick), and those a move from each
    of those may end on; the outcomes of two workers differ in which worker stands where.

    The enumeration's order, which the drawn index follows, is by first move around the start:
    its group holds its builds, if its square is not an end of an earlier group, then, in
    order, each second move from it to a square that is not an end (or a win) of an earlier
    group, with its builds. So the count of the groups up to one is the count of the union of
    their squares: the drawn worker's first moves are walked until it passes the index, and the
    group where it does is walked square by square.
    """
    if not (_tail(second, Verb.MOVE) and second.optional) or set(second.constraints) != {Constraint.NOT_BACK_TO_START}:
        return None  # (two workers that both come back to their squares and build on one square
        #              make one outcome: a second move that may come back is listed, not counted)
    kinds = _Moves(rules).kinds
    # READERS[up][down](...)[here]: ENDS | WINS << 25 of a move from a square of level `here`
    readers = tuple(tuple(level_reader([tuple(zip(levels_where(kinds[up][down], lambda kind: kind == A_MOVE),
                                                  levels_where(kinds[up][down], lambda kind: kind == A_WIN),
                                                  strict=True))])
                          for down in (0, 1)) for up in (0, 1))
    around_bits, paired, squares_of, spread, shifted, inside, won = (AROUND_BITS, _PAIRED, _SQUARES_OF, PAIR_SPREAD,
                                                                     PAIR_SHIFTED, PAIR_INSIDE, _WON)
    neighbours, moves_of, builds_of = NEIGHBOURS, _Steps("move"), _Steps("build")

    def pick(st: GameState, team: int, forbid_up: bool, forbid_down: bool, rng: Random, open_: int) -> Drawn | None:
        heights, positions = st.heights, st.worker_pos
        # open_: where a move may end (never a start), and where a build may go
        reach = readers[forbid_up][forbid_down](st.level_field, open_ | open_ << 25)
        lanes = (open_ * shifted) & inside | won
        total, counts, workers = 0, [], []  # per worker: the index after its last turn
        for worker in st.members.get(team, ()):
            origin = positions[worker]
            if origin < 0:
                continue
            reached = paired[origin] & reach[heights[origin]]  # the first moves' ends and wins
            for first, _, around in squares_of[reached & ALL_BITS]:  # and the second moves'
                reached |= around & reach[heights[first]]
            # the wins, and the builds around each end: the free squares, and the start
            total += ((reached * spread) & lanes).bit_count() + (reached & around_bits[origin]).bit_count()
            counts.append(total)
            workers.append(worker)
        if not total:
            return None
        index = rng.randrange(total)  # (drawn, written out: its call costs 2 % of the turn)
        entry = bisect_right(counts, index)
        worker = workers[entry]
        if entry:
            index -= counts[entry - 1]
        # the drawn worker's groups, one per first move: the union of their squares so far, to the
        # group whose count passes the index
        origin = positions[worker]
        firsts = paired[origin] & reach[heights[origin]]
        free, ring = open_ | SQUARE_BITS[origin], around_bits[origin]
        reached = before = 0
        for first, bit, around in squares_of[(firsts | firsts >> 25) & ALL_BITS]:
            now = reached | bit | around & reach[heights[first]] if firsts & bit else reached | bit << 25
            after = ((now * spread) & lanes).bit_count() + (now & ring).bit_count()
            if index < after:
                break
            before, reached = after, now
        else:
            raise AssertionError("a counted turn was not found")  # pragma: no cover - counts agree
        index -= before
        moves = moves_of[worker]
        if not firsts & bit:  # a first move that wins
            return (moves[first],), None
        new = now ^ reached  # the group's own ends and wins
        here, there = heights[origin], heights[first]
        if new & bit:  # the builds after the first move
            size = (free & around_bits[first]).bit_count()
            if index < size:
                for square in neighbours[first]:
                    if free >> square & 1:
                        if not index:
                            height = heights[square]
                            return (moves[first], builds_of[worker][square]), (
                                ("move", worker, origin, first, here, there),
                                ("build", worker, square, height + (height < 3), height == 3))
                        index -= 1
            index -= size
        for then, then_bit, _ in squares_of[(new | new >> 25) & ALL_BITS & ~bit]:  # each second move's
            if new >> 25 & then_bit:
                if not index:
                    return (moves[first], moves[then]), None
                index -= 1
                continue
            size = (free & around_bits[then]).bit_count()
            if index >= size:
                index -= size
                continue
            for square in neighbours[then]:
                if free >> square & 1:
                    if not index:
                        height = heights[square]
                        return (moves[first], moves[then], builds_of[worker][square]), (
                            ("move", worker, origin, first, here, there),
                            ("move", worker, first, then, there, heights[then]),
                            ("build", worker, square, height + (height < 3), height == 3))
                    index -= 1
        raise AssertionError("a counted turn was not found")  # pragma: no cover - counts agree
    pick.event_kinds = MOVES_AND_BUILDS  # type: ignore[attr-defined]  # (Picker)
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

    Summed over a worker's first builds, with X the free squares around its start, D the
    destinations not up among them and c(s) the free squares around s (its start free): the turns
    that move to d != x are (|X| - 1) * (the sum of c(d) over D), every destination but x, less
    the swapped turns, one per d of D and pair {x, y} of X around d (C(|X around d|, 2) for each
    d), less the second builds on x from a d around it where the first build domed x (a pair
    count); plus, where the worker may move onto x once built (its level one up is a
    destination), c(x). One pass over the squares around the start finds X, D, the c(s), the
    swapped turns and the plain turn's count, as plain_picker counts it; the plain turns of every
    worker come first, then the alternatives of every worker. The drawn worker's first builds are
    walked to the drawn one, each counted as above, less its share of the swapped turns: a pair
    {x, y} is found at the later of the two, so x's share is the pairs (d of D around x, y of X
    before x around d), one pair count.
    """
    if len(program.steps) != 3:
        return None
    build, move, last = program.steps
    if not (build.verb is Verb.BUILD and build.actor is Role.CHOSEN and _tail(move, Verb.MOVE)
            and _tail(last, Verb.BUILD)
            and not (build.optional or move.optional or last.optional or build.repeat)
            and not build.constraints and move.constraints == (Constraint.NOT_UP,) and not last.constraints):
        return None
    kinds = _Moves(rules).kinds
    if any(A_WIN in row for down in (False, True) for row in kinds[True][down]):
        return None  # (a move that does not go up could win: the shapes' outcomes could meet)
    use = (("use", -1, program.name),) if program.announced else ()

    def code(up: int, down: int, here: int, there: int) -> int:
        level = kinds[True][down][here]  # the alternative's move: not up
        return (kinds[up][down][here][there]  # the plain turn's move there: NO_MOVE, A_MOVE or A_WIN
                | (level[there] != NO_MOVE) << 2  # a destination of the alternative
                | (there < 3 and level[there + 1] != NO_MOVE) << 3  # a first build to move onto
                | (there == 3) << 4)  # a first build there domes
    #: CODES[forbid_up][forbid_down][here][there]: what a free square of level `there` around a
    #: worker on level `here` is to the two programs, as the bits above
    codes = tuple(tuple(tuple(tuple(code(up, down, here, there) for there in range(4)) for here in range(4))
                        for down in (0, 1)) for up in (0, 1))
    around_bits, squares_of, spread, shifted, inside = AROUND_BITS, _SQUARES_OF, PAIR_SPREAD, PAIR_SHIFTED, PAIR_INSIDE
    neighbour_bits, moves_of, builds_of = NEIGHBOUR_BITS, _Steps("move"), _Steps("build")
    pairs_among = tuple(n * (n - 1) // 2 for n in range(9))  # (the unordered pairs among n squares)

    def pick(st: GameState, team: int, forbid_up: bool, forbid_down: bool, rng: Random, open_: int) -> Drawn | None:
        heights, positions = st.heights, st.worker_pos
        codes_from = codes[forbid_up][forbid_down]
        groups: list[tuple[int, ...]]  # (worker, True) for its plain turns, or its alternative's numbers
        total, counts, groups = 0, [], []  # per group: the index after its last turn; the group
        alternatives = []
        for worker in st.members.get(team, ()):
            origin = positions[worker]
            if origin < 0:
                continue
            code_of, free = codes_from[heights[origin]], open_ | SQUARE_BITS[origin]
            builds1 = around_bits[origin] & open_  # X
            dests = onto = domed = reach = onto_reach = swapped = 0  # D, ...; the sums of c over D and onto
            for to, bit, around in squares_of[builds1]:
                code = code_of[heights[to]]
                if code:
                    free_around = (free & around).bit_count()  # c(to)
                    if code & 1:  # (A_MOVE: the plain turn's builds)
                        total += free_around
                    elif code & 2:  # (A_WIN)
                        total += 1
                    if code & 4:
                        dests |= bit
                        reach += free_around
                        swapped += pairs_among[(builds1 & around).bit_count()]  # (pairs {x, y} of X around d)
                    if code & 8:
                        onto |= bit
                        onto_reach += free_around
                    if code & 16:
                        domed |= bit
            counts.append(total)
            groups.append((worker, True))
            if domed:
                swapped += ((domed * spread) & (dests * shifted) & inside).bit_count()
            alternatives.append((worker, (builds1.bit_count() - 1) * reach - swapped + onto_reach,
                                 builds1, dests, onto, reach))
        for group in alternatives:  # (after every worker's plain turns)
            total += group[1]
            counts.append(total)
            groups.append(group)
        if not total:
            return None
        index = rng.randrange(total)  # (drawn, written out: its call costs 2 % of the turn)
        entry = bisect_right(counts, index)
        worker, plain, *alternative = groups[entry]
        if entry:
            index -= counts[entry - 1]
        origin, builds, moves = positions[worker], builds_of[worker], moves_of[worker]
        here = heights[origin]
        free = open_ | SQUARE_BITS[origin]
        if plain is True:  # the plain turn, to the drawn move and build
            code_of = codes_from[here]
            for to, bit, around in neighbour_bits[origin]:
                if open_ & bit:
                    kind = code_of[heights[to]] & 3
                    if kind == A_WIN:
                        if not index:
                            return (moves[to],), None
                        index -= 1
                    elif kind:
                        size = (free & around).bit_count()
                        if index < size:
                            for square in NEIGHBOURS[to]:
                                if free >> square & 1:
                                    if not index:
                                        height = heights[square]
                                        return (moves[to], builds[square]), (
                                            ("move", worker, origin, to, here, heights[to]),
                                            ("build", worker, square, height + (height < 3), height == 3))
                                    index -= 1
                        index -= size
            raise AssertionError("a counted move was not found")  # pragma: no cover - counts agree
        builds1, dests, onto, reach = alternative
        for first, bit, around in squares_of[builds1]:  # the first builds, to the drawn one
            height = heights[first]
            # less its share of the swapped turns: (d of D around it, a first build before it around d)
            size = reach - ((dests & around) * spread & (builds1 & _BELOW[first]) * shifted & inside).bit_count()
            if dests & bit:
                size -= (free & around).bit_count()
            if height == 3:  # (less a second build on the dome)
                size -= (dests & around).bit_count()
            if onto & bit:
                size += (free & around).bit_count()
            if index >= size:
                index -= size
                continue
            # its turns, by destination around the start (the first build itself, if the worker
            # may move onto it), then by second build
            near = dests & around  # (where the swapped turns and a dome's square are)
            excluded = ~(builds1 & _BELOW[first] | (bit if height == 3 else 0))
            for to, to_bit, to_around in squares_of[dests & ~bit | onto & bit]:
                seconds = free & to_around
                if near & to_bit:  # less the swapped turns, found before, and a dome's square
                    seconds &= excluded
                size = seconds.bit_count()
                if index >= size:
                    index -= size
                    continue
                for square in NEIGHBOURS[to]:  # (the first build raised its square by a block)
                    if seconds >> square & 1:
                        if not index:
                            break
                        index -= 1
                there = height + 1 if to == first else heights[to]
                second = height + 1 if square == first else heights[square]
                return (*use, builds[first], moves[to], builds[square]), (
                    *use, ("build", worker, first, height + (height < 3), height == 3),
                    ("move", worker, origin, to, here, there),
                    ("build", worker, square, second + (second < 3), second == 3))
            break
        raise AssertionError("a counted build was not found")  # pragma: no cover - counts agree
    pick.event_kinds = MOVES_AND_BUILDS | {"use"} if use else MOVES_AND_BUILDS  # type: ignore[attr-defined]  # (Picker)
    return pick

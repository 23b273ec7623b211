"""The plain turn beside a second turn of walks on a level, counted.

The second program: 'your workers may move any number of times, not up or down; then one of
your workers builds' (a move step by a worker chosen anew at each repetition, repeated any
number of times, then a build by any worker). The step chain searches it depth first
(steps.py, the repeated move's `again`): at each state it first lists the builds, then each
worker's moves in turn, and a state is explored once per (board hash, last worker to move)
(`_first_visit`). The board hash keys workers by class, so two workers of one class swapped are
the same state.

Why the count is of *distinct* outcomes. Nothing is built before the build, so an outcome of
the walks is a configuration of the workers (as the hash sees it: a set when the two are of one
class) and one build next to one of them; the builder is not part of the outcome. Each worker
stays on its own level, on the squares of that level it can reach: a component of the level's
free squares (flood fills on bits). Two workers in different components (or on different
levels) never meet, so their configurations are every pair of the two components; two workers
of one class in one component reach every set of two of its squares (unlabelled pebbles on a
connected graph can always be rearranged). So the walks' outcomes are, for each build square s,
the configurations not on s with a worker next to s: C(k, 2) - C(k - m, 2) for k squares of the
component off s, m of them next to s (k1 k2 - (k1 - m1)(k2 - m2) for two components). The plain
turn's outcomes come first; a walk outcome is also one of them exactly when its configuration
has one worker one step from its start on its level, the other on its start, and the build is
next to the one that stepped (a plain turn's outcome), and those are subtracted (a plain move up
or down, or a win, ends where no walk does). Anything else (another number of workers on the board, workers of two
classes) is counted by walking the whole search (`_every_outcome`), as the chain does.

The draw then walks the chain's own order only as far as the index: the plain turn's moves (as
plain.py counts them), then the walks depth first, keeping, for each square the other worker
stands on, the squares each worker's moves to have been explored (so that the next move tried
is the lowest bit of a mask), and counting the new builds of each configuration the first time
it is reached. A turn's steps are the search's path to where its build is found: a walk can be
hundreds of moves long, going back and forth. tests/test_fast_paths.py and tests/test_walks_picker.py compare both with
the generic chain.
"""

from __future__ import annotations

import dataclasses
from random import Random

from ..engine.actions import actions
from ..model.board import AROUND_BITS, NEIGHBOURS, SQUARE_BITS, ZOBRIST, grown
from ..model.state import GameState
from .bits import free_bits
from .plain import A_MOVE, A_WIN, MOVES_AND_BUILDS, _Moves, build_event, is_plain
from .shape import FastRules, StepSpec

#: The second program's steps, as the gate reads them.
WALK_STEPS = (StepSpec("move", "each", True, True, ("not_up_or_down",)), StepSpec("build", "any", False, False, ()))

#: SQUARE_OF[bit]: the square of a one-bit set.
_SQUARE_OF = {bit: square for square, bit in enumerate(SQUARE_BITS)}


def walks_picker(rules: FastRules) -> LevelWalks | None:
    """The counting picker of a seat whose programs are exactly the plain turn and the walks on
    a level (no option, follow-up or other part: any other seat keeps the listing path)."""
    if rules.extended or len(rules.programs) != 2 or rules.climb < 0 or not _nothing_else(rules):
        return None
    base, walks = rules.programs
    if not is_plain(base, rules) or walks.announced or walks.steps != WALK_STEPS:
        return None
    return LevelWalks(rules)


#: The parts of the fast paths' record that this picker reads; every other one must be absent.
_READ_PARTS = frozenset({"climb", "wins", "programs"})


def _nothing_else(rules: FastRules) -> bool:
    """Whether every part of the record but `_READ_PARTS` is absent (at its default, or empty):
    a part added to the record later is refused here until this picker learns it."""
    for part in dataclasses.fields(rules):
        if part.name in _READ_PARTS:
            continue
        value = getattr(rules, part.name)
        if part.default is not dataclasses.MISSING:
            absent = part.default
        elif part.default_factory is not dataclasses.MISSING:
            absent = part.default_factory()
        else:
            absent = type(value)()  # (the record's required lists: options and follow-ups)
        if value != absent:
            return False
    return True


def _component(square: int, level: int) -> int:
    """The squares of `level` (bits) connected to `square` by steps between them."""
    reached = SQUARE_BITS[square]
    while True:
        larger = grown(reached) & level
        if larger == reached:
            return reached
        reached = larger


def _nth(bits: int, index: int) -> int:
    """The square of the index-th lowest bit of `bits`."""
    for _ in range(index):
        bits &= bits - 1
    return (bits & -bits).bit_length() - 1


class LevelWalks:
    """A picker (counted.py's Picker) for the plain turn beside the walks on a level."""

    #: The kinds of event of its turns (counted.Picker).
    event_kinds = MOVES_AND_BUILDS

    def __init__(self, rules: FastRules) -> None:
        self.kinds = _Moves(rules).kinds

    def __call__(self, st: GameState, team: int, forbid_up: bool, forbid_down: bool, rng: Random,
                 free: int) -> tuple | None:
        positions, heights = st.worker_pos, st.heights
        workers = [w for w in st.members.get(team, ()) if positions[w] >= 0]
        if len(workers) != 2 or st.worker_class[workers[0]] != st.worker_class[workers[1]]:
            return self.listed(st, workers, forbid_up, forbid_down, rng)
        first, second = workers
        start1, start2 = positions[first], positions[second]
        open_ = free | SQUARE_BITS[start1] | SQUARE_BITS[start2]  # no dome, no other worker
        kinds_from = self.kinds[forbid_up][forbid_down]
        # the plain turn: each move's builds (plain.py's count), and those of the moves on the
        # level, which the walks reach too
        base = shared = 0
        ends: list[int] = []
        moves: list[tuple[int, int]] = []
        for worker, origin in ((first, start1), (second, start2)):
            here = heights[origin]
            kind_of = kinds_from[here]
            builds_on = free | SQUARE_BITS[origin]
            for to in NEIGHBOURS[origin]:
                if not free >> to & 1:
                    continue
                kind = kind_of[heights[to]]
                if kind == A_MOVE:
                    count = (builds_on & AROUND_BITS[to]).bit_count()
                    if heights[to] == here:
                        shared += count
                elif kind:
                    count = 1
                else:
                    continue
                base += count
                ends.append(base)
                moves.append((worker, to))
        # the walks: each worker's component on its level
        levels = st.level_field  # (board.LEVEL_BIT: the squares of level h at bits 25h on)
        level1 = levels >> 25 * heights[start1] & open_
        level2 = level1 if heights[start2] == heights[start1] else levels >> 25 * heights[start2] & open_
        reach1 = _component(start1, level1)
        walks = 0
        if reach1 >> start2 & 1:  # one component: every set of two of its squares
            size = reach1.bit_count()
            near = grown(reach1) & open_
            while near:
                low = near & -near
                near ^= low
                off = size - (1 if reach1 & low else 0)
                apart = off - (AROUND_BITS[low.bit_length() - 1] & reach1).bit_count()
                walks += (off * (off - 1) - apart * (apart - 1)) >> 1
        else:  # two components: every pair of a square of each
            reach2 = _component(start2, level2)
            size1, size2 = reach1.bit_count(), reach2.bit_count()
            near = (grown(reach1) | grown(reach2)) & open_
            while near:
                low = near & -near
                near ^= low
                around = AROUND_BITS[low.bit_length() - 1]
                off1 = size1 - (1 if reach1 & low else 0)
                off2 = size2 - (1 if reach2 & low else 0)
                walks += off1 * off2 - (off1 - (around & reach1).bit_count()) * (off2 - (around & reach2).bit_count())
        total = base + walks - shared
        if not total:
            return None
        index = rng.randrange(total)
        if index < base:
            return self.plain_turn(st, index, ends, moves, kinds_from)
        return self.walk_turn(st, first, second, index - base, open_, level1, level2)

    @staticmethod
    def plain_turn(st: GameState, index: int, ends: list[int], moves: list[tuple[int, int]], kinds_from: tuple
                   ) -> tuple:
        """The plain turn at `index`: (steps, events), events None for a win."""
        entry = 0
        while ends[entry] <= index:
            entry += 1
        if entry:
            index -= ends[entry - 1]
        worker, to = moves[entry]
        heights = st.heights
        origin = st.worker_pos[worker]
        here, there = heights[origin], heights[to]
        if kinds_from[here][there] == A_WIN:
            return (actions("move", worker)[to],), None
        square = _nth((free_bits(st) | SQUARE_BITS[origin]) & AROUND_BITS[to], index)
        return ((actions("move", worker)[to], actions("build", worker)[square]),
                (("move", worker, origin, to, here, there), build_event(worker, square, heights[square])))

    @staticmethod
    def walk_turn(st: GameState, first: int, second: int, index: int, open_: int, level1: int, level2: int
                  ) -> tuple:
        """The walks' index-th new outcome in the chain's depth-first order: (steps, events)."""
        around, bit = AROUND_BITS, SQUARE_BITS
        start1, start2 = st.worker_pos[first], st.worker_pos[second]
        # explored1[b]: the squares a such that the first worker's move to a with the second on
        # b has been explored (seen the other way round as well: the two are of one class), and
        # b itself (no move goes onto the other worker); explored2[a] likewise for the second
        # worker's moves to b with the first on a; met[b]: the a of the configurations reached
        explored1, explored2, met = list(bit), list(bit), [0] * 25
        square_of = _SQUARE_OF
        at1, at2 = start1, start2
        met[at2] |= bit[at1]
        met[at1] |= bit[at2]
        trail: list[int] = []  # where the two stood before each move of the walk, as at1 | at2 << 5
        push, pop = trail.append, trail.pop
        while True:
            builds = open_ & ~(bit[at1] | bit[at2])
            builds1 = around[at1] & builds
            builds2 = around[at2] & builds & ~builds1
            # a configuration the plain turn reached: one worker one step from its start, the
            # other on its start (either way round); the builds next to the one that stepped
            # are that turn's
            if at1 == start1:
                stepped = at2 if at2 != start2 and around[start2] >> at2 & 1 else -1
            elif at2 == start2:
                stepped = at1 if around[start1] >> at1 & 1 else -1
            elif at1 == start2:
                stepped = at2 if at2 != start1 and around[start1] >> at2 & 1 else -1
            elif at2 == start1:
                stepped = at1 if around[start2] >> at1 & 1 else -1
            else:
                stepped = -1
            if stepped >= 0:
                builds1 &= ~around[stepped]
                builds2 &= ~around[stepped]
            count1 = builds1.bit_count()
            if index < count1:
                return _walk_turn(st, first, second, trail, at1 | at2 << 5, first, _nth(builds1, index))
            index -= count1
            count2 = builds2.bit_count()
            if index < count2:
                return _walk_turn(st, first, second, trail, at1 | at2 << 5, second, _nth(builds2, index))
            index -= count2
            while True:  # on to the next configuration not yet reached
                onward = around[at1] & level1 & ~explored1[at2]
                if onward:
                    low = onward & -onward
                    push(at1 | at2 << 5)
                    explored1[at2] |= low
                    at1 = square_of[low]
                    explored1[at1] |= bit[at2]
                    if not met[at2] & low:
                        met[at2] |= low
                        met[at1] |= bit[at2]
                        break
                    continue
                onward = around[at2] & level2 & ~explored2[at1]
                if onward:
                    low = onward & -onward
                    push(at1 | at2 << 5)
                    explored2[at1] |= low
                    at2 = square_of[low]
                    explored2[at2] |= bit[at1]
                    if not met[at1] & low:
                        met[at1] |= low
                        met[at2] |= bit[at1]
                        break
                    continue
                if not trail:  # pragma: no cover - the count and the walk agree
                    raise AssertionError("a counted walk was not found")
                back = pop()
                at1, at2 = back & 31, back >> 5

    def listed(self, st: GameState, workers: list[int], forbid_up: bool, forbid_down: bool, rng: Random
               ) -> tuple | None:
        """The draw for any other number of workers, or workers of two classes: the chain's own
        search is walked through, and only the drawn turn is made."""
        plain, walks = _every_outcome(st, workers, self.kinds[forbid_up][forbid_down])
        total = len(plain) + sum(len(builds) for _, builds in walks)
        if not total:
            return None
        index = rng.randrange(total)
        if index < len(plain):
            return plain[index]
        index -= len(plain)
        for steps, builds in walks:
            if index < len(builds):
                return _walked(st, steps, *builds[index])
            index -= len(builds)
        raise AssertionError("a counted walk was not found")  # pragma: no cover - counts agree


def _walk_turn(st: GameState, first: int, second: int, trail: list[int], last: int, builder: int,
               square: int) -> tuple:
    """(steps, events) of the walk through the configurations of `trail` to `last` (each as
    where the first worker stands | where the second does << 5), then the build."""
    heights = st.heights
    moves1, moves2 = actions("move", first), actions("move", second)
    steps, events = [], []
    trail.append(last)
    before = trail[0]
    for after in trail[1:]:
        if (before ^ after) & 31:
            origin, to = before & 31, after & 31
            steps.append(moves1[to])
            events.append(("move", first, origin, to, heights[origin], heights[to]))
        else:
            origin, to = before >> 5, after >> 5
            steps.append(moves2[to])
            events.append(("move", second, origin, to, heights[origin], heights[to]))
        before = after
    steps.append(actions("build", builder)[square])
    events.append(build_event(builder, square, heights[square]))
    return tuple(steps), tuple(events)


def _walked(st: GameState, steps: tuple, builder: int, square: int) -> tuple:
    """(steps, events) of a walk of `steps` then the build of `builder` on `square`."""
    heights = st.heights
    where = {}
    events = []
    for _, worker, to in steps:
        origin = where.get(worker, st.worker_pos[worker])
        events.append(("move", worker, origin, to, heights[origin], heights[to]))
        where[worker] = to
    events.append(build_event(builder, square, heights[square]))
    return (*steps, actions("build", builder)[square]), tuple(events)


def _every_outcome(st: GameState, workers: list[int], kinds_from: tuple) -> tuple[list[tuple], list[tuple]]:
    """The distinct outcomes in the chain's order, by the chain's own search (outcomes keyed by
    the workers' hash keys and the build's square): the plain turn's, as (steps, events); then,
    for each configuration the walks reach with new outcomes, (the moves there, its new builds
    as (worker, square))."""
    positions, heights = st.worker_pos, st.heights
    free = free_bits(st)
    plain: list[tuple] = []
    walks: list[tuple] = []
    keys = ZOBRIST.worker
    key_of = [keys[st.worker_class[w]] for w in workers]
    start = [positions[w] for w in workers]
    config = 0
    for i, square in enumerate(start):
        config ^= key_of[i][square]
    reached: set[tuple[int, int]] = set()
    for i, worker in enumerate(workers):  # the plain turn (wins are outcomes of their own)
        origin = start[i]
        kind_of = kinds_from[heights[origin]]
        builds_on = free | SQUARE_BITS[origin]
        moved = config ^ key_of[i][origin]
        for to in NEIGHBOURS[origin]:
            if not free >> to & 1:
                continue
            kind = kind_of[heights[to]]
            if kind == A_WIN:
                plain.append(((actions("move", worker)[to],), None))
            elif kind == A_MOVE:
                for square in NEIGHBOURS[to]:
                    if builds_on >> square & 1:
                        reached.add((moved ^ key_of[i][to], square))
                        plain.append(((actions("move", worker)[to], actions("build", worker)[square]),
                                      (("move", worker, origin, to, heights[origin], heights[to]),
                                       build_event(worker, square, heights[square]))))
    open_ = free
    for square in start:
        open_ |= SQUARE_BITS[square]
    at = list(start)
    visited = {(config, -1)}
    seen: set[int] = set()
    steps: list[tuple] = []
    trail: list[tuple[int, int, int]] = []  # (worker's index, where it came from, the key before)

    def builds() -> None:
        if config in seen:
            return
        seen.add(config)
        occupied = 0
        for square in at:
            occupied |= SQUARE_BITS[square]
        new = []
        for i, worker in enumerate(workers):
            for square in NEIGHBOURS[at[i]]:
                if (open_ & ~occupied) >> square & 1 and (config, square) not in reached:
                    reached.add((config, square))
                    new.append((worker, square))
        if new:
            walks.append((tuple(steps), new))

    def onward() -> list[tuple[int, int]]:
        occupied = 0
        for square in at:
            occupied |= SQUARE_BITS[square]
        return [(i, to) for i in range(len(workers)) for to in NEIGHBOURS[at[i]]
                if (open_ & ~occupied) >> to & 1 and heights[to] == heights[at[i]]]

    builds()
    frames = [(onward(), [0])]
    while frames:
        candidates, next_ = frames[-1]
        if next_[0] == len(candidates):
            frames.pop()
            if trail:
                i, back, config = trail.pop()
                at[i] = back
                steps.pop()
            continue
        i, to = candidates[next_[0]]
        next_[0] += 1
        after = config ^ key_of[i][at[i]] ^ key_of[i][to]
        if (after, workers[i]) in visited:
            continue
        visited.add((after, workers[i]))
        trail.append((i, at[i], config))
        at[i], config = to, after
        steps.append(actions("move", workers[i])[to])
        builds()
        frames.append((onward(), [0]))
    return plain, walks


__all__ = ["LevelWalks", "WALK_STEPS", "walks_picker"]

"""The plain turn with the turns 'each of your workers moves' and 'each of your workers builds',
counted.

A seat may have, after the plain turn, the programs 'each of your workers moves' (every worker
moves once, in the order the player picks, and none builds) and 'each of your workers builds'
(none moves; every worker builds once, in any order): `FastRules.each_worker`. The step chain
lists the plain turn's outcomes, then each such program's new ones, the workers' orders in the
team's order (A first, then B first). The closed forms below are for a team of one or two
workers on the board, which every shipped setup gives; with more, the picker answers DEFERRED and
the engine lists the turns.

Moves, with workers A on a and B on b, F the free squares: the first move ends the turn if it
wins, and the board is then the plain turn's win (nothing is built): no new outcome. Otherwise
the outcome is where both stand, (x, y), a win if the second move wins. A first: x among A's
moves that do not win on F (`XA`), y among B's moves on F, a included, but x (`YB`). B first: y
in `XB`, x in `YA` (b included, but y). A pair reached both ways is one outcome, found A first;
B first adds only the pairs whose x A could not reach first: b itself, or a square where A's move
wins. No pair is a swap (each worker's second square is free before the turn or the other's).

Builds, around a and b (NA, NB, free squares): the outcome is the pieces added, a set {p, q}
with p around a and q around b; p = q is two pieces on one square, unless the first build domes
it. A first lists every such set: with both orders written out, (p, q) and (q, p) for p, q both
around a and b are one set, found at the first of them in a's neighbour order, and B first adds
nothing. So there are |NA| |NB| - C(|I|, 2) - |I on level 3| of them, I = NA & NB.

tests/test_fast_paths.py compares the picker with the generic chain, every index, and
tests/test_masked_picker.py has positions made for it, counted by hand.
"""

from __future__ import annotations

from random import Random

from ..engine.actions import actions
from ..model.board import ALL_BITS, AROUND_BITS, NEIGHBOURS, SQUARE_BITS
from ..model.state import GameState
from .counted import DEFERRED, move_readers
from .plain import MOVES_AND_BUILDS, PlainCount, _Moves, build_event, is_plain, nth_free
from .shape import FastRules, without

#: The programs each_worker may name, in the order this module takes them.
KNOWN_ORDERS = (("move",), ("build",), ("move", "build"))


def every_picker(rules: FastRules) -> EveryWorkerTurns | None:
    """The counting picker of the plain turn followed by 'each of your workers moves' and/or
    '... builds' programs, else None."""
    if rules.each_worker not in KNOWN_ORDERS or len(rules.programs) != 1 \
            or not is_plain(rules.programs[0], rules) or rules.move_options or rules.build_options:
        return None
    if without(rules, frozenset(("each_worker",))).extended:
        return None
    return EveryWorkerTurns(rules)


class EveryWorkerTurns:
    """A picker (counted.py's Picker) for the plain turn and the every-worker turns."""

    #: The kinds of event of its turns (counted.Picker).
    event_kinds = MOVES_AND_BUILDS

    def __init__(self, rules: FastRules) -> None:
        self.kinds = _Moves(rules).kinds
        self.programs = rules.each_worker
        #: where a move from each level goes, then wins, read from the level field
        self.readers = move_readers(self.kinds)

    def __call__(self, st: GameState, team: int, forbid_up: bool, forbid_down: bool, rng: Random,
                 free: int) -> tuple | None:
        kinds = self.kinds[forbid_up][forbid_down]
        positions = st.worker_pos
        workers = [w for w in st.members.get(team, ()) if positions[w] >= 0]
        if not workers:
            return None  # (no worker, no turn of any program)
        if len(workers) > 2:
            return DEFERRED  # (the closed forms below are for two workers, what every setup gives)
        count = PlainCount(st, team, kinds, free)
        total = plain = count.total
        reach = self.readers[forbid_up][forbid_down](st.level_field, ALL_BITS) if "move" in self.programs else ()
        sizes = []
        for verb in self.programs:
            size = self.count_moves(st, reach, free, workers) if verb == "move" \
                else self.count_builds(st, free, workers)
            sizes.append(size)
            total += size
        if not total:
            return None
        index = rng.randrange(total)
        if index >= plain:
            index -= plain
            for verb, size in zip(self.programs, sizes):
                if index < size:
                    return self.decode_moves(st, reach, free, workers, index) if verb == "move" \
                        else self.decode_builds(st, free, workers, index)
                index -= size
        return count.draw(index)

    # ---- every worker moves
    @staticmethod
    def targets(st: GameState, reach: tuple[int, ...], worker: int, open_: int) -> tuple[int, int]:
        """(the squares of `open_` a move of the worker goes to without winning, those it wins on);
        `reach`: the squares a move from each level goes to, then wins on (READERS)."""
        origin = st.worker_pos[worker]
        level, around = st.heights[origin], AROUND_BITS[origin] & open_
        return around & reach[level], around & reach[4 + level]

    def move_sets(self, st: GameState, reach: tuple[int, ...], free: int, workers: list[int]) -> tuple[int, ...]:
        """For two workers, A then B in the team's order: (XA, XB: each one's first moves that do
        not win; the second moves of B after A, that do not win and that win; those of A after
        B, the same)."""
        first, second = workers
        a, b = st.worker_pos[first], st.worker_pos[second]
        return (self.targets(st, reach, first, free)[0], self.targets(st, reach, second, free)[0],
                *self.targets(st, reach, second, free | SQUARE_BITS[a]),
                *self.targets(st, reach, first, free | SQUARE_BITS[b]))

    def count_moves(self, st: GameState, reach: tuple[int, ...], free: int, workers: list[int]) -> int:
        """The new outcomes of 'each of your workers moves' (see the module's docstring)."""
        if len(workers) == 1:  # its moves that do not win (a win is the plain turn's)
            return self.targets(st, reach, workers[0], free)[0].bit_count()
        xa, xb, yb_moves, yb_wins, ya_moves, ya_wins = self.move_sets(st, reach, free, workers)
        only_later = (ya_moves | ya_wins) & ~xa  # what A reaches only after B has moved: b, or a win
        total = xa.bit_count() * (yb_moves | yb_wins).bit_count() - (xa & (yb_moves | yb_wins)).bit_count() \
            + xb.bit_count() * only_later.bit_count() - (xb & only_later).bit_count()
        if st.worker_class[workers[0]] != st.worker_class[workers[1]]:
            return total
        # Workers alike leave the same board when they stand on each other's final squares: the
        # pairs (x, y) and (y, x) that are both turns and both win or both do not are one outcome.
        later_no, later_win = only_later & ~ya_wins, only_later & ya_wins
        doubles = 0
        squares = xa | only_later
        while squares:  # x: where A ends; its B squares y by win (R), and the y whose (y, x) is a turn too
            low = squares & -squares
            squares ^= low
            if xa & low:
                ends_no, ends_win = yb_moves, yb_wins
            else:
                ends_no, ends_win = (xb, 0) if later_no & low else (0, xb)
            back_no = (xa if yb_moves & low else 0) | (later_no if xb & low else 0)
            back_win = (xa if yb_wins & low else 0) | (later_win if xb & low else 0)
            doubles += (ends_no & back_no & ~low).bit_count() + (ends_win & back_win & ~low).bit_count()
        # and a pair that wins where one worker moved onto the other's square leaves the board of
        # a plain win: the other worker's square and where the one moved to win at once
        first, second = workers
        a, b = st.worker_pos[first], st.worker_pos[second]
        plain_a, plain_b = self.targets(st, reach, first, free)[1], self.targets(st, reach, second, free)[1]
        met = ((xa & plain_b).bit_count() if yb_wins >> a & 1 else 0) \
            + ((xb & plain_a).bit_count() if ya_wins >> b & 1 else 0)
        return total - doubles // 2 - met

    def decode_moves(self, st: GameState, reach: tuple[int, ...], free: int, workers: list[int], index: int) -> tuple:
        """The `index`-th new outcome of 'each of your workers moves', walking the chain's order."""
        heights, positions = st.heights, st.worker_pos
        if len(workers) == 1:
            worker = workers[0]
            square = nth_free(positions[worker], self.targets(st, reach, worker, free)[0], index)
            origin = positions[worker]
            return (actions("move", worker)[square],), (("move", worker, origin, square, heights[origin],
                                                          heights[square]),)
        first, second = workers
        xa, xb, yb_moves, yb_wins, ya_moves, ya_wins = self.move_sets(st, reach, free, workers)
        alike = st.worker_class[first] == st.worker_class[second]
        seen: set[tuple[int, int, bool]] = set()
        if alike:  # the boards of the plain turn's wins, found before (see count_moves)
            a, b = positions[first], positions[second]
            for won_at, stays in ((self.targets(st, reach, second, free)[1], a), (self.targets(st, reach, first, free)[1], b)):
                for square in NEIGHBOURS[positions[second if stays == a else first]]:
                    if won_at >> square & 1:
                        seen.add((min(square, stays), max(square, stays), True))
        for mover, firsts, later, later_wins, other in ((first, xa, yb_moves | yb_wins, yb_wins, second),
                                                        (second, xb, ya_moves | ya_wins, ya_wins, first)):
            for there in NEIGHBOURS[positions[mover]]:
                if not firsts >> there & 1:
                    continue
                for then in NEIGHBOURS[positions[other]]:
                    if not later >> then & 1 or then == there:
                        continue
                    won = bool(later_wins >> then & 1)
                    x, y = (there, then) if mover == first else (then, there)  # (A's square, B's)
                    key = (min(x, y), max(x, y), won) if alike else (x, y, won)
                    if key in seen:
                        continue
                    seen.add(key)
                    if index:
                        index -= 1
                        continue
                    steps = (actions("move", mover)[there], actions("move", other)[then])
                    if won:
                        return steps, None  # (the second move wins: the engine plays it)
                    here, other_here = positions[mover], positions[other]
                    return steps, (("move", mover, here, there, heights[here], heights[there]),
                                   ("move", other, other_here, then, heights[other_here], heights[then]))
        raise AssertionError("a counted turn was not found")  # pragma: no cover - counts agree

    # ---- every worker builds
    @staticmethod
    def count_builds(st: GameState, free: int, workers: list[int]) -> int:
        """The outcomes of 'each of your workers builds' (see the module's docstring)."""
        positions = st.worker_pos
        if len(workers) == 1:
            return (free & AROUND_BITS[positions[workers[0]]]).bit_count()
        near_a, near_b = (free & AROUND_BITS[positions[w]] for w in workers)
        both = near_a & near_b
        shared = both.bit_count()
        domed = sum(1 for square in NEIGHBOURS[positions[workers[0]]] if both >> square & 1 and st.heights[square] == 3)
        return near_a.bit_count() * near_b.bit_count() - shared * (shared - 1) // 2 - domed

    @staticmethod
    def decode_builds(st: GameState, free: int, workers: list[int], index: int) -> tuple:
        heights, positions = st.heights, st.worker_pos
        if len(workers) == 1:
            worker = workers[0]
            square = nth_free(positions[worker], free, index)
            return (actions("build", worker)[square],), (build_event(worker, square, heights[square]),)
        first, second = workers
        near_a, near_b = (free & AROUND_BITS[positions[w]] for w in workers)
        both = near_a & near_b
        before = 0  # the squares around both that came earlier in a's order: their pairs are out
        for p in NEIGHBOURS[positions[first]]:
            if not near_a >> p & 1:
                continue
            height = heights[p]
            onward = near_b & ~(before if both >> p & 1 else 0)
            if height == 3:
                onward &= ~SQUARE_BITS[p]  # (the first build domes it)
            size = onward.bit_count()
            if both >> p & 1:
                before |= SQUARE_BITS[p]
            if index >= size:
                index -= size
                continue
            q = nth_free(positions[second], onward, index)
            second_height = height + 1 if q == p else heights[q]
            return (actions("build", first)[p], actions("build", second)[q]), \
                (build_event(first, p, height), build_event(second, q, second_height))
        raise AssertionError("a counted turn was not found")  # pragma: no cover - counts agree


"""The plain turn, then 'if your unmoved worker is on the ground level, it may build up to three
times', counted.

After the move to t and its build, the unmoved worker U, if it stands on one of the levels the
guard names, may build up to N times around itself (`FastRules.unmoved_builds`). For a team of
one or two workers (every shipped setup; with more the picker answers DEFERRED and the engine
lists the turns), a move's outcomes are the pieces added: a multiset S of squares, the main
build b (around t) and U's builds E (around U, free once the worker has moved: R), at most
4 - height pieces on a square, |E| <= N. Different (b, E) leave the same board when they add the
same S, so the count is of the S that some b makes:

* S within R, holding a square of B (the main build's squares), 1 <= |S| <= N + 1:
  ways(R, N + 1) - ways(R - B, N + 1), `ways` counting the vectors of pieces (paid.py);
* one piece on a square x of B outside R, and any E: |B - R| ways(R, N).

The chain lists each b in neighbour order around t, then U's builds depth first (no build, then
each square around U in order, and on); a board is kept the first time it is found. So the
outcomes of a build b are its own S: those whose first main build, in the order around t, is b
(a b outside R owns all of its E; a b in R owns the E that hold no earlier square of B and R), in
the order of U's builds sorted around U (`paid.nth_builds`). A winning move ends the turn: one
outcome, played by the engine. tests/test_fast_paths.py compares the picker with the generic
chain, every index, and tests/test_masked_picker.py has a position counted by hand.
"""

from __future__ import annotations

from random import Random

from ..derived.later_builds import nth_builds, shape_of, ways
from ..engine.actions import actions
from ..model.board import AROUND_BITS, NEIGHBOUR_BITS, NEIGHBOURS, SQUARE_BITS
from ..model.state import GameState
from .bits import levels_of
from .counted import DEFERRED, drawn
from .plain import A_MOVE, A_WIN, MOVES_AND_BUILDS, _Moves, build_event, is_plain
from .shape import FastRules, without


def unmoved_builds_picker(rules: FastRules) -> UnmovedBuilds | None:
    """The counting picker of the plain turn with the unmoved worker's builds after it, and
    nothing else; else None."""
    if rules.unmoved_builds is None or len(rules.programs) != 1 or not is_plain(rules.programs[0], rules) \
            or rules.move_options or rules.build_options:
        return None
    if without(rules, frozenset(("unmoved_builds",))).extended:
        return None
    return UnmovedBuilds(rules)


class UnmovedBuilds:
    """A picker (counted.py's Picker) for the plain turn with the unmoved worker's builds."""

    #: The kinds of event of its turns (counted.Picker).
    event_kinds = MOVES_AND_BUILDS

    def __init__(self, rules: FastRules) -> None:
        self.kinds = _Moves(rules).kinds
        self.times, self.levels = rules.unmoved_builds

    def __call__(self, st: GameState, team: int, forbid_up: bool, forbid_down: bool, rng: Random,
                 free: int) -> tuple | None:
        kinds = self.kinds[forbid_up][forbid_down]
        heights, positions = st.heights, st.worker_pos
        workers = [w for w in st.members.get(team, ()) if positions[w] >= 0]
        if len(workers) > 2:
            return DEFERRED
        _, level_1, level_2, level_3 = levels_of(st.level_field)
        level_0 = ~(level_1 | level_2 | level_3)
        times = self.times

        def pieces(squares: int) -> tuple[int, int, int, int]:  # (how many take 1, 2, 3, 4 pieces)
            return ((squares & level_3).bit_count(), (squares & level_2).bit_count(),
                    (squares & level_1).bit_count(), (squares & level_0).bit_count())
        total = 0
        ends: list[int] = []
        moves: list[tuple[int, int, int]] = []  # (worker, destination, its kind)
        for worker in workers:
            origin = positions[worker]
            kind_of = kinds[heights[origin]]
            open_ = free | SQUARE_BITS[origin]
            builder = self.builder(st, workers, worker)
            reach = AROUND_BITS[positions[builder]] & open_ if builder >= 0 else 0
            for to, bit, around in NEIGHBOUR_BITS[origin]:
                if not free & bit:
                    continue
                kind = kind_of[heights[to]]
                if kind == A_WIN:
                    total += 1
                elif kind == A_MOVE:
                    builds = open_ & around
                    if not builds:
                        continue
                    near = reach & ~bit  # (R: free once the worker moved, and not where it went)
                    if near:
                        total += ways(pieces(near), times + 1) - ways(pieces(near & ~builds), times + 1) \
                            + (builds & ~near).bit_count() * ways(pieces(near), times)
                    else:
                        total += builds.bit_count()
                else:
                    continue
                ends.append(total)
                moves.append((worker, to, kind))
        if not total:
            return None
        (worker, to, kind), index = drawn(ends, moves, total, rng)
        move = actions("move", worker)[to]
        if kind == A_WIN:
            return (move,), None
        return self.decode(st, workers, worker, to, free, index)

    def builder(self, st: GameState, workers: list[int], mover: int) -> int:
        """The unmoved worker who may build after a move of `mover`, or -1 (none, or not on the
        guard's levels)."""
        for other in workers:
            if other != mover:
                return other if st.heights[st.worker_pos[other]] in self.levels else -1
        return -1

    def decode(self, st: GameState, workers: list[int], worker: int, to: int, free: int, index: int) -> tuple:
        """The move's `index`-th turn in the chain's order: (steps, events)."""
        heights, positions = st.heights, st.worker_pos
        origin = positions[worker]
        after = (free | SQUARE_BITS[origin]) & ~SQUARE_BITS[to]
        builder = self.builder(st, workers, worker)
        near = AROUND_BITS[positions[builder]] & after if builder >= 0 else 0
        around_builder = [s for s in NEIGHBOURS[positions[builder]] if near >> s & 1] if builder >= 0 else []
        steps = (actions("move", worker)[to],)
        moved = ("move", worker, origin, to, heights[origin], heights[to])
        earlier = 0  # the main builds already tried that a later one's E may not hold (in R and B)
        for build in NEIGHBOURS[to]:
            if not after >> build & 1:
                continue
            # (a build off R owns every E: no earlier build leaves the same board without it)
            squares = [s for s in around_builder if not earlier >> s & 1] if near >> build & 1 else around_builder
            caps = [4 - heights[s] - (s == build) for s in squares]
            size = ways(shape_of(caps), self.times) if builder >= 0 else 1
            if near >> build & 1:
                earlier |= SQUARE_BITS[build]
            if index >= size:
                index -= size
                continue
            built = nth_builds(squares, caps, self.times, index) if builder >= 0 else []
            steps += (actions("build", worker)[build],)
            events = [moved, build_event(worker, build, heights[build])]
            height_now = {build: heights[build] + 1}
            for square in built:
                height = height_now.get(square, heights[square])
                steps += (actions("build", builder)[square],)
                events.append(build_event(builder, square, height))
                height_now[square] = height + 1
            return steps, tuple(events)
        raise AssertionError("a counted turn was not found")  # pragma: no cover - counts agree

"""The plain turn whose build is any number of builds, each paid from a counter, counted.

'Start of your turn: you gain 1 coin. Your build: your worker may build any number of times
instead, spending 1 coin each time' (`FastRules.gains`, `FastRules.paid_builds`): the moved
worker builds 0 to K times, K the coins on the card once the turn's gain is made, each build an
ordinary one around it (the same square again included, a dome only on level 3).

The outcomes of one move are what its builds add, square by square: c_s pieces on each square s
around the destination that is free once the worker has moved, 0 <= c_s <= 4 - height (the
blocks left, and the dome), sum c_s <= K. Two different sets of counts leave different boards,
and the coins left (K - sum c_s) follow from the board. Their number depends only on how many of
the squares can take 1, 2, 3 or 4 pieces and on K: `ways` counts the vectors once per such
shape (a product of polynomials, truncated), and keeps it.

The chain's order: after the move, the turn with no build, then each first build in neighbour
order and, depth first, its extensions. A set of builds is first found in its builds' order
around the destination (a later square, or the same one again: any other order of the same
builds comes after it in a depth-first walk), so the outcomes are the non-decreasing sequences
of build squares, in that order; `nth_builds` skips whole subtrees by their sizes (`ways` again).
A winning move ends the turn: one outcome, played by the engine. tests/test_fast_paths.py
compares the picker with the generic chain, every index, and tests/test_masked_picker.py has a
position counted by hand.
"""

from __future__ import annotations

from random import Random

from ..derived.later_builds import nth_builds, ways
from ..engine.actions import actions
from ..model.board import NEIGHBOUR_BITS, NEIGHBOURS, SQUARE_BITS
from ..model.state import GameState
from .bits import levels_of
from .counted import drawn
from .plain import A_MOVE, A_WIN, MOVES_AND_BUILDS, _Moves, build_event, is_plain
from .shape import FastRules, without


def paid_picker(rules: FastRules) -> PaidBuilds | None:
    """The counting picker of the plain turn whose build is replaced by paid builds, with the
    turn's gains, and nothing else; else None."""
    if rules.paid_builds is None or len(rules.programs) != 1 or not is_plain(rules.programs[0], rules) \
            or rules.move_options or rules.build_options or rules.followups:
        return None
    if without(rules, frozenset(("gains", "paid_builds"))).extended:
        return None
    return PaidBuilds(rules)


class PaidBuilds:
    """A picker (counted.py's Picker) for the plain turn with paid builds."""

    #: The kinds of event of its turns (counted.Picker).
    event_kinds = MOVES_AND_BUILDS | {"counter"}

    def __init__(self, rules: FastRules) -> None:
        self.kinds = _Moves(rules).kinds
        self.gains, self.counter = rules.gains, rules.paid_builds

    def __call__(self, st: GameState, team: int, forbid_up: bool, forbid_down: bool, rng: Random,
                 free: int) -> tuple | None:
        kinds = self.kinds[forbid_up][forbid_down]
        heights, positions, seat = st.heights, st.worker_pos, st.to_move
        counters = st.counters
        gained = tuple((name, counters.get((seat, name), 0) + amount) for name, amount in self.gains)
        budget = dict(gained).get(self.counter, counters.get((seat, self.counter), 0))
        _, level_1, level_2, level_3 = levels_of(st.level_field)
        level_0 = ~(level_1 | level_2 | level_3)
        total = 0
        ends: list[int] = []
        moves: list[tuple[int, int, int]] = []  # (worker, destination, its kind)
        for worker in st.members.get(team, ()):
            origin = positions[worker]
            if origin < 0:
                continue
            kind_of = kinds[heights[origin]]
            open_ = free | SQUARE_BITS[origin]
            for to, bit, around in NEIGHBOUR_BITS[origin]:
                if not free & bit:
                    continue
                kind = kind_of[heights[to]]
                if kind == A_WIN:
                    total += 1
                elif kind == A_MOVE:
                    builds = open_ & around
                    # (the squares by the pieces they can take: 1 on level 3, ..., 4 on level 0)
                    total += ways(((builds & level_3).bit_count(), (builds & level_2).bit_count(),
                                    (builds & level_1).bit_count(), (builds & level_0).bit_count()), budget) \
                        if builds and budget else 1
                else:
                    continue
                ends.append(total)
                moves.append((worker, to, kind))
        if not total:
            return None
        (worker, to, kind), index = drawn(ends, moves, total, rng)
        move = actions("move", worker)[to]
        started = tuple(("counter", seat, name, value) for name, value in gained)
        if kind == A_WIN:
            return (move,), None
        origin = positions[worker]
        squares = [s for s in NEIGHBOURS[to] if (free | SQUARE_BITS[origin]) >> s & 1]
        built = nth_builds(squares, [4 - heights[s] for s in squares], budget, index)
        steps, events = [move], [*started, ("move", worker, origin, to, heights[origin], heights[to])]
        height_now = {s: heights[s] for s in squares}
        coins = budget
        for square in built:
            steps.append(actions("build", worker)[square])
            events.append(build_event(worker, square, height_now[square]))
            height_now[square] += 1
            coins -= 1
            events.append(("counter", seat, self.counter, coins))
        return tuple(steps), tuple(events)

"""The plain turn, then 'your unmoved worker may remove a block from an unoccupied neighboring
space', counted.

After a move and its build, the seat's unmoved workers may take the top block off one space around
them that no worker stands on and no dome tops (`FastRules.unmoved_removes`). Two turns of
different moves leave the workers on different squares, so the outcomes of each move are counted
apart. For one move, with builds B (the free squares around the destination) and the squares R
around the unmoved workers that hold a block, are free once the worker has moved, and carry no
dome:

* each build b alone is one outcome: the board with one more piece on b;
* each build b and a removal from r != b is one outcome: one more piece on b, one less on r. No two
  of these meet, and none meets a build alone (whose board holds one piece more);
* a build on b and its removal at once (b around an unmoved worker, and below level 3, so that the
  build is a block) leave the board as it was before the build, whatever b is: every such pair is
  one outcome, the first one the chain finds.

So a move's count is, over its builds b, 1 + |R - {b}| + [b may be undone], less all but one of the
builds that may be undone. The step chain's order is each build in neighbour order, then its turn
without a removal, then each removal, by the unmoved workers in order and each one's neighbours in
order (a square found once); `decode` walks that order, skipping the undone pairs after the first.
A winning move ends the turn: one outcome, played by the engine. tests/test_fast_paths.py compares
the picker with the generic chain, every index, and tests/test_masked_picker.py has positions made
for it, counted by hand.
"""

from __future__ import annotations

from collections.abc import Sequence
from random import Random

from ..engine.actions import actions
from ..model.board import ALL_BITS, AROUND_BITS, NEIGHBOUR_BITS, NEIGHBOURS, SQUARE_BITS
from ..model.state import GameState
from .counted import drawn
from .plain import A_MOVE, A_WIN, MOVES_AND_BUILDS, _Moves, build_event, is_plain
from .shape import FastRules, without


def removal_picker(rules: FastRules) -> RemovalAfterTurn | None:
    """The counting picker of the plain turn whose only other part is the unmoved workers'
    removal of a block at the end of the turn, else None."""
    if not rules.unmoved_removes or len(rules.programs) != 1 or not is_plain(rules.programs[0], rules) \
            or rules.move_options or rules.build_options:
        return None
    if without(rules, frozenset(("unmoved_removes",))).extended:
        return None
    return RemovalAfterTurn(rules)


class RemovalAfterTurn:
    """A picker (counted.py's Picker) for the plain turn with the unmoved workers' removal."""

    #: The kinds of event of its turns (counted.Picker).
    event_kinds = MOVES_AND_BUILDS | {"unbuild"}

    def __init__(self, rules: FastRules) -> None:
        self.kinds = _Moves(rules).kinds

    def __call__(self, st: GameState, team: int, forbid_up: bool, forbid_down: bool, rng: Random,
                 free: int) -> tuple | None:
        kinds = self.kinds[forbid_up][forbid_down]
        heights, positions = st.heights, st.worker_pos
        levels = st.level_field
        blocks = ALL_BITS & ~levels & ~st.dome_bits  # (squares a removal may take from: not on level 0)
        below_3 = ALL_BITS ^ levels >> 75  # (a build there is a block, which a removal may undo)
        workers = st.members.get(team, ())
        total = 0
        ends: list[int] = []
        moves: list[tuple[int, int, int]] = []  # (worker, destination, its kind)
        for worker in workers:
            origin = positions[worker]
            if origin < 0:
                continue
            kind_of = kinds[heights[origin]]
            reach = 0
            for other in workers:
                if other != worker and positions[other] >= 0:
                    reach |= AROUND_BITS[positions[other]]
            open_ = free | SQUARE_BITS[origin]  # (free once the worker moved, but for its destination)
            removable = reach & blocks & open_  # (and not the destination: `to` is taken off below)
            removals = removable.bit_count()
            undoable = reach & below_3
            for to, bit, around in NEIGHBOUR_BITS[origin]:
                if not free & bit:
                    continue
                kind = kind_of[heights[to]]
                if kind == A_WIN:
                    total += 1
                elif kind == A_MOVE:
                    builds = open_ & around  # (a square is not around itself: `to` is not in it)
                    if not builds:
                        continue
                    # over the builds: alone, with each removal but from their own square, undone once
                    total += builds.bit_count() * (1 + removals - (removable >> to & 1)) \
                        - (builds & removable).bit_count() + (1 if builds & undoable else 0)
                else:
                    continue
                ends.append(total)
                moves.append((worker, to, kind))
        if not total:
            return None
        (worker, to, kind), index = drawn(ends, moves, total, rng)
        if kind == A_WIN:
            return (actions("move", worker)[to],), None
        return self.decode(st, worker, to, index, free, blocks, below_3, workers)

    @staticmethod
    def decode(st: GameState, worker: int, to: int, index: int, free: int, blocks: int, below_3: int,
               workers: Sequence[int]) -> tuple:
        """The move's `index`-th turn in the chain's order: (steps, events)."""
        heights, positions = st.heights, st.worker_pos
        origin = positions[worker]
        after = (free | SQUARE_BITS[origin]) & ~SQUARE_BITS[to]
        others = [other for other in workers if other != worker and positions[other] >= 0]
        reach = 0
        for other in others:
            reach |= AROUND_BITS[positions[other]]
        removable, undoable = reach & blocks & after, reach & below_3
        removals = removable.bit_count()
        move_event = ("move", worker, origin, to, heights[origin], heights[to])
        steps = (actions("move", worker)[to],)
        undone_met = False
        for build in NEIGHBOURS[to]:
            if not after >> build & 1:
                continue
            bit = SQUARE_BITS[build]
            undo = not undone_met and bool(undoable & bit)
            size = 1 + removals - (1 if removable & bit else 0) + undo  # (this build's turns: skipped whole)
            if index >= size:
                index -= size
                undone_met = undone_met or undo
                continue
            height = heights[build]
            built = (*steps, actions("build", worker)[build])
            made = build_event(worker, build, height)
            if not index:
                return built, (move_event, made)
            index -= 1
            seen = 0  # the removals in the chain's order: the unmoved workers in order, a square once
            for remover in others:
                for square in NEIGHBOURS[positions[remover]]:
                    if not after >> square & 1 or seen >> square & 1:
                        continue
                    seen |= SQUARE_BITS[square]
                    if square == build:
                        if not undo:
                            continue  # (the build domed it, or an earlier build's removal left this board)
                    elif not removable >> square & 1:
                        continue
                    if not index:
                        left = height if square == build else heights[square] - 1
                        return (*built, actions("unbuild", remover)[square]), \
                            (move_event, made, ("unbuild", remover, square, left))
                    index -= 1
        raise AssertionError("a counted turn was not found")  # pragma: no cover - counts agree

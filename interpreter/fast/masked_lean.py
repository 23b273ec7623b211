"""The masked picker's lean form, for a plain turn whose only parts are masks of squares.

Of the parts masked.py counts, five change only which squares count and what a move's kind is:
another seat's ban on moves or on builds, its veto of wins, another win of the seat's moves on
some squares, and a win by complete towers (which changes no count: a build that may make it is
played by the engine). With no other part in a seat's turn, a draw needs none of masked.py's
machinery (the `_Pick` record, forces, slides, other builders, the end-of-turn steps), and each
draw is one short function: count the turns of each worker with masks, draw, decode. A random
game of such a seat spends most of its time in that function, so the lean form is worth its
lines: `lean_picker` takes a seat only when `LEAN_PARTS` lists every part it has.

The count and the order are masked.py's for these parts, which argues why they are the distinct
outcomes in the step chain's order; tests/test_fast_paths.py compares both with the generic chain,
every index of a draw, for every card of every pack, and tests/test_masked_picker.py pins which
seats take the lean form.
"""

from __future__ import annotations

from random import Random

from ..chain.actions import actions
from ..model.board import NEIGHBOUR_BITS, SQUARE_BITS
from ..model.state import GameState
from .bits import levels_of, token_squares
from .counted import drawn
from .plain import A_MOVE, A_WIN, MOVES_AND_BUILDS, Drawn, _Moves, build_event, is_plain, nth_free
from .shape import FastRules, Squares, without

NO_LEVELS = (0, 0, 0, 0)

#: The parts of FastRules the lean form understands (besides the plain turn's own): a seat with
#: any other extended part is masked.py's.
LEAN_PARTS = frozenset(("move_bans", "build_bans", "win_vetoes", "win_squares", "tower_wins", "move_ways",
                        "dome_tokens"))


def lean_picker(rules: FastRules) -> LeanMaskedTurn | None:
    """The lean picker of a plain turn whose extended parts are all in `LEAN_PARTS` (move ways
    only as climbs to a neighbouring space: entries of the kinds table), else None."""
    if len(rules.programs) != 1 or not is_plain(rules.programs[0], rules) or rules.move_options \
            or rules.build_options or not rules.extended:
        return None
    if any(way.over_worker or way.once for way in rules.move_ways):
        return None
    if without(rules, LEAN_PARTS).extended:  # (the same turn without the lean parts: nothing else may be left)
        return None
    if rules.dome_tokens and (rules.move_bans or rules.build_bans or rules.win_vetoes or rules.win_squares):
        return None  # (squares read by bits.py know no tokens: 'unoccupied' there is not the chain's then)
    return LeanMaskedTurn(rules)


def _union(rules: list[Squares], st: GameState, worker: int, origin: int, levels: tuple[int, ...]) -> int:
    """The squares of the rules whose holders are in the game (masked._Pick.squares_of)."""
    out = st.out
    bits = 0
    for rule in rules:
        if not (out and rule.holder in out):
            bits |= rule.squares(st, worker, origin, levels)
    return bits


class LeanMaskedTurn:
    """A picker (counted.py's Picker) for the plain turn under masks of squares."""

    #: The kinds of event of its turns (counted.Picker).
    event_kinds = MOVES_AND_BUILDS

    def __init__(self, rules: FastRules) -> None:
        moves = _Moves(rules)
        self.kinds, self.can_win = moves.kinds, moves.can_win
        self.move_bans, self.build_bans = rules.move_bans, rules.build_bans
        self.win_vetoes, self.win_squares = rules.win_vetoes, rules.win_squares
        self.tower_wins = rules.tower_wins
        self.dome_tokens = rules.dome_tokens
        self.reads_levels = rules.reads_levels

    def __call__(self, st: GameState, team: int, forbid_up: bool, forbid_down: bool, rng: Random,
                 free: int) -> Drawn | None:
        levels = levels_of(st.level_field) if self.reads_levels else NO_LEVELS
        move_bans, vetoes, win_squares = self.move_bans, self.win_vetoes, self.win_squares
        kinds_from, win_from = self.kinds[forbid_up][forbid_down], self.can_win[forbid_up][forbid_down]
        heights, positions = st.heights, st.worker_pos
        if self.dome_tokens and st.tokens:
            free &= ~token_squares(st, self.dome_tokens)  # (spaces the seat treats as domes)
        no_build = _union(self.build_bans, st, -1, -1, levels) if self.build_bans else 0
        total = 0
        ends: list[int] = []
        moves: list[tuple[int, int, int, int]] = []  # (worker, destination, its kind, where its builds may go)
        for worker in st.members.get(team, ()):
            origin = positions[worker]
            if origin < 0:
                continue
            here = heights[origin]
            kind_of, may_win = kinds_from[here], win_from[here]
            builds_on = (free | SQUARE_BITS[origin]) & ~no_build  # (a banned build square may be a destination)
            movable = free & ~_union(move_bans, st, worker, origin, levels) if move_bans else free
            no_win = _union(vetoes, st, worker, origin, levels) if vetoes else 0
            wins_at = _union(win_squares, st, worker, origin, levels) if win_squares else 0
            for to, bit, around in NEIGHBOUR_BITS[origin]:
                if not movable & bit:
                    continue
                there = heights[to]
                kind = kind_of[there]
                if kind == A_MOVE and wins_at & bit and may_win[there]:
                    kind = A_WIN
                if kind == A_WIN and not no_win & bit:
                    total += 1
                elif kind:
                    size = (builds_on & around).bit_count()
                    if not size:
                        continue
                    total += size
                    kind = A_MOVE
                else:
                    continue
                ends.append(total)
                moves.append((worker, to, kind, builds_on))
        if not total:
            return None
        (worker, to, kind, builds_on), index = drawn(ends, moves, total, rng)
        move = actions("move", worker)[to]
        if kind == A_WIN:
            return (move,), None
        square = nth_free(to, builds_on, index)
        steps = (move, actions("build", worker)[square])
        height = heights[square]
        if self.tower_wins and (height == 3 or any(op.holds((st.dome_bits & levels[3]).bit_count(), amount)
                                                   for op, amount in self.tower_wins)):
            return steps, None  # (the build may make the towers win: the engine plays it and judges)
        origin = positions[worker]
        return steps, (("move", worker, origin, to, heights[origin], heights[to]), build_event(worker, square, height))

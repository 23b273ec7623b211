"""Conditions on a step's target compiled to sets of squares, as bits, for the fast paths.

The generic chain judges a condition once per candidate step (conditions.py). A fast path that
counts a turn's outcomes by popcounts needs the same judgement for all the squares at once: the
squares where a move may not go (another seat's prohibition), where a build may not go, or where
a move may not win (another seat's veto). `target_bits` compiles a condition to a function
`(state, acting worker, its square, levels) -> bits` of the target squares where the condition
holds, or returns None when some part of it is not one this module knows: the gate
(shape.py) then leaves the seat to the generic chain. `levels[h]` is the bits of the squares of
height h, read from the state by `levels_of` once per turn when a compiled condition reads levels.

What a step view's heights and piece are, and so what each part means here, follows
conditions.py: a move's `here` is the level of the mover's square and `there` the target's; a
build's `here` and `there` are both the target's level, and its piece is a dome exactly where the
target is on level 3 (the fast paths take no dome option). tests/test_fast_paths.py compares the
paths that use these bits with the generic chain on random positions.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from ...dsl.vocabulary import (
    AllOf,
    AnyOf,
    Condition,
    LevelChange,
    Near,
    Not,
    Owner,
    Piece,
    PieceIs,
    PlayerCount,
    SpaceIs,
    SpaceProperty,
    SpaceRef,
    StandsHighest,
    TargetLevel,
    Verb,
)
from ..chain.conditions import FIXED_SQUARES, Judge
from ..model.board import ALL_BITS, AROUND_BITS
from ..model.state import GameState

#: (state, acting worker, its square, levels by height) -> the target squares, as bits.
SquareBits = Callable[[GameState, int, int, tuple[int, ...]], int]


def levels_of(field: int) -> tuple[int, int, int, int]:
    """The squares of each height, as bits (levels[h]), from the state's `level_field`
    (board.LEVEL_BIT): what every masked draw that reads levels starts from."""
    return field & ALL_BITS, field >> 25 & ALL_BITS, field >> 50 & ALL_BITS, field >> 75


class _Compiler:
    """Compiles the conditions of one card holder (`team`: whose 'your' is meant) for steps of
    one verb. `reads_levels` is set when a compiled part reads `levels`."""

    def __init__(self, team: int, verb: Verb) -> None:
        self.team, self.verb = team, verb
        self.reads_levels = False

    def owned(self, owner: Owner) -> Callable[[int], bool]:
        """Whether a team's workers are `owner`'s, seen from the card holder (the engine's own
        reading: conditions.Judge.owned)."""
        return Judge(-1, self.team).owned(owner)

    def compile(self, part: Condition) -> SquareBits | None:
        if isinstance(part, Not):
            inner = self.compile(part.part)
            return None if inner is None else (lambda st, w, o, lv: ALL_BITS ^ inner(st, w, o, lv))
        if isinstance(part, (AllOf, AnyOf)):
            compiled = [self.compile(p) for p in part.parts]
            parts = [p for p in compiled if p is not None]
            if len(parts) != len(compiled):
                return None  # (a part not known)
            if len(parts) == 1:
                return parts[0]
            if len(parts) == 2:  # the commonest: no loop
                first, second = parts
                if isinstance(part, AllOf):
                    return lambda st, w, o, lv: first(st, w, o, lv) & second(st, w, o, lv)
                return lambda st, w, o, lv: first(st, w, o, lv) | second(st, w, o, lv)
            if isinstance(part, AllOf):
                def every(st: GameState, w: int, o: int, lv: tuple[int, ...]) -> int:
                    bits = ALL_BITS
                    for p in parts:
                        bits &= p(st, w, o, lv)
                    return bits
                return every

            def some(st: GameState, w: int, o: int, lv: tuple[int, ...]) -> int:
                bits = 0
                for p in parts:
                    bits |= p(st, w, o, lv)
                return bits
            return some
        if isinstance(part, SpaceIs) and part.space is SpaceRef.TARGET and part.prop in FIXED_SQUARES:
            fixed = sum(1 << s for s in FIXED_SQUARES[part.prop])
            return lambda st, w, o, lv: fixed
        if isinstance(part, SpaceIs) and part.space is SpaceRef.TARGET and part.prop is SpaceProperty.UNOCCUPIED \
                and self.verb is Verb.MOVE:
            # (as the board stands before the move: a move's target is not the square it leaves,
            # nor, for a worker forced on along its move, the one it moved to)
            return lambda st, w, o, lv: free_bits(st)
        if isinstance(part, TargetLevel):
            self.reads_levels = True
            heights = [h for h in range(4) if part.op.holds(h, part.level)]
            return lambda st, w, o, lv: _union(lv, heights)
        if isinstance(part, LevelChange):
            self.reads_levels = True
            if self.verb is Verb.BUILD:  # a build's view has one level: the change is 0
                holds = part.op.holds(0, part.amount)
                return lambda st, w, o, lv: ALL_BITS if holds else 0
            by_level = [[h for h in range(4) if part.op.holds(h - here, part.amount)] for here in range(4)]
            return lambda st, w, o, lv: _union(lv, by_level[st.heights[o]])
        if isinstance(part, PieceIs):
            if self.verb is not Verb.BUILD:
                return lambda st, w, o, lv: 0  # a move builds no piece
            self.reads_levels = True
            if part.piece is Piece.DOME:
                return lambda st, w, o, lv: lv[3]
            if part.piece is Piece.BLOCK:
                return lambda st, w, o, lv: ALL_BITS ^ lv[3]
            return None
        if isinstance(part, Near) and (self.verb is Verb.MOVE or part.owner is Owner.YOURS):
            # (a build is judged after the move: only the holder's workers, who have not moved
            # this turn, are where they were when the bits were made; a move's judgement leaves
            # out the mover, and the other workers stand where they stood)
            owned, lower, level, same = self.owned(part.owner), part.lower, part.level, part.same_level
            if lower or same:
                self.reads_levels = True

            def near(st: GameState, w: int, o: int, lv: tuple[int, ...]) -> int:
                bits, teams, heights = 0, st.worker_team, st.heights
                for other, square in enumerate(st.worker_pos):
                    if square < 0 or other == w or not owned(teams[other]):
                        continue
                    height = heights[square]
                    if level is not None and height != level:
                        continue
                    around = AROUND_BITS[square]
                    if same:
                        around &= lv[height]
                    if lower:
                        around &= _union(lv, range(height))
                    bits |= around
                return bits
            return near
        if isinstance(part, PlayerCount):
            counts = frozenset(part.counts)
            return lambda st, w, o, lv: ALL_BITS if len(st.seats) in counts else 0
        if isinstance(part, StandsHighest) and self.verb is Verb.MOVE:
            # judged where the workers stand as the turn starts, which is when a fast path judges
            def highest(st: GameState, w: int, o: int, lv: tuple[int, ...]) -> int:
                heights, positions, height = st.heights, st.worker_pos, st.heights[o]
                others = [positions[x] for x in st.members.get(st.worker_team[w], ()) if x != w and positions[x] >= 0]
                return ALL_BITS if others and all(heights[s] < height for s in others) else 0
            return highest
        return None


def token_squares(st: GameState, tokens: tuple[tuple[int, str], ...]) -> int:
    """The squares holding a token of `tokens` ((holder's seat, kind) each), as bits: those a
    seat treats as domes (shape.FastRules.dome_tokens). A holder out of the game has none left."""
    bits = 0
    for square, (kind, holder) in st.tokens.items():
        if (holder, kind) in tokens and holder not in st.out:
            bits |= 1 << square
    return bits


def free_bits(st: GameState) -> int:
    """The squares with no worker and no dome, as bits."""
    return ALL_BITS ^ st.blocked_bits()


def _union(levels: tuple[int, ...], heights: Iterable[int]) -> int:
    bits = 0
    for height in heights:
        bits |= levels[height]
    return bits


def target_bits(conditions: tuple[Condition, ...], team: int, verb: Verb) -> tuple[SquareBits, bool] | None:
    """The squares where all of `conditions` hold for a step of `verb`, judged for the card
    holder of `team`, and whether the function reads `levels`; None if a part is not known."""
    compiler = _Compiler(team, verb)
    compiled = compiler.compile(AllOf(conditions)) if conditions else (lambda st, w, o, lv: ALL_BITS)
    if compiled is None:
        return None
    return compiled, compiler.reads_levels


__all__ = ["SquareBits", "free_bits", "levels_of", "target_bits", "token_squares"]

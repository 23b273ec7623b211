"""Conditions on a build's target lowered to bit expressions: every target square at once.

conditions.py lowers a condition to an expression judged once per candidate square. A random
draw does not need the candidates one by one: it needs how many there are, and the one at an
index. So here each part kind becomes an expression whose value is the set of target squares
where the part holds, as bits (bit n for square n), over the same local names: the acting worker
`w` on `o`, and the state's level bits `L0`..`L3` (a build's view has the target's level on both
sides). `MaskLowering.mask` returns None for a part whose target squares are not a known set (it
reads the turn's log square by square, or counts over the board); the generated code then tests
the candidates left one by one with conditions.py's expression, which is exact, only slower.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ...dsl.vocabulary import (
    CONDITION_TYPES,
    ActorIs,
    Against,
    AllOf,
    AlongLine,
    AnyOf,
    LevelChange,
    Near,
    Not,
    OccupiedBy,
    Owner,
    Piece,
    PieceIs,
    PlayerCount,
    SameSpace,
    SpaceIs,
    SpaceProperty,
    SpaceRef,
    StandsHighest,
    TargetLevel,
    Verb,
    direction_counter,
)
from ...dsl.vocabulary.parts import Condition
from ..chain.conditions import AGAINST_BITS, FIXED_SQUARES, LINE_BITS
from ..model.state import GameState
from .conditions import PROLOGUE, Lowering, View, near_bits
from .source import Source

#: The names of the squares of levels 0 to 3, as bits, in generated code (board_bits sets them).
LEVELS = ("L0", "L1", "L2", "L3")
#: The level planes of a square as a block just built on it leaves it (a block below level 3:
#: the square's next level), for the squares where one was.
LEVELS_AFTER_A_BLOCK = ("0", "L0", "L1", "L2")

#: The spaces a part may name that do not depend on the target (the mask is then one square).
_FIXED = (SpaceRef.ORIGIN, SpaceRef.VACATED, SpaceRef.START, SpaceRef.LAST_BUILT)


@dataclass
class MaskLowering:
    """Lowers a build way's conditions to bit expressions. `piece`: the way's piece (the next
    one is a dome exactly on level 3); `lowering`: the expression lowering, for the parts that do
    not read the target and so hold for every square or none; `blocked`: the name of the squares of
    the workers and the domes, as bits."""

    lowering: Lowering
    #: The way's piece (None for a move, which builds none).
    piece: Piece | None
    #: The name of the squares of the workers and the domes, as bits.
    blocked: str = "BLOCKED"
    #: The step's verb: a build's view has the target's level on both sides; a move's `here` is
    #: the level of the mover's square (`view.here`).
    verb: Verb = Verb.BUILD
    #: The names of the squares of levels 0 to 3, as bits: the board's (`L0`..`L3`), or another
    #: board's, such as one where a block was just built on each square (`LEVELS_AFTER_A_BLOCK`).
    planes: tuple[str, str, str, str] = LEVELS

    def mask(self, part: Condition, view: View) -> str | None:
        lower = MASKS.get(type(part))
        return None if lower is None else lower(self, part, view)

    def all(self, parts: tuple[Condition, ...], view: View) -> str | None:
        masks = [self.mask(part, view) for part in parts]
        if any(mask is None for mask in masks):
            return None
        return " & ".join(f"({mask})" for mask in masks) if masks else "ALL"

    def levels(self, heights: list[int]) -> str:
        """The squares on any of `heights` (the board's planes share out its squares: all four
        are every square, three are every square but the fourth's)."""
        if self.planes == LEVELS and len(heights) >= 3:
            missing = [plane for height, plane in enumerate(LEVELS) if height not in heights]
            return f"(ALL ^ {missing[0]})" if missing else "ALL"
        return " | ".join(self.planes[h] for h in heights) if heights else "0"

    def scalar(self, part: Condition, view: View) -> str:
        """A part that does not read the target, nor the piece (a piece's part has its own
        mask): every square or none. The piece is not a name every caller's code sets."""
        fixed = View(view.worker, view.origin, "-1", "-1", "-1", "None")
        return f"(ALL if ({self.lowering.one(part, fixed)}) else 0)"


def _target_level(m: MaskLowering, part: TargetLevel, view: View) -> str:
    return m.levels([h for h in range(4) if part.op.holds(h, part.level)])


def _level_change(m: MaskLowering, part: LevelChange, view: View) -> str:
    if m.verb is Verb.BUILD:
        return "ALL" if part.op.holds(0, part.amount) else "0"  # (a build's view: the same level twice)
    by_here = [m.levels([h for h in range(4) if part.op.holds(h - here, part.amount)]) for here in range(4)]
    # (the four sets by the mover's level, made once per call where the board's bits are read)
    table = m.lowering.source.once(f"({', '.join(f'({levels})' for levels in by_here)})")
    if table is not None:
        return f"{table}[{view.here}]"
    return (f"(({by_here[0]}) if {view.here} == 0 else ({by_here[1]}) if {view.here} == 1 "
            f"else ({by_here[2]}) if {view.here} == 2 else ({by_here[3]}))")


def _space_is(m: MaskLowering, part: SpaceIs, view: View) -> str | None:
    if part.space is not SpaceRef.TARGET:
        return m.scalar(part, view) if part.space in _FIXED else None
    fixed = FIXED_SQUARES.get(part.prop)
    if fixed is not None:
        return m.lowering.source.constant(sum(1 << s for s in fixed), f"{part.prop.name}_BITS")
    if part.prop is SpaceProperty.UNOCCUPIED:
        free = f"ALL ^ ({m.blocked} | DOMELIKE)"
        return (m.lowering.source.once(free) or free) if m.blocked == "BLOCKED" else free
    assert part.prop is SpaceProperty.DOMED, part.prop
    return "DOMES"


def _same_space(m: MaskLowering, part: SameSpace, view: View) -> str | None:
    if part.space is SpaceRef.TARGET:
        return "ALL"
    if part.space not in _FIXED:
        return None
    square = m.lowering.space(part.space, View(view.worker, view.origin, "-1", view.here, view.there, view.piece))
    return f"(1 << {square} if {square} >= 0 else 0)"


def _piece_is(m: MaskLowering, part: PieceIs, view: View) -> str:
    if m.piece is None:
        return "0"  # (a move builds no piece)
    if m.piece is Piece.NEXT:
        top = m.planes[3]
        return {Piece.DOME: top, Piece.BLOCK: f"(ALL ^ {top})"}.get(part.piece, "0")
    return "ALL" if part.piece is m.piece else "0"


def _occupied_by(m: MaskLowering, part: OccupiedBy, view: View) -> str:
    owner = {Owner.YOURS: 0, Owner.OPPONENTS: 1, Owner.ANYONES: 2}[part.owner]
    team = m.lowering.source.constant(m.lowering.judge.team, "TEAM")
    stood = m.lowering.source.hoist(f"{m.lowering.source.constant(occupied_bits, 'OCCUPIED')}"
                                    f"(st, {view.worker}, {team}, {owner})")
    return f"({stood} & ~DOMELIKE)"


def _near(m: MaskLowering, part: Near, view: View) -> str | None:
    if part.lower or part.level is not None or part.same_level or not m.lowering.hoisting:
        return None
    owner = {Owner.YOURS: 0, Owner.OPPONENTS: 1, Owner.ANYONES: 2}[part.owner]
    team = m.lowering.source.constant(m.lowering.judge.team, "TEAM")
    return m.lowering.source.hoist(f"{m.lowering.source.constant(near_bits, 'NEAR')}(st, {view.worker}, {team}, "
                                   f"{owner})")


def _along_line(m: MaskLowering, part: AlongLine, view: View) -> str:
    bits = m.lowering.source.constant(LINE_BITS[part.line], "LINE")
    return f"({bits}[{view.origin}] if {view.origin} >= 0 else 0)"


def _against(m: MaskLowering, part: Against, view: View) -> str:
    key = m.lowering.source.constant((m.lowering.judge.seat, direction_counter(part.token)), "KEY")
    bits = m.lowering.source.constant(AGAINST_BITS, "AGAINST")
    return f"({bits}[st.counters.get({key}, 0)][{view.origin}] if {view.origin} >= 0 else 0)"


def _scalar(m: MaskLowering, part: Condition, view: View) -> str:
    """A part that does not read the target (the number of players, the acting worker's
    standing as the turn started)."""
    return m.scalar(part, view)


def _not(m: MaskLowering, part: Not, view: View) -> str | None:
    inner = m.mask(part.part, view)
    return None if inner is None else f"(ALL ^ ({inner}))"


def _any_of(m: MaskLowering, part: AnyOf, view: View) -> str | None:
    masks = [m.mask(p, view) for p in part.parts]
    if any(mask is None for mask in masks):
        return None
    return " | ".join(f"({mask})" for mask in masks) or "0"


def _all_of(m: MaskLowering, part: AllOf, view: View) -> str | None:
    return m.all(part.parts, view)


def occupied_bits(st: GameState, worker: int, team: int, owner: int) -> int:
    """The squares of the workers of the team's (owner 0), its opponents' (1) or anyone's (2),
    the acting worker apart, as bits."""
    bits = 0
    teams = st.worker_team
    for other, square in enumerate(st.worker_pos):
        if square >= 0 and other != worker and (owner == 2 or (teams[other] == team) == (owner == 0)):
            bits |= 1 << square
    return bits


#: The part kinds lowered to bit expressions; for the others the candidates are tested one by one.
MASKS: dict[type, Callable[[MaskLowering, Any, View], str | None]] = {
    TargetLevel: _target_level, LevelChange: _level_change, SpaceIs: _space_is, SameSpace: _same_space,
    PieceIs: _piece_is, OccupiedBy: _occupied_by, Near: _near, PlayerCount: _scalar, StandsHighest: _scalar,
    AlongLine: _along_line, Against: _against, ActorIs: _scalar, Not: _not, AnyOf: _any_of, AllOf: _all_of,
}
if not set(MASKS) <= set(CONDITION_TYPES):  # pragma: no cover - a lowering of a part the vocabulary lacks
    raise TypeError("a mask lowering names a part kind the vocabulary does not have")



def board_function(header: str) -> Source:
    """A generated function that begins with `header` (its `def` line) and reads the state and
    the board's bits where its code does (PROLOGUE, `board_bits`)."""
    source = Source()
    source.line(0, header)
    for line in PROLOGUE:
        source.lazy(1, line)
    board_bits(source, 1)
    return source


def board_bits(source: Source, depth: int) -> None:
    """Emit what a count reads of the board, as bits, each where the code reads it: the squares
    of each level (`L0`..`L3`), the domes, the domes and workers (`BLOCKED`), the tokens the
    player treats as domes, and the squares with neither (`OPEN`)."""
    source.lazy(depth, "F = st.level_field")
    source.lazy(depth, "L0 = F & ALL")
    source.lazy(depth, "L1 = F >> 25 & ALL")
    source.lazy(depth, "L2 = F >> 50 & ALL")
    source.lazy(depth, "L3 = F >> 75")
    source.lazy(depth, "DOMES = st.dome_bits")
    source.lazy(depth, "BLOCKED = st.blocked_bits()")
    source.lazy(depth, "DOMELIKE = sum(1 << q for q in domelike) if domelike else 0")
    source.lazy(depth, "OPEN = ALL & ~(DOMES | DOMELIKE)")
    source.board_point(depth)


def loop_over_targets(source: Source, depth: int, targets: str, bits: str = "M", square: str = "t",
                      level: str = "th") -> int:
    """Emit a loop over the squares of the bit expression `targets` (or of `bits`, where the code
    has set it), in square order: each `square` (its bit `low`) at `level` (read where the body
    reads it). Returns the depth of the loop's body."""
    if targets != bits:
        source.line(depth, f"{bits} = {targets}")
    source.line(depth, f"while {bits}:")
    source.line(depth + 1, f"low = {bits} & -{bits}")
    source.line(depth + 1, f"{bits} ^= low")
    source.line(depth + 1, f"{square} = low.bit_length() - 1")
    source.lazy(depth + 1, f"{level} = H[{square}]")
    return depth + 1


__all__ = ["LEVELS", "LEVELS_AFTER_A_BLOCK", "MASKS", "MaskLowering", "board_bits",
           "loop_over_targets", "occupied_bits"]

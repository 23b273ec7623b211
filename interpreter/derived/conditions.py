"""Conditions lowered to Python expressions over a step view, one lowering per part kind.

A condition of the language is judged against a step view (dsl/vocabulary/parts.py): the worker,
its origin, the target, the two heights and the piece. The generic chain compiles each part to a
closure called with those seven values (chain/conditions.py); here each part kind becomes an
expression over the local names that hold them in the generated code, so that a candidate is
tested without a call. `LOWERINGS` has one entry per part kind that reads only the board and the
view; a part kind without one (it reads the turn's log, or counts over the board) is lowered to a
call of the generic chain's own closure for it, and `Lowering.calls` says which parts were, so
that `santorini show` can tell an author.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ...dsl.vocabulary import (
    CONDITION_TYPES,
    ActorIs,
    Against,
    AllOf,
    AlongLine,
    AnyOf,
    Compare,
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
    direction_counter,
)
from ...dsl.vocabulary.parts import Condition
from ..chain.conditions import AGAINST_BITS, FIXED_SQUARES, LINE_BITS, Judge, space_locator
from ..model.board import AROUND_BITS, BEYOND
from ..model.state import GameState
from .source import Source

#: What generated code reads from the state, once per call: the names the lowered expressions use.
PROLOGUE = ("st = walk.state", "H = st.heights", "OCC = st.occupant", "BLK = st.blocked", "DOM = st.domes",
            "POS = st.worker_pos", "TEAMS = st.worker_team", "domelike = walk.domelike")

_OPERATORS = {Compare.LT: "<", Compare.LE: "<=", Compare.EQ: "==", Compare.NE: "!=", Compare.GE: ">=",
              Compare.GT: ">"}


@dataclass(frozen=True)
class View:
    """The local names (or expressions) that hold a step view in generated code: the acting
    worker, its origin, the target, the heights of origin and target, and the piece (the text
    `None` where the step builds nothing)."""

    worker: str
    origin: str
    target: str
    here: str
    there: str
    piece: str = "None"

    def arguments(self) -> str:
        return f"walk, {self.worker}, {self.origin}, {self.target}, {self.here}, {self.there}, {self.piece}"


@dataclass
class Lowering:
    """Lowers the conditions of one card holder (its judge says whose 'your' and 'opponent' are)
    into one source, and notes the parts it could only call."""

    source: Source
    judge: Judge
    #: Whether values may be made once per acting worker (Source.hoist): not for conditions judged
    #: after a step that may move other workers (a win judged after a move that forces one).
    hoisting: bool = True
    #: The part kinds lowered to a call of the generic closure (by name, in order of first use).
    calls: list[str] = field(default_factory=list)
    #: Spaces the generated code knows by a name of its own, for the acting worker: where a
    #: kernel makes no step, the turn's start is the square the worker stands on (`o`).
    known: dict[SpaceRef, str] = field(default_factory=dict)
    #: The name of a square the acting worker has left although the state still shows it there
    #: (the kernel makes no step): 'unoccupied' holds there.
    vacated: str | None = None
    #: The name of a square another worker of the turn has moved to although the state does not
    #: show it there: 'unoccupied' does not hold there.
    taken: str | None = None

    def all(self, conditions: tuple[Condition, ...], view: View) -> str:
        """One expression for all of `conditions` ('True' for none)."""
        if not conditions:
            return "True"
        return " and ".join(f"({self.one(part, view)})" for part in conditions)

    def one(self, part: Condition, view: View) -> str:
        lower = LOWERINGS.get(type(part))
        if lower is None:
            return self.call(part, view)
        return lower(self, part, view)

    def call(self, part: Condition, view: View) -> str:
        """The generic chain's closure for `part`, called with the view (a visible fallback)."""
        name = type(part).__name__
        if name not in self.calls:
            self.calls.append(name)
        test = self.source.constant(self.judge.compile(part), "T")
        return f"{test}({view.arguments()})"

    def owned(self, team: str, owner: Owner) -> str:
        """Whether the team named by the expression `team` is `owner`'s, seen from the holder."""
        if owner is Owner.ANYONES:
            return "True"
        mine = self.source.constant(self.judge.team, "TEAM")
        return f"{team} {'==' if owner is Owner.YOURS else '!='} {mine}"

    def space(self, ref: SpaceRef, view: View) -> str:
        """An expression for the space `ref` names (-1 for none), as the generic locators say."""
        if ref is SpaceRef.TARGET:
            return view.target
        if ref in self.known:
            return self.known[ref]
        if ref in (SpaceRef.ORIGIN, SpaceRef.VACATED):
            return view.origin
        beyond = self.source.constant(BEYOND, "BEYOND")
        if ref is SpaceRef.BEYOND:
            return f"({beyond}[{view.origin}][{view.target}] if {view.origin} >= 0 and {view.target} >= 0 else -1)"
        if ref is SpaceRef.OTHER_SIDE:
            return f"({beyond}[{view.target}][{view.origin}] if {view.target} >= 0 else -1)"
        locate = self.source.constant(space_locator(ref), "LOC")  # (it reads the turn's log)
        return f"{locate}(walk, {view.worker}, {view.origin}, {view.target})"


def _level_change(lowering: Lowering, part: LevelChange, view: View) -> str:
    return f"{view.there} - {view.here} {_OPERATORS[part.op]} {part.amount}"


def _target_level(lowering: Lowering, part: TargetLevel, view: View) -> str:
    return f"{view.there} {_OPERATORS[part.op]} {part.level}"


def _space_is(lowering: Lowering, part: SpaceIs, view: View) -> str:
    square = lowering.space(part.space, view)
    fixed = FIXED_SQUARES.get(part.prop)
    if fixed is not None:
        return f"{square} in {lowering.source.constant(fixed, part.prop.name)}"
    if part.prop is SpaceProperty.UNOCCUPIED:
        vacated = lowering.vacated
        free = f"not BLK[{square}]" if vacated is None else f"(not BLK[{square}] or {square} == {vacated})"
        if lowering.taken is not None:
            free = f"{free} and {square} != {lowering.taken}"
        return f"{square} >= 0 and {free} and {square} not in domelike"
    return f"{square} >= 0 and DOM[{square}]"


def _same_space(lowering: Lowering, part: SameSpace, view: View) -> str:
    return f"{view.target} == {lowering.space(part.space, view)}"


def _piece_is(lowering: Lowering, part: PieceIs, view: View) -> str:
    return f"{view.piece} is {lowering.source.constant(part.piece, 'PIECE')}"


def _occupied_by(lowering: Lowering, part: OccupiedBy, view: View) -> str:
    target, worker = view.target, view.worker
    owned = lowering.owned(f"TEAMS[OCC[{target}]]", part.owner)
    return f"OCC[{target}] >= 0 and OCC[{target}] != {worker} and {owned} and {target} not in domelike"


def _near(lowering: Lowering, part: Near, view: View) -> str:
    """'neighboring your workers': the squares around the owner's workers other than the acting
    one, as bits made once per acting worker; a tie to their levels is called."""
    if part.lower or part.level is not None or part.same_level or not lowering.hoisting:
        return lowering.call(part, view)
    owner = {Owner.YOURS: 0, Owner.OPPONENTS: 1, Owner.ANYONES: 2}[part.owner]
    around = lowering.source.hoist(f"{lowering.source.constant(near_bits, 'NEAR')}(st, {view.worker}, "
                                   f"{lowering.source.constant(lowering.judge.team, 'TEAM')}, {owner})")
    return f"{around} >> {view.target} & 1"


def near_bits(st: GameState, worker: int, team: int, owner: int) -> int:
    """The squares around the workers of the team's (owner 0), its opponents' (1) or anyone's
    (2), the acting worker apart, as bits."""
    bits = 0
    teams = st.worker_team
    for other, square in enumerate(st.worker_pos):
        if square >= 0 and other != worker and (owner == 2 or (teams[other] == team) == (owner == 0)):
            bits |= AROUND_BITS[square]
    return bits


def _stands_highest(lowering: Lowering, part: StandsHighest, view: View) -> str:
    """'higher than all their other workers': judged where the workers stood as the turn
    started, so it is the same for every target of one acting worker: the generic closure is
    called once per worker (hoisted), not once per candidate."""
    if not lowering.hoisting:
        return lowering.call(part, view)
    test = lowering.source.constant(lowering.judge.compile(part), "T")
    return lowering.source.hoist(f"{test}(walk, {view.worker}, -1, -1, 0, 0, None)")


def _along_line(lowering: Lowering, part: AlongLine, view: View) -> str:
    bits = lowering.source.constant(LINE_BITS[part.line], "LINE")
    return f"{view.origin} >= 0 and {view.target} >= 0 and {bits}[{view.origin}] >> {view.target} & 1"


def _against(lowering: Lowering, part: Against, view: View) -> str:
    key = lowering.source.constant((lowering.judge.seat, direction_counter(part.token)), "KEY")
    bits = lowering.source.constant(AGAINST_BITS, "AGAINST")
    return (f"{view.origin} >= 0 and {view.target} >= 0 and "
            f"{bits}[st.counters.get({key}, 0)][{view.origin}] >> {view.target} & 1")


def _actor_is(lowering: Lowering, part: ActorIs, view: View) -> str:
    owned = lowering.owned(f"TEAMS[{view.worker}]", part.owner)
    if part.sex is None:
        return owned
    sex = lowering.source.constant(part.sex, "SEX")
    return f"{owned} and st.worker_sex[{view.worker}] is {sex}"


def _not(lowering: Lowering, part: Not, view: View) -> str:
    return f"not ({lowering.one(part.part, view)})"


def _any_of(lowering: Lowering, part: AnyOf, view: View) -> str:
    return " or ".join(f"({lowering.one(p, view)})" for p in part.parts) or "False"


def _all_of(lowering: Lowering, part: AllOf, view: View) -> str:
    return lowering.all(part.parts, view)


#: The part kinds lowered to expressions; the others are called (Lowering.call).
LOWERINGS: dict[type, Callable[[Lowering, Any, View], str]] = {
    LevelChange: _level_change, TargetLevel: _target_level, SpaceIs: _space_is, SameSpace: _same_space,
    PieceIs: _piece_is, OccupiedBy: _occupied_by, Near: _near, StandsHighest: _stands_highest,
    AlongLine: _along_line, Against: _against, ActorIs: _actor_is, Not: _not, AnyOf: _any_of, AllOf: _all_of,
}
if not set(LOWERINGS) <= set(CONDITION_TYPES):  # pragma: no cover - a lowering of a part the vocabulary lacks
    raise TypeError("a condition lowering names a part kind the vocabulary does not have")

#: Each piece the build step may name, by the name the generated code knows it by.
PIECES = {Piece.BLOCK: "P_BLOCK", Piece.DOME: "P_DOME"}


def view_only(part: Condition) -> bool:
    """Whether a part reads only the step's view (its levels, its target's place on the board),
    so that it can be judged before the step is made."""
    if isinstance(part, Not):
        return view_only(part.part)
    if isinstance(part, (AnyOf, AllOf)):
        return all(view_only(p) for p in part.parts)
    if isinstance(part, SpaceIs):
        return part.space is SpaceRef.TARGET and part.prop in FIXED_SQUARES
    return isinstance(part, (LevelChange, TargetLevel, PlayerCount, ActorIs))



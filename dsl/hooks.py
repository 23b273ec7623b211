"""Hook objects: what the compiler makes of a card, and all the turn interpreter reads.

The interpreter never sees the syntax tree or a card's name in its logic: it sees these records,
grouped by the hook point they attach to (DESIGN.md, "Hook points"). Each record keeps the
position of the sentence it came from, for error messages at run time.
"""

from __future__ import annotations

from dataclasses import dataclass, field

#: Constraint kinds a step may carry; the interpreter compiles each to a predicate.
MOVE_CONSTRAINTS = frozenset({"not_up", "not_up_or_down", "not_back_to_start"})
BUILD_CONSTRAINTS = frozenset({"not_same_space", "same_space", "not_dome"})


@dataclass(frozen=True)
class Where:
    """The place in a card file a hook comes from."""

    file: str
    line: int
    column: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"


@dataclass(frozen=True)
class StepSpec:
    """One step of a turn program.

    actor: 'any' (one of your workers, chosen by this step), 'each' (any of your workers, chosen
    anew at each repetition), 'that' (the worker of the previous step) or 'moved' (the worker
    that moved last this turn).
    """

    verb: str
    actor: str
    optional: bool
    repeat: bool
    constraints: tuple[str, ...]
    where: Where


@dataclass(frozen=True)
class Program:
    """A whole turn: the standard one, or an alternative a power offers.

    `announced` programs begin with the step `use NAME`; the others are found by the steps
    taken (a turn is legal if any program accepts it).
    """

    name: str
    announced: bool
    steps: tuple[StepSpec, ...]
    where: Where


@dataclass(frozen=True)
class FollowUp:
    """A step a power adds right after each program step of the verb `after`."""

    after: str
    step: StepSpec


@dataclass(frozen=True)
class MoveIntoOpponent:
    """Move option: into a space an opponent worker holds, forcing that worker away.

    destination: 'vacated' (the space the mover left) or 'straight_backwards' (the next space
    in the direction of the move). same_or_lower: the target space may not be higher.
    """

    same_or_lower: bool
    destination: str
    where: Where


@dataclass(frozen=True)
class DomeAtAnyLevel:
    """Build option: a dome on an unoccupied space at any level."""

    where: Where


@dataclass(frozen=True)
class MovedCondition:
    """True when one of the owner's workers moved in `direction` on the owner's last turn."""

    direction: str


@dataclass(frozen=True)
class Restriction:
    """'opponent workers cannot move up': a filter on the steps of `verb` of the owner's
    opponents (the only seats a version-1 restriction binds)."""

    verb: str
    direction: str
    condition: MovedCondition | None
    where: Where


@dataclass(frozen=True)
class WinOnMove:
    """A win when the owner's worker moves: up onto level N, or down N or more levels."""

    movement: str  # 'up_onto_level' | 'down_at_least'
    amount: int
    where: Where


@dataclass(frozen=True)
class BoardRules:
    """The base rules of movement and building (the base card's At All Times section)."""

    climb: int


@dataclass
class Power:
    """A compiled card: every hook it adds, by hook point."""

    name: str
    programs: list[Program] = field(default_factory=list)
    followups: list[FollowUp] = field(default_factory=list)
    move_options: list[MoveIntoOpponent] = field(default_factory=list)
    build_options: list[DomeAtAnyLevel] = field(default_factory=list)
    restrictions: list[Restriction] = field(default_factory=list)
    wins: list[WinOnMove] = field(default_factory=list)
    lose_when_stuck: bool = False
    board: BoardRules | None = None
    workers_to_place: int | None = None

"""The syntax tree of the rule language.

Every node carries the line and column (1-based, relative to the rules text) where it starts, so
that the checker and the compiler can point at the exact words of a card. Nodes are plain frozen
dataclasses: the tree is data, the meaning lives in the checker and the compiler.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Node:
    line: int
    column: int


@dataclass(frozen=True)
class Constraint(Node):
    """A restriction on the candidates of a step: 'not up', 'not on the same space'..."""

    kind: str


@dataclass(frozen=True)
class Step(Node):
    """One step of a turn program: who acts, with which verb, how often, under what limits."""

    actor: str  # any_worker | any_worker_each | moved_worker | that_worker
    verb: str  # move | build
    optional: bool
    repeat: bool
    constraints: tuple[Constraint, ...] = ()


@dataclass(frozen=True)
class After(Node):
    """'after your worker moves, it may move one additional time, ...': a follow-up step."""

    trigger: str
    step: Step


@dataclass(frozen=True)
class MoveInto(Node):
    """A move into a space held by an opponent worker, which is forced somewhere else."""

    verb: str
    same_or_lower: bool
    destination: str  # to_vacated_space | straight_backwards


@dataclass(frozen=True)
class DomeAnyLevel(Node):
    verb: str


@dataclass(frozen=True)
class MovedCondition(Node):
    """'one of your workers moved up on your last turn'."""

    direction: str


@dataclass(frozen=True)
class Restriction(Node):
    """'opponent workers cannot move up', possibly under a condition."""

    whose: str
    verb: str
    direction: str
    condition: MovedCondition | None = None


@dataclass(frozen=True)
class Win(Node):
    also: bool
    movement: str  # up_onto_level | down_at_least
    amount: int


@dataclass(frozen=True)
class Loss(Node):
    pass


@dataclass(frozen=True)
class MoveRule(Node):
    climb: int


@dataclass(frozen=True)
class BuildRule(Node):
    pass


@dataclass(frozen=True)
class Placement(Node):
    count: int


Statement = Step | After | MoveInto | DomeAnyLevel | Restriction | Win | Loss | MoveRule | BuildRule | Placement


@dataclass(frozen=True)
class Section(Node):
    header: str
    statements: tuple[Statement, ...] = field(default=())


@dataclass(frozen=True)
class Rules(Node):
    sections: tuple[Section, ...] = ()

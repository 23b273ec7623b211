"""The typed parts of the rule language: conditions, selectors, effects and steps.

A card's sentence is parsed into these and nothing else; the engine compiles each part once,
wherever it stands. A part is defined by what it does, not by the card it came from, so a part
written once works in every place its type fits: a space selector is a move's, a build's or a
force's destination alike, and a condition may filter a step, guard a rule or match a logged
event.

Conditions are judged against a *step view*: a step taken or about to be taken (its verb,
worker, origin, target and piece) in a state, during a turn. The same view describes a step
in the event log, so a pattern over past events ("moved up on your last turn") is written with
the very filters that limit a step ("cannot move up").
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from dataclasses import dataclass

from .kinds import (
    Compare,
    Compass,
    Counter,
    Heading,
    Line,
    Modality,
    Owner,
    Piece,
    Quantity,
    Region,
    Role,
    Scope,
    Sex,
    SpaceProperty,
    SpaceRef,
    TokenKind,
    Verb,
)


@dataclass(frozen=True)
class Where:
    """The place in a data file a part comes from, for messages at check and run time."""

    file: str
    line: int
    column: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"


# ---- conditions ------------------------------------------------------------------------------

@dataclass(frozen=True)
class LevelChange:
    """level(target) - level(origin) `op` `amount`: 'up' is > 0, 'down' < 0, 'up at most 1
    level' <= 1, 'down two or more levels' <= -2."""

    op: Compare
    amount: int


@dataclass(frozen=True)
class TargetLevel:
    """level(target) `op` `level`: 'onto level 3', 'on level 0 or higher'."""

    op: Compare
    level: int


@dataclass(frozen=True)
class SpaceIs:
    """The space `space` has a property: 'on a perimeter space', 'an unoccupied space'."""

    space: SpaceRef
    prop: SpaceProperty


@dataclass(frozen=True)
class SameSpace:
    """The target is the space `space`: 'back to its starting space', 'on the same space'."""

    space: SpaceRef


@dataclass(frozen=True)
class PieceIs:
    """The piece the step builds is `piece` (the next piece on level 3 is a dome)."""

    piece: Piece


@dataclass(frozen=True)
class OccupiedBy:
    """The target holds a worker of `owner`: 'a space occupied by an opponent worker'."""

    owner: Owner


@dataclass(frozen=True)
class Near:
    """The target neighbours a worker of `owner` ('a space neighboring your workers'); with
    `lower`, the target is lower than that worker's space ('a lower space neighboring ...'); with
    `level`, that worker stands on that level ('... neighboring your workers standing on level 1');
    with `same_level`, on the target's level ('... standing on its level')."""

    owner: Owner
    lower: bool = False
    level: int | None = None
    same_level: bool = False


@dataclass(frozen=True)
class BesideWorker:
    """The target neighbours a worker that `selector` names: 'a space neighboring the moved
    worker', for a step that no worker on the board takes (a worker placed from the card)."""

    selector: WorkerSelector


@dataclass(frozen=True)
class HasToken:
    """The target holds a token of `token`'s kind that the rule's holder owns: 'a space with your
    abyss token'."""

    token: TokenKind


@dataclass(frozen=True)
class StandsHighest:
    """The acting worker stands higher than every other worker of its owner (and it has
    another): 'while higher than all their other workers'."""


@dataclass(frozen=True)
class AlongLine:
    """The target lies from the acting worker's space along `line`: its row or column, or one of
    its diagonals ('orthogonally', 'diagonally')."""

    line: Line


@dataclass(frozen=True)
class TokenPoints:
    """The card's `token` points as `heading` says: nowhere, or in some direction ('your wind
    token points nowhere')."""

    token: TokenKind
    heading: Heading


def direction_counter(token: TokenKind) -> str:
    """The counter on the card that holds where its `token` points: 0 nowhere, else
    `Compass.number` (1 north ... 8 northwest)."""
    return f"{token.value} direction"


@dataclass(frozen=True)
class Against:
    """The step goes in the direction opposite to the one the card's `token` points in ('against
    the direction of your wind token'): never while it points nowhere."""

    token: TokenKind


@dataclass(frozen=True)
class ActorIs:
    """The worker taking the step is `owner`'s (seen from the card holder), and of `sex` where
    one is named: 'all workers except your female worker' binds every worker this is false of."""

    owner: Owner
    sex: Sex | None = None


@dataclass(frozen=True)
class Flanked:
    """Some worker of `whose` has workers of the card holder on two opposite sides of it:
    'if two of your workers neighbor an opponent worker on opposite sides'."""

    whose: Owner


@dataclass(frozen=True)
class Apart:
    """No worker of `owner` neighbours a worker of `other` ('none of an opponent's workers neighbor
    yours'), or, with `other` None, another worker of `owner` ('none of your workers neighbor each
    other'). Opponents are counted one opponent (one team) at a time: the condition holds when
    some opponent's workers are all apart, and a step under it acts on such an opponent ('that
    opponent's workers')."""

    owner: Owner
    other: Owner | None = None


@dataclass(frozen=True)
class LastMoves:
    """Judged on a whole turn: each worker of `owner` that started the turn on a space where
    `started` holds, and moved, ended its last move on a space where `ended` holds ('if an
    opponent worker starts its turn on a space neighboring your workers, its last move must be
    to a space neighboring your workers')."""

    owner: Owner
    started: tuple[Condition, ...]
    ended: tuple[Condition, ...]


@dataclass(frozen=True)
class Not:
    part: Condition


@dataclass(frozen=True)
class AnyOf:
    parts: tuple[Condition, ...]


@dataclass(frozen=True)
class AllOf:
    parts: tuple[Condition, ...]


@dataclass(frozen=True)
class StepPattern:
    """Steps of `verb` by workers of `owner` that pass `filters`: what a trigger listens to, a
    win waits for, and a condition over the event log looks for."""

    verb: Verb
    owner: Owner
    filters: tuple[Condition, ...]


@dataclass(frozen=True)
class Happened:
    """Some step in the event log, within `scope`, matches `pattern`: 'if one of your workers
    moved up on your last turn'."""

    scope: Scope
    pattern: StepPattern


@dataclass(frozen=True)
class WorkersAre:
    """Some worker that `selector` names stands where `filters` hold (each judged with that
    worker's space as the target): 'if your unmoved worker is on the ground level'. A rule under
    this condition is taken by such a worker ('it')."""

    selector: WorkerSelector
    filters: tuple[Condition, ...]


@dataclass(frozen=True)
class CountIs:
    """A board-wide count compared with a number: 'there are at least 5 complete towers'."""

    quantity: Quantity
    op: Compare
    amount: int


@dataclass(frozen=True)
class PlayerCount:
    """The game has one of these numbers of players ('in a game of 3 players'): counted from
    the seats, those out included (a game of three stays one)."""

    counts: tuple[int, ...]


Condition = (LevelChange | TargetLevel | SpaceIs | SameSpace | PieceIs | OccupiedBy | Near | BesideWorker | HasToken
             | StandsHighest | AlongLine | TokenPoints | Against | ActorIs
             | Flanked | Apart | LastMoves | Not | AnyOf | AllOf | Happened | WorkersAre | CountIs | PlayerCount)

#: The condition parts; the engine has a compiler for each (checked when it is built).
CONDITION_TYPES: tuple[type, ...] = (LevelChange, TargetLevel, SpaceIs, SameSpace, PieceIs, OccupiedBy, Near,
                                     BesideWorker, StandsHighest, AlongLine, TokenPoints, Against, ActorIs, Flanked,
                                     Apart, LastMoves, Not, AnyOf, AllOf, Happened, WorkersAre, CountIs, PlayerCount)


# ---- selectors -------------------------------------------------------------------------------

@dataclass(frozen=True)
class WorkerSelector:
    """Which workers: by their part in the turn (`role`), whose they are (`owner`), and their
    sex where a power tells them apart."""

    role: Role
    owner: Owner = Owner.YOURS
    sex: Sex | None = None
    #: For the workers a step acts on (`Role.NEAR`): around this named space instead of around
    #: the acting worker ('an opponent worker neighboring the space it just vacated').
    around: SpaceRef | None = None
    #: The workers left out of those named ('all workers except your female worker').
    excluding: WorkerSelector | None = None


@dataclass(frozen=True)
class SpaceSelector:
    """Which spaces: a region (around the acting worker, the whole board, or one space named by
    `ref`), narrowed by `filters` (judged with each candidate space as the target)."""

    region: Region
    ref: SpaceRef | None = None
    filters: tuple[Condition, ...] = ()
    #: Only the lowest of the spaces the region and the filters give ('a lowest unoccupied space
    #: neighboring the moved worker'): those of the least level among them.
    lowest: bool = False
    #: For `SpaceRef.COMPASS`: the direction ('one space south').
    compass: Compass | None = None


# ---- effects ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class Force:
    """Relocate a worker without moving it (it cannot win, nor count as a move): part of a step
    ('forcing that worker to the space your worker vacated')."""

    worker: WorkerSelector
    destination: SpaceSelector


@dataclass(frozen=True)
class ChangeCounter:
    """A counter on the card goes up (or down) by `amount` ('you gain 1 coin')."""

    counter: Counter
    amount: int


@dataclass(frozen=True)
class BuildThere:
    """The next piece is built on the space of the worker a step removed ('and its space is
    built on')."""


@dataclass(frozen=True)
class ToCard:
    """The worker a step removes goes back to its owner's card, from where it may enter the board
    again ('you must return one of your workers to your card')."""


Effect = Force | BuildThere | ChangeCounter | ToCard
EFFECT_TYPES: tuple[type, ...] = (Force, BuildThere, ChangeCounter, ToCard)


# ---- steps -----------------------------------------------------------------------------------

@dataclass(frozen=True)
class Repeat:
    """How many times a step is taken: exactly `times`, up to `times` ('up to 3 times'), or any
    number of times (`times` None, which includes zero)."""

    times: int | None = 1
    up_to: bool = False

    @property
    def once(self) -> bool:
        return self.times == 1 and not self.up_to


ONCE = Repeat()
ANY_NUMBER = Repeat(None)


@dataclass(frozen=True)
class Step:
    """One step: who takes it, what it does, how often, where it may go and on what terms.

    `destination` None takes the board rule's for the verb. `effects` happen as part of the
    step; a candidate whose effects cannot happen is not offered. `target` is what a force or a
    removal acts on (the workers it may force). `guard`: the step is offered only while it holds
    (a WorkersAre guard also names the worker that takes it). `can_win` False: a move by this
    step does not win ('but cannot win by doing so').
    """

    verb: Verb
    actor: WorkerSelector
    modality: Modality
    where: Where
    repeat: Repeat = ONCE
    destination: SpaceSelector | None = None
    piece: Piece = Piece.NEXT
    filters: tuple[Condition, ...] = ()
    effects: tuple[Effect, ...] = ()
    target: WorkerSelector | None = None
    guard: Condition | None = None
    can_win: bool = True
    #: What each taking of the step spends from the card ('spending 1 coin each time').
    cost: tuple[ChangeCounter, ...] = ()
    #: The token a TOKEN step places, and how many times in a game it may happen (None: no limit).
    token: TokenKind | None = None
    per_game: int | None = None
    #: Set for a step the seat may take in one turn of the game only: the name of its mark on the
    #: card, set as the step is first taken (all its repetitions that turn are one use).
    once_per_game: str | None = None
    #: The step taken instead where the guard does not hold ('otherwise, ...'), judged once.
    otherwise: Step | None = None
    #: Where a POINT step points its token: in a direction the player picks, or nowhere.
    heading: Heading | None = None


# ---- canonical parts (named once, shared by the compiler, the checker and the fast-path gate) --

UP = LevelChange(Compare.GT, 0)
DOWN = LevelChange(Compare.LT, 0)
NOT_UP = Not(UP)
NOT_UP_OR_DOWN = Not(AnyOf((UP, DOWN)))
NOT_BACK_TO_START = Not(SameSpace(SpaceRef.START))
ON_LAST_BUILT = SameSpace(SpaceRef.LAST_BUILT)
NOT_ON_LAST_BUILT = Not(ON_LAST_BUILT)
NOT_A_DOME = Not(PieceIs(Piece.DOME))
UNOCCUPIED = SpaceIs(SpaceRef.TARGET, SpaceProperty.UNOCCUPIED)


def nested(root: object) -> Iterator[object]:
    """Every value reachable from `root` through the vocabulary's dataclasses, lists, tuples and
    dict values, each once (a part may be shared): what a question about a whole power (does any
    of its selectors name a sex? which steps does it write?) walks, without a case per part kind."""
    pending: list[object] = [root]
    seen: set[int] = set()
    while pending:
        item = pending.pop()
        if id(item) in seen:
            continue
        seen.add(id(item))
        yield item
        if dataclasses.is_dataclass(item) and not isinstance(item, type):
            pending.extend(getattr(item, field.name) for field in dataclasses.fields(item))
        elif isinstance(item, (list, tuple)):
            pending.extend(item)
        elif isinstance(item, dict):
            pending.extend(item.values())

"""The syntax tree of the rule language, version 2.

A sentence is parsed into a few node kinds (a step, a follow-up, a prohibition, a win, a loss,
a placement), each made of the typed parts of `dsl.vocabulary` wrapped with the place of their
words. Every node carries the line and column (1-based, relative to the rules text) where it
starts, so that the checker and the compiler can point at the exact words of a card.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from ..vocabulary import (
    Counter,
    FollowUpTiming,
    HappeningKind,
    Heading,
    Modality,
    Owner,
    Pairing,
    Piece,
    Repeat,
    Scope,
    SetupKind,
    SpaceSelector,
    Timing,
    TokenKind,
    Verb,
    WorkerSelector,
)
from ..vocabulary.parts import Condition


@dataclass(frozen=True)
class Node:
    line: int
    column: int


@dataclass(frozen=True)
class Actor(Node):
    """A worker selector as written: 'one of your workers', 'the moved worker', 'it'."""

    selector: WorkerSelector
    words: str


@dataclass(frozen=True)
class Place(Node):
    """A place phrase: a preposition and a space selector ('on a perimeter space'). `origin`: the
    preposition is 'from' (for a move: where the worker leaves)."""

    space: SpaceSelector
    words: str
    origin: bool = False


@dataclass(frozen=True)
class Qualifier(Node):
    """A filter on a step as written: 'up', 'not on the same space', 'up at most 1 level'.

    `part` is the condition; a place phrase is kept as `place` (what it means depends on where
    it stands); a scope ('on your last turn') is kept as `scope`.
    """

    words: str
    part: Condition | None = None
    place: Place | None = None
    negated: bool = False
    scope: Scope | None = None


@dataclass(frozen=True)
class Forcing(Node):
    """'forcing that worker to the space yours just vacated': a force made part of a step."""

    actor: Actor
    place: Place


class TailKind(Enum):
    """The closing words a step may have, after its qualifiers (a force is a `Forcing`)."""

    CANNOT_WIN = "but cannot win by doing so"
    INSTEAD = "instead"
    SPENDING = "spending"


@dataclass(frozen=True)
class Tail(Node):
    """A step's closing words as written ('instead', 'spending 1 coin each time'), kept with where
    they stand so that a fault in them (said twice, a cost of nothing) is shown there. `cost`: for
    a spending tail, the counter and the amount."""

    kind: TailKind
    words: str
    cost: tuple[Counter, int] | None = None


@dataclass(frozen=True)
class StepNode(Node):
    """'<actor> <may|must> <verb> <piece> <object> <place> <climb> <repeat>, <qualifier>...,
    <effect>, <but cannot win by doing so> <instead>'."""

    actor: Actor
    modality: Modality | None
    verb: Verb
    piece: Piece | None
    piece_any_level: bool
    place: Place | None
    repeat: Repeat | None
    qualifiers: tuple[Qualifier, ...]
    effects: tuple[Forcing, ...]
    target: Actor | None = None
    #: How much higher or lower the worker acted on (`target`) stands than the acting worker
    #: ('standing exactly 2 levels higher'), judged with the target's space as the step's.
    gap: Qualifier | None = None
    can_win: bool = True
    instead: bool = False
    #: What each repetition spends: (counter, amount) pairs.
    cost: tuple[tuple[Counter, int], ...] = ()
    #: The closing words as written, in order ('instead', 'spending ...'), where they stand.
    tails: tuple[Tail, ...] = ()
    #: A step that points a token of the card ('you may point your wind token in any direction'):
    #: the token, and where it points it.
    token: TokenKind | None = None
    heading: Heading | None = None


@dataclass(frozen=True)
class PatternNode(Node):
    """A step as something that happens: '<actor> <verb> <qualifiers>' ('your worker moves up
    onto level 3', 'one of your workers moved up on your last turn')."""

    actor: Actor
    verb: Verb
    tense: str  # "present" | "past"
    piece: Piece | None
    qualifiers: tuple[Qualifier, ...]
    #: 'a complete tower': the piece is a dome built on a space of level 3.
    tower: bool = False


@dataclass(frozen=True)
class HappeningNode(Node):
    """What the rules make happen: '<victim> is removed from the game', 'that opponent loses the
    game'. `victim` is the worker removed (None for a loss)."""

    kind: HappeningKind
    victim: Actor | None
    place: Place | None
    token: TokenKind | None = None
    per_game: int | None = None


@dataclass(frozen=True)
class FollowUpNode(Node):
    """'after <pattern>, <step>', 'each time <pattern>, <step>', 'before <pattern>, <step>'."""

    trigger: PatternNode
    step: StepNode | HappeningNode
    timing: FollowUpTiming = FollowUpTiming.AFTER


@dataclass(frozen=True)
class WorkerStateNode(Node):
    """'<actor> is <qualifiers>': 'your unmoved worker is on the ground level'."""

    actor: Actor
    qualifiers: tuple[Qualifier, ...]


@dataclass(frozen=True)
class TowersNode(Node):
    """'there are at least N complete towers on the board'."""

    count: int


@dataclass(frozen=True)
class FlankedNode(Node):
    """'<n> of your workers neighbor an opponent worker on opposite sides'."""

    count: int


@dataclass(frozen=True)
class ApartNode(Node):
    """'none of <owner's workers> neighbor <other's workers>' ('none of an opponent's workers
    neighbor yours'); `other` None: 'neighbor each other'."""

    owner: Owner
    other: Owner | None


@dataclass(frozen=True)
class PlayerCountNode(Node):
    """'in a game of 3 players' (or 'of 2 or 4 players'): the number of players."""

    counts: tuple[int, ...]


@dataclass(frozen=True)
class TokenPointsNode(Node):
    """'your <kind> token points nowhere'."""

    token: TokenKind
    heading: Heading


#: A condition as the grammar writes one ('if <condition>', 'when <condition>').
StatedCondition = PatternNode | WorkerStateNode | TowersNode | FlankedNode | ApartNode | TokenPointsNode
#: What may guard a sentence: a condition, or the number of players.
ConditionNode = StatedCondition | PlayerCountNode


@dataclass(frozen=True)
class ProhibitionNode(Node):
    """'<actor> cannot <verb> <piece> <qualifiers>'."""

    actor: Actor
    verb: Verb
    piece: Piece | None
    qualifiers: tuple[Qualifier, ...]


@dataclass(frozen=True)
class VetoNode(Node):
    """'<actor> cannot win by moving <qualifiers>'."""

    actor: Actor
    qualifiers: tuple[Qualifier, ...]


@dataclass(frozen=True)
class ObligationNode(Node):
    """'[if possible,] at least one opponent worker must <verb> <qualifiers>', or 'if an opponent
    worker starts its turn <qualifiers>, its last move must be <qualifiers>'."""

    if_possible: bool
    verb: Verb | None
    qualifiers: tuple[Qualifier, ...]
    started: tuple[Qualifier, ...] = ()


@dataclass(frozen=True)
class PlaceTokenNode(Node):
    """'you may place your <token> token <place>' (the place's neighbourhood is the moved
    worker's when it says so)."""

    token: TokenKind
    place: Place
    near_moved: bool


@dataclass(frozen=True)
class DomeLikeNode(Node):
    """'<actor> treat spaces with your <token> tokens as if they contain only a dome'."""

    actor: Actor
    token: TokenKind


@dataclass(frozen=True)
class GainNode(Node):
    """'you gain N coins'."""

    amount: int
    counter: Counter


@dataclass(frozen=True)
class WinNode(Node):
    """'you [also] win if <pattern>', 'you also win when <condition>'."""

    also: bool
    pattern: StatedCondition


@dataclass(frozen=True)
class LossNode(Node):
    """'you lose if you cannot complete a turn'."""


@dataclass(frozen=True)
class WinlessNode(Node):
    """'no player can win during this turn': a turn program's steps make no one win."""


@dataclass(frozen=True)
class PlacementNode(Node):
    """'each player places N workers', or a card's own setup: 'you place 3 workers', 'you place
    your workers first', 'you place your workers on perimeter spaces', '... on opposite edges of
    the board', 'your female worker', 'you have 1 extra worker on your card'."""

    count: int
    kind: SetupKind = SetupKind.EACH_PLAYER
    place: Place | None = None
    words_actor: str = ""
    #: The placing (or first-moving) player's rank in their team: 1 first, 2 second.
    rank: int = 1
    pairing: Pairing | None = None
    #: The token a setup places ('you secretly place your abyss token ...'), and whether in secret.
    token: TokenKind | None = None
    secret: bool = False


Clause = (StepNode | HappeningNode | ObligationNode | GainNode | PlaceTokenNode | DomeLikeNode | FollowUpNode
          | ProhibitionNode | VetoNode | WinNode | LossNode | PlacementNode | WinlessNode)


@dataclass(frozen=True)
class Statement(Node):
    """A sentence: a clause, perhaps under a guard ('if <condition>, ...')."""

    guard: ConditionNode | None
    clause: Clause
    #: 'otherwise, ...': taken where the guard of the sentence before does not hold.
    otherwise: bool = False


@dataclass(frozen=True)
class Section(Node):
    """A header and its sentences. `timing` is None for a header the language does not know (the
    checker says so, with the nearest one); `once`: '(once per game)' follows the timing;
    `instead`: '(instead)' ends the header (the section's turn replaces the standard one)."""

    header: str
    statements: tuple[Statement, ...]
    timing: Timing | None = None
    once: bool = False
    instead: bool = False


@dataclass(frozen=True)
class Rules(Node):
    sections: tuple[Section, ...]

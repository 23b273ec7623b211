"""The hooks a card compiles to: its parts, grouped by the hook point they attach to.

The interpreter reads a card only through these records (DESIGN.md, "Hook points"), never the
syntax tree nor the card's name. Each record keeps the place of its sentence.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TypeVar

from .kinds import FollowUpTiming, Owner, Pairing, TokenKind, Verb
from .parts import ChangeCounter, Condition, SpaceSelector, Step, StepPattern, Where

R = TypeVar("R")


@dataclass(frozen=True)
class Program:
    """A whole turn: the standard one, or an alternative a power offers.

    An `announced` program begins with the step `use NAME`; the others are found by the steps
    taken (a turn is legal if some program accepts it).
    """

    name: str
    announced: bool
    steps: tuple[Step, ...]
    where: Where
    #: Set for a turn that may be taken once per game: the name of its mark on the card.
    once_per_game: str | None = None
    #: A turn that replaces the standard one: a seat with such a turn has none of the base card's.
    replaces: bool = False
    #: A turn taken only as an additional turn ('Additional Turn:'), when the seat is owed one.
    additional: bool = False
    #: No player can win during this turn ('no player can win during this turn').
    winless: bool = False


@dataclass(frozen=True)
class FollowUp:
    """A step added right after every program step that matches `trigger` ('after your worker
    moves, it may move one additional time'): 'it' is the worker of that step."""

    trigger: StepPattern
    step: Step
    where: Where
    timing: FollowUpTiming = FollowUpTiming.AFTER


@dataclass(frozen=True)
class StepOption:
    """Another way to take every step of `step.verb`: more destinations, another piece, another
    worker, with effects of its own ('your worker may build a dome at any level'). An option
    `instead` replaces the step's own way ('your unmoved worker builds instead')."""

    step: Step
    where: Where
    instead: bool = False
    #: Set for an option that may be used once per game: the name of its mark on the card.
    once_per_game: str | None = None


@dataclass(frozen=True)
class Prohibition:
    """Steps of `verb` that workers of `binds` (seen from the card's owner) cannot take while
    `when` holds: 'if ..., opponent workers cannot move up'."""

    binds: Owner
    verb: Verb
    filters: tuple[Condition, ...]
    when: Condition | None
    where: Where


@dataclass(frozen=True)
class WinOnStep:
    """The owner wins when one of its steps matches `pattern` ('you win if your worker moves
    up onto level 3')."""

    pattern: StepPattern
    where: Where
    #: Only while this holds ('in a game of 3 players, you also win if ...').
    when: Condition | None = None


@dataclass(frozen=True)
class DomeLike:
    """Workers of `binds` treat the spaces holding the card's `token` as if they held only a dome:
    they cannot move, build or be forced there, and a worker standing there is hidden from them."""

    token: TokenKind
    binds: Owner
    where: Where


@dataclass(frozen=True)
class Reaction:
    """What the rules make happen after each step of another seat's that matches `trigger`
    ('each time an opponent worker moves, it is forced space by space ...'); `step` is automatic
    and 'it' is the worker of that step."""

    trigger: StepPattern
    step: Step
    where: Where


@dataclass(frozen=True)
class Obligation:
    """What every turn of the seats `binds` names must satisfy, judged on the whole turn: a turn
    that does not is not a turn. `if_possible`: only when some turn can (else any turn will do)."""

    binds: Owner
    requirement: Condition
    if_possible: bool
    where: Where


@dataclass(frozen=True)
class WinVeto:
    """Workers of `binds` cannot win by a step that matches `pattern` ('opponent workers cannot win
    by moving into a perimeter space')."""

    binds: Owner
    pattern: StepPattern
    where: Where


@dataclass(frozen=True)
class WinWhen:
    """The owner wins as soon as `condition` holds, whoever's step made it so ('you also win when
    there are at least five complete towers on the board')."""

    condition: Condition
    where: Where


@dataclass(frozen=True)
class BoardRule:
    """What a step of `verb` is by default: where it may go and within what limits ('a worker
    moves to an unoccupied neighboring space, up at most 1 level')."""

    verb: Verb
    destination: SpaceSelector
    filters: tuple[Condition, ...]
    where: Where


@dataclass(frozen=True)
class LoseWhenStuck:
    """A player who cannot complete a turn loses."""

    where: Where


@dataclass(frozen=True)
class Placement:
    """At setup a player places `count` workers (every player, in a mode; the card's holder, on a
    card: 'you place 3 workers')."""

    count: int
    where: Where
    #: Who places a team's workers: its first player (in seat order) or its second ('the second
    #: player of each team places 2 workers'). A team of one has only a first.
    placer: int = 1


@dataclass(frozen=True)
class Teams:
    """The mode's teams: teammates share their workers and win or lose together."""

    pairing: Pairing
    where: Where


@dataclass(frozen=True)
class FirstTurn:
    """The first turn goes to the `rank`-th player (in seat order) of the first seat's team; play
    then goes on in seat order ('the second player of each team takes the first turn')."""

    rank: int
    where: Where


@dataclass(frozen=True)
class PlaceFirst:
    """The card's holder places its workers before every other player."""

    where: Where


@dataclass(frozen=True)
class PlacementArea:
    """The holder's workers are placed on spaces where `filters` hold ('on perimeter spaces')."""

    filters: tuple[Condition, ...]
    where: Where


@dataclass(frozen=True)
class OppositeEdges:
    """The holder's two workers are placed on opposite edges of the board (one on row 1 and one on
    row 5, or one on column a and one on column e)."""

    where: Where


@dataclass(frozen=True)
class WorkerSexes:
    """`female` of the holder's workers are female (the first placed), the others male."""

    female: int
    where: Where


@dataclass(frozen=True)
class Reserve:
    """The holder has `count` extra workers on the card, placed later by a step."""

    count: int
    where: Where


@dataclass(frozen=True)
class SetupToken:
    """Once every worker is placed, the holder places its token of `token`'s kind where `filters`
    hold ('after all workers are placed, you secretly place your abyss token on an unoccupied
    space'). A `secret` token is seen only by its holder's team: other seats' views leave it out
    (engine.view)."""

    token: TokenKind
    filters: tuple[Condition, ...]
    secret: bool
    where: Where


SetupRule = (Placement | Teams | FirstTurn | PlaceFirst | PlacementArea | OppositeEdges | WorkerSexes | Reserve
             | SetupToken)


@dataclass
class Power:
    """A compiled card: every hook it adds, by hook point."""

    name: str
    programs: list[Program] = field(default_factory=list)
    followups: list[FollowUp] = field(default_factory=list)
    options: list[StepOption] = field(default_factory=list)
    prohibitions: list[Prohibition] = field(default_factory=list)
    obligations: list[Obligation] = field(default_factory=list)
    reactions: list[Reaction] = field(default_factory=list)
    dome_likes: list[DomeLike] = field(default_factory=list)
    wins: list[WinOnStep] = field(default_factory=list)
    wins_when: list[WinWhen] = field(default_factory=list)
    vetoes: list[WinVeto] = field(default_factory=list)
    #: Steps every turn of the owner ends with ('End of Your Turn:').
    turn_ends: list[Step] = field(default_factory=list)
    #: What happens to the card as every turn of the owner starts ('Start of Your Turn:').
    turn_starts: list[ChangeCounter] = field(default_factory=list)
    #: Steps every turn of the owner begins with, after its gains ('Start of Your Turn:').
    turn_begins: list[Step] = field(default_factory=list)
    board_rules: list[BoardRule] = field(default_factory=list)
    losses: list[LoseWhenStuck] = field(default_factory=list)
    placements: list[Placement] = field(default_factory=list)
    #: The card's own setup rules (order, area, sexes, extra workers).
    setup: list[SetupRule] = field(default_factory=list)

    @property
    def workers_to_place(self) -> int | None:
        return self.placements[-1].count if self.placements else None

    def setup_of(self, kind: type[R]) -> list[R]:
        """The card's setup rules of one kind."""
        return [rule for rule in (*self.placements, *self.setup) if isinstance(rule, kind)]

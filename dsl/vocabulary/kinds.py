"""The kinds of the rule vocabulary: every closed set of words is an enum.

The engine dispatches on these, and its tables are checked against them when it is built, so
a kind added here and forgotten in the engine is an error at start-up, never a silent default.
Members marked "planned" have their place in the language (docs/language.md, "Planned parts")
but no engine yet: the checker refuses them with a message that names the part.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum


class Verb(Enum):
    """What a step does (the verbs of the turn notation)."""

    MOVE = "move"
    BUILD = "build"
    FORCE = "force"
    REMOVE = "remove"
    PLACE = "place"
    TOKEN = "token"
    USE = "use"
    LOSE = "lose"  # a player loses (an automatic step; not a verb of the turn notation)
    #: Workers exchange spaces: each of the player's workers with a worker of one opponent (written
    #: as forces: `force A1 d4`, A1 to the space of the worker it exchanges with, which goes to A1's).
    SWAP = "swap"
    #: The player points a token of its card in a direction of the compass, or nowhere (written
    #: `point KIND DIRECTION`, `point KIND nowhere`): the card's counter `KIND direction`.
    POINT = "point"
    #: The player is owed one more turn, taken after this one (an automatic step; not a verb of the
    #: turn notation): the seat's `additional turn` counter goes up by one.
    GRANT_TURN = "additional turn"


class Modality(Enum):
    """May is optional; must binds (a turn that cannot obey it is not a turn); if possible
    binds only when it can be obeyed: the step is taken whenever the player has one to take
    there, and left out only when there is none (judged where the step stands in the turn)."""

    MAY = "may"
    MUST = "must"
    IF_POSSIBLE = "if possible"
    AUTOMATIC = "automatic"  # the rules make it happen: no choice, and nothing written in the turn


class Owner(Enum):
    """Whose workers a selector takes, seen from the card's owner."""

    YOURS = "your"
    OPPONENTS = "opponent"
    ANYONES = "any"


class Role(Enum):
    """Which worker a worker selector names, by its part in the turn."""

    CHOSEN = "one of"          # chosen by this step, then bound ('that worker')
    EACH = "each"              # chosen afresh at every repetition of the step
    MOVED = "the moved"        # the worker of the turn's latest move
    UNMOVED = "the unmoved"    # a worker of yours that has not moved this turn
    THAT = "that"              # the worker of the previous step ('it', 'that worker')
    SUBJECT = "your worker"    # the worker taking the step a rule is about
    DISPLACED = "displaced"    # the worker on the space a step goes into ('that worker' in an option)
    NEAR = "a neighboring"     # any worker neighbouring the acting worker (what a force acts on)
    OTHER = "one of the other"  # any other worker of the owner, wherever it stands (what a force acts on)
    EVERY = "each of"          # every one of your workers, once each, in the order the player picks (what a
    #                            force by the player acts on: one or more of the workers named, each once)
    ON_SPACE = "the worker on"  # the worker standing on the space a step names
    FLANKED = "flanked"        # a worker with workers of the card holder on two opposite sides
    RESERVE = "extra"          # a worker of yours waiting on your card, not yet on the board
    TEAM = "an opponent's"     # the workers of one opponent (one team), wherever they stand
    HOLDER = "you"             # the player, no worker of theirs acting ('you force ...')
    LAST_MOVED = "moved last"  # for each player, the worker that player moved most recently on a turn of theirs


class Compass(Enum):
    """The eight directions of the board, seen with row 5 at the top and column a on the left:
    north is toward row 5, east toward column e. (dx, dy) is the step in columns and rows."""

    NORTH = "north"
    NORTHEAST = "northeast"
    EAST = "east"
    SOUTHEAST = "southeast"
    SOUTH = "south"
    SOUTHWEST = "southwest"
    WEST = "west"
    NORTHWEST = "northwest"

    @property
    def step(self) -> tuple[int, int]:
        return _COMPASS_STEPS[self]

    @property
    def number(self) -> int:
        """1 (north) to 8 (northwest), clockwise: the value of a card's direction counter (0 is
        nowhere)."""
        return list(Compass).index(self) + 1

    @property
    def opposite(self) -> Compass:
        return list(Compass)[(self.number + 3) % 8]


class Heading(Enum):
    """Where a step points a card's token: in a direction the player picks, or nowhere."""

    ANY = "in any direction"
    NOWHERE = "nowhere"


_COMPASS_STEPS = {Compass.NORTH: (0, 1), Compass.NORTHEAST: (1, 1), Compass.EAST: (1, 0), Compass.SOUTHEAST: (1, -1),
                  Compass.SOUTH: (0, -1), Compass.SOUTHWEST: (-1, -1), Compass.WEST: (-1, 0),
                  Compass.NORTHWEST: (-1, 1)}


class Line(Enum):
    """How a step's target lies from where the worker stands: along its row or column, or along
    a diagonal ('cannot move orthogonally')."""

    ORTHOGONAL = "orthogonally"
    DIAGONAL = "diagonally"


class Sex(Enum):
    """Worker sexes, for powers that tell a female and a male worker apart."""

    FEMALE = "female"
    MALE = "male"


class SpaceRef(Enum):
    """A space named by its part in the step or the turn."""

    TARGET = "target"          # where the step goes
    ORIGIN = "origin"          # where the acting worker stands before the step
    START = "start"            # where the worker stood at the start of the turn
    LAST_BUILT = "last built"  # the space of the turn's latest build
    VACATED = "vacated"        # the space the moving worker just left
    BEYOND = "beyond"          # the next space past the target, in the step's direction
    OTHER_SIDE = "other side"  # past the acting worker, seen from the worker a step acts on
    COMPASS = "compass"        # one space from the worker a step acts on, in a direction of the compass


class Region(Enum):
    """The spaces a space selector starts from, before its filters."""

    NEIGHBORING = "neighboring"  # around the acting worker (the board's neighbourhood)
    ANYWHERE = "any"             # every space of the board
    SINGLE = "single"            # one space named by a SpaceRef
    OVER_WORKER = "over a worker"  # the space past a neighbouring worker, seen from the acting one
    WRAPPED = "across the edges"   # around the acting worker, opposite edges and corners adjacent: 8 spaces


class Counter(Enum):
    """The counters a card may keep."""

    COIN = "coin"
    #: The additional turns a seat is owed ('you may take an additional turn'): while it is above 0
    #: the seat moves again, and its next turn is one of its additional turn programs (or a pass).
    ADDITIONAL_TURN = "additional turn"


@dataclass(frozen=True)
class TokenKind:
    """A kind of token, named by the card that uses it ('your abyss token'): what it does is said
    by the card's rules, so the kinds are data, like the cards, not a closed list."""

    value: str


class FollowUpTiming(Enum):
    """When a follow-up's step is offered, relative to the step that triggers it."""

    AFTER = "after"            # once, after the step
    EACH_TIME = "each time"    # after the step, and again after each of its own steps that match
    BEFORE = "before"          # before the step, by the worker that then takes it


class Piece(Enum):
    """What a build puts on a space."""

    NEXT = "next"    # the next piece: a block below level 3, a dome on it
    BLOCK = "block"
    DOME = "dome"
    STACK = "all blocks"  # every block on a space: what a removal may take, down to the ground


class SpaceProperty(Enum):
    """A fact about one space."""

    UNOCCUPIED = "unoccupied"  # no worker and no dome
    PERIMETER = "perimeter"    # on the board's edge
    CORNER = "corner"          # one of the board's four corners
    DOMED = "domed"


class Compare(Enum):
    LT = "<"
    LE = "<="
    EQ = "=="
    NE = "!="
    GE = ">="
    GT = ">"

    def holds(self, left: int, right: int) -> bool:
        return _COMPARISONS[self](left, right)


_COMPARISONS: dict[Compare, Callable[[int, int], bool]] = {
    Compare.LT: lambda a, b: a < b, Compare.LE: lambda a, b: a <= b, Compare.EQ: lambda a, b: a == b,
    Compare.NE: lambda a, b: a != b, Compare.GE: lambda a, b: a >= b, Compare.GT: lambda a, b: a > b,
}


class Scope(Enum):
    """How far back a condition over the event log looks."""

    THIS_TURN = "this turn"
    LAST_TURN = "your last turn"   # the owner's most recent turn (its own, not anyone's)


class Quantity(Enum):
    """Board-wide counts a condition may compare."""

    COMPLETE_TOWERS = "complete towers"


class SetupKind(Enum):
    """What a setup sentence says: a mode's (who places, how many, teams, who moves first) or a
    card's about its holder."""

    EACH_PLAYER = "each player places N workers"
    TEAM_PLAYER = "the first/second player of each team places N workers"
    TEAMMATES = "players ... are teammates"
    FIRST_TURN = "the first/second player of each team takes the first turn"
    YOU_PLACE = "you place N workers"
    FIRST = "you place your workers first"
    WHERE = "you place your workers on ... spaces"
    OPPOSITE_EDGES = "you place your workers on opposite edges of the board"
    FEMALE = "one of your workers is female"
    EXTRA = "you have N extra workers on your card"
    TOKEN = "after all workers are placed, you place your ... token on ..."


class Pairing(Enum):
    """Which seats are teammates, in seat (turn) order: across the table (A and C, B and D) or
    beside each other (A and B, C and D)."""

    ACROSS = "across the table"
    BESIDE = "beside each other"


class Timing(Enum):
    """A section of a card's rules: the rulebook's timing words, as the header writes them (in
    lower case, without '(once per game)'). Which sentences each may hold is the checker's table."""

    TURN = "turn"
    YOUR_TURN = "your turn"
    ALTERNATIVE_TURN_OPTIONAL = "alternative turn (optional)"
    ALTERNATIVE_TURN = "alternative turn"
    ADDITIONAL_TURN = "additional turn"
    YOUR_MOVE = "your move"
    YOUR_BUILD = "your build"
    ALTERNATIVE_BUILD = "alternative build"
    END_OF_YOUR_TURN = "end of your turn"
    START_OF_YOUR_TURN = "start of your turn"
    OPPONENTS_TURN = "opponent's turn"
    WIN_CONDITION = "win condition"
    ALTERNATIVE_WIN_CONDITION = "alternative win condition"
    LOSS_CONDITION = "loss condition"
    AT_ALL_TIMES = "at all times"
    SETUP = "setup"


class HappeningKind(Enum):
    """What an automatic happening is: a worker removed, removed and its space built on, a
    player's loss (an opponent flanked; or the player of the worker whose step triggered it), a
    slide of a worker, a token put on a built block."""

    REMOVAL = "removal"
    REMOVAL_AND_BUILD = "removal and build"
    LOSS = "loss"
    SLIDE = "slide"
    TOKEN = "token"
    OWNER_LOSS = "its player's loss"
    ADDITIONAL_TURN = "an additional turn"


class IfPossible(Enum):
    """When a pack judges whether an 'if possible' obligation can be met: over the whole turn (some
    complete legal turn meets it), or late, at the moment it applies (some step meets it, whether
    or not the turn can then be completed: a player who can only meet it by a step after which the
    turn cannot go on has no turn)."""

    WHOLE_TURN = "whole-turn"
    LATE = "late"


class RulesKind(Enum):
    """Whose rules a text is: the pack's base card, a god's or hero's card, or a mode."""

    BASE = "base"
    GOD = "god"
    HERO = "hero"
    MODE = "mode"

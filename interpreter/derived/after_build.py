"""What a turn may do after its last build, as the kernels lower it (kernel.py): a second build by
the same worker (`Again`), builds the seat's other worker may make (`LaterBuilds`), a build made
again and again (`BuildsRepeated`), a token put on
the square built (`TokenOnBuilt`), a token the seat may put around the moved worker
(`TokenAfter`), a block a worker that did not move may take off (`RemoveAfter`). Each is a
general part, found in the typed steps by the derived compiler (steps.py), never in a card's
text."""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import Enum
from typing import TYPE_CHECKING

from ...dsl.vocabulary import (
    Owner,
    Piece,
    PieceIs,
    Step,
    StepPattern,
    Verb,
)
from ...dsl.vocabulary.parts import Condition
from ..chain.steps import WayParts
from ..model.state import Event

if TYPE_CHECKING:
    pass


class SameSquare(Enum):
    """Where a second build may go, against the square of the build just made."""

    EITHER = "either"
    ONLY = "only"  # ('on the same space')
    NEVER = "never"  # ('not on the same space')


@dataclass(frozen=True)
class Again:
    """An optional last build by the worker that has just built ('it may build one additional
    time, ...'), counted with the build before it: its step, its one way with the relation to
    the first build's square taken out of the filters, and that relation. The other filters read
    only the square they judge (the first build changes no other square's)."""

    step: Step
    way: WayParts
    same_square: SameSquare


@dataclass(frozen=True)
class LaterBuilds:
    """Builds the seat's worker that did not move may make after the turn's last build, up to
    `times` of them ('if your unmoved worker is on the ground level, it may build up to three
    times'), while it stands on one of `levels` (the step's guard on it: every level without
    one). Each is the next piece on a free space around it that passes `filters`, which read
    only that space, the piece and its level ('not a dome')."""

    step: Step
    times: int
    levels: frozenset[int]
    filters: tuple[Condition, ...] = ()


@dataclass(frozen=True)
class BuildsRepeated:
    """A last build the worker may make again and again, each time the next piece on a space
    around it ('your worker may build any number of times instead, spending 1 coin each time'):
    up to `times` builds (None: no number), each paying `costs` from the seat's counters, so at
    most as many as the counters pay for; none at all is a turn too."""

    times: int | None
    #: What each build costs: (counter, amount), every amount at least 1.
    costs: tuple[tuple[str, int], ...]


@dataclass(frozen=True)
class TokenOnBuilt:
    """An automatic step after a build that only adds to its events: a token of `kind` of the
    seat's goes on the square just built while the game's allowance (`limit`, None: no limit)
    lasts, counted on the seat's card (`counter`); where the step follows builds of one piece
    only (`piece`: a block, a dome; None for any build)."""

    seat: int
    kind: str
    limit: int | None
    counter: str
    piece: Piece | None = None

    def triggered(self, trigger: StepPattern) -> TokenOnBuilt | None:
        """The step as a follow-up of the builds `trigger` matches: None unless what the trigger
        asks of a build is at most its piece."""
        if trigger.verb is not Verb.BUILD or trigger.owner is not Owner.YOURS:
            return None
        if not trigger.filters:
            return self
        if len(trigger.filters) == 1 and isinstance(part := trigger.filters[0], PieceIs) and part.piece in (
                Piece.BLOCK, Piece.DOME) and self.piece is None:
            return replace(self, piece=part.piece)
        return None

    def events(self, events: tuple[Event, ...], counters: dict[tuple[int, str], int]) -> tuple[Event, ...]:
        """The turn's `events` (its last build among them) with the step's own after them, read
        from the card's counters before the turn, as the chain's step makes them (the build has
        taken any token off its square)."""
        built = next(event for event in reversed(events) if event[0] == "build")
        square, dome = built[2], built[4]
        if self.piece is not None and (self.piece is Piece.DOME) != dome:
            return events
        placed = counters.get((self.seat, self.counter), 0)
        if self.limit is not None and placed >= self.limit:
            return events
        return (*events, ("token", self.seat, self.kind, -1, square), ("counter", self.seat, self.counter, placed + 1))


@dataclass(frozen=True)
class TokenAfter:
    """The turn's last step, which the seat may take: its token of `kind` goes on a space around
    the moved worker that passes `filters` (an 'unoccupied' among them) and holds no token,
    taken from wherever it was ('you may place your talus token on an unoccupied space
    neighboring the moved worker')."""

    seat: int
    kind: str
    filters: tuple[Condition, ...]


@dataclass(frozen=True)
class RemoveAfter:
    """The turn's last step, which the seat may take: a worker of the seat's that did not move
    takes the top block off a space around it that passes `filters` (an 'unoccupied' among
    them: 'your unmoved worker may remove a block from an unoccupied neighboring space')."""

    filters: tuple[Condition, ...]


#: A last step the seat may take after the build, as the kernels lower it (last_choice.py).
LastStep = TokenAfter | RemoveAfter

__all__ = ["Again", "BuildsRepeated", "LastStep", "LaterBuilds", "RemoveAfter", "SameSquare", "TokenAfter",
           "TokenOnBuilt"]

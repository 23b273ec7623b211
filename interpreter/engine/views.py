"""What one seat may see of a game: the state with the pieces hidden from it left out.

A card may keep a piece secret from the other teams ('you secretly place your abyss token ...':
`SetupToken.secret`). Every reader that acts for a seat (an agent, an external bot, a person at
the keyboard or in the browser, a record saved for that seat) reads the seat's view, never the
state itself: the view has no trace of a hidden piece, neither on the board nor in the log of the
turns (the steps that placed it, the events that moved or removed it). The rules are played on the
whole state; a seat's turns are listed on its view, which is what it believes the board to be.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..model.state import Action, Event, GameState, TurnRecord


class Secrets:
    """The pieces cards keep hidden: each (holder seat, token kind) is seen only by the holder's
    team."""

    __slots__ = ("tokens", "_redacted")

    def __init__(self, tokens: frozenset[tuple[int, str]]) -> None:
        self.tokens = tokens
        #: The last history redacted for each hidden set: (the history list, how many records it
        #: had, their redaction, its last record: a log cut and grown again differs there). A
        #: game's views are made turn after turn from one growing log: only the records added
        #: since are redacted again.
        self._redacted: dict[frozenset[tuple[int, str]],
                             tuple[list[TurnRecord], int, list[TurnRecord], TurnRecord]] = {}

    def __bool__(self) -> bool:
        return bool(self.tokens)

    def hidden_from(self, state: GameState, *seats: int) -> frozenset[tuple[int, str]]:
        """The secret tokens (holder, kind) the seats must not see: those of teams that are not
        theirs (with several seats, what any of them must not see: a screen they share)."""
        teams = {state.seats[seat].team for seat in seats}
        return frozenset((holder, kind) for holder, kind in self.tokens
                         if any(state.seats[holder].team != team for team in teams))

    def view(self, state: GameState, *seats: int) -> GameState:
        """What the seats may see of `state`: the state itself when nothing is hidden from them,
        else a copy without the hidden tokens and without the steps and events that tell of them."""
        hidden = self.hidden_from(state, *seats)
        if not hidden:
            return state
        seen = state.fork()  # (sharing the log, which is replaced by the redacted one below)
        for square, (kind, holder) in list(seen.tokens.items()):
            if (holder, kind) in hidden:
                seen.set_token(square, None)
        seen.history = self._redacted_history(state.history, hidden)
        return seen

    def _redacted_history(self, history: list[TurnRecord], hidden: frozenset[tuple[int, str]]) -> list[TurnRecord]:
        """The log without what is hidden, as a new list: the records added to the same log since
        the last call are redacted, the others taken from then (unless the log was cut)."""
        known = self._redacted.get(hidden)
        count = len(history)
        if known is not None and known[0] is history and 0 < known[1] <= count and history[known[1] - 1] is known[3]:
            redacted = known[2] + [redacted_record(record, hidden) for record in history[known[1]:]]
        else:
            redacted = [redacted_record(record, hidden) for record in history]
        if count:
            self._redacted[hidden] = (history, count, redacted, history[-1])
        return redacted[:]


def redacted_record(record: TurnRecord, hidden: frozenset[tuple[int, str]]) -> TurnRecord:
    """A turn's record without the steps and events about hidden tokens."""
    seat = record.seat
    steps = tuple(step for step in record.steps if not _step_hidden(seat, step, hidden))
    events = tuple(event for event in record.events if not _event_hidden(event, hidden))
    if len(steps) == len(record.steps) and len(events) == len(record.events):
        return record
    return TurnRecord((seat, steps, events))


def redacted_steps(seat: int, steps: Iterable[Action], hidden: frozenset[tuple[int, str]]) -> tuple[Action, ...]:
    """A seat's steps (a turn or a placement) without those that place a hidden token."""
    return tuple(step for step in steps if not _step_hidden(seat, step, hidden))


def _step_hidden(seat: int, step: Action, hidden: frozenset[tuple[int, str]]) -> bool:
    """A step `token KIND SPACE` of the holder of a hidden kind."""
    return step[0] == "token" and (seat, step[1]) in hidden


def _event_hidden(event: Event, hidden: frozenset[tuple[int, str]]) -> bool:
    """An event ('token', holder, kind, from, to) of a hidden token."""
    return event[0] == "token" and (event[1], event[2]) in hidden

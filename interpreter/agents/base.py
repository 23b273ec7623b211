"""The agent interface: an agent sees its seat's view of the game and chooses one turn from it.

The game loop (games/play.py) asks an agent for `placement(game, seat)` and `turn(game)`. The
agents of this package answer `turn` through a `SeatView`: what the seat may see (the state, its
seat, its legal turns, the rules to search with). A piece a card keeps secret from the seat (a
secret token) is not in the view (engine/views.py), so no agent can play on what its seat must
not know.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator
from typing import TYPE_CHECKING, Protocol

from ...dsl.errors import SantoriniError
from ..engine.engine import Engine
from ..games.game import Game, settle_stuck
from ..games.play import Agent, RandomAgent
from ..model.state import Action, GameState

if TYPE_CHECKING:  # (documents.py imports the YAML library: read only when a bot asks)
    from ..games.documents import Document

Turn = tuple[Action, ...]

__all__ = ["Agent", "AgentError", "RandomAgent", "SeatAgent", "SeatView", "Turn", "ViewAgent"]


class AgentError(SantoriniError, ValueError):
    """An agent that cannot play: a bad agent spec, a bot that breaks the protocol. The message
    names the agent and says what was expected."""


class SeatView:
    """What one seat may see of a game, read-only: the state, the seat, its legal turns.

    `state` is the seat's view of the game's state (engine.view): the live state itself when the
    cards hide nothing from the seat, else a copy without the hidden pieces. An agent must not
    change it (a search copies it: `view.state.copy()`). `engine` is the rules, which every player
    knows; a search plays them on its copies. The legal turns are the distinct outcomes the seat
    sees, listed once."""

    __slots__ = ("_game", "seat", "_turns")

    def __init__(self, game: Game, seat: int) -> None:
        self._game = game.view(seat)
        self.seat = seat
        self._turns: tuple[Turn, ...] | None = None

    @property
    def state(self) -> GameState:
        return self._game.state

    @property
    def engine(self) -> Engine:
        return self._game.engine

    @property
    def letter(self) -> str:
        return self._game.state.seats[self.seat].letter

    @property
    def team(self) -> int:
        return self._game.state.seats[self.seat].team

    def turns_in_random_order(self, rng: random.Random) -> Iterator[Turn]:
        """The seat's legal turns, each once, in a uniformly random order drawn from `rng`, made
        one at a time as they are asked for (engine.turns_in_random_order): for an agent that
        takes the first turn it likes."""
        state = self._game.state
        if state.to_move != self.seat:
            return iter(())
        return self._game.engine.turns_in_random_order(state, rng)

    def turns(self) -> tuple[Turn, ...]:
        """The seat's legal turns, one per distinct outcome (engine.turns), when it is to move."""
        if self._turns is None:
            state = self._game.state
            # (kept with their events: an agent may play each of them on a copy of the state)
            self._turns = tuple(self._game.engine.turns(state, keep_events=True)) if state.to_move == self.seat else ()
        return self._turns

    def settle_stuck(self, state: GameState) -> str:
        """For searches: settle the seat to move of `state` (a copy made from this view's state)
        that cannot complete a turn, as the game's rules do (games/game.py settle_stuck: with two
        teams it loses, with more it is out, without a loss condition it passes)."""
        return settle_stuck(dataclasses.replace(self._game, state=state))

    def position(self) -> Document:
        """The position now, as the spec writes a scenario (games/documents.py)."""
        from ..games.documents import position_document
        return position_document(self._game)

    def position_string(self) -> str:
        """The position now as one line (games/position.py; docs/scenarios.md, "Position
        strings"): what `position()` says, for a program that passes positions around."""
        from ..games.position import position_string
        return position_string(self._game)

    def game_so_far(self) -> Document:
        """The position play started from and the turns played since (its `history`): exact,
        even for a rule that reads what a seat did on its last turn (games/documents.py)."""
        from ..games.documents import game_document
        return game_document(self._game)


class SeatAgent(Protocol):
    """An agent of this package: given its seat's view, with at least one legal turn, it
    returns one of them (or an equivalent turn the engine accepts)."""

    def choose(self, view: SeatView) -> Turn:
        ...


class ViewAgent:
    """The bridge from the game loop's Agent to `choose(view)`: placement is uniformly random
    (as RandomAgent places), and a seat with no legal turn answers None (the loop settles it)
    without asking `choose`. Seeded with its own `random.Random`, so a seed gives the same game."""

    def __init__(self, rng: random.Random | None = None) -> None:
        self.rng = rng if rng is not None else random.Random(0)

    def placement(self, game: Game, seat: int) -> list[int]:
        return RandomAgent(self.rng).placement(game, seat)

    def turn(self, game: Game) -> Turn | None:
        view = SeatView(game, game.state.to_move)
        if game.state.winner is not None or not view.turns():
            return None
        return self.choose(view)

    def choose(self, view: SeatView) -> Turn:
        raise NotImplementedError

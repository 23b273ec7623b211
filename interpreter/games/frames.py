"""A game record played again, position by position: what `santorini render --turn N` draws one of,
and what the playground's Watch steps through.

A record is replayed under its own pack: its placements, then each turn in notation, played by the
rules. A turn the pack refuses, a placement it does not allow, a turn after the game has ended, are
faults of the file, located at the entry (`SourceErrors`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...dsl.errors import SourceError, SourceErrors
from ...dsl.source import Document, KeyPath
from ..engine.engine import IllegalTurn
from ..model.notation import NotationError, parse_turn
from ..model.state import GameState, TurnRecord
from .game import (
    Game,
    SetupError,
    end_of_setup,
    new_game,
    parse_players,
    place_as_written,
    placing_seats,
    resolve_all_stuck,
)
from .packs import UnknownName, resolve_pack

#: The error for a fault at a key path of the record, with its message.
Located = Callable[[KeyPath, str], SourceErrors]


@dataclass(frozen=True)
class Position:
    """What a picture shows: a state, and the turn that led to it (None after setup or a scenario
    without history)."""

    state: GameState
    last_turn: TurnRecord | None


def record_frames(document: Document, upto: int | None = None) -> Iterator[Position]:
    """A record's positions: after the setup, then after each turn (up to `upto` turns), the turn
    marked as the last. A game stopped in setup has one position: the workers placed, the next
    seat to place to move."""
    data: dict[str, Any] = document.data

    def located(key_path: KeyPath, message: str) -> SourceErrors:
        line, column = document.position(key_path)
        return SourceErrors([SourceError(document.path, line, column, message)])

    try:
        pack = resolve_pack(data["pack"], Path(document.path).parent)
    except UnknownName as err:
        raise located(("pack",), str(err)) from None
    try:
        game = new_game(pack, parse_players(data["players"]), data.get("mode"))
    except SetupError as err:
        raise located(("players",), str(err)) from None
    stopped = _place(game, data, located)
    if not stopped:
        end_of_setup(game)
        resolve_all_stuck(game)
    yield _position(game.state)
    if stopped:
        return
    turns: list[str] = data["turns"]
    for number, text in enumerate(turns[:upto], start=1):
        if game.state.winner is not None:
            raise located(("turns", number - 1), f"turn {number}: the game is over before it "
                                                 f"(winner {game.state.team_letters[game.state.winner]})")
        game.state = _played(game, number, text, located)
        resolve_all_stuck(game)  # (who is to move next, or who won because the next seat cannot play)
        yield _position(game.state)


def _position(state: GameState) -> Position:
    return Position(state, state.history[-1] if state.history else None)


def _place(game: Game, data: dict[str, Any], located: Located) -> bool:
    """The record's placements, each checked as `replay` checks them. Returns whether the game
    stopped in setup (fewer placements than seats that place, no turn and no winner: a game quit
    before its end); the seat to move is then the one that places next."""
    placements: list[str] = data["placements"]
    seats = placing_seats(game)
    stopped = len(placements) < len(seats) and not data["turns"] and "result" in data \
        and (data["result"] or {}).get("winner") is None
    if len(placements) != len(seats) and not stopped:
        raise located(("placements",), f"the record has {len(placements)} placements; {len(seats)} seats place workers")
    for index, (seat, text) in enumerate(zip(seats, placements, strict=False)):
        try:
            place_as_written(game, seat, text)
        except (SetupError, NotationError) as err:
            raise located(("placements", index), str(err)) from None
    if stopped:
        game.state.to_move = seats[len(placements)]
    return stopped


def _played(game: Game, number: int, text: str, located: Located) -> GameState:
    """The state after the record's turn `number`, played by the rules."""
    try:
        return game.engine.play(game.state, parse_turn(game.state, text))
    except (NotationError, IllegalTurn) as err:
        raise located(("turns", number - 1), f"turn {number} '{text}': {err}") from None


__all__ = ["Position", "record_frames"]

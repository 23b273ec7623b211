"""What the server sends a page, as JSON: a table's game, the steps a person may take next.

Everything here is read from the library (`santorini.Game`, the engine's `legal_next`, the SVG
renderer); nothing is decided here. Squares and workers go by their names ('c3', 'A1'), as the
turn notation writes them, so that the page needs no numbering of its own.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..interpreter.games.game import free_squares
from ..interpreter.model.board import square_name
from ..interpreter.model.notation import format_step
from ..interpreter.model.state import Action, GameState
from ..interpreter.model.svg import board_svg
from .tables import Table

#: A JSON object as the server sends it.
Json = dict[str, Any]


def table_view(table: Table) -> Json:
    """The game at a table as its page may see it (`Table.seen`): seats, whose turn, the board,
    the turns told so far."""
    game = table.seen()
    state = game.state
    person = table.person_to_move()
    return {
        "id": table.id,
        "pack": game.pack.name,
        "mode": game.mode,
        "seed": table.seed,
        "seats": [{"letter": letter, "team": state.team_letters[seat.team], "cards": list(cards), "player": player}
                  for letter, seat, cards, player in zip(game.seats, state.seats, game.cards, table.players,
                                                         strict=True)],
        "to_move": game.to_move,
        "in_setup": game.in_setup,
        "place": game.workers_to_place() if person and game.in_setup else [],  # ('A1', or 'token KIND')
        "free": [square_name(s) for s in free_squares(state)] if person and game.in_setup else [],
        "person_to_move": person,
        "winner": game.winner,
        "over": game.is_over,
        "thinking": table.thinking,
        "failure": table.failure,
        "version": table.version,
        "svg": game.svg(size=None),
        "told": [{"seat": told.seat, "text": told.text, "said": told.said} for told in table.told],
        "position": game.position(),
    }


def options_view(legal: Sequence[Action], complete: bool, after: GameState, said: list[str]) -> Json:
    """The steps that may come next (each in notation, with its verb, worker and square for the
    page's clicks and rings), whether the turn may end here, the board after the steps taken,
    and what those steps did beside themselves."""
    options = [_option(after, action) for action in legal]
    return {"options": options, "complete": complete, "said": said, "svg": board_svg(after, last_turn=None, size=None)}


def _option(state: GameState, action: Action) -> Json:
    verb, worker, target = action
    has_worker = verb not in ("use", "pass", "token") and isinstance(worker, int) and worker >= 0
    # (a `point` step's target is a direction, not a square: the page offers it as a button)
    has_square = verb not in ("use", "pass", "remove", "point") and isinstance(target, int) and 0 <= target < 25
    return {"step": format_step(state, action), "verb": verb,
            "worker": state.worker_name(worker) if has_worker else None,
            "square": square_name(target) if has_square else None}


__all__ = ["Json", "options_view", "table_view"]

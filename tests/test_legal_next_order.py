"""`legal_next` lists the next steps in one order whatever their kinds: announcements, then the
steps of workers (by worker), then tokens (by kind). A step that names a worker and one that names
a kind of token were once compared with each other, and listing them crashed."""

from __future__ import annotations

from random_cards import card_text, load, pack_with, set_workers

from santorini.interpreter.games.game import new_game, parse_players
from santorini.interpreter.model.board import parse_square
from santorini.interpreter.model.notation import format_step

RULES = """End of Your Turn:
  you may place your extra worker on any unoccupied space, not on a perimeter space.
End of Your Turn:
  you may place your talus token on an unoccupied space neighboring the moved worker.
Setup:
  you have two extra workers on your card.
"""


def test_a_worker_placed_and_a_token_placed_are_listed_side_by_side() -> None:
    card = load(card_text(RULES))
    game = new_game(pack_with(card), parse_players([card.name, "Mortal"]))
    state = set_workers(game, [[parse_square("c3"), parse_square("a1")], [parse_square("e5"), parse_square("e1")]])
    prefix = (("move", 0, parse_square("c4")), ("build", 0, parse_square("c5")))
    steps, complete = game.engine.legal_next(state, prefix)
    assert complete  # (both end-of-turn steps may be declined)
    written = [format_step(state, step) for step in steps]
    kinds = [text.split()[0] for text in written]
    assert "place" in kinds and "token" in kinds, written
    assert kinds == sorted(kinds, key=lambda kind: kind == "token"), written  # (workers' steps, then tokens)
    # the extra worker goes on any unoccupied inner space: the nine but c4, where A1 now stands
    assert sorted(t for t in written if t.startswith("place")) == sorted(
        f"place A3 {square}" for square in ("b2", "b3", "b4", "c2", "c3", "d2", "d3", "d4"))

"""A worker placed from the card, then moved and built with, drawn whole by the derived code
(interpreter/derived/placed_first.py) after the announcement of its once-per-game turn
(kernel.py's `after_use`), beside the plain turn.

The positions here come from games played from the setup, where the worker still waits on the
card (random positions put every worker on the board). A position counted by hand is in
test_masked_picker.py (`test_a_worker_placed_from_the_card_once_then_moves_and_builds`)."""

from __future__ import annotations

import random

import pytest
from test_fast_paths import disagreement, playout_disagreement
from test_tally import counted_games, counting

from santorini.interpreter.derived import placed_first
from santorini.interpreter.engine.engine import Engine
from santorini.interpreter.games.game import Game, end_of_setup, place_workers
from santorini.interpreter.model.state import GameState


def positions_with_a_worker_waiting(game: Game, generic: Engine, seat: int, games: int,
                                    seed: str) -> list[GameState]:
    """Positions of random games from the setup where `seat` is to move and its worker still
    waits on the card."""
    rng = random.Random(seed)
    found = []
    for _ in range(games):
        played = game.restart()
        squares = rng.sample(range(25), 4)
        place_workers(played, 0, squares[:2])
        place_workers(played, 1, squares[2:])
        end_of_setup(played)
        state = played.state
        for _ in range(30):
            if state.winner is not None:
                break
            team = state.seats[seat].team
            if state.to_move == seat and any(worker in state.reserve for worker in state.members[team]):
                found.append(state)
            turns = generic.turns(state)
            if not turns:
                break
            state = generic.play(state, turns[rng.randrange(len(turns))])
    return found


@pytest.mark.parametrize("other", ["Mortal", "Aphrodite", "Chronus", "Limus"])
def test_the_placed_turn_is_the_chains_in_games_from_the_setup(other: str) -> None:
    """Jason against a Mortal and against cards that bind him (Aphrodite's obligation, read from
    where the worker was placed; Chronus's towers; Limus's build ban): the kernels' turns, draws,
    counts and whole random games are the chain's, while the worker waits on the card, once it
    is placed, and once the card's mark is set."""
    got = counted_games("bga", ("Jason", other))
    assert got is not None
    game, generic = got
    assert game.engine._kernelled[0]
    states = positions_with_a_worker_waiting(game, generic, 0, 6, f"placed {other}")
    assert len(states) >= 6
    for index, state in enumerate(states):
        assert disagreement(game.engine, generic, state, [index], perft_work=2000) is None
        assert playout_disagreement(game, generic, state, index) is None


def test_a_draw_that_takes_the_places_in_another_order_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The chain meets each target first from the first place (in square order) that reaches it:
    a draw that took the places the other way round would give another turn at the same index."""
    pair = counted_games("bga", ("Jason", "Mortal"))
    assert pair is not None
    game, generic = pair
    states = positions_with_a_worker_waiting(game, generic, 0, 4, "places reversed")
    found = placed_first.nth_placed
    monkeypatch.setattr(placed_first, "nth_placed",
                        lambda index, firsts, after: found(index, firsts[::-1], after))
    fresh = counting(game)
    assert any(disagreement(fresh.engine, generic, state, range(8), perft_work=0) is not None for state in states)

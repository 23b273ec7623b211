"""Parts that need a token on the board sleep while there is none (interpreter/engine/sleeping.py):
the engine then answers from the powers without them, on its fast paths, and every answer is the
generic chain's.

Tartarus's loss and veto need the Abyss, which only the setup places. In a state without it (the
view of the seat it is hidden from, a game whose Abyss was built on), its opponent's turns are
those of a Mortal against a Mortal: the asleep engine serves them, and they agree with the generic
chain (fast=False). With the Abyss on the board the parts are awake.
"""

from __future__ import annotations

import random

import pytest
from random_cards import card_text, load

from santorini.interpreter.engine.engine import Engine
from santorini.interpreter.games.game import Game, end_of_setup, new_game, parse_players, place_workers
from santorini.interpreter.games.packs import load_pack
from santorini.interpreter.model.board import parse_square


def _started(gods: list[str], abyss: str | None) -> Game:
    """Workers on b3 d3 (A) and c4 c2 (B); the Abyss on `abyss` if given."""
    game = new_game(load_pack("bga"), parse_players(gods))
    first, second = (0, 1) if gods[0] == "Tartarus" else (1, 0)
    place_workers(game, first, [parse_square("b3"), parse_square("d3")])
    place_workers(game, second, [parse_square("c4"), parse_square("c2")])
    if abyss is not None:
        holder = gods.index("Tartarus")
        game.state.set_token(parse_square(abyss), ("abyss", holder))
    end_of_setup(game)
    return game


def _generic(game: Game) -> Engine:
    return Engine(game.pack.base.power, [[c.power for c in seat] for seat in game.cards], fast=False,
                  teams=[seat.team for seat in game.state.seats], if_possible=game.pack.if_possible)


@pytest.mark.parametrize("opponent", ["Mortal", "Poseidon", "Hermes", "Artemis", "Minotaur", "Prometheus"])
@pytest.mark.parametrize("abyss", [None, "a1"])
def test_asleep_or_awake_the_answers_are_the_generic_chain_s(opponent: str, abyss: str | None) -> None:
    for gods in (["Tartarus", opponent], [opponent, "Tartarus"]):
        game = _started(gods, abyss)
        engine, generic, state = game.engine, _generic(game), game.state
        assert engine._sleeping == {"abyss"}
        assert (engine._for(state) is engine._asleep) == (abyss is None)
        rng = random.Random(opponent)
        for _ in range(6):  # (a few turns in, each seat to move)
            assert set(engine.outcomes(state)) == set(generic.outcomes(state))
            assert engine.perft(state, 2) == generic.perft(state, 2)
            assert engine.can_win(state) == generic.can_win(state)
            turn = engine.random_turn(state, rng)
            if turn is None:
                break
            engine.play_in_place(state, turn)
            if state.winner is not None:
                break


def test_a_token_a_turn_may_place_keeps_its_parts_awake() -> None:
    """Where a step of a turn may put the token on the board, a state without it may have one
    later in the same turn: nothing sleeps."""
    rules = ("End of Your Turn:\n"
             "  you may place your abyss token on an unoccupied space neighboring the moved worker.\n"
             "At All Times:\n"
             "  each time a worker moves onto a space with your abyss token, its player loses the game.\n")
    card = load(card_text(rules))
    engine = Engine(load_pack("bga").base.power, [[card.power], []])
    assert engine._sleeping == frozenset() and engine._asleep is None


def test_the_opponent_s_view_is_served_asleep_and_the_holder_s_awake() -> None:
    game = _started(["Tartarus", "Mortal"], "a1")
    engine = game.engine
    assert engine._for(engine.view(game.state, 1)) is engine._asleep
    assert engine._for(engine.view(game.state, 0)) is engine

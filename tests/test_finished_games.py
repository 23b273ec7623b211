"""A finished game has no turn, for every query of the engine (the spec: perft counts a won
position 0), and asking leaves the state as it was.

The board of a won game often allows moves: the winner stands on level 3 with free squares around,
or a fifth complete tower made on the other seat's turn (Chronus) leaves that seat to move. The
engine must not list those turns (a program that searches from a finished position would play on
past the end), and must not walk them either: a walk undoes its steps, and undoing a win it did
not make cleared the winner.
"""

from __future__ import annotations

import random

import pytest

from santorini.interpreter.engine.engine import Engine
from santorini.interpreter.games.game import Game, new_game, parse_players
from santorini.interpreter.games.packs import load_pack
from santorini.interpreter.games.play import RandomAgent, run_game

#: Pairings whose seats are served by each path: the plain turn, a counted second build, the
#: derived kernels, a seat bound by another's ban, a seat listed by the chain, and Chronus's win
#: by towers, which a Poseidon may hand it on Poseidon's own turn.
PAIRINGS = [["Mortal", "Mortal"], ["Demeter", "Athena"], ["Artemis", "Hera"], ["Hermes", "Aphrodite"],
            ["Poseidon", "Chronus"], ["Chronus", "Atlas"], ["Pan", "Persephone"]]


def finished_games(gods: list[str], count: int) -> list[Game]:
    """`count` random games of the pairing played to a win (games that end otherwise skipped)."""
    games: list[Game] = []
    for seed in range(200):
        game = new_game(load_pack("bga"), parse_players(gods))
        run_game(game, [RandomAgent(random.Random(seed)) for _ in game.players])
        if game.state.winner is not None:
            games.append(game)
            if len(games) == count:
                return games
    raise AssertionError(f"fewer than {count} won games of {gods}")


def generic(game: Game) -> Engine:
    pack = game.pack
    return Engine(pack.base.power, [[card.power for card in seat] for seat in game.cards], fast=False,
                  teams=[seat.team for seat in game.state.seats], if_possible=pack.if_possible)


@pytest.mark.parametrize("gods", PAIRINGS, ids=" v ".join)
def test_a_finished_game_has_no_turn_and_asking_changes_nothing(gods: list[str]) -> None:
    for game in finished_games(gods, 4):
        state = game.state
        before = (state.hash, state.winner, state.to_move, len(state.history), state.copy().heights)
        for engine in (game.engine, generic(game)):
            assert engine.outcomes(state) == {}
            assert engine.turns(state) == []
            assert engine.turns(state, keep_events=True) == []
            assert list(engine.turns_in_random_order(state, random.Random(1))) == []
            assert engine.random_turn(state, random.Random(1)) is None
            assert not engine.has_turn(state)
            assert not engine.can_win(state)
            assert engine.legal_next(state, ()) == ([], False)
            assert engine.perft(state, 1) == 0
            assert (state.hash, state.winner, state.to_move, len(state.history), state.heights) == before


def test_the_board_of_some_finished_games_still_allows_moves() -> None:
    """What the test above guards against exists: a finished game whose seat to move would have
    turns on that board, were the game not over (a copy with the winner taken off lists them)."""
    playable = 0
    for gods in PAIRINGS:
        for game in finished_games(gods, 4):
            board = game.state.copy()
            board.winner = None
            playable += bool(game.engine.turns(board))
    assert playable >= 10

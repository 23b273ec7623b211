"""Random-play conformance: seeded games for every ordered pair of a pack's cards (Mortal
included). After every step the board invariants hold, and every game ends with a winner. The
same seeded game played by the engine's playout (one loop for the whole game) is the same game."""

from __future__ import annotations

import itertools
import random

import pytest

from santorini.interpreter.games.game import SetupError, new_game, parse_players
from santorini.interpreter.games.packs import MORTAL, load_pack
from santorini.interpreter.games.play import RandomAgent, run_game
from santorini.interpreter.model.board import SQUARES
from santorini.interpreter.model.state import GameState
from support import PACKS

#: One seeded game per ordered pair (and its playout twin): the pairs grow with the square of the
#: cards, and every pair is still played.
GAMES_PER_PAIR = 1


def invariants(state: GameState) -> None:
    occupied = [p for p in state.worker_pos if p >= 0]
    assert len(occupied) == len(set(occupied)), "two workers on one space"
    for square in SQUARES:
        assert 0 <= state.heights[square] <= 3, "height out of range"
        worker = state.occupant[square]
        if worker >= 0:
            assert state.worker_pos[worker] == square, "occupancy and positions disagree"
            assert not state.domes[square], "a worker stands on a dome"
    for worker, square in enumerate(state.worker_pos):
        if square >= 0:
            assert state.occupant[square] == worker
    assert state.blocked_bits() == sum(1 << square for square in SQUARES if state.blocked[square])
    assert state.level_field == sum(1 << (25 * height + square) for square, height in enumerate(state.heights))
    if state.winner is None or len(state.team_letters) > 2:  # a game of two ends with the board as it is
        for seat in state.out:  # a player who is out has nothing left on the board
            assert not state.team_workers(state.seats[seat].team), \
                f"seat {state.seats[seat].letter} is out but has workers"
            assert all(holder != seat for _, holder in state.tokens.values()), "a seat that is out holds a token"


class CheckingAgent(RandomAgent):
    """A random player that replays its chosen turn step by step, checking the invariants."""

    def turn(self, game):
        steps = super().turn(game)
        if steps is None:
            assert not game.engine.has_turn(game.state)
            return None
        visited = []
        seen = game.engine.view(game.state, game.state.to_move)  # (chosen on what the seat sees)
        accepted = game.engine.trace(seen, steps, lambda state, prefix: (invariants(state), visited.append(prefix)))
        assert accepted and len(visited) == len(steps)
        return steps


def pairs(pack_name: str) -> list[tuple[str, str]]:
    names = [MORTAL, *sorted(load_pack(pack_name).cards)]
    return list(itertools.product(names, repeat=2))


def final(state: GameState) -> tuple:
    """What a game leaves behind, to compare two ways of playing it."""
    return (state.hash, state.to_move, state.winner, sorted(state.out), state.history,
            state.heights, state.domes, state.worker_pos, state.blocked_bits(), state.level_field)


@pytest.mark.parametrize("pack", PACKS)
def test_random_games_for_every_ordered_pair(pack: str) -> None:
    reasons = []
    for first, second in pairs(pack):
        for seed in range(GAMES_PER_PAIR):
            try:
                game = new_game(load_pack(pack), parse_players([first, second]))
            except SetupError as err:  # banned pairs cannot meet
                assert "bans" in str(err)
                continue
            rng = random.Random(f"{pack}-{first}-{second}-{seed}")
            log = run_game(game, [CheckingAgent(rng), CheckingAgent(rng)])  # turn by turn
            invariants(game.state)
            assert log.winner in ("A", "B"), f"{first} v {second} seed {seed}: {log.reason}"
            reasons.append(log.reason)

            played = game.restart()
            rng = random.Random(f"{pack}-{first}-{second}-{seed}")
            played_log = run_game(played, [RandomAgent(rng), RandomAgent(rng)])  # Engine.playout
            assert (played_log.turn_steps, played_log.reason) == (log.turn_steps, log.reason), f"{first} v {second}"
            assert final(played.state) == final(game.state), f"{first} v {second} seed {seed}"
    assert any("cannot complete a turn" in reason for reason in reasons), "no game ended by a stuck seat"


def test_same_seed_same_game() -> None:
    logs = []
    for _ in range(2):
        game = new_game(load_pack("bga"), parse_players(["Hermes", "Apollo"]))
        rng = random.Random(7)
        logs.append(run_game(game, [RandomAgent(rng), RandomAgent(rng)]))
    assert logs[0] == logs[1]


def play_each_card(pack: str, seats: int) -> int:
    """For each card of the pack that allows `seats` players, one seeded game with others drawn
    at random (Mortal among them where the mode allows it), turn by turn with the invariants
    checked after every step; the game must end with a team's win, and Engine.playout must play
    the same game. Returns how many games were played: one a card (others are drawn again when
    a card bans one of them)."""
    loaded = load_pack(pack)
    names = sorted(name for name, card in loaded.cards.items() if seats in card.players)
    others = names + ([] if loaded.mode(None, seats).powers_required else [MORTAL])
    played_games = 0
    for name in names:
        rng = random.Random(f"{seats}-{pack}-{name}")
        for _ in range(50):
            players = [name, *rng.sample([n for n in others if n != name], seats - 1)]
            rng.shuffle(players)
            try:
                template = new_game(loaded, parse_players(players))
                break
            except SetupError as err:  # banned pairs cannot meet: draw the others again
                assert "bans" in str(err)
        else:
            raise AssertionError(f"{pack}: no {seats}-player game for {name} in 50 draws")
        game = template.restart()
        rng = random.Random(f"{seats}-{pack}-{name}-game")
        log = run_game(game, [CheckingAgent(rng) for _ in range(seats)])
        invariants(game.state)
        assert log.winner in game.state.team_letters, f"{pack} {players}: {log.reason}"
        played = template.restart()
        rng = random.Random(f"{seats}-{pack}-{name}-game")
        assert run_game(played, [RandomAgent(rng) for _ in range(seats)]) == log, f"{pack} {players}"
        assert final(played.state) == final(game.state), f"{pack} {players}"
        played_games += 1
    return played_games

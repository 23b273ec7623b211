"""`Engine.turns_in_random_order`: every legal turn once, in a uniformly random order, each made
only when asked for (the greedy agent takes the first turn it likes). The fast engine's order is
compared with the generic chain's on every card by tests/test_fast_paths.py; here, what the
order is: a permutation of `turns`, uniform, lazy, and the same from the same seed."""

from __future__ import annotations

import random
from collections import Counter
from itertools import islice, permutations

import pytest
import yaml

from santorini.interpreter.agents.base import AgentError, SeatView
from santorini.interpreter.agents.greedy import GreedyAgent
from santorini.interpreter.games.game import Game, new_game, parse_players
from santorini.interpreter.games.packs import load_pack
from santorini.interpreter.games.play import RandomAgent, run_game
from santorini.interpreter.model.notation import format_turn
from santorini.interpreter.model.state import GameState

#: Seat A (Mortal) has four turns: A1 (a1) moves to a2 or b2 and builds on a1 or on the other of
#: the two (every other square near them is domed); A2 (e1) is walled in.
FOUR_TURNS = {"name": "four turns", "edition": "bga", "players": ["Mortal", "Mortal"], "to_move": "A",
              "board": "0 0 0 0 0\n0 0 0 0 0\n0D 0D 0D 0 0\n0 0 0D 0D 0D\n0 0D 0D 0D 0\n",
              "workers": {"A1": "a1", "A2": "e1", "B1": "a5", "B2": "c5"}}
#: Seat A is walled in: no turn.
NO_TURN = {**FOUR_TURNS, "name": "no turn",
           "board": "0 0 0 0 0\n0 0 0 0 0\n0D 0D 0D 0 0\n0D 0D 0D 0D 0D\n0 0D 0D 0D 0\n"}


def positions(gods: list[str], seed: int, turns: int) -> list[GameState]:
    """The positions of a bga game of random players of `gods`, from the placement on, each
    with a turn of the seat to move next (at most `turns` turns are played)."""
    game = new_game(load_pack("bga"), parse_players(gods))
    rng = random.Random(seed)
    found: list[GameState] = []

    def keep(at: Game, seat: int, text: str) -> None:
        if at.state.winner is None and all(at.state.worker_pos[w] >= 0 for w in range(len(at.state.worker_pos))):
            found.append(at.state.copy())
    run_game(game, [RandomAgent(rng) for _ in gods], on_placement=keep, on_turn=keep, max_turns=turns)
    return found


def test_the_hand_made_positions_are_what_their_comments_say(position) -> None:  # noqa: ANN001
    game = position(yaml.safe_dump(FOUR_TURNS)).game
    assert sorted(format_turn(game.state, t) for t in game.engine.turns(game.state)) == [
        "move A1 a2; build A1 a1", "move A1 a2; build A1 b2", "move A1 b2; build A1 a1", "move A1 b2; build A1 a2"]
    none = position(yaml.safe_dump(NO_TURN), "none.yaml").game
    assert not none.engine.turns(none.state)


def test_each_order_of_four_turns_is_as_likely(position) -> None:  # noqa: ANN001
    """4,800 seeds over the 24 orders: each about 200 times. A binomial's standard deviation is
    14: a fair shuffle stays within 50 (these seeds: 23), while one that draws each place from
    all the indices, the classic mistake, puts orders near 150 and near 262 and 281."""
    game = position(yaml.safe_dump(FOUR_TURNS)).game
    engine, state = game.engine, game.state
    turns = engine.turns(state)
    seen = Counter(tuple(turns.index(t) for t in engine.turns_in_random_order(state, random.Random(seed)))
                   for seed in range(4800))
    assert set(seen) == set(permutations(range(4)))
    assert all(abs(count - 200) < 50 for count in seen.values()), seen


@pytest.mark.parametrize("gods", [["Mortal", "Mortal"], ["Poseidon", "Mortal"], ["Hermes", "Ares"],
                                  ["Demeter", "Hera"], ["Prometheus", "Athena"], ["Triton", "Aphrodite"]],
                         ids=lambda gods: " v ".join(gods))
def test_the_order_holds_every_turn_once_and_the_same_from_the_same_seed(gods: list[str]) -> None:
    """On positions of random games, with every kind of seat (listed, counted by its kernels,
    bound by the other seat)."""
    engine = new_game(load_pack("bga"), parse_players(gods)).engine
    found = positions(gods, 3, 12)
    assert len(found) > 4
    for state in found[::3]:
        turns = engine.turns(state)
        order = list(engine.turns_in_random_order(state, random.Random(5)))
        assert sorted(order) == sorted(turns) and len(set(order)) == len(order)
        assert order == list(engine.turns_in_random_order(state, random.Random(5)))


def test_a_counted_seat_draws_the_turns_asked_for_and_lists_none(monkeypatch: pytest.MonkeyPatch) -> None:
    """Poseidon's turns are counted by its kernels: the first turns of the order are drawn by
    their indices, and the list of its hundreds of turns is never made."""
    engine = new_game(load_pack("bga"), parse_players(["Poseidon", "Mortal"])).engine
    state = positions(["Poseidon", "Mortal"], 1, 0)[0]
    expected = engine.turns(state)
    assert len(expected) > 100

    def listing(*args: object, **kwargs: object) -> None:
        raise AssertionError("listed")
    monkeypatch.setattr(engine, "turns", listing)
    monkeypatch.setattr(engine, "_outcomes", listing)
    first = list(islice(engine.turns_in_random_order(state, random.Random(9)), 3))
    order = [expected[i] for i in _shuffled(len(expected), random.Random(9))[:3]]
    assert first == order
    for turn in first:  # each played on a copy with the events its draw kept, and legal
        copy = state.copy()
        engine.play_in_place(copy, turn)
        assert copy.history[-1][1] == turn


def _shuffled(count: int, rng: random.Random) -> list[int]:
    """The indices in the order a Fisher-Yates shuffle drawing place i from [i, count) gives."""
    order = list(range(count))
    for place in range(count):
        pick = rng.randrange(place, count)
        order[place], order[pick] = order[pick], order[place]
    return order


def test_a_view_with_no_turn_has_an_empty_order(position) -> None:  # noqa: ANN001
    game = position(yaml.safe_dump(NO_TURN)).game
    assert list(SeatView(game, 0).turns_in_random_order(random.Random(1))) == []
    game = position(yaml.safe_dump(FOUR_TURNS), "four.yaml").game
    assert list(SeatView(game, 1).turns_in_random_order(random.Random(1))) == []  # (not its turn)


def test_the_greedy_agent_answers_none_for_a_seat_with_no_turn(position) -> None:  # noqa: ANN001
    """It asks no `has_turn` first (the random order of no turns is empty): the loop settles the
    seat; `choose`, which is asked only for a seat with a turn, refuses."""
    game = position(yaml.safe_dump(NO_TURN)).game
    agent = GreedyAgent(random.Random(1))
    assert agent.turn(game) is None
    with pytest.raises(AgentError, match="no turn"):
        agent.choose(SeatView(game, 0))
    game = position(yaml.safe_dump(FOUR_TURNS), "four.yaml").game
    assert agent.turn(game) in game.engine.turns(game.state)

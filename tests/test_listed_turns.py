"""A turn played from the list `turns(keep_events=True)` made is played with the events the
listing found.

An agent that searches lists a state's turns and plays each of them on a copy of the state
(agents/tactics.py; the agents' view lists them so). The engine keeps the events and the winner
of each turn it listed with the derived code, for the last state listed, and plays a listed turn
from them instead of walking it again; a copy of that state is served too, and any other state
is not. Here each listed turn,
played that way, must leave what the generic chain's play leaves; and the keeping must bite.
"""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_fast_paths import MORTAL, SCALE, games, states

from santorini.interpreter.derived import steps
from santorini.interpreter.games.game import Game, end_of_setup, place_workers
from santorini.interpreter.model.board import parse_square
from santorini.interpreter.model.state import GameState, TurnRecord

#: Cards whose turns make events of many kinds: forces, a swap, tokens, marks, counters, moves
#: any number of times, builds up to three times, a removal.
CARDS = ["Apollo", "Minotaur", "Europa & Talus", "Clio", "Hermes", "Poseidon", "Ares", "Morpheus", "Bia", "Atlas"]


def started(game: Game) -> GameState:
    """The game's state with the workers on b3, d3 (the first seat's) and c4, c2."""
    playing = dataclasses.replace(game, state=game.state.copy())
    place_workers(playing, 0, [parse_square("b3"), parse_square("d3")])
    place_workers(playing, 1, [parse_square("c4"), parse_square("c2")])
    end_of_setup(playing)
    return playing.state


def left(state: GameState) -> tuple[object, ...]:
    """What a played turn leaves: the board, the workers, the cards' state, the log."""
    return (state.heights, state.domes, state.worker_pos, state.hash, state.history, state.to_move, state.winner,
            state.marks, state.counters, state.tokens, state.reserve, state.out)


@pytest.mark.parametrize("card", CARDS)
@settings(max_examples=6 * SCALE, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_every_listed_turn_played_from_its_events_is_the_generic_play(card: str, data: st.DataObject) -> None:
    seats = (card, MORTAL) if data.draw(st.booleans(), label="card first") else (MORTAL, card)
    game, generic = games("bga", seats)
    state = data.draw(states(game), label="position")
    engine = game.engine
    for turn in engine.turns(state, keep_events=True):
        played = state.copy()
        engine.play_in_place(played, turn)
        assert left(played) == left(generic.play(state, turn)), turn


def test_a_listed_turn_is_played_without_walking_it_again_on_a_copy_only(monkeypatch: pytest.MonkeyPatch) -> None:
    game, _ = games("bga", ("Hermes", MORTAL))
    engine, state = game.engine, started(game)
    turns = engine.turns(state, keep_events=True)
    assert len(turns) > 100
    walked: list[int] = []
    roots = engine._roots
    monkeypatch.setattr(engine, "_roots", [lambda walk, root=root: walked.append(1) or root(walk) for root in roots])
    copy = state.copy()
    engine.play_in_place(copy, turns[-1])
    assert not walked and copy.history[-1][1] == turns[-1]
    other = state.copy()  # the same position, after another log: not a copy of the state listed
    other.history.append(TurnRecord((1, (), ())))
    other.to_move = state.to_move
    engine.play(other, turns[-1])
    assert walked


def test_the_comparison_catches_a_listed_build_with_wrong_events(monkeypatch: pytest.MonkeyPatch) -> None:
    """A keyed last build whose events said a block where the build is a dome (or one level too
    many) would leave another board than the generic play."""
    built = steps.built_events
    # (the cached game of these cards is made before the mutant is in place: an engine compiled
    # while it is would keep it, and later tests that share the cache would play it)
    game, generic = games("bga", ("Iris", MORTAL))  # (its turns listed by the derived chain: no kernels)

    def wrong(st: GameState, before: tuple, worker: int, square: int, dome: bool) -> tuple:  # type: ignore[type-arg]
        events, winner = built(st, before, worker, square, dome)
        build = events[-1] if events[-1][0] == "build" else events[-2]
        bad = ("build", build[1], build[2], int(build[3]) + 1, build[4])  # type: ignore[call-overload]
        return tuple(bad if event is build else event for event in events), winner
    monkeypatch.setattr(steps, "built_events", wrong)
    engine = type(game.engine)(game.pack.base.power, [[c.power for c in seat] for seat in game.cards])
    state = started(game)
    differ = []
    for turn in engine.turns(state, keep_events=True):
        played = state.copy()
        engine.play_in_place(played, turn)
        differ.append(left(played) != left(generic.play(state, turn)))
    assert any(differ)

"""The plain-turn fast paths (enumeration by hash arithmetic, playing a written plain turn) must
agree exactly with the generic chain they stand in for, on any position."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from santorini.interpreter.engine.engine import Engine, IllegalTurn
from santorini.interpreter.games.game import new_game, parse_players
from santorini.interpreter.games.packs import load_pack

SEATS = [("bga", ["Mortal", "Mortal"]), ("bga", ["Pan", "Athena"]), ("bga", ["Athena", "Mortal"]),
         ("bga", ["Hermes", "Pan"]), ("bga", ["Apollo", "Minotaur"]), ("bga", ["Atlas", "Athena"]),
         ("bga", ["Minotaur", "Atlas"]), ("pantheon", ["Apollo", "Pan"]), ("bga", ["Prometheus", "Apollo"]),
         ("bga", ["Artemis", "Minotaur"]), ("bga", ["Demeter", "Atlas"]), ("bga", ["Hephaestus", "Athena"]),
         ("pantheon", ["Prometheus", "Artemis"]), ("first-edition", ["Demeter", "Prometheus"]),
         ("bga", ["Artemis", "Athena"]), ("pantheon", ["Prometheus", "Athena"])]


@st.composite
def positions(draw):
    pack, seats = draw(st.sampled_from(SEATS))
    game = new_game(load_pack(pack), parse_players(seats))
    fill_board(draw, game.state)
    generic = Engine(load_pack(pack).base.power, [[c.power for c in seat] for seat in game.cards], fast=False)
    return game, generic


def fill_board(draw, state) -> None:
    """Random heights and domes, four workers, a seat to move, and maybe the last turn of the
    other seat (one that moved up: Athena's condition)."""
    for square in range(25):
        height = draw(st.integers(0, 3))
        state.set_height(square, height)
        state.set_dome(square, draw(st.integers(0, 9)) == 0)
    free = [s for s in range(25) if not state.domes[s]]
    squares = draw(st.lists(st.sampled_from(free), min_size=4, max_size=4, unique=True)) if len(free) >= 4 else []
    for index, square in enumerate(squares):
        state.add_worker(index % 2, index // 2 + 1, square)
    state.to_move = draw(st.integers(0, 1))
    if draw(st.booleans()):  # the other seat moved up on its last turn (Athena's condition)
        from santorini.interpreter.model.state import TurnRecord
        other = 1 - state.to_move
        state.history.append(TurnRecord((other, (), (("move", 0, 0, 1, 0, 1),))))


@settings(max_examples=300, deadline=None)
@given(positions())
def test_fast_enumeration_equals_generic(case) -> None:
    game, generic = case
    fast = game.engine.outcomes(game.state)
    slow = generic.outcomes(game.state)
    assert set(fast) == set(slow)
    assert list(fast.items()) == list(slow.items())  # same order, same turns
    assert game.engine.turns(game.state) == list(fast.values())
    assert game.engine.perft(game.state, 2) == generic.perft(game.state, 2)


@settings(max_examples=150, deadline=None)
@given(positions(), st.data())
def test_fast_play_equals_generic(case, data) -> None:
    game, generic = case
    outcomes = list(generic.outcomes(game.state).values())
    if not outcomes:
        return
    steps = data.draw(st.sampled_from(outcomes))
    fast, slow = game.engine.play(game.state, steps), generic.play(game.state, steps)
    assert (fast.outcome_key(), fast.heights, fast.domes, fast.worker_pos, fast.to_move) == \
           (slow.outcome_key(), slow.heights, slow.domes, slow.worker_pos, slow.to_move)
    assert fast.history[-1] == slow.history[-1]
    # and variants of it, most of them illegal, are judged alike by both
    first = 1 if steps[0][0] == "use" else 0  # (an announced turn's first step names no square)
    variants = [steps[:first] + (steps[first][:2] + ((steps[first][2] + 7) % 25,),) + steps[first + 1:]]
    if len(steps) == 2:
        variants += [(steps[0], (verb, steps[1][1], square)) for square in range(25) for verb in ("build", "dome")]
    for variant in variants:
        results = []
        for engine in (game.engine, generic):
            try:
                results.append(engine.play(game.state, variant).outcome_key())
            except IllegalTurn:
                results.append(None)
        assert results[0] == results[1], variant


@settings(max_examples=300, deadline=None)
@given(positions(), st.integers(0, 2**32))
def test_random_turn_is_the_drawn_turn_of_the_list(case, seed) -> None:
    """A random turn picked without listing (the plain picker) is the turn the same draw picks
    from the generic chain's list, and picking leaves the state as it was."""
    game, generic = case
    before = (bytes(game.state.blocked), game.state.hash)
    turns = generic.turns(game.state)
    expected = turns[random.Random(seed).randrange(len(turns))] if turns else None
    assert game.engine.random_turn(game.state, random.Random(seed)) == expected
    assert (bytes(game.state.blocked), game.state.hash) == before
    if expected is not None:  # played at once, the picked turn is not checked again: same result
        mine = game.state.copy()
        game.engine.play_in_place(mine, game.engine.random_turn(mine, random.Random(seed)))
        theirs = generic.play(game.state, expected)
        assert (mine.outcome_key(), mine.history[-1], mine.to_move) == \
               (theirs.outcome_key(), theirs.history[-1], theirs.to_move)


class _Drawn:
    """A stand-in for a random generator whose draw is given: the picker must count exactly the
    list's length and find the turn at every index."""

    def __init__(self, index: int) -> None:
        self.index, self.bound = index, None

    def randrange(self, bound: int) -> int:
        self.bound = bound
        return self.index


@settings(max_examples=300, deadline=None)
@given(positions())
def test_every_index_of_a_counted_pick_is_the_lists_turn(case) -> None:
    """Every index of a pick is the list's turn at that index, and played at once (with the
    events the picker made for it) it leaves what the generic chain's play of it leaves."""
    game, generic = case
    turns = generic.turns(game.state)
    for index, expected in enumerate(turns):
        drawn = _Drawn(index)
        assert game.engine.random_turn(game.state, drawn) == expected, index
        assert drawn.bound == len(turns)
        mine = game.state.copy()
        game.engine.play_in_place(mine, game.engine.random_turn(mine, _Drawn(index)))
        theirs = generic.play(game.state, expected)
        assert (mine.outcome_key(), mine.history[-1], mine.to_move) == \
               (theirs.outcome_key(), theirs.history[-1], theirs.to_move), index
    if not turns:
        assert game.engine.random_turn(game.state, _Drawn(0)) is None


def test_the_counting_pickers_serve_the_shapes_they_are_for() -> None:
    """Each shape of counted.py is recognised for the seats it is written for (else the test
    above would compare the generic chain with itself)."""
    from santorini.interpreter.fast.counted import counted_picker
    for pack in ("bga", "pantheon", "first-edition"):
        for god in ("Artemis", "Demeter", "Hephaestus", "Prometheus"):
            game = new_game(load_pack(pack), parse_players([god, "Mortal"]))
            assert counted_picker(game.engine.shapes[0]) is not None, (pack, god)
        game = new_game(load_pack(pack), parse_players(["Hermes", "Apollo"]))
        assert [counted_picker(shape) if shape else None for shape in game.engine.shapes] == [None, None]


def test_a_picked_turn_is_trusted_only_for_the_state_it_was_picked_for() -> None:
    game = new_game(load_pack("bga"), parse_players(["Mortal", "Mortal"]))
    for index, square in enumerate((7, 17, 12, 13)):
        game.state.add_worker(index % 2, index // 2 + 1, square)
    state, engine = game.state, game.engine
    steps = engine.random_turn(state, random.Random(4))
    state.set_height(steps[0][2], 2)  # the move now climbs two levels: the turn is illegal
    with pytest.raises(IllegalTurn):
        engine.play_in_place(state, steps)


#: A follow-up move that may come back to its start: no card of the packs says so, but an author
#: may write it. Two workers that both come back and build on one square make one outcome, so
#: the turn is listed (by the enumeration chain), not counted.
COME_BACK = "Your Move:\n  after your worker moves, it may move one additional time."


def come_back_engines():
    """A seat with the COME_BACK power against a Mortal: the fast engine and the generic one."""
    from santorini.dsl.semantics.compiler import compile_rules
    from santorini.dsl.syntax.parser import Origin, parse_rules
    from santorini.interpreter.fast.counted import counted_picker
    from santorini.interpreter.model.state import GameState, Seat

    origin = Origin("come-back.yaml", 1)
    power = compile_rules(parse_rules(COME_BACK, origin), origin, "Come-back")
    base = load_pack("bga").base.power
    fast, generic = (Engine(base, [[power], []], fast=on) for on in (True, False))
    assert counted_picker(fast.shapes[0]) is None
    state = GameState(seats=[Seat("A", 0, ("Come-back",)), Seat("B", 1, ())], team_letters=["A", "B"])
    return fast, generic, state


def assert_every_index(fast: Engine, generic: Engine, state) -> list:
    turns = generic.turns(state)
    for index, expected in enumerate(turns):
        drawn = _Drawn(index)
        assert fast.random_turn(state, drawn) == expected, index
        assert drawn.bound == len(turns)
    return turns


@settings(max_examples=100, deadline=None)
@given(st.data())
def test_a_second_move_that_may_come_back_is_drawn_from_the_list(data) -> None:
    fast, generic, state = come_back_engines()
    fill_board(data.draw, state)
    assert_every_index(fast, generic, state)


def test_two_workers_coming_back_make_one_outcome() -> None:
    fast, generic, state = come_back_engines()
    for team, number, square in ((0, 1, 12), (0, 2, 6), (1, 1, 24), (1, 2, 19)):
        state.add_worker(team, number, square)  # A1 on c3, A2 on b2: both next to b3, c2...
    turns = assert_every_index(fast, generic, state)
    back = [turn for turn in turns if len(turn) == 3 and turn[1][2] == state.worker_pos[turn[0][1]]]
    built = [turn[2][2] for turn in back]
    assert back and len(built) == len(set(built))  # ...where only one of them comes back to build
    assert {11, 7} <= set(built)

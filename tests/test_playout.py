"""Engine.playout plays a whole game between random players in one loop. It must play exactly
the game that the turn-by-turn loop plays with the same generators: the same turns, the same
end, and the same final state (test_conformance.py compares the two for every ordered pair of
every pack; here, the limits of a playout)."""

from __future__ import annotations

import random

import pytest

from santorini.interpreter.engine import engine as engine_module
from santorini.interpreter.engine.engine import Engine
from santorini.interpreter.games.game import new_game, parse_players
from santorini.interpreter.games.packs import load_pack
from santorini.interpreter.games.play import RandomAgent, run_game
from santorini.interpreter.model.board import SQUARES
from santorini.interpreter.model.state import GameState


class StepwiseAgent(RandomAgent):
    """RandomAgent's turns, one call per turn: run_game then plays them one by one."""

    def turn(self, game):
        return super().turn(game)


def final(state: GameState) -> tuple:
    """A copy of what a game leaves behind."""
    return (state.hash, state.to_move, state.winner, sorted(state.out), list(state.history),
            list(state.heights), list(state.domes), list(state.worker_pos), state.blocked_bits(), state.level_field)


def both_ways(pack: str, gods: list[str], seed: str, max_turns: int = 1000):
    """The same seeded game played by the playout and turn by turn."""
    results = []
    for agent in (RandomAgent, StepwiseAgent):
        game = new_game(load_pack(pack), parse_players(gods))
        rng = random.Random(seed)
        log = run_game(game, [agent(rng), agent(rng)], max_turns=max_turns)
        results.append((log, final(game.state)))
    return results


def test_a_turn_limit_is_kept_the_same_way() -> None:
    (fast, fast_state), (stepwise, stepwise_state) = both_ways("bga", ["Artemis", "Mortal"], "limit", max_turns=7)
    assert fast.reason == stepwise.reason == "no winner after 7 turns"
    assert len(fast.turn_steps) == 7 and fast == stepwise and fast_state == stepwise_state


def test_a_playout_stops_at_its_limit_and_at_a_seat_without_a_turn() -> None:
    game = new_game(load_pack("bga"), parse_players(["Demeter", "Mortal"]))
    for seat, squares in ((0, (7, 17)), (1, (12, 2))):
        for number, square in enumerate(squares, 1):
            game.state.add_worker(game.state.seats[seat].team, number, square)
    rngs = [random.Random(1), random.Random(2)]
    assert len(game.engine.playout(game.state, rngs, 5)) == 5
    assert len(game.state.history) == 5 and game.state.winner is None

    game = new_game(load_pack("bga"), parse_players(["Mortal", "Mortal"]))
    state = game.state
    for square in (1, 5, 6):  # b1, a2 and b2 domed around A1 on a1
        state.set_dome(square, True)
    state.add_worker(0, 1, 0)
    state.add_worker(1, 1, 24)
    before = final(state)
    assert game.engine.playout(state, rngs, 10) == []
    assert final(state) == before


@pytest.mark.parametrize("reads_history", [True, False])
def test_a_picker_that_says_it_reads_the_history_finds_it_up_to_date(monkeypatch, reads_history: bool) -> None:
    """The loop adds the turns it plays to the history in one go, later (counted.Picker): a
    picker that says `reads_history` finds every turn played before its own there, and one that
    does not finds the history as the playout found it."""
    real, seen = engine_module.counted_picker, []

    class Reading:
        """Artemis's picker, noting how long the history is each time it is asked."""

        def __init__(self, picker) -> None:  # noqa: ANN001 - a counted.Picker
            self.picker, self.event_kinds, self.reads_history = picker, picker.event_kinds, reads_history

        def __call__(self, st: GameState, *args: object) -> object:
            seen.append(len(st.history))
            return self.picker(st, *args)
    monkeypatch.setattr(engine_module, "counted_picker", lambda shape: Reading(real(shape)))
    game = new_game(load_pack("bga"), parse_players(["Artemis", "Mortal"]))
    for seat, squares in ((0, (7, 17)), (1, (12, 2))):
        for number, square in enumerate(squares, 1):
            game.state.add_worker(game.state.seats[seat].team, number, square)
    assert isinstance(game.engine._pickers[0], Reading)
    played = game.engine.playout(game.state, [random.Random(1), random.Random(2)], 9)
    assert len(played) == len(game.state.history) == 9 and len(seen) == 5  # (Artemis moves first)
    assert seen == ([0, 2, 4, 6, 8] if reads_history else [0] * 5)


def test_the_blocked_bits_follow_the_board() -> None:
    game = new_game(load_pack("bga"), parse_players(["Atlas", "Apollo"]))
    rng = random.Random(5)
    log = run_game(game, [RandomAgent(rng), RandomAgent(rng)])
    state = game.state
    assert any(state.domes) and log.winner
    assert state.blocked_bits() == sum(1 << square for square in SQUARES if state.blocked[square])
    assert state.level_field == sum(1 << (25 * height + square) for square, height in enumerate(state.heights))


def test_games_between_random_players_are_played_by_the_playout(monkeypatch) -> None:
    calls: list[int] = []
    playout = Engine.playout
    monkeypatch.setattr(Engine, "playout", lambda self, *args: calls.append(1) or playout(self, *args))
    for agent, on_turn, used in ((RandomAgent, None, True), (StepwiseAgent, None, False),
                                 (RandomAgent, lambda game, seat, text: None, False)):
        calls.clear()
        rng = random.Random(3)
        log = run_game(new_game(load_pack("bga"), parse_players(["Mortal", "Pan"])), [agent(rng), agent(rng)],
                       on_turn=on_turn)
        assert log.winner and bool(calls) is used, (agent, on_turn)


def test_the_playout_plays_inline_the_seats_of_the_plain_turn() -> None:
    """plain.inline_turn: which seats the playout loop plays itself, read from the seats' rules.
    Pan's win is one more entry in the plain turn's win table, Apollo's and Minotaur's move
    options are forces the loop makes, and a seat bound by Athena's prohibition, or holding it,
    still plays the plain turn; Atlas's dome option and Artemis's second move are played by
    their own pickers."""
    pack = load_pack("bga")

    def inline(*gods: str) -> list[bool]:
        return new_game(pack, parse_players(list(gods))).engine._inline_seats
    assert inline("Mortal", "Mortal") == inline("Pan", "Mortal") == [True, True]
    assert inline("Pan", "Pan", "Pan") == [True, True, True]
    assert inline("Apollo", "Minotaur") == [True, True]
    assert inline("Atlas", "Mortal") == inline("Artemis", "Pan") == [False, True]
    assert inline("Athena", "Mortal") == [True, True]  # her own turn is plain; her power binds B
    assert inline("Mortal", "Hermes") == [True, False]


def test_the_playout_plays_the_turn_by_turn_game_to_every_end() -> None:
    """Won games, a turn limit, three players with a seat stuck and out (the loop stops there and
    the game settles it), inline seats beside seats played by their pickers, by their list of
    turns, and under a prohibition, and picked turns with blocks taken away, counters and tokens:
    the final states agree with the turn-by-turn games."""
    pack = load_pack("bga")
    for gods, seed, limit in ((["Mortal", "Pan"], "won", 1000), (["Mortal", "Mortal"], "limit", 9),
                              (["Pan", "Pan", "Pan"], "three", 1000), (["Artemis", "Mortal"], "picked", 1000),
                              (["Mortal", "Athena"], "bound", 1000), (["Hestia", "Pan"], "listed", 1000),
                              (["Medusa", "Pan", "Pan"], "removed", 1000), (["Apollo", "Minotaur"], "forced", 1000),
                              # picked turns the loop plays itself: a block taken away, counters, tokens
                              (["Ares", "Mortal"], "unbuild", 1000), (["Morpheus", "Mortal"], "coins", 1000),
                              (["Mortal", "Europa & Talus"], "token", 1000), (["Clio", "Mortal"], "coin tokens", 1000)):
        results = []
        for agent in (RandomAgent, StepwiseAgent):
            for n in range(12):  # enough games for wins by both seats, and a stuck seat of three
                game = new_game(pack, parse_players(gods))
                engine = game.engine  # (a seat drawn by the derived code's kernels is played as a picker's)
                assert any(engine._inline_seats) or all(p is not None or drawn for p, drawn in
                                                       zip(engine._pickers, engine._kernelled, strict=True))
                rng = random.Random(f"{seed}{n}")
                log = run_game(game, [agent(rng) for _ in gods], max_turns=limit)
                results.append((agent is RandomAgent, log, final(game.state)))
        looped = [r[1:] for r in results if r[0]]
        assert looped == [r[1:] for r in results if not r[0]]
        if seed == "three":
            assert any(log.stuck for log, _ in looped)


def test_bench_games_from_a_placed_copy_are_the_games_set_up_each_time() -> None:
    """bench_games sets a game up once when every seat places on S0 and plays copies of it; the
    games are those of setting each one up."""
    from santorini.interpreter.games.bench import S0Agent, bench_games

    pack = load_pack("bga")
    copies = bench_games(pack, ["Mortal", "Hephaestus"], 4)
    rng = random.Random(4)
    template = new_game(pack, parse_players(["Mortal", "Hephaestus"]))
    for _ in range(20):
        game = template.restart()
        log = run_game(game, [S0Agent(rng, frozenset({0, 1})) for _ in range(2)])
        copied = next(copies)
        assert copied == log and final(copied.state) == final(game.state)


def test_legal_placements_are_found_once_per_board_and_stay_exact() -> None:
    """setup.legal_placements keeps what it found for a board (games restarted from one engine
    ask again and again): the same answer as judging every set of squares, and a new answer once
    the board changes."""
    from itertools import combinations

    from santorini.interpreter.games.setup import legal_placements, placement_fault

    for cards, seat in ((["Bia", "Mortal"], 0), (["Mortal", "Eros"], 1)):
        game = new_game(load_pack("bga"), parse_players(cards))
        every = [squares for squares in combinations(range(25), 2) if placement_fault(game, seat, squares) is None]
        assert legal_placements(game, seat) == every == legal_placements(game.restart(), seat)
        game.state.add_worker(1 - seat, 1, 0)  # a1 taken by the other seat
        assert legal_placements(game, seat) == [p for p in every if 0 not in p] != every

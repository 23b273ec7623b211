"""Tests for the hand-written mortal reference generator (benchmarks/reference_mortal.py)."""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path

import pytest

_PATH = Path(__file__).resolve().parents[1] / "benchmarks" / "reference_mortal.py"
_spec = importlib.util.spec_from_file_location("reference_mortal", _PATH)
rm = importlib.util.module_from_spec(_spec)
sys.modules.setdefault("reference_mortal", rm)
_spec.loader.exec_module(rm)

sq = rm.square_index


def board(heights: dict[str, int] | None = None, domes=(), workers=((), ()), to_move=0):
    """A Position from square names: heights {'b2': 2}, domes ['c3'], workers (['a1'], ['e5'])."""
    h = [0] * 25
    for name, level in (heights or {}).items():
        h[sq(name)] = level
    return rm.from_lists(
        h,
        {sq(d) for d in domes},
        [[sq(w) for w in own] for own in workers],
        to_move,
    )


def play_random_positions(count: int, seed: int):
    """Positions met along random games from S0 (the game-over ones included)."""
    rng = random.Random(seed)
    seen = []
    while len(seen) < count:
        pos = rm.s0()
        while True:
            seen.append(pos)
            children = rm.outcomes(pos)
            if not children:
                break
            pos = rng.choice(children)
    return seen[:count]


# ---------------------------------------------------------------- geometry


def test_squares_and_neighbours():
    assert sq("a1") == 0 and sq("b1") == 1 and sq("a2") == 5 and sq("e5") == 24
    assert rm.square_name(13) == "d3"
    assert sorted(rm.square_name(n) for n in rm.NEIGHBOURS[sq("a1")]) == ["a2", "b1", "b2"]
    assert len(rm.NEIGHBOURS[sq("c3")]) == 8
    assert len(rm.NEIGHBOURS[sq("c1")]) == 5


def test_s0():
    pos = rm.s0()
    assert pos == board(workers=(["b3", "d3"], ["c4", "c2"]))
    assert pos.to_move == 0 and pos.winner is None


# ---------------------------------------------------------------- perft


def test_perft_depth_1_and_2():
    pos = rm.s0()
    assert rm.perft(pos, 0) == 1
    assert rm.perft(pos, 1) == 68
    assert rm.perft(pos, 2) == 5156
    assert len(rm.outcomes(pos)) == 68


def test_perft_depth_2_without_bulk_counting():
    assert rm.perft(rm.s0(), 2, bulk=False) == 5156


def test_perft_depth_3():
    # About 0.1 s with bulk counting of the last ply.
    assert rm.perft(rm.s0(), 3) == 350_208


# ---------------------------------------------------------------- outcomes


def test_turns_are_distinct_outcomes_on_random_positions():
    """The speed shortcuts rely on: #legal turns == #distinct outcomes."""
    for pos in play_random_positions(400, seed=7):
        ts = rm.turns(pos)
        outs = rm.outcomes(pos)
        assert len(set(ts)) == len(ts)
        assert len(outs) == len(ts) == rm.count_outcomes(pos)


def test_bulk_and_full_perft_agree_on_random_positions():
    for pos in play_random_positions(60, seed=11)[::3]:
        assert rm.perft(pos, 2) == rm.perft(pos, 2, bulk=False)


def test_interchangeable_workers_give_one_outcome():
    a = board(workers=(["a1", "e5"], ["c3"]))
    b = board(workers=(["e5", "a1"], ["c3"]))
    assert a == b and hash(a) == hash(b)


def test_outcome_details():
    # A's lone worker in the corner a1, B far away on e5.
    pos = board(heights={"a2": 1, "b2": 2, "b1": 3}, workers=(["a1"], ["e5"]))
    ts = rm.turns(pos)
    # b1 (3) and b2 (2) are too high from level 0; only a2 (1) is reachable.
    assert {t for _, t, _ in ts} == {sq("a2")}
    # From a2 the builds are a1, a3, b1, b2, b3.
    assert sorted(rm.square_name(b) for _, _, b in ts) == ["a1", "a3", "b1", "b2", "b3"]
    outs = {rm.square_name(b): o for (_, _, b), o in zip(ts, rm.outcomes(pos), strict=True)}
    assert outs["b1"].domes == {sq("b1")} and outs["b1"].heights[sq("b1")] == 3
    assert outs["b2"].heights[sq("b2")] == 3 and not outs["b2"].domes
    assert outs["a1"].heights[sq("a1")] == 1
    for o in outs.values():
        assert o.workers == ((sq("a2"),), (sq("e5"),))
        assert o.to_move == 1 and o.winner is None


def test_cannot_move_or_build_on_domes_or_workers():
    pos = board(domes=["a2"], workers=(["a1"], ["b2"]))
    # Only b1 is free to move to; from b1 the builds are a1 (vacated), c1, c2.
    assert sorted((rm.square_name(t), rm.square_name(b)) for _, t, b in rm.turns(pos)) == [
        ("b1", "a1"),
        ("b1", "c1"),
        ("b1", "c2"),
    ]


# ---------------------------------------------------------------- winning


def _winning_position():
    # A: b2 on level 2 next to c3 on level 3, and a second worker on e5.
    return board(heights={"b2": 2, "c3": 3, "d4": 3}, workers=(["b2", "e5"], ["a5", "e1"]))


def test_win_is_one_whole_turn_outcome():
    pos = _winning_position()
    ts = rm.turns(pos)
    wins = [t for t in ts if t[2] is None]
    assert wins == [(sq("b2"), sq("c3"), None)]  # e5 -> d4 is 0 -> 3: too high
    outs = rm.outcomes(pos)
    won = [o for o in outs if o.winner is not None]
    assert len(won) == 1
    (o,) = won
    assert o.winner == 0
    assert o.heights == pos.heights and o.domes == pos.domes  # no build after a win
    assert o.workers[0] == tuple(sorted((sq("c3"), sq("e5"))))
    assert len(outs) == len(ts) == rm.count_outcomes(pos)


def test_a_won_position_has_no_outcomes_in_perft():
    """A finished game has no outcomes: a win is a leaf only on the last ply (spec: 'Perft')."""
    pos = _winning_position()
    outs = rm.outcomes(pos)
    won = [child for child in outs if child.winner is not None]
    assert len(won) == 1
    for child in won:
        assert rm.outcomes(child) == [] and rm.turns(child) == []
        assert rm.perft(child, 0) == 1
        for depth in (1, 2, 3):
            assert rm.perft(child, depth) == 0 == rm.perft(child, depth, bulk=False)
    assert rm.perft(pos, 1) == len(outs)  # depth 1 counts every outcome, the winning one too
    expected = sum(len(rm.outcomes(c)) for c in outs if c.winner is None)
    assert rm.perft(pos, 2) == expected == rm.perft(pos, 2, bulk=False)


def test_level_3_to_level_3_is_not_a_win():
    pos = board(heights={"a1": 3, "b1": 3}, domes=["a2", "b2"], workers=(["a1"], ["e5"]))
    ts = rm.turns(pos)
    assert all(b is not None for _, _, b in ts)
    assert {t for _, t, _ in ts} == {sq("b1")}


def test_random_game_takes_an_available_win():
    # A's only move is the winning climb.
    pos = board(heights={"a1": 2, "b1": 3}, domes=["a2", "b2"], workers=(["a1"], ["e5"]))
    assert rm.turns(pos) == [(sq("a1"), sq("b1"), None)]
    assert rm.random_game(random.Random(0), pos) == 0


# ---------------------------------------------------------------- stuck


def _stuck_position():
    # A's workers on a1 and e5 are walled in by domes; B is free.
    return board(domes=["a2", "b1", "b2", "d4", "d5", "e4"], workers=(["a1", "e5"], ["c3", "c1"]))


def test_no_legal_turn_has_no_outcomes():
    pos = _stuck_position()
    assert rm.turns(pos) == []
    assert rm.outcomes(pos) == []
    assert rm.count_outcomes(pos) == 0
    assert rm.perft(pos, 1) == 0 and rm.perft(pos, 2) == 0


def test_towers_too_high_also_block():
    pos = board(heights={"a2": 2, "b1": 2, "b2": 3}, workers=(["a1"], ["e5"]))
    assert rm.outcomes(pos) == []


def test_stuck_player_loses_random_game():
    assert rm.random_game(random.Random(0), _stuck_position()) == 1


# ---------------------------------------------------------------- playouts


def test_random_games_end_with_a_winner_and_are_reproducible():
    winners = [rm.random_game(random.Random(seed)) for seed in range(40)]
    assert set(winners) <= {0, 1}
    assert winners == [rm.random_game(random.Random(seed)) for seed in range(40)]


def test_three_player_random_game():
    pos = board(workers=(["a1", "e5"], ["c3", "a5"], ["e1", "c5"]))
    for seed in range(20):
        assert rm.random_game(random.Random(seed), pos) in {0, 1, 2}


def test_bench_and_cli(capsys):
    games, elapsed = rm.bench(0.05, seed=1)
    assert games >= 1 and elapsed >= 0.05
    rm.main(["perft", "--depth", "2"])
    lines = capsys.readouterr().out.splitlines()
    assert lines[:2] == ["1: 68", "2: 5156"]
    assert lines[-1].startswith("leaves/s: ")
    rm.main(["bench", "--seconds", "0.05", "--seed", "1"])
    assert capsys.readouterr().out.splitlines()[-1].startswith("games/s: ")


def test_from_lists_rejects_bad_input():
    with pytest.raises(ValueError):
        rm.from_lists([0] * 24, set(), [[0], [1]], 0)
    with pytest.raises(ValueError):
        rm.from_lists([0] * 25, set(), [[0], [0]], 0)
    with pytest.raises(ValueError):
        rm.from_lists([0] * 25, {0}, [[0], [1]], 0)
    with pytest.raises(ValueError):
        rm.from_lists([4] + [0] * 24, set(), [[0], [1]], 0)

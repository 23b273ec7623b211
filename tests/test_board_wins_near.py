"""Kernels that leave to the chain a position where the turn's builds may make a board win hold
(writer.py's `board_win_near`), counted from the builds a turn may make, several of which may
go on one square and raise it to a complete tower."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_fast_paths import disagreement
from test_kernel import position
from test_tally import counted_games, counting, game_pair, pack_of

from santorini.interpreter.derived import writer

#: Chronus's four complete towers (a5-d5); Poseidon's A1 on a1 may move to a2 or b1 (b2 domed),
#: its A2 stays on c1, on the ground, with c2 on level 1 beside it (d1, d2 domed).
NEAR_A_FIFTH_TOWER = """\
name: builds that may raise a square to a fifth complete tower
edition: bga
players: [Poseidon, Chronus]
board: |
  3D 3D 3D 3D 0
  0 0 0 0 0
  0D 0D 0D 0D 0
  0 0D 1 0D 0
  0 0 0 0D 0
workers: {A1: a1, A2: c1, B1: e5, B2: e4}
to_move: A
"""


def test_builds_that_may_complete_a_tower_from_below_leave_the_turn_to_the_chain(tmp_path: Path) -> None:
    """'If your unmoved worker is on the ground level, it may build up to three times': A2's three
    builds on c2 (level 1) make it level 2, level 3, then a complete tower, the fifth, and Chronus
    wins ('at least five complete towers'). No square is on level 3 before the turn, yet a board
    win is near: the kernels leave the position to the chain, whose turns the engine lists."""
    state = position(tmp_path, NEAR_A_FIFTH_TOWER)
    game, generic = counted_games("bga", ("Poseidon", "Chronus"))
    assert game.engine._kernelled[0] and game.engine._kernel_walk(state)[1] is None
    assert game.engine.turns(state) == generic.turns(state)
    assert any(generic.play(state, steps).winner is not None for steps in generic.turns(state))
    assert disagreement(game.engine, generic, state, range(10)) is None


def test_kernels_that_judge_only_the_level_3_squares_are_caught(monkeypatch: pytest.MonkeyPatch,
                                                               tmp_path: Path) -> None:
    """Kernels that looked for a fifth tower only on squares of level 3 now would draw the turn
    that completes c2 as one that wins nothing."""
    monkeypatch.setattr(writer, "towers_anywhere", lambda board_wins, walk, more: None)
    state = position(tmp_path, NEAR_A_FIFTH_TOWER)
    pair = game_pair(pack_of("bga"), ("Poseidon", "Chronus"))
    assert pair is not None
    game, generic = counting(pair[0]), pair[1]
    assert game.engine._kernel_walk(state)[1] is not None
    assert disagreement(game.engine, generic, state, range(40)) is not None

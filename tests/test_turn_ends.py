"""End-of-turn steps with no choice (kernel.py's `after_turn_ends`): the kernels find the turns
without them, and each turn drawn or listed carries what the steps add, as the chain plays it."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from test_kernel import kernel_agrees, position
from test_tally import found_apart

from santorini.interpreter.derived.kernel import Kernels, TurnEnd
from santorini.interpreter.engine import engine as engine_module
from santorini.interpreter.model.board import parse_square

#: A1 on a1 (level 1) can only move to a2 (level 1) and then build only on a1; B1 stands on b1,
#: on the ground, next to a2. A2 on e5 is walled in.
GAZE = """\
name: a worker turned to stone at the end of the turn
edition: bga
players: [Medusa, {other}]
board: |
  0 0 0 0D 0
  0 0 0 0D 0D
  0D 0D 0 0 0
  1 0D 0 0 0
  1 0 0 0 0
workers: {{A1: a1, A2: e5, B1: b1, B2: e1}}
to_move: A
"""


@pytest.mark.parametrize("other", ["Mortal", "Hera"])
def test_the_end_of_turn_removal_is_in_the_turn_drawn(tmp_path: Path, other: str) -> None:
    """Medusa: 'End of your turn: each opponent worker on a lower space neighboring your workers
    is removed from the game and its space is built on.' One turn (A1 to a2, a block on a1); at
    its end B1, on the ground next to A1 on level 1, leaves the game and b1 gets a block. The
    kernels' turn and draws are the chain's, and the turn drawn leaves that board."""
    state = position(tmp_path, GAZE.format(other=other))
    game, _ = kernel_agrees(("Medusa", other), state, 1)
    steps = game.engine.random_turn(state, random.Random(1))
    assert steps is not None
    after = game.engine.play(state, steps)
    b1, b2 = state.members[state.seats[1].team]
    assert after.worker_pos[b1] < 0 and after.heights[parse_square("b1")] == 1
    assert after.worker_pos[b2] == parse_square("e1") and after.heights[parse_square("a1")] == 2


def test_kernels_that_forget_the_end_of_turn_steps_are_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """Kernels whose turns went without the end-of-turn steps' events would leave the opponent's
    workers that Medusa's gaze removes on the board."""
    def forgetful(kernels: Kernels, turn_end: TurnEnd) -> Kernels:
        return kernels
    monkeypatch.setattr(engine_module, "after_turn_ends", forgetful)
    assert found_apart("bga", ("Medusa", "Limus"), examples=25)


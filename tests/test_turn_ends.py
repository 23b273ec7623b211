"""End-of-turn steps with no choice (kernel.py's `after_turn_ends`): the kernels find the turns
without them, and each turn drawn or listed carries what the steps add, as the chain plays it."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import pytest
from test_fast_paths import game_pair, pack_of
from test_kernel import kernel_agrees, position
from test_tally import found_apart

from santorini.interpreter.chain.walk import Walk
from santorini.interpreter.derived import kernel
from santorini.interpreter.derived.kernel import Kernels, TurnEnd, TurnEndWinner
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
    def forgetful(kernels: Kernels, turn_end: TurnEnd, wins_kept: bool = False,
                  after_moves: TurnEndWinner | None = None, obligations_kept: bool = False) -> Kernels:
        return kernels
    monkeypatch.setattr(engine_module, "after_turn_ends", forgetful)
    assert found_apart("bga", ("Medusa", "Limus"), examples=25)



def test_a_turn_that_wins_by_an_end_of_turn_step_is_found() -> None:
    """Maenads: 'End of your turn: if 2 of your workers neighbor an opponent worker on opposite
    sides, that opponent loses the game.' A1 on a2 moving to b3 flanks B1 (c3) with A2 (d3): in a
    game of two, B loses and A wins. Where workers stand is all the step reads, which no build
    changes: the kernels judge it once per move whose build completes the turn, with the moved
    worker put where it ends. Medusa's steps, which only take workers off the board, make no win:
    the kernels' own search for a winning move is the seat's (with no win judged on the board)."""
    from test_masked_picker import position as placed

    fast, generic, state = placed(("Maenads", "Mortal"), {"A1": "a2", "B1": "c3", "A2": "d3", "B2": "e5"}, {},
                                  to_move=0)
    assert fast._kernels[0] is not None and fast._kernels[0].can_win is not None
    assert generic.can_win(state) and fast.can_win(state)
    nowhere, _, away = placed(("Maenads", "Mortal"), {"A1": "a1", "B1": "c3", "A2": "d3", "B2": "e5"}, {},
                              to_move=0)  # (A1 on a1 cannot reach b3: no move flanks B1)
    assert not nowhere.can_win(away) and not generic.can_win(away)
    medusa, _, _ = placed(("Medusa", "Mortal"), {"A1": "a2", "B1": "c3", "A2": "d3", "B2": "e5"}, {}, to_move=0)
    assert medusa._kernels[0] is not None and medusa._kernels[0].can_win is not None
    chronus, _, _ = placed(("Medusa", "Chronus"), {"A1": "a2", "B1": "c3", "A2": "d3", "B2": "e5"}, {}, to_move=0)
    assert chronus._kernels[0] is not None and chronus._kernels[0].can_win is None


def test_a_win_by_an_end_of_turn_step_judged_before_the_move_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """A search that judged Maenads's flanking where the workers stood before the move (A1 on a2,
    not opposite A2 around B1) would find no win where the chain finds one (A1 to b3)."""
    from test_masked_picker import position as placed

    def unmoved(kernels: Kernels, winner: TurnEndWinner | None) -> Callable[[Walk], bool] | None:
        moves_built, wins = kernels.moves_built, kernels.can_win
        if winner is None or moves_built is None or wins is None:
            return None

        def can_win(walk: Walk) -> bool:
            st = walk.state
            team = st.seats[st.to_move].team
            return wins(walk) or any(winner(st, (), worker) == team for worker, _, built in moves_built(walk)
                                     if built > 0)
        return can_win
    monkeypatch.setattr(kernel, "_won_after_moves", unmoved)
    _, generic, state = placed(("Maenads", "Mortal"), {"A1": "a2", "B1": "c3", "A2": "d3", "B2": "e5"}, {},
                               to_move=0)
    pair = game_pair(pack_of("bga"), ("Maenads", "Mortal"))  # (made afresh: compiled with the change)
    assert pair is not None
    assert generic.can_win(state) and not pair[0].engine.can_win(state)


def test_a_win_by_an_end_of_turn_step_under_an_if_possible_obligation_is_found() -> None:
    """Persephone: 'if possible, at least one of your workers must move up this turn.' Maenads's
    A1 on a2 flanks B1 (c3) with A2 (d3) by moving to b3. With a1 on level 1 and b3 on the
    ground, A1 can move up (to a1), so it must, and the move to b3 is not a turn: no win. With b3
    on level 1 too, the move to b3 is up, and wins. The kernels judge it (the obligation reads
    only the moves, which the end-of-turn step leaves as they were), as the chain does."""
    from test_masked_picker import position as placed

    workers = {"A1": "a2", "B1": "c3", "A2": "d3", "B2": "e5"}
    fast, generic, state = placed(("Maenads", "Persephone"), workers, {"a1": 1}, to_move=0)
    assert fast._kernels[0] is not None and fast._kernels[0].can_win is not None
    assert fast._kernels[0].lowers_obligations
    assert not generic.can_win(state) and not fast.can_win(state)
    _, _, up = placed(("Maenads", "Persephone"), workers, {"a1": 1, "b3": 1}, to_move=0)
    assert generic.can_win(up) and fast.can_win(up)

"""A build before the move and the moved worker's build after it, drawn whole by the derived code
(interpreter/derived/build_first.py), beside the plain turn (kernel.py's `alternatives`): a
position counted by hand, the comparison with the generic chain against cards that bind the
seat, and a count changed by hand that the comparison notices."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_fast_paths import disagreement, game_pair, pack_of
from test_kernel import kernel_agrees, position
from test_tally import counting, found_apart

from santorini.interpreter.derived import build_first
from santorini.interpreter.model.board import parse_square

#: A1 on b1, on the ground, with a1, a2 and b2 free around it (c1, c2 domed; a2 and b2 have no
#: other free neighbour but each other, a1 and b1); A2 on e5 is walled in.
BEFORE_AND_AFTER = """\
name: a build before the move and one after it
edition: bga
players: [Prometheus, {other}]
board: |
  0 0 0 0D 0
  0 0 0 0D 0D
  0D 0D 0D 0 0
  0 0 0D 0 0
  0 0 0D 0 0
workers: {{A1: b1, A2: e5, B1: e1, B2: e2}}
to_move: A
"""


@pytest.mark.parametrize("other", ["Mortal", "Limus", "Aphrodite"])
def test_a_build_before_the_move_is_counted_once_per_board(tmp_path: Path, other: str) -> None:
    """'If your worker does not move up, it may build both before and after moving.' By hand: the
    plain turn moves A1 to a1, a2 or b2 and builds on one of the three other free squares around
    it (3 x 3 = 9). Building first puts a block on a1, a2 or b2; the move, not up, then goes to
    one of the two others, still on the ground, and the build after it takes one of the three
    squares around, the block just built among them: 3 x 2 x 3 = 18, less the boards met twice,
    two blocks on two squares around both b1 and the square moved to, built in either order
    (a1 and a2 around b2, a1 and b2 around a2, a2 and b2 around a1): 15. 24 turns, against
    a Mortal and against cards that bind the seat far from here (Limus's build ban around his
    workers on e1 and e2; Aphrodite's obligation, in force for no worker of A's)."""
    kernel_agrees(("Prometheus", other), position(tmp_path, BEFORE_AND_AFTER.format(other=other)), 24)


def test_a_count_that_keeps_two_builds_in_both_orders_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two blocks on two squares, one built before the move and one after, leave one board in
    either order: a count that keeps both counts and draws it twice."""
    def both_orders(p: int, m: int, pre: int, after: dict[int, tuple[int, int]]) -> int:
        post0, post1 = after[m]
        return (post0 & ~(1 << p)) | (post1 & (1 << p))
    monkeypatch.setattr(build_first, "_seconds", both_orders)
    assert found_apart("bga", ("Prometheus", "Limus"), examples=25)


def test_a_count_that_lets_the_move_climb_the_first_block_at_its_old_level_is_caught(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The move may end on the block just built only where the block leaves it a move (not up):
    judged at the square's old level, the worker would climb onto its own first block."""
    monkeypatch.setattr(build_first, "_moves", lambda p, m0, m1: m0)
    assert found_apart("bga", ("Prometheus", "Limus"), examples=25)


#: Prometheus against Harpies (tests/scenarios/bga/prometheus-harpies.yaml, counted by hand
#: there): the block built before the move lets the slide after it go on.
HARPIES = Path(__file__).parent / "scenarios" / "bga" / "prometheus-harpies.yaml"


def test_a_build_before_the_move_then_a_slide_is_drawn_whole(tmp_path: Path) -> None:
    """Harpies slide A1 on after its move: the kernels list the scenario's 3 turns in the
    chain's order and draw as it does; after its build on b1 and its move onto it, A1 slides to
    e1 (c1 is no higher than b1 now) and builds on d1."""
    state = position(tmp_path, HARPIES.read_text(encoding="utf-8"))
    game, _ = kernel_agrees(("Prometheus", "Harpies"), state, 3)
    assert "random turn: drawn whole by the derived code (derived/kernel.py)" in game.engine.paths(0)
    a1, e1 = state.worker_names.index("A1"), parse_square("e1")
    ends = sorted(game.engine.play(state, turn).worker_pos[a1] for turn in game.engine.turns(state))
    assert ends == sorted([parse_square("b1"), parse_square("b1"), e1])


def test_a_slide_judged_without_the_block_just_built_is_caught(monkeypatch: pytest.MonkeyPatch,
                                                                tmp_path: Path) -> None:
    """A slide told nothing of the first build would stop A1 on b1 (c1 higher than b1 as the
    state shows it) and list its builds on a1 and c1 there: 4 turns, not the chain's 3."""
    made = build_first.slide_function

    def blind(compiler):  # noqa: ANN001, ANN202 - the patched function's own signature
        slide = made(compiler)
        return None if slide is None else lambda walk, w, o, t, v, x, r: slide(walk, w, o, t, v, x, -1)
    monkeypatch.setattr(build_first, "slide_function", blind)
    state = position(tmp_path, HARPIES.read_text(encoding="utf-8"))
    pair = game_pair(pack_of("bga"), ("Prometheus", "Harpies"))  # (made afresh: compiled with the change)
    assert pair is not None
    game, generic = counting(pair[0]), pair[1]
    assert len(game.engine.turns(state)) == 4
    assert disagreement(game.engine, generic, state, range(20)) is not None

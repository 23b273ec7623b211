"""A build by workers other than the one that moved, drawn whole by the derived code
(interpreter/derived/other_builders.py): the worker that did not move (Graeae), or the female
worker as well as the moved one (Selene). Positions counted by hand, the comparison with the
generic chain against cards that bind the seat, and counts changed by hand that it notices."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_kernel import kernel_agrees, position
from test_tally import found_apart

from santorini.interpreter.derived import other_builders

#: Row 1 free but for the workers; a2, b2 and d2 free in row 2; every other square domed but
#: where B's workers stand.
BOARD = """\
  0D 0D 0D 0 0
  0D 0D 0D 0D 0D
  0D 0D 0D 0D 0D
  0 0 0D 0 0D
  0 0 0 0 0
"""

GRAEAE = f"""\
name: three workers, the two that did not move build
edition: bga
players: [Graeae, {{other}}]
board: |
{BOARD}workers: {{{{A1: a1, A2: c1, A3: e1, B1: e5, B2: d5}}}}
to_move: A
"""

SELENE = f"""\
name: the moved worker builds, or the female worker domes
edition: bga
players: [Selene, {{other}}]
board: |
{BOARD}workers: {{{{A1: {{{{at: a1, sex: female}}}}, A2: {{{{at: c1, sex: male}}}}, B1: e5, B2: d5}}}}
to_move: A
"""


@pytest.mark.parametrize("other", ["Mortal", "Limus", "Clio"])
def test_the_unmoved_workers_build_each_board_once(tmp_path: Path, other: str) -> None:
    """'Build with either worker that did not move.' By hand: A1 (a1) to a2 leaves A2 (c1) b1,
    b2, d1, d2 and A3 (e1) d1, d2: 4 boards; to b1 or b2, 3 each. A2 to b1 leaves A1 a2, b2 and
    A3 d1, d2 (4); likewise to b2, d1 and d2 (4 each). A3 to d1 leaves A1 a2, b1, b2 and A2 b1,
    b2, d2 (4); to d2, 4. A square both builders reach is one board: 10 + 16 + 8 = 34 turns,
    against cards that bind the seat far from here too."""
    kernel_agrees(("Graeae", other), position(tmp_path, GRAEAE.format(other=other)), 34)


@pytest.mark.parametrize("other", ["Mortal", "Limus", "Hera"])
def test_the_moved_worker_builds_or_the_female_worker_domes(tmp_path: Path, other: str) -> None:
    """'Your female worker may build a dome at any level regardless of which worker moved.' By
    hand: A1, female, moves to a2, b1 or b2 and builds a block or a dome on each of three squares
    (18). A2 moves to b1 and builds a block on a2, b2 or c1, or A1 domes a2 or b2 (5); to b2, the
    same (5); to d1, blocks on c1, d2, e1 or domes on a2, b1, b2 (6); to d2, likewise (6): 40."""
    kernel_agrees(("Selene", other), position(tmp_path, SELENE.format(other=other)), 40)


def test_a_count_that_builds_a_shared_square_twice_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two workers that did not move may build on one square: one board. A count that kept every
    builder's squares in full would count and draw such a board twice."""
    monkeypatch.setattr(other_builders, "NEW_ONLY", ())
    assert found_apart("bga", ("Graeae", "Limus"), examples=25)


def test_a_count_that_takes_the_builders_in_another_order_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The listing takes the moved worker's builds before the female worker's: the other order
    draws another turn at the same index."""
    found = other_builders.builders_in_order
    monkeypatch.setattr(other_builders, "builders_in_order",
                        lambda members, positions, sexes, mover, specs: found(members, positions, sexes, mover,
                                                                             specs)[::-1])
    assert found_apart("bga", ("Selene", "Limus"), examples=25)

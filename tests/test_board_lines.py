"""The squares along a square's lines (the qualifiers 'orthogonally' and 'diagonally') and around
it across the edges of the board (Urania's neighbourhood), named by hand, not computed."""

from __future__ import annotations

import pytest

from santorini.interpreter.model.board import (
    DIAGONAL_BITS,
    ORTHOGONAL_BITS,
    SQUARES,
    WRAPPED_AROUND_BITS,
    WRAPPED_NEIGHBOURS,
    parse_square,
)


def squares(bits: int) -> set[str]:
    return {f"{'abcde'[s % 5]}{s // 5 + 1}" for s in SQUARES if bits >> s & 1}


@pytest.mark.parametrize(("square", "orthogonal", "diagonal"), [
    ("c3", "a3 b3 d3 e3 c1 c2 c4 c5", "a1 b2 d4 e5 a5 b4 d2 e1"),
    ("a1", "b1 c1 d1 e1 a2 a3 a4 a5", "b2 c3 d4 e5"),
    ("b4", "a4 c4 d4 e4 b1 b2 b3 b5", "a5 c3 d2 e1 a3 c5"),
])
def test_lines_from_a_square(square: str, orthogonal: str, diagonal: str) -> None:
    at = parse_square(square)
    assert squares(ORTHOGONAL_BITS[at]) == set(orthogonal.split())
    assert squares(DIAGONAL_BITS[at]) == set(diagonal.split())


def test_every_other_square_is_on_at_most_one_kind_of_line() -> None:
    for at in SQUARES:
        assert ORTHOGONAL_BITS[at] & DIAGONAL_BITS[at] == 0
        assert not (ORTHOGONAL_BITS[at] | DIAGONAL_BITS[at]) >> at & 1


@pytest.mark.parametrize(("square", "around"), [
    ("a1", "a2 b1 b2 e1 e2 a5 b5 e5"),
    ("c1", "b1 d1 b2 c2 d2 b5 c5 d5"),
    ("e3", "d2 e2 d3 d4 e4 a2 a3 a4"),
    ("c3", "b2 c2 d2 b3 d3 b4 c4 d4"),
])
def test_the_spaces_around_a_square_across_the_edges(square: str, around: str) -> None:
    wrapped = WRAPPED_NEIGHBOURS[parse_square(square)]
    assert {f"{'abcde'[s % 5]}{s // 5 + 1}" for s in wrapped} == set(around.split())
    assert list(wrapped) == sorted(wrapped) and len(wrapped) == 8
    assert WRAPPED_AROUND_BITS[parse_square(square)] == sum(1 << s for s in wrapped)

"""Turn notation and board text: parse and format are inverse (property tests), and bad text
gets a message that says what is accepted."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from santorini.interpreter.games.game import new_game, parse_players
from santorini.interpreter.games.packs import load_pack
from santorini.interpreter.model.board import BEYOND, NEIGHBOURS, SQUARES, parse_square, square_name
from santorini.interpreter.model.notation import (
    NotationError,
    format_board,
    format_cell,
    format_turn,
    parse_board,
    parse_cell,
    parse_turn,
)

squares = st.integers(min_value=0, max_value=24)
cells = st.tuples(st.integers(min_value=0, max_value=3), st.booleans())


@given(squares)
def test_square_names_round_trip(square: int) -> None:
    assert parse_square(square_name(square)) == square
    assert parse_square(square_name(square).upper()) == square


@given(cells)
def test_cells_round_trip(cell: tuple[int, bool]) -> None:
    assert parse_cell(format_cell(*cell)) == cell


def _game_with_workers(positions: list[int]):
    game = new_game(load_pack("bga"), parse_players(["Mortal", "Mortal"]))
    for index, square in enumerate(positions):
        game.state.add_worker(index % 2, index // 2 + 1, square)
    return game


@given(st.lists(cells, min_size=25, max_size=25), st.lists(squares, min_size=4, max_size=4, unique=True))
def test_board_text_round_trips(board: list[tuple[int, bool]], workers: list[int]) -> None:
    game = _game_with_workers(workers)
    for square, (height, dome) in enumerate(board):
        game.state.set_height(square, height)
        game.state.set_dome(square, dome)
    assert parse_board(format_board(game.state)) == board


verbs = st.sampled_from(["move", "build", "dome"])


@given(st.lists(st.tuples(verbs, st.integers(0, 3), squares), min_size=1, max_size=6),
       st.lists(squares, min_size=4, max_size=4, unique=True))
def test_turns_round_trip(steps, workers: list[int]) -> None:
    game = _game_with_workers(workers)
    actions = tuple(steps)
    text = format_turn(game.state, actions)
    assert parse_turn(game.state, text) == actions
    assert parse_turn(game.state, text.upper().replace("; ", " ;  ")) == actions


@pytest.mark.parametrize(("text", "message"), [
    ("jump A1 c4", "unknown verb 'jump'"),
    ("move A9 c4", "there is no worker 'A9'"),
    ("move A1 f4", "'f4' is not a space"),
    ("move A1", "write 'move WORKER SPACE'"),
    ("move A1 c4;", "an empty step"),
    ("", "empty turn"),
])
def test_bad_turns_say_what_is_accepted(text: str, message: str) -> None:
    game = _game_with_workers([0, 1, 2, 3])
    with pytest.raises(NotationError, match=message):
        parse_turn(game.state, text)


def test_bad_board_text() -> None:
    with pytest.raises(NotationError, match="5 rows of 5 cells"):
        parse_board("0 0 0\n0 0 0")
    with pytest.raises(NotationError, match="'4' is not a cell"):
        parse_board("4 0 0 0 0\n" * 5)


def test_geometry_tables() -> None:
    assert sorted(square_name(s) for s in NEIGHBOURS[parse_square("a1")]) == ["a2", "b1", "b2"]
    assert all(len(NEIGHBOURS[s]) in (3, 5, 8) for s in SQUARES)
    assert BEYOND[parse_square("b2")][parse_square("c3")] == parse_square("d4")
    assert BEYOND[parse_square("d4")][parse_square("e5")] == -1


@pytest.mark.parametrize(("start", "landing", "next_space"), [
    ("a1", "c1", "d1"), ("a1", "c3", "d4"), ("e5", "c5", "b5"), ("c5", "c3", "c2"), ("e1", "c3", "b4"),
    ("a3", "e3", None), ("a1", "b3", None), ("c3", "c3", None)])
def test_beyond_a_move_of_more_than_one_space_is_one_step_on_in_its_line(start: str, landing: str,
                                                                         next_space: str | None) -> None:
    """A move over a worker lands two spaces away in a straight line; the next space in its
    direction is one step on from where it landed (not two), off the board past the edge, and
    none for a landing that is not in a row, column or diagonal from the start."""
    found = BEYOND[parse_square(start)][parse_square(landing)]
    assert found == (parse_square(next_space) if next_space else -1)

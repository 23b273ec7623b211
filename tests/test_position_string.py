"""The one-line position string (interpreter/games/position.py): printing and reading are exact
inverses on every position of every scenario file and on positions of random games, and a fault
is one error at its column."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import santorini
from santorini.dsl.errors import SourceErrors
from santorini.interpreter.games.position import (
    PositionError,
    escape,
    game_from_position,
    position_string,
    unescape,
)
from santorini.interpreter.games.scenario import load_scenario
from support import REPO

SCENARIOS = sorted((REPO / "tests" / "scenarios").rglob("*.yaml"))
S0 = "bga/standard Mortal,Mortal 00000/00000/00000/00000/00000 A1b3,A2d3,B1c4,B2c2 A"


def same_position(first: object, second: object, seat_to_act: bool = True) -> None:
    a, b = first.state, second.state  # type: ignore[attr-defined]
    assert (a.hash, a.out, a.heights, a.domes, a.tokens, a.counters, a.marks) == \
        (b.hash, b.out, b.heights, b.domes, b.tokens, b.counters, b.marks)
    assert not seat_to_act or a.to_move == b.to_move
    assert sorted((a.worker_name(w), p) for w, p in enumerate(a.worker_pos) if p >= 0) == \
        sorted((b.worker_name(w), p) for w, p in enumerate(b.worker_pos) if p >= 0)


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: str(p.relative_to(REPO / "tests" / "scenarios")))
def test_every_scenario_position_prints_and_reads_back_the_same(path: Path) -> None:
    scenario = load_scenario(path)
    game = scenario.game
    if game.state.winner is not None:
        pytest.skip("a won game: a position string is a position to play on")
    placing = game.state.to_move if "placing" in scenario.document.data else None
    text = position_string(game, placing)
    assert "\n" not in text
    again, in_setup = game_from_position(text, relative_to=path.parent)
    assert in_setup == (placing is not None)
    assert position_string(again, placing) == text
    same_position(game, again)


@pytest.mark.parametrize("cards", [("Apollo", "Athena"), ("Morpheus", "Europa & Talus"), ("Jason", "Hera"),
                                   ("Castor & Pollux", "Selene"), ("Apollo", "Athena", "Pan"),
                                   ("Apollo", "Athena", "Pan", "Atlas")])
def test_positions_of_random_games_print_and_read_back_the_same(cards: tuple[str, ...]) -> None:
    rng = random.Random(5)
    for _ in range(2):
        game = santorini.Game(list(cards))
        while not game.is_over and len(game.history) < 30:
            text = game.position()
            again = santorini.Game.from_position(text)
            assert again.position() == text and again.in_setup == game.in_setup and again.to_move == game.to_move
            same_position(game, again, seat_to_act=not game.in_setup)  # (in the setup: the seat that places)
            turn = game.random_turn(rng)
            assert turn is not None
            game.play(turn)


def test_the_string_reads_as_the_docs_show_it() -> None:
    game = santorini.Game.from_position(S0)
    assert game.to_move == "A" and len(game.turns()) == 68  # (the spec's count from S0)
    assert game.position() == S0
    assert "A1" in str(game) and game.cards == [("Mortal",), ("Mortal",)]


def test_names_with_spaces_and_separators_are_escaped_both_ways() -> None:
    for name in ("Castor & Pollux", "a_b", "x,y+z/w:v=u.t", "100%"):
        assert " " not in escape(name) and unescape(escape(name)) == name
    game = santorini.Game(["Castor & Pollux", "Mortal"])
    assert game.position().split()[1] == "Castor_&_Pollux,Mortal"


@pytest.mark.parametrize(("text", "column", "says"), [
    ("bga Apollo", 11, "at least five fields"),
    ("bga/standard Apollo,Athena 00000/00000/00000/00000/0000x A1b3 A", 52, "row 1"),
    ("bga/standard Apollo,Athena 00000/00000/00000/00000/00000 A1b3,A1d3,B1c4,B2c2 A", 63, "given twice"),
    ("bga/standard Apollo,Athena 00000/00000/00000/00000/00000 A1b3,A2b3,B1c4,B2c2 A", 58, "already holds"),
    ("bga/standard Apollo,Zeuss 00000/00000/00000/00000/00000 A1b3,A2d3,B1c4,B2c2 A", 14, "did you mean 'Zeus'"),
    ("bga/standard Apollo,Athena 00000/00000/00000/00000/00000 A1b3,A2d3,B1c4,B2c2 C", 78, "no seat 'C'"),
    ("bga/standard Apollo,Athena 00000/00000/00000/00000/00000 A1b3,A2d3,B1c4,B2c2 A foo=1", 80, "extra field"),
    ("bga/standard Apollo,Athena 00000/00000/00000/00000/00000 A1b9,A2d3,B1c4,B2c2 A", 58, "not a worker"),
])
def test_a_fault_is_one_error_at_its_column(text: str, column: int, says: str) -> None:
    with pytest.raises(PositionError) as caught:
        game_from_position(text)
    assert caught.value.column == column and says in caught.value.message
    assert isinstance(caught.value, santorini.SantoriniError)


def test_the_commands_take_a_position_string() -> None:
    from click.testing import CliRunner

    from santorini.interpreter.cli.cli import main
    runner = CliRunner()
    picture = runner.invoke(main, ["render", S0])
    assert picture.exit_code == 0 and picture.output.startswith("<svg")
    played = runner.invoke(main, ["play", "--from", S0, "--seed", "1"])
    assert played.exit_code == 0 and "winner: " in played.output
    refused = runner.invoke(main, ["play", "--from", S0[:-1] + "Q", "--seed", "1"])
    assert refused.exit_code == 2 and "column 78" in refused.output and "Traceback" not in refused.output


def test_a_scenario_file_may_give_its_position_as_one_line(tmp_path: Path) -> None:
    """`position:` in place of the position's keys: the same game as written key by key, with its
    history and expectations as usual; a fault of the string is located at it, with its column."""
    path = tmp_path / "one-line.yaml"
    path.write_text(f"name: one line\nposition: {S0}\nhistory: ['move A1 b4; build A1 b5']\n", encoding="utf-8")
    scenario = load_scenario(path)
    assert scenario.state.to_move == 1 and len(scenario.state.history) == 1
    keyed = santorini.Game.from_position(S0)
    keyed.play("move A1 b4; build A1 b5")
    assert scenario.state.hash == keyed.state.hash
    path.write_text(f"name: one line\nposition: {S0.replace('A1b3,A2d3', 'A1b3,A2b3')}\n", encoding="utf-8")
    with pytest.raises(SourceErrors) as caught:
        load_scenario(path)
    assert [(e.line, e.column) for e in caught.value.errors] == [(2, 11)]
    path.write_text(f"name: one line\nposition: {S0}\nto_move: B\n", encoding="utf-8")
    with pytest.raises(SourceErrors, match="given twice"):
        load_scenario(path)

"""On a terminal the board is a coloured grid and `cards` a table; sent to a pipe, both stay the
plain text of the spec (issue 10, "Terminal output")."""

from __future__ import annotations

from click.testing import CliRunner
from rich.console import Console

from santorini.interpreter.cli import display
from santorini.interpreter.cli.cli import main
from santorini.interpreter.games.game import new_game, parse_players
from santorini.interpreter.games.packs import load_pack
from santorini.interpreter.model.board import parse_square


def game_with_workers():
    game = new_game(load_pack("bga"), parse_players(["Apollo", "Pan"]))
    state = game.state
    state.add_worker(0, 1, parse_square("c3"))
    state.add_worker(1, 1, parse_square("c4"))
    state.set_height(parse_square("c4"), 2)
    state.set_dome(parse_square("a1"), True)
    return game


def test_the_board_on_a_terminal_is_a_coloured_grid() -> None:
    state = game_with_workers().state
    out = Console(force_terminal=True, color_system="truecolor", width=80, record=True)
    out.print(display.board_table(state))
    text, styled = out.export_text(clear=False), out.export_text(styles=True)
    rows = [line for line in text.splitlines() if line.startswith("│ ")][1:]  # after the header row
    assert [row.split("│")[1].strip() for row in rows] == ["5", "4", "3", "2", "1"]
    assert "2 B1" in rows[1] and "0 A1" in rows[2] and "0D" in rows[4]
    assert "\x1b[" in styled  # colours
    red, blue = display.TEAM_STYLES[0], display.TEAM_STYLES[1]
    assert red != blue


def test_piped_output_stays_plain() -> None:
    result = CliRunner().invoke(main, ["play", "--gods", "Apollo", "Pan", "--seed", "1"])
    assert result.exit_code == 0 and "\x1b[" not in result.output and "│" not in result.output
    assert "\n5  0" in result.output  # the plain board text, row 5 first
    cards = CliRunner().invoke(main, ["cards", "--pack", "bga"]).output.splitlines()
    assert cards[0].startswith("Mortal ") and "│" not in "".join(cards)


def test_diff_on_a_terminal_is_a_table_of_both_packs(monkeypatch) -> None:
    monkeypatch.setattr(display, "console", lambda: Console(force_terminal=True, width=200, color_system=None))
    output = CliRunner().invoke(main, ["diff", "bga", "pantheon"]).output
    header = next(line for line in output.splitlines() if "card" in line and "what" in line)
    assert header.split() == ["card", "what", "bga", "pantheon"]
    artemis = [line for line in output.splitlines() if line.strip().startswith("Artemis")]
    assert any("bans" in line and "Adonis, Persephone" in line and "(none)" in line for line in artemis)

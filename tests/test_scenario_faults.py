"""A scenario file that says something it cannot mean is a fault of the file, located, never a
traceback and never a silent pass (issue 10, "Scenarios and the library"); a game that is over
takes no more turns."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from santorini.dsl.errors import SantoriniError
from santorini.interpreter.cli.cli import main
from santorini.interpreter.engine.engine import GameOver, IllegalTurn
from santorini.interpreter.games.scenario import ScenarioError, check, load_scenario
from santorini.interpreter.model.notation import parse_turn

POSITION = """\
name: a fault
edition: bga
players: [Apollo, Mortal]
board: |
  0 0 0 0 0
  0 0 1 0 0
  0 0 0 0 0
  0 0 0 0 0
  0 0 0 0 0
workers: {A1: c3, A2: a1, B1: c4, B2: e1}
"""


def load(tmp_path: Path, text: str):
    path = tmp_path / "s.yaml"
    path.write_text(text, encoding="utf-8")
    return load_scenario(path)


def fault(tmp_path: Path, text: str) -> tuple[int, int, str]:
    with pytest.raises(ScenarioError) as caught:
        load(tmp_path, text)
    (error,) = caught.value.errors
    return error.line, error.column, error.message


@pytest.mark.parametrize(("expect", "line", "message"), [
    ('  illegal:\n    - "move A1 a4; biuld A1 a5"\n', 13, "illegal turn 'move A1 a4; biuld A1 a5' is not well-formed: "
                                                      "unknown verb 'biuld'"),
    ('  legal:\n    - "move A3 c2; build A3 c1"\n', 13, "legal turn 'move A3 c2; build A3 c1' is not well-formed"),
    ('  includes:\n    - {workers: {A3: a4}}\n', 13, "there is no worker 'A3' (workers: A1, A2, B1, B2)"),
    ('  excludes:\n    - {workers: {C1: a4}}\n', 13, "there is no worker 'C1'"),
    ('  after:\n    turn: "move A1 c2; build A1 c1"\n    workers: {A3: a4}\n', 14, "there is no worker 'A3'"),
    ('  after:\n    turn: "move A1 c2 build A1 c1"\n', 13, "after turn 'move A1 c2 build A1 c1' is not well-formed"),
])
def test_a_malformed_expectation_is_a_located_fault(tmp_path: Path, expect: str, line: int, message: str) -> None:
    found = fault(tmp_path, POSITION + "expect:\n" + expect)
    assert found[0] == line and message in found[2], found


def test_a_well_formed_illegal_turn_is_still_judged_by_the_rules(tmp_path: Path) -> None:
    """'remove' and 'pass' are notation: a turn that writes one the rules do not offer is illegal."""
    scenario = load(tmp_path, POSITION + 'expect:\n  illegal:\n    - "move A1 c4; build A1 c3"\n'
                                         '    - "move A1 d3; build A1 c3; remove B1"\n    - "pass"\n')
    assert check(scenario) == []


@pytest.mark.parametrize(("workers", "message"), [
    ("{A1: c3, a1: a1, B1: c4, B2: e1}", "worker 'a1' is 'A1' again: worker ids ignore case"),
    ("{A1: c3, A01: a1, B1: c4, B2: e1}", "invalid key 'A01'"),
])
def test_one_worker_cannot_be_written_twice(tmp_path: Path, workers: str, message: str) -> None:
    text = POSITION.replace("workers: {A1: c3, A2: a1, B1: c4, B2: e1}", f"workers: {workers}")
    with pytest.raises(SantoriniError) as caught:
        load(tmp_path, text)
    assert message in str(caught.value)


#: A1 stands on c3 (level 2) next to d4 (level 3): 'move A1 d4' wins.
WINNING = POSITION.replace("  0 0 0 0 0\n  0 0 1 0 0\n  0 0 0 0 0\n", "  0 0 0 0 0\n  0 0 1 3 0\n  0 0 2 0 0\n")


def test_a_game_that_is_won_takes_no_more_turns(tmp_path: Path) -> None:
    scenario = load(tmp_path, WINNING)
    state, engine = scenario.state, scenario.game.engine
    after = engine.play(state, parse_turn(state, "move A1 d4"))
    assert after.winner == 0
    for play in (engine.play, engine.play_in_place):
        with pytest.raises(GameOver, match="the game is over: A has won"):
            play(after, parse_turn(after, "move B1 c5; build B1 b5"))
    assert issubclass(GameOver, IllegalTurn) and issubclass(GameOver, SantoriniError)


def test_a_history_cannot_go_on_after_a_win(tmp_path: Path) -> None:
    found = fault(tmp_path, WINNING + 'history:\n  - "move A1 d4"\n  - "move B1 b5; build B1 a5"\n')
    assert found[0] == 13 and "the game is over" in found[2]


def test_the_runner_reports_a_malformed_illegal_turn_with_exit_2(tmp_path: Path) -> None:
    path = tmp_path / "s.yaml"
    path.write_text(POSITION + 'expect:\n  illegal:\n    - "move A1 a4; biuld A1 a5"\n', encoding="utf-8")
    result = CliRunner().invoke(main, ["scenario", str(path)])
    assert result.exit_code == 2 and f"{path}:13:7: illegal turn" in result.output
    assert "Traceback" not in result.output


# ---- the keyboard
def test_a_human_typing_odd_digits_or_a_dome_where_none_is_allowed_is_asked_again(tmp_path: Path) -> None:
    from santorini.interpreter.games.human import HumanAgent
    scenario = load(tmp_path, POSITION)
    answers = iter(["²", "9" * 5000, "dome A1 c2", "move A1 c2", "dome A1 c1", "build A1 c1"])
    said: list[str] = []
    agent = HumanAgent(ask=lambda _: next(answers), say=said.append)
    steps = agent.turn(scenario.game)
    assert [s[0] for s in steps] == ["move", "build"]  # a block on c1, not the dome typed first
    assert any("'dome A1 c1' is not a legal step now" in line for line in said)
    assert any("'²'" in line or "unknown verb" in line for line in said)


def test_a_human_placement_that_breaks_the_cards_setup_is_asked_again() -> None:
    from santorini.interpreter.games.game import new_game, parse_players
    from santorini.interpreter.games.human import HumanAgent
    from santorini.interpreter.games.packs import load_pack
    game = new_game(load_pack("bga"), parse_players(["Bia", "Mortal"]))  # Bia: on perimeter spaces
    answers = iter(["c3", "a1", "a1", "e5"])
    said: list[str] = []
    squares = HumanAgent(ask=lambda _: next(answers), say=said.append).placement(game, 0)
    assert squares == [0, 24] and any("place them again" in line for line in said)


def test_a_human_may_type_a_whole_turn_undo_a_step_and_is_told_what_a_power_did(tmp_path: Path) -> None:
    """Apollo's A1 (c3) swaps with B1 (c4): the player reads that B1 was forced to c3; 'undo'
    takes the move back; a whole turn on one line is taken at once."""
    from santorini.interpreter.games.human import HumanAgent
    scenario = load(tmp_path, POSITION)
    answers = iter(["move A1 c4", "undo", "move A1 c4; build A1 d5"])
    said: list[str] = []
    steps = HumanAgent(ask=lambda _: next(answers), say=said.append).turn(scenario.game)
    assert [s[0] for s in steps] == ["move", "build"] and steps[1][2] == 23  # d5
    told = [line for line in said if "was forced" in line]
    assert told and told[0].strip() == "B1 was forced from c4 to c3"
    assert any("(or 'undo' to take back 'move A1 c4')" in line for line in said)
    options = [line.strip() for line in said if line.strip()[:1].isdigit() and ". " in line]
    first_list = options[:next(i for i, line in enumerate(options[1:], 1) if line.startswith("1."))]
    assert first_list[0].startswith("1. move A1 b2  (level 0)")
    assert "move A1 c4  (level 1)" in " ".join(first_list)
    workers = [line.split()[2] for line in first_list]
    assert workers == sorted(workers)  # A1's steps, then A2's


@pytest.mark.parametrize(("extra", "message"), [
    ("expect:\n  order: [A, B]\n", "'order' cannot be checked here: 'order' is about a position in setup"),
    ("placing: A\nexpect:\n  turns: 3\n", "'turns' cannot be checked here: a position in setup ('placing') expects"),
])
def test_an_expectation_the_position_cannot_have_is_a_fault(tmp_path: Path, extra: str, message: str) -> None:
    text = POSITION if "placing" not in extra else POSITION.replace("workers: {A1: c3, A2: a1, B1: c4, B2: e1}",
                                                                    "workers: {}")
    found = fault(tmp_path, text + extra)
    assert message in found[2]


def test_a_fact_about_a_counter_no_card_keeps_is_a_fault(tmp_path: Path) -> None:
    found = fault(tmp_path, POSITION + "expect:\n  after:\n    turn: \"move A1 c2; build A1 c1\"\n"
                                       "    cards: {A: {coins: 1}}\n")
    assert found[0] == 14 and "seat A's cards count no 'coins' (they count: none)" in found[2]


def test_a_used_power_must_be_one_of_the_seats_once_per_game_powers(tmp_path: Path) -> None:
    found = fault(tmp_path, POSITION + "cards:\n  A: {used: [your move]}\n")
    assert found[0] == 12 and "'your move' is not a once-per-game power of this seat's cards (theirs: none)" in found[2]


@pytest.mark.parametrize("extra", ["to_move: B\n", "out: [B]\n"])
def test_a_setup_position_says_no_seat_to_move_and_no_seat_out(tmp_path: Path, extra: str) -> None:
    text = POSITION.replace("workers: {A1: c3, A2: a1, B1: c4, B2: e1}", "workers: {}") + "placing: A\n" + extra
    found = fault(tmp_path, text)
    assert "a position in setup ('placing') has no" in found[2]


def test_a_sex_where_no_card_tells_workers_apart_is_a_fault(tmp_path: Path) -> None:
    """It made the two workers different workers in outcomes, and so changed turn counts, without
    a word."""
    text = POSITION.replace("A2: a1", "A2: {at: a1, sex: female}")
    found = fault(tmp_path, text)
    assert "no card in this game tells workers apart by sex" in found[2]

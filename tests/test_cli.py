"""The command line as a user meets it: outputs, exit codes (0 ok, 1 failed, 2 bad input), and a
clear message instead of a traceback for bad input."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

import santorini
from santorini.interpreter.cli.cli import main
from support import REPO, SCENARIOS, s0_text


def run(*args: str, input: str | None = None):
    return CliRunner().invoke(main, list(args), input=input)


@pytest.mark.parametrize("command", ["check", "scenario", "perft", "cards", "show", "play", "replay", "bench", "render",
                                     "balance", "diff"])
def test_every_command_has_help(command: str) -> None:
    result = run(command, "--help")
    assert result.exit_code == 0 and "Usage:" in result.output
    assert command in run("--help").output  # (registered with the main command)


def test_play_prints_a_whole_game_and_is_deterministic() -> None:
    first = run("play", "--pack", "bga", "--gods", "Apollo", "Athena", "--seed", "7")
    second = run("play", "--pack", "bga", "--gods", "Apollo", "Athena", "--seed", "7")
    assert first.exit_code == 0, first.output
    assert first.output == second.output
    assert "setup A: place A1" in first.output and "turn 1 A: move" in first.output
    assert first.output.strip().splitlines()[-1].startswith("winner: ")


@pytest.mark.parametrize(("args", "message"), [
    (["play", "--gods", "Apollo", "Zeuss"], "has no card 'Zeuss'"),
    (["play", "--pack", "bgaa", "--gods", "Apollo", "Pan"], "unknown pack 'bgaa'"),
    (["play", "--gods", "Apollo", "Pan", "--mode", "chaos"], "has no mode 'chaos'"),
    (["play", "--gods", "Artemis", "Mortal", "--human", "Z"], "seats are A, B"),
    (["show", "Zeuss"], "has no card 'Zeuss'"),
    (["scenario", "no/such/file.yaml"], "no such file"),
])
def test_bad_input_exits_2_with_a_message(args: list[str], message: str) -> None:
    result = run(*args)
    assert result.exit_code == 2, result.output
    assert message in result.output
    assert "Traceback" not in result.output


def test_cards_and_show() -> None:
    cards = run("cards", "--pack", "pantheon")
    assert cards.exit_code == 0
    lines = cards.output.splitlines()
    assert lines[0].startswith("Mortal") and any(line.startswith("Prometheus") for line in lines)
    shown = run("show", "prometheus", "--pack", "pantheon")
    assert shown.exit_code == 0 and "Alternative Turn (optional):" in shown.output
    # a text of two lines is indented as one block under its heading
    twins = run("show", "Castor & Pollux").output.splitlines()
    at = twins.index("Card text:")
    assert twins[at + 1:at + 3] == ["  Alternative Turn: Move with all of your Workers. Do not build.",
                                    "  Alternative Turn: Do not move. Build with all of your Workers."]


def test_check_passes_on_the_shipped_packs() -> None:
    result = run("check")
    assert result.exit_code == 0, result.output
    assert result.output.strip().endswith(", 0 faults")


def test_check_reports_a_misspelt_key_and_a_rule_error_in_a_copied_card(tmp_path: Path) -> None:
    card = (REPO / "powers" / "bga" / "demeter.yaml").read_text(encoding="utf-8")
    card = card.replace("summary:", "sumary:").replace("not on the same space", "not on the same spce")
    path = tmp_path / "demeter.yaml"
    path.write_text(card, encoding="utf-8")
    result = run("check", str(path))
    assert result.exit_code == 1
    assert "unknown key 'sumary' (did you mean 'summary'?)" in result.output
    lines = [line for line in result.output.splitlines() if line.startswith(str(path))]
    assert lines and all(line.count(":") >= 3 for line in lines)


def test_check_reports_every_rule_fault_with_position(tmp_path: Path) -> None:
    card = (REPO / "powers" / "bga" / "demeter.yaml").read_text(encoding="utf-8")
    card = card.replace("not on the same space", "not on the same spce")
    path = tmp_path / "demeter.yaml"
    path.write_text(card, encoding="utf-8")
    result = run("check", str(path))
    assert result.exit_code == 1
    lines = card.splitlines()
    line_number = max(i for i, line in enumerate(lines, start=1) if "spce" in line)  # in `rules:`
    column = lines[line_number - 1].index("spce") + 1
    assert f"{path}:{line_number}:{column}: unknown word 'spce' (did you mean 'space'?)" in result.output


def test_scenario_runner_outputs_and_exit_codes(tmp_path: Path) -> None:
    good = run("scenario", str(SCENARIOS / "examples"))
    assert good.exit_code == 0, good.output
    assert good.output.strip().splitlines()[-1] == "2 passed, 0 failed"
    failing = yaml.safe_load(s0_text("bga", ["Mortal", "Mortal"]))
    failing["expect"] = {"turns": 67}
    (tmp_path / "fail.yaml").write_text(yaml.safe_dump(failing))
    bad = run("scenario", str(tmp_path / "fail.yaml"))
    assert bad.exit_code == 1
    assert "FAIL S0 Mortal v Mortal: turns: expected 67, found 68" in bad.output
    failing["workers"]["A3"] = "z9"
    (tmp_path / "invalid.yaml").write_text(yaml.safe_dump(failing))
    invalid = run("scenario", str(tmp_path / "invalid.yaml"))
    assert invalid.exit_code == 2
    assert f"{tmp_path / 'invalid.yaml'}:" in invalid.output


def test_a_folder_run_reports_each_bad_file_and_runs_the_others(tmp_path: Path) -> None:
    """A file naming a card its pack lacks, or not a scenario at all, is one located ERROR line;
    the files before and after it still run, the tally still ends the output, and the exit code
    is 2 (a file is not a valid scenario) even though every scenario that ran passed."""
    passing = yaml.safe_load(s0_text("bga", ["Mortal", "Mortal"]))
    passing["expect"] = {"turns": 68}
    (tmp_path / "a-passes.yaml").write_text(yaml.safe_dump(passing))
    unknown = dict(passing, players=["Mortal", "Zzyzx"])
    (tmp_path / "b-unknown-card.yaml").write_text(yaml.safe_dump(unknown))
    (tmp_path / "c-broken.yaml").write_text("name: broken\nplayers: [Mortal, Mortal\n")
    (tmp_path / "d-passes.yaml").write_text(yaml.safe_dump(dict(passing, name="S0 again")))
    result = run("scenario", str(tmp_path))
    lines = result.output.strip().splitlines()
    assert result.exit_code == 2, result.output
    assert lines[-1] == "2 passed, 0 failed"
    assert [line.split(" ")[0] for line in lines[:-1]] == ["PASS", "ERROR", "ERROR", "PASS"]
    assert lines[1].startswith(f"ERROR {tmp_path / 'b-unknown-card.yaml'}:") and "no card 'Zzyzx'" in lines[1]
    assert lines[2].startswith(f"ERROR {tmp_path / 'c-broken.yaml'}:3:1:")
    assert "Traceback" not in result.output


def test_perft_command(tmp_path: Path) -> None:
    (tmp_path / "s0.yaml").write_text(s0_text("bga", ["Mortal", "Mortal"]))
    result = run("perft", str(tmp_path / "s0.yaml"), "--depth", "2")
    assert result.exit_code == 0
    assert result.output.splitlines() == ["1: 68", "2: 5156"]


def test_record_and_replay(tmp_path: Path) -> None:
    record = tmp_path / "game.yaml"
    played = run("play", "--gods", "Prometheus", "Apollo", "--seed", "3", "--record", str(record))
    assert played.exit_code == 0, played.output
    data = yaml.safe_load(record.read_text())
    assert data["pack"] == "bga" and data["turns"] and data["result"]["winner"] in ("A", "B")
    same = run("replay", str(record))
    assert same.exit_code == 0, same.output
    assert "the result is the same" in same.output


def test_replay_reports_where_the_editions_part(tmp_path: Path) -> None:
    """A BGA Prometheus turn that builds first is not allowed in Pantheon without `use`."""
    record = {
        "pack": "bga", "mode": "standard", "seed": None, "players": ["Prometheus", "Mortal"],
        "placements": ["place A1 b3; place A2 d3", "place B1 c4; place B2 c2"],
        "turns": ["move A1 b2; build A1 a1", "move B1 c5; build B1 c4", "build A1 b1; move A1 a2; build A1 b1"],
        "result": {"winner": None, "reason": "unfinished"},
    }
    path = tmp_path / "game.yaml"
    path.write_text(yaml.safe_dump(record))
    assert run("replay", str(path)).exit_code == 0
    other = run("replay", str(path), "--pack", "pantheon")
    assert other.exit_code == 1
    assert other.output.startswith("turn 3 (A) 'build A1 b1; move A1 a2; build A1 b1' is not allowed under pantheon")


def test_human_is_told_why_a_step_is_illegal_and_asked_again() -> None:
    answers = "\n".join(["b3", "d3", "move A1 e5", "move A1 a4", "1", "1"] + ["1"] * 400) + "\n"
    result = run("play", "--gods", "Mortal", "Mortal", "--seed", "1", "--human", "A", input=answers)
    assert "'move A1 e5' is not a legal step now" in result.output
    assert "Traceback" not in result.output


def test_bench_prints_games_per_second() -> None:
    result = run("bench", "--gods", "Mortal", "Mortal", "--seconds", "0.5", "--seed", "1")
    assert result.exit_code == 0
    lines = result.output.strip().splitlines()
    assert lines[-1].startswith("games/s: ")
    games = int(next(line for line in lines if line.startswith("games: ")).split()[1])
    wins = next(line for line in lines if line.startswith("wins: "))
    counts = [int(part.split()[1]) for part in wins[len("wins: "):].split(", ")]
    assert sum(counts) == games and wins.startswith("wins: A ")


def test_diff_lists_what_changes_card_by_card() -> None:
    result = run("diff", "bga", "pantheon")
    assert result.exit_code == 0
    lines = result.output.splitlines()
    assert "Apollo: rules, text differ" in lines
    assert any(line.startswith("Prometheus: rules, text") for line in lines)
    assert any(line.startswith("Hermes: rules (wording only") for line in lines)
    assert "      your worker may move into an opponent worker's space, not up, forcing " \
           "that worker to the space yours just vacated." in lines
    assert run("diff", "bga", "bga").output.strip() == "bga and bga have the same cards and rules"


def test_a_record_ends_on_its_position_string_and_replay_checks_it(tmp_path: Path) -> None:
    """The position written by hand from the turns: A1 from b3 to b2 to a2, B1 from c4 to c5;
    a1 one block, b1 two (Prometheus built before and after moving), c4 one; B to act."""
    position = "bga/standard Prometheus,Mortal 00000/00100/00000/00000/12000 A1a2,A2d3,B1c5,B2c2 B"
    record = {
        "pack": "bga", "mode": "standard", "seed": None, "players": ["Prometheus", "Mortal"],
        "placements": ["place A1 b3; place A2 d3", "place B1 c4; place B2 c2"],
        "turns": ["move A1 b2; build A1 a1", "move B1 c5; build B1 c4", "build A1 b1; move A1 a2; build A1 b1"],
        "position": position, "result": {"winner": None, "reason": "unfinished"},
    }
    path = tmp_path / "game.yaml"
    path.write_text(yaml.safe_dump(record, sort_keys=False))
    assert run("replay", str(path)).exit_code == 0
    assert run("render", str(path), "-o", str(tmp_path / "end.svg")).exit_code == 0
    path.write_text(yaml.safe_dump({**record, "position": position.replace("B1c5", "B1c4")}, sort_keys=False))
    result = run("replay", str(path))
    assert result.exit_code == 1
    assert "another position than the record's" in result.output and "B1c5" in result.output
    # a record written by play ends on the position the library reaches by the same turns
    written = tmp_path / "played.yaml"
    assert run("play", "--gods", "Athena", "Pan", "--seed", "5", "--record", str(written)).exit_code == 0
    data = yaml.safe_load(written.read_text())
    game = santorini.Game(["Athena", "Pan"])
    for text in (*data["placements"], *data["turns"]):
        game.play(text)
    assert data["position"] == game.position() and list(data)[-2:] == ["position", "result"]


@pytest.mark.parametrize(("placements", "turns", "message"), [
    (["place A1 c3; place A2 z9", "place B1 a1; place B2 a2"], [], ":3:"),
    (["place A1 c3; place A2 c3", "place B1 a1; place B2 a2"], [], "c3 is occupied"),
    (["place A1 c3; place A2 d3", "place A1 a1; place A2 a2"], [], "seat B places B1, B2"),
    (["place A1 c3; place A2 d3", "place B1 a1; place B2 a2"], ["move A1 c4; build A1 c5", "fly B1 b1"],
     "turn 2: unknown verb 'fly'"),
])
def test_a_malformed_record_is_bad_input_located(tmp_path: Path, placements, turns, message: str) -> None:
    path = tmp_path / "game.yaml"
    path.write_text(yaml.safe_dump({"pack": "bga", "players": ["Apollo", "Pan"], "placements": placements,
                                    "turns": turns}))
    result = run("replay", str(path))
    assert result.exit_code == 2
    assert result.output.startswith(f"{path}:") and message in result.output


THAUMAS = """\
# yaml-language-server: $schema=../../schema/card.schema.json
name: Thaumas
title: Wonder of the Sea
kind: god
tier: simple
players: [2]
summary: Domes at any level, and wins by stepping down two levels.
text: "Your Build: your worker may build a dome at any level. Win Condition: you also win if your worker
  moves down two or more levels."
rules: |
  Your Build:
    your worker may build a dome at any level.
  Win Condition:
    you also win if your worker moves down two or more levels.
"""


def test_an_author_plays_and_tests_a_new_card_in_a_pack_of_their_own(tmp_path: Path) -> None:
    """The user story of a card author: a pack folder that extends a shipped pack with one new
    card, checked, listed, tested with a scenario, played, recorded and replayed."""
    pack = tmp_path / "my-pack"
    pack.mkdir()
    (pack / "pack.yaml").write_text((REPO / "powers" / "bga" / "pack.yaml").read_text()
                                    .replace("name: bga", "name: my-pack")
                                    .replace("language: 2", "language: 2\nextends: bga"))
    (pack / "thaumas.yaml").write_text(THAUMAS)
    assert run("check", str(pack)).exit_code == 0
    assert any(line.startswith("Thaumas ") for line in run("cards", "--pack", str(pack)).output.splitlines())
    scenario = yaml.safe_load(s0_text("bga", ["Thaumas", "Mortal"]))
    scenario.update(edition="my-pack", board="0 0 0 0 0\n0 0 0 0 0\n0 2 0 0 0\n0 0 0 0 0\n0 0 0 0 0\n",
                    expect={"win": True, "after": {"turn": "move A2 d2; dome A2 d1", "board": {"d1": "0D"}},
                            "includes": [{"board": {"c3": "0D"}}]})
    scenario["workers"] = {"A1": "b3", "A2": "d3", "B1": "e5", "B2": "e4"}
    (tmp_path / "thaumas.yaml").write_text(yaml.safe_dump(scenario))
    result = run("scenario", str(tmp_path / "thaumas.yaml"))
    assert result.exit_code == 0, result.output
    scenario["edition"] = "bga"  # the same expectations fail without the card's pack
    (tmp_path / "shipped.yaml").write_text(yaml.safe_dump(scenario))
    assert run("scenario", str(tmp_path / "shipped.yaml")).exit_code == 2
    record = tmp_path / "game.yaml"
    played = run("play", "--pack", str(pack), "--gods", "Thaumas", "Mortal", "--seed", "2", "--record", str(record))
    assert played.exit_code == 0, played.output
    assert run("replay", str(record)).exit_code == 0


def test_an_unknown_pack_name_says_a_folder_is_accepted_too() -> None:
    result = run("cards", "--pack", "no-such-pack")
    assert result.exit_code == 2
    assert "or the path of a folder holding a pack.yaml" in result.output


def test_diff_shows_the_texts_and_bans_that_differ() -> None:
    lines = run("diff", "bga", "pantheon").output.splitlines()
    at = lines.index("Artemis: text, bans differ")
    assert lines[at + 1:at + 7] == [
        "  text:",
        "    bga       Your Move: Your Worker may move one additional time, but not back to its initial space.",
        "    pantheon  Your Move: Your worker may move one additional time, but not back to its starting space.",
        "  bans:",
        "    bga       Adonis, Persephone",
        "    pantheon  (none)",
    ]
    assert "Atlas: bans differs" in lines


def test_play_takes_where_a_bots_standard_error_goes() -> None:
    assert run("play", "--gods", "Mortal", "Mortal", "--seed", "1", "--bot-stderr", "hide").exit_code == 0
    refused = run("play", "--gods", "Mortal", "Mortal", "--seed", "1", "--bot-stderr", "nowhere")
    assert refused.exit_code == 2 and "--bot-stderr" in refused.output

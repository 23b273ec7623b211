"""`santorini check` refuses what it used to pass in silence (issue 10, "Checking what authors
write"): a card named Mortal, rules that do nothing, a pack named otherwise than its folder, card
files it would not read, texts with half a character, records its pack does not replay; and a
misspelt card or pack name gets a suggestion."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from santorini.interpreter.cli.cli import main
from santorini.interpreter.games.validate import check_paths
from support import REPO

CARD = """\
name: {name}
title: A god of tests
kind: god
tier: simple
players: [2]
summary: Tests.
text: Tests.
rules: {rules}
"""
RULES = "|\n  Your Move:\n    after your worker moves, it may move one additional time.\n"


def author_pack(tmp_path: Path, folder_name: str = "mine", pack_name: str = "mine") -> Path:
    folder = tmp_path / folder_name
    folder.mkdir()
    pack = (REPO / "powers" / "bga" / "pack.yaml").read_text(encoding="utf-8")
    start = pack.index("edition_cards:")
    (folder / "pack.yaml").write_text(pack[:start].replace("name: bga", f"name: {pack_name}\nextends: bga"),
                                      encoding="utf-8")
    return folder


def messages(*paths: Path) -> list[str]:
    _, errors = check_paths([str(p) for p in paths])
    return [f"{Path(e.file).name}:{e.line}:{e.column}: {e.message}" for e in errors]


def test_a_clean_author_pack_passes(tmp_path: Path) -> None:
    folder = author_pack(tmp_path)
    (folder / "demigod.yaml").write_text(CARD.format(name="Demigod", rules=RULES), encoding="utf-8")
    assert messages(folder) == []


def test_a_pack_is_named_as_its_folder(tmp_path: Path) -> None:
    folder = author_pack(tmp_path, "mine", "yours")
    assert messages(folder) == ["pack.yaml:2:7: the pack is named 'yours' but its folder is 'mine': name the folder "
                                "as the pack, or the pack as the folder"]


@pytest.mark.parametrize("name", ["Mortal", "mortal"])
def test_a_god_cannot_be_called_mortal(tmp_path: Path, name: str) -> None:
    folder = author_pack(tmp_path)
    (folder / "m.yaml").write_text(CARD.format(name=name, rules=RULES), encoding="utf-8")
    assert messages(folder) == ["m.yaml:1:7: 'Mortal' is the name of a seat with no power; give the card another name"]


@pytest.mark.parametrize("rules", ['""', "|\n  # nothing yet\n"])
def test_rules_that_do_nothing_are_refused(tmp_path: Path, rules: str) -> None:
    folder = author_pack(tmp_path)
    (folder / "idle.yaml").write_text(CARD.format(name="Idle", rules=rules), encoding="utf-8")
    [message] = messages(folder)
    assert message.startswith("idle.yaml:8:8: the rules add nothing to the base rules")


def test_card_files_the_pack_would_not_read_are_named(tmp_path: Path) -> None:
    folder = author_pack(tmp_path)
    (folder / "demigod.yml").write_text(CARD.format(name="Demigod", rules=RULES), encoding="utf-8")
    (folder / "more").mkdir()
    (folder / "more" / "titan.yaml").write_text(CARD.format(name="Titan", rules=RULES), encoding="utf-8")
    (folder / "scenarios").mkdir()  # a subfolder of scenarios is no card: not a fault
    shutil.copy(REPO / "tests" / "scenarios" / "bga" / "apollo-swap.yaml", folder / "scenarios")
    assert messages(folder) == [
        "demigod.yml:1:1: this file ends in .yml, so the pack does not read it: cards are the *.yaml files of "
        f"{folder} itself",
        f"titan.yaml:1:1: this file is in a subfolder, so the pack does not read it: cards are the *.yaml files of "
        f"{folder} itself",
    ]


def test_half_a_character_is_refused_where_it_stands(tmp_path: Path) -> None:
    folder = author_pack(tmp_path)
    (folder / "odd.yaml").write_text(CARD.format(name='"Od\\ud800d"', rules=RULES), encoding="utf-8")
    assert messages(folder) == ["odd.yaml:1:7: the text holds a lone surrogate (an escape such as \\ud800 that is "
                                "half a character)"]


def test_a_record_is_checked_by_replaying_it(tmp_path: Path) -> None:
    record = tmp_path / "game.yaml"
    played = CliRunner().invoke(main, ["play", "--gods", "Apollo", "Pan", "--seed", "2", "--record", str(record)])
    assert played.exit_code == 0
    assert messages(record) == []
    lines = record.read_text(encoding="utf-8").splitlines()
    turn = next(i for i, line in enumerate(lines) if line.startswith("- move A"))
    lines[turn] = "- move A1 e5; build A1 e4"  # A1 never stands next to e5 at the start
    record.write_text("\n".join(lines) + "\n", encoding="utf-8")
    [message] = messages(record)
    assert message.startswith(f"game.yaml:{turn + 1}:3: turn 1 (A) 'move A1 e5; build A1 e4' is not allowed under bga")


@pytest.mark.parametrize(("args", "message"), [
    (["play", "--gods", "Apolo", "Pan"], "has no card 'Apolo' (did you mean 'Apollo'?)"),
    (["play", "--gods", "Apollo", "Pan", "--pack", "pantheom"], "unknown pack 'pantheom' (did you mean 'pantheon'?)"),
    (["cards", "--pack", "bgaa"], "unknown pack 'bgaa' (did you mean 'bga'?)"),
])
def test_misspelt_names_get_a_suggestion(args: list[str], message: str) -> None:
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 2 and message in result.output


@pytest.mark.parametrize("rules", [
    ">\n  Your Move:\n    after your worker moves, it may move one additional time.\n",
    '"Your Move:\\n  after your worker moves, it may move one additional time."',
])
def test_rules_are_a_literal_block_so_that_messages_point_at_their_lines(tmp_path: Path, rules: str) -> None:
    """Folded and quoted rules were reported at the wrong line."""
    path = tmp_path / "demigod.yaml"
    path.write_text(CARD.format(name="Demigod", rules=rules), encoding="utf-8")
    [message] = messages(path)
    assert message.startswith("demigod.yaml:8:8: write the rules as a literal block ('rules: |'")


def test_a_literal_block_fault_is_reported_at_its_line_and_column(tmp_path: Path) -> None:
    path = tmp_path / "demigod.yaml"
    path.write_text(CARD.format(name="Demigod", rules=RULES.replace("additional time", "additional tyme")),
                    encoding="utf-8")
    [message] = messages(path)
    line = "    after your worker moves, it may move one additional tyme."
    assert message.splitlines()[0] == (f"demigod.yaml:10:{line.index('tyme') + 1}: unknown word 'tyme' "
                                       "(did you mean 'time'?)")


def test_a_card_cannot_ban_itself(tmp_path: Path) -> None:
    folder = author_pack(tmp_path)
    text = CARD.format(name="Demigod", rules=RULES).replace("players: [2]\n", "players: [2]\nbans: [Demigod]\n")
    (folder / "demigod.yaml").write_text(text, encoding="utf-8")
    assert messages(folder) == ["demigod.yaml:6:8: Demigod bans itself: a ban names another card"]


def test_perft_depth_zero_is_refused(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["perft", str(REPO / "tests" / "scenarios" / "bga" / "apollo-swap.yaml"),
                                       "--depth", "0"])
    assert result.exit_code == 2 and "--depth" in result.output

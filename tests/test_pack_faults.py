"""Faults of packs and cards that `santorini check` used to pass, found by fuzzing: a pack's own
modes left unchecked (and modes in a subfolder or named twice passed over in silence), and rules
whose turns have no real bound (a repetition that costs nothing, a follow-up that calls itself, a
turn that repeats its moves again after a build, a sentence or a turn written twice). Each test
is a reproducer; each refusal has a test beside it of what is still allowed, so that the rule
cannot be broader than the fault."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from santorini.interpreter.cli.cli import main
from santorini.interpreter.games.packs import PackError, modes_folder_of, resolve_pack
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
rules: |
{rules}"""

#: A clean card for the packs below: the rules of Artemis.
DEMIGOD = "  Your Move:\n    after your worker moves, it may move one additional time.\n"

MODE = """\
name: {name}
title: A mode of tests
players: [2]
summary: Tests.
powers_per_seat: 1
rules: |
  Setup:
    each player places {workers} workers.
"""

#: The line of a card file where its rules' first line stands (after 'rules: |').
FIRST_RULE = 9


def author_pack(tmp_path: Path, name: str = "mine") -> Path:
    """An author's pack extending bga, with one clean card (as tests/test_author_checks.py)."""
    folder = tmp_path / name
    folder.mkdir()
    pack = (REPO / "powers" / "bga" / "pack.yaml").read_text(encoding="utf-8")
    start = pack.index("edition_cards:")
    (folder / "pack.yaml").write_text(pack[:start].replace("name: bga", f"name: {name}\nextends: bga"),
                                      encoding="utf-8")
    (folder / "demigod.yaml").write_text(CARD.format(name="Demigod", rules=DEMIGOD), encoding="utf-8")
    return folder


def write_mode(folder: Path, file: str, name: str, workers: int = 2) -> Path:
    path = folder / file
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(MODE.format(name=name, workers=workers), encoding="utf-8")
    return path


def messages(*paths: Path) -> list[str]:
    _, errors = check_paths([str(p) for p in paths])
    return [f"{e.file}:{e.line}:{e.column}: {e.message}" for e in errors]


def card_faults(tmp_path: Path, rules: str) -> list[tuple[int, int, str]]:
    """The faults `santorini check` finds in a card with these rules (two-space indented)."""
    path = tmp_path / "card.yaml"
    path.write_text(CARD.format(name="Tester", rules=rules), encoding="utf-8")
    _, errors = check_paths([str(path)])
    return [(e.line, e.column, e.message) for e in errors]


def column(line: str, words: str) -> int:
    return line.index(words) + 1


# ---- F1: a pack's own modes are the ones checked -------------------------------------------------

def test_check_reads_the_modes_folder_of_the_pack_it_checks(tmp_path: Path) -> None:
    """`check` looked for an author's modes in ../../modes/<name> (where the shipped packs keep
    theirs), so a broken mode in the pack's own modes/ passed, and `play` then failed on it."""
    folder = author_pack(tmp_path)
    mode = write_mode(folder / "modes", "duel.yaml", "duel", workers=9)
    fault = f"{mode}:8:5: a player places 1 to 4 workers, not 9"
    assert messages(folder) == [fault]
    with pytest.raises(PackError) as caught:  # what `play --pack` loads: the same modes, the same fault
        resolve_pack(str(folder))
    assert [f"{e.file}:{e.line}:{e.column}: {e.message}" for e in caught.value.errors] == [fault]


def test_check_and_play_agree_on_a_packs_modes_from_the_command_line(tmp_path: Path) -> None:
    folder = author_pack(tmp_path)
    mode = write_mode(folder / "modes", "duel.yaml", "duel", workers=9)
    checked = CliRunner().invoke(main, ["check", str(folder)])
    assert checked.exit_code == 1 and f"{mode}:8:5: a player places 1 to 4 workers, not 9" in checked.output
    played = CliRunner().invoke(main, ["play", "--pack", str(folder), "--gods", "Demigod", "Mortal", "--seed", "1"])
    assert played.exit_code == 2 and f"{mode}:8:5: a player places 1 to 4 workers, not 9" in played.output
    assert "Traceback" not in checked.output + played.output


def test_a_clean_mode_of_the_pack_is_loaded_beside_the_inherited_ones(tmp_path: Path) -> None:
    folder = author_pack(tmp_path)
    write_mode(folder / "modes", "duel.yaml", "duel")
    write_mode(folder / "modes", "standard.yaml", "standard", workers=3)  # a pack may restate an inherited mode
    assert messages(folder) == []
    pack = resolve_pack(str(folder))
    assert modes_folder_of(folder) == folder / "modes"
    assert pack.modes["duel"].path == str(folder / "modes" / "duel.yaml")
    assert pack.modes["standard"].path == str(folder / "modes" / "standard.yaml")
    assert "three-players" in pack.modes  # (inherited from bga)


def test_a_shipped_pack_named_by_its_path_has_its_shipped_modes(tmp_path: Path) -> None:
    """However a shipped pack's folder is written, its modes are modes/<name>: `--pack powers/bga`
    had none (it looked for powers/bga/modes), so `play` found no default mode."""
    assert modes_folder_of(REPO / "powers" / "bga") == REPO / "modes" / "bga"
    assert modes_folder_of(REPO / "powers" / ".." / "powers" / "pantheon") == REPO / "modes" / "pantheon"
    assert modes_folder_of(author_pack(tmp_path)) is None  # (no modes/: the pack has the inherited ones)


def test_mode_files_the_pack_would_not_read_are_named(tmp_path: Path) -> None:
    """A mode in a subfolder of modes/ was passed over in silence; as for a card there, `check`
    says the pack does not read it (and so for a .yml file)."""
    folder = author_pack(tmp_path)
    modes = folder / "modes"
    write_mode(modes, "duel.yaml", "duel")
    nested = write_mode(modes / "drafts", "melee.yaml", "melee")
    yml = write_mode(modes, "brawl.yml", "brawl")
    (modes / "drafts" / "notes.yaml").write_text("ideas: [more workers]\n", encoding="utf-8")  # not a mode
    assert messages(folder) == [
        f"{yml}:1:1: this file ends in .yml, so the pack does not read it: modes are the *.yaml files of {modes} "
        "itself",
        f"{nested}:1:1: this file is in a subfolder, so the pack does not read it: modes are the *.yaml files of "
        f"{modes} itself",
    ]
    with pytest.raises(PackError):  # and `play` refuses the pack as `check` does
        resolve_pack(str(folder))


# ---- F2: a mode (or a card) named twice -----------------------------------------------------------

def test_two_modes_of_one_name_are_refused_naming_both(tmp_path: Path) -> None:
    """The later of two modes with one name replaced the earlier in silence."""
    folder = author_pack(tmp_path)
    first = write_mode(folder / "modes", "a-duel.yaml", "duel")
    second = write_mode(folder / "modes", "b-duel.yaml", "duel", workers=3)
    fault = (f"{second}:1:7: mode 'duel' is defined twice (also in {first}:1:7): give each mode its own name")
    assert messages(folder) == [fault]
    with pytest.raises(PackError) as caught:
        resolve_pack(str(folder))
    assert [e.message for e in caught.value.errors] == [fault.split(": ", 1)[1]]


def test_a_mode_with_faults_still_takes_its_name(tmp_path: Path) -> None:
    folder = author_pack(tmp_path)
    broken = write_mode(folder / "modes", "a-duel.yaml", "duel", workers=9)
    second = write_mode(folder / "modes", "b-duel.yaml", "duel")
    assert messages(folder) == [f"{broken}:8:5: a player places 1 to 4 workers, not 9",
                                f"{second}:1:7: mode 'duel' is defined twice (also in {broken}:1:7): give each mode "
                                "its own name"]


def test_a_card_defined_twice_names_both_files_and_lines(tmp_path: Path) -> None:
    folder = author_pack(tmp_path)
    second = folder / "other.yaml"
    shutil.copy(folder / "demigod.yaml", second)
    assert messages(folder) == [f"{second}:1:7: card 'Demigod' is defined twice (also in {folder / 'demigod.yaml'}"
                                ":1:7): give each card its own name"]


# ---- F3: turns with no real bound -------------------------------------------------------------------

@pytest.mark.parametrize("amount", ["0 coins", "zero coins"])
def test_a_repetition_that_costs_nothing_is_unbounded(tmp_path: Path, amount: str) -> None:
    """'spending 0 coins each time' passed as a bound, and a random game took 9-40 s."""
    line = f"    your worker may build any number of times instead, spending {amount} each time."
    [(at, col, message)] = card_faults(tmp_path, f"  Your Build:\n{line}\n")
    assert (at, col) == (FIRST_RULE + 1, column(line, "spending"))
    assert message.startswith("'spending 0 coins each time' spends nothing, so it bounds nothing: a build "
                              "repeated 'any number of times' at no cost has no bound")


def test_a_cost_of_nothing_is_refused_on_any_step(tmp_path: Path) -> None:
    line = "    your workers may move any number of times, spending 0 coins each time."
    [(at, col, message)] = card_faults(tmp_path, f"  Your Turn:\n{line}\n    one of your workers builds.\n")
    assert (at, col) == (FIRST_RULE + 1, column(line, "spending"))
    assert message == ("'spending 0 coins each time' spends nothing: a cost spends at least 1 ('spending 1 coin each "
                       "time'); else leave it out")


def test_a_repetition_that_costs_a_coin_is_still_allowed(tmp_path: Path) -> None:
    rules = ("  Start of Your Turn:\n    you gain 1 coin.\n  Your Build:\n"
             "    your worker may build any number of times instead, spending 1 coin each time.\n")
    assert card_faults(tmp_path, rules) == []


@pytest.mark.parametrize(("line", "words", "message"), [
    ("    your worker may build any number of times instead instead, spending 1 coin each time.",
     "instead,", "'instead' is said twice"),
    ("    your worker may build any number of times instead, spending 1 coin each time, spending 1 coin each time.",
     "spending 1 coin each time.", "'spending 1 coin each time' is said twice"),
    ("    your worker may build any number of times instead, spending 1 coin each time, spending 2 coins each time.",
     "spending 2", "a step has one cost: 'spending 1 coin each time' and 'spending 2 coins each time'; say one"),
])
def test_a_steps_closing_words_are_said_once(tmp_path: Path, line: str, words: str, message: str) -> None:
    """The grammar takes any run of closing words; a second one was kept in silence (a second
    cost even doubled the price)."""
    rules = f"  Start of Your Turn:\n    you gain 1 coin.\n  Your Build:\n{line}\n"
    assert card_faults(tmp_path, rules) == [(FIRST_RULE + 3, line.rindex(words) + 1, message)]


def test_a_step_forces_one_worker(tmp_path: Path) -> None:
    force = "forcing that worker to the space yours just vacated"
    line = f"    your worker may move into an opponent worker's space, {force}, {force}."
    assert card_faults(tmp_path, f"  Your Move:\n{line}\n") == [
        (FIRST_RULE + 1, line.rindex(force) + 1, "a step forces one worker: say one force")]


def test_a_build_that_follows_each_build_is_unbounded(tmp_path: Path) -> None:
    """'each time' offers the step again after each of its own steps that match: a build after
    every build is a build repeated any number of times, and it took a random game 35 s."""
    line = "    each time your worker builds, it may build."
    assert card_faults(tmp_path, f"  Your Build:\n{line}\n") == [
        (FIRST_RULE + 1, column(line, "it may"),
         "a build that follows each build has no bound: each one changes the board and may call for the next, so "
         "the turns would be past counting; write 'after' (one more build)")]


def test_each_time_needs_a_step_that_can_match_its_trigger(tmp_path: Path) -> None:
    """A build never matches 'your worker moves', so 'each time' meant 'after'; the engine offered
    the build again and again (the move stayed the last one), and a game never ended."""
    line = "    each time your worker moves, it may build."
    assert card_faults(tmp_path, f"  Your Move:\n{line}\n") == [
        (FIRST_RULE + 1, column(line, "it may"),
         "'each time' offers the step again after each of its own steps that match, and a build never matches a "
         "move: write 'after'")]


@pytest.mark.parametrize("rules", [
    "  Your Move:\n    each time your worker moves into a perimeter space, it may move again.\n",  # Triton
    "  Your Move:\n    after your worker moves, it may build.\n",
    "  Your Build:\n    after your worker builds, it may build.\n",
])
def test_follow_ups_with_a_bound_are_still_allowed(tmp_path: Path, rules: str) -> None:
    assert card_faults(tmp_path, rules) == []


def test_a_turn_repeats_its_moves_once(tmp_path: Path) -> None:
    """Hermes's turn written twice: a repeated move is bounded by the workers' places, but the
    second repetition starts again from every board the first left (three took a game past 60 s)."""
    repeat = "    your workers may move any number of times."
    rules = f"  Your Turn:\n{repeat}\n    one of your workers builds.\n{repeat}\n    one of your workers builds.\n"
    assert card_faults(tmp_path, rules) == [
        (FIRST_RULE + 3, 5, f"a turn repeats one step 'any number of times' (the one at line {FIRST_RULE + 1}): after "
                            "the build between them, a second one starts again from every place and board the first "
                            "left, so the turns would be past counting; bound it ('one of your workers moves up to 3 "
                            "times')")]
    rules = f"  Your Turn:\n{repeat}\n{repeat}\n    one of your workers builds.\n"
    assert card_faults(tmp_path, rules) == [
        (FIRST_RULE + 2, 5, f"this repeats the moves of the step at line {FIRST_RULE + 1}, which already moves any "
                            "number of times: say it once")]


def test_a_turn_may_still_repeat_a_step_it_takes_once(tmp_path: Path) -> None:
    """Steps written twice in one turn are two steps (Prometheus builds twice)."""
    rules = ("  Your Turn:\n    your workers may move any number of times, not up or down.\n"
             "    one of your workers builds.\n    that worker builds.\n    one of your workers moves up to 2 times.\n"
             "    that worker builds.\n")
    assert card_faults(tmp_path, rules) == []


def test_a_sentence_said_twice_under_one_timing_is_refused(tmp_path: Path) -> None:
    """A second copy of a follow-up, an option or a setup sentence is not redundant: it applies
    the power again (two more moves; a duplicated option even failed inside the engine)."""
    line = "    after your worker moves, it may move one additional time."
    rules = f"  Your Move:\n{line}\n  Your Build:\n    after your worker builds, it may build.\n  Your Move:\n{line}\n"
    assert card_faults(tmp_path, rules) == [
        (FIRST_RULE + 5, 5, f"this sentence is said twice in 'your move:' (also at line {FIRST_RULE + 1}): a second "
                            "one applies it again; say it once")]
    rules = ("  Setup:\n    one of your workers is female.\n    One of  your workers is female.\n"
             "  Alternative Build:\n    your female worker may build a dome at any level.\n")
    assert [f[:2] for f in card_faults(tmp_path, rules)] == [(FIRST_RULE + 2, 5)]


def test_the_same_sentence_under_another_guard_or_timing_is_allowed(tmp_path: Path) -> None:
    rules = ("  Your Move:\n    after your worker moves, it may build.\n"
             "    if your worker moved up this turn, after your worker moves, it may build.\n"
             "  Your Move (once per game):\n    your worker may move up at most 2 levels.\n"
             "  Alternative Build:\n    your worker may build a dome at any level.\n")
    assert card_faults(tmp_path, rules) == []


def test_a_turn_written_twice_is_refused(tmp_path: Path) -> None:
    turn = "  Alternative Turn (optional):\n    one of your workers moves.\n    that worker builds.\n"
    assert card_faults(tmp_path, turn + turn) == [
        (FIRST_RULE + 3, 3, f"this turn is written twice (also at line {FIRST_RULE}): say it once")]
    other = turn.replace("builds.", "builds a dome.")
    assert card_faults(tmp_path, turn + other) == []


def test_play_refuses_an_unbounded_card_at_once(tmp_path: Path) -> None:
    """The card that made a random game take 30 s: `play` now refuses it before any turn."""
    folder = author_pack(tmp_path)
    (folder / "zero.yaml").write_text(CARD.format(
        name="Zero", rules="  Your Build:\n    your worker may build any number of times instead, spending 0 coins "
                           "each time.\n"), encoding="utf-8")
    result = CliRunner().invoke(main, ["play", "--pack", str(folder), "--gods", "Zero", "Mortal", "--seed", "1"])
    assert result.exit_code == 2
    assert f"{folder / 'zero.yaml'}:10:" in result.output and "spends nothing" in result.output
    assert "turn 1" not in result.output

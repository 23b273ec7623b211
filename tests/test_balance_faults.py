"""Faults a fuzz campaign found in `santorini balance`, each now one clear message and exit code 2
(never a traceback, a hang, or a run that silently does something else), refused before a game is
played wherever the fault is there from the start:

- F6: a seed the store cannot keep (beyond 64 bits) is refused at the option;
- F7: a report file that cannot be written is found before the games are played, and a write that
  fails at the end anyway is a message that says the games are stored;
- F8: a run too large to plan (--games, --max-turns, --jobs, or games x matchups) is refused before
  its games are listed;
- F9: a store whose values were edited (an end that is no end, a winner that is no seat, an identity
  that is not JSON) is refused, naming the file and the row;
- an empty --against is refused instead of being read as 'all'.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

import santorini.interpreter.balance.plan as plan_module
import santorini.interpreter.balance.report as report_module
import santorini.interpreter.cli.balance as cli_balance
from santorini.interpreter.balance.plan import (
    MAX_GAMES,
    MAX_RUN_GAMES,
    MAX_TURNS,
    SEED_MAX,
    SEED_MIN,
    PlanError,
    RunSpec,
    plan_tasks,
)
from santorini.interpreter.balance.records import EndKind, GameResult, Matchup
from santorini.interpreter.balance.report import ReportError, write_report
from santorini.interpreter.balance.run import make_plan
from santorini.interpreter.balance.store import FILE_NAME, StoreError, open_store
from santorini.interpreter.cli.cli import main
from support import counted_calls

#: A small run: Apollo against Mortal, greedy, two games per seat order (4 games, well under a second).
RUN = ("--gods", "Apollo", "--against", "Mortal", "--games", "2", "--agent", "greedy", "--jobs", "1", "--quiet")
PAIR = [Matchup("Apollo", "Mortal"), Matchup("Mortal", "Apollo")]


def run(*args: str) -> Result:
    return CliRunner().invoke(main, ["balance", *args])


def refused(result: Result, *parts: str) -> None:
    """Exit code 2, one error line, no traceback, and every part of the expected message."""
    assert result.exit_code == 2, result.output
    assert isinstance(result.exception, SystemExit)
    assert "Traceback" not in result.output
    assert len([line for line in result.output.splitlines() if line.lower().startswith("error:")]) == 1, \
        result.output
    for part in parts:
        assert part in result.output, result.output


def stored_games(folder: Path) -> int:
    with sqlite3.connect(folder / FILE_NAME) as db:
        count: int = db.execute("SELECT COUNT(*) FROM games").fetchone()[0]
    return count


def dump(folder: Path) -> list[str]:
    """The store's tables and rows, as SQL: what a refused run must leave as it was."""
    with sqlite3.connect(folder / FILE_NAME) as db:
        return list(db.iterdump())


# ---- F6: seeds
@pytest.mark.parametrize("seed", [SEED_MAX + 1, SEED_MIN - 1, 99999999999999999999])
def test_a_seed_beyond_64_bits_is_refused_at_the_option(tmp_path: Path, seed: int) -> None:
    out = tmp_path / "run"
    result = run(*RUN, "--seed", str(seed), "--out", str(out))
    refused(result, "'--seed'", f"{seed} is not in the range -9223372036854775808<=x<=9223372036854775807")
    assert not out.exists()


@pytest.mark.parametrize("seed", [SEED_MAX, SEED_MIN])
def test_the_extreme_64_bit_seeds_are_stored_and_resumed(tmp_path: Path, seed: int) -> None:
    first = run(*RUN, "--seed", str(seed), "--out", str(tmp_path))
    assert first.exit_code == 0, first.output
    assert f"seed {seed}" in first.output.splitlines()[0]
    again = run(*RUN, "--seed", str(seed), "--out", str(tmp_path))
    assert again.exit_code == 0, again.output
    assert "4 stored, 0 to play" in again.output


def test_the_python_api_refuses_a_seed_the_store_cannot_keep(tmp_path: Path) -> None:
    with pytest.raises(PlanError, match=r"--seed is a 64-bit integer, from -9223372036854775808 to "
                                        r"9223372036854775807 .*found 18446744073709551616"):
        make_plan("bga", ["Apollo"], ["Mortal"], False, 1, "greedy", 2**64, 300)
    spec = make_plan("bga", ["Apollo"], ["Mortal"], False, 1, "greedy", 1, 300).spec
    too_big = RunSpec(**{**spec.__dict__, "seed": 2**64})
    with open_store(tmp_path) as store, pytest.raises(StoreError, match="cannot record the run"):
        store.claim(too_big)


# ---- F7: outputs that cannot be written
@pytest.mark.parametrize("name, html", [
    ("results.csv", False), ("report.md", False), ("report.html", True), ("lengths.png", False),
    ("winrate-apollo.png", False), (FILE_NAME, False), (f"{FILE_NAME}-wal", False),
])
def test_an_output_path_taken_by_a_folder_is_refused_before_a_game_is_played(tmp_path: Path, name: str,
                                                                              html: bool) -> None:
    (tmp_path / name).mkdir()
    result = run(*RUN, *(["--html"] if html else []), "--out", str(tmp_path))
    refused(result, f"cannot write {tmp_path / name}: a folder has that name")
    assert " stored, " not in result.output  # the store was never opened: nothing was played
    assert sorted(path.name for path in tmp_path.iterdir()) == [name]


def test_a_report_file_that_is_not_a_regular_file_is_refused(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "report.md")  # writing to it would block until something reads it
    refused(run(*RUN, "--out", str(tmp_path)), f"cannot write {tmp_path / 'report.md'}: it is not a regular file")
    assert not (tmp_path / FILE_NAME).exists()


def test_an_out_folder_under_a_file_is_refused(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x")
    refused(run(*RUN, "--out", str(tmp_path / "file" / "run")), f"{tmp_path / 'file'} is a file; give a folder")


def test_an_out_folder_that_may_not_be_written_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Root may write anywhere (so a chmod cannot make the fault here): the check asks os.access,
    which this test makes say no for the run's folder."""
    real = os.access

    def access(path: str, mode: int, **kwargs: object) -> bool:
        denied = Path(str(path)) == tmp_path and bool(mode & os.W_OK)  # (click asks whether it may read it)
        return False if denied else real(path, mode)
    monkeypatch.setattr(report_module.os, "access", access)
    refused(run(*RUN, "--out", str(tmp_path)), f"--out {tmp_path}: cannot write in {tmp_path} (permission denied)")
    assert not (tmp_path / FILE_NAME).exists()


def test_a_read_only_report_file_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "results.csv").write_text("old")
    real = os.access

    def access(path: str, mode: int, **kwargs: object) -> bool:
        denied = Path(str(path)).name == "results.csv" and bool(mode & os.W_OK)
        return False if denied else real(path, mode)
    monkeypatch.setattr(report_module.os, "access", access)
    refused(run(*RUN, "--out", str(tmp_path)), f"cannot write {tmp_path / 'results.csv'} (permission denied)")
    assert (tmp_path / "results.csv").read_text() == "old"


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() == 0, reason="root may write in any folder")
def test_a_read_only_out_folder_is_refused(tmp_path: Path) -> None:
    out = tmp_path / "run"
    out.mkdir()
    out.chmod(0o555)
    try:
        refused(run(*RUN, "--out", str(out)), f"cannot write in {out}")
    finally:
        out.chmod(0o755)


def test_a_report_that_fails_at_the_end_says_the_games_are_stored(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """A path taken after the check (here: the check is skipped) fails when the report is written:
    one message naming it, the games kept, and the same command writes the report once it is free."""
    monkeypatch.setattr(report_module, "check_writable", lambda folder, names: None)
    (tmp_path / "results.csv").mkdir()
    result = run(*RUN, "--out", str(tmp_path))
    refused(result, f"cannot write {tmp_path / 'results.csv'} (is a directory)",
            f"the games are stored in {tmp_path / FILE_NAME}")
    assert "played 4 games" in result.output and stored_games(tmp_path) == 4
    (tmp_path / "results.csv").rmdir()
    again = run(*RUN, "--out", str(tmp_path))
    assert again.exit_code == 0, again.output
    assert "4 stored, 0 to play" in again.output and (tmp_path / "report.md").is_file()


def test_write_report_names_the_path_it_cannot_write(tmp_path: Path) -> None:
    (tmp_path / "report.md").mkdir()
    result = GameResult(Matchup("Apollo", "Mortal"), 0, 1, "greedy", 0, EndKind.CLIMB, 9)
    with pytest.raises(ReportError, match=r"cannot write .*report\.md \(is a directory\)"):
        write_report([result], tmp_path, pack="bga", agent="greedy", gods=["Apollo"], matrix=False)


# ---- F8: runs too large to plan
@pytest.mark.parametrize("option, value, message", [
    ("--games", "99999999999999999999", f"is more than {MAX_GAMES}, the most games per seat order"),
    ("--games", str(MAX_GAMES + 1), f"is more than {MAX_GAMES}"),
    ("--max-turns", "99999999999999999999", f"is more than {MAX_TURNS}, the longest turn limit"),
    ("--jobs", "99999999999999999999", "is more than 1024, the most processes a run starts"),
])
def test_counts_that_size_a_run_are_bounded_at_the_option(tmp_path: Path, option: str, value: str,
                                                          message: str) -> None:
    out = tmp_path / "run"
    args = [arg for arg in RUN if arg not in ("--jobs", "1")] if option == "--jobs" else list(RUN)
    if option == "--games":
        args = [arg for arg in args if arg not in ("--games", "2")]
    refused(run(*args, option, value, "--out", str(out)), f"'{option}'", message)
    assert not out.exists()


def test_a_plan_beyond_the_cap_is_refused_before_its_games_are_listed(monkeypatch: pytest.MonkeyPatch) -> None:
    """The size is worked out from the counts: refusing makes no task (no game's seed is drawn),
    and takes a few calls however many games were asked for."""
    class Listed(Exception):
        pass

    def no_seed(*args: object) -> int:
        raise Listed
    monkeypatch.setattr(plan_module, "game_seed", no_seed)

    def refusal(games: int) -> str:
        try:
            plan_tasks(PAIR, games, 1)
        except PlanError as err:
            return str(err)
        return ""
    message, calls = counted_calls(lambda: refusal(10**20), budget=1000)
    assert f"2 matchups (seat-ordered) x {10**20} games = {2 * 10**20} games" in message
    assert f"a run plays at most {MAX_RUN_GAMES} games" in message and calls < 1000
    assert f"at most {MAX_RUN_GAMES} games" in refusal(MAX_RUN_GAMES // 2 + 1)
    with pytest.raises(Listed):  # the cap itself is allowed: its games are listed
        plan_tasks(PAIR, MAX_RUN_GAMES // 2, 1)


def test_a_matrix_too_large_for_a_run_is_refused_with_its_size(tmp_path: Path) -> None:
    out = tmp_path / "run"
    result = run("--pack", "pantheon", "--matrix", "--games", str(MAX_GAMES), "--agent", "greedy",
                 "--out", str(out))
    refused(result, f"x {MAX_GAMES} games = ", f"a run plays at most {MAX_RUN_GAMES} games",
            "give fewer --games, or split the cards over several runs")
    assert not out.exists()


def test_the_python_api_bounds_the_turn_limit() -> None:
    with pytest.raises(PlanError, match=f"--max-turns is from 1 to {MAX_TURNS}; found {MAX_TURNS + 1}"):
        make_plan("bga", ["Apollo"], ["Mortal"], False, 1, "greedy", 1, MAX_TURNS + 1)


def test_the_command_line_limits_are_the_plans_and_the_help_says_them() -> None:
    assert (cli_balance.MAX_GAMES, cli_balance.MAX_TURNS) == (MAX_GAMES, MAX_TURNS)
    assert (cli_balance.SEED_MIN, cli_balance.SEED_MAX) == (SEED_MIN, SEED_MAX)
    assert 2 * MAX_GAMES == MAX_RUN_GAMES
    text = " ".join(run("--help").output.split())
    assert f"at most {MAX_GAMES}; a run plays at most {MAX_RUN_GAMES} games in all" in text
    assert f"(at most {MAX_TURNS})" in text and "-2^63 to 2^63-1" in text


# ---- F9: a store whose values were edited
@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A finished small run, copied by each test that edits it."""
    folder = tmp_path_factory.mktemp("finished")
    result = run(*RUN, "--out", str(folder))
    assert result.exit_code == 0, result.output
    return folder


def tampered(finished: Path, tmp_path: Path, sql: str) -> Path:
    folder = tmp_path / "run"
    shutil.copytree(finished, folder)
    with sqlite3.connect(folder / FILE_NAME) as db:
        db.executescript(sql)
    return folder


@pytest.mark.parametrize("sql, parts", [
    ("UPDATE games SET end_kind = 'bogus' WHERE rowid = 1",
     ("row 1 ('Apollo v Mortal' game 0)", "the end is one of climb, power, stuck, limit, not 'bogus'")),
    ("UPDATE games SET winner = 2 WHERE rowid = 2", ("row 2", "the winner is seat 0, 1 or NULL (no one), not 2")),
    ("UPDATE games SET winner = -1 WHERE rowid = 2", ("row 2", "not -1")),
    ("UPDATE games SET winner = 'A' WHERE rowid = 2", ("row 2", "not 'A'")),
    ("UPDATE games SET winner = 0, end_kind = 'limit' WHERE rowid = 1",
     ("row 1", "a game with a winner cannot end by limit")),
    ("UPDATE games SET winner = NULL, end_kind = 'climb' WHERE rowid = 1",
     ("row 1", "a game with no winner cannot end by climb")),
    ("UPDATE games SET turns = -3 WHERE rowid = 3", ("row 3", "the turns are a whole number from 0 to 300")),
    ("UPDATE games SET turns = 301 WHERE rowid = 3", ("row 3", "(the run's turn limit), not 301")),
    ("UPDATE games SET turns = 'many' WHERE rowid = 3", ("row 3", "not 'many'")),
    ("UPDATE games SET idx = -1 WHERE rowid = 1", ("row 1", "the game's index is a whole number, 0 or more")),
    ("UPDATE games SET idx = 'x' WHERE rowid = 1", ("row 1", "not 'x'")),
    ("UPDATE games SET seed = 12345 WHERE rowid = 4", ("row 4", "the seed 12345 is not that game's (run seed 1)")),
    ("UPDATE games SET seed = -5 WHERE rowid = 4", ("row 4", "the seed is a whole number from 0 to 2^63 - 1")),
    ("UPDATE games SET agent = 'random' WHERE rowid = 4", ("row 4", "the agent is the run's, 'greedy', not 'random'")),
    ("UPDATE games SET matchup = 'Pan v Mortal' WHERE rowid = 1", ("row 1", "the matchup is 'Apollo v Mortal'")),
    ("UPDATE games SET first = '' WHERE rowid = 1", ("row 1", "the cards are names")),
    ("UPDATE run SET identity = 'not json'",
     ("the run's identity (table run) is not a run's JSON record: 'not json'",)),
    ("UPDATE run SET identity = '[1, 2]'", ("is not a run's JSON record: '[1, 2]'",)),
    ("UPDATE run SET identity = 7", ("is not a run's JSON record: '7'",)),
    ("CREATE TABLE copy AS SELECT * FROM games; DROP TABLE games; ALTER TABLE copy RENAME TO games; "
     "INSERT INTO games SELECT * FROM games WHERE rowid = 1", ("repeats 'Apollo v Mortal' game 0",)),
    ("DROP TABLE games; CREATE TABLE games (x)", ("not a results store of this program (no such column",)),
])
def test_an_edited_store_is_refused_naming_the_file_and_the_row(finished: Path, tmp_path: Path, sql: str,
                                                                 parts: tuple[str, ...]) -> None:
    folder = tampered(finished, tmp_path, sql)
    before = dump(folder)
    result = run(*RUN, "--out", str(folder))
    refused(result, str(folder / FILE_NAME), *parts)
    assert " stored, " not in result.output and "report:" not in result.output  # refused before any game
    assert dump(folder) == before  # nothing played, nothing rewritten


def test_a_long_damaged_value_is_shown_cut_short(finished: Path, tmp_path: Path) -> None:
    folder = tampered(finished, tmp_path, "UPDATE games SET end_kind = printf('%.5000c', 'x') WHERE rowid = 1")
    result = run(*RUN, "--out", str(folder))
    refused(result, "the end is one of climb, power, stuck, limit, not 'xxxx", "...")
    assert max(len(line) for line in result.output.splitlines()) < 500


def test_the_store_checks_its_rows_for_any_caller(finished: Path, tmp_path: Path) -> None:
    """Without a run claimed (a script reading a store) the rows' types, seats and ends are checked."""
    folder = tampered(finished, tmp_path, "UPDATE games SET end_kind = 'draw' WHERE rowid = 2")
    with open_store(folder) as store, pytest.raises(StoreError, match=r"damaged results store: row 2 .*'draw'"):
        store.results()
    with open_store(finished) as store:
        assert len(store.results()) == 4 and store.count() == 4


def test_an_untouched_store_still_resumes(finished: Path, tmp_path: Path) -> None:
    folder = tampered(finished, tmp_path, "DELETE FROM games WHERE idx = 1")
    result = run(*RUN, "--out", str(folder))
    assert result.exit_code == 0, result.output
    assert "2 stored, 2 to play" in result.output
    assert stored_games(folder) == 4


# ---- an empty --against
@pytest.mark.parametrize("against", ["", " ", ",", " , , "])
def test_an_empty_against_is_refused_not_read_as_all(tmp_path: Path, against: str) -> None:
    out = tmp_path / "run"
    args = list(RUN)
    args[args.index("--against") + 1] = against
    refused(run(*args, "--out", str(out)), "--against names no card: give 'all' or cards separated by commas")
    assert not out.exists()

"""Faults found by fuzzing the library and its edges (F10-F12, and human play at end of input):
each is refused with one clear SantoriniError, or handled, never a traceback, a hang or a silent
pass. A compile-cache entry that is not a regular file is never read; perft refuses a depth that
would never count down to 0; place_workers refuses a seat or space that does not exist; a
scenario's team must be one the mode makes; a human whose input ends stops the game with exit 2."""

from __future__ import annotations

import errno
import logging
import os
import stat
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from click.testing import CliRunner

from santorini.dsl.errors import SantoriniError
from santorini.interpreter.cli.cli import main
from santorini.interpreter.games.cache import MAX_ENTRY_BYTES, cached, installation_tag
from santorini.interpreter.games.game import SetupError, new_game, parse_players, place_workers
from santorini.interpreter.games.human import HumanAgent, InputEnded
from santorini.interpreter.games.packs import Pack, _shipped_key, load_pack, package_root
from santorini.interpreter.games.scenario import ScenarioError, load_scenario
from support import counted_calls, s0_text


def bga_entry(folder: Path) -> Path:
    """Where the compile cache keeps the shipped bga pack, under `folder`."""
    return folder / f"pack-bga-{installation_tag(package_root())}-{_shipped_key()}.json"


# ---- F10: the compile cache reads regular files only
@contextmanager
def fifo_reader_watch(fifo: Path) -> Iterator[list[bool]]:
    """Yields a list that gets True if anyone opens `fifo` for reading while the block runs.

    A helper thread keeps trying to open the FIFO for writing without blocking, which succeeds
    only while a reader has it open; it then closes it at once, so that the reader reads the end
    of the file and goes on: a reader that should not be there is reported, and cannot hang the
    test run."""
    opened: list[bool] = []
    done = threading.Event()

    def watch() -> None:
        while not done.wait(0.005):
            try:
                descriptor = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
            except OSError as err:  # ENXIO: no reader; ENOENT: replaced in between
                if err.errno not in (errno.ENXIO, errno.ENOENT):
                    raise
                continue
            try:
                if stat.S_ISFIFO(os.fstat(descriptor).st_mode):  # (not the regular file that replaced it)
                    opened.append(True)
            finally:
                os.close(descriptor)
    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    try:
        yield opened
    finally:
        done.set()
        watcher.join()


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_in_place_of_a_cache_entry_is_never_opened(tmp_path: Path, monkeypatch, caplog) -> None:
    """Opening a FIFO for reading blocks until a writer comes: the cache must not even try."""
    monkeypatch.setenv("SANTORINI_CACHE_DIR", str(tmp_path))
    entry = bga_entry(tmp_path)
    os.mkfifo(entry)
    with fifo_reader_watch(entry) as opened, caplog.at_level(logging.WARNING, logger="santorini.cache"):
        pack = load_pack.__wrapped__("bga")
    assert isinstance(pack, Pack) and "Apollo" in pack.cards
    assert not opened, "the FIFO was opened for reading"
    assert "not a regular file but a FIFO, so it is not read" in caplog.text
    assert stat.S_ISREG(os.lstat(entry).st_mode)  # replaced by a real entry, used next time
    assert isinstance(load_pack.__wrapped__("bga"), Pack)


#: `santorini cards` in an address space of at most 2 GiB (the command needs well under 100 MiB),
#: with its bga entry made a link to /dev/zero first (named by the key that process computes, so
#: that a source file changed meanwhile cannot make it miss).
BOUNDED_CARDS = """\
import os, resource
_, hard = resource.getrlimit(resource.RLIMIT_AS)
limit = 2 * 1024**3 if hard == resource.RLIM_INFINITY else min(2 * 1024**3, hard)
resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
from santorini.interpreter.games.cache import installation_tag
from santorini.interpreter.games.packs import _shipped_key, package_root
name = f"pack-bga-{installation_tag(package_root())}-{_shipped_key()}.json"
os.symlink("/dev/zero", os.path.join(os.environ["SANTORINI_CACHE_DIR"], name))
from santorini.interpreter.cli.cli import main
main(["cards"])
"""


def test_a_link_to_dev_zero_in_place_of_a_cache_entry_is_not_read(tmp_path: Path) -> None:
    """Read, /dev/zero never ends: the command ran out of memory (MemoryError). It runs in a
    process of its own with a bounded address space, so that the fault, if it came back, fails
    that process quickly instead of filling this machine's memory."""
    if not Path("/dev/zero").exists():
        pytest.skip("no /dev/zero here")
    cache = tmp_path / "cache"
    cache.mkdir()
    env = {**os.environ, "SANTORINI_CACHE_DIR": str(cache)}
    result = subprocess.run([sys.executable, "-c", BOUNDED_CARDS], capture_output=True, text=True, env=env,
                            cwd=tmp_path, check=False)
    assert result.returncode == 0, result.stderr
    assert "Apollo" in result.stdout and "Traceback" not in result.stderr
    assert "not a regular file but a symbolic link, so it is not read" in result.stderr
    (entry,) = cache.glob("pack-bga-*.json")
    assert stat.S_ISREG(os.lstat(entry).st_mode)  # the link itself replaced, not written through


def test_a_linked_entry_is_neither_read_nor_written_through(tmp_path: Path, monkeypatch, caplog) -> None:
    """A link to a file elsewhere (even a valid entry) is a miss: the value is built, and the
    link is replaced by a regular entry; the file it pointed to is left as it was."""
    monkeypatch.setenv("SANTORINI_CACHE_DIR", str(tmp_path / "cache"))
    assert cached("pack-w", "k", lambda: "first") == "first"
    entry = tmp_path / "cache" / "pack-w-k.json"
    elsewhere = tmp_path / "elsewhere.json"
    entry.rename(elsewhere)  # a valid entry of this very key, reached only through a link
    before = elsewhere.read_bytes()
    entry.symlink_to(elsewhere)
    with caplog.at_level(logging.WARNING, logger="santorini.cache"):
        assert cached("pack-w", "k", lambda: "rebuilt") == "rebuilt"
    assert "a symbolic link" in caplog.text
    assert elsewhere.read_bytes() == before
    assert stat.S_ISREG(os.lstat(entry).st_mode)
    assert cached("pack-w", "k", lambda: pytest.fail("the rebuilt entry is used")) == "rebuilt"


def test_a_dangling_link_is_replaced(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("SANTORINI_CACHE_DIR", str(tmp_path))
    entry = tmp_path / "pack-v-k.json"
    entry.symlink_to(tmp_path / "nowhere" / "x.json")
    assert cached("pack-v", "k", lambda: 7) == 7
    assert stat.S_ISREG(os.lstat(entry).st_mode) and not (tmp_path / "nowhere").exists()


def test_an_entry_larger_than_the_bound_is_not_read(tmp_path: Path, monkeypatch, caplog) -> None:
    monkeypatch.setenv("SANTORINI_CACHE_DIR", str(tmp_path))
    entry = tmp_path / "pack-u-k.json"
    with entry.open("wb") as handle:  # (sparse: no disk space used)
        handle.truncate(MAX_ENTRY_BYTES + 1)
    with caplog.at_level(logging.WARNING, logger="santorini.cache"):
        assert cached("pack-u", "k", lambda: "small") == "small"
    assert f"larger than {MAX_ENTRY_BYTES} bytes" in caplog.text


# ---- F11: the library refuses what does not exist
@pytest.mark.parametrize("depth", [-1, -5, 1.5, True])
def test_perft_refuses_a_depth_that_never_counts_down_to_zero(position, depth: object) -> None:
    """perft(state, -1) counted down for ever; the budget of calls stops it if it does again."""
    scenario = position(s0_text("bga", ["Mortal", "Mortal"]))
    engine, state = scenario.game.engine, scenario.state

    def count() -> object:
        with pytest.raises(SantoriniError, match=r"perft counts to a depth of 0 or more \(a whole number\)"):
            engine.perft(state, depth)
        with pytest.raises(SantoriniError, match="depth of 0 or more"):
            list(engine.perft_divided(state, depth))
        return engine.perft(state, 0), engine.perft(state, 1)
    (leaf, ones), _ = counted_calls(count, 2_000_000)
    assert leaf == 1 and ones > 0  # valid depths still count


@pytest.mark.parametrize(("seat", "squares", "message"), [
    (0, [25, 3], r"25 is not a space of the board: spaces are 0 \(a1\) to 24 \(e5\)"),
    (0, [-1, 3], "-1 is not a space of the board"),  # (a negative index named e5 without a word)
    (0, ["a1", 3], "'a1' is not a space of the board"),
    (5, [1, 2], r"no seat 5: seats are 0 to 1 \(A, B\)"),
    (-1, [1, 2], "no seat -1"),  # (a negative index named the last seat)
])
def test_place_workers_refuses_a_seat_or_space_that_does_not_exist(seat: int, squares: list[int],
                                                                   message: str) -> None:
    game = new_game(load_pack("bga"), parse_players(["Apollo", "Mortal"]))
    with pytest.raises(SetupError, match=message):
        place_workers(game, seat, squares)
    assert not game.placements and all(p < 0 for p in game.state.worker_pos)  # nothing placed


# ---- F12: a scenario's team must be one that the mode makes
PLAYERS = """\
name: teams
edition: {edition}
players:
{players}
board: |
  0 0 0 0 0
  0 0 0 0 0
  0 0 0 0 0
  0 0 0 0 0
  0 0 0 0 0
workers: {workers}
"""
TWO = "{A1: c3, A2: a1, B1: c4, B2: e1}"


def scenario_text(players: list[str], edition: str = "bga", workers: str = TWO) -> str:
    return PLAYERS.format(edition=edition, players="\n".join(f"  - {p}" for p in players), workers=workers)


def load_fault(tmp_path: Path, text: str) -> tuple[str, int, int, str]:
    path = tmp_path / "s.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ScenarioError) as caught:
        load_scenario(path)
    (error,) = caught.value.errors
    return error.file, error.line, error.column, error.message


@pytest.mark.parametrize(("players", "line", "column", "message"), [
    (["{god: Apollo, team: Q}", "Mortal"], 4, 25,
     "seat A's team 'Q' is not its team in mode 'standard': the game's teams are A (seat A), B (seat B); "
     "write team: A"),
    (["Apollo", "{god: Mortal, team: A}"], 5, 25, "seat B's team 'A' is not its team"),
    (["{god: Apollo, team: A}", "{god: Mortal, team: A}"], 4, 3,
     "mode 'standard' has no teams: each player plays alone (A, B); the players' teams say A with B"),
])
def test_a_team_the_mode_does_not_make_is_a_located_fault(tmp_path: Path, players: list[str], line: int,
                                                           column: int, message: str) -> None:
    file, *found = load_fault(tmp_path, scenario_text(players))
    assert file.endswith("s.yaml") and found[:2] == [line, column] and message in found[2], found


def test_a_team_letter_of_a_four_player_game_must_be_the_team_the_seat_is_in(tmp_path: Path) -> None:
    """Labels that pair the seats as the mode does, but are not its teams' letters (the library
    takes them as labels; a scenario names teams by letter, spec: {god: Name, team: Letter})."""
    players = ["{god: Apollo, team: X}", "{god: Pan, team: Y}", "{god: Athena, team: X}", "{god: Atlas, team: Y}"]
    _, line, _, message = load_fault(tmp_path, scenario_text(players, "pantheon"))
    assert line == 4 and message.startswith("seat A's team 'X' is not its team in mode 'four-players': "
                                            "the game's teams are A (seats A, C), B (seats B, D); write team: A")


@pytest.mark.parametrize(("players", "edition"), [
    (["{god: Apollo, team: a}", "{god: Mortal, team: B}"], "bga"),  # (letters ignore case, as seats do)
    (["{god: Apollo, team: A}", "{god: Pan, team: B}", "{god: Athena, team: A}", "{god: Atlas, team: B}"],
     "pantheon"),
])
def test_the_teams_the_mode_makes_may_be_written(tmp_path: Path, players: list[str], edition: str) -> None:
    path = tmp_path / "s.yaml"
    path.write_text(scenario_text(players, edition), encoding="utf-8")
    scenario = load_scenario(path)
    assert len(scenario.state.team_letters) == len(players) // (2 if len(players) == 4 else 1)


def test_the_library_refuses_written_teams_that_join_seats_of_a_game_without_teams() -> None:
    """Three seats of a mode without teams: two of them written into one team made a team game."""
    with pytest.raises(SetupError, match=r"has no teams: each player plays alone \(A, B, C\); "
                                         r"the players' teams say A with B, C"):
        new_game(load_pack("bga"), parse_players([{"god": "Apollo", "team": "X"}, {"god": "Pan", "team": "X"},
                                                  {"god": "Athena", "team": "Y"}]))


def test_the_scenario_command_exits_2_on_a_wrong_team(tmp_path: Path) -> None:
    path = tmp_path / "s.yaml"
    path.write_text(scenario_text(["{god: Apollo, team: Q}", "Mortal"]), encoding="utf-8")
    result = CliRunner().invoke(main, ["scenario", str(path)])
    assert result.exit_code == 2 and f"{path}:4:25: seat A's team 'Q'" in result.output, result.output
    assert "PASS" not in result.output and "Traceback" not in result.output


# ---- human play: the end of input is bad input (exit code 2), not an abort
@pytest.mark.parametrize("answers", ["", "b3\n", "b3\nd3\n"])
def test_a_human_whose_input_ends_stops_the_game_with_exit_code_2(tmp_path: Path, answers: str) -> None:
    """Ends during placement, between two placements, and at the first turn."""
    record = tmp_path / "game.yaml"
    result = CliRunner().invoke(main, ["play", "--gods", "Mortal", "Mortal", "--seed", "1", "--human", "A",
                                       "--record", str(record)], input=answers)
    assert result.exit_code == 2, result.output
    assert "error: the input ended before the game did: no answer to '" in result.output
    assert "Aborted" not in result.output and "Traceback" not in result.output


def test_an_ask_that_reaches_the_end_of_input_raises_input_ended() -> None:
    def ended(question: str) -> str:
        raise EOFError
    game = new_game(load_pack("bga"), parse_players(["Mortal", "Mortal"]))
    with pytest.raises(InputEnded, match=r"no answer to 'seat A: place worker 1 on which space\?'"):
        HumanAgent(ask=ended, say=lambda text: None).placement(game, 0)
    assert issubclass(InputEnded, SantoriniError)

"""The command line refuses what cannot work before doing any work, never loses a played game,
and shows progress on long runs only to a terminal (issue 10, "The command line")."""

from __future__ import annotations

import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from santorini.interpreter.cli.cli import main


def run(*args: str):
    return CliRunner().invoke(main, list(args))


@pytest.mark.parametrize(("path", "message"), [
    ("/nonexistent/dir/g.yaml", "--record /nonexistent/dir/g.yaml: there is no folder /nonexistent/dir"),
    ("/", "is a directory"),
])
def test_play_refuses_a_record_path_before_the_game(path: str, message: str) -> None:
    result = run("play", "--gods", "Apollo", "Pan", "--seed", "1", "--record", path)
    assert result.exit_code == 2 and message in result.output
    assert "turn 1" not in result.output and "Traceback" not in result.output


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full here")
def test_a_record_that_cannot_be_written_is_printed_instead() -> None:
    result = CliRunner().invoke(main, ["play", "--gods", "Apollo", "Pan", "--seed", "1",
                                                       "--record", "/dev/full"])
    assert result.exit_code == 1
    assert "cannot write the record to /dev/full: no space left on device; here it is:" in result.stderr
    record = yaml.safe_load(result.stdout[result.stdout.index("pack: "):])
    assert record["players"] == ["Apollo", "Pan"] and record["turns"]


@pytest.mark.parametrize("seconds", ["nan", "inf", "-inf", "0", "1e9", "soon"])
def test_bench_refuses_seconds_that_play_nothing_or_never_stop(seconds: str) -> None:
    result = run("bench", "--gods", "Mortal", "Mortal", "--seconds", seconds)
    assert result.exit_code == 2 and "Invalid value for '--seconds'" in result.output


#: A small tree: most of the board is domed, so depth 4 is quick.
SMALL = """\
name: a small tree
edition: bga
players: [Mortal, Mortal]
board: |
  0 0 0 3D 3D
  0 0 0 3D 3D
  3D 3D 0 3D 3D
  0 0 0 3D 3D
  0 0 0 3D 3D
workers: {A1: a1, A2: a5, B1: c3, B2: b4}
"""


def test_a_long_perft_says_how_large_it_will_be_and_keeps_its_lines(tmp_path: Path) -> None:
    from santorini.interpreter.games.scenario import load_scenario
    path = tmp_path / "small.yaml"
    path.write_text(SMALL, encoding="utf-8")
    result = CliRunner().invoke(main, ["perft", str(path), "--depth", "4"])
    assert result.exit_code == 0, result.output
    assert [line.split(":")[0] for line in result.stdout.splitlines()] == ["1", "2", "3", "4"]
    assert result.stderr.startswith("depth 4: about ") and "leaves" in result.stderr
    scenario = load_scenario(path)
    counts = [int(line.split(": ")[1]) for line in result.stdout.splitlines()]
    assert counts == [scenario.game.engine.perft(scenario.state, d) for d in range(1, 5)]
    assert sum(scenario.game.engine.perft_divided(scenario.state, 3)) == counts[2]


def test_progress_goes_to_a_terminal_and_not_to_a_pipe() -> None:
    """A 1.5 s bench shows its progress bar on a terminal and nothing on a pipe. (The 60 s timeouts
    only guard against a hang: no time is asserted.)"""
    command = [sys.executable, "-m", "santorini", "bench", "--gods", "Mortal", "Mortal", "--seconds", "1.5"]
    env = {**os.environ, "SANTORINI_CACHE_DIR": "", "COLUMNS": "100"}
    piped = subprocess.run(command, capture_output=True, text=True, env=env, timeout=60)
    assert piped.returncode == 0 and piped.stderr == ""
    leader, follower = pty.openpty()
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=follower, env=env) as process:
        os.close(follower)
        shown = b""
        while True:
            try:
                chunk = os.read(leader, 4096)
            except OSError:
                break
            if not chunk:
                break
            shown += chunk
        process.wait(timeout=60)
    os.close(leader)
    assert process.returncode == 0 and b"bench" in shown and b"s/s" in shown

"""A balance run before and while it plays (issue 21, item 4): the plan's size and an estimate of
its time, measured on a sample of the run's own games (stored, so that the results are the same
as without it) and extrapolated by games, matchups and processes; a question before a long run on
a terminal only; one Ctrl-C stops the pool at once, without a worker's traceback; defaults that
suit a laptop.

No test reads a clock to judge speed: the estimate is tested by its arithmetic, with the time of
each sample game fixed by a clock of the test's own (`fixed_rates`). The Ctrl-C test waits for
events (a file, a bot started by a worker), with long deadlines only as a safety net."""

from __future__ import annotations

import os
import shlex
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

import santorini.interpreter.balance.run as run_module
import santorini.interpreter.cli.balance as cli_balance
from santorini.interpreter.balance.backends import Backend, stop_pool, worker_start
from santorini.interpreter.balance.plan import Task, plan_tasks
from santorini.interpreter.balance.records import Matchup
from santorini.interpreter.balance.run import (
    SAMPLE_GAMES,
    SAMPLE_SECONDS,
    Estimate,
    _workers,
    make_plan,
    run_balance,
    sample_tasks,
)
from santorini.interpreter.balance.store import FILE_NAME
from santorini.interpreter.cli.balance import ASK_ABOVE, DEFAULT_AGENT, DEFAULT_GAMES, ESTIMATE_FROM, duration
from santorini.interpreter.cli.cli import main
from santorini.interpreter.games.packs import load_pack
from support import REPO

#: Apollo against Mortal and Pan, greedy, three games per seat order: 4 matchups, 12 games.
SMALL = ("--gods", "Apollo", "--against", "Mortal,Pan", "--games", "3", "--agent", "greedy", "--quiet")


def run(*args: str, input: str | None = None) -> Result:  # noqa: A002 - CliRunner's own name
    return CliRunner().invoke(main, ["balance", *args], input=input)


def stored_rows(folder: Path) -> list[tuple[object, ...]]:
    with sqlite3.connect(folder / FILE_NAME) as db:
        return db.execute("SELECT * FROM games ORDER BY matchup, idx").fetchall()


def fixed_rates(monkeypatch: pytest.MonkeyPatch, game: float, matchup: float) -> None:
    """Make every sample game take `game` seconds and every matchup's loading `matchup`, by the
    sample's clock: a clock that moves only when they run (the games are really played)."""
    now = [0.0]
    play, prepare = run_module.play_game, run_module.prepare

    def timed_play(*args: object, **kwargs: object) -> object:
        now[0] += game
        return play(*args, **kwargs)  # type: ignore[arg-type]

    def timed_prepare(*args: object) -> None:
        now[0] += matchup
        prepare(*args)  # type: ignore[arg-type]
    monkeypatch.setattr(run_module, "play_game", timed_play)
    monkeypatch.setattr(run_module, "prepare", timed_prepare)
    monkeypatch.setattr(run_module, "sample_clock", lambda: now[0])


def estimate_lines(result: Result) -> list[str]:
    return [line for line in result.output.splitlines() if line.startswith("estimate: ")]


# ---- the arithmetic
def test_the_estimate_is_the_games_left_at_the_sample_rate_spread_over_the_workers() -> None:
    estimate = Estimate(games=100, matchups=4, sampled=3, seconds_per_game=3.0, seconds_per_matchup=0.5, workers=2)
    assert estimate.at_once == 2
    assert estimate.seconds == pytest.approx(100 * 3.0 / 2 + 4 * 0.5)  # every worker loads the matchups it plays
    assert Estimate(100, 4, 3, 3.0, 0.5, workers=1).seconds == pytest.approx(302.0)
    assert Estimate(100, 4, 3, 3.0, 0.5, workers=8).seconds == pytest.approx(100 * 3.0 / 8 + 2.0)


def test_no_more_games_at_once_than_are_left_and_one_core_for_an_unknown_cluster() -> None:
    assert Estimate(games=3, matchups=1, sampled=1, seconds_per_game=10.0, seconds_per_matchup=0.0,
                    workers=16).seconds == pytest.approx(10.0)
    cluster = Estimate(games=40, matchups=2, sampled=1, seconds_per_game=2.0, seconds_per_matchup=1.0, workers=None)
    assert cluster.at_once == 1 and cluster.seconds == pytest.approx(82.0)
    assert Estimate(0, 0, 5, 2.0, 1.0, workers=2).seconds == 0.0  # the sample played every game


def test_the_workers_are_the_jobs_at_most_the_cores_and_the_batches(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(run_module.os, "cpu_count", lambda: 2)
    assert _workers(Backend.LOCAL, 1, None, 50) == 1
    assert _workers(Backend.LOCAL, 4, None, 1) == 1  # one batch is played in this process
    assert _workers(Backend.LOCAL, 4, None, 50) == 2  # more jobs than cores: the cores
    assert _workers(Backend.LOCAL, 2, None, 50) == 2
    assert _workers(Backend.RAY, 8, None, 3) == 2
    assert _workers(Backend.RAY, 8, "ray://head:10001", 50) is None


@pytest.mark.parametrize("seconds, text", [
    (0.2, "0 s"), (44.6, "45 s"), (60, "1 min 00 s"), (114, "1 min 54 s"), (3599, "59 min 59 s"),
    (3600, "1 h 00 min"), (8130, "2 h 16 min"), (86400 * 3 + 3600 * 4.2, "3 d 04 h"),
])
def test_durations_read_in_their_two_largest_units(seconds: float, text: str) -> None:
    assert duration(seconds) == text


# ---- the sample
def test_the_sample_is_spread_over_the_matchups() -> None:
    many = [Matchup(f"G{i:02d}", "Mortal") for i in range(76)]
    tasks = plan_tasks(many, 5, 1)
    chosen = sample_tasks(tasks)
    assert len(chosen) == SAMPLE_GAMES
    assert [task.matchup for task in chosen] == [many[i * 76 // SAMPLE_GAMES] for i in range(SAMPLE_GAMES)]
    assert all(task.index == 0 for task in chosen)
    few = [Matchup("Apollo", "Mortal"), Matchup("Mortal", "Apollo")]
    tasks = [task for task in plan_tasks(few, 6, 1) if (task.matchup, task.index) != (few[0], 0)]  # one is stored
    assert [(t.matchup, t.index) for t in sample_tasks(tasks, 8)] == [
        (few[0], 1), (few[1], 0), (few[0], 2), (few[1], 1), (few[0], 3), (few[1], 2), (few[0], 4), (few[1], 3)]


def test_the_sample_stops_after_its_time_but_plays_one_game_at_least(monkeypatch: pytest.MonkeyPatch,
                                                                      tmp_path: Path) -> None:
    plan = make_plan("bga", ["Apollo"], ["Mortal", "Pan"], False, 5, "greedy", 1, 300)
    heard: list[Estimate] = []
    fixed_rates(monkeypatch, game=SAMPLE_SECONDS * 5, matchup=0.0)
    run_balance(plan, tmp_path / "slow", on_estimate=heard.append)
    fixed_rates(monkeypatch, game=SAMPLE_SECONDS / 100, matchup=0.0)
    run_balance(plan, tmp_path / "fast", on_estimate=heard.append)
    assert [estimate.sampled for estimate in heard] == [1, SAMPLE_GAMES]
    assert [estimate.games for estimate in heard] == [19, 20 - SAMPLE_GAMES]


# ---- the command
def test_the_estimate_is_printed_with_its_arithmetic_and_says_it_is_one(monkeypatch: pytest.MonkeyPatch,
                                                                        tmp_path: Path) -> None:
    """One sample game of 10 s (the sample's time is up after it) and 1 s to load a matchup: the
    11 games left in 4 matchups on one process are 11 x 10 + 4 x 1 = 114 s."""
    fixed_rates(monkeypatch, game=10.0, matchup=1.0)
    result = run(*SMALL, "--jobs", "1", "--out", str(tmp_path))
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == "plan: 4 matchups (seat-ordered) x 3 games = 12 games; pack bga, agent greedy, seed 1"
    assert lines[1].endswith("0 stored, 12 to play (local, 1 job)")
    assert lines[2] == ("estimate: about 1 min 54 s for the 11 games left, in one process (an estimate from 1 sample "
                        "game played here, 10.00 s a game; matchups differ in cost)")
    assert "played 12 games" in result.output and len(stored_rows(tmp_path)) == 12


def test_a_run_shorter_than_the_threshold_starts_without_an_estimate(monkeypatch: pytest.MonkeyPatch,
                                                                     tmp_path: Path) -> None:
    fixed_rates(monkeypatch, game=ESTIMATE_FROM / 20, matchup=0.0)  # 11 games left: 0.55 x the threshold
    result = run(*SMALL, "--jobs", "1", "--out", str(tmp_path))
    assert result.exit_code == 0, result.output
    assert estimate_lines(result) == [] and "start it?" not in result.output


def test_a_long_run_off_a_terminal_prints_its_estimate_and_goes_on(monkeypatch: pytest.MonkeyPatch,
                                                                   tmp_path: Path) -> None:
    """A script or CI job must never hang on a question: no terminal, no question."""
    fixed_rates(monkeypatch, game=100.0, matchup=1.0)  # 11 x 100 + 4 = 1104 s, above ASK_ABOVE
    assert 1104 > ASK_ABOVE
    result = run(*SMALL, "--jobs", "1", "--out", str(tmp_path))
    assert result.exit_code == 0, result.output
    assert [line.split(" for ")[0] for line in estimate_lines(result)] == ["estimate: about 18 min 24 s"]
    assert "start it?" not in result.output and len(stored_rows(tmp_path)) == 12


def test_a_long_run_on_a_terminal_asks_and_no_keeps_the_sample(monkeypatch: pytest.MonkeyPatch,
                                                               tmp_path: Path) -> None:
    fixed_rates(monkeypatch, game=100.0, matchup=1.0)
    monkeypatch.setattr(cli_balance, "on_terminal", lambda: True)
    declined = run(*SMALL, "--jobs", "1", "--out", str(tmp_path), input="n\n")
    assert declined.exit_code == 1, declined.output
    assert "start it? [y/N]" in declined.output and "Traceback" not in declined.output
    assert f"not started: the sample games are stored in {tmp_path / FILE_NAME}; run the same command with --yes" \
        in declined.output
    assert len(stored_rows(tmp_path)) == 1 and "report:" not in declined.output
    accepted = run(*SMALL, "--jobs", "1", "--out", str(tmp_path), input="y\n")
    assert accepted.exit_code == 0, accepted.output
    assert "1 stored, 11 to play" in accepted.output and "start it? [y/N]" in accepted.output
    assert len(stored_rows(tmp_path)) == 12


def test_yes_starts_a_long_run_on_a_terminal_without_asking(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    fixed_rates(monkeypatch, game=100.0, matchup=1.0)
    monkeypatch.setattr(cli_balance, "on_terminal", lambda: True)
    result = run(*SMALL, "--jobs", "1", "--yes", "--out", str(tmp_path))
    assert result.exit_code == 0, result.output
    assert len(estimate_lines(result)) == 1 and "start it?" not in result.output


def test_an_end_of_input_at_the_question_is_no(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    fixed_rates(monkeypatch, game=100.0, matchup=1.0)
    monkeypatch.setattr(cli_balance, "on_terminal", lambda: True)
    result = run(*SMALL, "--jobs", "1", "--out", str(tmp_path), input="")
    assert result.exit_code == 1 and "not started" in result.output and "Traceback" not in result.output


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_the_sample_changes_no_result(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, jobs: str) -> None:
    """The sample's games are the plan's, seeded as always and stored as any: a run with an
    estimate stores the same rows and writes the same report as a run without one."""
    fixed_rates(monkeypatch, game=SAMPLE_SECONDS / 100, matchup=0.0)  # a full sample: 12 of the 20 games
    args = [*SMALL[:5], "5", *SMALL[6:]]
    sampled = run(*args, "--jobs", jobs, "--batch", "1", "--out", str(tmp_path / "sampled"))
    assert sampled.exit_code == 0, sampled.output
    assert "played 20 games" in sampled.output and SAMPLE_GAMES < 20
    plan = make_plan("bga", ["Apollo"], ["Mortal", "Pan"], False, 5, "greedy", 1, 300)
    plain = run_balance(plan, tmp_path / "plain")  # no estimate, no sample
    assert plain.played == 20
    assert stored_rows(tmp_path / "sampled") == stored_rows(tmp_path / "plain")
    from santorini.interpreter.balance.report import write_report
    write_report(plain.results, tmp_path / "plain", pack="bga", agent="greedy", gods=["Apollo"], matrix=False)
    for name in ("results.csv", "report.md"):
        assert (tmp_path / "sampled" / name).read_bytes() == (tmp_path / "plain" / name).read_bytes()


def test_the_sample_counts_among_the_games_played(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    fixed_rates(monkeypatch, game=SAMPLE_SECONDS / 100, matchup=0.0)
    result = run(*SMALL, "--jobs", "1", "--out", str(tmp_path))
    assert "played 12 games" in result.output
    again = run(*SMALL, "--jobs", "1", "--out", str(tmp_path))
    assert "12 stored, 0 to play" in again.output and "played" not in again.output and not estimate_lines(again)


# ---- defaults
def test_the_defaults_are_a_first_look_and_the_help_and_guide_say_them() -> None:
    """One card against all of bga with the defaults: two seat orders against each of the pack's
    other two-player cards that Apollo may meet, x 5 games of mcts:50 (docs/balance.md says how many
    and gives the time measured on two cores)."""
    assert (DEFAULT_GAMES, DEFAULT_AGENT) == (5, "mcts:50")
    plan = make_plan("bga", ["Apollo"], ["all"], False, DEFAULT_GAMES, DEFAULT_AGENT, 1, 300)
    cards = load_pack("bga").cards
    others = ["Mortal", *(name for name, card in cards.items() if name != "Apollo" and 2 in card.players
                          and "apollo" not in {ban.lower() for ban in card.bans}
                          and name.lower() not in {ban.lower() for ban in cards["Apollo"].bans})]
    games = 2 * len(others) * 5
    assert len(plan.tasks) == games
    help_text = " ".join(CliRunner().invoke(main, ["balance", "--help"]).output.split())
    assert "Games per seat order" in help_text and "[default: 5; x>=1]" in help_text
    assert "[default: mcts:50]" in help_text
    assert "--yes" in help_text and "--bot-stderr" in help_text
    guide = " ".join((REPO / "docs" / "balance.md").read_text(encoding="utf-8").split())
    assert "--games 5 --agent mcts:50" in guide and f"{games} games" in guide
    assert f"{2 * len(others)} seat-ordered matchups" in guide and f"bga's {len(others)} other two-player" in guide


# ---- Ctrl-C
#: A bot that plays the first legal line, slowly (so that a game lasts a few seconds), and first
#: writes its process id and its parent's into the folder it is given (a worker's bot has a worker
#: for its parent, not the command's process).
SLOW_BOT = r'''
import os, sys, time
folder = sys.argv[1]
with open(os.path.join(folder, f"{os.getpid()}.new"), "w") as out:
    out.write(str(os.getppid()))
os.replace(os.path.join(folder, f"{os.getpid()}.new"), os.path.join(folder, str(os.getpid())))
lines = iter(sys.stdin.readline, "")
next(lines)
print("ready slow-bot", flush=True)
for line in lines:
    if line.strip() == "quit":
        break
    blocks = {}
    for header in lines:
        if header.strip() == "end":
            break
        name, count = header.split()
        blocks[name] = [next(lines).rstrip("\n") for _ in range(int(count))]
    time.sleep(0.05)
    print(blocks["legal"][0], flush=True)
'''

#: A safety net only: far longer than any step of the test takes.
SAFETY = 120.0


def _alive(pid: int) -> bool:
    """Whether a process is running (a zombie, dead but not reaped by its new parent, is not)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def _group(pgid: int) -> list[int]:
    """The live processes of a process group."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if fields[0] != "Z" and int(fields[2]) == pgid:
                found.append(int(entry.name))
    return found


def _wait_for(what: str, ready: Callable[[], bool], process: subprocess.Popen[bytes]) -> None:
    """Poll until `ready()`; fail if the run ends first (or, as a safety net, after SAFETY s)."""
    deadline = time.monotonic() + SAFETY
    while not ready():
        if process.poll() is not None:
            pytest.fail(f"the run ended (code {process.returncode}) before {what}")
        if time.monotonic() > deadline:
            pytest.fail(f"no {what} after {SAFETY:g} s")
        time.sleep(0.02)


def _count(folder: Path) -> int:
    try:
        with sqlite3.connect(folder / FILE_NAME, timeout=1) as db:
            count: int = db.execute("SELECT COUNT(*) FROM games").fetchone()[0]
            return count
    except sqlite3.OperationalError:  # not made yet
        return 0


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc; a terminal's Ctrl-C is POSIX")
def test_one_ctrl_c_stops_the_pool_at_once_keeps_the_store_and_says_how_to_resume(tmp_path: Path) -> None:
    """Ctrl-C in a terminal sends SIGINT to the whole foreground process group: the command and
    its pool's workers. The test does the same, once a worker is playing a game (one of its bots
    has started), and then finds: exit code 130, the resume hint, no traceback (from a worker or
    the command), the stored games kept, and nothing left running, neither the workers nor the
    bots they had started (their own sessions: the workers kill them as they are terminated)."""
    bot, pids, out = tmp_path / "slow_bot.py", tmp_path / "pids", tmp_path / "run"
    bot.write_text(SLOW_BOT, encoding="utf-8")
    pids.mkdir()
    agent = f"external:60:{shlex.quote(sys.executable)} {shlex.quote(str(bot))} {shlex.quote(str(pids))}"
    args = [sys.executable, "-m", "santorini", "balance", "--gods", "Apollo", "--against", "Mortal,Pan",
            "--games", "20", "--agent", agent, "--jobs", "2", "--batch", "1", "--out", str(out)]
    stdout, stderr = tmp_path / "stdout", tmp_path / "stderr"
    with stdout.open("wb") as out_file, stderr.open("wb") as err_file:
        # (SIGINT as a terminal leaves it: a test run in the background of a shell without job control
        # has it ignored, which its children would inherit, and Python would then not turn it into
        # KeyboardInterrupt)
        process = subprocess.Popen(args, stdout=out_file, stderr=err_file, start_new_session=True,
                                   preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        _wait_for("store", lambda: (out / FILE_NAME).exists(), process)

        def a_worker_plays() -> bool:
            return any(path.name.isdigit() and path.read_text() not in ("", str(process.pid))
                       for path in pids.iterdir())
        _wait_for("game in a worker", a_worker_plays, process)
        before = stored_rows(out)
        os.killpg(process.pid, signal.SIGINT)  # as a terminal's Ctrl-C: the whole group
        code = process.wait(SAFETY)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    output, errors = stdout.read_text(), stderr.read_text()
    assert code == 130, output + errors
    assert "Traceback" not in errors and "KeyboardInterrupt" not in errors, errors
    assert f"interrupted: the games played so far are stored in {out / FILE_NAME}; run the same command again to " \
           "play the rest" in errors
    assert "report:" not in output
    after = stored_rows(out)
    assert len(after) >= len(before) >= 1 and set(before) <= set(after)  # nothing stored was lost
    bots = [int(path.name) for path in pids.iterdir() if path.name.isdigit()]
    deadline = time.monotonic() + SAFETY  # (processes that were killed may take a moment to be gone)
    while (_group(process.pid) or any(map(_alive, bots))) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _group(process.pid) == [], "a worker outlived the run"
    assert [pid for pid in bots if _alive(pid)] == [], "a bot outlived the run"


def test_a_stopped_pool_leaves_no_thread_for_the_exit_to_wake() -> None:
    """Stopping a pool with a batch running ends its workers and its manager thread before it
    returns: a manager thread still closing its pipe when the interpreter exits would make the
    exit hook of `concurrent.futures` write to a closed pipe (an OSError traceback after Ctrl-C)."""
    import multiprocessing
    import threading
    from concurrent.futures import ProcessPoolExecutor
    context = multiprocessing.get_context("forkserver" if "forkserver" in multiprocessing.get_all_start_methods()
                                          else "spawn")
    pool = ProcessPoolExecutor(max_workers=2, mp_context=context, initializer=worker_start)
    future = pool.submit(time.sleep, SAFETY)
    deadline = time.monotonic() + SAFETY
    while not future.running() and time.monotonic() < deadline:
        time.sleep(0.01)
    workers = list(pool._processes.values())
    managers = [thread for thread in threading.enumerate() if thread is pool._executor_manager_thread]
    assert workers and managers
    stop_pool(pool)
    assert not any(worker.is_alive() for worker in workers)
    assert not any(thread.is_alive() for thread in managers)


def test_an_interrupted_run_in_one_process_keeps_its_store(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Ctrl-C during the games played here (the sample, or --jobs 1): the games ended before it
    are stored, the hint is printed, the exit code is 130."""
    real = run_module.play_game
    played: list[Task] = []

    def interrupted(pack: str, task: Task, *args: object) -> object:
        if len(played) == 3:
            raise KeyboardInterrupt
        played.append(task)
        return real(pack, task, *args)  # type: ignore[arg-type]
    monkeypatch.setattr(run_module, "play_game", interrupted)
    result = run(*SMALL, "--jobs", "1", "--out", str(tmp_path))
    assert result.exit_code == 130, result.output
    assert "interrupted: the games played so far are stored" in result.output
    assert len(stored_rows(tmp_path)) == 3

"""An external bot's standard error (issue 21, item 4): `show` passes it on to ours as it comes,
each line after the bot and its seat; `log` appends it to a file; `hide` drops it; in all three
its last lines are kept for the error messages. A bot that writes much, or a terminal or disk that
does not keep up, never makes the bot wait. `--bot-stderr` on `balance` (default: a log in the
run's folder), and the option's helper for other commands.

No test reads a clock: what must happen while the bot runs is polled for, with a hang guard as a
safety net only."""

from __future__ import annotations

import io
import random
import re
import sqlite3
import sys
import threading
import time
from collections import deque
from collections.abc import Callable
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from santorini.dsl.errors import SantoriniError
from santorini.interpreter.agents import BotError, ExternalAgent, GreedyAgent, external
from santorini.interpreter.agents.external import HIDE, SHOW, STDERR_BACKLOG, STDERR_CHARS, BotStderr, stop_all_bots
from santorini.interpreter.agents.registry import AgentError, make_agent, parse_bot_stderr
from santorini.interpreter.balance.store import FILE_NAME
from santorini.interpreter.cli.bots import bot_stderr_of, bot_stderr_option
from santorini.interpreter.cli.cli import main
from santorini.interpreter.games.game import Game, new_game, parse_players
from santorini.interpreter.games.packs import resolve_pack
from santorini.interpreter.games.play import GameLog, run_game
from support import hang_guard

#: A bot that says things on standard error and plays the first legal line. Its first argument:
#: 'chatty' (a line at its start, one per request, one when it quits), 'flood' (5 MB of lines
#: before its first answer), 'long' (one line of 10,000 characters first), 'die' (its last words,
#: then exit 3, at its first turn).
BOT = r'''
import sys
mode = sys.argv[1]
say = lambda text: print(text, file=sys.stderr, flush=True)
lines = iter(sys.stdin.readline, "")
next(lines)
say("hello on stderr")
if mode == "long":
    say("y" * 10000)
print("ready stderr-bot", flush=True)
count = 0
for line in lines:
    if line.strip() == "quit":
        say("bye")
        break
    kind = line.split()[0]
    blocks = {}
    for header in lines:
        if header.strip() == "end":
            break
        name, number = header.split()
        blocks[name] = [next(lines).rstrip("\n") for _ in range(int(number))]
    count += 1
    say(f"request {count}")
    if mode == "flood" and count == 1:
        for i in range(50000):
            sys.stderr.write(f"flood {i:05d} " + "z" * 88 + "\n")
        sys.stderr.flush()
    if mode == "die" and kind == "turn":
        say("last words here")
        sys.exit(3)
    print(blocks["legal"][0], flush=True)
'''


@pytest.fixture
def bot(tmp_path: Path) -> Callable[[str], list[str]]:
    """The argv of the bot in a mode."""
    script = tmp_path / "stderr_bot.py"
    script.write_text(BOT, encoding="utf-8")
    return lambda mode: [sys.executable, str(script), mode]


def a_game() -> Game:
    return new_game(resolve_pack("bga"), parse_players(["Mortal", "Mortal"]))


def play(agent: ExternalAgent, seat: int = 0) -> GameLog:
    """A whole game, the bot in `seat`, and the bot told to quit."""
    other = GreedyAgent(random.Random(3))
    with hang_guard(), agent:
        return run_game(a_game(), [agent, other] if seat == 0 else [other, agent])


def eventually(check: Callable[[], bool]) -> None:
    """Poll until `check()` (the hang guard of the caller is the safety net)."""
    while not check():
        time.sleep(0.01)


# ---- show, log, hide
def test_show_passes_each_line_on_as_it_comes_after_the_bot_and_its_seat(bot: Callable[[str], list[str]],
                                                                         capsys: pytest.CaptureFixture[str]) -> None:
    agent = ExternalAgent(bot("chatty"), stderr=SHOW)
    prefix = f"[{agent.label}, seat A] "
    shown: list[str] = []
    with hang_guard(), agent:
        agent.placement(a_game(), 0)

        def seen() -> bool:
            shown.extend(capsys.readouterr().err.splitlines())
            return f"{prefix}request 1" in shown
        eventually(seen)  # while the bot still runs: passed on as it comes, not at the end
        assert agent._bot is not None and agent._bot.process.poll() is None
    shown += capsys.readouterr().err.splitlines()
    assert shown == [f"{prefix}hello on stderr", f"{prefix}request 1", f"{prefix}bye"]


def test_show_is_the_default_of_the_agent_and_of_make_agent(bot: Callable[[str], list[str]],
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    agent = make_agent(f"external:{' '.join(bot('chatty'))}", random.Random(1))
    assert isinstance(agent, ExternalAgent) and agent.stderr == SHOW
    log = play(agent, seat=1)
    err = capsys.readouterr().err
    requests = [line for line in err.splitlines() if line.startswith(f"[{agent.label}, seat B] request ")]
    assert log.winner is not None and len(requests) >= 2 and err.splitlines()[-1] == f"[{agent.label}, seat B] bye"


def test_log_appends_each_line_with_the_time_the_bot_its_seat_and_its_pid(bot: Callable[[str], list[str]],
                                                                          tmp_path: Path,
                                                                          capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bots.log"
    path.write_text("earlier\n", encoding="utf-8")
    agent = ExternalAgent(bot("chatty"), stderr=BotStderr("log", str(path)))
    play(agent, seat=1)
    play(agent, seat=1)  # a second game: a second bot, appended after the first
    lines = path.read_text(encoding="utf-8").splitlines()
    assert lines[0] == "earlier" and capsys.readouterr().err == ""
    shape = re.compile(rf"\d{{4}}-\d\d-\d\d \d\d:\d\d:\d\d \[{re.escape(agent.label)}, seat B, pid (\d+)\] (.*)")
    matches = [shape.fullmatch(line) for line in lines[1:]]
    assert all(matches), lines
    said = [match.group(2) for match in matches if match]
    pids = list(dict.fromkeys(match.group(1) for match in matches if match))
    assert said.count("hello on stderr") == 2 and said.count("bye") == 2 and len(pids) == 2


def test_hide_drops_it(bot: Callable[[str], list[str]], capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    log = play(ExternalAgent(bot("chatty"), stderr=HIDE))
    assert log.winner is not None and capsys.readouterr().err == ""


@pytest.mark.parametrize("mode", ["show", "log", "hide"])
def test_the_last_words_are_kept_for_the_message_in_every_mode(bot: Callable[[str], list[str]], tmp_path: Path,
                                                               mode: str) -> None:
    where = BotStderr("log", str(tmp_path / "bots.log")) if mode == "log" else BotStderr(mode)  # type: ignore[arg-type]
    agent = ExternalAgent(bot("die"), stderr=where)
    with pytest.raises(BotError, match=r"exited \(code 3\) before answering; .* \(its last words on standard "
                                       r"error: 'last words here'\)"):
        play(agent)
    if mode == "log":
        assert "] last words here" in (tmp_path / "bots.log").read_text(encoding="utf-8")


# ---- never block the bot
class Stuck(io.StringIO):
    """A standard error that does not take anything until it is let go (a terminal paused, a pipe
    nobody reads): a write waits for `free`."""

    def __init__(self) -> None:
        super().__init__()
        self.free = threading.Event()

    def write(self, text: str) -> int:
        self.free.wait()
        return super().write(text)


def test_a_flood_on_a_stuck_standard_error_never_blocks_the_bot(bot: Callable[[str], list[str]],
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """5 MB of lines, far more than a pipe holds, while our standard error takes nothing: the bot
    still answers in time (had it been made to wait, the agent's timeout would say 'did not
    answer'), the lines beyond the backlog are dropped, and the count is said once it moves."""
    stuck = Stuck()
    monkeypatch.setattr(sys, "stderr", stuck)
    agent = ExternalAgent(bot("flood"), timeout=60, stderr=SHOW)
    with hang_guard(), agent:
        game = a_game()
        agent.placement(game, 0)  # answered after the flood
        assert agent._bot is not None
        tail = agent._bot.stderr
        eventually(lambda: any(line.startswith("flood 49999") for line in tail))  # all drained, none waited
        stuck.free.set()
    text = stuck.getvalue()
    dropped = [int(count) for count in re.findall(r"\[(\d+) pieces of the bot's standard error dropped", text)]
    assert dropped and sum(dropped) > 40000
    shown = [line for line in text.splitlines() if "] flood " in line]
    assert STDERR_BACKLOG - 1 <= len(shown) <= STDERR_BACKLOG + 1 + len(dropped)


def test_a_long_line_is_kept_in_pieces_and_passed_on_whole(bot: Callable[[str], list[str]],
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    agent = ExternalAgent(bot("long"), stderr=SHOW)
    with hang_guard(), agent:
        agent.placement(a_game(), 0)
    lines = capsys.readouterr().err.splitlines()
    assert f"[{agent.label}, seat A] " + "y" * 10000 in lines
    tail: deque[str] = deque(maxlen=5)
    external._keep(io.StringIO("y" * 10000 + "\nnext\n"), tail)
    assert [len(piece) for piece in tail] == [STDERR_CHARS, STDERR_CHARS, 10001 - 2 * STDERR_CHARS, 5]


def test_a_log_file_that_cannot_be_written_is_one_error_before_the_bot_starts(bot: Callable[[str], list[str]],
                                                                              tmp_path: Path) -> None:
    agent = ExternalAgent(bot("chatty"), stderr=BotStderr("log", str(tmp_path)))
    with pytest.raises(BotError, match=f"cannot write its standard error to {tmp_path}: a folder has that name"):
        agent.placement(a_game(), 0)
    assert agent._bot is None  # nothing started


def test_stop_all_bots_kills_every_running_bot_at_once(bot: Callable[[str], list[str]]) -> None:
    """What a balance worker does when it is terminated (Ctrl-C): its bots must not outlive it."""
    agents = [ExternalAgent(bot("chatty"), stderr=HIDE) for _ in range(2)]
    with hang_guard():
        for agent in agents:
            agent.placement(a_game(), 0)
        processes = [agent._bot.process for agent in agents if agent._bot is not None]
        stop_all_bots()
        for process in processes:
            assert process.wait() != 0  # killed, not told to quit
        for agent in agents:
            agent.close()  # (stopped once: closing afterwards signals nothing)


# ---- the spec
@pytest.mark.parametrize("text, expected", [
    ("show", SHOW), (" HIDE ", HIDE), ("log:bots.log", "bots.log"), ("log: sub/b.log", "sub/b.log"),
])
def test_the_option_values(text: str, expected: BotStderr | str, tmp_path: Path,
                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    value = parse_bot_stderr(text)
    if isinstance(expected, str):  # a file, made absolute where the option was given
        assert value == BotStderr("log", str(tmp_path / expected))
    else:
        assert value == expected


def test_log_alone_is_the_commands_own_file_or_an_error() -> None:
    assert parse_bot_stderr("log", Path("/runs/a/bot-stderr.log")) == BotStderr("log", "/runs/a/bot-stderr.log")
    with pytest.raises(AgentError, match=r"'log' names no file: write log:FILE"):
        parse_bot_stderr("log")


@pytest.mark.parametrize("text", ["loud", "show:x", "", "log=x"])
def test_other_values_are_one_error_that_says_what_is_accepted(text: str) -> None:
    with pytest.raises(AgentError, match=r"a bot's standard error is show, hide, log:FILE") as raised:
        parse_bot_stderr(text)
    assert isinstance(raised.value, SantoriniError)


def test_a_bot_stderr_is_checked_when_made() -> None:
    with pytest.raises(AgentError):
        BotStderr("log")
    with pytest.raises(AgentError):
        BotStderr("show", "/x")
    assert str(BotStderr("log", "/x")) == "log:/x" and str(SHOW) == "show"


def test_the_options_helper_for_any_command(tmp_path: Path) -> None:
    """What `play` adds: the option with its default, checked by click (exit 2, one message)."""
    @click.command()
    @bot_stderr_option("show")
    def command(bot_stderr: str) -> None:
        click.echo(repr(bot_stderr_of(bot_stderr)))
    runner = CliRunner()
    assert runner.invoke(command, []).output.strip() == repr(SHOW)
    assert runner.invoke(command, ["--bot-stderr", "hide"]).output.strip() == repr(HIDE)
    logged = runner.invoke(command, ["--bot-stderr", f"log:{tmp_path / 'b.log'}"])
    assert logged.output.strip() == repr(BotStderr("log", str(tmp_path / "b.log")))
    bare = runner.invoke(command, ["--bot-stderr", "log"])
    assert bare.exit_code == 2 and "'log' names no file: write log:FILE" in bare.output
    wrong = runner.invoke(command, ["--bot-stderr", "loud"])
    assert wrong.exit_code == 2 and "Traceback" not in wrong.output
    assert "show|log:FILE|hide" in runner.invoke(command, ["--help"]).output


# ---- balance --bot-stderr
def balance(bot_argv: list[str], out: Path, *more: str) -> tuple[int, str]:
    agent = "external:" + " ".join(bot_argv)
    result = CliRunner().invoke(main, ["balance", "--gods", "Apollo", "--against", "Mortal", "--games", "1",
                                       "--agent", agent, "--quiet", "--out", str(out), *more])
    return result.exit_code, result.output


def test_a_balance_run_logs_its_bots_in_its_folder_by_default(bot: Callable[[str], list[str]], tmp_path: Path) -> None:
    code, output = balance(bot("chatty"), tmp_path / "run", "--jobs", "1")
    assert code == 0, output
    assert "hello on stderr" not in output  # not on the terminal, beside the progress bar
    lines = (tmp_path / "run" / "bot-stderr.log").read_text(encoding="utf-8").splitlines()
    for seat in "AB":
        assert sum(line.endswith(f", seat {seat}, pid {line.split('pid ')[1].split(']')[0]}] hello on stderr")
                   for line in lines) == 2  # one bot a seat a game, two games


def test_balance_workers_append_to_a_log_named_relative_to_the_command(bot: Callable[[str], list[str]],
                                                                       tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    code, output = balance(bot("chatty"), tmp_path / "run", "--jobs", "2", "--batch", "1",
                           "--bot-stderr", "log:bots.log")
    assert code == 0, output
    said = (tmp_path / "bots.log").read_text(encoding="utf-8")
    assert said.count("] hello on stderr") == 4 and said.count("] bye") == 4
    assert not (tmp_path / "run" / "bot-stderr.log").exists()


def test_balance_can_show_or_hide_its_bots(bot: Callable[[str], list[str]], tmp_path: Path) -> None:
    code, output = balance(bot("chatty"), tmp_path / "shown", "--jobs", "1", "--bot-stderr", "show")
    assert code == 0 and output.count("seat A] hello on stderr") == 2, output
    code, output = balance(bot("chatty"), tmp_path / "hidden", "--jobs", "1", "--bot-stderr", "hide")
    assert code == 0 and "hello on stderr" not in output
    assert not any((tmp_path / run / "bot-stderr.log").exists() for run in ("shown", "hidden"))


def test_a_balance_log_that_cannot_be_written_is_refused_before_a_game(bot: Callable[[str], list[str]],
                                                                       tmp_path: Path) -> None:
    (tmp_path / "run").mkdir()
    (tmp_path / "run" / "bot-stderr.log").mkdir()
    code, output = balance(bot("chatty"), tmp_path / "run")
    assert code == 2 and "cannot write" in output and "bot-stderr.log: a folder has that name" in output, output
    assert not (tmp_path / "run" / FILE_NAME).exists()
    code, output = balance(bot("chatty"), tmp_path / "other", "--bot-stderr", f"log:{tmp_path / 'no' / 'b.log'}")
    assert code == 2 and f"there is no folder {tmp_path / 'no'}" in output and "Traceback" not in output
    assert not (tmp_path / "other").exists()


def test_agents_without_a_bot_make_no_log(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["balance", "--gods", "Apollo", "--against", "Mortal", "--games", "1", "--agent",
                                       "greedy", "--jobs", "1", "--quiet", "--out", str(tmp_path)])
    assert result.exit_code == 0 and not (tmp_path / "bot-stderr.log").exists()
    with sqlite3.connect(tmp_path / FILE_NAME) as db:
        assert db.execute("SELECT COUNT(*) FROM games").fetchone()[0] == 2

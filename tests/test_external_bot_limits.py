"""An external bot's limits (fuzz faults F4, F5): the timeout is a deadline for a whole answer line,
however slowly it trickles in; a line longer than MAX_LINE_BYTES is refused, read in time linear
in its length; and stopping a bot stops what it started (its whole process group).

No test reads a clock: a bot that the agent failed to give up on ends its line after a while (or
exits), so that the test fails on the message; hang_guard is only a safety net against a hang."""

from __future__ import annotations

import os
import queue
import signal
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from santorini.dsl.errors import SantoriniError
from santorini.interpreter.agents import BotError, ExternalAgent, external
from santorini.interpreter.agents.external import MAX_LINE_BYTES
from santorini.interpreter.games.game import Game, new_game, parse_players
from santorini.interpreter.games.packs import resolve_pack
from support import hang_guard

#: A bot that reads the handshake, says ready, reads the first request (a placement) and then
#: answers it as its first argument says (the long modes: a line one byte longer than the second).
#: With a second and third argument (a file, and whether the child ignores SIGTERM), it first starts
#: a child that writes its pid there and sleeps (the bot waits for the file before it says ready).
BOT = r'''
import os, subprocess, sys, time
mode = sys.argv[1]
lines = iter(sys.stdin.readline, "")
next(lines)
if len(sys.argv) > 3:
    pid_file, ignore = sys.argv[2], sys.argv[3] == "ignore-term"
    child = ("import os, signal, sys, time\n"
             + ("signal.signal(signal.SIGTERM, signal.SIG_IGN)\n" if ignore else "")
             + "open(sys.argv[1] + '.new', 'w').write(str(os.getpid()))\n"
             + "os.replace(sys.argv[1] + '.new', sys.argv[1])\n"
             + "time.sleep(60)\n")
    subprocess.Popen([sys.executable, "-c", child, pid_file])
    while not os.path.exists(pid_file):
        time.sleep(0.01)
print("ready limits-bot", flush=True)
for line in lines:
    if line.strip() == "quit":
        break
    blocks, kind = {}, line.split()[0]
    for header in lines:
        if header.strip() == "end":
            break
        name, count = header.split()
        blocks[name] = [next(lines).rstrip("\n") for _ in range(int(count))]
    legal = blocks["legal"][0]
    if mode == "trickle":  # a line never ended: it comes a byte every 50 ms
        for _ in range(400):
            sys.stdout.write("m")
            sys.stdout.flush()
            time.sleep(0.05)
        print(flush=True)  # (had the agent's deadline not fired: the test fails on the message)
        time.sleep(60)
    elif mode == "chunks":  # a legal answer in pieces, ended in time
        for start in range(0, len(legal), 5):
            sys.stdout.write(legal[start:start + 5])
            sys.stdout.flush()
            time.sleep(0.01)
        print(flush=True)
    elif mode in ("long", "long-ended"):
        sys.stdout.write("x" * (int(sys.argv[-1]) + 1) + ("\n" if mode == "long-ended" else ""))
        sys.stdout.flush()
        time.sleep(60)
    elif mode == "give-up":
        print("error I resign", flush=True)
    else:
        print(legal, flush=True)
'''


@pytest.fixture
def bot_script(tmp_path: Path) -> Path:
    script = tmp_path / "bot.py"
    script.write_text(BOT, encoding="utf-8")
    return script


def a_game() -> Game:
    return new_game(resolve_pack("bga"), parse_players(["Mortal", "Mortal"]))


def refusal(agent: ExternalAgent) -> str:
    """The one error of the agent's first request (a placement), and the bot is stopped."""
    with hang_guard(), agent, pytest.raises(BotError) as raised:
        agent.placement(a_game(), 0)
    text = str(raised.value)
    assert isinstance(raised.value, SantoriniError)
    assert text.startswith(f"bot '{agent.label}' (seat A) ") and "\n" not in text and "Traceback" not in text
    return text


# ---- F4: the deadline is for the whole line
def test_a_line_that_trickles_in_forever_is_timed_out(bot_script: Path) -> None:
    """Each byte comes well within the timeout, the line never ends: the deadline fires (before
    it, the timeout restarted on each chunk and the bot was waited for as long as it wrote)."""
    text = refusal(ExternalAgent([sys.executable, str(bot_script), "trickle"], timeout=0.5))
    assert "did not answer within 0.5 s (it began a line but did not end it); expected a placement such as " in text


def test_an_answer_written_in_pieces_is_read_as_one_line(bot_script: Path) -> None:
    with hang_guard(), ExternalAgent([sys.executable, str(bot_script), "chunks"], timeout=5.0) as agent:
        squares = agent.placement(a_game(), 0)
    assert len(squares) == 2


@pytest.mark.parametrize("mode", ["long", "long-ended"])
def test_a_line_longer_than_the_limit_is_refused(bot_script: Path, mode: str) -> None:
    """Ended or not, a line one byte over the limit is refused, with the limit in the message."""
    agent = ExternalAgent([sys.executable, str(bot_script), mode, str(MAX_LINE_BYTES)], timeout=30.0)
    text = refusal(agent)
    assert MAX_LINE_BYTES == 1 << 20
    assert ("wrote a line longer than 1 MiB (1,048,576 bytes), the limit for a line of the protocol; "
            "expected a placement such as ") in text


def read_batches(chunks: list[bytes], monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """What the reader makes of a bot's output that arrives in these chunks."""
    fd, other = os.pipe()
    os.close(other)
    real_read, pieces = os.read, iter(chunks)

    def read(number: int, size: int) -> bytes:
        return next(pieces, b"") if number == fd else real_read(number, size)

    class Stream:
        def fileno(self) -> int:
            return fd

    answers: queue.Queue[Any] = queue.Queue()
    monkeypatch.setattr(external.os, "read", read)
    try:
        external._read(Stream(), answers)  # type: ignore[arg-type]
    finally:
        monkeypatch.undo()
        os.close(fd)
    return [answers.get_nowait() for _ in range(answers.qsize())]


def test_the_reader_splits_lines_across_chunks(monkeypatch: pytest.MonkeyPatch) -> None:
    batches = read_batches([b"ab", b"c\r\nde", b"f\ng\n", b"h"], monkeypatch)
    assert batches == [([], True), (["abc"], True), (["def", "g"], False), ([], True), (["h"], False), None]


def test_a_long_line_in_many_chunks_is_two_messages_not_one_a_chunk(monkeypatch: pytest.MonkeyPatch) -> None:
    """A line of exactly the limit, in 1024 chunks: the reader says once that a line was begun and
    once that it ended (a message a chunk restarted the timeout, and each chunk re-split the whole
    line); one byte more is refused, and the reader stops there."""
    piece = MAX_LINE_BYTES // 1024
    batches = read_batches([b"y" * piece] * 1024 + [b"\nok\n"], monkeypatch)
    assert len(batches) == 3 and batches[0] == ([], True) and batches[2] is None
    lines, partial = batches[1]
    assert lines == ["y" * MAX_LINE_BYTES, "ok"] and partial is False
    over = read_batches([b"y" * piece] * 1024 + [b"y\n", b"never read\n"], monkeypatch)
    assert over == [([], True), external._OVERLONG]
    unended = read_batches([b"y" * piece] * 1024 + [b"y", b"never read\n"], monkeypatch)
    assert unended == [([], True), external._OVERLONG]


# ---- F5: stopping a bot stops what it started
def gone(pid: int) -> bool:
    """Whether the process has ended (a zombie, not reaped yet by whoever adopted it, has)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] in ("Z", "X")
    except (OSError, IndexError):
        return False


def gone_soon(pid: int) -> bool:
    """Whether the process ends within a few seconds (polled 200 times): a safety net, not a
    measure; the child sleeps 60 s unless it is stopped."""
    for _ in range(200):
        if gone(pid):
            return True
        time.sleep(0.05)
    return False


@pytest.mark.skipif(not hasattr(os, "killpg"), reason="process groups are POSIX's")
@pytest.mark.parametrize("child", ["plain", "ignore-term"])
@pytest.mark.parametrize("how", ["close", "failure"])
def test_stopping_a_bot_stops_what_it_started(bot_script: Path, tmp_path: Path, child: str, how: str) -> None:
    """The bot starts a child that sleeps (one that even ignores SIGTERM: it is killed after the
    grace); stopped after a game's first request (told to quit, or failed), the child is gone too."""
    pid_file = tmp_path / "child.pid"
    mode = "give-up" if how == "failure" else "first-legal"
    agent = ExternalAgent([sys.executable, str(bot_script), mode, str(pid_file), child], timeout=30.0)
    pid = None
    try:
        with hang_guard():
            if how == "failure":
                with pytest.raises(BotError, match=r"\(seat A\) gave up: I resign$"):
                    agent.placement(a_game(), 0)
                pid = int(pid_file.read_text())
            else:
                agent.placement(a_game(), 0)
                pid = int(pid_file.read_text())
                assert not gone(pid)  # the bot has started it, and it runs
                agent.close()
        assert gone_soon(pid), "the bot's child outlived the bot"
    finally:
        agent.close()
        if pid is not None and not gone(pid):
            os.kill(pid, signal.SIGKILL)  # (the test failed: leave nothing running)


@pytest.mark.skipif(not hasattr(os, "killpg"), reason="process groups are POSIX's")
def test_a_bot_is_stopped_once(bot_script: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A bot that quits when told, with nothing of its group left, gets one SIGTERM to its group,
    found gone (no SIGKILL, no wait); closed again, it is not signalled again (a group of that id
    later would be another's)."""
    sent: list[int] = []
    real_killpg = os.killpg

    def killpg(group: int, number: int) -> None:
        sent.append(number)
        real_killpg(group, number)
    monkeypatch.setattr(external.os, "killpg", killpg)
    with hang_guard(), ExternalAgent([sys.executable, str(bot_script), "first-legal"], timeout=30.0) as agent:
        agent.placement(a_game(), 0)
        bot = agent._bot
        assert bot is not None
    assert bot.process.returncode == 0  # it quit by itself
    assert sent == [signal.SIGTERM]
    bot.quit()
    agent.close()
    assert sent == [signal.SIGTERM]

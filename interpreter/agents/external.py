"""An agent that is another program: it speaks the line protocol of protocol.py (docs/agents.md)
over its standard input and output, so that a bot written in any language can play.

The bot runs as a child process, one per game. Every answer is awaited for at most `timeout`
seconds (a deadline for the whole line, however slowly it comes), and no line may be longer than
`MAX_LINE_BYTES`: a bot that hangs, dies, writes garbage or answers a turn the rules refuse ends the
game with one BotError that names the bot and says what was expected. Lines are read and written by
helper threads, so the engine never blocks on a bot (not even one that stops reading).

On POSIX the bot runs in a session of its own, so that stopping it stops what it started too (its
whole process group is signalled); elsewhere only its own process can be stopped.

The bot's standard error is drained by a thread of its own, so that a bot that writes much there
never blocks, and its last lines are kept for the messages. Where the lines go besides is a
`BotStderr`: shown on ours as they come (each prefixed with the bot and its seat), appended to a
file, or dropped. They are passed on by yet another thread through a bounded queue: a slow
terminal or disk drops lines (and says how many) rather than make the bot wait.
"""

from __future__ import annotations

import os
import queue
import shlex
import signal
import subprocess
import sys
import threading
import time
import weakref
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Literal, TextIO

from ..engine.engine import IllegalTurn
from ..games.documents import dump, position_document
from ..games.game import Game, placement_names, placement_text
from ..games.position import position_string
from ..games.setup import legal_placements, placement_fault, token_round
from ..model.notation import NotationError, format_turn, parse_placement, parse_token_placement, parse_turn
from .base import AgentError, SeatView, Turn, ViewAgent
from .protocol import ERROR, PLACE, QUIT, READY, TURN, hello_line, request_lines

__all__ = ["BotError", "BotStderr", "ExternalAgent", "stop_all_bots"]

#: Seconds a bot has to answer each message, unless told otherwise.
DEFAULT_TIMEOUT = 10.0
#: Seconds a bot has to exit after 'quit' before it is killed.
QUIT_GRACE = 2.0
#: The longest line a bot may write, in bytes (its line break not counted): an answer is one turn
#: or placement, a few dozen bytes, so a longer line is a broken bot, refused before it costs
#: more memory than this.
MAX_LINE_BYTES = 1 << 20
#: Seconds what is left of a stopped bot's process group has to exit after SIGTERM before SIGKILL.
TERM_GRACE = 1.0
#: Seconds to wait for a killed bot's process to be reaped.
KILL_WAIT = 5.0
#: Bytes read from the bot's output at a time.
CHUNK_BYTES = 65536
#: The longest piece of a line of the bot's standard error kept for messages, in characters.
STDERR_CHARS = 4096
#: The lines of the bot's standard error kept for messages.
STDERR_LINES = 5
#: Pieces of the bot's standard error waiting to be shown or logged: past this many (a terminal or a
#: disk that does not keep up), pieces are dropped and counted, so that the bot is never made to wait.
STDERR_BACKLOG = 1000
#: Seconds to wait, once a bot has gone, for the rest of its standard error to be read and passed on.
DRAIN_WAIT = 1.0
#: Whether the bot can be started in its own process group and stopped with everything it started.
PROCESS_GROUPS = os.name == "posix" and hasattr(os, "killpg")
#: What becomes of a bot's standard error: passed on as it comes, appended to a file, or dropped.
StderrMode = Literal["show", "log", "hide"]


@dataclass(frozen=True)
class BotStderr:
    """Where a bot's standard error goes besides the last lines kept for messages: `show` writes
    each line on our standard error as it comes, after `[LABEL, seat X] `; `log` appends it to
    `path` (opened when the bot starts), after the time, the bot, its seat and its process id;
    `hide` drops it. A plain value, so that it travels to the worker processes of a balance run."""

    mode: StderrMode = "show"
    path: str | None = None

    def __post_init__(self) -> None:
        if self.mode not in ("show", "log", "hide"):
            raise AgentError(f"a bot's standard error is shown, logged or hidden, not {self.mode!r}")
        if (self.mode == "log") != (self.path is not None):
            raise AgentError("a bot's standard error is logged to a file: give its path (and only for log)")

    def __str__(self) -> str:
        return f"log:{self.path}" if self.mode == "log" else self.mode


#: A bot's standard error on ours (the default: what a program run from a terminal does).
SHOW = BotStderr("show")
#: A bot's standard error dropped (its last lines still kept for messages).
HIDE = BotStderr("hide")


class BotError(AgentError):
    """An external bot that broke the protocol: it did not start, died, hung, or answered
    something that is not a legal turn."""


class ExternalAgent(ViewAgent):
    """Plays a seat by asking a bot program (`command`: a command line, split as a shell would,
    or a list of arguments). The bot starts at its seat's first request and is told to quit by
    `close()` (or when the agent is asked about another game). Its standard error goes where
    `stderr` says (shown on ours by default: what running a program from a terminal does)."""

    def __init__(self, command: str | Sequence[str], timeout: float = DEFAULT_TIMEOUT,
                 stderr: BotStderr = SHOW) -> None:
        super().__init__(None)
        try:
            self.argv = shlex.split(command) if isinstance(command, str) else list(command)
        except ValueError as err:
            raise AgentError(f"external agent {command!r}: cannot read the command ({err})") from None
        if not self.argv:
            raise AgentError("external agent: no command given; write external:COMMAND, e.g. "
                             "'external:python -m santorini.interpreter.agents.example_bot'")
        if not timeout > 0:
            raise AgentError(f"external agent: the timeout must be a positive number of seconds, not {timeout}")
        self.label = command if isinstance(command, str) else shlex.join(self.argv)
        self.timeout = timeout
        self.stderr = stderr
        self._bot: _Bot | None = None
        self._game: Game | None = None
        self._seat: int | None = None

    # ---- the game loop's questions
    def placement(self, game: Game, seat: int) -> list[int]:
        bot = self._connect(game, seat)
        state = game.state
        legal = [placement_text(game, seat, squares) for squares in legal_placements(game, seat)]
        seen = game.view(seat)
        position = dump(position_document(seen, placing=seat)).splitlines()
        example = legal[0] if legal else "place A1 c3; place A2 d2"
        answer = bot.ask(PLACE, state.seats[seat].letter,
                         [("position", position), ("game", position), ("legal", legal),
                          ("position-string", [position_string(seen, placing=seat)])],
                         f"a placement such as '{example}'")
        names, tokens = placement_names(game, seat), bool(token_round(game, seat))
        try:
            pairs = [(f"token {kind}", square) for kind, square in parse_token_placement(answer)] if tokens \
                else parse_placement(answer)
        except NotationError as err:
            raise bot.fail(f"answered {answer!r}, which is not a placement ({err}); expected {example!r} "
                           "or another line of the request's 'legal' block") from None
        placed = dict(pairs)
        if sorted(placed) != sorted(names) or len(placed) != len(names):
            what = "tokens" if tokens else "workers"
            listed = ", ".join(name.removeprefix("token ") for name in names)
            raise bot.fail(f"answered {answer!r}; expected a placement of {what} {listed}, each once, "
                           f"such as {example!r}")
        squares = [placed[name] for name in names]
        fault = placement_fault(game, seat, tuple(squares))
        if fault is not None:
            raise bot.fail(f"answered {answer!r}, which seat {state.seats[seat].letter} may not place: {fault}")
        return squares

    def turn(self, game: Game) -> Turn | None:
        if game.state.winner is None and game.engine.has_turn(game.state):
            self._connect(game, game.state.to_move)
        return super().turn(game)

    def choose(self, view: SeatView) -> Turn:
        assert self._bot is not None  # connected by turn()
        bot, state = self._bot, view.state
        legal = [format_turn(state, turn) for turn in view.turns()]
        blocks = [("position", dump(view.position()).splitlines()), ("game", dump(view.game_so_far()).splitlines()),
                  ("legal", legal), ("position-string", [view.position_string()])]
        answer = bot.ask(TURN, view.letter, blocks, f"one of seat {view.letter}'s legal turns in the spec's notation, "
                                                    f"such as '{legal[0]}'")
        try:
            steps = parse_turn(state, answer)
        except NotationError as err:
            raise bot.fail(f"answered {answer!r}, which is not a turn ({err}); expected one of seat {view.letter}'s "
                           f"legal turns in the spec's notation, such as {legal[0]!r}") from None
        try:
            view.engine.accept(state, steps)
        except IllegalTurn as err:
            raise bot.fail(f"answered {answer!r}, which seat {view.letter} may not play: {err}") from None
        return steps

    # ---- the bot's process
    def close(self) -> None:
        """Tell the bot to quit (it is killed if it does not exit in time)."""
        if self._bot is not None:
            self._bot.quit()
        self._bot = self._game = self._seat = None

    def __enter__(self) -> ExternalAgent:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _connect(self, game: Game, seat: int) -> _Bot:
        """The bot of this game, started and greeted at the first request; a new game starts
        a new bot. One agent plays one seat."""
        if self._game is not game:
            self.close()
        if self._bot is None:
            self._game, self._seat = game, seat
            letter = game.state.seats[seat].letter
            self._bot = _Bot(self.argv, self.label, self.timeout, letter, self.stderr)
            self._bot.greet()
        elif seat != self._seat:
            letters = game.state.seats[seat].letter, game.state.seats[self._seat].letter  # type: ignore[index]
            raise AgentError(f"bot '{self.label}' plays seat {letters[1]}; it was asked to play seat {letters[0]} "
                             "too (give each seat its own agent)")
        return self._bot


class _Bot:
    """A running bot: its lines out go through a queue (a reader thread), its lines in through
    another (a writer thread); its standard error is drained by a third, which keeps the last
    lines for messages and hands every line to a fourth to show or log (BotStderr)."""

    def __init__(self, argv: list[str], label: str, timeout: float, letter: str, stderr: BotStderr) -> None:
        self.label = label
        self.timeout = timeout
        self.letter = letter
        self.failed: BotError | None = None
        log = _open_log(stderr, label, letter)  # before the bot starts: a file we cannot write is our fault
        try:
            # its own session (POSIX): its process group holds what it starts, stopped with it
            self.process = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                            stderr=subprocess.PIPE, text=True, encoding="utf-8",
                                            errors="replace", bufsize=1, start_new_session=PROCESS_GROUPS)
        except OSError as err:
            if log is not None:
                log.close()
            raise BotError(f"bot '{label}' cannot start: {(err.strerror or str(err)).lower()} "
                           f"({argv[0]}); expected a command that runs a bot") from None
        #: Batches of the bot's lines, as they arrive together, each with whether a line was
        #: being written after them (None: it closed its output); the lines of a batch not read
        #: yet, and whether the last batch read had a line on its way. (_OVERLONG: a line was
        #: longer than MAX_LINE_BYTES; the reader stopped there.)
        self.answers: queue.Queue[_Batch | _Overlong | None] = queue.Queue()
        self.pending: deque[str] = deque()
        self.partial = False
        self.outbox: queue.Queue[str | None] = queue.Queue()
        self.stderr: deque[str] = deque(maxlen=STDERR_LINES)
        process = self.process
        assert process.stdin and process.stdout and process.stderr
        passing = None
        if stderr.mode != "hide":
            show, pid = f"[{label}, seat {letter}] ", process.pid
            passing = _Passer((lambda: show) if log is None else (lambda: _log_prefix(label, letter, pid)), log)
        #: The threads that drain its standard error and pass it on: waited for (briefly) once the
        #: bot has gone, so that its last words are read before a message quotes them, and shown
        #: before what comes after the game.
        self.drains = [threading.Thread(target=_keep, args=(process.stderr, self.stderr, passing), daemon=True)]
        if passing is not None:
            self.drains.append(threading.Thread(target=passing.run, daemon=True))
        for thread in (*self.drains, threading.Thread(target=_read, args=(process.stdout, self.answers), daemon=True),
                       threading.Thread(target=_write, args=(process.stdin, self.outbox), daemon=True)):
            thread.start()
        #: Stops the bot and what it started: once only (called again, or when the bot is
        #: collected, it does nothing), so that no later process that reuses its ids is signalled.
        self.stop = weakref.finalize(self, _kill, process, PROCESS_GROUPS)
        _RUNNING.add(self)

    def greet(self) -> None:
        answer = self._exchange([hello_line(self.letter)], f"'{READY}' (protocol version 1)")
        if answer.split()[:1] != [READY]:
            raise self.fail(f"answered the handshake with {answer!r}; expected '{READY}' (optionally followed by "
                            "a name)")

    def ask(self, kind: str, letter: str, blocks: list[tuple[str, list[str]]], expected: str) -> str:
        """Send a request and return the bot's one-line answer."""
        return self._exchange(request_lines(kind, letter, blocks), expected)

    def fail(self, what: str) -> BotError:
        """The error for what the bot did (the bot is stopped: no second chance)."""
        self.failed = BotError(f"bot '{self.label}' (seat {self.letter}) {what}")
        self.stop()
        return self.failed

    def quit(self) -> None:
        """Tell the bot to quit, then stop what is left of it (what it started included)."""
        if self.failed is None and self.process.poll() is None:
            self.outbox.put(QUIT + "\n")
            self.outbox.put(None)  # close its input
            try:
                self.process.wait(QUIT_GRACE)
            except subprocess.TimeoutExpired:
                pass
        self.stop()
        self._drained()

    def _exchange(self, lines: list[str], expected: str) -> str:
        if self.failed is not None:
            raise self.failed
        # a line the bot wrote when no answer was due: it would answer the wrong request (lines
        # written together arrive in one batch, so a second line with an answer is always seen)
        extra = self._stray_line(expected)
        if extra is not None:
            raise self.fail(f"wrote {extra!r} when no answer was due; expected one line for each request "
                            "(messages for people go to standard error)")
        if self.process.poll() is None:
            self.outbox.put("".join(line + "\n" for line in lines))
        try:
            # one deadline for the whole answer: a line that trickles in does not put it off
            answer = self._next_line(time.monotonic() + self.timeout, expected)
        except queue.Empty:
            begun = " (it began a line but did not end it)" if self.partial else ""
            raise self.fail(f"did not answer within {self.timeout:g} s{begun}; expected {expected}") from None
        if answer is None:
            ended = self._ended()
            if self.process.poll() is not None:
                self._drained()
            raise self.fail(f"{ended} before answering; expected {expected}{self._last_words()}")
        if answer.split()[:1] == [ERROR]:
            raise self.fail(f"gave up: {answer[len(ERROR):].strip() or '(no reason given)'}")
        return answer

    def _stray_line(self, expected: str) -> str | None:
        """A line the bot has written since its last answer, if any (a line on its way when
        the answer came is waited for, up to the timeout: it is one)."""
        if self.pending:
            return self.pending[0]
        deadline = time.monotonic() + self.timeout
        while True:
            try:
                batch = self._take(deadline if self.partial else None, expected)
            except queue.Empty:
                return None
            if batch is None:
                return None  # it has gone: said by the caller
            lines, self.partial = batch
            if lines:
                self.pending.extend(lines)
                return lines[0]

    def _next_line(self, deadline: float, expected: str) -> str | None:
        """The bot's next line (None: it closed its output); queue.Empty once `deadline` (of
        time.monotonic) has passed without one."""
        while not self.pending:
            batch = self._take(deadline, expected)
            if batch is None:
                return None
            lines, self.partial = batch
            self.pending.extend(lines)
        return self.pending.popleft()

    def _take(self, deadline: float | None, expected: str) -> _Batch | None:
        """The reader's next batch, waited for until `deadline` (None: not waited for), else
        queue.Empty; None when the bot has closed its output. A line too long is the bot's fault."""
        if deadline is None:
            item = self.answers.get_nowait()
        else:
            left = deadline - time.monotonic()
            if left <= 0:
                raise queue.Empty
            item = self.answers.get(timeout=left)
        if item is None or isinstance(item, _Overlong):
            self.answers.put(item)  # (asked again, the reader still has nothing more)
        if isinstance(item, _Overlong):
            raise self.fail(f"wrote a line longer than {_bytes(MAX_LINE_BYTES)}, the limit for a line of the "
                            f"protocol; expected {expected}")
        return item

    def _ended(self) -> str:
        try:
            code = self.process.wait(1.0)
        except subprocess.TimeoutExpired:
            return "closed its output"
        return f"exited (code {code})"

    def _drained(self) -> None:
        """Wait (at most DRAIN_WAIT seconds in all) for the bot's standard error to be read to its
        end and passed on: it ends once the bot and what it started have closed it."""
        deadline = time.monotonic() + DRAIN_WAIT
        for thread in self.drains:
            thread.join(max(0.0, deadline - time.monotonic()))

    def _last_words(self) -> str:
        lines = [line for line in self.stderr if line.strip()]
        return f" (its last words on standard error: {lines[-1].strip()!r})" if lines else ""


#: Lines of the bot's that arrived together, and whether a line was begun after them.
_Batch = tuple[list[str], bool]


class _Overlong:
    """The reader's word that the bot wrote a line longer than MAX_LINE_BYTES."""


_OVERLONG = _Overlong()


def _read(stream: IO[str], answers: queue.Queue[_Batch | _Overlong | None]) -> None:
    """The bot's output, in batches of the lines that arrive together (read from the pipe as
    bytes, so that two lines written at once are one batch whatever the threads' timing), each
    with whether a line was begun after them (an empty batch says a line was begun); None when it
    closes it. A line is kept as the chunks it came in and only each new chunk is searched for its
    end, so a long line costs time in proportion to its length; past MAX_LINE_BYTES the reader
    says _OVERLONG and stops."""
    fd = stream.fileno()
    begun: list[bytes] = []  # the chunks of the line not ended yet
    size = 0  # their bytes
    try:
        while chunk := os.read(fd, CHUNK_BYTES):
            end = chunk.find(b"\n")
            if end < 0:
                if not begun:
                    answers.put(([], True))
                begun.append(chunk)
                size += len(chunk)
                if size > MAX_LINE_BYTES:
                    answers.put(_OVERLONG)
                    return
                continue
            if size + end > MAX_LINE_BYTES:
                answers.put(_OVERLONG)
                return
            *lines, rest = chunk[end + 1:].split(b"\n")  # (each shorter than a chunk)
            lines.insert(0, b"".join([*begun, chunk[:end]]))
            begun, size = ([rest], len(rest)) if rest else ([], 0)
            answers.put(([_text(line) for line in lines], bool(rest)))
    except (OSError, ValueError):
        pass
    if begun:
        answers.put(([_text(b"".join(begun))], False))
    answers.put(None)


def _text(line: bytes) -> str:
    return line.decode("utf-8", "replace").rstrip("\r")


def _bytes(count: int) -> str:
    """A size for people: '1 MiB (1,048,576 bytes)'."""
    for unit, size in (("MiB", 1 << 20), ("KiB", 1 << 10)):
        if count >= size and count % size == 0:
            return f"{count // size} {unit} ({count:,} bytes)"
    return f"{count:,} bytes"


def _keep(stream: IO[str], tail: deque[str], passing: _Passer | None = None) -> None:
    """The bot's standard error, drained (so it never blocks on it), its last lines kept (a long
    line in pieces of STDERR_CHARS, so that no line costs unbounded memory) and each piece handed
    to `passing` (which never makes this thread wait)."""
    try:
        while line := stream.readline(STDERR_CHARS):
            tail.append(line)
            if passing is not None:
                passing.put(line)
    except (OSError, ValueError):
        pass
    finally:
        if passing is not None:
            passing.put(None)


class _Passer:
    """Passes a bot's standard error on, from a thread of its own: to our standard error (`log`
    None) or to a log file. The drain puts pieces in a bounded queue without waiting; when it is
    full the pieces are counted as dropped, and the count is written where they would have gone."""

    def __init__(self, prefix: Callable[[], str], log: TextIO | None) -> None:
        #: What goes before each line: the bot and its seat (and, in a log, the time and its pid).
        self.prefix = prefix
        self.log = log
        self.queue: queue.Queue[str | None] = queue.Queue(STDERR_BACKLOG)
        self.dropped = 0

    def put(self, piece: str | None) -> None:
        """Queue a piece of a line without waiting (None: the bot's standard error is closed; that
        end, and the count of what was dropped before it, may wait: the bot no longer writes)."""
        if piece is None:
            if self.dropped:
                self.queue.put(self._dropped())
            self.queue.put(None)
            return
        try:
            if self.dropped:
                self.queue.put_nowait(self._dropped())
                self.dropped = 0
            self.queue.put_nowait(piece)
        except queue.Full:
            self.dropped += 1

    def _dropped(self) -> str:
        return (f"[{self.dropped} pieces of the bot's standard error dropped: they came faster than they could "
                "be written]\n")

    def run(self) -> None:
        """Write each piece as it comes, a line's first piece after the prefix, until the end;
        close the log then. Where writing fails (our standard error closed, a full disk), the
        pieces are still taken, and dropped, so that the drain never waits on a full queue."""
        start, working = True, True
        while (piece := self.queue.get()) is not None:
            working = working and self._write((self.prefix() if start else "") + piece)
            start = piece.endswith("\n")
        if working and not start:
            self._write("\n")
        if self.log is not None:
            self.log.close()

    def _write(self, text: str) -> bool:
        """Write and flush `text`; False if that failed."""
        out = self.log if self.log is not None else sys.stderr
        try:
            if out is not None:  # (no standard error at all: pythonw)
                out.write(text)
                out.flush()
        except (OSError, ValueError):
            return False
        return True


def _log_prefix(label: str, letter: str, pid: int) -> str:
    return f"{time.strftime('%Y-%m-%d %H:%M:%S')} [{label}, seat {letter}, pid {pid}] "


def _open_log(stderr: BotStderr, label: str, letter: str) -> TextIO | None:
    """The log file of `stderr`, opened to append (None unless logging); BotError if it cannot be."""
    if stderr.mode != "log" or stderr.path is None:
        return None
    path = Path(stderr.path)
    why = None
    if path.is_dir():
        why = "a folder has that name"
    elif path.exists() and not path.is_file():  # (a FIFO would block the open until something reads it)
        why = "it is not a regular file"
    else:
        try:
            return path.open("a", encoding="utf-8", errors="replace", buffering=1)
        except OSError as err:
            why = (err.strerror or str(err)).lower()
    raise BotError(f"bot '{label}' (seat {letter}): cannot write its standard error to {path}: {why}")


#: The bots running in this process, for stop_all_bots.
_RUNNING: weakref.WeakSet[_Bot] = weakref.WeakSet()


def stop_all_bots() -> None:
    """Kill every bot this process runs, and what they started, at once (SIGKILL, no grace): for a
    process that is being stopped itself (a balance worker told to terminate), which must not
    leave bots behind. Each bot is stopped once, as by its own stop."""
    for bot in list(_RUNNING):
        if bot.stop.detach() is None:  # (stopped already)
            continue
        process = bot.process
        if not (PROCESS_GROUPS and _signal_group(process.pid, signal.SIGKILL)) and process.poll() is None:
            process.kill()


def _write(stream: IO[str], outbox: queue.Queue[str | None]) -> None:
    """Messages to the bot; None closes its input. A bot that has gone is not written to."""
    try:
        while (text := outbox.get()) is not None:
            stream.write(text)
            stream.flush()
        stream.close()
    except (OSError, ValueError):
        pass


def _kill(process: subprocess.Popen[str], group: bool) -> None:
    """Stop the bot and what it started. With `group` (it leads a session of its own, so its
    process group's id is its pid), the group is sent SIGTERM, then SIGKILL if any of it is left
    after TERM_GRACE seconds; a group already gone is fine. Without, its process alone is killed."""
    if group and _signal_group(process.pid, signal.SIGTERM):
        deadline = time.monotonic() + TERM_GRACE
        _reap(process, TERM_GRACE)
        while _signal_group(process.pid, 0):  # (what it started may outlive it)
            if time.monotonic() >= deadline:
                _signal_group(process.pid, signal.SIGKILL)
                break
            time.sleep(0.02)
    if process.poll() is None:
        process.kill()
    _reap(process, KILL_WAIT)


def _signal_group(group: int, number: int) -> bool:
    """Send a signal to a process group (0: none, only ask whether it is there); False if it has
    gone (or is not ours to signal)."""
    try:
        os.killpg(group, number)
    except (ProcessLookupError, PermissionError):
        return False
    return True


def _reap(process: subprocess.Popen[str], seconds: float) -> None:
    try:
        process.wait(seconds)
    except subprocess.TimeoutExpired:
        pass

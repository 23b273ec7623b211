"""Balance at a glance: a small balance run of a card, started from the page, its report shown.

The run is `santorini balance` itself, in a process of its own (so that its games never hold up
the server's other requests), with its folder in the server's temporary folder. Its settings are
checked here first (`make_plan`: a card the pack lacks, an agent that does not exist, say so at
once), and bounded: a page asks for a glance, not a verdict. The progress is read from the run's
store as its games arrive; the report (HTML, with its plots where matplotlib is installed) is
served from the run's folder when the process has written it.
"""

from __future__ import annotations

import secrets
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import threading
import weakref
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path

from ..interpreter.agents.registry import parse_agent_spec
from ..interpreter.balance.plan import ALL
from ..interpreter.balance.run import make_plan
from .tables import NotHere, WebError

#: The most games per seat order a page may ask for, and the agents it may use.
MOST_GAMES = 20
AGENTS = ("random", "greedy", "mcts")
MOST_ITERATIONS = 100
#: The most runs one server keeps (the oldest removed, stopped if it still runs).
MOST_RUNS = 8
#: The run's files a page may read: the report and its pictures.
SERVED = (".html", ".png", ".csv")


class RunState(str, Enum):
    """Where a balance run stands, as the page reads it."""

    RUNNING = "running"
    DONE = "done"
    FAILED = "failed"


@dataclass
class Run:
    """One balance run: its process, its folder, how many games it plays."""

    id: str
    folder: Path
    total: int
    process: subprocess.Popen[bytes]
    card: str
    log: Path = field(init=False)

    def __post_init__(self) -> None:
        self.log = self.folder / "run.log"

    def status(self) -> dict[str, object]:
        """Where the run stands: running, done (with its report) or failed (with why)."""
        code = self.process.poll()
        played = self._played()
        report = self.folder / "report.html"
        if code is None:
            state, error = RunState.RUNNING, None
        elif code == 0 and report.is_file():
            state, error = RunState.DONE, None
        else:
            state, error = RunState.FAILED, self._last_line() or f"the run stopped (exit code {code})"
        return {"id": self.id, "card": self.card, "state": state.value, "played": played, "total": self.total,
                "error": error, "report": report.name if state is RunState.DONE else None}

    def _played(self) -> int:
        store = self.folder / "results.sqlite"
        if not store.is_file():
            return 0
        try:
            with sqlite3.connect(f"file:{store}?mode=ro", uri=True, timeout=1) as connection:
                (count,) = connection.execute("SELECT COUNT(*) FROM games").fetchone()
        except sqlite3.Error:
            return 0  # (the store is being made)
        return int(count)

    def _last_line(self) -> str | None:
        try:
            lines = [line.strip() for line in self.log.read_text(encoding="utf-8", errors="replace").splitlines()]
        except OSError:
            return None
        said = [line for line in lines if line]
        return said[-1] if said else None

    def file(self, name: str) -> Path:
        """A file of the run's report; WebError for any other name."""
        path = self.folder / name
        if "/" in name or "\\" in name or not name.endswith(SERVED) or not path.is_file():
            raise NotHere(f"the run has no file '{name}'")
        return path


class BalanceRuns:
    """The balance runs started from the server's pages, by id."""

    def __init__(self, most: int = MOST_RUNS) -> None:
        self._root = Path(tempfile.mkdtemp(prefix="santorini-balance-"))
        self._finalizer = weakref.finalize(self, _remove, self._root, [])
        self._runs: OrderedDict[str, Run] = OrderedDict()
        self._most = most
        self._lock = threading.Lock()

    def start(self, pack: str, card: str, against: Sequence[str], games: int, agent: str) -> Run:
        """Start a run of `card` (of `pack`: a shipped pack's name or an author's pack folder)
        against `against` (or every card: empty), `games` per seat order, played by `agent`."""
        if not 1 <= games <= MOST_GAMES:
            raise WebError(f"a run from the page plays 1 to {MOST_GAMES} games per seat order; not {games}")
        spec = parse_agent_spec(agent)
        if spec.kind not in AGENTS or (spec.kind == "mcts" and spec.iterations > MOST_ITERATIONS):
            raise WebError(f"a run from the page is played by random, greedy or mcts:N up to mcts:{MOST_ITERATIONS}; "
                           f"not {agent!r}")
        opponents = [name for name in against if name.strip()] or [ALL]
        plan = make_plan(pack, [card], opponents, False, games, agent, 1, 300)
        run_id = secrets.token_hex(6)
        folder = self._root / run_id
        folder.mkdir()
        command = [sys.executable, "-m", "santorini", "balance", "--pack", pack, "--gods", card,
                   "--against", ",".join(opponents), "--games", str(games), "--agent", agent, "--jobs", "1",
                   "--out", str(folder), "--html", "--quiet", "--yes"]
        with open(folder / "run.log", "wb") as log:
            process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT)
        run = Run(run_id, folder, len(plan.tasks), process, card)
        with self._lock:
            self._runs[run_id] = run
            self._finalizer.detach()
            self._finalizer = weakref.finalize(self, _remove, self._root, [r.process for r in self._runs.values()])
            while len(self._runs) > self._most:
                _, old = self._runs.popitem(last=False)
                _stop(old.process)
                shutil.rmtree(old.folder, ignore_errors=True)
        return run

    def get(self, run_id: str) -> Run:
        with self._lock:
            run = self._runs.get(run_id)
        if run is None:
            raise NotHere(f"no balance run '{run_id}' here")
        return run

    def close(self) -> None:
        """Stop every run and remove their folders."""
        self._finalizer()


def _stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()


def _remove(root: Path, processes: list[subprocess.Popen[bytes]]) -> None:
    for process in processes:
        _stop(process)
    shutil.rmtree(root, ignore_errors=True)


__all__ = ["MOST_GAMES", "MOST_ITERATIONS", "MOST_RUNS", "BalanceRuns", "Run", "RunState"]

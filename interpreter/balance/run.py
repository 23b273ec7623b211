"""A balance run from start to end: plan, skip what the store has, play the rest, store it.

The command line (cli/balance.py) and the scaling benchmark (benchmarks/balance_scaling.py) both
run through `run_balance`, so that what is measured is what users run.

Before a long run, the command wants to say how long it will take. Game costs differ by agent and
by matchup far too much for a table of figures, so the run measures: it plays a few of its own
games in this process (a sample spread over the matchups), stores them like any other, and
extrapolates to the games left and the processes that will play them (`Estimate`). The sample
games are games of the plan, seeded as always: a run with an estimate stores what a run without
one stores, byte for byte.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Sequence
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path

from ..agents.external import SHOW, BotStderr
from ..games.packs import resolve_pack
from .backends import Backend, Play, play_batches
from .plan import (
    ALL,
    MAX_TURNS,
    SEED_MAX,
    SEED_MIN,
    PlanError,
    RunSpec,
    Task,
    canonical_agent,
    card_name,
    pack_digest,
    pack_ref,
    plan_matchups,
    plan_tasks,
)
from .records import GameResult, Matchup
from .runner import batch_size, batches, play_batch, play_game, prepare
from .store import Store, open_store

#: The sample an estimate is measured on: at most SAMPLE_GAMES games, and none started once
#: SAMPLE_SECONDS have passed (one at least is played). A few seconds of one core: nothing beside a
#: run long enough to need an estimate (and its games count), and a dozen matchups of a cheap agent
#: (game costs vary by matchup, and by game: one game is a poor sample).
SAMPLE_GAMES = 12
SAMPLE_SECONDS = 5.0

#: The clock the sample is timed by (a test puts a clock of its own here to fix the measured rate).
sample_clock: Callable[[], float] = time.perf_counter


@dataclass(frozen=True)
class Estimate:
    """How long the games left will take, extrapolated from a sample of the run's games played in
    this process: each game at the sample's mean time, `workers` at once, plus loading each
    matchup's rules (every worker loads the matchups it plays, at the same time as the others)."""

    #: Games left to play after the sample, and their matchups.
    games: int
    matchups: int
    #: Games played (and stored) to measure, their mean seconds in this process, and the mean
    #: seconds to load a matchup's rules, measured apart (a worker does it once per matchup).
    sampled: int
    seconds_per_game: float
    seconds_per_matchup: float
    #: Processes that will play the games at once (the cores they get, at most); None: not known
    #: here (a Ray cluster), and `seconds` is then the time on one core.
    workers: int | None

    @property
    def at_once(self) -> int:
        """Games played at the same time: the workers, at most one per game left (1 if unknown)."""
        return max(1, min(self.workers or 1, self.games))

    @property
    def seconds(self) -> float:
        """The estimated wall-clock seconds of the games left."""
        if not self.games:
            return 0.0
        return self.games * self.seconds_per_game / self.at_once + self.matchups * self.seconds_per_matchup


@dataclass(frozen=True)
class Plan:
    """A run's identity and its games."""

    spec: RunSpec
    matchups: list[Matchup]
    tasks: list[Task]


@dataclass(frozen=True)
class Outcome:
    """What a run did: games found in the store, games played now, and every result stored."""

    planned: int
    stored_before: int
    played: int
    seconds: float
    results: list[GameResult]

    @property
    def rate(self) -> float:
        """Games played per second of this call (0 when nothing was played)."""
        return self.played / self.seconds if self.played and self.seconds > 0 else 0.0


def make_plan(pack_name: str, gods: Sequence[str], against: Sequence[str], matrix: bool, games: int,
              agent: str, seed: int, max_turns: int) -> Plan:
    """Check every setting and list the run's games (errors are SantoriniError, one line each)."""
    if not 1 <= max_turns <= MAX_TURNS:
        raise PlanError(f"--max-turns is from 1 to {MAX_TURNS}; found {max_turns}")
    if not SEED_MIN <= seed <= SEED_MAX:
        raise PlanError(f"--seed is a 64-bit integer, from {SEED_MIN} to {SEED_MAX} (what the store can keep); "
                        f"found {seed}")
    if matrix and (gods or [a.lower() for a in against] not in ([], [ALL])):
        raise PlanError("--matrix plays every pair of the pack: give it without --gods and --against")
    agent = canonical_agent(agent)
    ref = pack_ref(pack_name)
    pack = resolve_pack(ref)
    matchups = plan_matchups(pack, gods, against or (ALL,), matrix)
    tasks = plan_tasks(matchups, games, seed)
    named: tuple[str, ...]
    if matrix:
        cards, named = tuple(dict.fromkeys(name for m in matchups for name in (m.first, m.second))), ()
    else:
        cards = tuple(dict.fromkeys(card_name(pack, name) for name in gods))
        every = [a.lower() for a in against] in ([], [ALL])
        named = (ALL,) if every else tuple(dict.fromkeys(card_name(pack, name) for name in against))
    spec = RunSpec(pack=ref, pack_digest=pack_digest(pack), agent=agent, seed=seed, games=games,
                   gods=cards, against=named, matrix=matrix, max_turns=max_turns)
    return Plan(spec, matchups, tasks)


def run_balance(plan: Plan, out_dir: Path, backend: Backend = Backend.LOCAL, jobs: int = 1,
                address: str | None = None, batch: int | None = None,
                on_start: Callable[[int, int], None] | None = None,
                on_results: Callable[[list[GameResult]], None] | None = None, play: Play = play_batch, *,
                on_estimate: Callable[[Estimate], None] | None = None, bot_stderr: BotStderr = SHOW) -> Outcome:
    """Play the plan's games that `out_dir`'s store lacks, storing each batch as it comes back.

    `on_start(stored, to_play)` hears what is left before play starts; with `on_estimate`, a
    sample of those games is then played here and stored, and `on_estimate(estimate)` hears how
    long the rest should take (it may raise to stop the run: the sample stays stored);
    `on_results(batch)` hears of each batch stored after that; `play` plays a batch in a worker
    (runner.play_batch; a benchmark wraps it). An external bot's standard error goes where
    `bot_stderr` says. A store of another run is refused (StoreError) before anything is played.
    An interrupt (Ctrl-C) stops the workers at once; the batches stored before it stay stored."""
    with open_store(out_dir) as store:
        store.claim(plan.spec)
        done = store.done()
        missing = [task for task in plan.tasks if task.key not in done]
        stored = len(plan.tasks) - len(missing)
        to_play = len(missing)
        if on_start:
            on_start(stored, to_play)
        spec = plan.spec
        start = time.perf_counter()
        sample: Sample | None = None
        if on_estimate is not None and missing:
            sample = play_sample(store, plan, missing, bot_stderr)
            played = {(result.matchup.key, result.index) for result in sample.results}
            missing = [task for task in missing if task.key not in played]
        size = batch or batch_size(len(missing), jobs)
        work = batches(missing, size, spec.pack, spec.agent, spec.max_turns, spec.pack_digest, bot_stderr)
        if on_estimate is not None and sample is not None:
            on_estimate(sample.estimate(missing, _workers(backend, jobs, address, len(work))))
        with closing(play_batches(work, backend, jobs, address, play)) as finished:  # (closed: the pool stops)
            for results in finished:
                store.add(results)
                if on_results:
                    on_results(results)
        seconds = time.perf_counter() - start
        planned = {task.key for task in plan.tasks}
        results = [r for r in store.results() if (r.matchup.key, r.index) in planned]
    return Outcome(len(plan.tasks), stored, to_play, seconds, results)


@dataclass(frozen=True)
class Sample:
    """The games a run played in this process to measure itself, and what they took."""

    results: list[GameResult]
    game_seconds: float
    #: Matchups whose rules were loaded for the sample, and the seconds that took.
    matchups: int
    matchup_seconds: float

    def estimate(self, left: Sequence[Task], workers: int | None) -> Estimate:
        """The estimate for the games `left` after the sample, played `workers` at once."""
        count = max(1, len(self.results))
        return Estimate(games=len(left), matchups=len({task.matchup for task in left}), sampled=len(self.results),
                        seconds_per_game=self.game_seconds / count,
                        seconds_per_matchup=self.matchup_seconds / max(1, self.matchups), workers=workers)


def sample_tasks(missing: Sequence[Task], most: int = SAMPLE_GAMES) -> list[Task]:
    """Up to `most` of the games left, to time: spread over the matchups, since their costs
    differ (one game of each of `most` matchups evenly spaced in the plan; with fewer matchups
    than that, each one's first game, then each one's second, and so on)."""
    by_matchup: dict[Matchup, list[Task]] = {}
    for task in missing:
        by_matchup.setdefault(task.matchup, []).append(task)
    groups = list(by_matchup.values())
    if len(groups) >= most:
        return [groups[i * len(groups) // most][0] for i in range(most)]
    chosen: list[Task] = []
    for rank in range(max((len(group) for group in groups), default=0)):
        chosen += [group[rank] for group in groups if rank < len(group)]
    return chosen[:most]


def play_sample(store: Store, plan: Plan, missing: Sequence[Task], bot_stderr: BotStderr = SHOW) -> Sample:
    """Play the sample games in this process, one by one (at least one; none started after
    SAMPLE_SECONDS), storing each as it ends, timing the games and the loading of their matchups
    apart (by `sample_clock`)."""
    spec = plan.spec
    results: list[GameResult] = []
    game_seconds = matchup_seconds = 0.0
    loaded: set[Matchup] = set()
    began = sample_clock()
    for task in sample_tasks(missing):
        if results and sample_clock() - began >= SAMPLE_SECONDS:
            break
        if task.matchup not in loaded:
            before = sample_clock()
            prepare(spec.pack, task.matchup)
            matchup_seconds += sample_clock() - before
            loaded.add(task.matchup)
        before = sample_clock()
        result = play_game(spec.pack, task, spec.agent, spec.max_turns, bot_stderr)
        game_seconds += sample_clock() - before
        store.add([result])
        results.append(result)
    return Sample(results, game_seconds, len(loaded), matchup_seconds)


def _workers(backend: Backend, jobs: int, address: str | None, batch_count: int) -> int | None:
    """How many processes will play at once: the jobs, no more than this machine's cores (on it)
    or the batches; None for a Ray cluster, whose size is known only once it is reached."""
    if address is not None:
        return None
    if backend is Backend.LOCAL and (jobs <= 1 or batch_count <= 1):
        return 1  # (played in this process)
    return max(1, min(jobs, os.cpu_count() or 1, batch_count))

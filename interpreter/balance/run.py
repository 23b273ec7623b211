"""A balance run from start to end: plan, skip what the store has, play the rest, store it.

The command line (cli/balance.py) and the scaling benchmark (benchmarks/balance_scaling.py) both
run through `run_balance`, so that what is measured is what users run.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

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
from .runner import batch_size, batches, play_batch
from .store import open_store


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
                on_results: Callable[[list[GameResult]], None] | None = None, play: Play = play_batch) -> Outcome:
    """Play the plan's games that `out_dir`'s store lacks, storing each batch as it comes back.

    `on_start(stored, to_play)` hears what is left before play starts; `on_results(batch)` hears
    of each batch stored; `play` plays a batch in a worker (runner.play_batch; a benchmark wraps it).
    A store of another run is refused (StoreError) before anything is played."""
    with open_store(out_dir) as store:
        store.claim(plan.spec)
        done = store.done()
        missing = [task for task in plan.tasks if task.key not in done]
        stored = len(plan.tasks) - len(missing)
        if on_start:
            on_start(stored, len(missing))
        spec = plan.spec
        size = batch or batch_size(len(missing), jobs)
        work = batches(missing, size, spec.pack, spec.agent, spec.max_turns, spec.pack_digest)
        start = time.perf_counter()
        for results in play_batches(work, backend, jobs, address, play):
            store.add(results)
            if on_results:
                on_results(results)
        seconds = time.perf_counter() - start
        planned = {task.key for task in plan.tasks}
        results = [r for r in store.results() if (r.matchup.key, r.index) in planned]
    return Outcome(len(plan.tasks), stored, len(missing), seconds, results)

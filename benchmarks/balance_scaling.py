"""How a balance run scales: games/s with one process, a local pool, and Ray, on the same plan.

Each configuration plays the same plan into a fresh store (so every game is played), through
`run_balance`, as `santorini balance` does. Ray is started before its clock starts, and its
start-up time is reported apart: a long run pays it once. The script also prints what one task
moves (a pickled batch in, its results out) and how the agent's seconds per game come about.

    python benchmarks/balance_scaling.py                                   # mcts:50, Mortal v 4 gods
    python benchmarks/balance_scaling.py --agent greedy --games 40
    python benchmarks/balance_scaling.py --configs local:1 local:2 ray:2 --rounds 2
    python benchmarks/balance_scaling.py --agent mcts:400 --against Mortal --games 3 --configs local:1

Run it from the repository with the package installed (`pip install -e '.[ray]'`). No test runs it:
timings depend on the machine and on what else runs on it; docs/performance.md keeps the figures.
"""

from __future__ import annotations

import argparse
import os
import pickle
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path

from santorini.interpreter.balance.backends import Backend
from santorini.interpreter.balance.plan import split_names
from santorini.interpreter.balance.run import Plan, make_plan, run_balance
from santorini.interpreter.balance.records import GameResult
from santorini.interpreter.balance.runner import Batch, batch_size, batches, play_batch


PLIES: list[float] = []


class TimedResults(list):
    """A batch's results, with the CPU seconds its worker spent on them."""

    cpu: float = 0.0


def timed_play_batch(batch: Batch) -> list[GameResult]:
    """runner.play_batch, timed in the worker by its own CPU clock (which does not count the time
    other programs took the CPU away: on a loaded machine it shows what the pool itself costs)."""
    start = time.process_time()
    results = TimedResults(play_batch(batch))
    results.cpu = time.process_time() - start
    return results


def measure(plan: Plan, backend: Backend, jobs: int, batch: int | None) -> tuple[float, float, float]:
    """(games/s, seconds, workers' CPU seconds per game) of one run of the whole plan into a
    fresh folder; notes the games' mean length (plies) in PLIES."""
    cpu = []
    with tempfile.TemporaryDirectory(prefix="balance-scaling-") as folder:
        outcome = run_balance(plan, Path(folder), backend, jobs, batch=batch, play=timed_play_batch,
                              on_results=lambda results: cpu.append(results.cpu))
    assert outcome.played == len(plan.tasks)
    PLIES.append(statistics.fmean(r.turns for r in outcome.results))
    return outcome.rate, outcome.seconds, sum(cpu) / outcome.played


def start_ray(jobs: int) -> float:
    """Start a local Ray of `jobs` CPUs and warm its workers up; the seconds it took."""
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    import ray
    start = time.perf_counter()
    ray.init(num_cpus=jobs, include_dashboard=False, log_to_driver=False, configure_logging=False)
    return time.perf_counter() - start


def task_bytes(plan: Plan, size: int) -> tuple[int, int]:
    """Bytes of one pickled batch of `size` games, and of its pickled results."""
    batch = batches(plan.tasks[:size], size, plan.spec.pack, plan.spec.agent, plan.spec.max_turns)[0]
    return len(pickle.dumps(batch)), len(pickle.dumps(play_batch(batch)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pack", default="bga")
    parser.add_argument("--gods", default="Mortal", help="cards under test, comma-separated")
    parser.add_argument("--against", default="Apollo,Athena,Pan,Minotaur")
    parser.add_argument("--games", type=int, default=16, help="games per seat order")
    parser.add_argument("--agent", default="mcts:50")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--max-turns", type=int, default=300)
    parser.add_argument("--batch", type=int, default=None, help="games per task (default: as the command)")
    parser.add_argument("--configs", nargs="+", default=["local:1", "local:2", "ray:2"],
                        help="BACKEND:JOBS, in the order to run them")
    parser.add_argument("--rounds", type=int, default=1, help="runs of each configuration; the median is shown")
    args = parser.parse_args()

    plan = make_plan(args.pack, split_names(args.gods), split_names(args.against), False, args.games, args.agent,
                     args.seed, args.max_turns)
    print(f"# {time.strftime('%Y-%m-%d %H:%M')}, {platform.processor() or platform.machine()}, "
          f"{os.cpu_count()} CPUs, Python {platform.python_version()}, {sys.platform}")
    print(f"# plan: {len(plan.matchups)} matchups x {args.games} games = {len(plan.tasks)} games; "
          f"pack {args.pack}, agent {plan.spec.agent}, {args.gods} v {args.against}")
    figures: dict[str, list[float]] = {}
    cpu_figures: dict[str, list[float]] = {}
    ray_start, ray_jobs = None, 0
    for round_ in range(args.rounds):
        for config in args.configs:
            name, _, jobs_text = config.partition(":")
            backend, jobs = Backend(name), int(jobs_text or 1)
            if backend is Backend.RAY and ray_start is None:
                ray_start, ray_jobs = start_ray(jobs), jobs
            rate, seconds, cpu = measure(plan, backend, jobs, args.batch)
            figures.setdefault(config, []).append(rate)
            cpu_figures.setdefault(config, []).append(cpu)
            print(f"round {round_ + 1} {config}: {rate:.2f} games/s ({seconds:.1f} s; {cpu:.3f} CPU s a game in "
                  f"the workers; load average {os.getloadavg()[0]:.1f})", flush=True)
    base = statistics.median(figures[args.configs[0]])
    base_cpu = statistics.median(cpu_figures[args.configs[0]])
    print("\n| backend | workers | games | games/s | speed-up | efficiency | CPU s a game | per-worker rate kept |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for config, rates in figures.items():
        name, _, jobs_text = config.partition(":")
        jobs = int(jobs_text or 1)
        rate, cpu = statistics.median(rates), statistics.median(cpu_figures[config])
        print(f"| {name} | {jobs} | {len(plan.tasks)} | {rate:.2f} | {rate / base:.2f} | {rate / base / jobs:.0%} "
              f"| {cpu:.3f} | {base_cpu / cpu:.0%} |")
    if ray_start is not None:
        print(f"\nRay start-up (ray.init with {ray_jobs} CPUs, not in the figures above): {ray_start:.1f} s")
        import ray
        ray.shutdown()
    size = args.batch or batch_size(len(plan.tasks), 2)
    sent, back = task_bytes(plan, size)
    print(f"one task of {size} games: {sent} bytes in (pickled batch), {back} bytes out (its results)")
    print(f"seconds per game, one process: {1 / base:.3f} wall, {base_cpu:.3f} CPU; "
          f"{PLIES[0]:.1f} plies a game, so {base_cpu / PLIES[0] * 1000:.1f} ms of CPU a move")


if __name__ == "__main__":
    main()

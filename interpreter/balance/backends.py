"""Where batches are played: in this process, in a local pool of processes, or on Ray.

Every backend takes the same batches (runner.Batch) and yields each batch's results as soon as it
is done, in whatever order batches finish; the parent stores them. Since a game depends only on
its batch entry, the stored results are the same whatever played them.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from enum import Enum

from ...dsl.errors import SantoriniError
from .records import GameResult
from .runner import Batch, play_batch

#: Batches kept in flight per worker: enough that no worker waits, few enough that a stop loses little.
IN_FLIGHT_PER_WORKER = 2


class Backend(str, Enum):
    """The engines that can play a run's batches."""

    LOCAL = "local"
    RAY = "ray"


class BackendError(SantoriniError):
    """A backend that cannot run: Ray missing, a cluster that cannot be reached."""


def default_jobs() -> int:
    return os.cpu_count() or 1


#: What plays one batch in a worker: runner.play_batch, or a wrapper of it (a benchmark times it).
Play = Callable[[Batch], list[GameResult]]


def play_batches(batches: Sequence[Batch], backend: Backend, jobs: int, address: str | None = None,
                 play: Play = play_batch) -> Iterator[list[GameResult]]:
    """Each batch's results, as batches finish."""
    if backend is Backend.RAY:
        return _ray(batches, jobs, address, play)
    if address is not None:
        raise BackendError("--address names a Ray cluster; it needs --backend ray")
    if jobs <= 1 or len(batches) <= 1:
        return (play(batch) for batch in batches)
    return _pool(batches, jobs, play)


def _pool(batches: Sequence[Batch], jobs: int, play: Play) -> Iterator[list[GameResult]]:
    """A local pool of `jobs` processes, each keeping its packs and compiled games between
    batches. Processes start from a clean interpreter (forkserver, else spawn), not from a fork
    of a parent that runs a progress bar's thread and holds the store open."""
    method = "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else "spawn"
    context = multiprocessing.get_context(method)
    pending = iter(batches)
    with ProcessPoolExecutor(max_workers=jobs, mp_context=context) as pool:
        running: set[Future[list[GameResult]]] = set()
        try:
            while True:
                while len(running) < jobs * IN_FLIGHT_PER_WORKER:
                    batch = next(pending, None)
                    if batch is None:
                        break
                    running.add(pool.submit(play, batch))
                if not running:
                    return
                done, running = wait(running, return_when=FIRST_COMPLETED)
                for future in done:
                    yield future.result()
        except BrokenProcessPool:
            raise BackendError("a worker process died (killed, or out of memory); the games stored so far are "
                               "kept: run the same command again to play the rest") from None
        finally:
            for future in running:
                future.cancel()


def _ray(batches: Sequence[Batch], jobs: int, address: str | None, play: Play) -> Iterator[list[GameResult]]:
    """The batches as Ray tasks: on a local Ray started with `jobs` CPUs, or on the cluster at
    `address`. Ray's worker processes are kept between tasks, so each loads a pack once too."""
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")  # no network call home (there may be no network)
    try:
        import ray
    except ImportError:
        raise BackendError("--backend ray needs Ray: pip install 'santorini-rules[ray]'") from None
    started = not ray.is_initialized()
    if started:
        try:
            if address is not None:
                ray.init(address=address, log_to_driver=False)
            else:
                ray.init(num_cpus=jobs, include_dashboard=False, log_to_driver=False, configure_logging=False)
        except ConnectionError as err:
            raise BackendError(f"cannot reach the Ray cluster at {address}: {err}") from None
    try:
        task = ray.remote(num_cpus=1)(play)
        pending = iter(batches)
        workers = jobs if address is None else int(ray.cluster_resources().get("CPU", jobs))
        limit = max(1, workers) * IN_FLIGHT_PER_WORKER
        running: list[ray.ObjectRef[list[GameResult]]] = []
        while True:
            while len(running) < limit:
                batch = next(pending, None)
                if batch is None:
                    break
                running.append(task.remote(batch))
            if not running:
                return
            done, running = ray.wait(running, num_returns=1)
            for ref in done:
                yield ray.get(ref)
    finally:
        if started:
            ray.shutdown()

"""Where batches are played: in this process, in a local pool of processes, or on Ray.

Every backend takes the same batches (runner.Batch) and yields each batch's results as soon as it
is done, in whatever order batches finish; the parent stores them. Since a game depends only on
its batch entry, the stored results are the same whatever played them.

Stopping (Ctrl-C): the parent alone handles SIGINT. A local pool's workers ignore it (a terminal
sends it to the whole process group), so that none prints a KeyboardInterrupt traceback; when the
parent is interrupted, or stops reading the results, the pool's workers are terminated at once
rather than waited for (a batch can take minutes), and each kills the bots it runs as it goes.
What the parent stored before stays stored.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable, Generator, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from enum import Enum
from types import FrameType

from ...dsl.errors import SantoriniError
from .records import GameResult
from .runner import Batch, play_batch

#: Batches kept in flight per worker: enough that no worker waits, few enough that a stop loses little.
IN_FLIGHT_PER_WORKER = 2
#: Seconds terminated workers have to exit (they kill their bots first) before they are killed.
STOP_GRACE = 3.0


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


#: Each batch's results as batches finish. Close it (contextlib.closing, around the loop that reads
#: it) to stop at once: a local pool's workers are then terminated, not waited for.
Results = Generator[list[GameResult], None, None]


def play_batches(batches: Sequence[Batch], backend: Backend, jobs: int, address: str | None = None,
                 play: Play = play_batch) -> Results:
    """Each batch's results, as batches finish."""
    if backend is Backend.RAY:
        return _ray(batches, jobs, address, play)
    if address is not None:
        raise BackendError("--address names a Ray cluster; it needs --backend ray")
    if jobs <= 1 or len(batches) <= 1:
        return (play(batch) for batch in batches)
    return _pool(batches, jobs, play)


def _pool(batches: Sequence[Batch], jobs: int, play: Play) -> Results:
    """A local pool of `jobs` processes, each keeping its packs and compiled games between
    batches. Processes start from a clean interpreter (forkserver, else spawn), not from a fork
    of a parent that runs a progress bar's thread and holds the store open. They ignore SIGINT;
    an interrupt of the parent (or the parent closing this generator) terminates them."""
    method = "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else "spawn"
    context = multiprocessing.get_context(method)
    pending = iter(batches)
    with ProcessPoolExecutor(max_workers=jobs, mp_context=context, initializer=worker_start) as pool:
        running: set[Future[list[GameResult]]] = set()
        try:
            while True:
                while len(running) < jobs * IN_FLIGHT_PER_WORKER:
                    batch = next(pending, None)
                    if batch is None:
                        break
                    with _sigint_held():  # (a submit may start a worker: it starts with SIGINT held)
                        running.add(pool.submit(play, batch))
                if not running:
                    return
                done, running = wait(running, return_when=FIRST_COMPLETED)
                for future in done:
                    yield future.result()
        except BrokenProcessPool:
            raise BackendError("a worker process died (killed, or out of memory); the games stored so far are "
                               "kept: run the same command again to play the rest") from None
        except BaseException:  # interrupted, a batch failed, or the caller stopped reading: wait for no batch
            stop_pool(pool)
            raise
        finally:
            for future in running:
                future.cancel()


@contextmanager
def _sigint_held() -> Iterator[None]:
    """SIGINT held back (blocked) in this thread for the block, where pool workers are started: a
    process started then inherits it blocked, so that it cannot be interrupted before
    `worker_start` ignores it (the forkserver, and the workers it forks, keep the mask they start
    with). A Ctrl-C meanwhile is delivered to this process when the block ends. (Not on Windows,
    which has no signal masks: there `worker_start` alone ignores it.)"""
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def worker_start() -> None:
    """Set up a pool worker: SIGINT ignored (the parent handles Ctrl-C, and stops the pool), and
    SIGTERM (the parent stopping the pool) kills the bots the worker runs before it exits."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _terminated)


def _terminated(number: int, frame: FrameType | None) -> None:
    """A worker told to stop: its bots are killed (they run in sessions of their own, so nothing
    else would stop them), and it exits at once, as SIGTERM's default would."""
    from ..agents.external import stop_all_bots
    try:
        stop_all_bots()
    finally:
        os._exit(128 + number)


def stop_pool(pool: ProcessPoolExecutor) -> None:
    """Stop a pool now: its batches not started are cancelled, its workers terminated (killed if
    they have not exited after STOP_GRACE seconds) and reaped. A second Ctrl-C meanwhile is
    ignored, so that the stop is not itself interrupted half way."""
    workers = list((getattr(pool, "_processes", None) or {}).values())  # (Python 3.14 has terminate_workers)
    # (the first shutdown forgets the pool's manager thread, so the second cannot wait for it: it is
    # joined here, else it may still be closing its wakeup pipe when the interpreter's exit hook
    # writes to that pipe, and the exit prints "OSError: Bad file descriptor")
    manager: threading.Thread | None = getattr(pool, "_executor_manager_thread", None)
    previous = _ignore_sigint()
    try:
        pool.shutdown(wait=False, cancel_futures=True)
        for worker in workers:
            worker.terminate()
        deadline = time.monotonic() + STOP_GRACE
        for worker in workers:
            worker.join(max(0.0, deadline - time.monotonic()))
            if worker.is_alive():
                worker.kill()
                worker.join()
        pool.shutdown(wait=True)
        if manager is not None:
            manager.join()  # (it sees the workers gone, and ends)
    finally:
        if previous is not None:
            signal.signal(signal.SIGINT, previous)


def _ignore_sigint() -> Callable[[int, FrameType | None], object] | int | None:
    """Ignore SIGINT in this process, returning the handler it had (None: not the main thread,
    where handlers cannot be changed, or a handler not set from Python)."""
    try:
        return signal.signal(signal.SIGINT, signal.SIG_IGN)
    except ValueError:
        return None


def _ray(batches: Sequence[Batch], jobs: int, address: str | None, play: Play) -> Results:
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

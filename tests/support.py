"""Helpers shared by the tests: where the test data lives, S0 positions, and how a test bounds
the work it checks without reading a clock (no test asserts a wall-clock time)."""

from __future__ import annotations

import signal
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FrameType
from typing import TypeVar

import pytest
import yaml

REPO = Path(__file__).resolve().parents[1]
SCENARIOS = REPO / "tests" / "scenarios"
PACKS = ("bga", "pantheon", "first-edition")


def s0_text(pack: str, players: list[str], to_move: str = "A") -> str:
    """S0: empty board, A on b3 and d3, B on c4 and c2."""
    return yaml.safe_dump({
        "name": f"S0 {' v '.join(players)}", "edition": pack, "players": players, "to_move": to_move,
        "board": "0 0 0 0 0\n" * 5, "workers": {"A1": "b3", "A2": "d3", "B1": "c4", "B2": "c2"},
    })


T = TypeVar("T")


class OverBudget(BaseException):
    """Raised inside the code under test once it has made more calls than its budget (a
    BaseException, so that no `except Exception` in that code swallows it)."""


def counted_calls(work: Callable[[], T], budget: int) -> tuple[T, int]:
    """`work()`'s result and the number of Python function calls it made (as sys.setprofile counts
    them: every call of a Python function, generator resumptions included): a count that depends
    on the input only, never on the machine's speed. Past `budget` calls the work is stopped and
    the test fails, so that code that loops in Python fails at once instead of hanging."""
    count = 0

    def profile(frame: FrameType, event: str, arg: object) -> None:
        nonlocal count
        if event == "call":
            count += 1
            if count == budget + 1:  # (once: the calls that handle it go on being counted)
                raise OverBudget(f"more than {budget:,} calls")
    previous = sys.getprofile()
    sys.setprofile(profile)
    try:
        result = work()
    except OverBudget:
        pytest.fail(f"the work made more than {budget:,} Python calls: it is not bounded")
    finally:
        sys.setprofile(previous)
    return result, count


#: Seconds before work that blocks inside C (a device, a pipe) counts as hung: far longer than
#: any such test takes on a busy machine, so that it fires only on a real hang.
HANG_SECONDS = 60


@contextmanager
def hang_guard(seconds: int = HANG_SECONDS) -> Iterator[None]:
    """Fail, instead of hanging, if the block has not ended after `seconds` (SIGALRM): for what
    blocks inside C, where no call can be counted. Not a measure of speed: it fires only on a real
    hang."""
    def hung(signum: int, frame: FrameType | None) -> None:
        raise TimeoutError(f"hung for {seconds} s")
    previous = signal.signal(signal.SIGALRM, hung)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)

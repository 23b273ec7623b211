"""Progress bars for long runs (perft at depth 4 and more, bench, long scenario folders).

Bars go to standard error, and only when it is a terminal: output sent to a pipe or a file stays
plain and stable (scenario and perft lines keep the format of the spec).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TaskProgressColumn,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.text import Text


class _Rate(ProgressColumn):
    """Steps per second, once there is a rate to show."""

    def __init__(self, unit: str) -> None:
        super().__init__()
        self.unit = unit

    def render(self, task: Task) -> Text:
        return Text("" if task.speed is None else f"{task.speed:,.1f} {self.unit}/s")


def showing() -> bool:
    """Whether progress is shown: standard error is a terminal."""
    return sys.stderr.isatty()


@contextmanager
def progress(description: str, total: float, unit: str = "") -> Iterator[Callable[[float], None]]:
    """A bar of `total` steps with its rate and time left; yields `advance(steps)`. Shows nothing
    when standard error is not a terminal."""
    if not showing():
        yield lambda steps: None
        return
    count = MofNCompleteColumn() if float(total).is_integer() else TaskProgressColumn()
    columns = [TextColumn("{task.description}"), BarColumn(), count, _Rate(unit), TimeElapsedColumn(),
               TextColumn("left"), TimeRemainingColumn()]
    with Progress(*columns, console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task(description, total=total)
        yield lambda steps: bar.advance(task, steps)

"""The pictures of a balance report, as PNG files (matplotlib, drawn off screen).

Figures are built on matplotlib's object interface with the Agg canvas, never pyplot: no window,
no global state shared with a caller that plots too, and no backend to choose. PNGs are written
without the 'Software' tag (matplotlib's version), so the same figures give the same bytes.
matplotlib is imported when a picture is drawn, not when the package loads: the command line
starts faster, and the statistics work without it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from ...dsl.errors import SantoriniError
from .records import EndKind, GameResult
from .stats import BAND, OpponentRow

if TYPE_CHECKING:
    from matplotlib.figure import Figure

__all__ = ["PlotError", "heat_map", "length_histogram", "win_rate_plot"]

#: Colours of the end kinds, in the enum's order (matplotlib's default cycle).
END_COLOURS = ("tab:blue", "tab:orange", "tab:red", "tab:gray")
DPI = 100


class PlotError(SantoriniError):
    """A picture could not be drawn (matplotlib missing)."""


def _figure(width: float, height: float) -> Figure:
    try:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
    except ImportError as err:
        raise PlotError(f"the report's pictures need matplotlib ({err}); pip install 'matplotlib>=3.7'") from None
    figure = Figure(figsize=(width, height), dpi=DPI, layout="constrained")
    FigureCanvasAgg(figure)
    return figure


def _save(figure: Figure, path: Path) -> Path:
    figure.savefig(path, format="png", dpi=DPI, metadata={"Software": None})
    return path


def win_rate_plot(rows: Sequence[OpponentRow], path: Path) -> Path:
    """`god`'s score rate against each opponent (mirrors left out), with its 95% interval as an error
    bar and the fair band shaded; a flagged matchup is drawn in red."""
    rows = [row for row in rows if not row.mirror]
    figure = _figure(7.0, 1.2 + 0.32 * max(len(rows), 1))
    from matplotlib.ticker import PercentFormatter  # matplotlib is there: _figure checked
    axes = figure.add_subplot()
    axes.axvspan(*BAND, color="tab:green", alpha=0.15, label=f"{BAND[0]:.0%}–{BAND[1]:.0%}")
    axes.axvline(0.5, color="gray", linewidth=0.8)
    labelled: set[bool] = set()
    for y, row in enumerate(reversed(rows)):
        colour = "tab:red" if row.unbalanced else "tab:blue"
        label = None if row.unbalanced in labelled else ("unbalanced" if row.unbalanced else "win rate")
        labelled.add(row.unbalanced)
        axes.errorbar([row.rate], [y], xerr=[[row.rate - row.low], [row.high - row.rate]], fmt="o",
                      color=colour, capsize=3, markersize=4, label=label)
    axes.set_yticks(range(len(rows)), [f"{row.opponent} ({row.games})" for row in reversed(rows)])
    axes.set_xlim(0.0, 1.0)
    axes.xaxis.set_major_formatter(PercentFormatter(1.0))
    axes.set_ylim(-0.7, max(len(rows), 1) - 0.3)
    axes.set_xlabel("win rate (no-winner games count half), 95% Wilson interval")
    axes.set_title(f"{rows[0].god} against each opponent" if rows else "no opponents")
    axes.legend(loc="lower right", fontsize="small", framealpha=0.9)
    return _save(figure, path)


def length_histogram(results: Sequence[GameResult], path: Path) -> Path:
    """Game lengths in turns, stacked by how the games ended."""
    figure = _figure(7.0, 3.5)
    axes = figure.add_subplot()
    turns = sorted(result.turns for result in results)
    if turns:
        width = max(1, math.ceil((turns[-1] - turns[0] + 1) / 40))
        edges = list(range(turns[0], turns[-1] + width + 1, width))
        series = [sorted(r.turns for r in results if r.end is kind) for kind in EndKind]
        axes.hist(series, bins=edges, stacked=True, color=list(END_COLOURS),
                  label=[kind.value for kind in EndKind])
        axes.legend(fontsize="small", title="end")
    axes.set_xlabel("turns (each seat's turn counts one)")
    axes.set_ylabel("games")
    axes.set_title("game lengths")
    return _save(figure, path)


def heat_map(cards: Sequence[str], matrix: Sequence[Sequence[float]], path: Path) -> Path:
    """matrix[i][j] (row card's win rate against column card) as colours, each cell annotated in
    percent; pairs not played are left blank."""
    import numpy
    from matplotlib.patches import Rectangle

    size = len(cards)
    side = max(5.0, 1.5 + 0.42 * size)
    figure = _figure(side + 1.2, side)
    axes = figure.add_subplot()
    # What shows through a masked (unplayed) cell: grey, hatched, unlike any colour of the scale.
    axes.set_facecolor("#e0e0e0")
    axes.add_patch(Rectangle((-0.5, -0.5), size, size, fill=False, hatch="//", edgecolor="#9a9a9a",
                             linewidth=0, zorder=0))
    values = numpy.ma.masked_invalid(numpy.array(matrix, dtype=float).reshape(size, size))
    image = axes.imshow(values, cmap="RdBu", vmin=0.0, vmax=1.0)
    font = max(4.0, min(9.0, 200 / max(size, 1)))
    for i in range(size):
        for j in range(size):
            value = matrix[i][j]
            if not math.isnan(value):
                axes.text(j, i, f"{round(100 * value)}", ha="center", va="center", fontsize=font,
                          color="white" if abs(value - 0.5) > 0.3 else "black")
    axes.set_xticks(range(size), cards, rotation=90, fontsize=font + 1)
    axes.set_yticks(range(size), cards, fontsize=font + 1)
    axes.set_xlabel("opponent")
    axes.set_ylabel("card")
    axes.set_title("win rate of the row's card against the column's (%)")
    figure.colorbar(image, ax=axes, shrink=0.8)
    return _save(figure, path)

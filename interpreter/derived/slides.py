"""Another seat's slide after each move of this seat's, as a generated function of its own.

A slide ('each time an opponent worker moves, it is forced space by space in the same direction
until the next space is higher or obstructed') is a reaction of another seat's card, lowered
where its test of the space ahead reads only levels and which squares are free (the compiler's
`lowered_slide`). Writer.py inlines it after the one move of a turn; the kernels whose turns
make more than that (each worker's move, a build before the move) call this function, which is
told what the turn has changed that the state does not show yet: a square another worker has
left, one it has moved to, and one built on (a block, one level higher; a dome on level 3,
obstructed).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from ..chain.walk import Walk
from ..model.board import BEYOND
from .conditions import PROLOGUE, Lowering, View
from .source import Source

if TYPE_CHECKING:
    from .steps import DerivedCompiler, Slide

#: (walk, the moved worker, the square it moved from, the square it moved to, a square another
#: worker has left this turn or -1, one another worker has moved to or -1, one built on this
#: turn or -1) -> the square the worker ends on.
Slid = Callable[[Walk, int, int, int, int, int, int], int]


def slide_function(compiler: DerivedCompiler) -> Slid | None:
    """Where another seat's slide after each move takes the moved worker (the module
    docstring); None where the seat has no such slide lowered, or its test reads more of the
    board than levels, and which squares are free (who stands where, a dome as such)."""
    slide = compiler.lowered_slide()
    if slide is None:
        return None
    source = Source()
    source.line(0, "def slide(walk, w, o, t, v, x, r):")
    for line in PROLOGUE:
        source.lazy(1, line)
    source.line(1, f"if {source.constant(slide.seat, 'SEAT')} in st.out:")
    source.line(2, "return t")
    source.line(1, "if r >= 0 and H[r] == 3:")  # (a dome built: obstructed, as a worker's square)
    source.line(2, "x, r = r, -1")
    if not slide_loop(source, slide, 1, "o", vacated="v", taken="x", raised="r"):
        return None  # (who stands where, or a dome as such: what the turn changed is not in the state)
    source.line(1, "return f")
    function: Slid = source.function("slide")
    return function


def slide_loop(source: Source, slide: Slide, depth: int, origin: str, vacated: str | None = None,
               taken: str | None = None, raised: str | None = None) -> bool:
    """Emit the slide of a worker that moved from `origin` to `t`: on, space by space in the
    move's direction, while the space ahead passes the slide's test, ending on `f`. `vacated`,
    `taken`, `raised`: the names of a square another worker left, one it moved to, one built on
    this turn, which the state does not show yet (None: no such square). False, with nothing
    emitted, where the test reads who stands where or a dome as such while the caller names
    such squares (the state would not show them)."""
    step = slide.reaction.step
    assert step.destination is not None  # (the compiler's `lowered_slide`)
    test = Lowering(source, slide.judge, vacated=vacated, taken=taken).all(
        (*step.destination.filters, *step.filters), View("w", "f", "q", "fh", "qh"))
    if (taken is not None or raised is not None) and any(name in test for name in ("OCC", "POS", "TEAMS", "DOM")):
        return False
    levels = "H[f], H[q]" if raised is None else f"H[f] + (f == {raised}), H[q] + (q == {raised})"
    source.line(depth, f"f, p = t, {origin}")
    source.line(depth, "while True:")
    source.line(depth + 1, f"q = {source.constant(BEYOND, 'BEYOND')}[p][f]")
    source.line(depth + 1, "if q < 0:")
    source.line(depth + 2, "break")
    source.line(depth + 1, f"fh, qh = {levels}")
    source.line(depth + 1, f"if not ({test}):")
    source.line(depth + 2, "break")
    source.line(depth + 1, "p, f = f, q")
    return True


__all__ = ["Slid", "slide_function", "slide_loop"]

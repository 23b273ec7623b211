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

from ..engine.walk import Walk
from ..model.board import BEYOND
from .conditions import PROLOGUE, Lowering, View
from .source import Source

if TYPE_CHECKING:
    from .steps import DerivedCompiler

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
    step = slide.reaction.step
    assert step.destination is not None  # (lowered_slide)
    source = Source()
    source.line(0, "def slide(walk, w, o, t, v, x, r):")
    for line in PROLOGUE:
        source.lazy(1, line)
    test = Lowering(source, slide.judge, vacated="v", taken="x").all((*step.destination.filters, *step.filters),
                                                                      View("w", "f", "q", "fh", "qh"))
    if any(name in test for name in ("OCC", "POS", "TEAMS", "DOM")):
        return None  # (who stands where, or a dome as such: what the turn changed is not in the state)
    source.line(1, f"if {source.constant(slide.seat, 'SEAT')} in st.out:")
    source.line(2, "return t")
    source.line(1, "if r >= 0 and H[r] == 3:")  # (a dome built: obstructed, as a worker's square)
    source.line(2, "x, r = r, -1")
    source.line(1, "f, p = t, o")
    source.line(1, "while True:")
    source.line(2, f"q = {source.constant(BEYOND, 'BEYOND')}[p][f]")
    source.line(2, "if q < 0:")
    source.line(3, "return f")
    source.line(2, "fh, qh = H[f] + (f == r), H[q] + (q == r)")
    source.line(2, f"if not ({test}):")
    source.line(3, "return f")
    source.line(2, "p, f = f, q")
    function: Slid = source.function("slide")
    return function


__all__ = ["Slid", "slide_function"]

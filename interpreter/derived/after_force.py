"""Other seats' parts judged on a move that forces a worker, where the force leaves the workers.

An obligation's requirement may read where its holder's workers stand ('its last move must be
to a space neighbouring your workers'), and a move that forces a worker may move one of them
(a swap, a push). The squares a kernel reads as the turn starts are then not those the chain
judges: the kernels judge such a move apart, on the state with the mover and the forced worker
put where they go and taken back after. Each requirement's start ('if an opponent worker
starts its turn neighbouring ...') is judged before the move, its end after: the chain reads
the turn's start from before the turn and the last move's end from after it. A move that forces
no worker is judged by the squares alone (writer.py's `required_squares`).

The same holds for other seats' bans on builds that read where the holder's workers stand
('cannot build on spaces neighbouring your workers'): after a move that forces a worker, the
build's squares are found on the state with the two workers moved (`builds_after_force`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from ...dsl.vocabulary import Happened, LastMoves, Piece, Verb
from ..chain.walk import Walk
from ..model.board import ALL_BITS
from .conditions import Lowering, View
from .masks import MaskLowering, board_function

if TYPE_CHECKING:
    from .steps import Bound, DerivedCompiler, Fusion

#: (walk, the mover, its square, the square it moves to, where the worker there is forced to)
#: -> whether every obligation in force is met.
MetAfterForce = Callable[[Walk, int, int, int, int], bool]


def met_after_force(bounds: Sequence[Bound], view: View) -> MetAfterForce | None:
    """The judge of a forcing move against the obligations `bounds` (the module docstring), each
    one `required_squares` reads as squares (writer.py); None where a part of one has no bit
    lowering."""
    starts, ends = board_function("def starts(walk, w, o, hh):"), board_function("def ends(walk, w, o, hh):")
    for source in (starts, ends):
        source.hoisting_point(1)
        source.constants["ALL"] = ALL_BITS
    flags, masks = [], []
    at_start = View(view.worker, view.origin, view.origin, view.here, view.here)  # (its start as the target)
    for bound in bounds:
        requirement = bound.obligation.requirement
        flag = f"{starts.constant(bound.seat, 'SEAT')} not in st.out"
        if isinstance(requirement, Happened):
            ended = MaskLowering(Lowering(ends, bound.judge), None, verb=Verb.MOVE).all(
                requirement.pattern.filters, view)
        elif isinstance(requirement, LastMoves):
            started = MaskLowering(Lowering(starts, bound.judge), None).all(requirement.started, at_start)
            if started is None:
                return None
            flag = f"{flag} and bool(({started}) >> o & 1)"
            ended = MaskLowering(Lowering(ends, bound.judge), None, verb=Verb.MOVE).all(requirement.ended, view)
        else:
            return None
        if ended is None:
            return None
        flags.append(f"({flag})")
        masks.append(f"({ended})")
    starts.line(1, f"return ({', '.join(flags)},)")
    ends.line(1, f"return ({', '.join(masks)},)")
    bound_at_start: Callable[[Walk, int, int, int], tuple[bool, ...]] = starts.function("starts")
    squares_at_end: Callable[[Walk, int, int, int], tuple[int, ...]] = ends.function("ends")

    def met(walk: Walk, w: int, o: int, t: int, dest: int) -> bool:
        st = walk.state
        hh = st.heights[o]
        binding = bound_at_start(walk, w, o, hh)
        if not any(binding):
            return True
        victim = st.occupant[t]
        st.relocate(w, t)
        st.relocate(victim, dest)
        try:
            squares = squares_at_end(walk, w, o, hh)
        finally:
            st.relocate(victim, t)
            st.relocate(w, o)
        return all(not bound or mask >> t & 1 for bound, mask in zip(binding, squares, strict=True))
    return met


#: (walk, the mover, its square, the square it moves to, where the worker there is forced to)
#: -> the build's squares after the move, as (c, B, D, BF) (DerivedCompiler.fused_masks's).
BuildsAfterForce = Callable[[Walk, int, int, int, int], tuple[int, int, int, int]]


def builds_after_force(compiler: DerivedCompiler, fusion: Fusion, count_only: bool) -> BuildsAfterForce:
    """The squares of the build after a move that forces a worker, found where the force leaves
    the workers (the module docstring): the mover put on its target and the forced worker on its
    square, and both taken back."""
    source = board_function("def forced_builds(walk, w, o, t):")
    flags = compiler.bans_in_force(source, Verb.BUILD, 1, "bb")
    source.hoisting_point(1)
    source.constants.update(ALL=ALL_BITS, P_DOME=Piece.DOME, P_BLOCK=Piece.BLOCK)
    source.line(1, "c = B = D = BF = 0")
    compiler.fused_masks(source, fusion, flags, 1, "(BLOCKED ^ (1 << t))", count_only=count_only)
    source.line(1, "return c, B, D, BF")
    squares: Callable[[Walk, int, int, int], tuple[int, int, int, int]] = source.function("forced_builds")

    def built(walk: Walk, w: int, o: int, t: int, dest: int) -> tuple[int, int, int, int]:
        st = walk.state
        victim = st.occupant[t]
        st.relocate(w, t)
        st.relocate(victim, dest)
        try:
            return squares(walk, w, o, t)
        finally:
            st.relocate(victim, t)
            st.relocate(w, o)
    return built


__all__ = ["BuildsAfterForce", "MetAfterForce", "builds_after_force", "met_after_force"]

"""The kernels of a move the worker may make again each time it matches a pattern, then its build.

'Each time your worker moves into a perimeter space, it may move again': after each move that
matches the trigger, the worker may stop there (and build) or move on. The chain takes the
worker's first moves in order, and from each that matches, the states it reaches breadth first
(chain/steps.py's `breadth_first`: each once, the fewest moves first): at each, its builds,
then, if the move there matched, the moves on from it, a winning one ending the turn at once.
The turns are the squares the worker can end on. So the kernels go through the same states with
a queue of (square, the squares before it), keep the squares already ended on (`ENDED`) and
visited (`VIS`) as bits per worker, and the path to each square as the turn's moves. A worker
back on its own square leaves every worker where the turn found it: those outcomes are kept for
the whole turn, as two_moves.py keeps them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ...dsl.vocabulary import Step, StepPattern, Verb
from ..chain.actions import actions
from ..model.state import Action, Event
from .conditions import Lowering
from .masks import MaskLowering, loop_over_targets
from .two_moves import TwoMoves
from .writer import Kernel, Lister

if TYPE_CHECKING:
    from .steps import DerivedCompiler, Fusion


@dataclass(frozen=True)
class MovesAgain:
    """A move the worker that moved may make each time its move matches `trigger` ('each time
    your worker moves into a perimeter space, it may move again'): its step."""

    trigger: StepPattern
    step: Step


class RepeatedMoves(TwoMoves):
    """The kernels' text for a move the worker may make again (`MovesAgain`, the module
    docstring). A turn's code is (worker, the squares of its path, the squares new to a turn
    that ends back where it started, as two_moves.py codes them)."""

    def __init__(self, compiler: DerivedCompiler, step: Step, fusion: Fusion, again: MovesAgain) -> None:
        super().__init__(compiler, step, fusion, again.step)
        self.again = again

    def fits(self) -> bool:
        # (one way: the stack starts from its targets; a trigger of squares as bits)
        return super().fits() and len(self.ways) == 1 and self.trigger() is not None

    def trigger(self) -> str | None:
        """The squares a move into which matches the trigger, as bits (from `a` to `t`), or
        None where the trigger is not a set of squares."""
        trigger = self.again.trigger
        if trigger.verb is not Verb.MOVE:
            return None
        return MaskLowering(Lowering(self.source, self.compiler.judge), None, verb=Verb.MOVE).all(
            trigger.filters, self.view2)

    def outcomes(self, depth: int, win: Callable[[int, str], None], built: Callable[[int, str], None] | None,
                 count_only: bool = False, home_kept: bool = False, stop: str | None = None) -> bool:
        """Open the loops over the workers, their first moves and the states each reaches, and
        at each new outcome call `win(depth, code)` or `built(depth, code)` (the squares before
        in `path`, the worker on `t`; `code` the expression of what the draw keeps of it: the
        worker, the path and the squares new to the turn). `stop`: a test that a callback's
        `break` ends the search (the loops it is in are left too). Returns whether the build's
        squares are `c`."""
        source = self.source
        trigger = self.trigger()
        assert trigger is not None  # (fits)
        if not home_kept:  # (`home_kept`: set before, as the turn's other workers left them)
            source.line(depth, "HB = HD = 0")
            source.line(depth, "HOMEWIN = False")
        source.line(depth, f"for w in {self.workers}:")
        source.line(depth + 1, "o = POS[w]")
        source.line(depth + 1, "if o < 0:")
        source.line(depth + 2, "continue")
        self.at_worker(depth + 1)
        source.line(depth + 1, "VIS = 0")
        # the first moves, in order; from one into the trigger's squares, the states it reaches,
        # breadth first: (the square, the squares before it), each visited once (VIS)
        first = loop_over_targets(source, depth + 1, "M", "FIRST")
        source.line(first, "th = H[t]")
        source.line(first, "path = (o,)")
        whole = False
        if self.wins is not None:
            source.line(first, f"if {self.wins}:")
            self.won(first + 1, win)
            source.line(first + 1, "continue")
        if built is not None:
            whole = self.ended(first, built, count_only)
        source.line(first, f"if not low & ({trigger}) or VIS & low:")
        source.line(first + 1, "continue")
        source.line(first, "VIS |= low")
        source.line(first, "queue = [(t, path)]")
        source.line(first, "for a, before in queue:")
        body = first + 1
        source.line(body, "ah = H[a]")
        source.line(body, "if a != queue[0][0]:  # (reached by a move again, not the first: its builds)")
        source.line(body + 1, "t, th, low, path = a, ah, 1 << a, before")
        if built is not None:
            self.ended(body + 1, built, count_only)
        source.line(body, f"if not (1 << a) & ({trigger}):")
        source.line(body + 1, "continue")
        source.line(body, f"W2 = {self.win_squares2 or 0}")
        source.line(body, "onward = (*before, a)")
        inner = loop_over_targets(source, body, self.targets2, "MOVES")
        source.line(inner, "th = H[t]")
        source.line(inner, "path = onward")
        if self.wins2 is not None:
            source.line(inner, f"if {self.wins2}:")
            self.won(inner + 1, win)
            source.line(inner + 1, "continue")
        source.line(inner, "if not VIS & low:")
        source.line(inner + 1, "VIS |= low")
        source.line(inner + 1, "queue.append((t, onward))")
        if stop is not None:  # (out of the queue's loop, then out of the first moves')
            source.line(body, f"if {stop}:")
            source.line(body + 1, "break")
            source.line(first, f"if {stop}:")
            source.line(first + 1, "break")
        return whole

    def won(self, depth: int, win: Callable[[int, str], None]) -> None:
        """A move to `t` that wins: a new outcome unless the turn won there already (back home:
        won once for the whole turn)."""
        source = self.source
        source.line(depth, f"if {self.final}not (HOMEWIN if t == o else WON & low):")
        source.line(depth + 1, "if t == o:")
        source.line(depth + 2, "HOMEWIN = True")
        source.line(depth + 1, "else:")
        source.line(depth + 2, "WON |= low")
        win(depth + 1, "(w, (*path, t), 0)")

    def ended(self, depth: int, built: Callable[[int, str], None], count_only: bool) -> bool:
        """The worker ending on `t`: its builds, where it has not ended before (back home: the
        squares new to the turn). Returns whether the build's squares are `c`."""
        source = self.source
        source.line(depth, f"if {self.final}t == o:  # (back where it started: the squares new to the turn)")
        whole = self.builds(depth + 1, count_only)
        built(depth + 1, f"(w, (*path, t), {self.new_at_home(depth + 1, whole and count_only)})")
        source.line(depth, f"elif {self.final}not ENDED & low:")
        source.line(depth + 1, "ENDED |= low")
        self.builds(depth + 1, count_only)
        built(depth + 1, "(w, (*path, t), 0)")
        return whole

    def flooded(self) -> bool:
        """Whether the draw may count by a flood (`draw`): every win of a move is a set of
        squares."""
        return self.win_bits is not None and self.win_squares2 != ""

    def flood(self) -> None:
        """The draw's first pass without the paths: per worker, the squares it may end on and
        win on are a flood from its square over the squares it may move on from (a square's
        moves on and wins read only that square), whatever the order the chain meets them in;
        a worker's outcomes are a win on each square it wins on, and a build around each square
        it ends on; those back where it started are the turn's, as `outcomes` keeps them
        (`HB`, `HD`, `HOMEWIN`). Each worker's entry keeps them as they were before it."""
        source, whole = self.source, self.writes_c()
        trigger = self.trigger()
        source.line(1, "total = 0")
        if not self.only_count:
            source.line(1, "ends = []")
            source.line(1, "codes = []")
        source.line(1, "HB = HD = 0")
        source.line(1, "HOMEWIN = False")
        source.line(1, f"for w in {self.workers}:")
        source.line(2, "o = POS[w]")
        source.line(2, "if o < 0:")
        source.line(3, "continue")
        self.at_worker(2)
        source.line(2, "before = total")
        source.line(2, "HOME = (HB, HD, HOMEWIN)")
        source.line(2, f"WONS = M & {self.win_bits}")
        source.line(2, "ENDS = M & ~WONS")
        source.line(2, f"FRONT = ENDS & ({trigger})")
        source.line(2, "VIS = 0")
        loop_over_targets(source, 2, "FRONT", "FRONT", "a", "ah")
        source.line(3, "VIS |= low")
        source.line(3, f"T2 = {self.targets2}")
        source.line(3, f"W2 = T2 & {self.win_squares2 or 0}")
        source.line(3, "WONS |= W2")
        source.line(3, "T2 &= ~W2")
        source.line(3, "ENDS |= T2")
        source.line(3, f"FRONT |= T2 & ({trigger}) & ~VIS")
        if self.required:  # (where the obligations let the worker end)
            source.line(2, "WONS &= R")
            source.line(2, "ENDS &= R")
        source.line(2, "HERE = 1 << o")
        source.line(2, "if WONS & HERE:")
        source.line(3, "WONS ^= HERE")
        source.line(3, "if not HOMEWIN:")
        source.line(4, "HOMEWIN = True")
        source.line(4, "total += 1")
        source.line(2, "total += WONS.bit_count()")
        source.line(2, "if ENDS & HERE:")
        source.line(3, "ENDS ^= HERE")
        source.line(3, "t, low = o, HERE")
        self.builds(3, True)
        self.new_at_home(3, whole)
        source.line(3, "total += c.bit_count()" if whole else "total += B.bit_count() + D.bit_count()")
        loop_over_targets(source, 2, "ENDS", "ENDS")
        self.builds(3, True)
        source.line(3, "total += c.bit_count()" if whole else "total += B.bit_count() + D.bit_count()")
        if not self.only_count:
            source.line(2, "if total > before:")
            source.line(3, "ends.append(total)")
            source.line(3, "codes.append((w, HOME))")

    def draw(self) -> Kernel | None:
        if self.begin("def draw(walk, rng):") and self.flooded():
            return self.draw_flooded()
        if not self.begin("def draw(walk, rng):"):
            return None
        source = self.source
        whole, win, built = self.counting_callbacks()
        self.outcomes(1, win, built, count_only=True)
        self.drawn()
        source.line(1, "w, path, home = code")
        return self.drawn_path(whole)

    def draw_flooded(self) -> Kernel:
        """The draw counted by `flood`: the index falls in one worker's outcomes, which the
        chain's walk of that worker alone then meets in order (`outcomes`), from the turn's
        outcomes back home as they were before it, until the one the index falls in."""
        source = self.source
        self.flood()
        self.drawn()
        source.line(1, "DW, (HB, HD, HOMEWIN) = code")
        source.line(1, "found = None")

        def met(depth: int, code: str, count: str) -> None:
            """`count` outcomes met: the one drawn is among them, or the index goes past them."""
            source.line(depth, f"if index < {count}:")
            source.line(depth + 1, f"found = {code}")
            source.line(depth + 1, "break")
            source.line(depth, f"index -= {count}")

        def win(depth: int, code: str) -> None:
            met(depth, code, "1")

        def built(depth: int, code: str) -> None:
            met(depth, code, "c.bit_count()" if whole else "(B.bit_count() + D.bit_count())")
        whole = self.writes_c()
        workers, self.workers = self.workers, "(DW,)"
        try:
            self.outcomes(1, win, built, count_only=True, home_kept=True, stop="found is not None")
        finally:
            self.workers = workers
        source.line(1, "w, path, home = found")
        return self.drawn_path(whole)

    def drawn_path(self, whole: bool) -> Kernel:
        """End a draw: with the drawn outcome's worker `w`, its `path` and `home` set, its moves
        (the turn ends on a winning one) and its build."""
        source = self.source
        source.line(1, "t = path[-1]")
        self.drawn_move()
        source.line(1, "steps, moved = PATH(w, path, H)")
        source.line(1, "if len(path) == 2:")
        if self.wins is not None:
            source.line(2, f"if {self.wins}:")
            source.line(3, "return steps, None")
        source.line(1, "else:")
        source.line(2, "a = path[-2]")
        source.line(2, "ah = H[a]")
        if self.win_squares2:
            source.line(2, f"W2 = {self.win_squares2}")
        if self.wins2 is not None:
            source.line(2, f"if {self.wins2}:")
            source.line(3, "return steps, None")
        self.drawn_build(whole)
        source.constants["PATH"] = moves_along
        kernel: Kernel = source.function("draw")
        return kernel

    def turns(self) -> Lister | None:
        if not self.begin("def turns(walk, listed):"):
            return None
        source = self.source

        def win(depth: int, code: str) -> None:
            source.line(depth, "steps, moved = PATH(w, (*path, t), H)")
            source.line(depth, "out.append(steps)")
            source.line(depth, "if listed is not None:")
            source.line(depth + 1, "listed[steps] = (moved, TEAM)")

        def built(depth: int, code: str) -> None:
            source.line(depth, "steps, moved = PATH(w, (*path, t), H)")
            source.line(depth, "for s, dome in IN_ORDER(B, D, BF):")
            source.line(depth + 1, "verb, built = BUILT(w, s, dome, H, st.tokens)")
            source.line(depth + 1, "turn = (*steps, ACTIONS(verb, w)[s])")
            source.line(depth + 1, "out.append(turn)")
            self.list_turn(depth + 1)
        source.line(1, "out = []")
        self.outcomes(1, win, built)
        source.line(1, "return out")
        source.constants["PATH"] = moves_along
        lister: Lister = source.function("turns")
        return lister


def moves_along(worker: int, path: Sequence[int], heights: Sequence[int]
                ) -> tuple[tuple[Action, ...], tuple[Event, ...]]:
    """The steps and events of `worker`'s moves along `path` (its squares, the first its own)."""
    moves = actions("move", worker)
    steps = tuple(moves[square] for square in path[1:])
    events = tuple(("move", worker, origin, target, heights[origin], heights[target])
                   for origin, target in zip(path, path[1:], strict=False))
    return steps, events


__all__ = ["MovesAgain", "RepeatedMoves", "moves_along"]

"""The kernels of a move, its worker's build, then a second build it may make (kernel.py)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from ...dsl.vocabulary import (
    Piece,
    Step,
)
from ..chain.actions import actions
from ..chain.walk import Walk
from ..model.state import Action, Event
from .after_build import Again, SameSquare
from .masks import LEVELS_AFTER_A_BLOCK
from .tally import Tokens, build_events
from .writer import Kernel, Lister, Writer, one_more_tower

if TYPE_CHECKING:
    from .steps import DerivedCompiler, Fusion


class TwoBuilds(Writer):
    """The kernels of a move, its worker's build, then a second build it may make (`Again`:
    on the same square, never on it, or either). The second build's other conditions read only
    the square they judge, which the first build leaves alone but its own, so per move three
    sets of squares say every outcome: `A` the first build's, `S` the second's on another
    square, and `X` the first build's squares (a block) where a second may go on top.

    Outcomes come as the listing finds them: each first build alone, then with each second
    build in square order, a pair met before in the other order passed over (two builds on two
    squares leave the same board either way). So a move has |A| + |X| + |A|·|S| − i − i(i−1)/2
    outcomes, with i = |A ∩ S| (a pair within A ∩ S is met twice, a square with itself never),
    and only the drawn move's are looked at one by one (`two_builds`). A first build that makes
    a board win hold (`WB`) ends the turn: it has no second, so the pairs count A without WB."""

    one_piece = False  # (one build or two)

    def __init__(self, compiler: DerivedCompiler, step: Step, fusion: Fusion) -> None:
        super().__init__(compiler, step, fusion)
        assert fusion.again is not None
        self.again: Again = fusion.again
        self.second = replace(fusion, step=self.again.step, ways=[self.again.way], again=None)
        #: Whether the second build is a dome at any level (on the square just built: steps.py's
        #: `_again`), not the next piece.
        self.dome = self.again.way.piece is Piece.DOME

    def fits(self) -> bool:
        same = self.again.same_square
        return (super().fits() and not self.forcing and self.fusion.automatic is None
                and self.fusion.last is None and self.writes_c()
                and (same is SameSquare.ONLY or self.writes_c(self.second))
                and (same is SameSquare.NEVER or self.dome or self.writes_c(self.second, LEVELS_AFTER_A_BLOCK)))

    #: Two builds may complete two towers.
    may_win_on_board = "WIN1 is not None or WIN2 is not None"

    def begin(self, header: str) -> bool:
        if not super().begin(header):
            return False
        if self.fusion.winnable:  # (whether two more complete towers make a board win hold)
            self.source.lazy(1, "WIN2 = TWO_MORE(walk)")
            self.source.constants["TWO_MORE"] = one_more_tower(self.compiler.board_wins, 2)
            if self.again.same_square is not SameSquare.NEVER:  # (a block, then a dome on it: a tower)
                self.source.constants["ONE_MORE"] = one_more_tower(self.compiler.board_wins, 1, 2)
        return True

    def can_win(self) -> Callable[[Walk], bool] | None:
        """Whether a build, or two, makes a board win hold for the seat's team (no move of the
        turn may win otherwise than `Writer.can_win` finds): one more complete tower, from a
        first build, a second on another square or on top of the first (`X` on level 2); or
        two more, from a first build and a second on another square, each a dome on level 3."""
        if not self.fusion.winnable:
            return super().can_win()
        if not self.begin("def can_win(walk):") or self.possible is not None:
            return None  # (with an 'if possible' obligation too, the seat is left to the count)
        source = self.source
        body = self.each_move(1)
        if self.wins is not None:
            source.line(body, f"if {self.wins}:")
            source.line(body + 1, "return True")
        self.slid(body)
        self.both(body)
        source.line(body, "T1 = A & L3")
        source.line(body, "SL = S & L3")
        source.line(body, "if WIN1 == TEAM and (T1 or ((A & ~WB) and SL) or (X & L2)):")
        source.line(body + 1, "return True")
        source.line(body, "if WIN2 == TEAM and T1 and SL and not (T1 == SL and T1 & (T1 - 1) == 0):")
        source.line(body + 1, "return True")
        source.line(1, "return False")
        function: Callable[[Walk], bool] = source.function("can_win")
        return function

    def both(self, depth: int) -> None:
        """After the move to `t`: `A`, `S` and `X` (the class docstring)."""
        compiler, source, same = self.compiler, self.source, self.again.same_square
        compiler.fused_masks(source, self.fusion, self.build_bans, depth, "BO", hoist=True, count_only=True)
        source.line(depth, "A = c")
        if same is SameSquare.ONLY:
            source.line(depth, "S = 0")
        else:
            compiler.fused_masks(source, self.second, self.build_bans, depth, "BO", hoist=True, count_only=True)
            source.line(depth, "S = c")
        if same is SameSquare.NEVER:
            source.line(depth, "X = 0")
        else:
            compiler.fused_masks(source, self.second, self.build_bans, depth, "BO", hoist=True, count_only=True,
                                 planes=LEVELS_AFTER_A_BLOCK)
            # (a dome at any level goes where its build makes a dome; the next piece, on `c`)
            source.line(depth, f"X = {'D' if self.dome else 'c'} & A & ~L3")
        if self.fusion.winnable:  # (a first build that wins: no second after it)
            source.line(depth, "B, D = A & ~L3, A & L3")
            source.line(depth, f"WB = {self.winning()}")
        else:
            source.line(depth, "WB = 0")
    def draw(self) -> Kernel | None:
        if not self.begin("def draw(walk, rng):"):
            return None
        source = self.source
        body, moved = self.counting_moves()
        self.both(body)
        source.line(body, "na = (A & ~WB).bit_count()")
        source.line(body, "i = (A & ~WB & S).bit_count()")
        self.added(body, "A.bit_count() + (X & ~WB).bit_count() + na * S.bit_count() - i - (i * (i - 1) >> 1)",
                   f"w << 5 | {moved}")
        self.unless_met("total", "break")
        moved = self.drawn_one_move()
        self.moved(1)
        self.both(1)
        source.line(1, "x, y = TWO(index, A, S, X, WB)")
        source.line(1, f"steps, built = BUILT2(w, x, y, H, st.tokens, {self.dome})")
        turn = f"(ACTIONS('move', w)[{moved}], *steps), (*moved, *built)"
        source.line(1, f"return {self.finished(turn, drawn=False)}")
        source.constants.update(TWO=two_builds, BUILT2=built_twice)
        kernel: Kernel = source.function("draw")
        return kernel

    def turns(self) -> Lister | None:
        if not self.begin("def turns(walk, listed):"):
            return None
        source = self.source
        body, _ = self.listing_moves()
        self.moved(body)
        self.both(body)
        source.line(body, "for x, y in PAIRS(A, S, X, WB):")
        source.line(body + 1, f"steps, built = BUILT2(w, x, y, H, st.tokens, {self.dome})")
        source.line(body + 1, "turn = (move, *steps)")
        source.line(body + 1, "out.append(turn)")
        self.list_turn(body + 1)
        self.unless_met("out", "break")
        source.line(1, "return out")
        source.constants.update(PAIRS=builds_twice_in_order, BUILT2=built_twice)
        lister: Lister = source.function("turns")
        return lister


def builds_twice_in_order(first: int, again: int, same: int, wins: int = 0) -> list[tuple[int, int]]:
    """The builds of `TwoBuilds` in the listing's order, as (first square, second square or -1
    for none): `first` the first build's squares, `again` the second's on another square, `same`
    those of `first` where a second may go on top, `wins` those of `first` that end the turn."""
    out = []
    squares = first
    while squares:
        low = squares & -squares
        squares ^= low
        x = low.bit_length() - 1
        out.append((x, -1))
        second = _seconds(low, first, again, same, wins)
        while second:
            bit = second & -second
            second ^= bit
            out.append((x, bit.bit_length() - 1))
    return out


def two_builds(index: int, first: int, again: int, same: int, wins: int = 0) -> tuple[int, int]:
    """`builds_twice_in_order(first, again, same, wins)[index]`, found without listing the others."""
    squares = first
    while squares:
        low = squares & -squares
        squares ^= low
        if not index:
            return low.bit_length() - 1, -1
        index -= 1
        second = _seconds(low, first, again, same, wins)
        count = second.bit_count()
        if index < count:
            for _ in range(index):
                second &= second - 1
            return low.bit_length() - 1, (second & -second).bit_length() - 1
        index -= count
    raise IndexError(index)  # pragma: no cover - the counts say the index is in these squares


def _seconds(low: int, first: int, again: int, same: int, wins: int) -> int:
    """The second builds new after a first on the square `low` (a bit): another square's, but
    those whose pair came first in the other order (a first build there, before this one, that
    does not win, with this square among its seconds), and this square's own; none after a
    first build that wins."""
    if wins & low:
        return 0
    second = (again & ~low) | (same & low)
    if again & low:
        second &= ~(first & ~wins & (low - 1))
    return second


def built_twice(worker: int, first: int, second: int, heights: Sequence[int],
                tokens: Tokens, dome: bool = False) -> tuple[tuple[Action, ...], tuple[Event, ...]]:
    """The build steps and events of `worker`'s build on `first`, then on `second` (-1: none),
    the next piece each time (a second on the same square goes on the block just built; with
    `dome`, a dome on it at any level)."""
    verb, built = build_events(worker, first, heights[first] == 3, heights, tokens)
    steps: tuple[Action, ...] = (actions(verb, worker)[first],)
    if second < 0:
        return steps, built
    if second == first:
        level = heights[first] + 1
        capped = dome or level == 3
        again: tuple[Event, ...] = (("build", worker, first, level + (not capped), capped),)
        return (*steps, actions("dome" if capped and level < 3 else "build", worker)[first]), (*built, *again)
    verb, more = build_events(worker, second, heights[second] == 3, heights, tokens)
    return (*steps, actions(verb, worker)[second]), (*built, *more)


__all__ = ["TwoBuilds", "built_twice", "builds_twice_in_order", "two_builds"]

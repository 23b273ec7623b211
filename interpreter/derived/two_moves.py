"""The kernels of a move, a second move the same worker may make, then its build (kernel.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from ...dsl.vocabulary import (
    LastMoves,
    Role,
    SpaceRef,
    Step,
    Verb,
)
from ..chain.walk import Walk
from .conditions import Lowering, View
from .masks import MaskLowering, loop_over_targets
from .source import Source
from .tally import nth_build
from .writer import Kernel, Lister, Writer, pointwise

if TYPE_CHECKING:
    from .steps import Bound, DerivedCompiler, Fusion


class TwoMoves(Writer):
    """The kernels of a move, a second move the same worker may make, then its build (the
    second move's one way around the worker, no force, no mark). Two ways to the same square
    leave the same workers on the same squares, so each worker's final squares are kept as bits
    (`ENDED` those whose builds were counted, `WON` those where a move won), and only a square met
    for the first time, in the listing's order, adds outcomes. A turn is coded as
    worker << 10 | first target << 5 | second target (31 for none)."""

    def __init__(self, compiler: DerivedCompiler, step: Step, fusion: Fusion, second: Step) -> None:
        super().__init__(compiler, step, fusion)
        self.second_step = second
        self.ways2 = compiler.way_parts(second)
        self.view2 = View("w", "a", "t", "ah", "th")
        self.targets2 = ""
        self.wins2: str | None = None
        #: The squares the second move wins on, as bits ("0": none; "": not bits).
        self.win_squares2 = "0"

    def requirement_lowered(self, bound: Bound, mask: str) -> bool:
        """A requirement on the worker's last move ('its last move must be to a space
        neighboring your workers') where the squares do not depend on where the move came from:
        they bind the square the worker ends on, after one move or two (`final`). One on a move
        of the turn ('must move up') may be met by either move: not lowered here."""
        requirement = bound.obligation.requirement
        if not isinstance(requirement, LastMoves) or bound.obligation.if_possible:
            return False
        ended = [MaskLowering(Lowering(Source(), bound.judge), None, verb=Verb.MOVE).all(requirement.ended, view)
                 for view in (self.view, self.view2)]
        return ended[0] is not None and ended[0] == ended[1]

    def reach(self, depth: int) -> None:
        """As the one move's, but the squares the obligations leave (`R`) bind only where the
        worker ends (`final`), not the first move's targets, which it may leave again."""
        required, self.required = self.required, []
        if required:
            self.source.line(depth, "R = ALL")
            for flag, mask, _ in required:
                self.source.line(depth, f"if {flag}:")
                self.source.line(depth + 1, f"R &= {mask}")
        super().reach(depth)
        self.required = required

    @property
    def final(self) -> str:
        """A test that the worker may end on `t` ('R & low and '), or '' with no requirement."""
        return "R & low and " if self.required else ""

    def fits(self) -> bool:
        return (not self.forcing and (not self.compiler.reactions or self._slide_lowered()) and self.fusion.beside_wins
                and len(self.ways2) == 1 and not self.ways2[0].forces
                and self.second_step.actor.role in (Role.THAT, Role.SUBJECT, Role.MOVED))

    def _slide_lowered(self) -> bool:
        """Whether another seat's slide after each move is lowered (the base writer's), with a
        test that reads only the space ahead, its level and the one behind it: the square the
        worker left at its first move is free to the second one's slide (`Lowering.vacated`),
        which is all of the board that changes under the kernel's feet."""
        slide = self.slide
        if slide is None or self.compiler.obligations:  # (an obligation reads the move, not where it slid to)
            return False
        step = slide.reaction.step
        assert step.destination is not None
        return all(pointwise(part) for part in (*step.destination.filters, *step.filters))

    def begin(self, header: str) -> bool:
        if not super().begin(header):
            return False
        compiler, source = self.compiler, self.source
        # (the worker's start is where it stands as the kernel counts: no step is made)
        started = Lowering(source, compiler.judge, known={SpaceRef.START: "o"})
        targets = compiler.move_targets(source, started, self.ways2, self.bans, self.view2, "BO")
        if targets is None:
            return False
        self.targets2 = targets[0]
        self.wins2, self.win_squares2 = None, "0"
        if self.ways2[0].can_win:
            self.wins2 = compiler.move_win_test(source, self.view2)
            if self.wins2 is not None:
                bits = compiler.move_win_bits(source, self.view2)
                self.win_squares2 = bits or ""
                if bits is not None:
                    self.wins2 = "low & W2"
        return True

    def outcomes(self, depth: int, win: Callable[[int, str], None], built: Callable[[int, str], None] | None,
                 count_only: bool = False) -> bool:
        """Open the loops over the turns, and at each new outcome call `win(depth, code)` for a
        winning move, or `built(depth, code)` with the build's new squares after the moves (the
        worker on `t`; `a` the first move's target where there are two; `builds`' names).
        Returns whether the build's squares are `c`.

        A worker back on its own square leaves every worker where the turn found it, whichever
        worker it was: those outcomes are kept for the whole turn (`HOME`: the squares built, a
        block `HB` and a dome `HD`; `HOMEWIN`), and their code carries the new squares (above
        bit 15: `c`, or `B | D << 25`)."""
        source = self.source

        def ends_on(depth: int, wins: str | None) -> bool:
            """The outcomes of the worker ending on `t`, new to it: a win, or the build."""
            if wins is not None:
                source.line(depth, f"if {wins}:")
                source.line(depth + 1, f"if {self.final}not WON & low:")
                source.line(depth + 2, "WON |= low")
                win(depth + 2, "code")
                source.line(depth + 1, "continue")
            if built is None:
                return False
            source.line(depth, f"if {self.final}not ENDED & low:")
            source.line(depth + 1, "ENDED |= low")
            whole = self.builds(depth + 1, count_only)
            built(depth + 1, "code")
            return whole

        if self.slide is not None:
            return self.slid_outcomes(depth, win, built, count_only)
        source.line(depth, "HB = HD = 0")
        source.line(depth, "HOMEWIN = False")
        body = self.each_move(depth)
        source.line(body, "code = w << 10 | t << 5 | 31")
        whole = ends_on(body, self.wins)
        source.line(body, "a, ah = t, th")
        # (a square whose outcome is found already is passed over: one where the worker won, or
        # one where it built and the second move does not win)
        if self.wins2 is None:
            found = "ENDED"
        elif self.win_squares2:
            source.line(body, f"W2 = {self.win_squares2}")
            found = "((ENDED & ~W2) | (WON & W2))"
        else:
            found = "0"
        inner = loop_over_targets(source, body, f"({self.targets2}) & ~{found}" if found != "0" else self.targets2,
                                  "M2")
        source.line(inner, "th = H[t]")
        source.line(inner, "code = w << 10 | a << 5 | t")
        source.line(inner, "if t == o:")
        if self.required:  # (back where it started: it may end there only where the obligations let it)
            source.line(inner + 1, "if not R & low:")
            source.line(inner + 2, "continue")
        if self.wins2 is not None:
            source.line(inner + 1, f"if {self.wins2}:")
            source.line(inner + 2, "if not HOMEWIN:")
            source.line(inner + 3, "HOMEWIN = True")
            win(inner + 3, "code")
            source.line(inner + 2, "continue")
        if built is not None:
            self.builds(inner + 1, count_only)
            source.line(inner + 1, f"code |= {self.new_at_home(inner + 1, whole and count_only)} << 15")
            built(inner + 1, "code")
        source.line(inner + 1, "continue")
        ends_on(inner, self.wins2)
        return whole

    def slid_outcomes(self, depth: int, win: Callable[[int, str], None],
                      built: Callable[[int, str], None] | None, count_only: bool) -> bool:
        """`outcomes` where another seat's slide takes the worker on after each move that does
        not win (`slid`): the same order and the same squares met once, judged where the worker
        ends; the code keeps each move's own target (`a0` the first's, `t0` the second's), where
        the worker ended after the first being `a`."""
        source = self.source
        source.line(depth, "HB = HD = 0")
        source.line(depth, "HOMEWIN = False")
        body = self.each_move(depth)
        source.line(body, "code = w << 10 | t << 5 | 31")
        if self.wins is not None:
            source.line(body, f"if {self.wins}:")
            source.line(body + 1, "if not WON & low:")
            source.line(body + 2, "WON |= low")
            win(body + 2, "code")
            source.line(body + 1, "continue")
        self.slid(body)
        whole = False
        if built is not None:
            source.line(body, "if not ENDED & low:")
            source.line(body + 1, "ENDED |= low")
            whole = self.builds(body + 1, count_only)
            built(body + 1, "code")
        source.line(body, "a, ah, a0, a0h = t, th, t0, th0")
        if self.win_squares2:
            source.line(body, f"W2 = {self.win_squares2}")
        inner = loop_over_targets(source, body, self.targets2, "M2")
        source.line(inner, "th = H[t]")
        source.line(inner, "code = w << 10 | a0 << 5 | t")
        if self.wins2 is not None:
            source.line(inner, f"if {self.wins2}:")
            source.line(inner + 1, "if t == o:")  # (back home and won: every worker where it was)
            source.line(inner + 2, "if not HOMEWIN:")
            source.line(inner + 3, "HOMEWIN = True")
            win(inner + 3, "code")
            source.line(inner + 2, "continue")
            source.line(inner + 1, "if not WON & low:")
            source.line(inner + 2, "WON |= low")
            win(inner + 2, "code")
            source.line(inner + 1, "continue")
        self.slid(inner, "a", "o")
        source.line(inner, "if t == o:")
        if built is not None:
            self.builds(inner + 1, count_only)
            source.line(inner + 1, f"code |= {self.new_at_home(inner + 1, whole and count_only)} << 15")
            built(inner + 1, "code")
        source.line(inner + 1, "continue")
        if built is not None:
            source.line(inner, "if not ENDED & low:")
            source.line(inner + 1, "ENDED |= low")
            self.builds(inner + 1, count_only)
            built(inner + 1, "code")
        return whole

    def drawn_build(self, whole: bool) -> None:
        """End a draw: with the drawn turn's moves (`steps`, `moved`) and the worker on `t`, the
        build at `index` among the squares of its outcome (those new to the turn where it ends
        back home: `home`), and the turn returned."""
        source = self.source
        self.builds(1, whole)
        source.line(1, "if home:  # (every worker back where it was: the squares new to the turn)")
        source.line(2, "c = home" if whole else "B, D = home & ALL, home >> 25")
        if whole:
            source.line(1, "for _ in range(index):")
            source.line(2, "c &= c - 1")
            source.line(1, "s = (c & -c).bit_length() - 1")
            source.line(1, "dome = H[s] == 3")
        else:
            source.line(1, "s, dome = NTH(index, B, D, BF)")
        source.line(1, "verb, built = BUILT(w, s, dome, H, st.tokens)")
        source.line(1, f"return {self.finished('(*steps, ACTIONS(verb, w)[s]), (*moved, *built)', drawn=False)}")
        source.constants["NTH"] = nth_build

    def new_at_home(self, depth: int, whole: bool) -> str:
        """With the worker back on its own square and the build's squares set (`c` where
        `whole`, else `B` and `D`): keep only the squares no other worker's way home built on
        (`HB`, `HD`), mark them, and return their expression (`B | D << 25` for two sets)."""
        source = self.source
        if whole:
            source.line(depth, "c &= ~HB")
            source.line(depth, "HB |= c")
            return "c"
        source.line(depth, "B &= ~HB")
        source.line(depth, "D &= ~HD")
        source.line(depth, "HB |= B")
        source.line(depth, "HD |= D")
        return "(B | D << 25)"

    def at_worker(self, depth: int) -> None:
        super().at_worker(depth)
        self.source.line(depth, "ENDED = WON = 0")

    def draw(self) -> Kernel | None:
        if not self.begin("def draw(walk, rng):"):
            return None
        source = self.source
        whole, win, built = self.counting_callbacks()
        self.outcomes(1, win, built, count_only=True)
        self.drawn()
        source.line(1, "w, t, u, home = code >> 10 & 31, code >> 5 & 31, code & 31, code >> 15")
        self.drawn_move()
        if self.slide is not None:
            self.drawn_slid_moves()
            self.drawn_build(whole)
            kernel: Kernel = source.function("draw")
            return kernel
        source.line(1, "steps = (ACTIONS('move', w)[t],)")
        source.line(1, "moved = (('move', w, o, t, hh, th),)")
        source.line(1, "if u == 31:")
        if self.wins is not None:
            source.line(2, f"if {self.wins}:")
            source.line(3, "return steps, None")
        source.line(1, "else:")
        self.drawn_second_move()
        source.line(2, "moved += (('move', w, a, t, ah, th),)")
        self.drawn_build(whole)
        drawn: Kernel = source.function("draw")
        return drawn

    def drawn_second_move(self) -> None:
        """In the drawn turn, the second move from `a` (where the first left the worker) to `u`:
        its step, the worker on `t`, and the turn returned where it wins."""
        source = self.source
        source.line(2, "a, ah = t, th")
        if self.win_squares2:
            source.line(2, f"W2 = {self.win_squares2}")
        source.line(2, "t = u")
        source.line(2, "low = 1 << t")
        source.line(2, "th = H[t]")
        source.line(2, "steps += (ACTIONS('move', w)[t],)")
        if self.wins2 is not None:
            source.line(2, f"if {self.wins2}:")
            source.line(3, "return steps, None")

    def drawn_slid_moves(self) -> None:
        """The drawn turn's moves (`steps`, `moved`), each slid on by another seat's slide
        unless it wins (then the turn is returned), the worker left on `t`; `u` the second
        move's target (31: none)."""
        source = self.source
        source.line(1, "steps = (ACTIONS('move', w)[t],)")
        if self.wins is not None:
            source.line(1, f"if u == 31 and {self.wins}:")
            source.line(2, "return steps, None")
        self.slid(1)  # (a first move followed by a second did not win)
        source.line(1, "moved = (('move', w, o, t0, hh, th0),) if t == t0 else "
                       "(('move', w, o, t0, hh, th0), ('force', w, t0, t))")
        source.line(1, "if u != 31:")
        self.drawn_second_move()
        self.slid(2, "a", "o")
        source.line(2, "moved += (('move', w, a, t0, ah, th0),) if t == t0 else "
                       "(('move', w, a, t0, ah, th0), ('force', w, t0, t))")

    def turns(self) -> Lister | None:
        if not self.begin("def turns(walk, listed):"):
            return None
        source = self.source
        source.line(1, "out = []")

        def steps(depth: int, won: bool = False) -> None:
            """The turn's moves (`path`) and their events (`moved`), from its code (a move
            that wins does not slide)."""
            if self.slide is not None:
                slid_steps(depth, won)
                return
            source.line(depth, "if code & 31 == 31:")
            source.line(depth + 1, "path = (ACTIONS('move', w)[t],)")
            source.line(depth + 1, "moved = (('move', w, o, t, hh, th),)")
            source.line(depth, "else:")
            source.line(depth + 1, "path = (ACTIONS('move', w)[a], ACTIONS('move', w)[t])")
            source.line(depth + 1, "moved = (('move', w, o, a, hh, ah), ('move', w, a, t, ah, th))")

        def slid_steps(depth: int, won: bool) -> None:
            """`steps` with another seat's slide after each move: the first's target `a0` (its
            level `a0h`), where it slid to `a`; the last one's target `t0`, or `t` if it won."""
            last, level = ("t", "th") if won else ("t0", "th0")
            first = "(('move', w, o, a0, hh, a0h),) if a == a0 else (('move', w, o, a0, hh, a0h), ('force', w, a0, a))"
            then = f"('move', w, a, {last}, ah, {level})"
            source.line(depth, "if code & 31 == 31:")
            source.line(depth + 1, f"path = (ACTIONS('move', w)[{last}],)")
            source.line(depth + 1, f"moved = (('move', w, o, {last}, hh, {level}),)" if won else
                        "moved = (('move', w, o, t0, hh, th0),) if t == t0 else "
                        "(('move', w, o, t0, hh, th0), ('force', w, t0, t))")
            source.line(depth, "else:")
            source.line(depth + 1, f"path = (ACTIONS('move', w)[a0], ACTIONS('move', w)[{last}])")
            source.line(depth + 1, f"moved = ({first}) + (({then},) if {won} or t == t0 else "
                                   f"({then}, ('force', w, t0, t)))")

        def win(depth: int, code: str) -> None:
            steps(depth, won=True)
            source.line(depth, "out.append(path)")
            source.line(depth, "if listed is not None:")
            source.line(depth + 1, "listed[path] = (moved, TEAM)")

        def built(depth: int, code: str) -> None:
            steps(depth)
            source.line(depth, "for s, dome in IN_ORDER(B, D, BF):")
            source.line(depth + 1, "verb, built = BUILT(w, s, dome, H, st.tokens)")
            source.line(depth + 1, "turn = (*path, ACTIONS(verb, w)[s])")
            source.line(depth + 1, "out.append(turn)")
            self.list_turn(depth + 1)
        self.outcomes(1, win, built)
        source.line(1, "return out")
        lister: Lister = source.function("turns")
        return lister

    def can_win(self) -> Callable[[Walk], bool] | None:
        if not self.begin("def can_win(walk):"):
            return None
        source = self.source
        win, built = self.winning_callbacks()
        self.outcomes(1, win, built)
        source.line(1, "return False")
        function: Callable[[Walk], bool] = source.function("can_win")
        return function


__all__ = ["TwoMoves"]

"""The writer of the kernels' text (kernel.py) for a move, then the moved worker's build.

* **Every outcome is new.** Two moves of the first step leave the workers on different squares
  (a force moves only an opponent's worker), and a build moves none, so nothing is merged or
  keyed. With a second move the same worker may make (two_moves.py), two ways to one square are
  one outcome: each worker's final squares are kept as bits, and a worker back on its own square
  (every worker where the turn found it) is one outcome whichever worker it was.
* **Two passes.** The first counts each move's outcomes by popcount (one for a winning move, the
  build's squares for another) and keeps, per move with outcomes, only where its outcomes end and
  the move as one small integer. The index is drawn as the listing's would be
  (`rng.randrange(total)`), and a second look at the one move it falls in finds the build.
* **The same parts.** The text comes from the lowerings of the fused count: the moves' targets
  and the build's squares as bits (masks.py), the seat's wins, the other seats' prohibitions and
  vetoes, and their obligations on the move as the squares it must end on. No part kind has a
  second lowering here; a part with none leaves the seat on the count.

Outcomes come in the listing's order (the workers as the step chooses them, the targets and the
build squares in square order, the turn that declines a second move before those that make it),
so a seeded draw is the listing's, which tests/test_kernel.py checks index by index.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable, Sequence
from random import Random
from typing import TYPE_CHECKING, cast

from ...dsl.vocabulary import (
    AllOf,
    AlongLine,
    AnyOf,
    Happened,
    LastMoves,
    LevelChange,
    Near,
    Not,
    OccupiedBy,
    Owner,
    Piece,
    PieceIs,
    PlayerCount,
    Region,
    Role,
    Scope,
    SpaceIs,
    SpaceRef,
    Step,
    TargetLevel,
    Verb,
    nested,
)
from ...dsl.vocabulary.parts import Condition
from ..chain.actions import actions
from ..chain.steps import WayParts
from ..chain.steps import _force_destination as force_destination
from ..chain.walk import Walk
from ..model.board import ALL_BITS, AROUND_BITS, PAIR_INSIDE, PAIR_SHIFTED, PAIR_SPREAD
from ..model.state import Action, Event, GameState
from .after_build import TokenOnBuilt
from .after_force import builds_after_force, met_after_force
from .conditions import Lowering, View, view_only
from .invariance import unchanged_by_a_build
from .masks import LEVELS, MaskLowering, board_function, loop_over_targets
from .slides import slide_loop
from .source import Source
from .tally import Tokens, build_events, nth_build

if TYPE_CHECKING:
    from .steps import Ban, Bound, DerivedCompiler, Fusion


#: A drawn turn: its steps and its events (None for a winning move, which the engine plays step
#: by step), or None when the seat has no turn.
Drawn = tuple[tuple[Action, ...], tuple[Event, ...] | None] | None
#: (walk at the turn's start, with the prohibitions in force; the seat's generator) -> Drawn
Kernel = Callable[[Walk, Random], Drawn]
#: (walk at the turn's start, with the prohibitions in force) -> the number of distinct outcomes
Counter = Callable[[Walk], int]
#: (walk at the turn's start; {turn: (events, winner)} to fill, or None) -> the turns in order
#: {turn: (its events, the team it makes win)}, as a listing keeps them for a caller that plays them.
Listed = dict[tuple[Action, ...], tuple[tuple[Event, ...], int | None]]
Lister = Callable[[Walk, Listed | None], list[tuple[Action, ...]]]
#: What the turns of a program add to the board and whether they win: (building pieces added,
#: workers added, won) for each kind of outcome they may have (kernel.py's `alternatives`).
Outcomes = frozenset[tuple[int, int, bool]]
#: (walk at the turn's start) -> for each move, (worker, target, the squares of the moved
#: worker's one build after it as bits, or -1 where the move wins): `Writer.moves_built`.
MovesBuilt = Callable[[Walk], list[tuple[int, int, int]]]


def drawn_build(worker: int, origin: int, target: int, here: int, there: int, victim: int, dest: int, index: int,
                blocks: int, domes: int, blocks_first: int, heights: Sequence[int], tokens: Tokens) -> Drawn:
    """The turn of the move of `worker` from `origin` to `target` (forcing `victim` to `dest`,
    where `victim` is not -1) and the build at `index` among its build's outcomes (`blocks`,
    `domes`, `blocks_first`: nth_build's)."""
    square, dome = nth_build(index, blocks, domes, blocks_first)
    verb, built = build_events(worker, square, dome, heights, tokens)
    moved: tuple[Event, ...] = (("move", worker, origin, target, here, there),)
    if victim >= 0:
        moved += (("force", victim, target, dest),)
    return (("move", worker, target), (verb, worker, square)), (*moved, *built)


class Writer:
    """Writes the kernels' text: what each function reads at the turn's start (`begin`), the
    loop over the workers and the squares each move reaches (`each_move`), the way a move takes
    (`choose`) and the squares of the build after it (`builds`)."""

    #: Whether each turn adds one building piece (kernel.py's `Kernels.outcomes`), where it does
    #: not win first.
    one_piece = True

    def __init__(self, compiler: DerivedCompiler, step: Step, fusion: Fusion) -> None:
        self.compiler, self.step, self.fusion = compiler, step, fusion
        self.ways = compiler.way_parts(step)
        self.forcing = [index for index, way in enumerate(self.ways) if way.forces]
        self.view = View("w", "o", "t", "hh", "th")
        #: Another seat's slide after this seat's moves, where the kernels lower it.
        self.slide = compiler.lowered_slide() if compiler.reactions else None
        self.lowers_obligations = True
        #: Whether the obligations' requirements may be read as the squares of the one move.
        # what `begin` writes for the function being written
        self.source = Source()
        self.targets: list[str] = []
        self.required: list[tuple[str, str, bool]] = []
        self.possible: str | None = None
        self.build_bans: list[tuple[str, Ban]] = []
        self.bans: list[tuple[str, Ban]] = []
        self.wins: str | None = None
        #: The squares the move wins on as bits, once per worker ("0": none; None: not bits).
        self.win_bits: str | None = "0"
        self.workers = ""
        self.forced: list[str | None] = []
        #: The name of the judge of a forcing move against the obligations in force, where it
        #: must be judged after the force (after_force.py), else None.
        self.met_after_force: str | None = None
        #: Whether `draw` is being written as `count`: its first pass alone (see `count`).
        self.only_count = False

    def fits(self) -> bool:
        """Whether a way that forces a worker forces only opponents' workers, before a build
        that reads only its own square (the squares the kernel counts after the force); and
        whether the build's regions are around its builder, anywhere or its own square."""
        compiler, ways = self.compiler, self.ways
        if compiler.reactions and (self.slide is None or self.forcing):
            return False  # (a reaction the kernels do not lower, or a slide after a force)
        if any(way.region is Region.SINGLE and way.ref is not SpaceRef.ORIGIN for way in self.fusion.ways):
            return False  # (a space the turn's log names: the kernel makes no move to read it from)
        return not self.forcing or (
            all(_against_opponents(ways[index]) for index in self.forcing)
            and all(pointwise(part) for way in self.fusion.ways for part in way.filters)
            and all(holders_own(part, (), ban.own) for ban in compiler.bans if ban.verb is Verb.BUILD
                    for part in ban.filters))

    def begin(self, header: str) -> bool:
        """Start a function (`header`, its `def` line) and write what it reads once; False when
        the move's targets are not bits."""
        compiler, ways, view = self.compiler, self.ways, self.view
        source = self.source = board_function(header)
        bans = self.bans = compiler.bans_in_force(source, Verb.MOVE, 1)
        targets = compiler.move_targets(source, Lowering(source, compiler.judge), ways, bans, view)
        if targets is None:
            return False
        self.targets = targets
        # the obligations other seats lay on the turn, as the squares the move must end on (a
        # flag each: its holder is in the game); at most one 'if possible', dropped when no move
        # meets it
        required: list[tuple[str, str, bool]] = []
        self.met_after_force = None
        for index, bound in enumerate(compiler.obligations):
            requirement = bound.obligation.requirement
            mask = required_squares(source, bound, view)
            # (a forced worker may be the holder's, whose place the requirement may read: only
            # the move's own view is read the same after it; a forcing move is then judged
            # where the force leaves the workers, after_force.py)
            read_after = not (isinstance(requirement, Happened)
                              and all(view_only(p) for p in requirement.pattern.filters))
            if mask is not None and self.forcing and read_after and self.met_after_force is None:
                judge = None if any(b.obligation.if_possible for b in compiler.obligations) else met_after_force(
                    compiler.obligations, view)
                if judge is None:
                    mask = None
                else:
                    self.met_after_force = source.constant(judge, "MET_AFTER_FORCE")
            if mask is not None and not self.requirement_lowered(bound, mask):
                mask = None
            if mask is None:
                required = []
                break
            flag = f"ob{index}"
            source.line(1, f"{flag} = {source.constant(bound.seat, 'SEAT')} not in st.out")
            required.append((flag, mask, bound.obligation.if_possible))
        self.lowers_obligations = (len(required) == len(compiler.obligations)
                                   and sum(if_possible for _, _, if_possible in required) <= 1)
        self.required = required if self.lowers_obligations else []
        self.possible = next((flag for flag, _, if_possible in self.required if if_possible), None)
        self.build_bans = compiler.bans_in_force(source, Verb.BUILD, 1, "bb")
        if self.fusion.winnable:  # (whether one more complete tower makes a board win hold: one_more_tower)
            source.lazy(1, "WIN1 = ONE_MORE(walk)")
            source.constants["ONE_MORE"] = one_more_tower(compiler.board_wins)
        wins = compiler.move_win_test(source, view) if any(way.can_win for way in ways) else None
        self.win_bits = "0" if wins is None else None
        if wins is not None:  # (the squares the move wins on, once per worker, where they are bits)
            bits = compiler.move_win_bits(source, view)
            if bits is not None:
                self.win_bits = source.hoist(bits)
                wins = f"low & {self.win_bits}"
            if not all(way.can_win for way in ways):
                wins = f"{source.constant(tuple(way.can_win for way in ways), 'CAN_WIN')}[sel] and {wins}"
        self.wins = wins
        step = self.step
        if step.actor.role in (Role.CHOSEN, Role.EACH) and step.actor.sex is None and all(
                way.actor is None for way in ways):  # (any of the seat's workers on the board: read inline)
            self.workers = f"st.members.get({source.constant(compiler.judge.team, 'TEAM')}, ())"
        else:
            self.workers = f"{source.constant(compiler.workers_of(step, ways), 'CHOOSE')}(walk)"
        self.forced = [source.constant(compiler.way_force(way), "FORCE") if way.forces else None for way in ways]
        source.constants.update(P_DOME=Piece.DOME, P_BLOCK=Piece.BLOCK, ALL=ALL_BITS, BISECT=bisect_right,
                                DRAWN=drawn_build, ACTIONS=actions, FORCED=force_destination,
                                IN_ORDER=builds_in_order, BUILT=build_events, TEAM=compiler.judge.team,
                                MOVES=tuple(actions("move", w) for w in range(32)),
                                BUILDS=tuple(actions("build", w) for w in range(32)))
        return True

    def requirement_lowered(self, bound: Bound, mask: str) -> bool:
        """Whether an obligation's requirement, as the squares `mask` the move must end on, is
        the whole of it for this writer's turns (one move: it is)."""
        return True

    def reach(self, depth: int) -> None:
        """The squares each way reaches from `o` (M0, M1, ...), and all of them (M), within the
        squares the obligations in force leave (R)."""
        source, targets, within = self.source, self.targets, ""
        if self.required:
            source.line(depth, "R = ALL")
            for flag, mask, if_possible in self.required:
                source.line(depth, f"if {flag}{' and strict' if if_possible else ''}:")
                source.line(depth + 1, f"R &= {mask}")
            within = " & R"
        if len(targets) == 1 and not self.forcing:
            source.lazy(depth, f"M = {targets[0]}{within}")
            return
        for index, mask in enumerate(targets):
            # (a move that forces a worker is judged where the force leaves them: `choose`)
            alone = self.met_after_force is not None and self.ways[index].forces
            source.line(depth, f"M{index} = {mask}{'' if alone else within}")
        source.line(depth, f"M = {' | '.join(f'M{index}' for index in range(len(targets)))}")

    def choose(self, depth: int, skip: str) -> None:
        """The way the move to `t` takes (`sel`), the first that reaches it, and where it forces
        the worker there (`dest`, -1 for none); `skip` where no way does."""
        source = self.source
        if len(self.targets) == 1 and not self.forcing:
            return
        source.line(depth, "sel = dest = -1")
        for index, way in enumerate(self.ways):
            source.line(depth, f"if sel < 0 and low & M{index}:")
            if way.forces:
                source.line(depth + 1, f"dest = FORCED(walk, {self.forced[index]}, w, o, t, OCC[t])")
                if self.met_after_force is not None:
                    source.line(depth + 1, f"if dest >= 0 and not {self.met_after_force}(walk, w, o, t, dest):")
                    source.line(depth + 2, "dest = -1")
                source.line(depth + 1, "if dest >= 0:")
                source.line(depth + 2, f"sel = {index}")
            else:
                source.line(depth + 1, f"sel = {index}")
        source.line(depth, "if sel < 0:")
        source.line(depth + 1, skip)

    def builds(self, depth: int, count_only: bool) -> bool:
        """The build's squares after the move (a forced worker on `dest`); whether they are `c`
        (DerivedCompiler.fused_masks)."""
        compiler, source, fusion, bans = self.compiler, self.source, self.fusion, self.build_bans
        if not self.forcing:
            return compiler.fused_masks(source, fusion, bans, depth, "BO", hoist=True, count_only=count_only)
        source.line(depth, "if dest < 0:")
        whole = compiler.fused_masks(source, fusion, bans, depth + 1, "BO", hoist=True, count_only=count_only)
        source.line(depth, "else:")
        if self.bans_read_workers():  # (where the force leaves the workers: after_force.py)
            forced = source.constant(builds_after_force(compiler, fusion, count_only), "FORCED_BUILDS")
            source.line(depth + 1, f"c, B, D, BF = {forced}(walk, w, o, t, dest)")
        else:
            compiler.fused_masks(source, fusion, bans, depth + 1, "(BO | 1 << dest)", count_only=count_only)
        return whole

    def bans_read_workers(self) -> bool:
        """Whether another seat's ban on builds reads where workers stand (its holder's own),
        which a move that forces a worker may change."""
        return not all(pointwise(part) for ban in self.compiler.bans if ban.verb is Verb.BUILD for part in ban.filters)

    def writes_c(self, fusion: Fusion | None = None, planes: tuple[str, str, str, str] = LEVELS) -> bool:
        """Whether the squares of the build (of `fusion`, the fused one by default) are `c` alone
        (written to a throwaway source)."""
        source, self.source = self.source, Source()
        try:
            return self.compiler.fused_masks(self.source, fusion or self.fusion, self.build_bans, 1, "BO", hoist=True,
                                             count_only=True, planes=planes)
        finally:
            self.source = source

    def finished(self, turn: str, drawn: bool = True) -> str:
        """The expression of a drawn turn (`turn`: a `Drawn` when `drawn`, else its steps and
        events, comma-separated) as its last build leaves it (`last_build`)."""
        fusion = self.fusion
        if fusion.automatic is None and not fusion.winnable:
            return turn
        self.source.constants["FINISH"] = last_build(fusion.automatic, fusion.winnable)
        won = self.may_win_on_board if fusion.winnable else "False"
        return f"FINISH(*{turn}, st.counters, {won})" if drawn else f"FINISH({turn}, st.counters, {won})"

    #: When a turn's builds may make a board win hold (`finished`): one more complete tower
    #: makes one hold (a writer whose turns may complete two says so too).
    may_win_on_board = "WIN1 is not None"

    def winning(self) -> str:
        """The squares of the builds `B` and `D` that make a board win hold, as a bit expression
        (none where one more complete tower makes none: `WIN1`)."""
        combos = " | ".join(f"({'D' if dome else 'B'} & {LEVELS[level]})" for level, dome in self.fusion.winnable)
        return f"(({combos}) if WIN1 is not None else 0)" if combos else "0"

    def groups(self, depth: int) -> list[str]:
        """Where the build's ways reach different regions, which the listing takes one after
        another in the ways' order: the squares each region but the last adds to those before
        it, as names set at `depth`, the last one's squares being the rest (`~U`); else none."""
        if not self.fusion.regions:
            return []
        source, view, names = self.source, View("w", "t", "s", "h", "h", "pc"), []
        for index, way in enumerate(self.fusion.ways[:-1]):
            region = self.compiler.region_bits(source, way, view)
            source.line(depth, f"G{index} = {region}" + (" & ~U" if index else ""))
            source.line(depth, f"U {'|' if index else ''}= G{index}")
            names.append(f"G{index}")
        return names

    def at_worker(self, depth: int) -> None:
        """What a worker's moves read, once per worker (`w` on `o`)."""
        source = self.source
        source.line(depth, "hh = H[o]")
        source.line(depth, "BO = BLOCKED ^ (1 << o)")
        source.hoisting_point(depth)
        self.reach(depth)

    def each_move(self, depth: int) -> int:
        """Open the loops over the workers and the squares each may move to, the way chosen;
        returns the depth of the body (`w` from `o` to `t`, its bit `low`)."""
        source = self.source
        source.line(depth, f"for w in {self.workers}:")
        source.line(depth + 1, "o = POS[w]")
        source.line(depth + 1, "if o < 0:")
        source.line(depth + 2, "continue")
        self.at_worker(depth + 1)
        loop_over_targets(source, depth + 1, "M")
        self.choose(depth + 2, "continue")
        return depth + 2

    def strictly(self) -> int:
        """Open the loop that judges an 'if possible' obligation (strict while it is in force,
        and again without it when no move meets it); returns the depth of its body."""
        if self.possible is None:
            return 1
        self.source.line(1, f"strict = {self.possible}")
        self.source.line(1, "while True:")
        return 2

    def unless_met(self, found: str, otherwise: str) -> None:
        """Close the loop of `strictly`: stop when the strict pass `found` something or was not
        strict, else go again without the obligation (`otherwise`: how the loop stops)."""
        if self.possible is None:
            return
        self.source.line(2, f"if {found} or not strict:")
        self.source.line(3, otherwise)
        self.source.line(2, "strict = False")

    def slid(self, depth: int, origin: str = "o", vacated: str | None = None) -> str:
        """After a move from `origin` to `t` that does not win: where another seat's slide takes
        the worker on, space by space in the move's direction while the space ahead passes its
        test (compiler.lowered_slide), as `t` (and `th`), the move's own target kept as `t0`
        (`th0`). `vacated`: a square the worker left earlier in the turn, free although the state
        still shows it there. Returns the name of the move's target."""
        slide = self.slide
        if slide is None:
            return "t"
        source = self.source
        source.line(depth, "t0, th0 = t, H[t]")
        source.line(depth, f"if {source.constant(slide.seat, 'SEAT')} not in st.out:")
        slide_loop(source, slide, depth + 1, origin, vacated=vacated)
        source.line(depth + 1, "t = f")
        source.line(depth + 1, "low = 1 << t")
        source.line(depth + 1, "th = H[t]")
        return "t0"

    def moved(self, depth: int, slid: bool = True) -> None:
        """`moved`: the events of the move to `t` (with the force it makes, or, once `slid` has
        run, the slide that took the worker on from `t0`; a winning move does not slide)."""
        source = self.source
        if self.slide is not None and slid:
            source.line(depth, "if t != t0:")
            source.line(depth + 1, "moved = (('move', w, o, t0, hh, th0), ('force', w, t0, t))")
            source.line(depth, "else:")
            source.line(depth + 1, "moved = (('move', w, o, t0, hh, th0),)")
        elif self.forcing:
            source.line(depth, "if dest >= 0:")
            source.line(depth + 1, "moved = (('move', w, o, t, hh, th), ('force', OCC[t], t, dest))")
            source.line(depth, "else:")
            source.line(depth + 1, "moved = (('move', w, o, t, hh, th),)")
        else:
            source.line(depth, "moved = (('move', w, o, t, hh, th),)")

    def counted(self, depth: int, whole: bool | None, code: str) -> None:
        """Add the build's outcomes (`c`, or `B` and `D`) to the count, under `code`; with
        `whole` None, the one outcome of a winning move."""
        source = self.source
        if whole is None:
            source.line(depth, "total += 1")
        elif self.only_count:  # (no entry to keep: the count alone)
            source.line(depth, "total += c.bit_count()" if whole else "total += B.bit_count() + D.bit_count()")
            return
        else:
            source.line(depth, "n = c.bit_count()" if whole else "n = B.bit_count() + D.bit_count()")
            source.line(depth, "if n:")
            depth += 1
            source.line(depth, "total += n")
        self.entry(depth, code)

    def drawn_move(self) -> None:
        """After `drawn`, with the drawn move's worker `w` and target `t` set: what the move
        reads (its worker's values, the way it takes, where it forces)."""
        source = self.source
        source.line(1, "o = POS[w]")
        source.line(1, "low = 1 << t")
        source.line(1, "th = H[t]")
        self.at_worker(1)
        self.choose(1, "raise AssertionError('a counted move was not found')")

    def drawn(self) -> None:
        """Draw the index among the `total` outcomes counted: its entry's `code`, and `index`
        within the entry. Writing `count`, the function returns the count here (what the draw
        writes after it is never reached)."""
        source = self.source
        if self.only_count:
            source.line(1, "return total")
        source.line(1, "if not total:")
        source.line(2, "return None")
        source.line(1, "index = rng.randrange(total)")
        source.line(1, "entry = BISECT(ends, index)")
        source.line(1, "if entry:")
        source.line(2, "index -= ends[entry - 1]")
        source.line(1, "code = codes[entry]")

    def added(self, depth: int, count: str, code: str) -> None:
        """Add `count` outcomes of a move (an expression) to the count, under `code`."""
        source = self.source
        if self.only_count:  # (no entry to keep: the count alone)
            source.line(depth, f"total += {count}")
            return
        source.line(depth, f"n = {count}")
        source.line(depth, "if n:")
        source.line(depth + 1, "total += n")
        self.entry(depth + 1, code)

    def entry(self, depth: int, code: str) -> None:
        """Keep where a move's outcomes end and the move's `code`, for the draw to find the
        move its index falls in (nothing, writing `count`)."""
        if not self.only_count:
            self.source.line(depth, "ends.append(total)")
            self.source.line(depth, f"codes.append({code})")

    def drawn_one_move(self) -> str:
        """After a first pass that coded each move as `w << 5 | t`: draw the index, look again
        at the move it falls in, end there if it wins, take the slide on. Returns the name of
        the move's own target."""
        source = self.source
        self.drawn()
        source.line(1, "w, t = code >> 5, code & 31")
        self.drawn_move()
        if self.wins is not None:
            source.line(1, f"if {self.wins}:")
            source.line(2, "return (('move', w, t),), None")
        return self.slid(1)

    def counting_callbacks(self) -> tuple[bool, Callable[[int, str], None], Callable[[int, str], None]]:
        """For a first pass over outcomes (`win`, `built` callbacks, each adding to the count
        under its code): whether the build's squares are `c`, and the callbacks."""
        source = self.source
        source.line(1, "total = 0")
        if not self.only_count:
            source.line(1, "ends = []")
            source.line(1, "codes = []")
        whole = self.writes_c()

        def win(depth: int, code: str) -> None:
            self.counted(depth, None, code)

        def built(depth: int, code: str) -> None:
            self.counted(depth, whole, code)
        return whole, win, built

    def counting_moves(self) -> tuple[int, str]:
        """Open a draw's first pass: the count, the loops over the moves, each winning move
        counted as one outcome, the rest taken on by a slide (`slid`). Returns the depth of the
        body and the name of the move's own target."""
        source = self.source
        top = self.strictly()
        source.line(top, "total = 0")
        if not self.only_count:
            source.line(top, "ends = []")
            source.line(top, "codes = []")
        body = self.each_move(top)
        if self.wins is not None:
            source.line(body, f"if {self.wins}:")
            self.counted(body + 1, None, "w << 5 | t")
            source.line(body + 1, "continue")
        return body, self.slid(body)

    def listing_moves(self) -> tuple[int, str]:
        """Open a listing: the list `out`, the loops over the moves (`move` the step), each
        winning move listed as a turn, the rest taken on by a slide. Returns the depth of the
        body and the name of the move's own target."""
        source = self.source
        top = self.strictly()
        source.line(top, "out = []")
        body = self.each_move(top)
        source.line(body, "th = H[t]")
        source.line(body, "move = ACTIONS('move', w)[t]")
        if self.wins is not None:
            source.line(body, f"if {self.wins}:")
            source.line(body + 1, "out.append((move,))")
            source.line(body + 1, "if listed is not None:")
            self.moved(body + 2, slid=False)
            source.line(body + 2, "listed[(move,)] = (moved, TEAM)")
            source.line(body + 1, "continue")
        return body, self.slid(body)

    def list_turn(self, depth: int, events: str = "(*moved, *built)") -> None:
        """Keep `turn`'s `events` for a caller that plays the turns listed, as its last build
        leaves them (`finished`: none kept for a build that may win, judged as it is played)."""
        source = self.source
        source.line(depth, "if listed is not None:")
        if self.fusion.automatic is not None or self.fusion.winnable:
            source.line(depth + 1, f"events = {self.finished(f'turn, {events}', drawn=False)}[1]")
            source.line(depth + 1, "if events is not None:")
            source.line(depth + 2, "listed[turn] = (events, None)")
        else:
            source.line(depth + 1, f"listed[turn] = ({events}, None)")

    def winning_callbacks(self) -> tuple[Callable[[int, str], None], Callable[[int, str], None] | None]:
        """For a search for a win over outcomes (`win`, `built` callbacks): a winning move, and
        a build that makes a board win hold for the seat's team (none without a board win)."""
        source = self.source

        def win(depth: int, code: str) -> None:
            source.line(depth, "return True")

        def built(depth: int, code: str) -> None:
            source.line(depth, f"if WIN1 == TEAM and {self.winning()}:")
            source.line(depth + 1, "return True")
        return win, built if self.fusion.winnable else None

    def draw(self) -> Kernel | None:
        """A random turn: each move's outcomes counted, the index drawn, and the one move it
        falls in looked at again."""
        if not self.begin("def draw(walk, rng):"):
            return None
        source = self.source
        body, moved = self.counting_moves()
        whole = self.builds(body, True)
        self.counted(body, whole, f"w << 5 | {moved}")
        self.unless_met("total", "break")
        moved = self.drawn_one_move()
        victim = ("(OCC[t] if dest >= 0 else -1)" if self.forcing else "(w if t != t0 else -1)" if self.slide
                  else "-1")
        if not self.builds(1, whole):
            dest = "dest" if self.forcing else "t" if self.slide else "-1"
            there = "th0" if self.slide else "th"
            drawn = f"DRAWN(w, o, {moved}, hh, {there}, {victim}, {dest}, index, {{}}, {{}}, BF, H, st.tokens)"
            groups = self.groups(1)
            for group in groups:  # (the ways' regions one after another, as the listing takes them)
                source.line(1, f"n = (B & {group}).bit_count() + (D & {group}).bit_count()")
                source.line(1, "if index < n:")
                source.line(2, f"return {self.finished(drawn.format(f'B & {group}', f'D & {group}'))}")
                source.line(1, "index -= n")
            last = drawn.format("B & ~U", "D & ~U") if groups else drawn.format("B", "D")
            source.line(1, f"return {self.finished(last)}")
        else:  # the index-th square of `c`: a block below level 3, a dome on it (drawn_build, written out)
            source.line(1, "for _ in range(index):")
            source.line(2, "c &= c - 1")
            source.line(1, "s = (c & -c).bit_length() - 1")
            source.line(1, "h = H[s]")
            source.line(1, "built = ('build', w, s, h + 1, False) if h < 3 else ('build', w, s, 3, True)")
            source.line(1, "held = st.tokens.get(s) if st.tokens else None")
            source.line(1, f"steps = (MOVES[w][{moved}], BUILDS[w][s]) if w < 32 else (ACTIONS('move', w)[{moved}], "
                           "ACTIONS('build', w)[s])")
            self.moved(1)
            source.line(1, "if held is None:")
            source.line(2, f"return {self.finished('steps, (*moved, built)', drawn=False)}")
            taken = "steps, (*moved, built, ('token', held[1], held[0], s, -1))"
            source.line(1, f"return {self.finished(taken, drawn=False)}")
        kernel: Kernel = source.function("draw")
        return kernel

    def outcome_kinds(self) -> Outcomes | None:
        """The pieces the turns add and whether they win (`Kernels.outcomes`): one piece, none
        where a move wins (the turn ends there), one where a build makes a board win hold."""
        if not self.one_piece:
            return None
        return frozenset({(1, 0, False), *(((0, 0, True),) if any(way.can_win for way in self.ways) else ()),
                          *(((1, 0, True),) if self.fusion.winnable else ())})

    def serves(self) -> Callable[[Walk], bool] | None:
        """Which positions the kernels serve (None: every one; the engine leaves the others to
        the chain)."""
        return None

    def count(self) -> Counter | None:
        """The number of distinct outcomes (perft's last ply): the draw's first pass alone,
        written by `draw` itself, whose `drawn` returns the count there (every writer draws after
        one first pass, so each gets its count from its own draw)."""
        self.only_count = True
        try:
            paired = self.count_by_pairs() if type(self) is Writer else None
            if paired is not None:
                return paired
            written = self.draw()
        finally:
            self.only_count = False
        if written is None:
            return None
        counter = cast(Callable[[Walk, None], int], written)  # (the generator is never read)
        return lambda walk: counter(walk, None)

    def count_by_pairs(self) -> Counter | None:
        """The count where each move's build squares are those around its target among squares
        that read no target (`c = AROUND_BITS[t] & X`, X once per worker): the sum over the
        moves of |X around t| is the number of neighbouring (target, square of X) pairs, counted
        by two multiplications per worker (board.neighbouring_pairs, written out) instead of a loop over the
        moves, and each winning move is one outcome. None for any other build, a move with more
        than one way or one that forces or slides, or an obligation judged 'if possible'."""
        if not self.begin("def count(walk):"):
            return None
        if (self.forcing or self.slide is not None or self.possible is not None or len(self.targets) != 1
                or self.win_bits is None or self.fusion.regions):
            return None
        source = self.source
        source.line(1, "total = 0")
        source.line(1, f"for w in {self.workers}:")
        source.line(2, "o = POS[w]")
        source.line(2, "if o < 0:")
        source.line(3, "continue")
        self.at_worker(2)
        # the build's masks are written to learn their form (what they hoist stays), then dropped
        mark = len(source.lines)
        whole = self.builds(3, True)
        written = source.lines[mark:]
        del source.lines[mark:]
        around = f"c = {source.constant(AROUND_BITS, 'AROUND_BITS')}[t] & "
        if not whole or len(written) != 1 or not written[0].strip().startswith(around):
            return None
        squares = written[0].strip()[len(around):]
        if squares not in source.hoisted.values():
            return None
        self.pairs_counted(2, squares)
        source.line(1, "return total")
        counter: Counter = source.function("count")
        return counter

    def pairs_counted(self, depth: int, squares: str) -> None:
        """Add a worker's outcomes to `total` (`count_by_pairs`): its moves `M` that do not win
        (`win_bits`) paired with the squares `squares` around them, and one for each that wins."""
        source = self.source
        # (neighbouring_pairs written out: the lanes' constants)
        spread, shifted, inside = (source.constant(PAIR_SPREAD, "SPREAD"), source.constant(PAIR_SHIFTED, "SHIFTED"),
                                   source.constant(PAIR_INSIDE, "INSIDE"))
        wins = self.win_bits
        moves = "M" if wins == "0" else f"(M & ~{wins})"
        source.line(depth, f"total += ({moves} * {spread} & {squares} * {shifted} & {inside}).bit_count()")
        if wins != "0":
            self.wins_counted(depth, f"M & {wins}")

    def wins_counted(self, depth: int, moves: str) -> None:
        """Add the winning moves `moves` (bits) to `total`, one outcome each (`pairs_counted`)."""
        self.source.line(depth, f"total += ({moves}).bit_count()")

    def turns(self) -> Lister | None:
        """Every turn in the listing's order (each a distinct outcome), with its events and
        winner where `listed` is given."""
        if not self.begin("def turns(walk, listed):"):
            return None
        source = self.source
        body, _ = self.listing_moves()
        self.builds(body, False)
        source.line(body, "if listed is not None:")
        self.moved(body + 1)
        groups = self.groups(body)
        if groups:  # (the ways' regions one after another, as the listing takes them)
            source.line(body, f"builds = {' + '.join(f'IN_ORDER(B & {g}, D & {g}, BF)' for g in groups)}"
                              " + IN_ORDER(B & ~U, D & ~U, BF)")
        source.line(body, f"for s, dome in {'builds' if groups else 'IN_ORDER(B, D, BF)'}:")
        source.line(body + 1, "verb, built = BUILT(w, s, dome, H, st.tokens)")
        source.line(body + 1, "turn = (move, ACTIONS(verb, w)[s])")
        source.line(body + 1, "out.append(turn)")
        self.list_turn(body + 1)
        self.unless_met("out", "break")
        source.line(1, "return out")
        lister: Lister = source.function("turns")
        return lister

    def moves_built(self) -> MovesBuilt | None:
        """Per move, the squares of the moved worker's build after it, as (worker, target,
        bits), or -1 for bits where the move wins (the turn ends there): what a later program
        whose turns may leave the same boards leaves out (kernel.py's `after_moves_built`). The
        target is where the worker ends: where another seat's slide takes it on (a winning move
        does not slide; moves in two directions never slide onto one square); under an 'if
        possible' obligation, the moves that meet it where some turn does. Only where each
        turn is one move of a worker that forces no one and one block or dome by that worker on
        one of those squares (a writer that adds more to its turns does not say); else None."""
        fusion = self.fusion
        if (type(self) is not Writer or self.forcing or not fusion.beside_wins
                or not self.writes_c() or not self.begin("def moves_built(walk):")):
            return None
        source = self.source
        top = self.strictly()  # (an 'if possible' obligation: the moves that meet it, where some do)
        source.line(top, "out = []")
        body = self.each_move(top)
        if self.wins is not None:
            source.line(body, f"if {self.wins}:")
            source.line(body + 1, "out.append((w, t, -1))")
            source.line(body + 1, "continue")
        self.slid(body)
        whole = self.builds(body, True)
        assert whole  # (writes_c)
        source.line(body, "if c:")
        source.line(body + 1, "out.append((w, t, c))")
        self.unless_met("out", "break")
        source.line(1, "return out")
        function: MovesBuilt = source.function("moves_built")
        return function

    def can_win(self) -> Callable[[Walk], bool] | None:
        """Whether some turn wins at once: a winning move (among those an 'if possible'
        obligation leaves, when some turn meets it)."""
        if not self.begin("def can_win(walk):"):
            return None
        source = self.source
        winnable = self.fusion.winnable
        if self.wins is None and not winnable:
            source.line(1, "return False")
            function: Callable[[Walk], bool] = source.function("can_win")
            return function
        top = self.strictly()
        source.line(top, "complete = False")
        body = self.each_move(top)
        if self.wins is not None:
            source.line(body, f"if {self.wins}:")
            source.line(body + 1, "return True")
        self.slid(body)
        if winnable:  # (a build that makes a board win hold for the seat's team)
            self.builds(body, False)
            source.line(body, f"if WIN1 == TEAM and {self.winning()}:")
            source.line(body + 1, "return True")
        if self.possible is not None:  # (whether the obligation is possible: some turn completes)
            whole = self.builds(body, True)
            source.line(body, f"complete = complete or bool({'c' if whole else 'B | D'})")
            self.unless_met("complete", "return False")
        source.line(1, "return False")
        function = source.function("can_win")
        return function


def last_build(automatic: TokenOnBuilt | None, winnable: tuple[tuple[int, bool], ...]
               ) -> Callable[[tuple[Action, ...], tuple[Event, ...], dict[tuple[int, str], int], bool], Drawn]:
    """What a drawn turn's last build brings after it: no events for a turn with a build that
    may make a board win hold (`winnable`: its level before and whether it is a dome, where
    `won` says the towers it may complete make one hold), so that the engine plays it step by
    step and judges the win; else the events of the automatic step after it."""
    def finish(steps: tuple[Action, ...], events: tuple[Event, ...], counters: dict[tuple[int, str], int],
               won: bool) -> Drawn:
        if won and any(event[0] == "build" and (event[3] - (not event[4]), event[4]) in winnable
                       for event in events):
            return steps, None
        return steps, events if automatic is None else automatic.events(events, counters)
    return finish


def one_more_tower(board_wins: Callable[[Walk], int | None] | None, more: int = 1,
                   lowest: int = 3) -> Callable[[Walk], int | None]:
    """The team a board win makes win once `more` more towers are complete, or None. The board
    wins a kernel judges are those of counts of complete towers and of players
    (derived/invariance.py keeps the others off the kernels), so the one build that may change
    them, a dome on level 3, makes them hold or not whichever square it is on: judged once per
    turn, on the state with towers completed on squares of level `lowest` or more (raised to
    level 3 and domed; `lowest` 2 where a turn's two builds on one square may complete one) and
    taken back."""
    assert board_wins is not None

    def winner(walk: Walk) -> int | None:
        st = walk.state
        heights, domes = st.heights, st.domes
        squares = sorted((s for s in range(25) if heights[s] >= lowest and not domes[s]),
                         key=lambda s: -heights[s])[:more]
        if len(squares) < more:
            return None  # (not so many towers can be completed)
        before = [(s, heights[s]) for s in squares]
        for square in squares:
            st.set_height(square, 3)
            st.set_dome(square, True)
        try:
            return board_wins(walk)
        finally:
            for square, height in before:
                st.set_dome(square, False)
                st.set_height(square, height)
    return winner


def board_win_near(compiler: DerivedCompiler, builds: int | Callable[[Walk], int],
                   anywhere: bool = False) -> Callable[[Walk], bool] | None:
    """Whether a board win holds, or `builds` more builds (a number, or one read from the
    position) may make one hold, for a kernel that leaves such positions to the chain; never,
    without a board win; None where what builds do to the board's wins is not known. Each build
    completes at most one tower, a dome on level 3: on a square of level 3 now (`one_more_tower`),
    or, `anywhere`, where builds on one square may raise it to level 3 first (`towers_anywhere`)."""
    board_wins = compiler.board_wins
    if board_wins is None:
        return lambda walk: False
    if compiler.winnable is None:
        return None
    if anywhere:
        def raised(walk: Walk) -> bool:
            most = towers_within(walk.state, builds(walk) if callable(builds) else builds)
            return board_wins(walk) is not None or any(towers_anywhere(board_wins, walk, more) is not None
                                                       for more in range(1, most + 1))
        return raised
    assert isinstance(builds, int)
    towers = [one_more_tower(board_wins, more) for more in range(1, builds + 1)]
    return lambda walk: board_wins(walk) is not None or any(tower(walk) is not None for tower in towers)


def towers_within(st: GameState, builds: int) -> int:
    """The most towers `builds` builds may complete: a square of level h takes 4 - h of them (its
    blocks, then the dome), the highest squares first."""
    costs = sorted(4 - st.heights[s] for s in range(25) if not st.domes[s])
    towers = 0
    for cost in costs:
        if cost > builds:
            break
        builds -= cost
        towers += 1
    return towers


def towers_anywhere(board_wins: Callable[[Walk], int | None], walk: Walk, more: int) -> int | None:
    """The team a board win makes win once `more` more towers are complete, wherever they are
    (those wins count complete towers and players only: derived/invariance.py): judged with domes
    on level 3 put on as many squares that are not complete towers, and taken off again."""
    st = walk.state
    heights, domes = st.heights, st.domes
    squares = sorted((s for s in range(25) if not (heights[s] == 3 and domes[s])), key=lambda s: -heights[s])[:more]
    if len(squares) < more:
        return None
    before = [(s, heights[s], domes[s]) for s in squares]
    for square in squares:
        st.set_dome(square, False)
        st.set_height(square, 3)
        st.set_dome(square, True)
    try:
        return board_wins(walk)
    finally:
        for square, height, dome in before:
            st.set_dome(square, False)
            st.set_height(square, height)
            st.set_dome(square, dome)


def obligations_as_squares(compiler: DerivedCompiler, source: Source, view: View,
                           levels: bool = True) -> list[tuple[str, str]] | None:
    """The obligations other seats lay on the turn, each as a flag set in `source` (its holder
    is in the game) and the squares the move in `view` must end on (`required_squares`); None
    where one is not so (an 'if possible' one, or, without `levels`, one that reads a level)."""
    required = []
    for index, bound in enumerate(compiler.obligations):
        mask = required_squares(source, bound, view)
        if mask is None or bound.obligation.if_possible or (not levels and _LEVEL_PLANES.search(mask)):
            return None
        flag = f"ob{index}"
        source.line(1, f"{flag} = {source.constant(bound.seat, 'SEAT')} not in st.out")
        required.append((flag, mask))
    return required


#: A name of the level planes in generated code (masks.LEVELS).
_LEVEL_PLANES = re.compile(r"\bL[0-3]\b")


def builds_in_order(blocks: int, domes: int, blocks_first: int) -> list[tuple[int, bool]]:
    """The builds on the squares `blocks` (a block) and `domes` (a dome), in the listing's order
    (nth_build's): (square, whether it is a dome)."""
    out = []
    squares = blocks | domes
    while squares:
        bit = squares & -squares
        squares ^= bit
        square = bit.bit_length() - 1
        if blocks & domes & bit:
            first = not blocks_first & bit
            out += [(square, first), (square, not first)]
        else:
            out.append((square, bool(domes & bit)))
    return out


def required_squares(source: Source, bound: Bound, view: View) -> str | None:
    """An obligation on the turn as the squares the turn's one move must end on (once per
    worker): 'a worker must move up this turn' (a move of the turn matches a pattern), 'a worker
    that started next to yours must end next to yours' (each moved worker's last move); None
    for another requirement, or one a build could change."""
    requirement = bound.obligation.requirement
    if not unchanged_by_a_build(requirement):
        return None
    if isinstance(requirement, Happened):
        pattern = requirement.pattern
        if requirement.scope is not Scope.THIS_TURN or pattern.verb is not Verb.MOVE or pattern.owner is Owner.YOURS:
            return None
        return MaskLowering(Lowering(source, bound.judge), None, verb=Verb.MOVE).all(pattern.filters, view)
    if isinstance(requirement, LastMoves) and requirement.owner is not Owner.YOURS:
        start = View(view.worker, view.origin, view.origin, view.here, view.here)  # (its start as the target)
        started = MaskLowering(Lowering(source, bound.judge), None).all(requirement.started, start)
        ended = MaskLowering(Lowering(source, bound.judge), None, verb=Verb.MOVE).all(requirement.ended, view)
        if started is None or ended is None:
            return None
        return f"(({ended}) if ({started}) >> o & 1 else ALL)"
    return None


def _against_opponents(way: WayParts) -> bool:
    """Whether a way reaches only an opponent worker's square (so that the worker it forces is
    never the seat's own, and two moves never leave the same workers on the same squares)."""
    return any(isinstance(part, OccupiedBy) and part.owner is Owner.OPPONENTS for part in way.filters)


def holders_own(part: Condition, also: tuple[type, ...] = (), own: bool = False) -> bool:
    """Whether a condition of another seat's ban reads only the square it judges, the step's
    piece and levels, and the holder's own workers (which this seat's turn never moves), or is
    a part of the kinds `also` (which the caller knows its turn leaves as they were). `own`: the
    ban is the seat's own team's ('all workers cannot ...'), whose workers its turn does move."""
    if isinstance(part, Not):
        return holders_own(part.part, also, own)
    if isinstance(part, (AnyOf, AllOf)):
        return all(holders_own(p, also, own) for p in part.parts)
    return (pointwise(part) or isinstance(part, also)
            or (not own and isinstance(part, (Near, OccupiedBy)) and part.owner is Owner.YOURS))


def pointwise(part: Condition) -> bool:
    """Whether a condition reads only the candidate square and the view, never where the other
    workers stand (a force moves one, which the per-worker values would not see)."""
    if isinstance(part, Not):
        return pointwise(part.part)
    if isinstance(part, (AnyOf, AllOf)):
        return all(pointwise(p) for p in part.parts)
    if isinstance(part, SpaceIs):
        return part.space is SpaceRef.TARGET
    return isinstance(part, (TargetLevel, LevelChange, PieceIs, PlayerCount, AlongLine))


def reads_the_line(part: Condition) -> bool:
    """Whether a condition reads the line from the worker's square to the target ('diagonally'):
    a walk of several moves judged from where it began would misread it."""
    return any(isinstance(inner, AlongLine) for inner in nested(part))


__all__ = ["Counter", "Drawn", "Kernel", "Listed", "Lister", "MovesBuilt", "Outcomes", "Writer", "builds_in_order",
           "drawn_build", "board_win_near", "holders_own", "last_build", "obligations_as_squares", "pointwise",
           "reads_the_line", "required_squares", "towers_anywhere", "towers_within"]

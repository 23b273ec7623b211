"""The kernels of a move then builds made up to a number of times (kernel.py): the moved worker's
build made again and again (`BuildsRepeated`), or its one build followed by those of the worker
that did not move (`LaterBuilds`); and the counting of such builds.

**Builds up to a number of times.** A worker that may build up to `times` times around itself
adds pieces to the squares there: `c_s` pieces on square s, 0 <= c_s <= 4 - height (the blocks
left, then the dome), sum c_s <= times. Two different vectors leave different boards, so the
outcomes are the vectors, and their number depends only on how many squares can take 1, 2, 3
or 4 pieces (`ways`, a product of polynomials truncated at `times`). The chain finds them depth
first, the same builds in another order found later, so they come as the non-decreasing
sequences of build squares in square order, each after its prefix (`nth_builds`).

**After another worker's build.** The moved worker builds once on a square of `B` (around it);
then the worker that did not move, if it stands on one of the guard's levels, builds up to N
times on the squares `R` around it that are free once the move is made. Two turns leave the same
board when they add the same multiset S of pieces, so a move's outcomes are the S some first
build makes: those within R that hold a square of B, 1 <= |S| <= N + 1
(ways(R, N + 1) - ways(R - B, N + 1)), and one piece on a square of B outside R with any builds
in R (|B - R| ways(R, N)). In the listing's order, a first build b owns the builds that hold no
earlier square of B within R (a board found before is passed over), which is how `later_builds`
finds the drawn one.

**Again and again.** The moved worker's builds, as many as the counters pay for (K), are its
vectors over the squares around it: ways(c, K), none at all among them. The chain reaches them
breadth first (chain/steps.py's `breadth_first`): by the number of builds, then as the
non-decreasing sequences of build squares in square order (`nth_builds_by_count`); each build
pays its cost as the chain's does, after it.

A winning move ends the turn (one outcome). A team with more than two workers on the board has
more than one worker that did not move: the kernels leave such a position to the count
(`serves`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from functools import cache
from typing import TYPE_CHECKING

from ...dsl.vocabulary import Piece, Step, Verb
from ..chain.actions import actions
from ..chain.walk import Walk
from ..model.board import AROUND_BITS
from ..model.state import Action, Event
from .after_build import BuildsRepeated, LaterBuilds
from .conditions import Lowering, View
from .masks import LEVELS, LEVELS_AFTER_A_BLOCK, MaskLowering
from .source import Source
from .tally import Tokens, build_events
from .writer import Kernel, Lister, Writer, board_win_near, holders_own

if TYPE_CHECKING:
    from ...dsl.vocabulary.parts import Condition
    from ..chain.conditions import Judge
    from .steps import DerivedCompiler, Fusion


@cache
def by_sum(shape: tuple[int, int, int, int], budget: int) -> tuple[int, ...]:
    """The number of vectors (c_s), 0 <= c_s <= cap_s, for shape[k] squares of cap k + 1, by
    their sum, up to `budget`: the coefficients of the product of (1 + x + ... + x^cap)."""
    coefficients = [1]
    for cap, squares in enumerate(shape, start=1):
        for _ in range(squares):
            grown = [0] * min(len(coefficients) + cap, budget + 1)
            for degree, value in enumerate(coefficients):
                if value:
                    for extra in range(min(cap, budget - degree) + 1):
                        grown[degree + extra] += value
            coefficients = grown
    return tuple(coefficients)


def ways(shape: tuple[int, int, int, int], budget: int) -> int:
    """The vectors (c_s), 0 <= c_s <= cap_s, sum <= budget, for shape[k] squares of cap k + 1."""
    return sum(by_sum(shape, budget))


def shape_of(caps: Sequence[int]) -> tuple[int, int, int, int]:
    """How many of the caps are 1, 2, 3 and 4 (a cap of 0 adds nothing)."""
    return (caps.count(1), caps.count(2), caps.count(3), caps.count(4))


def pieces(squares: int, level_1: int, level_2: int, level_3: int) -> tuple[int, int, int, int]:
    """The shape of `squares` (free squares, as bits): how many can take 1, 2, 3 or 4 pieces."""
    on_1, on_2, on_3 = (squares & level_1).bit_count(), (squares & level_2).bit_count(), (squares & level_3).bit_count()
    return on_3, on_2, on_1, squares.bit_count() - on_1 - on_2 - on_3


def nth_builds(squares: Sequence[int], caps: Sequence[int], budget: int, index: int) -> list[int]:
    """The `index`-th way to build at most `budget` times on `squares` (in the order the chain
    tries them), at most caps[i] pieces on squares[i], in the chain's depth-first order: the
    non-decreasing sequences of squares, each after its prefix. The squares built on, in order."""
    built: list[int] = []
    used = [0] * len(squares)
    start = 0
    while index:
        index -= 1  # (this node's own turn: no more builds)
        for place in range(start, len(squares) if budget > 0 else start):
            if used[place] >= caps[place]:
                continue
            left = [caps[place] - used[place] - 1, *caps[place + 1:]]  # (a later square: none used yet)
            size = ways(shape_of(left), budget - 1)
            if index < size:
                built.append(squares[place])
                used[place] += 1
                budget -= 1
                start = place
                break
            index -= size
        else:  # pragma: no cover - the counts agree
            raise AssertionError("a counted turn was not found")
    return built


def builds_in_order(squares: Sequence[int], caps: Sequence[int], budget: int) -> Iterator[list[int]]:
    """Every way `nth_builds` numbers, in its order."""
    def below(prefix: list[int], used: list[int], start: int, left: int) -> Iterator[list[int]]:
        yield prefix
        if left:
            for place in range(start, len(squares)):
                if used[place] < caps[place]:
                    used[place] += 1
                    yield from below([*prefix, squares[place]], used, place, left - 1)
                    used[place] -= 1
    return below([], [0] * len(squares), 0, budget)


def nth_builds_by_count(squares: Sequence[int], caps: Sequence[int], budget: int, index: int) -> list[int]:
    """The `index`-th way to build at most `budget` times on `squares` (caps as `nth_builds`'s)
    in the order a step repeated any number of times reaches them (chain/steps.py's
    `breadth_first`): by the number of builds, and among as many, the non-decreasing sequences
    of squares in order (each found first from the sequence without its last square, the
    earliest of its sequences one build shorter). The squares built on, in order."""
    counts = by_sum(shape_of(caps), budget)
    size = 0
    while index >= counts[size]:  # (the number of builds: the counts say the index is within them)
        index -= counts[size]
        size += 1
    built: list[int] = []
    used = [0] * len(squares)
    start = 0
    for left in range(size, 0, -1):
        for place in range(start, len(squares)):
            if used[place] >= caps[place]:
                continue
            after = by_sum(shape_of([caps[place] - used[place] - 1, *caps[place + 1:]]), left - 1)
            ways_after = after[left - 1] if len(after) >= left else 0
            if index < ways_after:
                built.append(squares[place])
                used[place] += 1
                start = place
                break
            index -= ways_after
        else:  # pragma: no cover - the counts agree
            raise AssertionError("a counted turn was not found")
    return built


def builds_by_count_in_order(squares: Sequence[int], caps: Sequence[int], budget: int) -> Iterator[list[int]]:
    """Every way `nth_builds_by_count` numbers, in its order."""
    def sequences(prefix: list[int], used: list[int], start: int, left: int) -> Iterator[list[int]]:
        if not left:
            yield prefix
            return
        for place in range(start, len(squares)):
            if used[place] < caps[place]:
                used[place] += 1
                yield from sequences([*prefix, squares[place]], used, place, left - 1)
                used[place] -= 1
    for size in range(budget + 1):
        yield from sequences([], [0] * len(squares), 0, size)


def _cap(square: int, height: int, allowed: tuple[int, int, int, int] | None) -> int:
    """How many pieces may go on `square` of `height`: the blocks left and the dome, or, with
    `allowed` (the squares where the piece after 0, 1, 2 and 3 more blocks may go, where another
    seat's ban reads each piece), as many of them in a row as it allows."""
    if allowed is None:
        return 4 - height
    taken = 0
    while height + taken <= 3 and allowed[taken] >> square & 1:
        taken += 1
    return taken


def _first_builds(first: int, builder: int, reach: int, heights: Sequence[int],
                  allowed: tuple[int, int, int, int] | None = None) -> Iterator[tuple[int, list[int], list[int]]]:
    """Each first build's square in the listing's order, with the squares and caps of the later
    builds it owns (those holding no earlier first build's square within `reach`; `allowed`:
    `_cap`'s)."""
    around = [s for s in range(25) if reach >> s & 1] if builder >= 0 else []
    caps = [_cap(s, heights[s], allowed) for s in around]
    earlier = 0
    while first:
        low = first & -first
        first ^= low
        square = low.bit_length() - 1
        own = [i for i, s in enumerate(around) if not earlier >> s & 1] if reach & low else range(len(around))
        if reach & low:
            earlier |= low
        yield square, [around[i] for i in own], [caps[i] - (around[i] == square) for i in own]


def later_builds(index: int, worker: int, first: int, builder: int, reach: int, times: int,
                 heights: Sequence[int], tokens: Tokens, allowed: tuple[int, int, int, int] | None = None
                 ) -> tuple[tuple[Action, ...], tuple[Event, ...]]:
    """The build steps and events of a move's `index`-th outcome: `worker`'s build on a square
    of `first`, then `builder`'s up to `times` builds on `reach` (-1 and 0: no builder;
    `allowed`: `_cap`'s)."""
    for square, own, caps in _first_builds(first, builder, reach, heights, allowed):
        size = ways(shape_of(caps), times)
        if index < size:
            return _built(worker, square, builder, nth_builds(own, caps, times, index), heights, tokens)
        index -= size
    raise AssertionError("a counted turn was not found")  # pragma: no cover - the counts agree


def later_builds_in_order(worker: int, first: int, builder: int, reach: int, times: int,
                          heights: Sequence[int], tokens: Tokens, allowed: tuple[int, int, int, int] | None = None
                          ) -> Iterator[tuple[tuple[Action, ...], tuple[Event, ...]]]:
    """Every outcome `later_builds` numbers, in its order."""
    for square, own, caps in _first_builds(first, builder, reach, heights, allowed):
        for built in builds_in_order(own, caps, times):
            yield _built(worker, square, builder, built, heights, tokens)


def _built(worker: int, square: int, builder: int, later: list[int], heights: Sequence[int],
           tokens: Tokens) -> tuple[tuple[Action, ...], tuple[Event, ...]]:
    """The steps and events of `worker`'s build on `square`, then `builder`'s on `later`, the
    next piece each time (a token taken off the first time a square is built on)."""
    verb, events = build_events(worker, square, heights[square] == 3, heights, tokens)
    steps: tuple[Action, ...] = (actions(verb, worker)[square],)
    now = {square: heights[square] + 1}
    for target in later:
        level = now.get(target, heights[target])
        if target in now:
            events += (("build", builder, target, level + (level < 3), level == 3),)
        else:
            events += build_events(builder, target, level == 3, heights, tokens)[1]
        steps += (actions("build", builder)[target],)
        now[target] = level + 1
    return steps, events


def capped(squares: int, more: tuple[int, int, int] | None, heights: Sequence[int]) -> tuple[list[int], list[int]]:
    """The squares of `squares` (bits) in order and how many pieces each may take: the blocks
    left and the dome (4 - height), or, with `more` (the squares that may take a second, a third
    and a fourth piece, where another seat's ban reads each piece: `pieces_allowed`), as many as
    those say."""
    around = [s for s in range(25) if squares >> s & 1]
    if more is None:
        return around, [4 - heights[s] for s in around]
    second, third, fourth = more
    return around, [1 + (second >> s & 1) + (third >> s & 1) + (fourth >> s & 1) for s in around]


def pieces_allowed(squares: int, second: int, third: int, fourth: int) -> tuple[int, int, int, int]:
    """The shape of `squares` (as `pieces`) where `second`, `third` and `fourth` are the squares
    that may take that many pieces (each within the one before)."""
    two, three, four = second.bit_count(), third.bit_count(), fourth.bit_count()
    return squares.bit_count() - two, two - three, three - four, four


def repeated_builds(index: int, worker: int, squares: int, times: int, heights: Sequence[int], tokens: Tokens,
                    seat: int, costs: tuple[tuple[str, int], ...], counters: dict[tuple[int, str], int],
                    more: tuple[int, int, int] | None = None) -> tuple[tuple[Action, ...], tuple[Event, ...]]:
    """The build steps and events of the `index`-th way for `worker` to build at most `times`
    times on `squares` (as bits), each paying `costs` from the seat's `counters` (`more`:
    `capped`'s)."""
    around, caps = capped(squares, more, heights)
    return _paid(worker, nth_builds_by_count(around, caps, times, index), heights, tokens, seat, costs, counters)


def repeated_builds_in_order(worker: int, squares: int, times: int, heights: Sequence[int], tokens: Tokens,
                             seat: int, costs: tuple[tuple[str, int], ...], counters: dict[tuple[int, str], int],
                             more: tuple[int, int, int] | None = None
                             ) -> Iterator[tuple[tuple[Action, ...], tuple[Event, ...]]]:
    """Every outcome `repeated_builds` numbers, in its order."""
    around, caps = capped(squares, more, heights)
    for built in builds_by_count_in_order(around, caps, times):
        yield _paid(worker, built, heights, tokens, seat, costs, counters)


def _paid(worker: int, built: list[int], heights: Sequence[int], tokens: Tokens, seat: int,
          costs: tuple[tuple[str, int], ...], counters: dict[tuple[int, str], int]
          ) -> tuple[tuple[Action, ...], tuple[Event, ...]]:
    """The steps and events of `worker`'s builds on `built`, in order, each followed by its
    payment (the next piece each time, a token taken off the first time a square is built on)."""
    steps: tuple[Action, ...] = ()
    events: tuple[Event, ...] = ()
    now: dict[int, int] = {}
    left = {name: counters.get((seat, name), 0) for name, _ in costs}
    for target in built:
        level = now.get(target, heights[target])
        if target in now:
            events += (("build", worker, target, level + (level < 3), level == 3),)
        else:
            events += build_events(worker, target, level == 3, heights, tokens)[1]
        for name, amount in costs:
            left[name] -= amount
            events += (("counter", seat, name, left[name]),)
        steps += (actions("build", worker)[target],)
        now[target] = level + 1
    return steps, events


class _BuildsWriter(Writer):
    """What the two writers below share: a move, then builds counted per move as `ways` over
    the squares' caps (`count_after_move`), the drawn move's outcome found by `DRAWN`, and each
    move's outcomes listed by `LISTED`, from the names `arguments` gives them."""

    one_piece = False  # (as many builds as the turn makes)

    #: The arguments of `DRAWN` after the index, and of `LISTED`.
    arguments = ""

    def fits(self) -> bool:
        """One build of the next piece around the moved worker (`c`), no force, no board win,
        and no other seat's ban on builds (which would read each build's piece)."""
        fusion = self.fusion
        return (super().fits() and not self.forcing and fusion.again is None and fusion.automatic is None
                and fusion.last is None and not fusion.regions and self.writes_c()
                and not any(ban.verb is Verb.BUILD for ban in self.compiler.bans))

    def most_builds(self, walk: Walk) -> int:
        """The most builds a turn may make from this position (`serves` reads it)."""
        raise NotImplementedError  # pragma: no cover - each writer says its own

    def serves(self) -> Callable[[Walk], bool]:
        """Whether the team has at most two workers on the board (else more than one did not
        move: the position is left to the count), and no board win holds or may hold after the
        turn's builds (which may raise one square to a complete tower: left to the chain)."""
        team = self.compiler.judge.team
        near = board_win_near(self.compiler, self.most_builds, anywhere=True)

        def served(walk: Walk) -> bool:
            st = walk.state
            return (near is not None and sum(st.worker_pos[w] >= 0 for w in st.members.get(team, ())) <= 2
                    and not near(walk))
        return served

    def after_move(self, depth: int) -> None:
        """What the builds read after the move to `t`, besides `c`."""

    def count_after_move(self, depth: int) -> str:
        """Write what a move's count reads; return the count's expression."""
        raise NotImplementedError

    def draw(self) -> Kernel | None:
        if not self.begin("def draw(walk, rng):"):
            return None
        source = self.source
        body, moved = self.counting_moves()
        self.builds(body, True)
        self.after_move(body)
        self.added(body, self.count_after_move(body), f"w << 5 | {moved}")
        self.unless_met("total", "break")
        moved = self.drawn_one_move()
        self.moved(1)
        self.builds(1, True)
        self.after_move(1)
        source.line(1, f"steps, built = DRAWN(index, {self.arguments})")
        source.line(1, f"return (ACTIONS('move', w)[{moved}], *steps), (*moved, *built)")
        kernel: Kernel = source.function("draw")
        return kernel

    def turns(self) -> Lister | None:
        if not self.begin("def turns(walk, listed):"):
            return None
        source = self.source
        body, _ = self.listing_moves()
        self.moved(body)
        self.builds(body, True)
        self.after_move(body)
        source.line(body, f"for steps, built in LISTED({self.arguments}):")
        source.line(body + 1, "turn = (move, *steps)")
        source.line(body + 1, "out.append(turn)")
        self.list_turn(body + 1)
        self.unless_met("out", "break")
        source.line(1, "return out")
        lister: Lister = source.function("turns")
        return lister


#: The view of a build by the worker that did not move (on `PU`), in generated code, as the bans
#: `holders_own` allows read it: the acting worker named is the moved one (`w`), whose values none of
#: their parts reads but to leave it out of the holders' workers, which it is not among.
_LATER = View("w", "PU", "s", "h", "h", "pc")


#: The level planes of the board as k blocks built on every square leave it (k = 1, 2, 3): a
#: square on level h is then on level h + k (masks.LEVELS_AFTER_A_BLOCK for one).
LEVELS_AFTER_BLOCKS = (LEVELS_AFTER_A_BLOCK, ("0", "0", "L0", "L1"), ("0", "0", "0", "L0"))


class RepeatedBuildsWriter(_BuildsWriter):
    """The kernels of a move then its worker's build made again and again (`BuildsRepeated`,
    the module docstring): per move, `c` the squares around it that a build may take, and `K`
    the builds the turn may make (once per turn). Where another seat bans some builds, reading
    each build's piece and level ('unless building a dome'), how many pieces each square may
    take is read from the ban as the board would be after one, two and three blocks on it
    (`C2`, `C3`, `C4`: the squares that may take a second, third and fourth piece)."""

    def __init__(self, compiler: DerivedCompiler, step: Step, fusion: Fusion) -> None:
        super().__init__(compiler, step, fusion)
        assert fusion.repeats is not None
        self.repeats: BuildsRepeated = fusion.repeats
        self.banned = any(ban.verb is Verb.BUILD for ban in compiler.bans)
        more = "(C2, C3, C4)" if self.banned else "None"
        self.arguments = f"w, c, K, H, st.tokens, SEAT, COSTS, st.counters, {more}"

    def fits(self) -> bool:
        """`_BuildsWriter`'s, but for other seats' bans on builds whose squares after each
        block are bits too (each a `c`)."""
        fusion = self.fusion
        return (Writer.fits(self) and not self.forcing and fusion.again is None and fusion.automatic is None
                and fusion.last is None and not fusion.regions and self.writes_c()
                and all(self.writes_c(planes=planes) for planes in LEVELS_AFTER_BLOCKS))

    def after_move(self, depth: int) -> None:
        """With other seats' bans on builds: `C2`, `C3` and `C4` from the squares the ban leaves
        after one, two and three blocks (`c` kept as it was)."""
        if not self.banned:
            return
        source, compiler = self.source, self.compiler
        source.line(depth, "C1 = c")
        for k, planes in enumerate(LEVELS_AFTER_BLOCKS, start=1):
            compiler.fused_masks(source, self.fusion, self.build_bans, depth, "BO", hoist=True, count_only=True,
                                 planes=planes)
            source.line(depth, f"A{k} = c")
        source.line(depth, "c = C1")
        source.line(depth, "C2 = c & A1 & ~L3")
        source.line(depth, "C3 = C2 & A2 & ~L2")
        source.line(depth, "C4 = C3 & A3 & L0")

    def begin(self, header: str) -> bool:
        if not super().begin(header):
            return False
        source, repeats = self.source, self.repeats
        bounds = [f"st.counters.get((SEAT, {name!r}), 0) // {amount}" for name, amount in repeats.costs]
        if repeats.times is not None:
            bounds.append(str(repeats.times))
        source.line(1, f"K = {bounds[0]}" if len(bounds) == 1 else f"K = min({', '.join(bounds)})")
        source.constants.update(PIECES=pieces, WAYS=ways, COSTS=repeats.costs, SEAT=self.compiler.rules.seat,
                                DRAWN=repeated_builds, LISTED=repeated_builds_in_order, ALLOWED=pieces_allowed)
        return True

    def count_after_move(self, depth: int) -> str:
        return "WAYS(ALLOWED(c, C2, C3, C4), K)" if self.banned else "WAYS(PIECES(c, L1, L2, L3), K)"

    def most_builds(self, walk: Walk) -> int:
        repeats, seat = self.repeats, self.compiler.rules.seat
        counters = walk.state.counters
        bounds = [counters.get((seat, name), 0) // amount for name, amount in repeats.costs]
        return min(bounds + ([repeats.times] if repeats.times is not None else []))


class LaterBuildsWriter(_BuildsWriter):
    """The kernels of a move, its worker's build, then `LaterBuilds` (the module docstring): per
    move, `c` the first build's squares and `RU` the squares around the worker that did not move
    (`U` on `PU`, -1 where it may not build) that are free once the move is made."""

    def __init__(self, compiler: DerivedCompiler, step: Step, fusion: Fusion) -> None:
        super().__init__(compiler, step, fusion)
        assert fusion.later is not None
        self.later: LaterBuilds = fusion.later
        #: Whether other seats' bans on builds, or the later builds' own filters ('not a dome'),
        #: leave the later builds fewer pieces on a square than it can take (`A0`..`A3`).
        self.banned = any(ban.verb is Verb.BUILD for ban in compiler.bans) or bool(self.later.filters)
        allowed = "(A0, A1, A2, A3)" if self.banned else "None"
        self.arguments = f"w, c, U, RU, {self.later.times}, H, st.tokens, {allowed}"
        #: The name of the guard's levels, by level (set by `begin`).
        self.levels_ok = ""

    def fits(self) -> bool:
        """`_BuildsWriter`'s, but for other seats' bans on builds that read only the square, the
        piece and its level, and the holders' own workers (the same for both builders, before
        and after the move), each with a bit lowering on the board after each block."""
        fusion = self.fusion
        if not (Writer.fits(self) and not self.forcing and fusion.again is None and fusion.automatic is None
                and fusion.last is None and not fusion.regions and self.writes_c()):
            return False
        bans = [ban for ban in self.compiler.bans if ban.verb is Verb.BUILD]
        return all(holders_own(part, (), ban.own) for ban in bans for part in ban.filters) and all(
            MaskLowering(Lowering(Source(), judge), Piece.NEXT, planes=planes).all(filters, _LATER) is not None
            for judge, filters in self._limits() for planes in (LEVELS, *LEVELS_AFTER_BLOCKS))

    def _limits(self) -> list[tuple[Judge, tuple[Condition, ...]]]:
        """What limits the later builds' pieces, with whose judge: the later builds' own filters
        (the seat's), each of other seats' bans on builds (the holder's)."""
        limits = [(ban.judge, ban.filters) for ban in self.compiler.bans if ban.verb is Verb.BUILD]
        return [(self.compiler.judge, self.later.filters), *limits] if self.later.filters else limits

    def begin(self, header: str) -> bool:
        if not super().begin(header):
            return False
        levels = self.source.constant(tuple(h in self.later.levels for h in range(4)), "LEVELS_OK")
        self.source.constants.update(PIECES=pieces, WAYS=ways, AROUND_U=AROUND_BITS, DRAWN=later_builds,
                                     LISTED=later_builds_in_order, ALLOWED=pieces_allowed)
        self.levels_ok = levels
        return True

    def at_worker(self, depth: int) -> None:
        """Besides the worker's own values: the other worker of the team on the board (`U`) and
        its square (`PU`, -1 where it is not on one of the guard's levels)."""
        super().at_worker(depth)
        source = self.source
        source.line(depth, "U = PU = -1")
        source.line(depth, f"for x in st.members.get({source.constant(self.compiler.judge.team, 'TEAM')}, ()):")
        source.line(depth + 1, "if x != w and POS[x] >= 0:")
        source.line(depth + 2, "U = x")
        source.line(depth + 2, f"PU = POS[x] if {self.levels_ok}[H[POS[x]]] else -1")
        if not self.banned:
            return
        # where another seat's ban lets the worker that did not move put the piece after k
        # blocks on a square (`A0`..`A3`: `_cap`'s)
        source.line(depth, "A0 = A1 = A2 = A3 = 0")
        source.line(depth, "if PU >= 0:")
        for k, planes in enumerate((LEVELS, *LEVELS_AFTER_BLOCKS)):
            terms = ["ALL"]
            if self.later.filters:  # (the later builds' own: where they may go)
                mask = MaskLowering(Lowering(source, self.compiler.judge), Piece.NEXT, planes=planes).all(
                    self.later.filters, _LATER)
                assert mask is not None  # (fits)
                terms.append(f"({mask})")
            for flag, ban in self.build_bans:
                mask = MaskLowering(Lowering(source, ban.judge), Piece.NEXT, planes=planes).all(
                    ban.filters, _LATER)
                assert mask is not None  # (fits)
                terms.append(f"(~({mask}) if {flag} else ALL)")
            source.line(depth + 1, f"A{k} = {' & '.join(terms)}")

    def after_move(self, depth: int) -> None:
        """`RU`: the squares around `PU` free once the worker has moved to `t` (and where another
        seat's ban lets a first piece go)."""
        banned = " & A0" if self.banned else ""
        self.source.line(depth, f"RU = AROUND_U[PU] & (ALL ^ (BO | DOMELIKE | 1 << t)){banned} if PU >= 0 else 0")

    def count_after_move(self, depth: int) -> str:
        source, times = self.source, self.later.times
        source.line(depth, "if RU and c:")
        if self.banned:  # (the squares of RU that may take a second, third and fourth piece)
            source.line(depth + 1, "R2 = RU & A1 & ~L3")
            source.line(depth + 1, "R3 = R2 & A2 & ~L2")
            source.line(depth + 1, "R4 = R3 & A3 & L0")
            source.line(depth + 1, "P = ALLOWED(RU, R2, R3, R4)")
            off = "ALLOWED(RU & ~c, R2 & ~c, R3 & ~c, R4 & ~c)"
        else:
            source.line(depth + 1, "P = PIECES(RU, L1, L2, L3)")
            off = "PIECES(RU & ~c, L1, L2, L3)"
        source.line(depth + 1, f"n = WAYS(P, {times + 1}) - WAYS({off}, {times + 1})"
                               f" + (c & ~RU).bit_count() * WAYS(P, {times})")
        source.line(depth, "else:")
        source.line(depth + 1, "n = c.bit_count()")
        return "n"

    def most_builds(self, walk: Walk) -> int:
        return 1 + self.later.times


__all__ = ["LaterBuildsWriter", "RepeatedBuildsWriter", "builds_by_count_in_order", "builds_in_order", "by_sum",
           "later_builds", "later_builds_in_order", "nth_builds", "nth_builds_by_count", "pieces", "repeated_builds",
           "repeated_builds_in_order", "shape_of", "ways"]

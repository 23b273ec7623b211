"""The kernels of a move, its worker's build, then a last step the seat may take (kernel.py).

The last step is one of after_build.py's parts: a token put on a space around the moved worker
(`TokenAfter`), or a block removed by a worker that did not move (`RemoveAfter`). Either way a
build on `s` has 1 + |C(s)| outcomes, the step declined first, then each choice in the order the
listing finds them, where C(s) are the choices the board leaves after that build. Per move the
writer sets two sets of squares: `C`, the choices as the move leaves the board, and `XB`, those
a square just built with a block adds (judged at its next level); a square just built with a
dome is never one (it is not unoccupied, and holds no block to remove). So C(s) is `C` without
`s`, with `s` where it is in `XB` after a block, and a move has

    N (1 + |C|) - |B & C| - |D & C| + |B & XB|

outcomes (N the build's, `B` and `D` its block and dome squares), less those that are one board:
a block built, then taken off the same square, leaves the board as the move left it, whichever
square it was (where no token was taken off with it), so only the first such turn counts.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from ...dsl.vocabulary import Piece, Verb
from ...dsl.vocabulary.parts import Condition
from ..chain.actions import actions
from ..model.board import AROUND_BITS, nth_bit
from ..model.state import Action, Event
from .after_build import RemoveAfter, TokenAfter
from .conditions import Lowering, View
from .masks import LEVELS, LEVELS_AFTER_A_BLOCK, MaskLowering
from .tally import Tokens, build_events
from .writer import Kernel, Lister, Writer, builds_in_order, pointwise

#: A turn's steps and events, from the move, its build and the last step's choice.
Turn = tuple[tuple[Action, ...], tuple[Event, ...]]


class LastChoice(Writer):
    """The kernels' text for a last step the seat may take (the module docstring); a subclass
    says where the step's choices are (`choices`), which outcomes they make (`OUTCOMES`) and
    the turn of each (`TURN`)."""

    #: Whether a block built then taken off the same square leaves the board as the move did.
    undoes: bool = False

    def fits(self) -> bool:
        fusion = self.fusion
        return (super().fits() and not self.forcing and fusion.again is None
                and not fusion.regions and fusion.automatic is None)

    def begin(self, header: str) -> bool:
        if not super().begin(header):
            return False
        self.source.lazy(1, "TOK = sum(1 << q for q in st.tokens) if st.tokens else 0")
        self.constants()
        return True

    def choices(self, depth: int, counting: bool = False) -> bool:
        """After the build's `B`, `D` and `BF` for the move to `t`: `C`, `XB` and, unless only
        `counting` (the draw's first pass reads `C` and `XB` alone), what `OUTCOMES` reads (the
        module docstring); False when a filter has no bit lowering."""
        raise NotImplementedError

    def constants(self) -> None:
        """Set `OUTCOMES` ((B, D, BF, the choices' names) -> the move's outcomes in order, each
        (square built, dome, the choice...)), `OUTCOME_AT` ((index, the same) -> the index-th
        of them, found without listing the others) and `TURN` ((worker, origin, target, its
        levels, an outcome..., heights, tokens) -> its steps and events)."""
        raise NotImplementedError

    #: The names `OUTCOMES` reads after `B`, `D` and `BF` (and the builds that end the turn).
    reads = "C, XB"

    @property
    def ending(self) -> str:
        """The squares of the builds that end the turn, a board win made (no last step after)."""
        return self.winning() if self.fusion.winnable else "0"

    def mask(self, filters: tuple[Condition, ...], view: View, planes: tuple[str, str, str, str],
             piece: Piece | None, verb: Verb, blocked: str) -> str | None:
        """The squares where `filters` hold, as bits (masks.py), or None."""
        lowering = MaskLowering(Lowering(self.source, self.compiler.judge), piece, blocked, verb=verb,
                                planes=planes)
        return lowering.all(filters, view)

    def draw(self) -> Kernel | None:
        if not self.begin("def draw(walk, rng):"):
            return None
        source = self.source
        body, moved = self.counting_moves()
        whole = self.builds(body, False)
        if not self.choices(body, counting=True):
            return None
        # (B and D are c's blocks and domes, apart: where they are the whole of c, c counts them)
        count = ["c.bit_count() * (1 + C.bit_count()) - (c & C).bit_count() + (B & XB).bit_count()" if whole else
                 "(B.bit_count() + D.bit_count()) * (1 + C.bit_count()) - (B & C).bit_count() - (D & C).bit_count()"
                 " + (B & XB).bit_count()"]
        if self.fusion.winnable:  # (a build that wins ends the turn: no last step after it)
            source.line(body, f"WB = {self.winning()}")
            count.append("(WB.bit_count() * C.bit_count() - (WB & C).bit_count())")
        if self.undoes:  # (a block taken off where it was built: one board, however many squares)
            source.line(body, "k = (B & XB & ~TOK).bit_count()")
            count.append("(k - 1 if k > 1 else 0)")
        self.added(body, " - ".join(count), f"w << 5 | {moved}")
        self.unless_met("total", "break")
        moved = self.drawn_one_move()
        self.builds(1, False)
        self.choices(1)
        there = "th0" if self.slide else "th"
        outcome = f"OUTCOME_AT(index, B, D, BF, {self.reads}, {self.ending})"
        source.line(1, f"turn = TURN(w, o, {moved}, hh, {there}, t, *{outcome}, H, st.tokens)")
        source.line(1, f"return {self.finished('turn')}")
        kernel: Kernel = source.function("draw")
        return kernel

    def turns(self) -> Lister | None:
        if not self.begin("def turns(walk, listed):"):
            return None
        source = self.source
        body, moved = self.listing_moves()
        self.builds(body, False)
        if not self.choices(body):
            return None
        there = "th0" if self.slide else "th"
        source.line(body, f"for outcome in OUTCOMES(B, D, BF, {self.reads}, {self.ending}):")
        source.line(body + 1, f"turn, events = TURN(w, o, {moved}, hh, {there}, t, *outcome, H, st.tokens)")
        source.line(body + 1, "out.append(turn)")
        self.list_turn(body + 1, "events")
        self.unless_met("out", "break")
        source.line(1, "return out")
        lister: Lister = source.function("turns")
        return lister


class TokenAfterWriter(LastChoice):
    """The token the seat may put on a space around the moved worker (`TokenAfter`): `C` the
    spaces around it that hold no token and pass the step's filters ('unoccupied' among them),
    the token left where it was first, then each space in square order (`token_turns`)."""

    def choices(self, depth: int, counting: bool = False) -> bool:
        token = self.fusion.last
        assert isinstance(token, TokenAfter)
        view, around = View("w", "t", "s", "th", "h"), f"{self.source.constant(AROUND_BITS, 'AROUND_BITS')}[t]"
        now = self.mask(token.filters, view, LEVELS, None, Verb.MOVE, "BO")
        built = self.mask(token.filters, view, LEVELS_AFTER_A_BLOCK, None, Verb.MOVE, "BO")
        if now is None or built is None:
            return False
        self.source.line(depth, f"C = {around} & ~TOK & ({now})")
        self.source.line(depth, f"XB = {around} & ({built})")
        return True

    def constants(self) -> None:
        token = self.fusion.last
        assert isinstance(token, TokenAfter)
        self.source.constants.update(OUTCOMES=token_turns, OUTCOME_AT=token_turn_at,
                                     TURN=token_turn(token.seat, token.kind))


class RemoveAfterWriter(LastChoice):
    """A block a worker that did not move may take off a space around it (`RemoveAfter`): `C`
    the spaces around those workers, in their order, with a block on top that pass the step's
    filters ('unoccupied' among them); the same space from two workers is one board. Declined
    first, then each worker's spaces in square order, those an earlier worker offered left out
    (`removal_turns`)."""

    one_piece = False  # (a block taken off, or not)

    undoes = True
    reads = "RM, TOK"

    def choices(self, depth: int, counting: bool = False) -> bool:
        removal = self.fusion.last
        assert isinstance(removal, RemoveAfter)
        source = self.source
        view = View("u", "p", "s", "h", "h", "pc")
        if counting and all(pointwise(part) for part in removal.filters):
            return self.choices_per_worker(depth, removal, view)
        # (the spaces around the moved worker's target hold it: `BO | low`)
        now = self.mask(removal.filters, view, LEVELS, Piece.BLOCK, Verb.BUILD, "(BO | low)")
        built = self.mask(removal.filters, view, LEVELS_AFTER_A_BLOCK, Piece.BLOCK, Verb.BUILD, "(BO | low)")
        if now is None or built is None:
            return False
        around = source.constant(AROUND_BITS, "AROUND_BITS")
        source.line(depth, "RM = []")
        source.line(depth, "C = XB = 0")
        source.line(depth, "for u in st.members.get(TEAM, ()):")
        source.line(depth + 1, "p = POS[u]")
        source.line(depth + 1, "if p < 0 or u == w:")
        source.line(depth + 2, "continue")
        source.line(depth + 1, f"m = {around}[p] & ~L0 & ~DOMES & ~(BO | low) & ({now})")
        source.line(depth + 1, f"x = {around}[p] & ~DOMES & ~(BO | low) & ({built})")
        source.line(depth + 1, "RM.append((u, m, x))")
        source.line(depth + 1, "C |= m")
        source.line(depth + 1, "XB |= x")
        return True

    def choices_per_worker(self, depth: int, removal: RemoveAfter, view: View) -> bool:
        """`C` and `XB` for the count, from masks made once per moved worker: filters that read
        only the candidate square see the moved worker's target only as a square it occupies,
        which `C` and `XB` leave out anyway, so each mask is the one of the board the worker
        left (`BO`) without `low`."""
        source = self.source
        now = self.mask(removal.filters, view, LEVELS, Piece.BLOCK, Verb.BUILD, "BO")
        built = self.mask(removal.filters, view, LEVELS_AFTER_A_BLOCK, Piece.BLOCK, Verb.BUILD, "BO")
        if now is None or built is None:
            return False
        around = source.constant(AROUND_BITS, "AROUND_BITS")
        ored = source.constant(_ored_pairs, "ORED")
        pair = f"({around}[p] & ~L0 & ~DOMES & ~BO & ({now}), {around}[p] & ~DOMES & ~BO & ({built}))"
        masks = source.hoist(f"{ored}({pair} for u in st.members.get(TEAM, ()) if u != w for p in (POS[u],) if p >= 0)")
        source.line(depth, f"C = {masks}[0] & ~low")
        source.line(depth, f"XB = {masks}[1] & ~low")
        return True

    def constants(self) -> None:
        self.source.constants.update(OUTCOMES=removal_turns, OUTCOME_AT=removal_turn_at, TURN=removal_turn)


def _ored_pairs(pairs: Iterable[tuple[int, int]]) -> tuple[int, int]:
    """Each of the pairs' two masks, or-ed over the pairs."""
    first = second = 0
    for one, other in pairs:
        first |= one
        second |= other
    return first, second


def token_turns(blocks: int, domes: int, blocks_first: int, around: int, on_block: int,
                ending: int = 0) -> list[tuple[int, bool, int]]:
    """The outcomes of `TokenAfterWriter` after one move, in the listing's order: (the build's
    square, whether a dome, the token's square or -1 where it is left); a build on `ending`
    (a dome there wins) has no token after it."""
    out = []
    for square, dome in builds_in_order(blocks, domes, blocks_first):
        out.append((square, dome, -1))
        if dome and ending >> square & 1:
            continue
        choices = _after_the_build(square, dome, around, on_block)
        while choices:
            low = choices & -choices
            choices ^= low
            out.append((square, dome, low.bit_length() - 1))
    return out


def token_turn_at(index: int, blocks: int, domes: int, blocks_first: int, around: int, on_block: int,
                  ending: int = 0) -> tuple[int, bool, int]:
    """`token_turns(...)[index]`, counting each build's choices instead of listing them."""
    for square, dome in builds_in_order(blocks, domes, blocks_first):
        if not index:
            return square, dome, -1
        index -= 1
        if dome and ending >> square & 1:
            continue
        choices = _after_the_build(square, dome, around, on_block)
        n = choices.bit_count()
        if index < n:
            return square, dome, nth_bit(choices, index)
        index -= n
    raise AssertionError("a counted outcome was not found")


def _after_the_build(square: int, dome: bool, around: int, on_block: int) -> int:
    """The choices after the build on `square`: `around` but that square, which a block just
    built offers where `on_block` has it, and a dome does not."""
    bit = 1 << square
    return (around & ~bit) | (0 if dome else on_block & bit)


def token_turn(seat: int, kind: str) -> Callable[..., Turn]:
    """The steps and events of the move of `worker` from `origin` to `target` (where it ends on
    `ended`, slid on), its build on `square` and the seat's token of `kind` put on `placed` (-1:
    left where it was)."""
    def turn(worker: int, origin: int, target: int, here: int, there: int, ended: int, square: int, dome: bool,
             placed: int, heights: Sequence[int], tokens: Tokens) -> Turn:
        steps, events = _move_and_build(worker, origin, target, here, there, ended, square, dome, heights, tokens)
        if placed < 0:
            return steps, events
        held = next((q for q, token in tokens.items() if token == (kind, seat)), -1) if tokens else -1
        if held == square:
            held = -1  # (the build took it off)
        return (*steps, ("token", kind, placed)), (*events, ("token", seat, kind, held, placed))
    return turn


def removal_turns(blocks: int, domes: int, blocks_first: int, removers: list[tuple[int, int, int]],
                  tokens: int, ending: int = 0) -> list[tuple[int, bool, int, int]]:
    """The outcomes of `RemoveAfterWriter` after one move, in the listing's order: (the build's
    square, whether a dome, the worker that takes a block off and its square, or -1, -1).
    `removers`: per worker, where it may as the move leaves the board, and where on a block
    just built; `tokens`: the squares with a token; a build on `ending` (a dome there wins)
    has nothing after it."""
    out = []
    undone = False  # (a block taken off where it was built: the board the move left)
    for square, dome in builds_in_order(blocks, domes, blocks_first):
        out.append((square, dome, -1, -1))
        if dome and ending >> square & 1:
            continue
        seen = 0
        for worker, now, built in removers:
            choices = _after_the_build(square, dome, now, built) & ~seen
            seen |= choices
            while choices:
                low = choices & -choices
                choices ^= low
                if low == 1 << square and not tokens & low:
                    if undone:
                        continue
                    undone = True
                out.append((square, dome, worker, low.bit_length() - 1))
    return out


def removal_turn_at(index: int, blocks: int, domes: int, blocks_first: int, removers: list[tuple[int, int, int]],
                    tokens: int, ending: int = 0) -> tuple[int, bool, int, int]:
    """`removal_turns(...)[index]`, counting each worker's choices instead of listing them."""
    undone = False
    for square, dome in builds_in_order(blocks, domes, blocks_first):
        if not index:
            return square, dome, -1, -1
        index -= 1
        if dome and ending >> square & 1:
            continue
        seen = 0
        bit = 1 << square
        for worker, now, built in removers:
            choices = _after_the_build(square, dome, now, built) & ~seen
            seen |= choices
            if choices & bit and not tokens & bit:  # (the board the move left: its first turn only)
                if undone:
                    choices ^= bit
                undone = True
            n = choices.bit_count()
            if index < n:
                return square, dome, worker, nth_bit(choices, index)
            index -= n
    raise AssertionError("a counted outcome was not found")


def removal_turn(worker: int, origin: int, target: int, here: int, there: int, ended: int, square: int, dome: bool,
                 remover: int, removed: int, heights: Sequence[int], tokens: Tokens) -> Turn:
    """The steps and events of the move of `worker` from `origin` to `target` (where it ends on
    `ended`, slid on), its build on `square` and the block `remover` takes off `removed` (-1:
    none)."""
    steps, events = _move_and_build(worker, origin, target, here, there, ended, square, dome, heights, tokens)
    if remover < 0:
        return steps, events
    level = heights[removed] + (removed == square) - 1
    unbuilt: tuple[Event, ...] = (("unbuild", remover, removed, level),)
    held = tokens.get(removed) if removed != square else None  # (a build took off the token on its square)
    if held is not None:  # (the token on the block goes with it, as effects.apply_unbuild takes it)
        unbuilt += (("token", held[1], held[0], removed, -1),)
    return (*steps, ("unbuild", remover, removed)), (*events, *unbuilt)


def _move_and_build(worker: int, origin: int, target: int, here: int, there: int, ended: int, square: int,
                    dome: bool, heights: Sequence[int], tokens: Tokens) -> Turn:
    """The steps and events of the move of `worker` from `origin` to `target`, where another
    seat's slide may take it on to `ended`, and its build."""
    verb, built = build_events(worker, square, dome, heights, tokens)
    steps: tuple[Action, ...] = (actions("move", worker)[target], actions(verb, worker)[square])
    moved: tuple[Event, ...] = (("move", worker, origin, target, here, there),)
    if ended != target:
        moved += (("force", worker, target, ended),)
    return steps, (*moved, *built)


__all__ = ["LastChoice", "RemoveAfterWriter", "TokenAfterWriter", "removal_turn", "removal_turn_at", "removal_turns",
           "token_turn", "token_turn_at", "token_turns"]

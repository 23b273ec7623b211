"""The kernels of a move, its worker's build, then a last step the seat may take (kernel.py)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from ...dsl.vocabulary import (
    Verb,
)
from ..engine.actions import actions
from ..model.board import AROUND_BITS
from ..model.state import Action, Event
from .conditions import Lowering, View
from .masks import LEVELS, LEVELS_AFTER_A_BLOCK, MaskLowering
from .tally import Tokens, build_events

if TYPE_CHECKING:
    pass

from .writer import Kernel, Lister, Writer, builds_in_order


class TokenAfterWriter(Writer):
    """The kernels of a move, its worker's build, then the token the seat may put around the
    worker (`TokenAfter`). Per move, `T` is where the token may go as the move leaves the board,
    and `XB` where it may go on a square just built with a block (judged at its next level);
    a square with a dome just built is not unoccupied. So a build on `s` has 1 + |T(s)|
    outcomes, T(s) = T without `s`, with `s` where it is in `XB` after a block: the token left
    where it was first, then each square in order, as the listing finds them (`token_turns`)."""

    def fits(self) -> bool:
        fusion = self.fusion
        return (super().fits() and not self.forcing and fusion.again is None and not fusion.regions
                and fusion.automatic is None and not fusion.winnable)

    def begin(self, header: str) -> bool:
        if not super().begin(header):
            return False
        source = self.source
        source.lazy(1, "TOK = sum(1 << q for q in st.tokens) if st.tokens else 0")
        return True

    def places(self, depth: int) -> bool:
        """After the build's `B`, `D` and `BF` for the move to `t`: `T` and `XB` (the class
        docstring); False when the token's filters are not bits."""
        compiler, source = self.compiler, self.source
        assert self.fusion.token_after is not None
        filters, view = self.fusion.token_after.filters, View("w", "t", "s", "th", "h")
        around = f"{source.constant(AROUND_BITS, 'AROUND_BITS')}[t]"
        masks = []
        for planes in (LEVELS, LEVELS_AFTER_A_BLOCK):
            mask = MaskLowering(Lowering(source, compiler.judge), None, "BO", verb=Verb.MOVE,
                                planes=planes).all(filters, view)
            if mask is None:
                return False
            masks.append(mask)
        source.line(depth, f"T = {around} & ~TOK & ({masks[0]})")
        source.line(depth, f"XB = {around} & ({masks[1]})")
        return True

    def draw(self) -> Kernel | None:
        if not self.begin("def draw(walk, rng):"):
            return None
        source = self.source
        top = self.strictly()
        source.line(top, "total = 0")
        source.line(top, "ends = []")
        source.line(top, "codes = []")
        body = self.each_move(top)
        if self.wins is not None:
            source.line(body, f"if {self.wins}:")
            self.counted(body + 1, None, "w << 5 | t")
            source.line(body + 1, "continue")
        self.builds(body, False)
        if not self.places(body):
            return None
        source.line(body, "n = (B.bit_count() + D.bit_count()) * (1 + T.bit_count()) - (B & T).bit_count() "
                          "- (D & T).bit_count() + (B & XB).bit_count()")
        source.line(body, "if n:")
        source.line(body + 1, "total += n")
        source.line(body + 1, "ends.append(total)")
        source.line(body + 1, "codes.append(w << 5 | t)")
        self.unless_met("total", "break")
        self.drawn()
        source.line(1, "w, t = code >> 5, code & 31")
        self.drawn_move()
        if self.wins is not None:
            source.line(1, f"if {self.wins}:")
            source.line(2, "return (('move', w, t),), None")
        self.builds(1, False)
        self.places(1)
        source.line(1, "s, dome, q = NTH_TOKEN(index, B, D, BF, T, XB)")
        source.line(1, "return TOKEN_TURN(w, o, t, hh, th, s, dome, q, H, st.tokens)")
        self.constants()
        kernel: Kernel = source.function("draw")
        return kernel

    def constants(self) -> None:
        """The helpers the functions call, with the token's kind and seat."""
        token = self.fusion.token_after
        assert token is not None
        self.source.constants.update(NTH_TOKEN=nth_token_turn, TOKEN_TURNS=token_turns,
                                     TOKEN_TURN=token_turn(token.seat, token.kind))

    def turns(self) -> Lister | None:
        if not self.begin("def turns(walk, listed):"):
            return None
        source = self.source
        top = self.strictly()
        source.line(top, "out = []")
        body = self.each_move(top)
        source.line(body, "th = H[t]")
        if self.wins is not None:
            source.line(body, f"if {self.wins}:")
            source.line(body + 1, "move = ACTIONS('move', w)[t]")
            source.line(body + 1, "out.append((move,))")
            source.line(body + 1, "if listed is not None:")
            source.line(body + 2, "listed[(move,)] = ((('move', w, o, t, hh, th),), TEAM)")
            source.line(body + 1, "continue")
        self.builds(body, False)
        if not self.places(body):
            return None
        source.line(body, "for s, dome, q in TOKEN_TURNS(B, D, BF, T, XB):")
        source.line(body + 1, "turn, events = TOKEN_TURN(w, o, t, hh, th, s, dome, q, H, st.tokens)")
        source.line(body + 1, "out.append(turn)")
        source.line(body + 1, "if listed is not None:")
        source.line(body + 2, "listed[turn] = (events, None)")
        self.unless_met("out", "break")
        source.line(1, "return out")
        self.constants()
        lister: Lister = source.function("turns")
        return lister


def token_turns(blocks: int, domes: int, blocks_first: int, around: int, on_block: int) -> list[tuple[int, bool, int]]:
    """The outcomes of `TokenAfterWriter` after one move, in the listing's order: (the build's square,
    whether a dome, the token's square or -1 where it is left)."""
    out = []
    for square, dome in builds_in_order(blocks, domes, blocks_first):
        out.append((square, dome, -1))
        choices = _token_squares(square, dome, around, on_block)
        while choices:
            low = choices & -choices
            choices ^= low
            out.append((square, dome, low.bit_length() - 1))
    return out


def nth_token_turn(index: int, blocks: int, domes: int, blocks_first: int, around: int,
                   on_block: int) -> tuple[int, bool, int]:
    """`token_turns(...)[index]`, found build by build."""
    for square, dome in builds_in_order(blocks, domes, blocks_first):
        if not index:
            return square, dome, -1
        choices = _token_squares(square, dome, around, on_block)
        count = choices.bit_count()
        if index <= count:
            for _ in range(index - 1):
                choices &= choices - 1
            return square, dome, (choices & -choices).bit_length() - 1
        index -= 1 + count
    raise IndexError(index)  # pragma: no cover - the counts say the index is in these builds


def _token_squares(square: int, dome: bool, around: int, on_block: int) -> int:
    """Where the token may go after the build on `square`: `around` but that square, which a
    block just built leaves free where `on_block` has it, and a dome does not."""
    bit = 1 << square
    return (around & ~bit) | (0 if dome else on_block & bit)


def token_turn(seat: int, kind: str) -> Callable[..., tuple[tuple[Action, ...], tuple[Event, ...]]]:
    """The steps and events of the move of `worker` from `origin` to `target`, its build on
    `square` and the seat's token of `kind` put on `placed` (-1: left where it was)."""
    def turn(worker: int, origin: int, target: int, here: int, there: int, square: int, dome: bool, placed: int,
             heights: Sequence[int], tokens: Tokens) -> tuple[tuple[Action, ...], tuple[Event, ...]]:
        verb, built = build_events(worker, square, dome, heights, tokens)
        steps: tuple[Action, ...] = (actions("move", worker)[target], actions(verb, worker)[square])
        events: tuple[Event, ...] = (("move", worker, origin, target, here, there), *built)
        if placed < 0:
            return steps, events
        held = next((q for q, token in tokens.items() if token == (kind, seat)), -1) if tokens else -1
        if held == square:
            held = -1  # (the build took it off)
        return (*steps, ("token", kind, placed)), (*events, ("token", seat, kind, held, placed))
    return turn


__all__ = ["TokenAfterWriter", "nth_token_turn", "token_turn", "token_turns"]

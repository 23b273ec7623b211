"""The kernels of a move, then a build its ways give to workers of their own: the worker that did
not move ('your unmoved worker builds instead'), or a worker of one sex as well as the moved
one ('your female worker may build a dome at any level').

The listing takes the builders one after another, in the order of the ways that name them (the
moved worker for a way of the step's own), and each builder's squares in square order, a block
before a dome where one square gives both; a board met before, whoever built it, is passed over.
So per move each builder is a group of squares (`B`, `D`, `BF`, as the build's masks give them
for a builder on its own square once the move is made, less the builds of the groups before),
and a move's outcomes are their sum. The draw's second look finds the group its index falls in.
Every filter and ban must read only the square it judges, the builder's own values, or where
workers stand that the move does not move (an opponent's), since the masks are judged before
the move is made.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ...dsl.vocabulary import AllOf, AnyOf, Near, Not, OccupiedBy, Owner, Role, Sex, Step
from ...dsl.vocabulary.parts import Condition
from ..chain.actions import actions
from ..model.state import Action, Event
from .conditions import Lowering, View
from .tally import Tokens, build_events, nth_build
from .writer import Kernel, Lister, Writer, pointwise

if TYPE_CHECKING:
    from .steps import DerivedCompiler, Fusion

#: A way's builders: (None, None) for the moved worker, else the role and sex of its selector.
Builders = tuple[Role | None, Sex | None]
#: What keeps a builder's group to boards no group before it made (generated code).
NEW_ONLY = ("B &= ~SB", "D &= ~SD")


class OtherBuilders(Writer):
    """The kernels of a move then a build by builders of the build's ways (the module docstring).
    `builds` sets `GROUPS`, one (builder, B, D, BF) per builder with new outcomes, and `B`, `D`,
    their union (which the count and the search for a win read)."""

    def __init__(self, compiler: DerivedCompiler, step: Step, fusion: Fusion) -> None:
        super().__init__(compiler, step, fusion)
        self.specs: tuple[Builders, ...] = tuple(
            (None, None) if way.actor is None else (way.actor.role, way.actor.sex) for way in fusion.ways)

    def fits(self) -> bool:
        fusion, compiler = self.fusion, self.compiler
        return (super().fits() and not self.forcing and self.slide is None and fusion.builders
                and not compiler.rules.memory
                and all(all(_before_the_move(part, Owner.OPPONENTS) for part in way.filters) for way in fusion.ways)
                and all(_before_the_move(part, Owner.YOURS) for ban in compiler.bans for part in ban.filters))

    def builds(self, depth: int, count_only: bool) -> bool:
        source, compiler = self.source, self.compiler
        source.constants.update(BUILDERS=builders_in_order, SPECS=self.specs, NTH_BUILD=nth_build)
        source.line(depth, "BX = BO | (1 << t)")  # (the domes and workers once the move is made)
        source.line(depth, "WX = BX & ~DOMES")
        source.line(depth, "GROUPS = []")
        source.line(depth, "SB = SD = 0")
        source.line(depth, "for bx in BUILDERS(st.members.get(TEAM, ()), POS, st.worker_sex, w, SPECS):")
        inner = depth + 1
        source.line(inner, "bo = t if bx == w else POS[bx]")
        usable = []
        for index, (role, sex) in enumerate(self.specs):
            tests = ["bx == w" if role is None else "bx != w" if role is Role.UNMOVED else "True"]
            if sex is not None:
                tests.append(f"st.worker_sex[bx] == {source.constant(sex, 'SEX')}")
            source.line(inner, f"xu{index} = {' and '.join(tests)}")
            usable.append(f"xu{index}")
        lowering = Lowering(source, compiler.judge, hoisting=False)  # (judged per builder: nothing hoisted)
        compiler.build_masks(source, lowering, self.fusion.ways, self.build_bans, usable, inner,
                             View("bx", "bo", "s", "h", "h", "pc"), "WX", "BX")
        for line in NEW_ONLY:
            source.line(inner, line)
        source.line(inner, "if B or D:")
        source.line(inner + 1, "GROUPS.append((bx, B, D, BF))")
        source.line(inner + 1, "SB |= B")
        source.line(inner + 1, "SD |= D")
        source.line(depth, "B, D, BF = SB, SD, 0")
        return False

    def draw(self) -> Kernel | None:
        if not self.begin("def draw(walk, rng):"):
            return None
        source = self.source
        body, moved = self.counting_moves()
        self.builds(body, True)
        self.counted(body, False, f"w << 5 | {moved}")
        self.unless_met("total", "break")
        moved = self.drawn_one_move()
        self.builds(1, False)
        self.moved(1)
        source.constants["BY"] = built_by
        turn = f"BY(GROUPS, index, MOVES[w][{moved}] if w < 32 else ACTIONS('move', w)[{moved}], moved, H, st.tokens)"
        source.line(1, f"return {self.finished(turn)}")
        kernel: Kernel = source.function("draw")
        return kernel

    def turns(self) -> Lister | None:
        if not self.begin("def turns(walk, listed):"):
            return None
        source = self.source
        body, _ = self.listing_moves()
        self.builds(body, False)
        source.line(body, "if listed is not None:")
        self.moved(body + 1)
        source.line(body, "for bx, GB, GD, GF in GROUPS:")
        source.line(body + 1, "for s, dome in IN_ORDER(GB, GD, GF):")
        source.line(body + 2, "verb, built = BUILT(bx, s, dome, H, st.tokens)")
        source.line(body + 2, "turn = (move, ACTIONS(verb, bx)[s])")
        source.line(body + 2, "out.append(turn)")
        self.list_turn(body + 2)
        self.unless_met("out", "break")
        source.line(1, "return out")
        lister: Lister = source.function("turns")
        return lister


def builders_in_order(members: Sequence[int], positions: Sequence[int], sexes: Sequence[Sex | None], mover: int,
                      specs: tuple[Builders, ...]) -> list[int]:
    """The builders of a build's ways, in the order the listing takes them: per way, the moved
    worker (a way of the step's own), or the team's workers on the board its selector names (of
    its sex; not the moved one, for the worker that did not move); each once."""
    out: list[int] = []
    for role, sex in specs:
        found = [mover] if role is None else [x for x in members if positions[x] >= 0
                                              and (sex is None or sexes[x] == sex)
                                              and (role is not Role.UNMOVED or x != mover)]
        out.extend(x for x in found if x not in out)
    return out


def built_by(groups: list[tuple[int, int, int, int]], index: int, move: Action, moved: tuple[Event, ...],
             heights: Sequence[int], tokens: Tokens) -> tuple[tuple[Action, ...], tuple[Event, ...]]:
    """The turn of the move and the build at `index` among the groups' outcomes, in their order."""
    for builder, blocks, domes, first in groups:
        n = blocks.bit_count() + domes.bit_count()
        if index < n:
            square, dome = nth_build(index, blocks, domes, first)
            verb, built = build_events(builder, square, dome, heights, tokens)
            return (move, actions(verb, builder)[square]), (*moved, *built)
        index -= n
    raise IndexError(index)  # pragma: no cover - the counts say the index is in these groups


def _before_the_move(part: Condition, static: Owner) -> bool:
    """Whether a condition reads only the square it judges and the builder's own values, or
    where the `static` owner's workers stand (none of which the move moves)."""
    if isinstance(part, Not):
        return _before_the_move(part.part, static)
    if isinstance(part, (AnyOf, AllOf)):
        return all(_before_the_move(p, static) for p in part.parts)
    return pointwise(part) or (isinstance(part, (Near, OccupiedBy)) and part.owner is static)


__all__ = ["NEW_ONLY", "OtherBuilders", "builders_in_order", "built_by"]

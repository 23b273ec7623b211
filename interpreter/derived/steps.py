"""Move and build steps lowered to generated code, for listing and counting a turn's outcomes.

`DerivedCompiler` is the generic step compiler (chain/steps.py) with its two commonest step
kinds, the move and the build, written as Python source from the step's typed parts: its ways
(the step's own and each option of its verb, engine/steps.WayParts), their regions and filters,
the pieces and the forces, the prohibitions other seats may lay on the verb, the seat's wins and
the other seats' vetoes. The text is compiled once per distinct text (source.py). Every other step
kind, and the glue between steps (follow-ups, guards, alternative turns), is the generic chain's
own closure: a generated step and a generic one share the walk (chain/walk.py), so they chain
freely, and the derived chain visits the candidates of every step in the generic chain's order.
It therefore finds the same outcomes in the same order, and `turns` lists the same turns.

Around each step (`_wrap`): a last build whose outcomes are the board alone is keyed by hash
arithmetic, with the obligations and facts no build changes judged once before it
(derived/invariance.py); a step reached again in the same state and context is entered once; and
a search for a win skips the steps below which nothing can win.

For a random draw (`walk.tally`), a keyed last build is counted rather than listed: its squares
as bits (masks.py), given to the tally (tally.py); and a move followed by such a build, made by
the moved worker, counts that build from the state the move would make without making it (the
fused count, `_fused_count`), its targets as bits too where its filters have bit lowerings.

The generated code serves enumeration (a walk with `found`, no script to match, no probe), the
count of a random draw, and the search for a winning turn (`walk.wins_only`), where no leaf stops
the walk: the leaf notes a win instead; the engine runs the generic chain for every other
traversal. A step of another verb keeps
the generic closure, and `DerivedCompiler.kept` says so (`santorini show` prints it).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from ...dsl.vocabulary import (
    AllOf,
    AnyOf,
    Force,
    Happened,
    LastMoves,
    Modality,
    Not,
    Owner,
    Piece,
    Region,
    Role,
    SameSpace,
    Scope,
    SpaceIs,
    SpaceProperty,
    SpaceRef,
    StandsHighest,
    Step,
    TargetLevel,
    Verb,
    WinVeto,
    WorkersAre,
)
from ...dsl.vocabulary.hooks import Obligation
from ...dsl.vocabulary.hooks import Reaction as ReactionRule
from ...dsl.vocabulary.parts import Condition, Where
from ..chain.conditions import Judge, reads_the_target_free, space_locator
from ..chain.effects import apply_mark, apply_move, undo_mark, undo_move
from ..chain.rules import SeatRules
from ..chain.steps import (
    CompiledForce,
    StepCompiler,
    WayParts,
    WinCheck,
    _affords,
    _force_destination,
    _squares,
    _union,
    _Way,
    after_reactions,
    breadth_first,
    perform_build,
    tokens_placed,
)
from ..chain.walk import StepFn, Walk, finish
from ..model.board import (
    ADJACENT,
    ALL_BITS,
    AROUND_BITS,
    BEYOND,
    NEIGHBOURS,
    SQUARES,
    WRAPPED_AROUND_BITS,
    WRAPPED_NEIGHBOURS,
    ZOBRIST,
)
from ..model.state import GameState
from ..model.state import token_key as state_token_key
from .after_build import Again, BuildsRepeated, LastStep, LaterBuilds, RemoveAfter, SameSquare, TokenAfter, TokenOnBuilt
from .build_first import build_first
from .conditions import PROLOGUE, Lowering, View, view_only
from .each_worker import each_builds_after_a_move, each_builds_after_each_move, each_worker
from .invariance import (
    levels_that_may_win,
    may_match_together,
    taking_unchanged_by_a_build,
    unchanged_by_a_build,
    winning_expression,
)
from .kernel import ends_without_choice, move_then_build
from .masks import LEVELS, MaskLowering, board_bits, loop_over_targets
from .placed_first import placed_first
from .repeated_moves import MovesAgain
from .source import Source
from .tally import OTHER, Tally, build_events, prefix_kind
from .walks import walks
from .writer import holders_own, pointwise


@dataclass(frozen=True)
class Veto:
    """A win veto of another seat's card that binds this seat ('opponent workers cannot win by
    ...'): its holder's seat (a veto holds while the holder is in the game) and judge."""

    seat: int
    judge: Judge
    veto: WinVeto


@dataclass(frozen=True)
class Ban:
    """A prohibition another seat's card may lay on this seat's steps of `verb`: the generic
    closure that the turn's start puts in `walk.banned` when it is in force (so the code asks
    whether it is), and its filters with the holder's judge (so the code tests them inline)."""

    verb: Verb
    test: object
    judge: Judge
    filters: tuple[Condition, ...]
    #: Held by this seat's own team ('all workers cannot ...'): its parts may read workers that
    #: this seat's turn moves.
    own: bool = False


@dataclass(frozen=True)
class Bound:
    """An obligation another seat's card lays on this seat's turns (while the holder's seat is
    in the game), with the holder's judge."""

    seat: int
    judge: Judge
    obligation: Obligation


@dataclass(frozen=True)
class Fusion:
    """A counted last build that the move before it may count without being made (the build's
    step, its ways, and the chain's closure for it: the move fuses only when it is followed by
    exactly that closure); `again`, a second build the same worker may make after it, and
    `regions`, ways to different regions (only the kernels count those, kernel.py)."""

    step: Step
    ways: list[WayParts]
    take: StepFn
    again: Again | None = None
    #: Whether the ways reach different regions, whose squares the listing takes region by
    #: region, in the ways' order (only the kernels count those: `_one_region`).
    regions: bool = False
    #: An automatic step after the build that only adds to its events (kernel.py).
    automatic: TokenOnBuilt | None = None
    #: The builds that may make a board win hold, as (level, dome) pairs: a drawn build among
    #: them is played step by step, where the win is judged (kernel.py).
    winnable: tuple[tuple[int, bool], ...] = ()
    #: A last step the seat may take after the build (a token put, a block taken off: kernel.py).
    last: LastStep | None = None
    #: Builds the worker that did not move may make after it (kernel.py).
    later: LaterBuilds | None = None
    #: The build made again and again, where it is (kernel.py).
    repeats: BuildsRepeated | None = None
    #: Whether its ways name builders of their own (the worker that did not move, the female
    #: worker), each building around where it stands once the move is made (other_builders.py).
    builders: bool = False

    @property
    def beside_wins(self) -> bool:
        """Whether the build is the turn's last, one region's, but for builds that may win on
        the board (which a second move's kernel plays step by step: two_moves.py)."""
        return (self.again is None and not self.regions and self.automatic is None and self.last is None
                and self.later is None and self.repeats is None and not self.builders)

    @property
    def plain(self) -> bool:
        """Whether the build is the turn's last, one region's, with no board win: the tally's
        fused count counts only those (the kernels count the others too)."""
        return (self.again is None and not self.regions and self.automatic is None and not self.winnable
                and self.last is None and self.later is None and self.repeats is None and not self.builders)


@dataclass(frozen=True)
class Slide:
    """What another seat's card makes happen after each matching move of this seat's (a
    reaction: 'each time an opponent worker moves, it is forced space by space in the same
    direction until ...'), with its holder's seat (it holds while the holder is in the game) and
    judge, for the kernels (writer.py)."""

    seat: int
    judge: Judge
    reaction: ReactionRule


#: What another seat's power makes happen after a move: (walk, the move event) -> its undo, or None.
Reaction = Callable[[Walk, tuple[object, ...]], Callable[[], None] | None]

#: What a step spends from the card: (counter, amount) each.
Cost = tuple[tuple[str, int], ...]



class DerivedCompiler(StepCompiler):
    """The generic step compiler, with moves and builds lowered to generated code."""

    def __init__(self, rules: SeatRules, judge: Judge, move_wins: WinCheck,
                 board_wins: Callable[[Walk], int | None] | None, reactions: tuple[Reaction, ...] = (),
                 bans: Sequence[Ban] = (), board_win_conditions: Sequence[Condition] = (),
                 vetoes: Sequence[Veto] = (), obligations: Sequence[Bound] = (), slides: Sequence[Slide] = ()) -> None:
        super().__init__(rules, judge, move_wins, board_wins, reactions)
        self.vetoes = tuple(vetoes)
        self.obligations = tuple(obligations)
        self.slides = tuple(slides)
        #: The builds that may make a board win hold (derived/invariance.py), when some seat has
        #: such a win: only those are made; None when not known (every build is made).
        self.winnable = levels_that_may_win(board_win_conditions) if board_wins is not None else ()
        self.winning_builds = None if self.winnable is None else winning_expression(self.winnable)
        self.bans = tuple(ban for ban in bans if ban.verb in (Verb.MOVE, Verb.BUILD))
        #: The steps lowered to generated code, as 'verb at file:line:col'.
        self.lowered: list[str] = []
        #: The steps left on the generic chain, each with the reason (for `santorini show`).
        self.kept: list[str] = []
        #: The condition part kinds lowered to a call of the generic closure.
        self.called: list[str] = []
        #: The last builds a random draw cannot count (it then lists the turn), with the reason;
        #: and the conditions its counting code tests square by square.
        self.uncounted: list[str] = []
        self.tested: list[str] = []
        #: The builds that are the turn's last where the end-of-turn steps after them take
        #: nothing, judged before them (`_void_when`).
        self.last_unless_taken: list[str] = []
        #: The builds a random draw counts with each taking of the end-of-turn steps after them,
        #: found before them (`_settled_when`).
        self.counted_with_takings: list[str] = []
        #: Why a move followed by the moved worker's counted build got no kernel (kernel.py).
        self.unkernelled: list[str] = []
        #: The marks of once-per-game ways taken as set: their ways are no ways (kernel.py's
        #: `once_spent`, the kernels of a seat once it has used them).
        self.spent: frozenset[str] = frozenset()

    def way_parts(self, step: Step) -> list[WayParts]:
        """The step's ways (StepCompiler's), but the once-per-game ways whose marks are `spent`."""
        ways = super().way_parts(step)
        return [way for way in ways if way.once is None or way.once not in self.spent] if self.spent else ways

    def compile(self, step: Step, after: StepFn, rest: StepFn) -> StepFn:
        chain = self._compiled(step, after, rest)
        if chain not in (after, rest, finish):
            void, settled = self._void_when(step, rest), self._settled_when(step, rest)
            if void is not None:
                chain.void = void  # type: ignore[attr-defined]  # (a build before it may be the turn's last: _wrap)
            if settled is not None:
                chain.settled = settled  # type: ignore[attr-defined]  # (a build before it may be counted: _wrap)
        return chain

    def _compiled(self, step: Step, after: StepFn, rest: StepFn) -> StepFn:
        if step.once_per_game is not None:
            # (the generic gate, around the step's takings compiled here: StepCompiler._once_per_game)
            return super().compile(step, after, rest)
        chain = super().compile(step, after, rest)
        automatic = self._lowered_token_on_built(step) if after is finish else None
        last = self._lowered_last_step(step) if after is finish and rest is finish else None
        later = self._later_builds(step) if after is finish and rest is finish else None
        if later is not None:
            chain.later = later  # type: ignore[attr-defined]  # (the kernels count them: later_builds.py)
        elif automatic is not None:
            # (the kernels add its events to a turn's last build: kernel.py)
            chain.automatic = automatic  # type: ignore[attr-defined]
        elif last is not None:
            chain.last_step = last  # type: ignore[attr-defined]  # (the kernels count it: kernel.py)
        elif (step.actor.role is Role.EVERY and step.verb is Verb.MOVE
              and getattr(after, "each_step", None) is not None):
            # (each worker moves, then each builds: each_worker.py)
            chain.kernel = each_builds_after_each_move(self, step, after.each_step)  # type: ignore[attr-defined]
        elif (step.actor.role is Role.EVERY and step.verb in (Verb.MOVE, Verb.BUILD) and after is finish
              and rest is finish):
            # (a program that is each worker's step alone: each_worker.py; or its last step, after
            # a move: the move's kernel takes it in)
            chain.kernel = each_worker(self, step)  # type: ignore[attr-defined]
            chain.each_step = step  # type: ignore[attr-defined]
        elif step.verb is Verb.PLACE and getattr(after, "moves_then_builds", None) is not None and after is rest:
            # (a worker placed from the card, then moved and built with: placed_first.py)
            chain.kernel = placed_first(self, step, *after.moves_then_builds)  # type: ignore[attr-defined]
        elif ends_without_choice(step):
            # (an end-of-turn step the engine adds to the events of each turn the kernels find)
            self.lowered.append(f"{step.verb.value} ({_short(step.where)}): run on each turn found")
        elif step.verb not in (Verb.MOVE, Verb.BUILD) or step.modality is Modality.AUTOMATIC:
            what = "an automatic step" if step.modality is Modality.AUTOMATIC else "a step"
            self.kept.append(f"{what} of the verb '{step.verb.value}' ({_short(step.where)}): no lowering yet")
        return chain

    def _void_when(self, step: Step, rest: StepFn) -> Callable[[Walk], bool] | None:
        """For a step after a turn's last build (an end-of-turn step) and the steps after it
        (`rest`): whether, from the walk's state before that build, they take nothing whatever
        the build does. Where they take nothing, the build is the turn's last (`_wrap`): keyed by
        hash arithmetic, and counted for a random draw. Two parts say so: a guard no build changes
        that does not hold (derived/invariance.py), or a step the seat may take whose takings no
        build changes and that has none (a probe: the step compiled to stop at its first taking).
        None where the step cannot say."""
        later: Callable[[Walk], bool] | None = None if rest is finish else getattr(rest, "void", None)
        if rest is not finish and later is None:
            return None
        guard = step.guard
        if step.otherwise is not None or step.modality is Modality.AUTOMATIC:
            return None
        taken: Callable[[Walk], bool]
        if (guard is not None and not isinstance(guard, WorkersAre) and step.once_per_game is None
                and unchanged_by_a_build(guard)):
            test = self.judge.compile(guard)

            def taken(walk: Walk) -> bool:
                return bool(test(walk, -1, -1, -1, 0, 0, None))
        elif step.modality is Modality.MAY and taking_unchanged_by_a_build(step):
            # (the turn goes on past a taking with a longer path: after it, or after its card's
            # mark, with `rest`; declined, with the path as it was)
            began = [0]

            def past(walk: Walk) -> bool:
                return len(walk.path) > began[0]
            probe = StepCompiler.compile(self, step, past, past)

            def taken(walk: Walk) -> bool:
                # (the probe's takings are made and undone: nothing of them may stay on the walk)
                visited, tally, began[0] = walk.visited, walk.tally, len(walk.path)
                walk.visited, walk.tally = set(), None
                try:
                    return probe(walk)
                finally:
                    walk.visited, walk.tally = visited, tally
        else:
            return None
        if later is None:
            return lambda walk: not taken(walk)
        more = later
        return lambda walk: not taken(walk) and more(walk)

    def _settled_when(self, step: Step, rest: StepFn) -> Callable[[Walk], bool] | None:
        """For a step after a turn's last build (an end-of-turn step) and the steps after it
        (`rest`): whether, from the walk's state before that build, what they may take is the
        same whatever the build does (derived/invariance.py: a removal or a swap that names
        workers by where they stand and reads only the spaces workers stand on; which of a step
        and its 'otherwise' is taken, by a guard no build changes). Where it is, a random draw
        finds their takings once, before the build, and counts the build's outcomes with each
        (derived/tally.py: `Tally.collect`). None where it never is."""
        later: Callable[[Walk], bool] | None = None if rest is finish else getattr(rest, "settled", None)
        if rest is not finish and later is None:
            return None
        otherwise = step.otherwise
        own = step.modality is not Modality.AUTOMATIC and taking_unchanged_by_a_build(step)
        guard = step.guard
        if guard is None or step.once_per_game is not None or (own and otherwise is None):
            if not own:
                return None
            return later if later is not None else _always
        if isinstance(guard, WorkersAre) or not unchanged_by_a_build(guard):
            return None
        other = otherwise is None or (otherwise.modality is not Modality.AUTOMATIC
                                      and taking_unchanged_by_a_build(otherwise))
        if not own and not other:
            return None
        test = self.judge.compile(guard)

        def settled(walk: Walk) -> bool:
            holds = bool(test(walk, -1, -1, -1, 0, 0, None))
            return (own if holds else other) and (later is None or later(walk))
        return settled

    def _lowered_last_step(self, step: Step) -> LastStep | None:
        """The turn's last step, which the seat may take, as the kernels lower it: a token put on
        an unoccupied space around the moved worker (chain/steps.py's token step), or a block
        a worker that did not move takes off an unoccupied space around it; with nothing else
        to it and filters with bit lowerings."""
        destination = step.destination
        if (step.modality is not Modality.MAY or destination is None or destination.region is not Region.NEIGHBORING
                or destination.ref or step.filters or step.effects or step.guard is not None or step.cost
                or step.per_game or SpaceIs(SpaceRef.TARGET, SpaceProperty.UNOCCUPIED) not in destination.filters):
            return None
        if step.verb is Verb.TOKEN and step.token is not None and step.actor.role in (Role.MOVED, Role.THAT,
                                                                                     Role.SUBJECT):
            view = View("w", "t", "s", "th", "h")
            if MaskLowering(Lowering(Source(), self.judge), None, "BO", verb=Verb.MOVE).all(destination.filters,
                                                                                             view) is None:
                return None
            return TokenAfter(self.rules.seat, step.token.value, destination.filters)
        if (step.verb is Verb.REMOVE and step.actor.role is Role.UNMOVED and step.actor.sex is None
                and step.piece is not Piece.STACK):
            ways = self.way_parts(dataclasses.replace(step, verb=Verb.BUILD))
            if len(ways) != 1 or ways[0].region is not Region.NEIGHBORING or ways[0].actor is not None:
                return None
            view = View("u", "p", "s", "h", "h", "pc")
            if MaskLowering(Lowering(Source(), self.judge), Piece.BLOCK, "BO").all(ways[0].filters, view) is None:
                return None
            return RemoveAfter(ways[0].filters)
        return None

    def _later_builds(self, step: Step) -> LaterBuilds | None:
        """The turn's last step as builds the worker that did not move may make, up to a number
        of times (or once), as the kernels lower them (`LaterBuilds`): the next piece on a space
        around it that is unoccupied, with filters that read only the space, the piece and its
        level ('not a dome'), no cost or mark; its guard, if any, the levels that worker stands
        on."""
        repeat, guard = step.repeat, step.guard
        if (step.verb is not Verb.BUILD or step.modality is not Modality.MAY or repeat.times is None
                or not (repeat.up_to or repeat.times == 1) or step.destination is not None
                or step.piece is not Piece.NEXT or not all(pointwise(part) for part in step.filters)
                or step.effects or step.cost or step.per_game or step.token is not None
                or step.target is not None or step.actor.sex is not None):
            return None
        levels = frozenset(range(4))
        if isinstance(guard, WorkersAre):
            selector = guard.selector
            if (selector.role is not Role.UNMOVED or selector.owner is not Owner.YOURS or selector.sex is not None
                    or step.actor.role not in (Role.THAT, Role.SUBJECT)
                    or not all(isinstance(part, TargetLevel) for part in guard.filters)):
                return None
            levels = frozenset(h for h in range(4) if all(part.op.holds(h, part.level) for part in guard.filters
                                                          if isinstance(part, TargetLevel)))
        elif guard is not None or step.actor.role is not Role.UNMOVED:
            return None
        ways = self.way_parts(step)
        unoccupied = SpaceIs(SpaceRef.TARGET, SpaceProperty.UNOCCUPIED)
        if (len(ways) != 1 or ways[0].region is not Region.NEIGHBORING
                or any(part != unoccupied and part not in step.filters for part in ways[0].filters)
                or ways[0].forces or ways[0].actor is not None or ways[0].piece is not Piece.NEXT or ways[0].once):
            return None
        return LaterBuilds(step, repeat.times, levels, step.filters)

    def _lowered_token_on_built(self, step: Step) -> TokenOnBuilt | None:
        """An automatic step that puts a token of the seat's on the square just built (the
        chain's own step, chain/steps.py), with nothing else to it, as the kernels lower it."""
        destination = step.destination
        if (step.verb is not Verb.TOKEN or step.modality is not Modality.AUTOMATIC or step.token is None
                or destination is None or destination.region is not Region.SINGLE
                or destination.ref is not SpaceRef.LAST_BUILT or destination.filters or step.filters
                or step.effects or step.guard is not None or step.cost):
            return None
        kind = step.token.value
        return TokenOnBuilt(self.rules.seat, kind, step.per_game, tokens_placed(kind))

    def report(self) -> list[str]:
        """What the derivation of the seat's turn did: its lowered steps, the steps it left to
        the generic chain and why, and the conditions it could only call."""
        lines = [f"lowered: {', '.join(dict.fromkeys(self.lowered))}"] if self.lowered else []
        lines += [f"generic: {reason}" for reason in dict.fromkeys(self.kept)]
        if self.called:
            lines.append(f"conditions called, not inlined: {', '.join(dict.fromkeys(self.called))}")
        lines += [f"the turn's last where the end-of-turn steps after it take nothing (judged before it): {build}"
                  for build in dict.fromkeys(self.last_unless_taken)]
        lines += [f"counted with each taking of the end-of-turn steps after it (found before it): {build}"
                  for build in dict.fromkeys(self.counted_with_takings)]
        lines += [f"listed to draw: {reason}" for reason in dict.fromkeys(self.uncounted)]
        if self.tested:
            lines.append(f"counted square by square: {', '.join(dict.fromkeys(self.tested))}")
        return lines

    @property
    def counts(self) -> bool:
        """Whether a random draw can count every last build of the seat's turns."""
        return not self.uncounted

    def move(self, step: Step, after: StepFn | None, rest: StepFn, optional: bool, repeated: bool) -> StepFn:
        if step.actor.owner is not Owner.YOURS:
            # (the lowering reads the seat's own workers as the movers: their bits, the builds
            # around them, the forces they make)
            self.kept.append(f"a move with another player's worker ({_short(step.where)}): no lowering yet")
            return super().move(step, after, rest, optional, repeated)
        ways = self.way_parts(step)
        followed: Fusion | None = getattr(after, "fusion", None) if after is not None and not repeated else None
        fusion = followed if followed is not None and followed.plain and self._fuses(ways) else None
        each = self._each_move(step, ways, fusion)
        self.lowered.append(f"move ({_short(step.where)})")
        reads = _reads_of_step(step, ways, [ban for ban in self.bans if ban.verb is Verb.MOVE],
                               [*(w.pattern.filters for w in self.rules.wins), *((w.when,) for w in self.rules.wins
                                                                                 if w.when is not None),
                                *(v.veto.pattern.filters for v in self.vetoes)])
        wins = [w.pattern for w in self.rules.wins
                if w.pattern.verb is Verb.MOVE and w.pattern.owner is not Owner.OPPONENTS]
        may_win = any(way.can_win and may_match_together(way.filters, pattern.filters)
                      for way in ways for pattern in wins)
        take = _wrap(each, after, rest, optional, repeated, keyed=False, reads=reads, may_win=may_win)
        if followed is not None and not optional and not repeated:
            take.moves_then_builds = (step, followed)  # type: ignore[attr-defined]  # (for a build before it)
        if followed is not None and not optional and self._fuses(ways, forcing=True):
            # the whole turn in one function, where this move is the first step of the seat's
            # only program (the engine knows: kernel.py)
            take.kernel = move_then_build(self, step, followed)  # type: ignore[attr-defined]
            if take.kernel is None:  # type: ignore[attr-defined]
                self.unkernelled.append(f"move ({_short(step.where)}): a way that is not squares around the "
                                        "worker as bits, or that forces a worker before a build that reads where "
                                        "workers stand")
        elif followed is not None and not optional:
            self.unkernelled.append(f"move ({_short(step.where)}): a way that sets a mark, or a win read after "
                                    "the move, or another seat's reaction to moves")
        elif (followed is not None and optional and after is rest and followed.beside_wins
              and self._fuses(ways, forcing=True)):
            # a move the worker may make before the build: the move before it may take it in
            # its kernel (which says whether it lowers a force or a slide: two_moves.py)
            take.second = (step, followed)  # type: ignore[attr-defined]
        builds: Step | None = getattr(after, "each_step", None) if after is not None and after is rest else None
        if builds is not None and not optional and not repeated and self._fuses(ways):
            # (a move, then each of the seat's workers' build: each_worker.py)
            take.kernel = each_builds_after_a_move(self, step, builds)  # type: ignore[attr-defined]
        again: MovesAgain | None = getattr(after, "moves_again", None) if after is not None else None
        if again is not None and not optional and not repeated:
            # (a move the worker may make again, each time its move matches: repeated_moves.py)
            build = getattr(getattr(after, "then", None), "fusion", None)
            if build is not None and build.beside_wins and self._fuses(ways) and not self.rules.memory:
                take.kernel = move_then_build(self, step, build, again=again)  # type: ignore[attr-defined]
        second = getattr(after, "second", None) if after is not None and not optional and not repeated else None
        if second is not None and self._fuses(ways, forcing=True) and not self.rules.memory:
            take.kernel = move_then_build(self, step, second[1], second[0])  # type: ignore[attr-defined]
        last: tuple[Step, list[WayParts]] | None = getattr(rest, "last_build", None) if repeated else None
        if last is not None:
            # (moves any number of times, then one of the workers' build: walks.py)
            take.kernel = walks(self, step, *last)  # type: ignore[attr-defined]
        return take

    def lowered_slide(self) -> Slide | None:
        """The one reaction to this seat's moves, where the kernels lower it: another seat's
        slide after every move of this seat's (its trigger names no more than an opponent's or
        anyone's move), whose test of each space ahead is inlined (conditions.py); else None."""
        if len(self.slides) != 1 or len(self.reactions) != 1:
            return None
        slide = self.slides[0]
        trigger, step = slide.reaction.trigger, slide.reaction.step
        if (trigger.verb is not Verb.MOVE or trigger.owner not in (Owner.OPPONENTS, Owner.ANYONES) or trigger.filters
                or step.destination is None):
            return None
        lowering = Lowering(Source(), slide.judge)
        lowering.all((*step.destination.filters, *step.filters), View("w", "f", "q", "fh", "qh"))
        return None if lowering.calls else slide

    def way_force(self, way: WayParts) -> CompiledForce:
        """The compiled force of a way that forces the worker on its target."""
        return self._way(way).forces[0]

    def workers_of(self, step: Step, ways: list[WayParts]) -> Callable[[Walk], list[int]]:
        """The workers that may take `step`, in the order the chain tries them."""
        return self._workers(step, [self._way(way) for way in ways])

    def build(self, step: Step, after: StepFn | None, rest: StepFn, optional: bool, repeated: bool) -> StepFn:
        ways = self.way_parts(step)
        cost = tuple((c.counter.value, -c.amount) for c in step.cost)
        each = self._each_build(step, ways, cost)
        self.lowered.append(f"build ({_short(step.where)})")
        shortcut = self.winning_builds is not None and not any(way.once for way in ways) and not cost
        reads = _reads_of_step(step, ways, [ban for ban in self.bans if ban.verb is Verb.BUILD], [])
        count = None
        # (end-of-turn steps after it that may take nothing: where they take nothing, it is last)
        # (taking nothing judged before the build: no block of it goes under a worker, which
        # the steps after it may read)
        unoccupied = after is not finish and all(way.region is Region.NEIGHBORING or way.piece is Piece.DOME
                                                 for way in ways)
        void: Callable[[Walk], bool] | None = getattr(after, "void", None) if unoccupied else None
        # (what they take is the same whatever the build: counted with each taking, found before it)
        settled: Callable[[Walk], bool] | None = getattr(after, "settled", None) if unoccupied else None
        if void is not None and shortcut:
            self.last_unless_taken.append(f"build ({_short(step.where)})")
        if settled is not None and shortcut:
            self.counted_with_takings.append(f"build ({_short(step.where)})")
        if shortcut and repeated:
            self.uncounted.append(f"build ({_short(step.where)}): repeated, each of its outcomes is found one by one")
        elif shortcut and (after is finish or void is not None or settled is not None):
            if optional:
                self.uncounted.append(f"build ({_short(step.where)}): optional, the turns that end before it are "
                                      "found one by one")
            elif self.winning_builds != "False":
                self.uncounted.append(f"build ({_short(step.where)}): a win judged on the board after it")
            elif not _one_region(ways):
                self.uncounted.append(f"build ({_short(step.where)}): ways to different regions")
            elif not _by_the_mover(step, ways):
                self.uncounted.append(f"build ({_short(step.where)}): its builder is not the moved worker, so it is "
                                      "counted after every move made, no sooner than listed")
            else:
                count = self._count_build(step, ways)
        take = _wrap(each, after, rest, optional, repeated, keyed=shortcut, cost=cost, reads=reads,
                     may_win=self.winning_builds != "False", count=count, void=void, settled=settled)
        if count is not None and after is finish and not optional and self._fusable(step, ways):
            take.fusion = Fusion(step, ways, take)  # type: ignore[attr-defined]
        again: Again | None = getattr(after, "again", None) if after is not None else None
        automatic: TokenOnBuilt | None = getattr(after, "automatic", None) if after is not None else None
        last: LastStep | None = getattr(after, "last_step", None) if after is not None else None
        later: LaterBuilds | None = getattr(after, "later", None) if after is not None else None
        winnable = self.winnable
        if (count is None and shortcut and not optional and not repeated and winnable is not None
                and (again is not None or automatic is not None or last is not None or later is not None
                     or (after is finish and (not _one_region(ways) or winnable)))
                and _by_the_mover(step, ways) and self._fusable(step, ways)):
            # (the kernels alone count a second build, the ways' regions one after another, a
            # token put on the square built, builds that may win on the board, or builds the
            # worker that did not move may make after it)
            take.fusion = Fusion(step, ways, take, again, not _one_region(ways),  # type: ignore[attr-defined]
                                 automatic, winnable, last, later)
        if (count is None and shortcut and not optional and not repeated and winnable is not None and after is finish
                and step.actor.role in (Role.THAT, Role.SUBJECT, Role.MOVED) and not _by_the_mover(step, ways)
                and all(way.region is Region.NEIGHBORING
                        and (way.actor is None or way.actor.role in (Role.CHOSEN, Role.UNMOVED)) for way in ways)):
            # (the kernels count builds by workers other than the moved one: other_builders.py)
            take.fusion = Fusion(step, ways, take, winnable=winnable, builders=True)  # type: ignore[attr-defined]
        if optional and not repeated and after is finish and rest is finish:
            take.again = self._again(step, ways, cost)  # type: ignore[attr-defined]
        if after is finish and rest is finish and not optional and not repeated and not cost:
            take.last_build = (step, ways)  # type: ignore[attr-defined]  # (the last step of moves before it: walks.py)
        moving: tuple[Step, Fusion] | None = getattr(after, "moves_then_builds", None) if after is not None else None
        if moving is not None and not optional and not repeated and not cost and after is rest:
            # (a build before the move and the build after it: build_first.py)
            take.kernel = build_first(self, step, ways, *moving)  # type: ignore[attr-defined]
        repeats = self._repeats(step, ways, cost) if repeated and rest is finish else None
        if (repeats is not None and winnable is not None and _by_the_mover(step, ways)
                and self._fusable(step, ways)):
            # (the kernels alone count a build made again and again: later_builds.py)
            take.fusion = Fusion(step, ways, take, winnable=winnable, repeats=repeats)  # type: ignore[attr-defined]
        return take

    def _repeats(self, step: Step, ways: list[WayParts], cost: Cost) -> BuildsRepeated | None:
        """A build made again and again as the kernels count it (`BuildsRepeated`): one way
        around the builder, of the next piece, no mark, and a number of builds bounded by their
        count or by what each costs."""
        if len(ways) != 1 or any(amount < 1 for _, amount in cost) or (step.repeat.times is None and not cost):
            return None
        way = ways[0]
        if way.region is not Region.NEIGHBORING or way.piece is not Piece.NEXT or way.once or way.forces:
            return None
        return BuildsRepeated(step.repeat.times, cost)

    def _again(self, step: Step, ways: list[WayParts], cost: Cost) -> Again | None:
        """The step as a second build the worker that built may make last, where the kernels can
        count it with the first (`Again`): one way around that worker, of the next piece (or a
        dome, on the square just built), with no cost or mark, whose filters, but for one 'on
        (not on) the same space', and the other seats' bans read no build of the turn and have
        bit lowerings; else None."""
        if (len(ways) != 1 or cost or step.actor.role not in (Role.THAT, Role.SUBJECT, Role.MOVED)
                or self.winning_builds is None):
            return None
        way = ways[0]
        if way.region is not Region.NEIGHBORING or way.piece not in (Piece.NEXT, Piece.DOME) or way.once or way.forces:
            return None
        same_square, filters = SameSquare.EITHER, []
        for part in way.filters:
            if part == SameSpace(SpaceRef.LAST_BUILT) and same_square is SameSquare.EITHER:
                same_square = SameSquare.ONLY
            elif part == Not(SameSpace(SpaceRef.LAST_BUILT)) and same_square is SameSquare.EITHER:
                same_square = SameSquare.NEVER
            else:
                filters.append(part)
        if way.piece is Piece.DOME and same_square is not SameSquare.ONLY:
            return None  # (a dome on the square just built, at any level: on another, not counted so)
        bans = [part for ban in self.bans if ban.verb is Verb.BUILD for part in ban.filters]
        if any(_names(part, SpaceRef.LAST_BUILT) for part in (*filters, *bans)):
            return None
        trial = Lowering(Source(), self.judge)
        if MaskLowering(trial, way.piece).all(tuple(filters), View("w", "t", "s", "h", "h", "pc")) is None:
            return None
        return Again(step, dataclasses.replace(way, filters=tuple(filters)), same_square)

    def _fusable(self, step: Step, ways: list[WayParts]) -> bool:
        """Whether a counted last build can be counted inside the move before it, from the
        state that move would make, without making it: its builder is the moved worker, and
        every part it reads has a bit lowering that reads no worker's square but through the
        names the fused code sets (so no square-by-square test, no region over workers)."""
        if not _by_the_mover(step, ways) or any(way.region is Region.OVER_WORKER for way in ways):
            return False
        trial = Lowering(Source(), self.judge)
        view = View("w", "t", "s", "h", "h", "pc")
        for way in ways:
            if MaskLowering(trial, way.piece).all(way.filters, view) is None:
                return False
            for ban in self.bans:
                if ban.verb is Verb.BUILD and MaskLowering(Lowering(Source(), ban.judge), way.piece).all(
                        ban.filters, view) is None:
                    return False
        return True

    def _fuses(self, ways: list[WayParts], forcing: bool = False) -> bool:
        """Whether a move may count the build after it without being made: it forces no worker
        (unless `forcing`, for the kernel, which counts a forced worker's new square), sets no
        mark, sets off no reaction, and whether it wins reads only its own view."""
        if (self.reactions and not (forcing and self.lowered_slide() is not None and not any(w.forces for w in ways))
                or any((way.forces and not forcing) or way.once for way in ways)):
            return False
        return self._move_wins_read_the_view(any(way.forces for way in ways))

    # ---- the generated code
    def _begin(self, source: Source, name: str) -> Lowering:
        source.line(0, f"def {name}(walk, then, keyed):")
        for line in PROLOGUE:
            source.lazy(1, line)
        return Lowering(source, self.judge)

    def _usable(self, source: Source, lowering: Lowering, step: Step, ways: list[WayParts], depth: int) -> list[str]:
        """Per way, an expression for whether the worker `w` may take the step by it now (its
        chooser names the worker, its once-per-game mark is not on the card); emitted once per
        worker."""
        own = self.chooser(step)
        flags = []
        differ = any(way.actor is not None for way in ways)
        for index, way in enumerate(ways):
            parts = []
            if way.once is not None:
                parts.append(f"(walk.seat, {source.constant(way.once, 'MARK')}) not in st.marks")
            if differ:
                chooser = self.judge.workers(way.actor) if way.actor is not None else own
                parts.append(f"w in {source.constant(chooser, 'CHOOSE')}(walk)")
            if parts:
                flag = f"u{index}"
                source.line(depth, f"{flag} = {' and '.join(parts)}")
                flags.append(flag)
            else:
                flags.append("True")
        return flags

    def _regions(self, source: Source, ways: list[WayParts], compiled: list[_Way], usable: list[str], depth: int,
                 square: str, kind: str) -> tuple[int, list[str]]:
        """Open the loop over the spaces the step's ways reach (the worker `w` stands on `o`);
        returns the depth of its body and, per way, a test that the space is in that way's
        region. Ways that reach different regions are merged as the generic chain merges them,
        in the order of the first usable way's region."""
        if _one_region(ways):
            return self._region(source, ways[0], depth, square), ["True"] * len(ways)
        ways_of = source.constant(tuple(compiled), "WAYS")
        union, squares = source.constant(_union, "UNION"), source.constant(_squares, "SQUARES_OF")
        flags = ", ".join(usable)
        source.line(depth, f"usable = [way for way, flag in zip({ways_of}, ({flags},)) if flag]")
        # (each way's spaces, made once for the worker: a candidate is tested against them)
        source.line(depth, f"regions = [{squares}(walk, way, w, o, {kind!r}) for way in {ways_of}]")
        source.line(depth, f"for {square} in ({union}(walk, usable, w, o, {kind!r}) if usable else ()):")
        return depth + 1, [f"{square} in regions[{index}]" for index in range(len(ways))]

    def _region(self, source: Source, way: WayParts, depth: int, square: str) -> int:
        """Open the loop over the spaces of the way's region (the worker `w` stands on `o`);
        returns the depth of its body."""
        if way.region is Region.NEIGHBORING:
            source.line(depth, f"for {square} in {source.constant(NEIGHBOURS, 'NEIGHBOURS')}[o]:")
        elif way.region is Region.ANYWHERE:
            source.line(depth, f"for {square} in {source.constant(SQUARES, 'SQUARES')}:")
        elif way.region is Region.WRAPPED:
            source.line(depth, f"for {square} in {source.constant(WRAPPED_NEIGHBOURS, 'WRAPPED')}[o]:")
        elif way.region is Region.OVER_WORKER:
            beyond, around = source.constant(BEYOND, "BEYOND"), source.constant(NEIGHBOURS, "NEIGHBOURS")
            source.line(depth, f"for {square} in [{beyond}[o][n] for n in {around}[o] "
                               f"if OCC[n] >= 0 and {beyond}[o][n] >= 0]:")
        else:
            assert way.ref is not None
            locate = source.constant(space_locator(way.ref), "LOC")
            near = f" and single in {source.constant(ADJACENT, 'ADJACENT')}[o]" if way.neighbouring else ""
            source.line(depth, f"single = {locate}(walk, w, o, -1)")
            source.line(depth, f"for {square} in ((single,) if single >= 0{near} else ()):")
        return depth + 1

    def bans_in_force(self, source: Source, verb: Verb, depth: int, stem: str = "b") -> list[tuple[str, Ban]]:
        """Which of the prohibitions of `verb` are in force this turn: a flag each (named
        `stem` and a number)."""
        bans = [ban for ban in self.bans if ban.verb is verb]
        if not bans:
            return []
        source.line(depth, f"banned = walk.banned.get({source.constant(verb, 'VERB')}, ())")
        flags = []
        for index, ban in enumerate(bans):
            flag = f"{stem}{index}"
            source.line(depth, f"{flag} = {source.constant(ban.test, 'BAN')} in banned")
            flags.append((flag, ban))
        return flags

    def _banned(self, source: Source, flags: list[tuple[str, Ban]], view: View) -> str:
        """An expression true when a prohibition in force forbids the candidate."""
        tests = []
        for flag, ban in flags:
            lowering = Lowering(source, ban.judge)
            tests.append(f"({flag} and ({lowering.all(ban.filters, view)}))")
            self.called.extend(lowering.calls)
        return " or ".join(tests) if tests else "False"

    def move_win(self, source: Source, view: View) -> str:
        """An expression for the team the move in `view` makes win, or None: one of the seat's
        wins matches it and no veto of a seat in the game forbids it (the generic chain's
        Engine._move_wins, lowered)."""
        test = self.move_win_test(source, view)
        return "None" if test is None else f"{source.constant(self.judge.team, 'TEAM')} if {test} else None"

    def move_win_test(self, source: Source, view: View) -> str | None:
        """An expression true when the move in `view` makes the seat's team win (`move_win`), or
        None when no win of the seat is a move's."""
        wins = []
        for win in self.rules.wins:
            pattern = win.pattern
            if pattern.verb is not Verb.MOVE or pattern.owner is Owner.OPPONENTS:
                continue  # (the mover is the seat's own worker)
            lowering = Lowering(source, self.judge, hoisting=False)  # (judged after the move: no hoisting)
            test = lowering.all(pattern.filters, view)
            if win.when is not None:
                when = source.constant(self.judge.compile(win.when), "WHEN")
                test = f"({test}) and {when}(walk, -1, -1, -1, 0, 0, None)"
            self.called.extend(lowering.calls)
            wins.append(f"({test})")
        if not wins:
            return None
        vetoes = []
        for veto in self.vetoes:
            pattern = veto.veto.pattern
            if pattern.verb is not Verb.MOVE or pattern.owner is Owner.YOURS:
                continue  # (the mover is an opponent of the veto's holder)
            lowering = Lowering(source, veto.judge, hoisting=False)
            holder = source.constant(veto.seat, "SEAT")
            vetoes.append(f"({holder} not in st.out and ({lowering.all(pattern.filters, view)}))")
            self.called.extend(lowering.calls)
        vetoed = f" and not ({' or '.join(vetoes)})" if vetoes else ""
        return f"({' or '.join(wins)}){vetoed}"

    def move_win_before(self, source: Source, view: View) -> str | None:
        """`move_win_test` where every win and veto of a move reads only the move's view (its
        levels, its target's place), so that it can be judged before the move is made; None
        where one reads more, or is guarded."""
        return (self.move_win_test(source, view) or "False") if self._move_wins_read_the_view() else None

    def _move_wins_read_the_view(self, forcing: bool = True) -> bool:
        """Whether every win and veto of a move reads only the move's view, unguarded; a veto may
        also read where its holder's workers stand ('cannot win by moving into a space
        neighbouring your workers'), which no move of this seat's changes unless it forces a
        worker (`forcing`)."""
        wins = [win for win in self.rules.wins if win.pattern.verb is Verb.MOVE]
        vetoes = [veto.veto for veto in self.vetoes if veto.veto.pattern.verb is Verb.MOVE]
        return (all(win.when is None and all(view_only(p) for p in win.pattern.filters) for win in wins)
                and all(view_only(p) or (not forcing and holders_own(p) and not reads_the_target_free(p))
                        for veto in vetoes for p in veto.pattern.filters))

    def win_squares(self, source: Source, view: View, can_win: bool) -> str | None:
        """The squares the move in `view` wins on, as bits ('0': none, where the way cannot win
        or no win of the seat is a move's), or None where they are not bits."""
        if not can_win or self.move_win_test(source, view) is None:
            return "0"
        return self.move_win_bits(source, view)

    def move_win_bits(self, source: Source, view: View) -> str | None:
        """`move_win_test` as the squares a move of `view.worker` from `view.origin` wins on, as
        bits (every win and veto a move's, with a bit lowering, and no guard), or None."""
        wins, vetoes = [], []
        for win in self.rules.wins:
            pattern = win.pattern
            if pattern.verb is not Verb.MOVE or pattern.owner is Owner.OPPONENTS:
                continue
            mask = MaskLowering(Lowering(source, self.judge), None, verb=Verb.MOVE).all(pattern.filters, view)
            if mask is None or win.when is not None:
                return None
            wins.append(f"({mask})")
        for veto in self.vetoes:
            pattern = veto.veto.pattern
            if pattern.verb is not Verb.MOVE or pattern.owner is Owner.YOURS:
                continue
            mask = MaskLowering(Lowering(source, veto.judge), None, verb=Verb.MOVE).all(pattern.filters, view)
            if mask is None:
                return None
            vetoes.append(f"(0 if {source.constant(veto.seat, 'SEAT')} in st.out else ({mask}))")
        if not wins:
            return "0"
        vetoed = f" & ~({' | '.join(vetoes)})" if vetoes else ""
        return f"({' | '.join(wins)}){vetoed}"

    def _each_move(self, step: Step, ways: list[WayParts],
                   fusion: Fusion | None) -> Callable[[Walk, StepFn, bool], bool]:
        source = Source()
        lowering = self._begin(source, "each")
        compiled = [self._way(way) for way in ways]
        choose = self._workers(step, compiled)
        bans = self.bans_in_force(source, Verb.MOVE, 1)
        view = View("w", "o", "t", "hh", "th")
        source.line(1, "events, path = walk.events, walk.path")
        # a search for a win (`walk.wins_only`) where nothing after the move can win makes only
        # the moves that win, where that is judged before the move
        before = self.move_win_before(source, view)
        if before is not None:
            source.line(1, f"quiet = walk.wins_only and not {source.constant(_may_win, 'MAY_WIN')}(then)")
        build_bans: list[tuple[str, Ban]] = []
        if fusion is not None:
            # a random draw counts the build after this move from the state the move would make
            source.line(1, "tally = walk.tally")
            source.line(1, f"fuse = (tally is not None and then is {source.constant(fusion.take, 'AFTER')} "
                           "and walk.keyed_by_board and not walk.prefix_tests and walk.fact_key is None)")
            source.line(1, "if fuse:")
            source.line(2, f"kind = {source.constant(prefix_kind, 'PREFIX_KIND')}(events)")
            source.line(2, f"fuse = kind != {OTHER}")
            source.line(1, "if fuse:")
            source.line(2, "base, evs, now0 = tuple(path), tuple(events), st.hash")
            source.line(2, "groups, records, starts = tally.groups, tally.records, tally.starts")
            board_bits(source, 2)
            build_bans = self.bans_in_force(source, Verb.BUILD, 2, "bb")
            source.constants.update(P_DOME=Piece.DOME, P_BLOCK=Piece.BLOCK, ALL=ALL_BITS)
            targets = self.fused_targets(source, lowering, ways, bans, view)
            if targets is not None and not ways[0].forces and ways[0].once is None:
                # the move's targets as bits too: a loop over the squares it may reach
                source.line(2, f"for w in {source.constant(choose, 'CHOOSE')}(walk):")
                source.line(3, "o = POS[w]")
                source.line(3, "hh = H[o]")
                source.line(3, f"WK = {source.constant(ZOBRIST.worker, 'WORKER_KEYS')}[st.worker_class[w]]")
                source.hoisting_point(3)
                source.line(3, "BO = BLOCKED ^ (1 << o)")
                loop_over_targets(source, 3, targets)
                if ways[0].can_win:
                    source.line(4, f"winner = {self.move_win(source, view)}")
                    source.line(4, "if winner is not None:")
                    source.line(5, f"{source.constant(_win_by_move, 'WIN_BY_MOVE')}(walk, w, o, t, hh, th, winner)")
                    source.line(5, "continue")
                self._fused_count(source, fusion, build_bans, 4, "BO")
                source.line(2, "return False")
        source.line(1, f"for w in {source.constant(choose, 'CHOOSE')}(walk):")
        source.line(2, "o = POS[w]")
        source.line(2, "hh = H[o]")
        if fusion is not None:
            source.line(2, f"WK = {source.constant(ZOBRIST.worker, 'WORKER_KEYS')}[st.worker_class[w]]")
        source.hoisting_point(2)
        usable = self._usable(source, lowering, step, ways, 2)
        body, inside = self._regions(source, ways, compiled, usable, 2, "t", "move")
        source.line(body, "if DOM[t] or t in domelike:")
        source.line(body + 1, "continue")
        source.line(body, "th = H[t]")
        if bans:
            source.line(body, f"if {self._banned(source, bans, view)}:")
            source.line(body + 1, "continue")
        forcing = any(way.forces for way in ways)
        single = len(ways) == 1 and usable[0] == "True" and inside[0] == "True"
        if single and not forcing:
            way = ways[0]
            test = lowering.all(way.filters, view)
            if test != "True":
                source.line(body, f"if not ({test}):")
                source.line(body + 1, "continue")
            source.line(body, "if OCC[t] >= 0:")
            source.line(body + 1, "continue")
            source.line(body, "sel = 0")
        else:
            source.line(body, "sel = -1")
            for index, (way, flag) in enumerate(zip(ways, usable, strict=True)):
                test = lowering.all(way.filters, view)
                source.line(body, f"if sel < 0 and {flag} and {inside[index]} and ({test}):")
                if way.forces:
                    force = source.constant(compiled[index].forces[0], "FORCE")
                    source.line(body + 1, f"d = {source.constant(_force_destination, 'FORCED')}"
                                          f"(walk, {force}, w, o, t, OCC[t])")
                    source.line(body + 1, "if d >= 0:")
                    source.line(body + 2, f"sel, victim, dest = {index}, OCC[t], d")
                else:
                    source.line(body + 1, "if OCC[t] < 0:")
                    source.line(body + 2, f"sel, victim, dest = {index}, -1, -1")
            source.line(body, "if sel < 0:")
            source.line(body + 1, "continue")
        marks = [way.once for way in ways]
        wins = [way.can_win for way in ways]
        can_win = ("True" if all(wins) else "False" if not any(wins)
                   else f"{source.constant(tuple(wins), 'CAN_WIN')}[sel]")
        if fusion is not None:
            source.line(body, "if fuse:")
            inner = body + 1
            if can_win != "False":
                source.line(inner, f"winner = ({self.move_win(source, view)}) if {can_win} else None")
                source.line(inner, "if winner is None:")
                inner += 1
            self._fused_count(source, fusion, build_bans, inner)
        if before is not None:  # (a search for a win past which nothing can win: only winning moves)
            source.line(body, f"if quiet and not ({can_win} and ({before})):")
            source.line(body + 1, "continue")
        # perform the move, go on with the turn, and undo it
        if forcing:
            source.line(body, f"event = {source.constant(apply_move, 'APPLY_MOVE')}(walk, w, t, victim, dest)")
        else:
            source.line(body, "event = ('move', w, o, t, hh, th)")
            source.line(body, "st.relocate(w, t)")
            source.line(body, "events.append(event)")
        if any(marks):
            source.line(body, f"mark = {source.constant(tuple(marks), 'MARKS')}[sel]")
            source.line(body, "if mark is not None:")
            source.line(body + 1, f"{source.constant(apply_mark, 'APPLY_MARK')}(walk, mark)")
        source.line(body, "path.append(('move', w, t))")
        source.line(body, "previous = walk.last_actor")
        source.line(body, "walk.last_actor = w")
        source.line(body, f"winner = ({self.move_win(source, view)}) if {can_win} else None")
        source.line(body, "if winner is not None:")
        source.line(body + 1, "st.winner = winner")
        source.line(body + 1, "walk.leaf(walk)")
        source.line(body + 1, "st.winner = None")
        if self.reactions:
            reactions = source.constant(self.reactions, "REACTIONS")
            source.line(body, "else:")
            source.line(body + 1, f"undo = [u for react in {reactions} if (u := react(walk, event)) is not None]")
            source.line(body + 1, f"{source.constant(after_reactions, 'AFTER_REACTIONS')}(walk, then)")
            source.line(body + 1, "for u in reversed(undo):")
            source.line(body + 2, "u()")
        else:
            source.line(body, "else:")
            source.line(body + 1, "then(walk)")
        source.line(body, "walk.last_actor = previous")
        source.line(body, "path.pop()")
        if any(marks):
            source.line(body, "if mark is not None:")
            source.line(body + 1, f"{source.constant(undo_mark, 'UNDO_MARK')}(walk, mark)")
        if forcing:
            source.line(body, f"{source.constant(undo_move, 'UNDO_MOVE')}(walk, event, victim)")
        else:
            source.line(body, "events.pop()")
            source.line(body, "st.relocate(w, o)")
        source.line(1, "return False")
        self.called.extend(lowering.calls)
        return source.function("each")

    def _each_build(self, step: Step, ways: list[WayParts], cost: Cost) -> Callable[[Walk, StepFn, bool], bool]:
        source = Source()
        lowering = self._begin(source, "each")
        compiled = [self._way(way) for way in ways]
        choose = self._workers(step, compiled)
        bans = self.bans_in_force(source, Verb.BUILD, 1)
        winning = self.winning_builds if self.winning_builds is not None else "True"
        source.line(1, "if keyed:")
        source.line(2, "found, base, now = walk.found, tuple(walk.path), st.hash")
        source.line(2, "listed = walk.listed  # (the events of each turn found, for playing it later)")
        source.line(2, "if listed is not None:")
        source.line(3, "before = tuple(walk.events)")
        source.line(2, "if walk.fact_key is not None:  # (facts of the turn's moves that a rule reads later)")
        source.line(3, "now ^= walk.fact_key(walk)")
        # (a build takes the token on its square off: the keys count it, as the generic chain's do)
        source.line(2, "tokens = st.tokens")
        if winning == "False":
            source.line(2, "if found is None:  # (a search for a win: a keyed build cannot win)")
            source.line(3, "return False")
        else:
            # a position set up with the win already holding (a scenario's): every build is judged
            source.line(2, f"if {source.constant(self.board_wins, 'BOARD_WINS')}(walk) is not None:")
            source.line(3, "keyed = False")
        source.line(1, f"for w in {source.constant(choose, 'CHOOSE')}(walk):")
        source.line(2, "o = POS[w]")
        source.hoisting_point(2)
        usable = self._usable(source, lowering, step, ways, 2)
        several = len(ways) > 1
        if several:
            source.line(2, "seen = set()")
        body, inside = self._regions(source, ways, compiled, usable, 2, "s", "build")
        source.line(body, "h = H[s]")
        perform = source.constant(perform_build, "PERFORM")
        build_keys, dome_keys = source.constant(ZOBRIST.build, "BUILD_KEYS"), source.constant(ZOBRIST.dome, "DOME_KEYS")
        for way, flag, within in zip(ways, usable, inside, strict=True):
            depth = body
            guards = [test for test in (flag, within) if test != "True"]
            if way.piece is Piece.BLOCK:
                guards.append("h != 3")
            if guards:
                source.line(depth, f"if {' and '.join(guards)}:")
                depth += 1
            dome = "True" if way.piece is Piece.DOME else "h == 3"
            source.line(depth, f"dome = {dome}")
            source.line(depth, "pc = P_DOME if dome else P_BLOCK")
            view = View("w", "o", "s", "h", "h", "pc")
            tests = [lowering.all(way.filters, view)]
            if bans:
                tests.append(f"not ({self._banned(source, bans, view)})")
            tests.append("not (DOM[s] or s in domelike or (OCC[s] >= 0 and not (s == o and not dome)))")
            source.line(depth, f"if {' and '.join(f'({t})' for t in tests if t != 'True')}:")
            depth += 1
            verb = "'build'" if way.piece is not Piece.DOME else "'dome' if h < 3 else 'build'"
            action = "('build', w, s)" if way.piece is Piece.NEXT else f"({verb}, w, s)"
            if several:
                source.line(depth, f"action = {action}")
                action = "action"
                source.line(depth, "if action in seen:")
                source.line(depth + 1, "pass")
                source.line(depth, "else:")
                depth += 1
                source.line(depth, "seen.add(action)")
            token_key = source.constant(state_token_key, "TOKEN_KEY")
            events_of = source.constant(built_events, "BUILT_EVENTS")
            if winning == "False":
                source.line(depth, "if keyed:")
                source.line(depth + 1, f"key = now ^ ({dome_keys}[s] if dome else {build_keys}[s][h])")
                source.line(depth + 1, "if tokens and s in tokens:")
                source.line(depth + 2, f"key ^= {token_key}(s, *tokens[s])")
                source.line(depth + 1, "if key not in found:")
                source.line(depth + 2, f"found[key] = turn = (*base, {action})")
                source.line(depth + 2, "if listed is not None:")
                source.line(depth + 3, f"listed[turn] = {events_of}(st, before, w, s, dome)")
            else:
                source.line(depth, f"if keyed and not ({winning}):")
                source.line(depth + 1, "if found is not None:")
                source.line(depth + 2, f"key = now ^ ({dome_keys}[s] if dome else {build_keys}[s][h])")
                source.line(depth + 2, "if s in tokens:")
                source.line(depth + 3, f"key ^= {token_key}(s, *tokens[s])")
                source.line(depth + 2, "if key not in found:")
                source.line(depth + 3, f"found[key] = turn = (*base, {action})")
                source.line(depth + 3, "if listed is not None:")
                source.line(depth + 4, f"listed[turn] = {events_of}(st, before, w, s, dome)")
            source.line(depth, "else:")
            mark = source.constant(way.once, "MARK") if way.once is not None else "None"
            source.line(depth + 1, f"{perform}(walk, {action}, {mark}, then, {source.constant(cost, 'COST')}, "
                                   f"{source.constant(self.board_wins, 'BOARD_WINS')})")
        source.line(1, "return False")
        source.constants["P_DOME"], source.constants["P_BLOCK"] = Piece.DOME, Piece.BLOCK
        self.called.extend(lowering.calls)
        return source.function("each")

    def _fused_count(self, source: Source, fusion: Fusion, build_bans: list[tuple[str, Ban]], depth: int,
                     vacated: str = "(BLOCKED ^ (1 << o))") -> None:
        """Emit, inside the loop over a move's targets, the count of the build after the move of
        `w` from `o` to `t`, from the state the move would make (its workers' squares `MW`), and
        the tally's record of it; the candidate's loop then goes on to the next target."""
        self.fused_masks(source, fusion, build_bans, depth, vacated)
        # (the tally's pure case written out: Tally.after says what it does)
        source.line(depth, "if not (B or D):")
        source.line(depth + 1, "continue")
        source.line(depth, "if kind:")
        source.line(depth + 1, "tally.after(kind, base, evs, ('move', w, t), ('move', w, o, t, hh, th), st, "
                               "now0 ^ WK[o] ^ WK[t], w, B, D, BF, None)")
        source.line(depth + 1, "continue")
        source.line(depth, "nk = now0 ^ WK[o] ^ WK[t]")
        source.line(depth, "seen = groups.get(nk)")
        source.line(depth, "if seen is None:")
        source.line(depth + 1, "groups[nk] = [B, D]")
        source.line(depth, "else:")
        source.line(depth + 1, "B &= ~seen[0]")
        source.line(depth + 1, "D &= ~seen[1]")
        source.line(depth + 1, "seen[0] |= B")
        source.line(depth + 1, "seen[1] |= D")
        source.line(depth, "n = B.bit_count() + D.bit_count()")
        source.line(depth, "if n:")
        source.line(depth + 1, "starts.append(tally.total)")
        source.line(depth + 1, "records.append((base, evs, w, o, t, hh, th, B, D, BF))")
        source.line(depth + 1, "tally.total += n")
        source.line(depth + 1, "tally.pure = True")
        source.line(depth, "continue")

    def fused_masks(self, source: Source, fusion: Fusion, build_bans: list[tuple[str, Ban]], depth: int,
                    vacated: str = "(BLOCKED ^ (1 << o))", hoist: bool = False, count_only: bool = False,
                    planes: tuple[str, str, str, str] = LEVELS) -> bool:
        """Emit the bits `B`, `D` and `BF` of the build after the move of `w` from `o` to `t`,
        from the squares of the workers the move would make (`MB`, `MW`), without making it.
        `vacated`: the squares of the domes and workers but the mover (a name set once per
        worker, where the code has one). Returns whether the build's squares are also `c`, a
        block below level 3 and a dome on it (so that their count is `c`'s).

        Around the target, the squares of the workers after the move are those without the mover
        (`vacated`): the target is not its own neighbour. So where every way builds around the
        moved worker, the masks read `vacated`; with `hoist` (the caller's code sets `BO`, that
        set, before each worker's hoisting point), what reads no target is computed once per
        worker; with `count_only`, where `c` holds the squares, `B`, `D` and `BF` are not set.
        `planes`: the names of the level bits the build's conditions read (MaskLowering's)."""
        view = View("w", "t", "s", "h", "h", "pc")
        lowering = Lowering(source, self.judge)
        if all(way.region is Region.NEIGHBORING for way in fusion.ways):
            workers = source.hoist(f"{vacated} & ~DOMES") if hoist else f"({vacated} & ~DOMES)"
            return self.build_masks(source, lowering, fusion.ways, build_bans, ["True"] * len(fusion.ways), depth,
                                     view, workers, vacated, hoist=hoist, count_only=count_only, planes=planes)[1]
        source.line(depth, f"MB = {vacated} ^ (1 << t)")
        source.line(depth, "MW = MB & ~DOMES")
        self.build_masks(source, lowering, fusion.ways, build_bans, ["True"] * len(fusion.ways), depth, view,
                          "MW", "MB", planes=planes)
        return False

    def fused_targets(self, source: Source, lowering: Lowering, ways: list[WayParts], bans: list[tuple[str, Ban]],
                       view: View) -> str | None:
        """The targets of a move as bits, for the fused count's loop over them (`o` its origin,
        `hh` its level), or None when they are not one known set: a single way around the
        worker, every filter and prohibition with a bit lowering."""
        if len(ways) != 1 or ways[0].forces:
            return None
        targets = self.move_targets(source, lowering, ways, bans, view)
        return None if targets is None else targets[0]

    def move_targets(self, source: Source, lowering: Lowering, ways: list[WayParts], bans: list[tuple[str, Ban]],
                     view: View, blocked: str = "BLOCKED",
                     planes: tuple[str, str, str, str] = LEVELS, region: str | None = None) -> list[str] | None:
        """Per way of a move, the squares it may reach as bits (`view.origin` its origin,
        `view.here` its level; `blocked` the squares of the domes and the other workers): a free
        square, or for a way that forces the worker there, a worker's square (where the worker
        may go is the force's to say, square by square). None unless every way goes around the
        worker, with every filter and prohibition a bit lowering. `planes`: the names of the
        level bits the conditions read (MaskLowering's). `region`: the squares in place of those
        around the worker (`ALL`: where its moves may go from any square of its level)."""
        if any(way.region is not Region.NEIGHBORING or way.actor is not None for way in ways):
            return None
        around = region or f"{source.constant(AROUND_BITS, 'AROUND_BITS')}[{view.origin}]"
        banned = []
        for flag, ban in bans:
            mask = MaskLowering(Lowering(source, ban.judge), None, blocked, verb=Verb.MOVE,
                                planes=planes).all(ban.filters, view)
            if mask is None:
                return None
            banned.append(f"~(({mask}) if {flag} else 0)")
        targets = []
        for way in ways:
            mask = MaskLowering(lowering, None, blocked, verb=Verb.MOVE, planes=planes).all(way.filters, view)
            if mask is None:
                return None
            # (the free squares written as the filter 'unoccupied' writes them, masks.py: one name)
            reach = f"({blocked} & ~DOMES & ~DOMELIKE)" if way.forces else f"ALL ^ ({blocked} | DOMELIKE)"
            if blocked == "BLOCKED":  # (the same squares for every worker: once per call)
                reach = source.once(reach) or f"({reach})"
            elif not way.forces:
                reach = f"({reach})"
            targets.append(" & ".join([f"{around} & {reach}", *([f"({mask})"] if mask != "ALL" else []), *banned]))
        return targets

    def _count_build(self, step: Step, ways: list[WayParts]) -> Callable[[Walk, Tally], None]:
        """The keyed last build for a random draw: per worker, the squares each way may build on,
        as bits (masks.py), merged into block and dome outcomes and given to the tally with the
        squares where a block comes before a dome (derived/tally.py). A condition with no bit
        lowering is tested on each candidate left, with its expression."""
        source = Source()
        source.line(0, "def count(walk, tally):")
        for line in PROLOGUE:
            source.lazy(1, line)
        lowering = Lowering(source, self.judge)
        compiled = [self._way(way) for way in ways]
        choose = self._workers(step, compiled)
        bans = self.bans_in_force(source, Verb.BUILD, 1)
        board_bits(source, 1)
        source.line(1, "WORKERS = BLOCKED & ~DOMES")
        source.line(1, "now = st.hash")
        source.line(1, "if walk.fact_key is not None:")
        source.line(2, "now ^= walk.fact_key(walk)")
        source.line(1, "tokens = st.tokens")
        source.line(1, f"for w in {source.constant(choose, 'CHOOSE')}(walk):")
        source.line(2, "o = POS[w]")
        source.hoisting_point(2)
        usable = self._usable(source, lowering, step, ways, 2)
        view = View("w", "o", "s", "h", "h", "pc")
        self.tested.extend(self.build_masks(source, lowering, ways, bans, usable, 2, view)[0])
        source.line(2, "if B or D:")
        source.line(3, "tally.builds(walk, now, w, B, D, BF, tokens)")
        source.constants.update(P_DOME=Piece.DOME, P_BLOCK=Piece.BLOCK, ALL=ALL_BITS)
        return source.function("count")

    def build_masks(self, source: Source, lowering: Lowering, ways: list[WayParts], bans: list[tuple[str, Ban]],
                     usable: list[str], depth: int, view: View, workers: str = "WORKERS",
                     blocked: str = "BLOCKED", hoist: bool = False, count_only: bool = False,
                     planes: tuple[str, str, str, str] = LEVELS) -> tuple[list[str], bool]:
        """Emit the code that sets `B`, `D` and `BF` for the builder `view.worker` on
        `view.origin`: the squares where its build makes a block, a dome, and where a block comes
        first (with several ways). `workers` and `blocked`: the names of the squares of the
        workers, and of the workers and domes, as bits. `hoist`: compute what reads no target
        once per worker (the code's hoisting points). Returns the condition kinds it tests square
        by square (none when every part has a bit lowering), and whether `c` holds the build's
        squares (one way around the builder, a block or the next piece, no test square by square:
        `B` and `D` are then `c` below and on level 3, and with `count_only` not written)."""
        tested: list[str] = []
        # (one way that every worker may take: its squares are written to B and D at once)
        alone = len(ways) == 1 and usable[0] == "True"
        if not alone:
            source.line(depth, "B = D = BF = 0")
        origin = view.origin
        for way, flag in zip(ways, usable, strict=True):
            inner = depth
            if flag != "True":
                source.line(inner, f"if {flag}:")
                inner += 1
            masks = MaskLowering(lowering, way.piece, blocked, planes=planes)
            tests = []
            terms = ["OPEN"]  # (the squares the build may take, but its region)
            mask = masks.all(way.filters, view)
            if mask is None:
                tests.append(lowering.all(way.filters, view))
                tested.extend(type(part).__name__ for part in way.filters if masks.mask(part, view) is None)
            elif mask != "ALL":
                terms.append(f"({mask})")
            for flag_name, ban in bans:
                ban_lowering = Lowering(source, ban.judge, hoisting=lowering.hoisting)
                ban_masks = MaskLowering(ban_lowering, way.piece, blocked, planes=planes)
                banned = ban_masks.all(ban.filters, view)
                if banned is None:
                    tests.append(f"not ({flag_name} and ({ban_lowering.all(ban.filters, view)}))")
                    tested.extend(type(p).__name__ for p in ban.filters if ban_masks.mask(p, view) is None)
                else:
                    terms.append(f"(~({banned}) if {flag_name} else ALL)")
                self.called.extend(ban_lowering.calls)
            # one way around the builder, with every test a mask: the squares with a worker go
            # from `c` too (no block goes under the builder: it is not its own neighbour)
            whole = alone and not tests and way.region is Region.NEIGHBORING and way.piece is not Piece.DOME
            if whole:
                terms.append(f"~{workers}")
            region = self.region_bits(source, way, view)
            if hoist and all(_reads_no_target(term) for term in terms):
                source.line(inner, f"c = {region} & {source.hoist(' & '.join(terms))}")
            else:
                source.line(inner, f"c = {region} & {' & '.join(terms)}")
            if whole and count_only and way.piece is Piece.NEXT:
                return tested, True
            if whole:
                source.line(inner, f"B = c & ~{planes[3]}")
                source.line(inner, f"D = c & {planes[3]}" if way.piece is Piece.NEXT else "D = 0")
                source.line(inner, "BF = B")
                self.called.extend(lowering.calls)
                return tested, way.piece is Piece.NEXT
            if tests:
                piece = {Piece.DOME: "P_DOME", Piece.BLOCK: "P_BLOCK"}.get(way.piece, "P_DOME if h == 3 else P_BLOCK")
                source.line(inner, "x, c = c, 0")
                source.line(inner, "while x:")
                source.line(inner + 1, "low = x & -x")
                source.line(inner + 1, "x ^= low")
                source.line(inner + 1, "s = low.bit_length() - 1")
                source.line(inner + 1, "h = H[s]")
                source.line(inner + 1, f"pc = {piece}")
                source.line(inner + 1, f"if {' and '.join(f'({t})' for t in tests)}:")
                source.line(inner + 2, "c |= low")
            # a block may go under the builder itself (a region that holds its square; the
            # squares around the builder do not)
            b, d = ("B", "D") if alone else ("b", "d")
            under = (f"~{workers}" if way.region is Region.NEIGHBORING
                     else f"~({workers} & ~(1 << {origin}))")
            if way.piece is Piece.DOME:
                source.line(inner, f"{b}, {d} = 0, c & ~{workers}")
            else:
                source.line(inner, f"{b} = c & ~{planes[3]} & {under}")
                source.line(inner, f"{d} = c & {planes[3]} & ~{workers}" if way.piece is Piece.NEXT else f"{d} = 0")
            if alone:
                continue
            if len(ways) > 1:
                source.line(inner, "BF |= b & ~B & ~D")
            source.line(inner, "B |= b")
            source.line(inner, "D |= d")
        if len(ways) == 1:
            source.line(depth, "BF = B")
        self.called.extend(lowering.calls)
        return tested, False

    def region_bits(self, source: Source, way: WayParts, view: View) -> str:
        """The squares of a way's region, as bits (the builder stands on `view.origin`)."""
        origin = view.origin
        if way.region is Region.NEIGHBORING:
            return f"{source.constant(AROUND_BITS, 'AROUND_BITS')}[{origin}]"
        if way.region is Region.ANYWHERE:
            return "ALL"
        if way.region is Region.WRAPPED:
            return f"{source.constant(WRAPPED_AROUND_BITS, 'WRAPPED_BITS')}[{origin}]"
        if way.region is Region.OVER_WORKER:
            return f"{source.constant(_over_workers, 'OVER')}(OCC, {origin})"
        assert way.ref is not None
        if way.ref is SpaceRef.ORIGIN and not way.neighbouring:
            return f"(1 << {origin})"  # (the builder's own square)
        locate = source.constant(space_locator(way.ref), "LOC")
        near = f" and single in {source.constant(ADJACENT, 'ADJACENT')}[{origin}]" if way.neighbouring else ""
        return f"(1 << single if (single := {locate}(walk, {view.worker}, {origin}, -1)) >= 0{near} else 0)"


def built_events(st: GameState, before: tuple[tuple[object, ...], ...], worker: int, square: int,
                 dome: bool) -> tuple[tuple[tuple[object, ...], ...], None]:
    """The events of a turn whose last build was keyed, not made (the build as effects.apply_build
    writes it, with the token it takes off), and its winner (none: a keyed build does not win)."""
    return before + build_events(worker, square, dome, st.heights, st.tokens)[1], None


def _win_by_move(walk: Walk, worker: int, origin: int, target: int, here: int, there: int, winner: int) -> None:
    """A winning move met by the fused count's loop over targets: made, its leaf called with the
    winner, and undone (the count makes no other move)."""
    st = walk.state
    st.relocate(worker, target)
    walk.events.append(("move", worker, origin, target, here, there))
    walk.path.append(("move", worker, target))
    previous, walk.last_actor = walk.last_actor, worker
    st.winner = winner
    walk.leaf(walk)
    st.winner = None
    walk.last_actor = previous
    walk.path.pop()
    walk.events.pop()
    st.relocate(worker, origin)


def _over_workers(occupant: list[int], origin: int) -> int:
    """The spaces past the occupied spaces around `origin`, as bits."""
    bits = 0
    for n in NEIGHBOURS[origin]:
        beyond = BEYOND[origin][n]
        if occupant[n] >= 0 and beyond >= 0:
            bits |= 1 << beyond
    return bits


#: The names of generated code that change from one target or candidate square to the next.
_PER_TARGET = frozenset({"t", "th", "s", "h", "pc", "low", "c", "b", "d", "B", "D", "BF", "MB", "MW", "M", "n", "x"})


def _reads_no_target(expression: str) -> bool:
    """Whether an expression of generated code names nothing that changes with the target (so
    it may be computed once per worker)."""
    return not _PER_TARGET.intersection(re.findall(r"[A-Za-z_]\w*", expression))


def _by_the_mover(step: Step, ways: list[WayParts]) -> bool:
    """Whether a build is made by the turn's moved worker (the one of the step before): then its
    squares follow from that move, and counting them beats listing them."""
    return step.actor.role in (Role.THAT, Role.SUBJECT, Role.MOVED) and all(way.actor is None for way in ways)


def _names(part: object, ref: SpaceRef) -> bool:
    """Whether a condition names the space `ref` anywhere in its parts."""
    if part is ref:
        return True
    if isinstance(part, tuple):
        return any(_names(p, ref) for p in part)
    if dataclasses.is_dataclass(part) and not isinstance(part, type):
        return any(_names(getattr(part, field.name), ref) for field in dataclasses.fields(part))
    return False


def _short(where: Where) -> str:
    """A sentence's place as the file's name, line and column."""
    return f"{Path(where.file).name}:{where.line}:{where.column}"


def _one_region(ways: list[WayParts]) -> bool:
    """Whether the step's candidate spaces are one region's: a single way, or every way around
    the worker (the generated loop walks one region; the generic chain merges several)."""
    return len(ways) == 1 or all(way.region is Region.NEIGHBORING for way in ways)


def _wrap(each: Callable[[Walk, StepFn, bool], bool], after: StepFn | None, rest: StepFn, optional: bool,
          repeated: bool, keyed: bool, cost: Cost = (), reads: Reads | None = None, may_win: bool = True,
          count: Callable[[Walk, Tally], None] | None = None,
          void: Callable[[Walk], bool] | None = None, settled: Callable[[Walk], bool] | None = None) -> StepFn:
    """The step as the chain calls it: declined first when it is optional, repeated 'any number
    of times' (each state visited once, as in the generic chain), taken only while the card
    affords its cost, and keyed by hash arithmetic when it is the turn's last and its outcomes are
    the board alone (`keyed`: nothing else in the step changes what a rule reads).

    `reads`: what the step reads of the turn's log. With what the rest of the turn reads (each
    step function the derived compiler makes says it, `_subtree_reads`), it makes the step entered
    once per state and context: two ways to the same position (two moves in either order, two
    builds on the same spaces) have the same outcomes below, so only the first way's are kept,
    and those the generic chain keeps too (the first turn found for each outcome).

    `void`: for steps after it (`after`, end-of-turn steps) that may take nothing, whether they
    take nothing from the walk's state whatever this step does (DerivedCompiler._void_when): it
    is then the turn's last, keyed and counted. `settled`: whether what they take is the same
    whatever this step does (DerivedCompiler._settled_when): a random draw then finds their
    takings once and counts this step's outcomes with each (derived/tally.py: `Tally.collect`).

    `may_win`: whether the step can make a team win (a move by a way that some win of the seat
    may match, derived/invariance.py; a build where a board win exists). A search for a win
    (`walk.wins_only`) skips a step below which nothing can win."""
    winnable = may_win or _may_win(rest) or (after is not None and _may_win(after))
    if repeated:
        def expand(walk: Walk, then: StepFn) -> bool:
            if not cost or _affords(walk, cost):
                each(walk, then, False)
            return False

        def again(walk: Walk) -> bool:
            if walk.wins_only and not winnable:
                return False
            return breadth_first(walk, again, rest, expand, stops=False)  # (as the generic chain's)
        again.may_win = winnable  # type: ignore[attr-defined]
        return again
    assert after is not None
    last = keyed and (after is finish or void is not None)
    counted_with = keyed and settled is not None and count is not None
    below = _subtree_reads(reads, after, rest)
    context = _context(below) if below is not None and EVENTS not in below else None

    def take(walk: Walk) -> bool:
        if walk.wins_only and not winnable:
            return False  # (a search for a win: nothing below this step can win)
        if context is not None and walk.memo and len(walk.path) >= 2:
            seen = (take, walk.state.hash, walk.last_actor, context(walk))
            if seen in walk.visited:
                return False  # (entered before in this state and context: its outcomes are found)
            walk.visited.add(seen)
        if optional:
            rest(walk)
        if not cost or _affords(walk, cost):
            keyed = last and walk.keyed_by_board and (void is None or void(walk))
            if keyed and walk.prefix_tests:
                for test in walk.prefix_tests:
                    verdict = test(walk, -1, -1, -1, 0, 0, None)
                    if verdict is None:
                        keyed = False  # (not judged yet: each outcome is judged as it is made)
                    elif not verdict:
                        return False  # (an obligation no build changes is not met: no outcome here)
            tally = walk.tally
            if keyed and isinstance(tally, Tally):  # (a random draw: the builds are counted, not listed)
                if count is None:
                    tally.exact = False
                else:
                    count(walk, tally)
                return False
            if (counted_with and not keyed and isinstance(tally, Tally) and walk.keyed_by_board
                    and not walk.prefix_tests and settled(walk) and tally.collect(walk, after)):  # type: ignore[misc]
                # (a random draw: the builds are counted with each taking of the steps after them)
                try:
                    count(walk, tally)  # type: ignore[misc]
                finally:
                    tally.takings = None
                return False
            each(walk, after, keyed)
        return False
    take.reads = below  # type: ignore[attr-defined]
    take.may_win = winnable  # type: ignore[attr-defined]
    return take


def _always(walk: Walk) -> bool:
    return True


def _may_win(step: StepFn) -> bool:
    """Whether a team may win in the rest of the turn from `step` (True for a closure that does
    not say: a generic step, the glue of follow-ups)."""
    return False if step is finish else bool(getattr(step, "may_win", True))


# ---- what the rest of a turn reads of its log -------------------------------------------------------

#: What a step reads of the turn's log: 'built' (the latest build's space), 'moved' (the latest
#: mover), 'start' (where each moved worker started, which also says which have moved), or
#: EVENTS (more than these: no step is then entered once per context).
Reads = frozenset[str]
EVENTS = "events"


def _reads_of_condition(part: Condition) -> set[str]:
    if isinstance(part, Not):
        return _reads_of_condition(part.part)
    if isinstance(part, (AnyOf, AllOf)):
        return {read for p in part.parts for read in _reads_of_condition(p)}
    if isinstance(part, (SpaceIs, SameSpace)):
        return {"start"} if part.space is SpaceRef.START else {"built"} if part.space is SpaceRef.LAST_BUILT else set()
    if isinstance(part, StandsHighest):
        return {"start"}
    if isinstance(part, Happened):
        return {EVENTS} if part.scope is Scope.THIS_TURN else set()
    if isinstance(part, LastMoves):
        return {EVENTS}
    if isinstance(part, WorkersAre):
        return _reads_of_actor(part.selector.role) | {r for f in part.filters for r in _reads_of_condition(f)}
    return set()  # (the board and the step's own view)


def _reads_of_actor(role: Role) -> set[str]:
    return {Role.MOVED: {"moved"}, Role.UNMOVED: {"start"}}.get(role, set() if role in (
        Role.CHOSEN, Role.EACH, Role.THAT, Role.SUBJECT) else {EVENTS})


def _reads_of_step(step: Step, ways: list[WayParts], bans: list[Ban], more: list[tuple[Condition, ...]]) -> Reads:
    reads = _reads_of_actor(step.actor.role)
    for way in ways:
        if way.actor is not None:
            reads |= _reads_of_actor(way.actor.role)
        if way.ref in (SpaceRef.START, SpaceRef.LAST_BUILT):
            reads.add("start" if way.ref is SpaceRef.START else "built")
        for part in (*way.filters, *(f for force in way.forces if isinstance(force, Force)
                                     for f in force.destination.filters)):
            reads |= _reads_of_condition(part)
        for force in way.forces:
            if isinstance(force, Force) and force.destination.ref in (SpaceRef.START, SpaceRef.LAST_BUILT):
                reads.add(EVENTS)
    for filters in [*(ban.filters for ban in bans), *more]:
        for part in filters:
            reads |= _reads_of_condition(part)
    return frozenset(reads)


def _subtree_reads(own: Reads | None, after: StepFn, rest: StepFn) -> Reads | None:
    """What a step and every step after it read of the log, or None when one of them is a closure
    that does not say (a generic step, the glue of follow-ups)."""
    parts = [own, *(frozenset() if fn is finish else getattr(fn, "reads", None) for fn in (after, rest))]
    if any(part is None for part in parts):
        return None
    return frozenset().union(*parts)  # type: ignore[arg-type]


def _context(reads: Reads) -> Callable[[Walk], tuple[object, ...]]:
    """What identifies a step's context beyond the state and the last actor: what it reads."""
    built, moved, start = "built" in reads, "moved" in reads, "start" in reads

    def context(walk: Walk) -> tuple[object, ...]:
        events = walk.events
        found: list[object] = []
        if built:
            found.append(next((e[2] for e in reversed(events) if e[0] == "build"), -1))
        if moved:
            found.append(next((e[1] for e in reversed(events) if e[0] == "move"), -1))
        if start:
            firsts: dict[int, int] = {}
            for e in events:
                if e[0] == "move" and e[1] not in firsts:
                    firsts[e[1]] = e[2]
            found.append(tuple(sorted(firsts.items())))
        return tuple(found)
    return context

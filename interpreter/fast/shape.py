"""The gate of the fast paths: the rule parts they understand, listed, and nothing else.

The fast paths (plain.py, counted.py, masked.py, known_turns.py, and the
playout loop, playout.py) were written for the turn shapes the simple gods give the plain turn,
and then for parts that other cards add to it and that can be read as squares (bits.py). They
read a small record of a seat's rules, `FastRules`, in their own terms (a climb limit, move
options into an opponent's space, a dome at any level, follow-ups, a few step constraints; and
the `extended` parts, each counted by the pickers that list it: bans, vetoes, obligations and
slides of other seats, move options with their own climb, other wins, automatic end-of-turn
steps (masked.py, and its lean form masked_lean.py); a worker placed from the card
tokens read as domes). The parts the derived code's kernels draw (interpreter/derived/kernel.py:
a move made again, a block taken off, builds of the worker that did not move, builds paid from
a counter, tokens put around the worker or on the square built, walks on a level) are not
listed here. `fast_rules` builds that record from
a seat's typed rules only when every part of them is in the tables below; a seat with any other
part, or bound by another seat's part not listed here, gets None and runs on the generic step
chain. Each picker takes a seat only when its own list covers every extended part the seat has
(`without`). A new part of the language is therefore never handled by a fast path until someone
adds it here, with the tests that compare the fast paths with the chain (tests/test_fast_paths.py).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from enum import Enum, auto
from typing import Any, TypeGuard

from ...dsl.vocabulary import (
    ANY_NUMBER,
    ONCE,
    AllOf,
    AnyOf,
    Compare,
    Condition,
    CountIs,
    FollowUpTiming,
    Force,
    Happened,
    LastMoves,
    LevelChange,
    Modality,
    Not,
    OccupiedBy,
    Owner,
    Piece,
    Prohibition,
    Quantity,
    Region,
    Role,
    SameSpace,
    Scope,
    Sex,
    SpaceIs,
    SpaceRef,
    SpaceSelector,
    Step,
    StepPattern,
    TargetLevel,
    TokenKind,
    Verb,
    WorkerSelector,
)
from ...dsl.vocabulary import FollowUp as CardFollowUp
from ...dsl.vocabulary.hooks import Reserve
from ...dsl.vocabulary.parts import (
    DOWN,
    NOT_A_DOME,
    NOT_BACK_TO_START,
    NOT_ON_LAST_BUILT,
    NOT_UP,
    NOT_UP_OR_DOWN,
    ON_LAST_BUILT,
    UNOCCUPIED,
    UP,
)
from ..chain.conditions import FIXED_SQUARES, reads_the_target_free
from ..chain.rules import SeatRules, reaches
from ..model.board import ALL_BITS
from .bits import SquareBits, target_bits

# ---- the fast paths' own record of a seat's rules ----------------------------------------------

class Constraint(Enum):
    """The fast paths' own reading of a step's filters: each filter they understand
    (KNOWN_FILTERS), named for the condition it puts on the step, read once by the gate so that
    the pickers and chains test a member rather than the vocabulary's conditions."""

    NOT_UP = auto()  # a move: not up
    NOT_UP_OR_DOWN = auto()  # a move: to the same level
    NOT_BACK_TO_START = auto()  # a move: not back to the space the worker started from
    NOT_SAME_SPACE = auto()  # a build: not on the last build's space
    SAME_SPACE = auto()  # a build: on the last build's space
    NOT_DOME = auto()  # a build: not a dome


@dataclass(frozen=True)
class StepSpec:
    """A step as the fast paths read it. verb: Verb.MOVE or Verb.BUILD; actor: Role.CHOSEN
    (chosen by this step), Role.EACH (chosen anew at each repetition), Role.THAT (the previous
    step's) or Role.MOVED (the last mover)."""

    verb: Verb
    actor: Role
    optional: bool
    repeat: bool
    constraints: tuple[Constraint, ...]


@dataclass(frozen=True)
class Program:
    name: str
    announced: bool
    steps: tuple[StepSpec, ...]


@dataclass(frozen=True)
class FollowUp:
    after: Verb
    step: StepSpec


@dataclass(frozen=True)
class MoveIntoOpponent:
    """Move into an opponent worker's space, forcing it to 'vacated' or 'straight_backwards'."""

    same_or_lower: bool
    destination: str


@dataclass(frozen=True)
class DomeAtAnyLevel:
    """A build may be a dome at any level."""


@dataclass(frozen=True)
class Squares:
    """A rule of another seat read as squares (bits.py): where this seat's steps may not go, or
    where its moves cannot win, while the seat `holder` is in the game."""

    holder: int
    squares: SquareBits
    reads_levels: bool


@dataclass(frozen=True)
class MoveWay:
    """A move option to a free space with its own climb limit: to a neighbouring space ('may
    move up any number of levels'), or over a neighbouring worker to the space beyond it."""

    over_worker: bool
    climb: int
    can_win: bool
    #: The card mark of a once-per-game option (usable while the seat's card lacks it).
    once: str | None = None


@dataclass
class FastRules:
    climb: int
    move_options: list[MoveIntoOpponent]
    build_options: list[DomeAtAnyLevel]
    wins: list[tuple[str, int]]
    followups: list[FollowUp]
    programs: list[Program]
    #: Parts that only the plain picker (and, for `move_ways` alone, the playout's inline turn)
    #: understands; every other fast path refuses a seat that has one (`extended`).
    move_bans: list[Squares] = field(default_factory=list)
    build_bans: list[Squares] = field(default_factory=list)
    win_vetoes: list[Squares] = field(default_factory=list)
    #: Wins of the seat's moves beyond the table of `wins`, as the squares where a move wins.
    win_squares: list[Squares] = field(default_factory=list)
    #: Another seat's obligation 'if possible, ... must move up this turn', as the squares its
    #: moves must go to when some turn can.
    preferred_moves: list[Squares] = field(default_factory=list)
    #: 'After your worker moves, the opponent worker on the next space in the same direction is
    #: removed from the game' (a follow-up of every move, with no choice).
    removes_beyond: bool = False
    #: Another seat's reaction 'each time an opponent worker moves, it is forced space by space in
    #: the same direction until ...': the squares it may be forced on to from a square (at most one).
    slides: list[Squares] = field(default_factory=list)
    #: 'Your unmoved worker builds instead': the build is by one of the seat's other workers.
    unmoved_build: bool = False
    #: End-of-turn steps that happen with no choice ('each opponent worker on a lower space
    #: neighboring your workers is removed'): the engine's chain runs them on the turn drawn.
    turn_ends: bool = False
    #: A build option 'your female worker may build a dome at any level': the sex of the
    #: workers who may (any of them, not only the one that moved).
    dome_sex: Sex | None = None
    #: 'Before your worker moves, it may force a neighboring opponent worker to the space on the
    #: other side of it'.
    force_before: bool = False
    #: 'After your worker builds, it may build one additional time, not on a perimeter space':
    #: the squares the second build may go on (the first one's included).
    second_build: Squares | None = None
    #: (comparison, amount) of each seat's win by the number of complete towers ('at least five'):
    #: a number that only a dome on level 3 changes, so that only such a build can win that way.
    tower_wins: tuple[tuple[Compare, int], ...] = ()
    move_ways: list[MoveWay] = field(default_factory=list)
    #: A build option 'may build a block under itself'.
    build_under: bool = False
    #: The tokens this seat treats as domes: (holder's seat, token kind) of each such rule of any
    #: seat ('all workers treat the space with your talus token as if it contains only a dome').
    dome_tokens: tuple[tuple[int, str], ...] = ()

    @property
    def extended(self) -> bool:
        """Whether a part beyond the simple gods' is here (see the fields above)."""
        return bool(self.move_bans or self.build_bans or self.win_vetoes or self.move_ways or self.build_under
                    or self.win_squares or self.tower_wins or self.preferred_moves or self.removes_beyond
                    or self.slides or self.unmoved_build or self.turn_ends or self.dome_sex is not None
                    or self.force_before or self.second_build is not None or bool(self.dome_tokens))

    @property
    def beyond_climbs(self) -> bool:
        """Whether a part beyond the simple gods' is here other than move options to a
        neighbouring space with their own climb limit (entries of the kinds table alone)."""
        climbs = [w for w in self.move_ways if not (w.over_worker or w.once)]
        return self.extended and (len(climbs) < len(self.move_ways) or bool(
            self.move_bans or self.build_bans or self.win_vetoes or self.build_under or self.win_squares
            or self.tower_wins or self.preferred_moves or self.removes_beyond or self.slides
            or self.unmoved_build or self.turn_ends or self.dome_sex is not None or self.force_before
            or self.second_build is not None or bool(self.dome_tokens)))

    @property
    def reads_levels(self) -> bool:
        return bool(self.tower_wins) or self.dome_sex is not None or self.second_build is not None or any(
            rule.reads_levels for rule in (
            *self.move_bans, *self.build_bans, *self.win_vetoes, *self.win_squares, *self.preferred_moves,
            *self.slides))


def without(rules: FastRules, parts: frozenset[str]) -> FastRules:
    """`rules` with the named extended parts taken out (set to their defaults): what a fast path
    that knows those parts checks is left, `.extended` telling whether it knows them all."""
    defaults: dict[str, Any] = {
        f.name: (f.default_factory() if f.default_factory is not dataclasses.MISSING else f.default)
        for f in dataclasses.fields(FastRules) if f.name in parts}
    return dataclasses.replace(rules, **defaults)


def win_table(wins: list[tuple[str, int]]) -> tuple[tuple[bool, ...], ...]:
    """WIN[from_height][to_height]: whether a move between those levels wins for the seat."""
    return tuple(tuple(any((kind == "up_onto_level" and here < there == amount)
                           or (kind == "down_at_least" and here - there >= amount)
                           for kind, amount in wins) for there in range(4)) for here in range(4))


# ---- the parts they understand -------------------------------------------------------------------

NEIGHBOURING_UNOCCUPIED = SpaceSelector(Region.NEIGHBORING, None, (UNOCCUPIED,))
OPPONENT_SPACE = SpaceSelector(Region.NEIGHBORING, None, (OccupiedBy(Owner.OPPONENTS),))
DISPLACED = WorkerSelector(Role.DISPLACED, Owner.ANYONES)
OVER_A_WORKER = SpaceSelector(Region.OVER_WORKER, None, ())
UNDER_ITSELF = SpaceSelector(Region.SINGLE, SpaceRef.ORIGIN, (SameSpace(SpaceRef.ORIGIN),))

KNOWN_FILTERS: dict[Verb, dict[object, Constraint]] = {
    Verb.MOVE: {NOT_UP: Constraint.NOT_UP, NOT_UP_OR_DOWN: Constraint.NOT_UP_OR_DOWN,
                NOT_BACK_TO_START: Constraint.NOT_BACK_TO_START},
    Verb.BUILD: {NOT_ON_LAST_BUILT: Constraint.NOT_SAME_SPACE, ON_LAST_BUILT: Constraint.SAME_SPACE,
                 NOT_A_DOME: Constraint.NOT_DOME},
}
KNOWN_ACTORS = frozenset((Role.CHOSEN, Role.EACH, Role.THAT, Role.MOVED))
KNOWN_FORCES = {Force(DISPLACED, SpaceSelector(Region.SINGLE, SpaceRef.VACATED)): "vacated",
                Force(DISPLACED, SpaceSelector(Region.SINGLE, SpaceRef.BEYOND)): "straight_backwards"}
#: Other seats' prohibitions a fast path applies (as its forbid_up and forbid_down flags).
KNOWN_PROHIBITIONS: dict[tuple[Verb, tuple[Condition, ...]], str] = {(Verb.MOVE, (UP,)): "up",
                                                                      (Verb.MOVE, (DOWN,)): "down"}


def known_prohibition(prohibition: Prohibition) -> str | None:
    """'up' or 'down' for the prohibitions the fast paths apply, else None."""
    if prohibition.binds is not Owner.OPPONENTS:
        return None
    return KNOWN_PROHIBITIONS.get((prohibition.verb, prohibition.filters))


def _step(step: Step) -> StepSpec | None:
    if step.verb not in KNOWN_FILTERS or step.guard is not None or not step.can_win or step.target is not None \
            or step.actor.owner is not Owner.YOURS or step.actor.role not in KNOWN_ACTORS or step.actor.sex is not None:
        return None
    if step.destination is not None or step.piece is not Piece.NEXT or step.effects:
        return None
    if step.repeat not in (ONCE, ANY_NUMBER) or (step.repeat == ANY_NUMBER) != (step.actor.role is Role.EACH):
        return None
    if step.modality in (Modality.IF_POSSIBLE, Modality.AUTOMATIC) or step.cost \
            or not all(f in KNOWN_FILTERS[step.verb] for f in step.filters):
        return None
    return StepSpec(step.verb, step.actor.role, step.modality is Modality.MAY,
                    step.repeat == ANY_NUMBER, tuple(KNOWN_FILTERS[step.verb][f] for f in step.filters))


def _win(pattern: StepPattern) -> tuple[str, int] | None:
    if pattern.verb is not Verb.MOVE or pattern.owner is not Owner.YOURS:
        return None
    filters = pattern.filters
    if len(filters) == 2 and filters[0] == UP and isinstance(filters[1], TargetLevel) and filters[1].op is Compare.EQ:
        return ("up_onto_level", filters[1].level)
    if len(filters) == 1 and isinstance(filters[0], LevelChange) and filters[0].op is Compare.LE \
            and filters[0].amount < 0:
        return ("down_at_least", -filters[0].amount)
    return None


def _as_squares(holder: SeatRules, verb: Verb, filters: tuple[Condition, ...]) -> Squares | None:
    compiled = target_bits(filters, holder.team, verb)
    return None if compiled is None else Squares(holder.seat, *compiled)


def _bans(rules: SeatRules, others: list[SeatRules]) -> tuple[list[Squares], list[Squares], list[Squares]] | None:
    """Other seats' prohibitions that bind this seat, beyond the two the fast paths apply as
    flags (no moving up, no moving down), and their vetoes of its wins, as squares; None if one
    cannot be read as squares."""
    move_bans: list[Squares] = []
    build_bans: list[Squares] = []
    vetoes: list[Squares] = []
    for other in others:
        if other.team == rules.team:
            if any(p.binds is not Owner.OPPONENTS for p in other.prohibitions):
                return None  # (a teammate's prohibition of all workers binds this seat too)
            continue
        for prohibition in other.prohibitions:
            if known_prohibition(prohibition) is not None:
                continue
            if prohibition.binds is not Owner.OPPONENTS or prohibition.when is not None \
                    or prohibition.verb not in (Verb.MOVE, Verb.BUILD):
                return None
            squares = _as_squares(other, prohibition.verb, prohibition.filters)
            if squares is None:
                return None
            (move_bans if prohibition.verb is Verb.MOVE else build_bans).append(squares)
    for other in (rules, *others):
        for veto in other.vetoes:
            if not reaches(other, veto.binds, rules.team):
                continue
            pattern = veto.pattern
            if (pattern.verb is not Verb.MOVE or pattern.owner is Owner.YOURS
                    or any(reads_the_target_free(part) for part in pattern.filters)):
                return None  # (whether the target is free is judged after the move: occupied)
            squares = _as_squares(other, Verb.MOVE, pattern.filters)
            if squares is None:
                return None
            vetoes.append(squares)
    return move_bans, build_bans, vetoes


def _obligations(rules: SeatRules, others: list[SeatRules]) -> tuple[list[Squares], list[Squares]] | None:
    """Other seats' obligations on this seat's turn, read as moves (a plain turn has one move):
    'its last move must be to ...' (LastMoves) and '... must move up this turn' (Happened) are
    bans on the other destinations; with 'if possible', the squares preferred when some turn can
    reach them. None for any other obligation, for two 'if possible' ones, or one beside a ban
    read from an obligation (the chain judges each in turn with those in force before it)."""
    bans, preferred = [], []
    for other in others:
        if other.team == rules.team:
            continue
        for obligation in other.obligations:
            requirement = obligation.requirement
            if obligation.binds is not Owner.OPPONENTS:
                return None
            if isinstance(requirement, LastMoves) and requirement.owner is not Owner.YOURS \
                    and not obligation.if_possible:
                started, ended = (target_bits(part, other.team, Verb.MOVE) for part in
                                  (requirement.started, requirement.ended))
                if started is None or ended is None:
                    return None
                bans.append(Squares(other.seat, _unless_ended(started[0], ended[0]), started[1] or ended[1]))
            elif isinstance(requirement, Happened) and requirement.scope is Scope.THIS_TURN \
                    and requirement.pattern.verb is Verb.MOVE and requirement.pattern.owner is not Owner.YOURS:
                squares = _as_squares(other, Verb.MOVE, requirement.pattern.filters)
                if squares is None:
                    return None
                if obligation.if_possible:
                    preferred.append(squares)
                else:
                    bans.append(Squares(other.seat, _outside(squares.squares), squares.reads_levels))
            else:
                return None
    if len(preferred) > 1 or (preferred and bans):
        return None
    return bans, preferred


def _slides(rules: SeatRules, others: list[SeatRules]) -> list[Squares] | None:
    """Other seats' reactions to this seat's moves, read as squares: a slide onward along the
    move (chain.steps.slide_reaction), at most one. None for any other reaction."""
    slides = []
    for other in (rules, *others):
        for reaction in other.reactions:
            if not reaches(other, reaction.trigger.owner, rules.team):
                continue
            trigger, step = reaction.trigger, reaction.step
            if trigger.verb is not Verb.MOVE or trigger.owner is Owner.YOURS or trigger.filters \
                    or step.verb is not Verb.FORCE or step.modality is not Modality.AUTOMATIC \
                    or step.destination is None or step.destination.region is not Region.SINGLE \
                    or step.destination.ref is not SpaceRef.BEYOND or step.effects:
                return None
            squares = _as_squares(other, Verb.MOVE, (*step.destination.filters, *step.filters))
            if squares is None:
                return None
            slides.append(squares)
    return slides if len(slides) <= 1 else None


def _unless_ended(started: SquareBits, ended: SquareBits) -> SquareBits:
    """The ban of 'a worker that starts where `started` holds must end where `ended` holds'."""
    return lambda st, w, o, lv: (ALL_BITS ^ ended(st, w, o, lv)) if started(st, w, o, lv) >> o & 1 else 0


def _outside(squares: SquareBits) -> SquareBits:
    return lambda st, w, o, lv: ALL_BITS ^ squares(st, w, o, lv)


def fast_rules(rules: SeatRules, others: list[SeatRules]) -> FastRules | None:
    """The fast paths' record of `rules`, or None if some part is not one they understand.
    `others`: the other seats' rules, whose prohibitions, vetoes and board wins reach this seat."""
    bans = _bans(rules, others)
    if bans is None or rules.lose_when_stuck is False:
        return None
    if rules.turn_starts or rules.turn_begins or not all(_automatic_end(step) for step in rules.turn_ends):
        return None  # (a start or end of the turn the derived code's kernels take in, or the chain)
    board_wins = [w for o in (rules, *others) for w in o.wins_when]
    if not all(_towers_only(w.condition) for w in board_wins):
        return None
    obliged, slides = _obligations(rules, others), _slides(rules, others)
    if obliged is None or slides is None:
        return None
    dome_tokens = _dome_tokens(rules, others)
    if dome_tokens is None:
        return None  # (a token this seat might build on, or move onto: the fast paths keep off tokens)
    # (another seat's workers waiting on its card change nothing in this seat's turn: once on the
    # board, they are workers like the others)
    if any(p.binds is not Owner.OPPONENTS for p in rules.prohibitions):
        return None  # (the seat's own prohibitions bind only its opponents: not its own turn)
    move, build = rules.board.get(Verb.MOVE), rules.board.get(Verb.BUILD)
    if move is None or build is None or set(rules.board) != {Verb.MOVE, Verb.BUILD}:
        return None
    if move.destination != NEIGHBOURING_UNOCCUPIED or build.destination != NEIGHBOURING_UNOCCUPIED or build.filters:
        return None
    if len(move.filters) != 1 or not isinstance(move.filters[0], LevelChange) or move.filters[0].op is not Compare.LE:
        return None
    programs = []
    for program in rules.programs:
        if program.once_per_game is not None:
            return None  # (a once-per-game program: the derived code's kernels take it in, or the chain)
        steps = [_step(step) for step in program.steps]
        specs = tuple(spec for spec in steps if spec is not None)
        if len(specs) != len(steps):
            return None
        programs.append(Program(program.name, program.announced, specs))
    followups, removes_beyond, force_before, second_build = [], False, False, None
    for followup in rules.followups:
        if _removes_beyond(followup):
            removes_beyond = True
            continue
        if _forces_before(followup):
            force_before = True
            continue
        again = _second_build(rules, followup)
        if again is not None:
            second_build = again
            continue
        trigger, spec = followup.trigger, _step(followup.step)
        if spec is None or trigger.owner is not Owner.YOURS or trigger.filters or spec.actor is not Role.THAT \
                or followup.timing is not FollowUpTiming.AFTER:
            return None
        followups.append(FollowUp(trigger.verb, spec))
    move_options, build_options, move_ways, build_under, unmoved_build = [], [], [], False, False
    dome_sex = None
    for verb, options in rules.options.items():
        for option in options:
            step = option.step
            # 'your unmoved worker builds instead': the one option that replaces the step
            instead = option.instead and verb is Verb.BUILD and len(options) == 1 and step.modality is Modality.MUST \
                and step.repeat == ONCE and option.once_per_game is None and step.guard is None and step.target is None
            # 'your female worker may build a dome at any level': any worker of that sex builds
            sexed = step.actor.role is Role.CHOSEN and step.actor.owner is Owner.YOURS and step.actor.sex is not None
            if not instead and (step.repeat != ONCE or step.modality is not Modality.MAY or option.instead
                                or (step.actor != WorkerSelector(Role.SUBJECT) and not sexed)
                                or step.guard is not None or step.target is not None):
                return None
            if sexed and not (verb is Verb.BUILD and step.piece is Piece.DOME and option.once_per_game is None):
                return None
            if verb is Verb.MOVE and step.piece is Piece.NEXT and not step.effects \
                    and step.destination in (None, OVER_A_WORKER) and _climb_only(step.filters) \
                    and not (option.once_per_game and step.destination is not None):
                move_ways.append(MoveWay(step.destination is not None, step.filters[0].amount, step.can_win,
                                         option.once_per_game))
            elif not step.can_win or option.once_per_game is not None:
                return None
            elif sexed:
                if step.destination is not None or step.filters or step.effects:
                    return None
                dome_sex = step.actor.sex
            elif verb is Verb.MOVE and step.destination == OPPONENT_SPACE and step.piece is Piece.NEXT \
                    and len(step.effects) == 1 and step.effects[0] in KNOWN_FORCES and step.filters in ((), (NOT_UP,)):
                move_options.append(MoveIntoOpponent(bool(step.filters), KNOWN_FORCES[step.effects[0]]))
            elif verb is Verb.BUILD and step.piece is Piece.DOME and step.destination is None \
                    and not step.filters and not step.effects:
                build_options.append(DomeAtAnyLevel())
            elif verb is Verb.BUILD and step.piece is Piece.BLOCK and step.destination == UNDER_ITSELF \
                    and not step.filters and not step.effects:
                build_under = True
            elif verb is Verb.BUILD and instead and step.actor == WorkerSelector(Role.UNMOVED) \
                    and step.piece is Piece.NEXT and step.destination is None and not step.filters and not step.effects:
                unmoved_build = True
            else:
                return None
    if (move_ways or build_under or unmoved_build) and (move_options or build_options):
        return None  # (the plain picker counts either kind of option, not both at once)
    if sum((unmoved_build, build_under, dome_sex is not None, second_build is not None)) > 1:
        return None  # (masked.py counts one of these build parts at a time)
    wins, win_squares = [], []
    for win in rules.wins:
        known = _win(win.pattern) if win.when is None else None
        if known is not None:
            wins.append(known)
            continue
        # another win of a move: where it wins, as squares ('onto level 1 into a space
        # neighboring your workers standing on level 1'), and when ('in a game of 2 players')
        if win.pattern.verb is not Verb.MOVE or win.pattern.owner is not Owner.YOURS:
            return None
        squares = _as_squares(rules, Verb.MOVE, (*win.pattern.filters, *((win.when,) if win.when else ())))
        if squares is None:
            return None
        win_squares.append(squares)
    if rules.memory and not _one_move(programs, followups, move_options):
        return None  # facts of a turn with several moves are not the board's: the chain keys them
    if second_build is not None and board_wins:
        return None  # (a first build that completes the winning tower ends the turn: no pair)
    if _has_setup(rules):
        return None  # (workers that wait on the card: the derived code's kernels, or the chain)
    move_bans, build_bans, vetoes = bans
    move_bans = move_bans + obliged[0]
    return FastRules(climb=move.filters[0].amount, move_options=move_options, build_options=build_options,
                     wins=wins, followups=followups, programs=programs, move_bans=move_bans,
                     build_bans=build_bans, win_vetoes=vetoes, move_ways=move_ways, build_under=build_under,
                     win_squares=win_squares, preferred_moves=obliged[1], removes_beyond=removes_beyond,
                     slides=slides, unmoved_build=unmoved_build, turn_ends=bool(rules.turn_ends),
                     dome_tokens=dome_tokens,
                     dome_sex=dome_sex, force_before=force_before, second_build=second_build,
                     tower_wins=tuple((condition.op, condition.amount) for w in board_wins
                                      if isinstance(condition := w.condition, CountIs)))  # (all: _towers_only)


def _automatic_end(step: Step) -> bool:
    """An end-of-turn step with no choice that removes workers (and builds where they stood) or
    makes a team lose: it never stops a turn, adds no outcome, and leaves the seat's own workers
    where they are, so that the turns' outcomes stay as many and as distinct."""
    return step.modality is Modality.AUTOMATIC and step.verb in (Verb.REMOVE, Verb.LOSE) and not step.cost


def _second_build(rules: SeatRules, followup: CardFollowUp) -> Squares | None:
    """A follow-up of the seat's build: the same worker may build once more, on squares that a
    filter of the board's edge alone names (the same space allowed); its squares, else None."""
    step = followup.step
    if not (followup.timing is FollowUpTiming.AFTER and followup.trigger.verb is Verb.BUILD
            and followup.trigger.owner is Owner.YOURS and not followup.trigger.filters
            and step.verb is Verb.BUILD and step.modality is Modality.MAY and step.repeat == ONCE
            and step.actor == WorkerSelector(Role.THAT) and step.destination is None and step.piece is Piece.NEXT
            and step.guard is None and not step.cost and not step.effects and step.filters
            and all(_edge_only(part) for part in step.filters)):
        return None
    return _as_squares(rules, Verb.BUILD, step.filters)


def _edge_only(part: Condition) -> bool:
    """A condition on whether the target is on the board's edge, and nothing else: the same for
    every square whatever happens on the turn."""
    if isinstance(part, Not):
        return _edge_only(part.part)
    if isinstance(part, (AllOf, AnyOf)):
        return all(_edge_only(p) for p in part.parts)
    return isinstance(part, SpaceIs) and part.space is SpaceRef.TARGET and part.prop in FIXED_SQUARES


def _forces_before(followup: CardFollowUp) -> bool:
    """A follow-up before each of the seat's moves: the worker may force a neighbouring opponent
    worker to the free space on its other side."""
    step = followup.step
    return (followup.timing is FollowUpTiming.BEFORE and followup.trigger.verb is Verb.MOVE
            and followup.trigger.owner is Owner.YOURS and not followup.trigger.filters
            and step.verb is Verb.FORCE and step.modality is Modality.MAY and step.repeat == ONCE
            and step.guard is None and not step.cost and not step.effects and not step.filters
            and step.target == WorkerSelector(Role.NEAR, Owner.OPPONENTS)
            and step.destination == SpaceSelector(Region.SINGLE, SpaceRef.OTHER_SIDE, ()))


def _removes_beyond(followup: CardFollowUp) -> bool:
    """A follow-up of each of the seat's moves that removes the opponent worker on the space
    beyond the move's destination, seen along the move, if there is one."""
    step = followup.step
    return (followup.timing is FollowUpTiming.AFTER and followup.trigger.verb is Verb.MOVE
            and followup.trigger.owner is Owner.YOURS and not followup.trigger.filters
            and step.verb is Verb.REMOVE and step.modality is Modality.AUTOMATIC and step.guard is None
            and step.target == WorkerSelector(Role.ON_SPACE, Owner.OPPONENTS) and not step.effects
            and step.destination == SpaceSelector(Region.SINGLE, SpaceRef.BEYOND, ()) and not step.filters)


def _towers_only(condition: Condition) -> bool:
    """A board win that counts complete towers and nothing else (the count grows only when a
    dome goes on level 3: no piece is ever taken off a dome)."""
    return isinstance(condition, CountIs) and condition.quantity is Quantity.COMPLETE_TOWERS


def _climb_only(filters: tuple[Condition, ...]) -> TypeGuard[tuple[LevelChange]]:
    """A move option's filters that only state its climb limit ('up any number of levels')."""
    return len(filters) == 1 and _is_climb(filters[0])


def _is_climb(part: Condition) -> bool:
    return isinstance(part, LevelChange) and part.op is Compare.LE and part.amount >= 0


def _dome_tokens(rules: SeatRules, others: list[SeatRules]) -> tuple[tuple[int, str], ...] | None:
    """The (holder, kind) of the tokens this seat treats as domes, if every token any seat puts
    on the board is one of them (so that the seat never meets a token but as a dome: never builds
    on one, which takes it away, nor moves or puts one there); else None. The kinds are the
    board's own spelling (GameState.tokens), which bits.token_squares matches."""
    binding: list[tuple[int, TokenKind]] = []
    for holder in (rules, *others):
        for rule in holder.dome_likes:
            if rule.binds is Owner.ANYONES or (rule.binds is Owner.OPPONENTS and holder.team != rules.team):
                binding.append((holder.seat, rule.token))
    for holder in (rules, *others):
        if any((holder.seat, TokenKind(kind)) not in binding for kind in holder.placed_token_kinds()):
            return None
    return tuple((seat, kind.value) for seat, kind in binding)


def _has_setup(rules: SeatRules) -> bool:
    """Setup rules that change what the fast paths assume: workers that wait on a card. (Where
    and in which order workers are placed, and how many, does not change a turn; nor do sexes,
    which only a worker selector reads, and the gate refuses every selector with a sex but the
    dome option's.)"""
    return any(isinstance(rule, Reserve) for rule in rules.setup)


def _one_move(programs: list[Program], followups: list[FollowUp], move_options: list[MoveIntoOpponent]) -> bool:
    """A seat whose every turn has a single move, no move option and no follow-up: its outcome
    shows the move, so facts about the move (up, down) are facts the outcome determines."""
    return (not move_options and not followups
            and all(sum(s.verb is Verb.MOVE for s in p.steps) <= 1 and not any(s.repeat for s in p.steps)
                    for p in programs))

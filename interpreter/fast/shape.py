"""The gate of the fast paths: the rule parts they understand, listed, and nothing else.

The fast paths (plain.py, counted.py, enumeration.py, known_turns.py) were written for the turn
shapes the simple gods give the plain turn. They read a small record of a seat's rules,
`FastRules`, in their own terms (a climb limit, move options into an opponent's space, a dome at
any level, follow-ups, a few step constraints). `fast_rules` builds that record from a seat's
typed rules only when every part of them is in the tables below; a seat with any other part, or
bound by another seat's part not listed here, gets None and runs on the generic step chain.
A new part of the language is therefore never handled by a fast path until someone adds it here,
with the tests that compare the fast paths with the chain (tests/test_fast_paths.py).
"""

from __future__ import annotations

from dataclasses import dataclass

from ...dsl.vocabulary import (ANY_NUMBER, ONCE, Compare, FollowUpTiming, Force, LevelChange, Modality, OccupiedBy,
                               Owner, Piece,
                               Prohibition, Region, Role, SpaceRef, SpaceSelector, Step, TargetLevel, Verb,
                               WorkerSelector)
from ...dsl.vocabulary.parts import (DOWN, NOT_A_DOME, NOT_BACK_TO_START, NOT_ON_LAST_BUILT, NOT_UP, NOT_UP_OR_DOWN,
                                     ON_LAST_BUILT, UNOCCUPIED, UP)
from ..engine.rules import SeatRules


# ---- the fast paths' own record of a seat's rules ----------------------------------------------

@dataclass(frozen=True)
class StepSpec:
    """A step as the fast paths read it. actor: 'any' (chosen by this step), 'each' (chosen
    anew at each repetition), 'that' (the previous step's) or 'moved' (the last mover)."""

    verb: str
    actor: str
    optional: bool
    repeat: bool
    constraints: tuple[str, ...]


@dataclass(frozen=True)
class Program:
    name: str
    announced: bool
    steps: tuple[StepSpec, ...]


@dataclass(frozen=True)
class FollowUp:
    after: str
    step: StepSpec


@dataclass(frozen=True)
class MoveIntoOpponent:
    """Move into an opponent worker's space, forcing it to 'vacated' or 'straight_backwards'."""

    same_or_lower: bool
    destination: str


@dataclass(frozen=True)
class DomeAtAnyLevel:
    """A build may be a dome at any level."""


@dataclass
class FastRules:
    climb: int
    move_options: list[MoveIntoOpponent]
    build_options: list[DomeAtAnyLevel]
    wins: list[tuple[str, int]]
    followups: list[FollowUp]
    programs: list[Program]


def win_table(wins: list[tuple[str, int]]) -> tuple[tuple[bool, ...], ...]:
    """WIN[from_height][to_height]: whether a move between those levels wins for the seat."""
    return tuple(tuple(any((kind == "up_onto_level" and here < there == amount)
                           or (kind == "down_at_least" and here - there >= amount)
                           for kind, amount in wins) for there in range(4)) for here in range(4))


# ---- the parts they understand -------------------------------------------------------------------

NEIGHBOURING_UNOCCUPIED = SpaceSelector(Region.NEIGHBORING, None, (UNOCCUPIED,))
OPPONENT_SPACE = SpaceSelector(Region.NEIGHBORING, None, (OccupiedBy(Owner.OPPONENTS),))
DISPLACED = WorkerSelector(Role.DISPLACED, Owner.ANYONES)

KNOWN_FILTERS: dict[Verb, dict[object, str]] = {
    Verb.MOVE: {NOT_UP: "not_up", NOT_UP_OR_DOWN: "not_up_or_down", NOT_BACK_TO_START: "not_back_to_start"},
    Verb.BUILD: {NOT_ON_LAST_BUILT: "not_same_space", ON_LAST_BUILT: "same_space", NOT_A_DOME: "not_dome"},
}
KNOWN_ACTORS = {Role.CHOSEN: "any", Role.EACH: "each", Role.THAT: "that", Role.MOVED: "moved"}
KNOWN_FORCES = {Force(DISPLACED, SpaceSelector(Region.SINGLE, SpaceRef.VACATED)): "vacated",
                Force(DISPLACED, SpaceSelector(Region.SINGLE, SpaceRef.BEYOND)): "straight_backwards"}
#: Other seats' prohibitions a fast path applies (as its forbid_up and forbid_down flags).
KNOWN_PROHIBITIONS = {(Verb.MOVE, (UP,)): "up", (Verb.MOVE, (DOWN,)): "down"}


def known_prohibition(prohibition: Prohibition) -> str | None:
    """'up' or 'down' for the prohibitions the fast paths apply, else None."""
    if prohibition.binds is not Owner.OPPONENTS:
        return None
    return KNOWN_PROHIBITIONS.get((prohibition.verb, prohibition.filters))


def _step(step: Step) -> StepSpec | None:
    if step.verb not in KNOWN_FILTERS or step.guard is not None or not step.can_win or step.target is not None or step.actor.owner is not Owner.YOURS or step.actor.role not in KNOWN_ACTORS:
        return None
    if step.destination is not None or step.piece is not Piece.NEXT or step.effects:
        return None
    if step.repeat not in (ONCE, ANY_NUMBER) or (step.repeat == ANY_NUMBER) != (step.actor.role is Role.EACH):
        return None
    if step.modality in (Modality.IF_POSSIBLE, Modality.AUTOMATIC) or step.cost \
            or not all(f in KNOWN_FILTERS[step.verb] for f in step.filters):
        return None
    return StepSpec(step.verb.value, KNOWN_ACTORS[step.actor.role], step.modality is Modality.MAY,
                    step.repeat == ANY_NUMBER, tuple(KNOWN_FILTERS[step.verb][f] for f in step.filters))


def _win(pattern) -> tuple[str, int] | None:  # noqa: ANN001 - a StepPattern
    if pattern.verb is not Verb.MOVE or pattern.owner is not Owner.YOURS:
        return None
    filters = pattern.filters
    if len(filters) == 2 and filters[0] == UP and isinstance(filters[1], TargetLevel) and filters[1].op is Compare.EQ:
        return ("up_onto_level", filters[1].level)
    if len(filters) == 1 and isinstance(filters[0], LevelChange) and filters[0].op is Compare.LE and filters[0].amount < 0:
        return ("down_at_least", -filters[0].amount)
    return None


def fast_rules(rules: SeatRules, others: list[SeatRules]) -> FastRules | None:
    """The fast paths' record of `rules`, or None if some part is not one they understand.
    `others`: the other seats' rules, whose prohibitions, vetoes and board wins reach this seat."""
    binding = [p for other in others if other.team != rules.team for p in other.prohibitions]
    if any(known_prohibition(p) is None for p in binding) or rules.lose_when_stuck is False:
        return None
    if rules.turn_ends or rules.turn_starts or rules.wins_when or any(o.wins_when or (o.vetoes and o.team != rules.team) for o in others):
        return None
    if any((o.obligations or o.reactions) and o.team != rules.team for o in others):
        return None
    if any(_places_tokens(o) or _has_setup(o) for o in (rules, *others)):
        return None  # the fast paths see no tokens: neither their blocking nor their leaving when built on
    if any(known_prohibition(p) is None for p in rules.prohibitions):
        return None
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
            return None
        steps = [_step(step) for step in program.steps]
        if any(step is None for step in steps):
            return None
        programs.append(Program(program.name, program.announced, tuple(steps)))
    followups = []
    for followup in rules.followups:
        trigger, step = followup.trigger, _step(followup.step)
        if step is None or trigger.owner is not Owner.YOURS or trigger.filters or step.actor != "that" \
                or followup.timing is not FollowUpTiming.AFTER:
            return None
        followups.append(FollowUp(trigger.verb.value, step))
    move_options, build_options = [], []
    for verb, options in rules.options.items():
        for option in options:
            step = option.step
            if step.repeat != ONCE or step.modality is not Modality.MAY or option.instead or not step.can_win \
                    or option.once_per_game is not None \
                    or step.actor != WorkerSelector(Role.SUBJECT) or step.guard is not None or step.target is not None:
                return None
            if verb is Verb.MOVE and step.destination == OPPONENT_SPACE and step.piece is Piece.NEXT \
                    and len(step.effects) == 1 and step.effects[0] in KNOWN_FORCES and step.filters in ((), (NOT_UP,)):
                move_options.append(MoveIntoOpponent(bool(step.filters), KNOWN_FORCES[step.effects[0]]))
            elif verb is Verb.BUILD and step.piece is Piece.DOME and step.destination is None \
                    and not step.filters and not step.effects:
                build_options.append(DomeAtAnyLevel())
            else:
                return None
    wins = [_win(w.pattern) if w.when is None else None for w in rules.wins]
    if any(w is None for w in wins):
        return None
    if rules.memory and not _one_move(programs, followups, move_options):
        return None  # facts of a turn with several moves are not the board's: the chain keys them
    return FastRules(climb=move.filters[0].amount, move_options=move_options, build_options=build_options,
                     wins=wins, followups=followups, programs=programs)


def _places_tokens(rules: SeatRules) -> bool:
    steps = [*rules.turn_ends, *(f.step for f in rules.followups),
             *(s for p in rules.programs for s in p.steps)]
    return bool(rules.dome_likes) or any(step.verb is Verb.TOKEN for step in steps)


def _has_setup(rules: SeatRules) -> bool:
    """Setup rules that change what the fast paths assume: workers that wait on a card, sexes."""
    return bool(rules.setup)


def _one_move(programs: list[Program], followups: list[FollowUp], move_options: list) -> bool:
    """A seat whose every turn has a single move, no move option and no follow-up: its outcome
    shows the move, so facts about the move (up, down) are facts the outcome determines."""
    return (not move_options and not followups
            and all(sum(s.verb == "move" for s in p.steps) <= 1 and not any(s.repeat for s in p.steps)
                    for p in programs))

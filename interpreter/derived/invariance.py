"""Which conditions a build cannot change: read from the parts, one answer per part kind.

An obligation (another seat's "must") is judged on each whole turn. When the turn's last step is
a build whose outcomes the derived code keys by hash arithmetic, judging each outcome would mean
making each build. A build changes one space's level or dome and adds a build to the turn's log;
it never moves a worker. A condition that reads none of what a build changes has the same value
before the last build as after it, so the derived code may judge it once, before the build
(derived/steps.py), and key the builds as usual. The answer is conservative: a part kind this
module does not list, or one that reads levels, domes or builds, is taken as changed by a build.
"""

from __future__ import annotations

from collections.abc import Sequence

from ...dsl.vocabulary import (
    AllOf,
    AnyOf,
    Apart,
    CountIs,
    Flanked,
    Happened,
    LastMoves,
    LevelChange,
    Near,
    Not,
    OccupiedBy,
    PieceIs,
    PlayerCount,
    Quantity,
    Region,
    Role,
    SameSpace,
    Scope,
    SpaceIs,
    SpaceRef,
    Step,
    TargetLevel,
    TokenPoints,
    Verb,
    WorkerSelector,
)
from ...dsl.vocabulary.parts import Condition
from ..chain.conditions import FIXED_SQUARES


def unchanged_by_a_build(condition: Condition) -> bool:
    """Whether a build can never change the condition's value (judged on a whole turn)."""
    if isinstance(condition, Not):
        return unchanged_by_a_build(condition.part)
    if isinstance(condition, (AnyOf, AllOf)):
        return all(unchanged_by_a_build(part) for part in condition.parts)
    if isinstance(condition, (PlayerCount, Flanked, Apart, TokenPoints)):
        return True  # the seats; where workers stand; where a token of the card points
    if isinstance(condition, Happened):
        if condition.scope is Scope.LAST_TURN:
            return True  # a past turn's log
        # this turn's log: a build adds a build to it; the moves in it keep their recorded levels
        pattern = condition.pattern
        return pattern.verb is Verb.MOVE and all(_filter_ignores_the_board(f) for f in pattern.filters)
    if isinstance(condition, LastMoves):
        # each moved worker's start is judged with the board's levels now, its last move with the
        # levels the move recorded
        return (all(_filter_ignores_the_board(f) and _filter_ignores_levels(f) for f in condition.started)
                and all(_filter_ignores_the_board(f) for f in condition.ended))
    return False


def _filter_ignores_the_board(part: Condition) -> bool:
    """Whether a filter reads nothing of the board's buildings now, nor the turn's builds (the
    view's own heights aside: `_filter_ignores_levels`)."""
    if isinstance(part, Not):
        return _filter_ignores_the_board(part.part)
    if isinstance(part, (AnyOf, AllOf)):
        return all(_filter_ignores_the_board(p) for p in part.parts)
    if isinstance(part, OccupiedBy):
        return True
    if isinstance(part, Near):
        return not (part.lower or part.level is not None or part.same_level)
    if isinstance(part, SpaceIs):
        return part.prop in FIXED_SQUARES and part.space is not SpaceRef.LAST_BUILT
    if isinstance(part, SameSpace):
        return part.space is not SpaceRef.LAST_BUILT
    return _reads_only_the_view(part)


def _filter_ignores_levels(part: Condition) -> bool:
    """Whether a filter ignores the view's heights (where they are the board's now)."""
    if isinstance(part, Not):
        return _filter_ignores_levels(part.part)
    if isinstance(part, (AnyOf, AllOf)):
        return all(_filter_ignores_levels(p) for p in part.parts)
    return isinstance(part, (OccupiedBy, Near, SpaceIs, SameSpace))


def _reads_only_the_view(part: Condition) -> bool:
    """The view's own kinds (a level change, a target level, the piece): what they read is passed
    to them, so the caller's view decides (`_filter_ignores_levels`)."""
    return isinstance(part, (LevelChange, TargetLevel, PieceIs))


#: A build by its level before and whether it is a dome.
Build = tuple[int, bool]


def levels_that_may_win(conditions: Sequence[Condition]) -> tuple[Build, ...] | None:
    """For wins judged on the board after every build ('when there are at least five complete
    towers'): the builds, by their level and whether they are domes, that may change whether one
    holds (a dome on level 3 only: it completes a tower), so that the derived code makes only
    those builds and keys the others; None when a part's answer is not known (every build is then
    made and judged). A build that changes none of the conditions' parts leaves them as they were
    before it; where one already holds before the build (a position set up so), the derived code
    judges every build."""
    found: set[Build] = set()
    for condition in conditions:
        builds = _build_may_change(condition)
        if builds is None:
            return None
        found |= builds
    return tuple(sorted(found))


def builds_that_may_win(conditions: Sequence[Condition]) -> str | None:
    """`levels_that_may_win` as an expression over a build's level `h` and `dome`, for the
    generated code ('False' for none)."""
    builds = levels_that_may_win(conditions)
    return None if builds is None else winning_expression(builds)


def winning_expression(builds: Sequence[Build]) -> str:
    """An expression over a build's level `h` and `dome` true for `builds` ('False' for none)."""
    return " or ".join(f"({'dome' if dome else 'not dome'} and h == {level})" for level, dome in builds) or "False"


def _build_may_change(condition: Condition) -> frozenset[Build] | None:
    if isinstance(condition, Not):
        return _build_may_change(condition.part)
    if isinstance(condition, (AnyOf, AllOf)):
        parts = [_build_may_change(part) for part in condition.parts]
        if any(part is None for part in parts):
            return None
        return frozenset().union(*(part for part in parts if part is not None))
    if isinstance(condition, PlayerCount):
        return frozenset()
    if isinstance(condition, CountIs) and condition.quantity is Quantity.COMPLETE_TOWERS:
        return frozenset({(3, True)})  # a tower is complete when a dome tops its third level
    return None


# ---- which moves can win ---------------------------------------------------------------------------

#: Every (level of the origin, level of the target) a move can have.
_LEVEL_PAIRS = tuple((here, there) for here in range(4) for there in range(4))


def may_match_together(*conditions: tuple[Condition, ...]) -> bool:
    """Whether some move could pass all of the groups of filters at once, judged on the two
    levels alone (a part that reads anything else is taken as able to hold either way): False
    means they exclude each other ('not up or down' and 'up onto level 3'), so a step with those
    filters cannot win by that pattern."""
    parts = [part for group in conditions for part in group]
    return any(all(_holds(part, here, there) is not False for part in parts) for here, there in _LEVEL_PAIRS)


def _holds(part: Condition, here: int, there: int) -> bool | None:
    """The value of a filter for a move between these levels (None: not decided by the levels)."""
    if isinstance(part, LevelChange):
        return part.op.holds(there - here, part.amount)
    if isinstance(part, TargetLevel):
        return part.op.holds(there, part.level)
    if isinstance(part, Not):
        inner = _holds(part.part, here, there)
        return None if inner is None else not inner
    if isinstance(part, AllOf):
        values = [_holds(p, here, there) for p in part.parts]
        return False if False in values else None if None in values else True
    if isinstance(part, AnyOf):
        values = [_holds(p, here, there) for p in part.parts]
        return True if True in values else None if None in values else False
    return None


#: The workers a selector may name by where workers stand or by the turn's moves: neither a build
#: nor its builder (the latest actor, which 'it' and 'that worker' name) changes them.
_PLACED_ROLES = frozenset({Role.CHOSEN, Role.EACH, Role.MOVED, Role.UNMOVED, Role.NEAR, Role.OTHER, Role.EVERY,
                           Role.TEAM})


def _named_by_place(selector: WorkerSelector | None) -> bool:
    if selector is None:
        return True
    return (selector.role in _PLACED_ROLES and selector.around in (None, SpaceRef.START)
            and _named_by_place(selector.excluding))


def taking_unchanged_by_a_build(step: Step) -> bool:
    """Whether a build on an unoccupied space can never change whether `step` may be taken at
    all: a step that removes a worker, or the blocks of a space a worker stands on, or swaps
    workers, whose workers are named by where they stand, and whose conditions read the spaces
    of workers alone (their levels too: no build goes on a space a worker stands on). Such a
    step, with no taking before a turn's last build, has none after it (derived/steps.py: the
    build is then the turn's last)."""
    if step.verb is Verb.POINT:  # (its takings are directions: the card's, which no build changes)
        return step.guard is None or unchanged_by_a_build(step.guard)
    if step.verb not in (Verb.REMOVE, Verb.SWAP) or step.cost or step.token is not None or step.per_game:
        return False
    if step.guard is not None and not unchanged_by_a_build(step.guard):
        return False
    # (a target named as the acting worker itself, 'return one of your workers', is its actor's)
    target = None if step.target is not None and step.target.role is Role.SUBJECT else step.target
    if not (_named_by_place(step.actor) and _named_by_place(target)):
        return False
    destination = step.destination
    filters = step.filters
    if destination is not None:
        # (the space's own level is read: one a worker stands on, which no build reaches)
        if destination.region is not Region.NEIGHBORING or destination.ref is not None or destination.lowest \
                or destination.compass is not None \
                or not any(isinstance(part, OccupiedBy) for part in destination.filters):
            return False
        filters = (*filters, *destination.filters)
    elif step.verb is Verb.REMOVE and step.target is None:
        return False
    return all(_filter_ignores_the_board(part) for part in filters)

"""Conditions compiled to closures, once per seat, wherever they stand.

Every condition of the language is judged against a *step view*: a step about to be taken (a
candidate) or taken already (an event of the log), given as the arguments of `Test`:
(walk, worker, origin, target, from_height, to_height, piece). A candidate passes the heights of
the board now; an event passes the heights it recorded. So the filters that limit a step
('cannot move up') are the same closures that read the log ('moved up on your last turn').

`compile_condition` dispatches on the part's type through `COMPILERS`, which must cover every
condition part of the vocabulary: a part without a compiler stops the engine from being built.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from ...dsl.vocabulary import (
    CONDITION_TYPES,
    ActorIs,
    Against,
    AllOf,
    AlongLine,
    AnyOf,
    Apart,
    BesideWorker,
    Compare,
    Compass,
    Condition,
    CountIs,
    Flanked,
    Happened,
    HasToken,
    Heading,
    LastMoves,
    LevelChange,
    Line,
    Near,
    Not,
    OccupiedBy,
    Owner,
    Piece,
    PieceIs,
    PlayerCount,
    Quantity,
    Role,
    SameSpace,
    Scope,
    SpaceIs,
    SpaceProperty,
    SpaceRef,
    StandsHighest,
    StepPattern,
    TargetLevel,
    TokenPoints,
    Verb,
    WorkersAre,
    WorkerSelector,
    direction_counter,
)
from ..model.board import ADJACENT, BEYOND, DIAGONAL_BITS, NEIGHBOURS, ORTHOGONAL_BITS, SQUARES, offset
from .walk import Event, Walk

Test = Callable[[Walk, int, int, int, int, int, "Piece | None"], bool]
T = TypeVar("T")

#: The squares on the board's edge.
PERIMETER = frozenset(s for s in SQUARES if len(NEIGHBOURS[s]) < 8)
CORNERS = frozenset(s for s in SQUARES if len(NEIGHBOURS[s]) == 3)
#: The space properties that name a fixed set of squares, whatever the position.
FIXED_SQUARES: dict[SpaceProperty, frozenset[int]] = {SpaceProperty.PERIMETER: PERIMETER,
                                                      SpaceProperty.CORNER: CORNERS}


class Judge:
    """Compiles conditions for one card holder: 'your' and 'opponent' are seen from its seat."""

    def __init__(self, seat: int, team: int) -> None:
        self.seat = seat
        self.team = team

    def compile(self, condition: Condition) -> Test:
        try:
            compiler = COMPILERS[type(condition)]
        except KeyError:  # pragma: no cover - checked when the module is imported
            raise TypeError(f"no compiler for the condition part {type(condition).__name__}") from None
        return compiler(self, condition)

    def compile_all(self, conditions: tuple[Condition, ...]) -> Test | None:
        """One test for all of `conditions` (None when there are none: nothing to test)."""
        if not conditions:
            return None
        return self.compile(conditions[0] if len(conditions) == 1 else AllOf(conditions))

    def owned(self, owner: Owner) -> Callable[[int], bool]:
        """Whether a team's workers are `owner`'s, seen from this card holder."""
        team = self.team
        if owner is Owner.YOURS:
            return lambda other: other == team
        if owner is Owner.OPPONENTS:
            return lambda other: other != team
        return lambda other: True

    def workers(self, selector: WorkerSelector) -> Callable[[Walk], list[int]]:
        """The workers a selector names, in a turn of this card holder's seat."""
        role, sex = selector.role, selector.sex
        team = self.team

        def on_board(walk: Walk) -> list[int]:
            st = walk.state
            workers = st.team_workers(team)
            return [w for w in workers if st.worker_sex[w] == sex] if sex is not None else workers
        if role in (Role.CHOSEN, Role.EACH) and selector.owner is Owner.OPPONENTS:
            spared = self.workers(selector.excluding) if selector.excluding is not None else None

            def opponents(walk: Walk) -> list[int]:
                st = walk.state
                workers = [w for other in sorted(st.teams_in_play() - {team}) for w in st.team_workers(other)]
                if sex is not None:
                    workers = [w for w in workers if st.worker_sex[w] == sex]
                if spared is not None:
                    left_out = spared(walk)
                    workers = [w for w in workers if w not in left_out]
                return workers
            return opponents
        if role in (Role.CHOSEN, Role.EACH):
            return on_board
        if role is Role.LAST_MOVED:
            return last_moved
        if role in (Role.THAT, Role.SUBJECT):
            return lambda walk: [walk.last_actor] if walk.last_actor >= 0 else []
        if role is Role.MOVED:
            def moved(walk: Walk) -> list[int]:
                for event in reversed(walk.events):
                    if event[0] == "move" and walk.state.worker_team[event[1]] == team:
                        return [event[1]]
                return []
            return moved
        if role is Role.UNMOVED:
            def unmoved(walk: Walk) -> list[int]:
                gone = {event[1] for event in walk.events if event[0] == "move"}
                return [w for w in on_board(walk) if w not in gone]
            return unmoved
        raise TypeError(f"workers cannot be chosen by the role {role}")  # pragma: no cover - the checker refuses it

    def standing(self, condition: WorkersAre) -> Callable[[Walk], list[int]]:
        """The workers that make a WorkersAre condition hold: the ones a guarded rule binds."""
        choose = self.workers(condition.selector)
        test = self.compile_all(condition.filters)
        return lambda walk: _standing(walk, choose(walk), test)

    def pattern(self, pattern: StepPattern) -> Callable[[Walk, Event], bool]:
        """A test of one logged event against a step pattern."""
        kinds = {Verb.MOVE: ("move",), Verb.BUILD: ("build",)}.get(pattern.verb, ())
        owned = self.owned(pattern.owner)
        test = self.compile_all(pattern.filters)

        def matches(walk: Walk, event: Event) -> bool:
            if event[0] not in kinds or not owned(walk.state.worker_team[event[1]]):
                return False
            if test is None:
                return True
            if event[0] == "move":
                return test(walk, event[1], event[2], event[3], event[4], event[5], None)
            return test(walk, event[1], -1, event[2], event[3], event[3], Piece.DOME if event[4] else Piece.BLOCK)
        return matches


#: Each comparison as a function, chosen when a condition is compiled (not looked up per test).
OPERATORS: dict[Compare, Callable[[int, int], bool]] = {
    Compare.LT: operator.lt, Compare.LE: operator.le, Compare.EQ: operator.eq, Compare.NE: operator.ne,
    Compare.GE: operator.ge, Compare.GT: operator.gt}


def _level_change(judge: Judge, part: LevelChange) -> Test:
    holds, amount = OPERATORS[part.op], part.amount
    return lambda walk, worker, origin, target, here, there, piece: holds(there - here, amount)


def _target_level(judge: Judge, part: TargetLevel) -> Test:
    holds, level = OPERATORS[part.op], part.level
    return lambda walk, worker, origin, target, here, there, piece: holds(there, level)


def _space_is(judge: Judge, part: SpaceIs) -> Test:
    locate = space_locator(part.space)
    fixed = FIXED_SQUARES.get(part.prop)
    if fixed is not None:
        return lambda walk, worker, origin, target, here, there, piece: locate(walk, worker, origin, target) in fixed

    if part.prop is SpaceProperty.UNOCCUPIED:
        def unoccupied(walk: Walk, worker: int, origin: int, target: int, here: int, there: int,
                       piece: Piece | None) -> bool:
            square = locate(walk, worker, origin, target)
            return square >= 0 and not walk.state.blocked[square] and square not in walk.domelike
        return unoccupied

    assert part.prop is SpaceProperty.DOMED, part.prop

    def domed(walk: Walk, worker: int, origin: int, target: int, here: int, there: int,
              piece: Piece | None) -> bool:
        square = locate(walk, worker, origin, target)
        return square >= 0 and walk.state.domes[square]
    return domed


def _beside_worker(judge: Judge, part: BesideWorker) -> Test:
    workers = judge.workers(part.selector)

    def beside(walk: Walk, worker: int, origin: int, target: int, here: int, there: int,
               piece: Piece | None) -> bool:
        positions = walk.state.worker_pos
        return any(positions[w] >= 0 and target in ADJACENT[positions[w]] for w in workers(walk))
    return beside


def _has_token(judge: Judge, part: HasToken) -> Test:
    token = (part.token.value, judge.seat)
    return lambda walk, worker, origin, target, here, there, piece: walk.state.tokens.get(target) == token


def _same_space(judge: Judge, part: SameSpace) -> Test:
    locate = space_locator(part.space)
    return lambda walk, worker, origin, target, here, there, piece: target == locate(walk, worker, origin, target)


def _piece_is(judge: Judge, part: PieceIs) -> Test:
    wanted = part.piece
    return lambda walk, worker, origin, target, here, there, piece: piece is wanted


def _occupied_by(judge: Judge, part: OccupiedBy) -> Test:
    owned = judge.owned(part.owner)

    def occupied(walk: Walk, worker: int, origin: int, target: int, here: int, there: int,
                 piece: Piece | None) -> bool:
        other = walk.state.occupant[target]
        return other >= 0 and other != worker and owned(walk.state.worker_team[other]) and target not in walk.domelike
    return occupied


def _near(judge: Judge, part: Near) -> Test:
    owned, lower, level, same = judge.owned(part.owner), part.lower, part.level, part.same_level

    def near(walk: Walk, worker: int, origin: int, target: int, here: int, there: int,
             piece: Piece | None) -> bool:
        st = walk.state
        around = ADJACENT[target]
        heights, positions = st.heights, st.worker_pos
        return any(positions[w] in around and owned(st.worker_team[w])
                   and (not lower or heights[positions[w]] > heights[target])
                   and (level is None or heights[positions[w]] == level)
                   and (not same or heights[positions[w]] == heights[target])
                   for w in range(len(positions)) if positions[w] >= 0 and w != worker)
    return near


def _player_count(judge: Judge, part: PlayerCount) -> Test:
    counts = frozenset(part.counts)
    return lambda walk, *view: len(walk.state.seats) in counts


def _stands_highest(judge: Judge, part: StandsHighest) -> Test:
    """Judged where the workers stood at the start of the turn (the card's 'Start of Opponent's
    Turn'), so that a worker's own move this turn does not change which one it is."""
    def highest(walk: Walk, worker: int, origin: int, target: int, here: int, there: int,
                piece: Piece | None) -> bool:
        st = walk.state
        others = [w for w in st.team_workers(st.worker_team[worker]) if w != worker]

        def start_height(w: int) -> int:
            return st.heights[_start_of_turn(walk, w, -1, -1)]
        height = start_height(worker)
        return bool(others) and all(start_height(w) < height for w in others)
    return highest


#: The squares along each kind of line from each square, as bits (AlongLine).
LINE_BITS = {Line.ORTHOGONAL: ORTHOGONAL_BITS, Line.DIAGONAL: DIAGONAL_BITS}


def _along_line(judge: Judge, part: AlongLine) -> Test:
    bits = LINE_BITS[part.line]

    def along(walk: Walk, worker: int, origin: int, target: int, here: int, there: int,
              piece: Piece | None) -> bool:
        return origin >= 0 and target >= 0 and bool(bits[origin] >> target & 1)
    return along


def _heading(origin: int, target: int) -> int:
    """The direction of the compass from one square to another (`Compass.number`), or 0 where
    they are not on one straight line; squares four columns or rows apart are one space apart
    across the edge (a move around a board whose edges meet)."""
    dx, dy = target % 5 - origin % 5, target // 5 - origin // 5
    dx, dy = (-dx // 4 if abs(dx) == 4 else dx), (-dy // 4 if abs(dy) == 4 else dy)
    if (dx and dy and abs(dx) != abs(dy)) or not (dx or dy):
        return 0
    step = ((dx > 0) - (dx < 0), (dy > 0) - (dy < 0))
    return next(direction.number for direction in Compass if direction.step == step)


#: HEADING[origin][target]: `_heading`, for every pair of squares.
HEADING = tuple(tuple(_heading(origin, target) for target in SQUARES) for origin in SQUARES)
#: OPPOSITE[number]: the number of the opposite direction (0, nowhere, has none).
OPPOSITE = (0, *(direction.opposite.number for direction in Compass))
#: AGAINST_BITS[number][origin]: the squares a step from `origin` reaches straight against a token
#: pointed in direction `number` (none for 0, nowhere), as bits: what the derived code reads.
AGAINST_BITS = tuple(tuple(sum(1 << target for target in SQUARES
                               if pointed and HEADING[origin][target] == OPPOSITE[pointed])
                           for origin in SQUARES) for pointed in range(9))


def _token_points(judge: Judge, part: TokenPoints) -> Test:
    key, nowhere = (judge.seat, direction_counter(part.token)), part.heading is Heading.NOWHERE

    def points(walk: Walk, worker: int, origin: int, target: int, here: int, there: int,
               piece: Piece | None) -> bool:
        return (walk.state.counters.get(key, 0) == 0) is nowhere
    return points


def _against(judge: Judge, part: Against) -> Test:
    key = (judge.seat, direction_counter(part.token))

    def against(walk: Walk, worker: int, origin: int, target: int, here: int, there: int,
                piece: Piece | None) -> bool:
        return origin >= 0 and target >= 0 and bool(AGAINST_BITS[walk.state.counters.get(key, 0)][origin] >> target & 1)
    return against


def _actor_is(judge: Judge, part: ActorIs) -> Test:
    owned, sex = judge.owned(part.owner), part.sex

    def actor(walk: Walk, worker: int, origin: int, target: int, here: int, there: int,
              piece: Piece | None) -> bool:
        st = walk.state
        return owned(st.worker_team[worker]) and (sex is None or st.worker_sex[worker] is sex)
    return actor


#: For each square, its pairs of neighbours on opposite sides, each pair as bits.
_OPPOSITE_PAIRS: tuple[tuple[int, ...], ...] = tuple(
    tuple(1 << near | 1 << BEYOND[near][square] for near in NEIGHBOURS[square]
          if BEYOND[near][square] > near) for square in SQUARES)


def flanked_workers(walk: Walk, holder_team: int, owned: Callable[[int], bool]) -> list[int]:
    """Workers whose owner `owned` accepts that have two of the holder's workers on opposite sides
    (the holder's squares as bits, each pair of opposite neighbours one mask)."""
    st = walk.state
    positions, teams = st.worker_pos, st.worker_team
    holders = 0
    for worker, square in enumerate(positions):
        if square >= 0 and teams[worker] == holder_team:
            holders |= 1 << square
    found: list[int] = []
    if holders & (holders - 1) == 0:
        return found  # (fewer than two)
    for worker, square in enumerate(positions):
        if square < 0 or teams[worker] == holder_team or not owned(teams[worker]):
            continue
        for pair in _OPPOSITE_PAIRS[square]:
            if holders & pair == pair:
                found.append(worker)
                break
    return found


def per_placing(judge_of: Callable[[Walk], T]) -> Callable[[Walk], T]:
    """`judge_of` for what reads only where the workers stand, judged once per placing of them:
    the chain judges a board's win, and a guarded step at the turn's end, after every build, and
    the builds after one move leave the workers where they are. The last state, its placing and
    the verdict are kept (a state's workers keep their teams, and a team out of the game has no
    worker on the board; another state is judged afresh)."""
    last: list[Any] = [None, None, None]

    def judged(walk: Walk) -> T:
        state = walk.state
        placing = tuple(state.worker_pos)
        if state is not last[0] or placing != last[1]:
            last[:] = state, placing, judge_of(walk)
        found: T = last[2]
        return found
    return judged


def _flanked(judge: Judge, part: Flanked) -> Test:
    owned, team = judge.owned(part.whose), judge.team
    flanked = per_placing(lambda walk: bool(flanked_workers(walk, team, owned)))
    return lambda walk, *view: flanked(walk)


def reads_the_target_free(part: Condition) -> bool:
    """Whether a condition reads whether the step's target is unoccupied. On a move it is judged
    after the move (a win's, a veto's, a trigger's), when the mover stands there: code that judges
    it before the move must leave such a condition alone."""
    if isinstance(part, Not):
        return reads_the_target_free(part.part)
    if isinstance(part, (AnyOf, AllOf)):
        return any(reads_the_target_free(p) for p in part.parts)
    return isinstance(part, SpaceIs) and part.space is SpaceRef.TARGET and part.prop is SpaceProperty.UNOCCUPIED


def last_moved(walk: Walk) -> list[int]:
    """For each team in play, the worker its players moved most recently on a turn of theirs
    (the last of their moves in that turn), in team order; a team that has not moved its
    workers yet has none."""
    st = walk.state
    found: dict[int, int] = {}
    waiting = st.teams_in_play()
    for record in reversed(st.history):
        team = st.seats[record.seat].team
        if team not in waiting:
            continue
        moved = [event[1] for event in record.events if event[0] == "move" and st.worker_team[event[1]] == team]
        if moved:
            found[team] = moved[-1]
            waiting.discard(team)
            if not waiting:
                break
    return [found[team] for team in sorted(found)]


def apart_teams(walk: Walk, team: int, part: Apart) -> list[int]:
    """The teams whose workers make `part` hold, seen from the card holder's `team`: its own, or
    each opponent in play whose workers neighbour none of `part.other`'s (none of each other's),
    in team order. A guarded step acts on one of them ('that opponent's workers')."""
    st = walk.state
    groups = [team] if part.owner is Owner.YOURS else sorted(t for t in st.teams_in_play() if t != team)
    found: list[int] = []
    for group in groups:
        squares = [st.worker_pos[w] for w in st.team_workers(group)]
        if part.other is None:
            others: list[int] = squares
        else:
            whose = [team] if part.other is Owner.YOURS else [t for t in st.teams_in_play() if t != team]
            others = [st.worker_pos[w] for t in whose for w in st.team_workers(t)]
        if not any(there in ADJACENT[here] for here in squares for there in others):
            found.append(group)
    return found


def _apart(judge: Judge, part: Apart) -> Test:
    team = judge.team
    apart = per_placing(lambda walk: bool(apart_teams(walk, team, part)))
    return lambda walk, *view: apart(walk)


def _last_moves(judge: Judge, part: LastMoves) -> Test:
    owned = judge.owned(part.owner)
    started, ended = judge.compile_all(part.started), judge.compile_all(part.ended)

    def each_ends_well(walk: Walk, *view: object) -> bool:
        st = walk.state
        for worker in range(len(st.worker_pos)):
            if st.worker_pos[worker] < 0 or not owned(st.worker_team[worker]):
                continue
            moves = [e for e in walk.events if e[0] == "move" and e[1] == worker]
            if not moves:
                continue
            start = moves[0][2]
            if started is not None and not started(walk, worker, start, start, st.heights[start], st.heights[start],
                                                   None):
                continue
            last = moves[-1]
            if ended is not None and not ended(walk, worker, last[2], last[3], last[4], last[5], None):
                return False
        return True
    return each_ends_well


def _not(judge: Judge, part: Not) -> Test:
    inner = judge.compile(part.part)
    return lambda *view: not inner(*view)


def _any_of(judge: Judge, part: AnyOf) -> Test:
    tests = tuple(judge.compile(p) for p in part.parts)
    if len(tests) == 2:  # the commonest ('up or down'): no generator per test
        first, second = tests
        return lambda *view: first(*view) or second(*view)
    return lambda *view: any(test(*view) for test in tests)


def _all_of(judge: Judge, part: AllOf) -> Test:
    tests = tuple(judge.compile(p) for p in part.parts)
    if len(tests) == 2:
        first, second = tests
        return lambda *view: first(*view) and second(*view)
    if len(tests) == 3:
        first, second, third = tests
        return lambda *view: first(*view) and second(*view) and third(*view)
    return lambda *view: all(test(*view) for test in tests)


def _happened(judge: Judge, part: Happened) -> Test:
    matches = judge.pattern(part.pattern)
    seat = judge.seat
    if part.scope is Scope.THIS_TURN:
        return lambda walk, *view: any(matches(walk, event) for event in walk.events)

    def on_last_turn(walk: Walk, *view: object) -> bool:
        for record in reversed(walk.state.history):
            if record.seat == seat:
                return any(matches(walk, event) for event in record.events)
        return False
    return on_last_turn


def _workers_are(judge: Judge, part: WorkersAre) -> Test:
    choose = judge.workers(part.selector)
    test = judge.compile_all(part.filters)

    def some(walk: Walk, *view: object) -> bool:
        return bool(_standing(walk, choose(walk), test))
    return some


def _standing(walk: Walk, workers: list[int], test: Test | None) -> list[int]:
    """The workers among `workers` whose space passes `test` (judged as the target)."""
    st = walk.state
    if test is None:
        return workers
    return [w for w in workers if test(walk, w, st.worker_pos[w], st.worker_pos[w], st.heights[st.worker_pos[w]],
                                       st.heights[st.worker_pos[w]], None)]


def _count_is(judge: Judge, part: CountIs) -> Test:
    holds, amount = OPERATORS[part.op], part.amount
    if part.quantity is Quantity.COMPLETE_TOWERS:
        def towers(walk: Walk, *view: object) -> bool:
            st = walk.state  # (the squares of level 3, the field's fourth plane, with a dome)
            return holds((st.level_field >> 3 * len(SQUARES) & st.dome_bits).bit_count(), amount)
        return towers
    raise TypeError(f"no count for {part.quantity}")  # pragma: no cover - one member today


#: (Each compiler takes the part of its own type: the key's.)
COMPILERS: dict[type, Callable[[Judge, Any], Test]] = {
    LevelChange: _level_change, TargetLevel: _target_level, SpaceIs: _space_is, SameSpace: _same_space,
    PieceIs: _piece_is, OccupiedBy: _occupied_by, Near: _near, BesideWorker: _beside_worker, HasToken: _has_token,
    StandsHighest: _stands_highest,
    AlongLine: _along_line, TokenPoints: _token_points, Against: _against, ActorIs: _actor_is, Flanked: _flanked,
    Apart: _apart,
    LastMoves: _last_moves,
    Not: _not, AnyOf: _any_of, AllOf: _all_of,
    Happened: _happened, WorkersAre: _workers_are, CountIs: _count_is, PlayerCount: _player_count,
}
_missing = set(CONDITION_TYPES) - set(COMPILERS)
if _missing:  # pragma: no cover - a part added to the vocabulary and not here
    raise TypeError(f"the engine has no compiler for {sorted(t.__name__ for t in _missing)}")


# ---- spaces named by their part in the step or the turn -------------------------------------------

Locator = Callable[[Walk, int, int, int], int]


def _start_of_turn(walk: Walk, worker: int, origin: int, target: int) -> int:
    for event in walk.events:
        if event[0] == "move" and event[1] == worker:
            start: int = event[2]
            return start
    return walk.state.worker_pos[worker]


def _last_built(walk: Walk, worker: int, origin: int, target: int) -> int:
    for event in reversed(walk.events):
        if event[0] == "build":
            square: int = event[2]
            return square
    return -1


def _vacated(walk: Walk, worker: int, origin: int, target: int) -> int:
    return origin


def _beyond(walk: Walk, worker: int, origin: int, target: int) -> int:
    return BEYOND[origin][target] if origin >= 0 and target >= 0 else -1


# OTHER_SIDE is located for a step that acts on another worker: `origin` is the acting worker's
# space and `target` the space of the worker acted on; the space is past the actor, seen from it.


LOCATORS: dict[SpaceRef, Locator] = {
    SpaceRef.TARGET: lambda walk, worker, origin, target: target,
    SpaceRef.ORIGIN: lambda walk, worker, origin, target: origin,
    SpaceRef.START: _start_of_turn,
    SpaceRef.LAST_BUILT: _last_built,
    SpaceRef.VACATED: _vacated,
    SpaceRef.BEYOND: _beyond,
    SpaceRef.OTHER_SIDE: lambda walk, worker, origin, target: BEYOND[target][origin] if target >= 0 else -1,
}
#: (A direction of the compass is located with its selector's direction: `compass_locator`.)
if set(LOCATORS) | {SpaceRef.COMPASS} != set(SpaceRef):  # pragma: no cover - a reference added and not here
    raise TypeError(f"the engine cannot locate {sorted(r.name for r in set(SpaceRef) - set(LOCATORS))}")


def compass_locator(direction: Compass) -> Locator:
    """One space from the worker a step acts on (`target`: its square), in `direction` (-1 off the
    board): 'one space south'."""
    steps = tuple(offset(square, *direction.step) for square in SQUARES)
    return lambda walk, worker, origin, target: steps[target] if target >= 0 else -1


def space_locator(ref: SpaceRef) -> Locator:
    if ref is SpaceRef.COMPASS:  # pragma: no cover - the checker keeps directions to a force by the player
        raise TypeError("a direction of the compass is located with its direction: compass_locator")
    return LOCATORS[ref]


# ---- what a judgement of the whole turn reads of its log -----------------------------------------

EventMatch = Callable[[Walk, Event], bool]


def _parts(condition: Condition) -> tuple[Condition, ...]:
    """The parts a condition is made of (none for a part of its own)."""
    if isinstance(condition, Not):
        return (condition.part,)
    if isinstance(condition, (AnyOf, AllOf)):
        return condition.parts
    if isinstance(condition, WorkersAre):
        return condition.filters
    return ()


def _each_part(condition: Condition) -> list[Condition]:
    return [condition, *(part for inner in _parts(condition) for part in _each_part(inner))]


def _of_the_target(condition: Condition) -> bool:
    """Whether a condition judged on a move reads only the move's target and the board (not where
    the move came from, nor the levels it left): then the last move of a worker is told by where
    the worker stands."""
    if isinstance(condition, (Not, AnyOf, AllOf)):
        return all(_of_the_target(part) for part in _parts(condition))
    if isinstance(condition, SpaceIs):
        return condition.space is SpaceRef.TARGET
    return isinstance(condition, (TargetLevel, OccupiedBy, Near, HasToken, PlayerCount))


def log_context(judged: Sequence[tuple[Judge, Condition]],
                facts: Sequence[EventMatch] = ()) -> Callable[[Walk], tuple[object, ...]]:
    """What of the turn's log the conditions `judged` (each with the judge of its holder) and
    the `facts` of the turn may read beyond the state, as one hashable value: each worker that
    moved, with where it started and its last move (only where that move ended, when every
    judgement of last moves reads only the target), the last build's square, the last worker
    to move, and whether each pattern of a part 'if ... happened this turn' and each fact has
    happened. It takes a finite set of values, so a search that visits each state once per value
    still ends; two logs with the same value are judged alike by every condition part."""
    parts = [(judge, part) for judge, condition in judged for part in _each_part(condition)]
    happened = [judge.pattern(part.pattern) for judge, part in parts
                if isinstance(part, Happened) and part.scope is Scope.THIS_TURN]
    matches = [*happened, *facts]
    whole_move = any(not all(_of_the_target(c) for c in (*part.started, *part.ended))
                     for _, part in parts if isinstance(part, LastMoves))

    def context(walk: Walk) -> tuple[object, ...]:
        first: dict[int, int] = {}
        last: dict[int, object] = {}
        built, mover = -1, -1
        for event in walk.events:
            if event[0] == "move":
                first.setdefault(event[1], event[2])
                last[event[1]] = event if whole_move else event[3]
                mover = event[1]
            elif event[0] == "build":
                built = event[2]
        moved = tuple((worker, first[worker], last[worker]) for worker in sorted(last))
        return (moved, built, mover, *(any(match(walk, event) for event in walk.events) for match in matches))
    return context

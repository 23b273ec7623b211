"""Fast paths of the commonest turn, 'one of your workers moves, the moved worker builds', when
no follow-up or constraint touches it: listing, picking one
turn at random without listing them all, and accepting a written turn by checking its two
steps. The seat's move options (into an opponent's space,
forcing that worker away) and dome option are handled here too. Each path must agree exactly
with the generic step chain it stands in for (tests/test_fast_paths.py compares them on random
positions).
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Sequence
from random import Random
from typing import Literal, overload

from ...dsl.vocabulary import Role, Verb
from ..chain.actions import actions
from ..chain.walk import Action
from ..model.board import AROUND_BITS, BEYOND, NEIGHBOURS, SQUARE_BITS, SQUARES
from ..model.state import Event, GameState
from .shape import FastRules, Program, win_table

#: PAIRS[to][square]: a worker's ready-made plain turn, a move to `to` then a build on `square`
#: (None where `square` is not around `to`: never read).
TurnPairs = tuple[tuple[tuple[Action, Action], ...], ...]
#: KINDS[forbid up][forbid down][here][there]: NO_MOVE, A_MOVE or A_WIN (`kinds_table`).
Kinds = tuple[tuple[tuple[tuple[int, ...], ...], ...], ...]
#: The same table by way: the second item of the way that is the move there, or None
#: (`kinds_table(..., by_way=True)`).
WayTable = tuple[tuple[tuple[tuple[object, ...], ...], ...], ...]
#: A picker's turn: its steps and its events (None: the engine plays the steps; counted.Picker).
Drawn = tuple[tuple[Action, ...], tuple[Event, ...] | None]

_PAIRS: dict[str, dict[int, TurnPairs]] = {"build": {}, "dome": {}}


def _turn_pairs(verb: str, worker: int) -> TurnPairs:
    """PAIRS[to][square]: the ready-made plain turn (move to `to`, then `verb` on `square`) of a
    worker, for every neighbouring pair; made once per worker and shared (turns are immutable)."""
    pairs = _PAIRS[verb].get(worker)
    if pairs is None:
        moves, builds = actions("move", worker), actions(verb, worker)
        pairs = _PAIRS[verb][worker] = tuple(
            tuple((moves[to], builds[square]) if square in NEIGHBOURS[to] else None  # type: ignore[misc]
                  for square in SQUARES)  # (None: never read)
            for to in SQUARES)
    return pairs


def is_plain(program: Program, rules: FastRules, followups: bool = False) -> bool:
    """'One of your workers moves, the moved worker builds', with no constraint, and no follow-up
    unless `followups` (for the shapes built on the plain turn, counted.py)."""
    if program.announced or len(program.steps) != 2:
        return False
    move, build = program.steps
    return (move.verb is Verb.MOVE and move.actor is Role.CHOSEN and build.verb is Verb.BUILD
            and (build.actor is Role.MOVED or build.actor is Role.THAT)
            and not (move.optional or build.optional or move.repeat or build.repeat
                     or move.constraints or build.constraints or (rules.followups and not followups)))


NO_MOVE, A_MOVE, A_WIN = 0, 1, 2
#: The kinds of event of a turn that moves and builds (a picker's `event_kinds`: counted.Picker).
MOVES_AND_BUILDS = frozenset(("move", "build"))


@overload
def kinds_table(ways: Sequence[tuple[int, object]], win: tuple[tuple[bool, ...], ...],
                by_way: Literal[False] = False) -> Kinds: ...
@overload
def kinds_table(ways: Sequence[tuple[int, object]], win: tuple[tuple[bool, ...], ...],
                by_way: Literal[True]) -> WayTable: ...


def kinds_table(ways: Sequence[tuple[int, object]], win: tuple[tuple[bool, ...], ...],
                by_way: bool = False) -> WayTable:
    """[forbid up][forbid down][here][there] -> NO_MOVE, A_MOVE or A_WIN, for moves by `ways`
    ((climb limit, whether it can win), tried in order: the first that reaches a level is the
    move there); a prohibition of moving up (down) forbids every way up (down). With `by_way`,
    the second item of the way that is the move there instead (None where none is)."""
    def kind(here: int, there: int, up: bool, down: bool) -> object:
        if (up and there > here) or (down and there < here):
            return None if by_way else NO_MOVE
        for climb, can_win in ways:
            if there <= here + climb:
                return can_win if by_way else A_WIN if can_win and win[here][there] else A_MOVE
        return None if by_way else NO_MOVE
    return tuple(tuple(tuple(tuple(kind(here, there, up, down) for there in range(4)) for here in range(4))
                       for down in (False, True)) for up in (False, True))


class _Moves:
    """The move rule of a plain turn, shared by the three fast paths so that they cannot
    disagree: the climb, the win table, and whether a worker may enter an opponent's space.
    (The level bounds, `here + climb` up and 0 down unless a restriction forbids it, are written
    out in each path's loop: it is the hottest code of the engine.)"""

    def __init__(self, rules: FastRules) -> None:
        self.climb = rules.climb
        self.win = win_table(rules.wins)
        self.options = [(o.same_or_lower, o.destination == "vacated") for o in rules.move_options]
        #: KINDS[forbid_up][forbid_down][here][there]: NO_MOVE, A_MOVE or A_WIN onto a free
        #: neighbouring space, by the base move or a move option with its own climb limit (the
        #: first way that reaches a space is the move there, as in the step chain).
        neighbouring = [w for w in rules.move_ways if not w.over_worker]
        self.kinds = kinds_table([(self.climb, True)] + [(w.climb, w.can_win) for w in neighbouring], self.win)
        #: The same once the seat has used its once-per-game move options (`spent`), and the mark
        #: of the once-per-game option that is the move at [forbid up][forbid down][here][there]
        #: while they are unused (None where another way is: no mark is set).
        self.once = tuple(dict.fromkeys(w.once for w in neighbouring if w.once))
        self.spent = kinds_table([(self.climb, True)] + [(w.climb, w.can_win) for w in neighbouring if not w.once],
                                 self.win) if self.once else self.kinds
        self.marks = kinds_table([(self.climb, None)] + [(w.climb, w.once) for w in neighbouring], self.win,
                                 by_way=True) if self.once else None
        #: Whether the way that is the move there can win ([forbid up][forbid down][here][there]):
        #: where another win of the seat (shape.FastRules.win_squares) may make the move a win.
        self.can_win = kinds_table([(self.climb, True)] + [(w.climb, w.can_win) for w in neighbouring],
                                   self.win, by_way=True)
        self.spent_can_win = kinds_table([(self.climb, True)] + [(w.climb, w.can_win) for w in neighbouring
                                                                 if not w.once], self.win, by_way=True) \
            if self.once else self.can_win
        #: The same for a move over a neighbouring worker to the space beyond it (None: no such way).
        jumps = [(w.climb, w.can_win) for w in rules.move_ways if w.over_worker]
        self.jump_kinds = kinds_table(jumps, self.win) if jumps else None
        self.jump_can_win = kinds_table(jumps, self.win, by_way=True) if jumps else None

    def force(self, st: GameState, origin: int, to: int, team: int) -> tuple[int, int] | None:
        """For a move into the blocked space `to`: (victim, where it is forced), by the first
        move option that allows it, or None. The mover's square counts as free in st.blocked."""
        victim = st.occupant[to]
        if victim < 0 or st.worker_team[victim] == team:
            return None
        here, there = st.heights[origin], st.heights[to]
        for same_or_lower, vacated in self.options:
            if same_or_lower and there > here:
                continue
            dest = origin if vacated else BEYOND[origin][to]
            if dest != origin and (dest < 0 or st.blocked[dest]):
                continue
            return victim, dest
        return None


def plain_lister(program: Program, rules: FastRules
                 ) -> Callable[[GameState, int, bool, bool], list[tuple[Action, ...]]] | None:
    """When the plain turn is a seat's only program, its turns are its distinct outcomes:
    distinct (worker, to, build) triples leave distinct boards (a worker's class holds S - {from}
    + {to}, to not in S; a forced worker's class likewise). List them in the generic chain's
    order, without computing any key."""
    if not is_plain(program, rules) or rules.extended:
        return None
    rule = _Moves(rules)
    force, options, win, climb = rule.force, rule.options, rule.win, rule.climb
    domes_anywhere = bool(rules.build_options)

    def list_builds(st: GameState, to: int, turns_to: tuple[tuple[Action, Action], ...],
                    domes_to: tuple[tuple[Action, Action], ...] | None,
                    append: Callable[[tuple[Action, ...]], None]) -> None:
        heights, blocked = st.heights, st.blocked
        for square in NEIGHBOURS[to]:
            if not blocked[square]:
                append(turns_to[square])
                if domes_to is not None and heights[square] < 3:
                    append(domes_to[square])

    def list_plain(st: GameState, team: int, forbid_up: bool, forbid_down: bool) -> list[tuple[Action, ...]]:
        turns: list[tuple[Action, ...]]
        heights, blocked, turns = st.heights, st.blocked, []
        append = turns.append
        for worker in st.members.get(team, ()):
            origin = st.worker_pos[worker]
            if origin < 0:
                continue
            here = heights[origin]
            lowest = here if forbid_down else 0  # (the level bounds, inlined: the hot loop)
            highest = here if forbid_up else here + climb
            wins_from = win[here]
            moves, pairs = actions("move", worker), _turn_pairs("build", worker)
            dome_pairs = _turn_pairs("dome", worker) if domes_anywhere else None
            blocked[origin] = 0
            for to in NEIGHBOURS[origin]:
                if blocked[to]:  # a worker or a dome: only a move option can enter (rare)
                    there = heights[to]
                    if options and lowest <= there <= highest and (forced := force(st, origin, to, team)):
                        if wins_from[there]:
                            append((moves[to],))
                            continue
                        blocked[forced[1]] = 1
                        list_builds(st, to, pairs[to], dome_pairs[to] if dome_pairs else None, append)
                        blocked[forced[1]] = 0
                    continue
                there = heights[to]
                if there > highest or there < lowest:
                    continue
                if wins_from[there]:
                    append((moves[to],))
                elif dome_pairs is None:  # the hot path: list_builds inlined
                    turns_to = pairs[to]
                    for square in NEIGHBOURS[to]:
                        if not blocked[square]:
                            append(turns_to[square])
                else:
                    list_builds(st, to, pairs[to], dome_pairs[to], append)
            blocked[origin] = 1  # (unblocked above while its worker was away)
        return turns
    return list_plain




def plain_picker(program: Program, rules: FastRules
                 ) -> Callable[[GameState, int, bool, bool, Random, int], Drawn | None] | None:
    """A uniformly random turn of the plain lister's list, without making the list: each move's
    builds are counted by a popcount, and only the chosen turn is looked up. It draws from the
    generator exactly as `turns[rng.randrange(len(turns))]` would, so it picks the same turn.
    (A seat that may dome at any level has two choices on some squares: it is left to the lister.)"""
    if not is_plain(program, rules) or rules.build_options:
        return None
    if rules.extended:
        return None  # (masked.py counts those)
    rule = _Moves(rules)
    force, options, kinds = rule.force, rule.options, rule.kinds
    made_pairs = _PAIRS["build"]

    def forced_turns(st: GameState, worker: int, origin: int, to: int, team: int, wins: bool
                     ) -> tuple[tuple[Action, ...], ...]:
        """The turns of a move into an opponent's space, if a move option allows it (rare:
        listed, not counted)."""
        blocked = st.blocked
        blocked[origin] = 0  # (force() and the builds read the square left as free)
        forced = force(st, origin, to, team)
        if forced is None:
            turns: tuple[tuple[Action, ...], ...] = ()
        elif wins:
            turns = ((actions("move", worker)[to],),)
        else:
            dest, pairs = forced[1], _turn_pairs("build", worker)[to]
            blocked[dest] = 1
            turns = tuple(pairs[square] for square in NEIGHBOURS[to] if not blocked[square])
            blocked[dest] = 0
        blocked[origin] = 1  # (after dest: dest may be the origin)
        return turns

    def pick(st: GameState, team: int, forbid_up: bool, forbid_down: bool, rng: Random, all_free: int
             ) -> Drawn | None:
        """(the turn, its events), or None when there is no turn; the events are given for the
        common turn (a move and a build) and left to the generic chain for the rest. (The code
        is written for the processor as much as for the reader: few kinds of operation, no call
        and no object made per move.)"""
        heights, blocked, positions = st.heights, st.blocked, st.worker_pos
        kinds_from = kinds[forbid_up][forbid_down]
        total = 0
        # one entry per move, in parallel lists: the index after its last turn, and the move as
        # worker * 32 + to (a small int: no object is made); a move's turns listed if it forces
        ends: list[int] = []
        moves: list[int] = []
        listed: dict[int, tuple[tuple[Action, ...], ...]] | None = None
        for worker in st.members.get(team, ()):
            origin = positions[worker]
            if origin < 0:
                continue
            kind_of = kinds_from[heights[origin]]
            free = all_free | SQUARE_BITS[origin]  # the mover leaves: its square can be built on
            code = worker * 32
            for to in NEIGHBOURS[origin]:
                if blocked[to]:  # a worker or a dome: only a move option can enter (rare)
                    if options and kind_of[heights[to]]:
                        turns = forced_turns(st, worker, origin, to, team, kind_of[heights[to]] == A_WIN)
                        if turns:
                            if listed is None:
                                listed = {}
                            listed[len(ends)] = turns
                            total += len(turns)
                            ends.append(total)
                            moves.append(code + to)
                    continue
                kind = kind_of[heights[to]]
                if kind == A_MOVE:
                    total += (free & AROUND_BITS[to]).bit_count()
                elif kind:
                    total += 1
                else:
                    continue
                ends.append(total)
                moves.append(code + to)
        if not total:
            return None
        index = rng.randrange(total)
        entry = bisect_right(ends, index)  # (a move without a turn ends where the one before it does)
        move = moves[entry]
        worker, to = move >> 5, move & 31
        if entry:
            index -= ends[entry - 1]
        if listed is not None and entry in listed:
            return listed[entry][index], None
        origin = positions[worker]
        here, there = heights[origin], heights[to]
        if kinds_from[here][there] == A_WIN:
            return (actions("move", worker)[to],), None
        # the index-th square around `to` that is free, the square left counting as free (what
        # nth_free finds from bits, here from the list: cheaper on the commonest turn)
        for square in NEIGHBOURS[to]:
            if square == origin or not blocked[square]:
                if not index:
                    pairs = made_pairs.get(worker) or _turn_pairs("build", worker)  # (no call, once made)
                    return pairs[to][square], (("move", worker, origin, to, here, there),
                                               build_event(worker, square, heights[square]))
                index -= 1
        raise AssertionError("a counted build was not found")  # pragma: no cover - counts agree
    pick.event_kinds = MOVES_AND_BUILDS  # type: ignore[attr-defined]  # (counted.Picker)
    return pick


def nth_free(square: int, free: int, index: int) -> int:
    """The index-th square around `square` among the `free` ones (bits): a counted build."""
    for around in NEIGHBOURS[square]:
        if free >> around & 1:
            if not index:
                return around
            index -= 1
    raise AssertionError("a counted build was not found")  # pragma: no cover - counts agree


def build_event(worker: int, square: int, height: int) -> Event:
    """The event of building the next piece on `square`, of `height` (a dome on level 3)."""
    return ("build", worker, square, height + (height < 3), height == 3)


def plain_player(program: Program, rules: FastRules
                 ) -> Callable[[GameState, int, bool, bool, Sequence[Action]],
                               tuple[tuple[Event, ...], bool] | None] | None:
    """The fast path of accepting a written plain turn: check its two steps against the rules.
    Returns (events, won) as the generic chain would log them, or None to leave the turn to the
    generic chain (which also gives the reason when a turn is illegal)."""
    if not is_plain(program, rules) or rules.extended:
        return None
    rule = _Moves(rules)
    force, options, win, climb = rule.force, rule.options, rule.win, rule.climb
    domes_anywhere = bool(rules.build_options)

    def accept_plain(st: GameState, team: int, forbid_up: bool, forbid_down: bool,
                     steps: Sequence[Action]) -> tuple[tuple[Event, ...], bool] | None:
        if not 1 <= len(steps) <= 2 or steps[0][0] != "move":
            return None
        _, worker, to = steps[0]
        if not 0 <= worker < len(st.worker_pos) or st.worker_team[worker] != team or st.worker_pos[worker] < 0:
            return None
        origin = st.worker_pos[worker]
        if to not in NEIGHBOURS[origin]:
            return None
        here, there = st.heights[origin], st.heights[to]
        if there > (here if forbid_up else here + climb) or there < (here if forbid_down else 0):
            return None
        victim = dest = -1
        if st.blocked[to]:
            st.blocked[origin] = 0  # (force() reads the mover's square as free)
            forced = force(st, origin, to, team) if options else None
            st.blocked[origin] = 1
            if forced is None:
                return None
            victim, dest = forced
        events: tuple[Event, ...] = (("move", worker, origin, to, here, there),)
        if victim >= 0:
            events += (("force", victim, to, dest),)
        if win[here][there]:
            return (events, True) if len(steps) == 1 else None
        if len(steps) != 2:
            return None
        verb, builder, square = steps[1]
        if builder != worker or square not in NEIGHBOURS[to] or square == dest:
            return None
        if square != origin and st.blocked[square]:
            return None
        height = st.heights[square]
        dome = verb == "dome" or height == 3
        if not (verb == "build" or (verb == "dome" and (height == 3 or domes_anywhere))):
            return None
        return events + (("build", worker, square, height + (not dome), dome),), False
    return accept_plain


def inline_turn(program: Program, rules: FastRules) -> tuple[Kinds, tuple[tuple[bool, bool], ...]] | None:
    """The move kinds ([forbid up][forbid down][from level][to level]: NO_MOVE, A_MOVE, A_WIN)
    and the move options into an opponent's space (`_Moves.options`) of a plain turn with no dome
    option, which the playout loop plays inline (fast/playout.py); None for any other turn."""
    if not is_plain(program, rules) or rules.build_options or rules.beyond_climbs:
        return None  # (a move option with its own climb limit is one more entry of the kinds)
    moves = _Moves(rules)
    return moves.kinds, tuple(moves.options)


def plain_can_win(program: Program, rules: FastRules) -> Callable[[GameState, int, bool, bool], bool] | None:
    """Whether a seat whose only program is the plain turn can win at once: some worker has a
    move that wins (the plain turn wins by its move alone; no build can). For the searches that
    ask it at every node (`Engine.can_win`); None for any other turn."""
    if not is_plain(program, rules) or rules.extended:
        return None
    rule = _Moves(rules)
    kinds, force, options = rule.kinds, rule.force, rule.options

    def can_win(st: GameState, team: int, forbid_up: bool, forbid_down: bool) -> bool:
        heights, blocked, positions = st.heights, st.blocked, st.worker_pos
        kinds_from = kinds[forbid_up][forbid_down]
        for worker in st.members.get(team, ()):
            origin = positions[worker]
            if origin < 0:
                continue
            kind_of = kinds_from[heights[origin]]
            for to in NEIGHBOURS[origin]:
                if kind_of[heights[to]] != A_WIN:
                    continue
                if not blocked[to]:
                    return True
                if options:  # into an opponent's space, if an option forces its worker away
                    blocked[origin] = 0  # (force() reads the mover's square as free)
                    forced = force(st, origin, to, team)
                    blocked[origin] = 1
                    if forced is not None:
                        return True
        return False
    return can_win

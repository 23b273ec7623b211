"""Fast paths of the commonest turn, 'one of your workers moves, the moved worker builds', when
no hook of the seat touches it: enumeration by hash arithmetic, and playing a written turn by
checking its two steps. Each must agree exactly with the generic step chain it stands in for
(tests/test_fast_paths.py compares them on random positions)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..dsl.hooks import Program
from .board import NEIGHBOURS, SQUARES, ZOBRIST
from .state import GameState
from .walk import Action, SeatRules, StepFn, Walk, win_table

#: Ready-made step tuples ("move"/"build", worker, square): the enumeration stores one turn per
#: outcome, and building those tuples anew was a good part of its time. 32 workers is 8 seats
#: of 4; a game with more workers makes its own (see `_steps`).
_TABLE_WORKERS = 32
_MOVES = tuple(tuple(("move", w, s) for s in SQUARES) for w in range(_TABLE_WORKERS))
_BUILDS = tuple(tuple(("build", w, s) for s in SQUARES) for w in range(_TABLE_WORKERS))


def _steps(table: tuple, verb: str, worker: int) -> tuple:
    return table[worker] if worker < _TABLE_WORKERS else tuple((verb, worker, s) for s in SQUARES)


_PAIRS: dict[int, tuple] = {}


def _turn_pairs(worker: int) -> tuple:
    """PAIRS[to][square]: the ready-made plain turn (move to `to`, build on `square`) of a
    worker, for every neighbouring pair; made once per worker index and shared, since turns are
    immutable."""
    pairs = _PAIRS.get(worker)
    if pairs is None:
        moves, builds = _steps(_MOVES, "move", worker), _steps(_BUILDS, "build", worker)
        pairs = _PAIRS[worker] = tuple(
            tuple((moves[to], builds[square]) if square in NEIGHBOURS[to] else None for square in SQUARES)
            for to in SQUARES)
    return pairs


def is_plain(program: Program, rules: SeatRules) -> bool:
    """'One of your workers moves, the moved worker builds', untouched by any hook."""
    if program.announced or len(program.steps) != 2:
        return False
    move, build = program.steps
    return (move.verb == "move" and move.actor == "any" and build.verb == "build"
            and build.actor in ("moved", "that")
            and not (move.optional or build.optional or move.repeat or build.repeat
                     or move.constraints or build.constraints)
            and not (rules.move_options or rules.build_options or rules.followups))


def plain_enumerator(program: Program, rules: SeatRules) -> StepFn | None:
    """The fast path of the commonest turn: when a program is just 'one of your workers moves,
    the moved worker builds' and no hook of the seat touches those steps (no option, follow-up
    or constraint), its outcomes are enumerated by hash arithmetic alone, without applying a
    single step. It must agree with the generic chain exactly (tests compare the two)."""
    if not is_plain(program, rules):
        return None
    climb = rules.climb
    win = win_table(rules.wins)
    worker_keys, build_keys, winner_keys = ZOBRIST.worker, ZOBRIST.build, ZOBRIST.winner

    def enumerate_plain(walk: Walk) -> bool:
        # Distinct (worker, to, build) triples give distinct outcomes (a worker's class holds
        # S - {from} + {to}, to not in S), so the only duplicates are across programs, where
        # keeping either turn is right: no membership test is needed.
        st = walk.state
        heights, found = st.heights, walk.found
        forbid_up, forbid_down = walk.forbid_up, walk.forbid_down
        winner_key = winner_keys[walk.team]
        blocked = st.blocked
        for worker in st.team_workers(walk.team):
            origin = st.worker_pos[worker]
            here = heights[origin]
            keys = worker_keys[st.worker_class[worker]]
            lifted = st.hash ^ keys[origin]
            wins_from = win[here]
            blocked[origin] = 0  # the mover leaves: its square can be built on (restored below)
            moves, pairs = _steps(_MOVES, "move", worker), _turn_pairs(worker)
            for to in NEIGHBOURS[origin]:
                if blocked[to]:
                    continue
                there = heights[to]
                if there - here > climb or (forbid_up and there > here) or (forbid_down and there < here):
                    continue
                moved = lifted ^ keys[to]
                if wins_from[there]:
                    found[moved ^ winner_key] = (moves[to],)
                    continue
                turns_to = pairs[to]
                for square in NEIGHBOURS[to]:
                    if not blocked[square]:
                        found[moved ^ build_keys[square][heights[square]]] = turns_to[square]
            blocked[origin] = 1
        return False
    return enumerate_plain


def plain_lister(program: Program, rules: SeatRules) -> Callable[[GameState, int, bool, bool], list] | None:
    """When the plain turn is a seat's only program, its turns are its distinct outcomes (see
    `plain_enumerator`): list them in the enumeration's order, without computing any key."""
    if not is_plain(program, rules):
        return None
    climb = rules.climb
    win = win_table(rules.wins)

    def list_plain(st: GameState, team: int, forbid_up: bool, forbid_down: bool) -> list[tuple[Action, ...]]:
        heights, blocked, turns = st.heights, st.blocked, []
        append = turns.append
        for worker in st.team_workers(team):
            origin = st.worker_pos[worker]
            here = heights[origin]
            highest = here if forbid_up else here + climb  # the levels a move may reach
            lowest = here if forbid_down else 0
            wins_from = win[here]
            blocked[origin] = 0
            moves, pairs = _steps(_MOVES, "move", worker), _turn_pairs(worker)
            for to in NEIGHBOURS[origin]:
                if blocked[to]:
                    continue
                there = heights[to]
                if there > highest or there < lowest:
                    continue
                if wins_from[there]:
                    append((moves[to],))
                    continue
                turns_to = pairs[to]
                for square in NEIGHBOURS[to]:
                    if not blocked[square]:
                        append(turns_to[square])
            blocked[origin] = 1  # (unblocked above while its worker was away)
        return turns
    return list_plain


def plain_player(program: Program, rules: SeatRules) -> Callable[[GameState, int, bool, bool, Sequence[Action]], tuple | None] | None:
    """The fast path of accepting a written plain turn: check its two steps against the rules.
    Returns (events, won) as the generic chain would log them, or None to leave the turn to the
    generic chain (which also gives the reason when a turn is illegal)."""
    if not is_plain(program, rules):
        return None
    climb = rules.climb
    win = win_table(rules.wins)

    def accept_plain(st: GameState, team: int, forbid_up: bool, forbid_down: bool,
                     steps: Sequence[Action]) -> tuple | None:
        if not 1 <= len(steps) <= 2 or steps[0][0] != "move":
            return None
        _, worker, to = steps[0]
        if not 0 <= worker < len(st.worker_pos) or st.worker_team[worker] != team:
            return None
        origin = st.worker_pos[worker]
        if origin < 0 or to not in NEIGHBOURS[origin] or st.occupant[to] >= 0 or st.domes[to]:
            return None
        here, there = st.heights[origin], st.heights[to]
        if there - here > climb or (forbid_up and there > here) or (forbid_down and there < here):
            return None
        move_event = ("move", worker, origin, to, here, there)
        if win[here][there]:
            return ((move_event,), True) if len(steps) == 1 else None
        if len(steps) != 2:
            return None
        verb, builder, square = steps[1]
        if builder != worker or square not in NEIGHBOURS[to]:
            return None
        if square != origin and (st.occupant[square] >= 0 or st.domes[square]):
            return None
        height = st.heights[square]
        if not (verb == "build" or (verb == "dome" and height == 3)):
            return None
        return (move_event, ("build", worker, square, min(height + 1, 3), height == 3)), False
    return accept_plain

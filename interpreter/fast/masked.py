"""The plain turn counted under parts read as squares: other seats' bans and vetoes, move options
with their own climb limit (to a neighbouring space or over a worker, once per game or not), and a
build under itself.

`plain_picker` (plain.py) counts the plain turn's outcomes by popcounts: each move's builds are
the free squares around its destination. The parts below change which squares count, and
nothing else, so the same count works with masks (bits.py):

* another seat's ban on moves (`move_bans`) removes destinations, judged for each worker;
* a ban on builds (`build_bans`) removes build squares, the same for every build of the turn
  (its parts read only the levels and the holder's workers, who do not move on this turn);
* a veto of wins (`win_vetoes`) turns a winning move on those squares into a move that builds;
* another win of the seat's moves (`win_squares`: 'onto level 1 into a space neighboring your
  workers standing on level 1') makes a move onto those squares a win, where its way may win;
* a move option to a neighbouring space with its own climb limit is an entry of the kinds
  table (plain.kinds_table); a move over a neighbouring worker adds the free spaces beyond
  those workers as destinations, after the neighbouring ones (the step chain's order: the
  ways' regions one after the other), with their own kinds;
* a build under itself adds the destination itself as the last build square, where it is
  below level 3 (a block only);
* a seat's win by the number of complete towers on the board changes no count (a build is one
  outcome, winning or not); a turn whose build may make it true is left to the engine to play;
* another seat's obligation on the turn's move ('its last move must be to a space neighboring your
  workers') is a ban; 'if possible, at least one ... must move up' keeps only the moves up when
  some of them make a turn (their turns in the order they had among all);
* 'your unmoved worker builds instead': the builds are the squares around the other workers
  (free once the mover has moved), each square one outcome whichever of them builds there (the
  first in order, as the chain finds it);
* a follow-up of every move that removes the opponent worker beyond it frees that space for the
  build;
* another seat's slide ('each time an opponent worker moves, it is forced space by space in the
  same direction until ...') moves the builder on before it builds: moves in different
  directions end on different squares, so the outcomes stay distinct;
* end-of-turn steps with no choice that remove workers (and build where they stood) or make a
  team lose add no outcome and move none of the seat's workers: the engine's own chain runs them
  on a copy of the state after the turn drawn, and their events are the turn's last (a team that
  loses ends the game: the engine then plays the turn itself);
* a once-per-game move option counts while the seat's card lacks its mark; a move that only it
  reaches sets the mark, as the chain logs it (the move, the mark, the build).

Why the outcomes stay distinct: every outcome still moves one worker from its square to another
(or wins there) and builds at most one piece, so two turns of different (worker, destination)
leave the workers on different squares, and two builds after one move change different squares
(or one square in one way only: a block under itself is the only piece on its square). A
destination reached over a worker is never a neighbouring one. The turns come in the step
chain's order, and `tests/test_fast_paths.py` compares every index with the chain's list on
random positions, for every card of every pack.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable
from random import Random

from ..engine.actions import actions
from ..model.board import ADJACENT, ALL_BITS, AROUND_BITS, BEYOND, NEIGHBOURS, SQUARE_BITS
from ..model.state import BIT_AT, GameState, apply_events
from .bits import level_bits
from .plain import A_MOVE, A_WIN, _Moves, build_event, is_plain
from .shape import FastRules

NO_LEVELS = (0, 0, 0, 0)


def masked_picker(rules: FastRules, turn_end: Callable | None = None):  # noqa: ANN201 - a Picker (counted.py)
    """The counting picker of a plain turn with the parts above, or None for another turn (or a
    seat with a move option into an opponent's space or a dome option: plain_picker's).
    `turn_end` (Engine._turn_end): the events the seat's automatic end-of-turn steps add to a
    turn, run on a copy of the state after it."""
    if rules.turn_ends and turn_end is None:
        return None
    if len(rules.programs) != 1 or not is_plain(rules.programs[0], rules) or rules.move_options \
            or rules.build_options or not rules.extended:
        return None
    moves_rule = _Moves(rules)
    kinds, jump_kinds = moves_rule.kinds, moves_rule.jump_kinds
    once, spent, marks = moves_rule.once, moves_rule.spent, moves_rule.marks
    can_win, spent_can_win, jump_can_win = moves_rule.can_win, moves_rule.spent_can_win, moves_rule.jump_can_win
    win_squares, tower_wins, preferred = rules.win_squares, rules.tower_wins, rules.preferred_moves
    removes_beyond, unmoved_build, turn_ends = rules.removes_beyond, rules.unmoved_build, rules.turn_ends
    slide = rules.slides[0] if rules.slides else None

    def slid(st: GameState, worker: int, origin: int, to: int, levels: tuple, onward: dict) -> int:
        """Where a worker that moved from `origin` to `to` ends, forced on along its move while
        the next space is one the slide allows (`onward`: those spaces from each square, found
        once per turn)."""
        previous, here = origin, to
        while True:
            ahead = BEYOND[previous][here]
            if ahead < 0:
                return here
            allowed = onward.get(here)
            if allowed is None:
                allowed = onward[here] = slide.squares(st, worker, here, levels)
            if not allowed >> ahead & 1:
                return here
            previous, here = here, ahead

    def removed(st: GameState, origin: int, to: int, team: int) -> tuple[int, int] | None:
        """(worker, square) of the opponent worker that a move from `origin` to `to` removes."""
        square = BEYOND[origin][to]
        victim = st.occupant[square] if square >= 0 else -1
        return (victim, square) if victim >= 0 and st.worker_team[victim] != team else None
    move_bans, build_bans, vetoes = rules.move_bans, rules.build_bans, rules.win_vetoes
    reads_levels, under = rules.reads_levels, rules.build_under

    def squares_of(found: list, st: GameState, worker: int, origin: int, levels: tuple) -> int:
        """The union of the in-force rules' squares for this worker."""
        out, bits = st.out, 0
        for rule in found:
            if rule.holder not in out:
                bits |= rule.squares(st, worker, origin, levels)
        return bits

    def destinations(st: GameState, origin: int, near: tuple, over: tuple | None) -> list[tuple[int, tuple]]:
        """(destination, its ways' tables) of each way, in the chain's order: the neighbouring
        spaces, then the spaces beyond the neighbouring workers."""
        found = [(to, near) for to in NEIGHBOURS[origin]]
        if over is not None:
            occupant = st.occupant
            found += [(beyond, over) for n in NEIGHBOURS[origin]
                      if occupant[n] >= 0 and (beyond := BEYOND[origin][n]) >= 0]
        return found

    def kind_at(tables: tuple, here: int, to: int, there: int, wins_at: int, no_win: int) -> int:
        """NO_MOVE, A_MOVE or A_WIN: the move's kind by its ways, another win of the seat where
        the way may win, and a veto."""
        kinds_of, may_win = tables
        kind = kinds_of[here][there]
        if kind == A_MOVE and wins_at >> to & 1 and may_win[here][there]:
            kind = A_WIN
        if kind == A_WIN and no_win >> to & 1:
            kind = A_MOVE
        return kind

    def others(st: GameState, team: int, worker: int) -> list[int]:
        """The team's workers on the board other than the mover, in order: the unmoved ones."""
        positions = st.worker_pos
        return [w for w in st.members.get(team, ()) if w != worker and positions[w] >= 0]

    def reach_of_others(st: GameState, team: int, worker: int) -> int:
        bits = 0
        for w in others(st, team, worker):
            bits |= AROUND_BITS[st.worker_pos[w]]
        return bits

    def build_order(st: GameState, team: int, worker: int, end: int, builds_on: int):  # noqa: ANN202
        """(builder, square) of each distinct build after the move, in the chain's order: the
        builders in order, each one's squares in neighbour order, a square found once."""
        if not unmoved_build:
            for square in NEIGHBOURS[end]:
                if builds_on >> square & 1:
                    yield worker, square
            return
        seen = 0
        for builder in others(st, team, worker):
            for square in NEIGHBOURS[st.worker_pos[builder]]:
                if builds_on >> square & 1 and not seen >> square & 1:
                    seen |= SQUARE_BITS[square]
                    yield builder, square

    def ended(st: GameState, steps: tuple, events: tuple, builder: int) -> tuple:
        """(steps, events), with what the end-of-turn steps add to them (events None: the
        engine plays the turn, which ends the game)."""
        if not turn_ends:
            return steps, events
        after = st.copy()
        apply_events(after, events)
        extra = turn_end(after, events, builder)
        return steps, (None if extra is None else events + extra)

    def pick(st: GameState, team: int, forbid_up: bool, forbid_down: bool, rng: Random) -> tuple | None:
        heights, blocked, positions = st.heights, st.blocked, st.worker_pos
        taken = st.dome_bits
        for square in positions:
            taken |= BIT_AT[square]
        all_free = ALL_BITS ^ taken
        levels = level_bits(heights) if reads_levels else NO_LEVELS
        no_build = squares_of(build_bans, st, -1, -1, levels) if build_bans else 0
        seat = st.to_move
        sliding = slide is not None and slide.holder not in st.out
        onward: dict[int, int] = {}
        used = once and any((seat, name) in st.marks for name in once)
        near = ((spent if used else kinds)[forbid_up][forbid_down],
                (spent_can_win if used else can_win)[forbid_up][forbid_down])
        over = (jump_kinds[forbid_up][forbid_down], jump_can_win[forbid_up][forbid_down]) \
            if jump_kinds is not None else None
        total, ends, moves = 0, [], []  # as plain_picker's: the index after each move's turns
        # the same for the moves an obligation prefers ('if possible, ... must move up'): the turn
        # is drawn among them when there are any
        best_total, best_ends, best_moves = 0, [], []
        for worker in st.members.get(team, ()):
            origin = positions[worker]
            if origin < 0:
                continue
            here = heights[origin]
            banned = squares_of(move_bans, st, worker, origin, levels) if move_bans else 0
            no_win = squares_of(vetoes, st, worker, origin, levels) if vetoes else 0
            wins_at = squares_of(win_squares, st, worker, origin, levels) if win_squares else 0
            best = squares_of(preferred, st, worker, origin, levels) if preferred else 0
            free = (all_free | SQUARE_BITS[origin]) & ~no_build  # where its builds may go
            reach = reach_of_others(st, team, worker) if unmoved_build else 0
            for to, tables in destinations(st, origin, near, over):
                if blocked[to] or banned >> to & 1:
                    continue
                kind = kind_at(tables, here, to, heights[to], wins_at, no_win)
                if kind == A_WIN:
                    size = 1
                elif kind:
                    builds_on, end = free, to
                    if sliding:
                        end = slid(st, worker, origin, to, levels, onward)
                    if removes_beyond and (gone := removed(st, origin, to, team)):
                        builds_on |= SQUARE_BITS[gone[1]] & ~no_build  # its space is free again
                    if unmoved_build:  # the other workers build, each around its own square
                        size = (builds_on & ~SQUARE_BITS[end] & reach).bit_count()
                    else:
                        size = (builds_on & AROUND_BITS[end]).bit_count() + (under and heights[end] < 3
                                                                             and not no_build >> end & 1)
                else:
                    continue
                total += size
                ends.append(total)
                moves.append(worker * 32 + to)
                if best >> to & 1 and size:
                    best_total += size
                    best_ends.append(best_total)
                    best_moves.append(worker * 32 + to)
        if best_total:
            total, ends, moves = best_total, best_ends, best_moves
        if not total:
            return None
        index = rng.randrange(total)
        entry = bisect_right(ends, index)
        worker, to = moves[entry] >> 5, moves[entry] & 31
        if entry:
            index -= ends[entry - 1]
        origin = positions[worker]
        here, there = heights[origin], heights[to]
        tables = near if to in ADJACENT[origin] else over
        move = actions("move", worker)[to]
        no_win = squares_of(vetoes, st, worker, origin, levels) if vetoes else 0
        wins_at = squares_of(win_squares, st, worker, origin, levels) if win_squares else 0
        if kind_at(tables, here, to, there, wins_at, no_win) == A_WIN:
            return (move,), None
        free = (all_free | SQUARE_BITS[origin]) & ~no_build
        # a win by the board's towers: a build that domes a level-3 square may make it, and any
        # build may while the towers already make it (a position set up so): the engine plays
        # those turns step by step, and judges the board after the build (events None)
        towers_win = tower_wins and any(op.holds((st.dome_bits & levels[3]).bit_count(), amount)
                                        for op, amount in tower_wins)
        moved: tuple = (("move", worker, origin, to, here, there),)
        mark = marks[forbid_up][forbid_down][here][there] if once and not used and tables is near else None
        if mark is not None:  # a once-per-game option is the move there: its mark is set as it is taken
            moved += (("mark", seat, mark),)
        end = slid(st, worker, origin, to, levels, onward) if sliding else to
        if end != to:
            moved += (("force", worker, to, end),)
        if removes_beyond and (gone := removed(st, origin, to, team)):
            moved += (("remove", *gone),)
            free |= SQUARE_BITS[gone[1]] & ~no_build
        for builder, square in build_order(st, team, worker, end, free & ~SQUARE_BITS[end]):
            if not index:
                built = actions("build", builder)[square]
                if tower_wins and (towers_win or heights[square] == 3):
                    return (move, built), None
                return ended(st, (move, built), (*moved, build_event(builder, square, heights[square])), builder)
            index -= 1
        if under and not index:  # the block under itself, after the neighbouring squares (a block)
            built = actions("build", worker)[end]
            if towers_win:
                return (move, built), None
            return ended(st, (move, built), (*moved, build_event(worker, end, heights[end])), worker)
        raise AssertionError("a counted build was not found")  # pragma: no cover - counts agree

    return pick

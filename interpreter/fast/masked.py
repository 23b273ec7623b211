"""The plain turn counted under parts read as squares (bits.py): other seats' bans, vetoes,
obligations and slides, move options with their own climb limit, other builders and pieces, and
what comes before the move and after the build.

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
* 'your female worker may build a dome at any level': a dome below level 3 on each square a
  worker of that sex may build on is one more outcome, once per square whichever of them builds;
* a follow-up of every move that removes the opponent worker beyond it frees that space for the
  build;
* another seat's slide ('each time an opponent worker moves, it is forced space by space in the
  same direction until ...') moves the builder on before it builds: moves in different
  directions end on different squares, so the outcomes stay distinct;
* end-of-turn steps with no choice that remove workers (and build where they stood) or make a
  team lose add no outcome and move none of the seat's workers: the engine's own chain runs them
  on a copy of the state after the turn drawn, and their events are the turn's last (a team that
  loses ends the game: the engine then plays the turn itself);
* 'before your worker moves, it may force a neighboring opponent worker to the space on the other
  side of it': after every turn without a force come, for each worker and each force it may make,
  the turns of that worker on the board the force leaves (counted on that board, the state
  changed and changed back); the forced worker stands elsewhere in each, so no outcome repeats;
* 'after your worker builds, it may build one additional time, not on a perimeter space': each
  build alone, each pair of squares one of which the second build may go on (in either order one
  outcome), and a second piece on such a square (a closed form: `_second_builds`);
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
from collections.abc import Callable, Iterator
from random import Random

from ..chain.actions import actions
from ..model.board import ADJACENT, AROUND_BITS, BEYOND, NEIGHBOURS, SQUARE_BITS
from ..model.state import Action, Event, GameState, apply_events
from .bits import free_bits, levels_of
from .counted import DEFERRED, Deferred, Picker
from .masked_lean import lean_picker
from .plain import A_MOVE, A_WIN, Drawn, _Moves, build_event, is_plain, nth_free
from .shape import FastRules, Squares, without

NO_LEVELS = (0, 0, 0, 0)
#: A force made before the move: (the forced worker, the square it leaves, the square it goes to).
Force = tuple[int, int, int]
#: (the worker, its destination, the force made before the move or None) of a move counted.
MoveEntry = tuple[int, int, Force | None]
#: What `_Pick.count` gathers: the index after each move's turns and the moves, then the same for
#: the moves an obligation prefers.
Found = tuple[list[int], list[MoveEntry], list[int], list[MoveEntry]]
#: (state after the turn, its events, the worker of its last step) -> the events the seat's
#: end-of-turn steps add, or None when the engine must play the turn (Engine._turn_end).
TurnEnd = Callable[[GameState, tuple[Event, ...], int], tuple[Event, ...] | None]
#: [here][there] of a kinds table and of its table by way (plain.kinds_table), for a move.
Tables = tuple[tuple[tuple[int, ...], ...], tuple[tuple[object, ...], ...]]


#: The parts of FastRules this module counts (a seat with any other extended part is refused).
MASKED_PARTS = frozenset(("move_bans", "build_bans", "win_vetoes", "win_squares", "preferred_moves", "removes_beyond",
                          "slides", "unmoved_build", "turn_ends", "dome_sex", "force_before", "second_build",
                          "tower_wins", "move_ways", "build_under"))


def masked_picker(rules: FastRules, turn_end: TurnEnd | None = None) -> Picker | None:
    """The counting picker of a plain turn with the parts above, or None for another turn (or a
    seat with a move option into an opponent's space or a dome option: plain_picker's); its lean
    form (masked_lean.py) where the seat's parts are only masks of squares.
    `turn_end` (Engine._turn_end): the events the seat's automatic end-of-turn steps add to a
    turn, run on a copy of the state after it."""
    lean = lean_picker(rules)
    if lean is not None:
        return lean
    if rules.turn_ends and turn_end is None:
        return None
    if len(rules.programs) != 1 or not is_plain(rules.programs[0], rules) or rules.move_options \
            or rules.build_options or not rules.extended or without(rules, MASKED_PARTS).extended:
        return None  # (a part that another picker counts, or none)
    if rules.removes_beyond and rules.build_bans:
        # (the bans on builds are read once a turn, from where their holders' workers stand; a
        # move that removes a worker may take one of them off the board, and its ban with it)
        return None
    if rules.dome_sex is not None and rules.build_bans:
        # (a ban on builds may spare domes, 'unless building a dome': the squares it bans are
        # counted for every piece here, so the dome option's domes there would be left out)
        return None
    return MaskedTurn(rules, turn_end)


class MaskedTurn:
    """A picker (counted.py's Picker): `turn(state, team, forbid up, forbid down, rng)` draws one
    of the turn's distinct outcomes, uniformly, as `turns[rng.randrange(len(turns))]` would."""

    def __init__(self, rules: FastRules, turn_end: TurnEnd | None) -> None:
        self.rules, self.turn_end = rules, turn_end
        self.moves = _Moves(rules)
        self.slide = rules.slides[0] if rules.slides else None
        self.reads_levels = rules.reads_levels
        #: Whether it reads the history (counted.Picker): the end-of-turn steps are the engine's,
        #: whose conditions may.
        self.reads_history = turn_end is not None
        #: The kinds of event of its turns (counted.Picker), by the parts that make them; none said
        #: where end-of-turn steps add theirs.
        self.event_kinds: frozenset[str] | None = None if rules.turn_ends else frozenset(
            ("move", "build", *(("force",) if rules.force_before or rules.slides else ()),
             *(("mark",) if self.moves.once else ()), *(("remove",) if rules.removes_beyond else ())))
        #: What count_worker reads of the rules, in one tuple (read once per worker).
        self.parts = (rules.move_bans, rules.win_vetoes, rules.win_squares, rules.preferred_moves,
                      rules.unmoved_build, rules.build_under, rules.dome_sex is not None, rules.removes_beyond,
                      rules.second_build)

    def __call__(self, st: GameState, team: int, forbid_up: bool, forbid_down: bool, rng: Random,
                 free: int) -> Drawn | None | Deferred:
        sex = self.rules.dome_sex
        if sex is not None and sum(st.worker_pos[w] >= 0 and st.worker_sex[w] is sex
                                   for w in st.members.get(team, ())) > 1:
            return DEFERRED  # (two workers of that sex may dome one square: the count keeps one per builder)
        pick = _Pick(self, st, team, forbid_up, forbid_down, free)
        entries = pick.count()
        if entries is None:
            return None
        ends, moves = entries
        index = rng.randrange(ends[-1])
        entry = bisect_right(ends, index)
        if entry:
            index -= ends[entry - 1]
        worker, to, force = moves[entry]
        if force is None:
            return pick.decode(worker, to, index, None)
        victim, here, there = force
        st.relocate(victim, there)
        try:
            pick.board(forced_free(free, force))
            return pick.decode(worker, to, index, force)
        finally:
            st.relocate(victim, here)


def forced_free(free: int, force: Force) -> int:
    """The free squares `free` (bits) once the force is made: the square it leaves, the one
    it goes to."""
    _, here, there = force
    return (free | SQUARE_BITS[here]) & ~SQUARE_BITS[there]


def _second_builds(firsts: int, again: int, level_3: int) -> int:
    """What an optional second build adds to a move's `firsts` builds, where it may go on the
    squares `again` (of the first ones), the same square too: the distinct pairs of squares with
    one of them in `again` (either order is one outcome), and a second piece on a square of
    `again` that a first block leaves below a dome."""
    others = firsts - again.bit_count()
    return firsts * (firsts - 1) // 2 - others * (others - 1) // 2 + (again & ~level_3).bit_count()


class _Pick:
    """One draw: the state, the tables in force for this turn, and the board as the counts read
    it (`board`, again after a force)."""

    __slots__ = ("turn", "rules", "st", "team", "seat", "levels", "used", "near", "over", "marks", "sliding",
                 "all_free", "no_build", "onward", "workers")

    def __init__(self, turn: MaskedTurn, st: GameState, team: int, up: bool, down: bool, free: int) -> None:
        rules, moves = turn.rules, turn.moves
        self.turn, self.rules, self.st, self.team = turn, rules, st, team
        self.seat = st.to_move
        self.levels = levels_of(st.level_field) if turn.reads_levels else NO_LEVELS
        self.used = bool(moves.once) and any((self.seat, name) in st.marks for name in moves.once)
        self.near: Tables = ((moves.spent if self.used else moves.kinds)[up][down],
                             (moves.spent_can_win if self.used else moves.can_win)[up][down])
        # (jump_can_win is None where jump_kinds is, and marks where `once` is empty)
        self.over: Tables | None = (
            (moves.jump_kinds[up][down], moves.jump_can_win[up][down]) if moves.jump_kinds  # type: ignore[index]
            else None)
        self.marks = moves.marks[up][down] if moves.once and not self.used else None  # type: ignore[index]
        self.sliding = turn.slide is not None and turn.slide.holder not in st.out
        self.board(free)

    def board(self, free: int | None = None) -> None:
        """What the counts read of where the workers stand: the free squares (`free`, when the
        caller has them), the squares no build may go on, the slide's reach from each square
        (found as needed)."""
        st = self.st
        self.all_free = free_bits(st) if free is None else free
        self.no_build = self.squares_of(self.rules.build_bans, -1, -1) if self.rules.build_bans else 0
        self.onward: dict[int, int] = {}

    def squares_of(self, rules: list[Squares], worker: int, origin: int) -> int:
        """The union of the squares of the rules in force (their holders in the game)."""
        st = self.st
        out = st.out
        if len(rules) == 1:  # (the commonest)
            rule = rules[0]
            return 0 if out and rule.holder in out else rule.squares(st, worker, origin, self.levels)
        bits = 0
        for rule in rules:
            if rule.holder not in out:
                bits |= rule.squares(st, worker, origin, self.levels)
        return bits

    # ---- counting
    def count(self) -> tuple[list[int], list[MoveEntry]] | None:
        """(the index after each move's turns, (worker, destination, force) of each move), for
        all the turns, or for those an obligation prefers when there are any; None: no turn."""
        st, rules = self.st, self.rules
        found: Found = ([], [], [], [])  # ends, moves; the preferred ones
        positions = st.worker_pos
        workers = self.workers = [w for w in st.members.get(self.team, ()) if positions[w] >= 0]
        for worker in workers:
            self.count_worker(worker, None, found)
        if rules.force_before:
            free, forced = self.all_free, False
            for worker in workers:
                for force in self.forces(worker):
                    victim, here, there = force
                    st.relocate(victim, there)
                    self.board(forced_free(free, force))
                    self.count_worker(worker, force, found)
                    st.relocate(victim, here)
                    forced = True
            if forced:
                self.board(free)
        ends, moves, best_ends, best_moves = found
        if best_ends:
            return best_ends, best_moves
        return (ends, moves) if ends else None

    def forces(self, worker: int) -> list[Force]:
        """The forces the worker may make before it moves, in the chain's order: each opponent
        worker around it, in order, to the free space on the worker's other side."""
        st, team = self.st, self.team
        positions, teams, blocked = st.worker_pos, st.worker_team, st.blocked
        origin = positions[worker]
        around = AROUND_BITS[origin]
        return [(victim, square, there) for victim, square in enumerate(positions)
                if square >= 0 and around >> square & 1 and teams[victim] != team
                and (there := BEYOND[square][origin]) >= 0 and not blocked[there]]

    def count_worker(self, worker: int, force: Force | None, found: Found) -> None:
        """Add the worker's moves and their turns' counts to `found` (written for speed: the
        parts that are off cost one test each, the kind of a move is found inline)."""
        st = self.st
        move_bans, vetoes, win_squares, preferred, unmoved, under, domes, removes, again = self.turn.parts
        again_on = again.squares(st, worker, -1, self.levels) if again is not None else 0
        ends, moves, best_ends, best_moves = found
        heights, blocked = st.heights, st.blocked
        origin = st.worker_pos[worker]
        here = heights[origin]
        banned = self.squares_of(move_bans, worker, origin) if move_bans else 0
        no_win = self.squares_of(vetoes, worker, origin) if vetoes else 0
        wins_at = self.squares_of(win_squares, worker, origin) if win_squares else 0
        best = self.squares_of(preferred, worker, origin) if preferred else 0
        no_build = self.no_build
        free = (self.all_free | SQUARE_BITS[origin]) & ~no_build  # where its builds may go
        reach = self.reach_of_others(worker) if unmoved else 0
        sliding = self.sliding
        total = ends[-1] if ends else 0
        best_total = best_ends[-1] if best_ends else 0
        kinds_of, may_win = self.near[0][here], self.near[1][here]  # (from this level)
        targets, jumping = NEIGHBOURS[origin], self.over is not None
        if jumping:  # the spaces beyond neighbouring workers come after the neighbouring ones
            jumps_of, jumps_win = self.over[0][here], self.over[1][here]  # type: ignore[index]  # (jumping)
            targets = (*targets, *self.beyond_workers(origin))
        for to in targets:
            if blocked[to] or banned >> to & 1:
                continue
            if jumping and to not in ADJACENT[origin]:
                kind_of, win_of = jumps_of, jumps_win
            else:
                kind_of, win_of = kinds_of, may_win
            there = heights[to]
            kind = kind_of[there]
            if kind == A_MOVE and wins_at >> to & 1 and win_of[there]:
                kind = A_WIN
            if kind == A_WIN and not no_win >> to & 1:
                size = 1
            elif kind:
                end = self.slid(worker, origin, to) if sliding else to
                builds_on = free | self.removed_bits(origin, to) if removes else free
                if unmoved:  # the other workers build, each around its own square
                    size = (builds_on & ~SQUARE_BITS[end] & reach).bit_count()
                else:
                    first = builds_on & AROUND_BITS[end]
                    size = first.bit_count()
                    if under and heights[end] < 3 and not no_build >> end & 1:
                        size += 1
                    if domes:
                        size += self.domes_count(worker, end, builds_on)
                    if again is not None:
                        size += _second_builds(size, first & again_on, self.levels[3])
                if not size:
                    continue
            else:
                continue
            total += size
            ends.append(total)
            moves.append((worker, to, force))
            if best >> to & 1:
                best_total += size
                best_ends.append(best_total)
                best_moves.append((worker, to, force))

    def beyond_workers(self, origin: int) -> list[int]:
        """The spaces beyond the workers around `origin`, seen from it, in order: where a move
        over a worker goes (a space beyond is never one around `origin`)."""
        occupant = self.st.occupant
        return [beyond for n in NEIGHBOURS[origin] if occupant[n] >= 0 and (beyond := BEYOND[origin][n]) >= 0]

    @staticmethod
    def kind_at(tables: Tables, here: int, to: int, there: int, wins_at: int, no_win: int) -> int:
        """NO_MOVE, A_MOVE or A_WIN: the move's kind by its ways, another win of the seat where
        the way may win, and a veto."""
        kinds_of, may_win = tables
        kind = kinds_of[here][there]
        if kind == A_MOVE and wins_at >> to & 1 and may_win[here][there]:
            kind = A_WIN
        if kind == A_WIN and no_win >> to & 1:
            kind = A_MOVE
        return kind

    def slid(self, worker: int, origin: int, to: int) -> int:
        """Where a worker that moved from `origin` to `to` ends, forced on along its move while
        the next space is one the slide allows (its reach from each square, found once)."""
        previous, here, onward = origin, to, self.onward
        while True:
            ahead = BEYOND[previous][here]
            if ahead < 0:
                return here
            allowed = onward.get(here)
            if allowed is None:
                allowed = onward[here] = self.turn.slide.squares(  # type: ignore[union-attr]  # (sliding)
                    self.st, worker, here, self.levels)
            if not allowed >> ahead & 1:
                return here
            previous, here = here, ahead

    def removed(self, origin: int, to: int) -> tuple[int, int] | None:
        """(worker, square) of the opponent worker that a move from `origin` to `to` removes."""
        if not self.rules.removes_beyond:
            return None
        st = self.st
        square = BEYOND[origin][to]
        victim = st.occupant[square] if square >= 0 else -1
        return (victim, square) if victim >= 0 and st.worker_team[victim] != self.team else None

    def removed_bits(self, origin: int, to: int) -> int:
        gone = self.removed(origin, to)
        return SQUARE_BITS[gone[1]] & ~self.no_build if gone else 0  # its space is free again

    def others(self, worker: int) -> list[int]:
        """The team's workers on the board other than the mover, in order: the unmoved ones (a
        force before the move moves none of the team's: `workers`, found by `count`)."""
        return [w for w in self.workers if w != worker]

    def reach_of_others(self, worker: int) -> int:
        bits, positions = 0, self.st.worker_pos
        for w in self.workers:
            if w != worker:
                bits |= AROUND_BITS[positions[w]]
        return bits

    def dome_builders(self) -> list[int]:
        """The team's workers on the board who may build a dome at any level, in order."""
        st, sex = self.st, self.rules.dome_sex
        return [w for w in st.members.get(self.team, ()) if st.worker_pos[w] >= 0 and st.worker_sex[w] is sex]

    def domes_count(self, worker: int, end: int, builds_on: int) -> int:
        """The outcomes the dome option adds to a move's builds (around `end`, `builds_on`):
        the mover's domes below level 3 if it may, then each other such worker's new domes."""
        low_of, level_3 = builds_on & AROUND_BITS[end], self.levels[3]
        count, domed = 0, low_of & level_3  # (a base build on level 3 is a dome already)
        for builder in self.dome_builders():
            if builder == worker:
                count += (low_of & ~level_3).bit_count()
                domed |= low_of
            else:
                theirs = builds_on & ~SQUARE_BITS[end] & AROUND_BITS[self.st.worker_pos[builder]]
                count += (theirs & ~domed).bit_count()
                domed |= theirs
        return count

    # ---- the drawn turn
    def decode(self, worker: int, to: int, index: int, force: Force | None) -> Drawn:
        """(steps, events) of the `index`-th turn of the move (events None: the engine plays it)."""
        st, rules = self.st, self.rules
        heights = st.heights
        origin = st.worker_pos[worker]
        here, there = heights[origin], heights[to]
        tables = self.near if to in ADJACENT[origin] else self.over
        move = actions("move", worker)[to]
        forced: tuple[Action, ...] = () if force is None else (("force", force[0], force[2]),)
        before: tuple[Event, ...] = () if force is None else (("force", *force),)
        no_win = self.squares_of(rules.win_vetoes, worker, origin) if rules.win_vetoes else 0
        wins_at = self.squares_of(rules.win_squares, worker, origin) if rules.win_squares else 0
        if self.kind_at(tables, here, to, there, wins_at, no_win) == A_WIN:  # type: ignore[arg-type]  # (over)
            return (*forced, move), None
        free = (self.all_free | SQUARE_BITS[origin]) & ~self.no_build
        # a win by the board's towers: a build that domes a level-3 square may make it, and any
        # build may while the towers already make it (a position set up so): the engine plays
        # those turns step by step, and judges the board after the build (events None)
        towers_win = bool(rules.tower_wins) and any(
            op.holds((st.dome_bits & self.levels[3]).bit_count(), amount) for op, amount in rules.tower_wins)
        moved: tuple[Event, ...] = (*before, ("move", worker, origin, to, here, there))
        mark = self.marks[here][there] if self.marks is not None and tables is self.near else None
        if mark is not None:  # a once-per-game option is the move there: its mark is set as it is taken
            moved += (("mark", self.seat, mark),)
        end = self.slid(worker, origin, to) if self.sliding else to
        if end != to:
            moved += (("force", worker, to, end),)
        gone = self.removed(origin, to)
        if gone:
            moved += (("remove", *gone),)
            free |= SQUARE_BITS[gone[1]] & ~self.no_build
        if rules.second_build is not None:
            return self.decode_two(worker, end, free & AROUND_BITS[end], index, (*forced, move), moved)
        if rules.dome_sex is None and not rules.unmoved_build:  # the moved worker builds: found at once
            square = nth_free(end, free, index) if index < (free & AROUND_BITS[end]).bit_count() else -1
            if square >= 0:
                built = actions("build", worker)[square]
                if rules.tower_wins and (towers_win or heights[square] == 3):
                    return (*forced, move, built), None
                return self.ended((*forced, move, built), (*moved, build_event(worker, square, heights[square])),
                                  worker)
            index -= (free & AROUND_BITS[end]).bit_count()
        for builder, square, dome in self.build_order(worker, end, free & ~SQUARE_BITS[end]) \
                if rules.dome_sex is not None or rules.unmoved_build else ():
            if not index:
                built = actions("dome" if dome else "build", builder)[square]
                if rules.tower_wins and (towers_win or dome or heights[square] == 3):
                    return (*forced, move, built), None
                event = ("build", builder, square, heights[square], True) if dome \
                    else build_event(builder, square, heights[square])
                return self.ended((*forced, move, built), (*moved, event), builder)
            index -= 1
        if rules.build_under and not index:  # the block under itself, after the neighbouring squares
            built = actions("build", worker)[end]
            if towers_win:
                return (*forced, move, built), None
            return self.ended((*forced, move, built), (*moved, build_event(worker, end, heights[end])), worker)
        raise AssertionError("a counted build was not found")  # pragma: no cover - counts agree

    def decode_two(self, worker: int, end: int, first: int, index: int, steps: tuple[Action, ...],
                   moved: tuple[Event, ...]) -> Drawn:
        """The `index`-th of a move's builds with a second build after the first, in the
        chain's order: each first build (in neighbour order), alone, then with each second build
        the squares allow, the same square once it holds a block, a pair found before skipped."""
        st, rules = self.st, self.rules
        heights, towers = st.heights, rules.tower_wins
        again_on = first & self.rules.second_build.squares(st, worker, -1, self.levels)  # type: ignore[union-attr]
        squares = [square for square in NEIGHBOURS[end] if first >> square & 1]
        builds = actions("build", worker)
        for order, a in enumerate(squares):
            one = build_event(worker, a, heights[a])
            if not index:
                if towers:
                    return (*steps, builds[a]), None
                return self.ended((*steps, builds[a]), (*moved, one), worker)
            index -= 1
            for b in squares:
                if not again_on >> b & 1:
                    continue
                if b == a:
                    if heights[a] == 3:
                        continue  # (the first build domed it)
                    two = build_event(worker, a, heights[a] + 1)
                elif squares.index(b) < order and again_on >> a & 1:
                    continue  # (b, then a) came before: one outcome
                else:
                    two = build_event(worker, b, heights[b])
                if not index:
                    if towers:
                        return (*steps, builds[a], builds[b]), None
                    return self.ended((*steps, builds[a], builds[b]), (*moved, one, two), worker)
                index -= 1
        raise AssertionError("a counted build was not found")  # pragma: no cover - counts agree

    def build_order(self, worker: int, end: int, builds_on: int) -> Iterator[tuple[int, int, bool]]:
        """(builder, square, dome) of each distinct build after the move, in the chain's order:
        the builders in order, each one's squares in neighbour order, a square found once (with
        the dome option, a square once for each piece; `dome`: a dome below level 3)."""
        st, rules = self.st, self.rules
        heights = st.heights
        if rules.dome_sex is not None:
            builders = self.dome_builders()
            domed = 0
            for square in NEIGHBOURS[end]:
                if builds_on >> square & 1:
                    yield worker, square, False
                    if worker in builders and heights[square] < 3:
                        yield worker, square, True
                    if heights[square] == 3 or worker in builders:
                        domed |= SQUARE_BITS[square]
            for builder in builders:
                if builder == worker:
                    continue
                for square in NEIGHBOURS[st.worker_pos[builder]]:
                    if builds_on >> square & 1 and square != end and not domed >> square & 1:
                        domed |= SQUARE_BITS[square]
                        yield builder, square, heights[square] < 3
            return
        if not rules.unmoved_build:
            for square in NEIGHBOURS[end]:
                if builds_on >> square & 1:
                    yield worker, square, False
            return
        seen = 0
        for builder in self.others(worker):
            for square in NEIGHBOURS[st.worker_pos[builder]]:
                if builds_on >> square & 1 and not seen >> square & 1:
                    seen |= SQUARE_BITS[square]
                    yield builder, square, False

    def ended(self, steps: tuple[Action, ...], events: tuple[Event, ...], builder: int) -> Drawn:
        """(steps, events), with what the end-of-turn steps add to them (events None: the
        engine plays the turn, which ends the game)."""
        if not self.rules.turn_ends:
            return steps, events
        after = self.st.copy()
        apply_events(after, events)
        extra = self.turn.turn_end(after, events, builder)  # type: ignore[misc]  # (with turn_ends)
        return steps, (None if extra is None else events + extra)

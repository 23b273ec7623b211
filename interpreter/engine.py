"""The turn interpreter: runs the compiled powers of the seats against a GameState.

A turn is a sequence of decisions. Each seat's turn programs (the base card's standard turn and
the alternatives its powers add) are compiled once, when the engine is made, into chains of
Python closures: a step closure lists the candidate actions of its step (asking the hooks that
generate, restrict and react), applies each one to the state, calls the rest of the chain, and
undoes it. One traversal serves every purpose through its leaf callback: enumerating the distinct
outcomes, checking that a turn can still be completed ("must" by lookahead), matching a turn
written in notation, listing the legal next steps, and perft.

Actions are tuples: ("move", worker, square), ("build", worker, square) (the next piece, a dome
on level 3), ("dome", worker, square) (a dome at a lower level), ("use", -1, name).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..dsl.hooks import FollowUp, Power, Program, StepSpec
from .board import BEYOND, NEIGHBOURS, SQUARES, ZOBRIST
from .state import GameState, TurnRecord

Action = tuple
StepFn = Callable[["Walk"], bool]


class IllegalTurn(ValueError):
    """A turn the rules do not allow; the message says which step fails and what is allowed."""


class Walk:
    """The mutable context of one traversal of a turn's decision tree."""

    __slots__ = ("state", "seat", "team", "path", "events", "last_actor", "script", "frontier",
                 "complete", "leaf", "visited", "forbid_up", "forbid_down", "result", "probe", "found")

    def __init__(self, state: GameState, leaf: Callable[[Walk], bool],
                 script: Sequence[Action] | None = None, frontier: set | None = None) -> None:
        self.state = state
        self.seat = state.to_move
        self.team = state.seats[self.seat].team
        self.path: list[Action] = []
        self.events: list[tuple] = []
        self.last_actor = -1
        self.script = script
        self.frontier = frontier
        self.complete = False
        self.leaf = leaf
        self.visited: set = set()
        self.forbid_up = False
        self.forbid_down = False
        self.result: tuple | None = None
        self.probe: Callable[[Walk], None] | None = None
        #: In enumeration, the outcomes found so far (key -> one turn); a final step may then add
        #: its outcomes by hash arithmetic instead of applying and undoing each candidate.
        self.found: dict[int, tuple[Action, ...]] | None = None

    def admits(self, action: Action, depth: int) -> bool:
        """Whether the script (if any) lets this action be the step at `depth`."""
        script = self.script
        if depth < len(script):
            return _same_step(self.state, script[depth], action)
        if self.frontier is None:
            return False  # matching a whole turn: nothing may follow its last step
        return depth > len(script) or action not in self.frontier

    def stop_here(self, depth: int) -> bool:
        """After a branch asked to stop: whether the stop goes up past this depth.

        In frontier mode one completion is enough to show that an action at the frontier is
        legal; the search then goes on with the frontier's other actions.
        """
        return not (self.frontier is not None and depth == len(self.script))


@dataclass
class SeatRules:
    """What a seat's powers add to the base rules, gathered once per game."""

    climb: int
    move_options: list
    build_options: list
    wins: list[tuple[str, int]]
    followups: list[FollowUp]
    programs: list[Program]
    restrictions: list
    lose_when_stuck: bool


def gather(base: Power, powers: Sequence[Power]) -> SeatRules:
    """Combine the base card and a seat's powers into that seat's rules."""
    everything = [base, *powers]
    return SeatRules(
        climb=base.board.climb if base.board else 1,
        move_options=[o for p in everything for o in p.move_options],
        build_options=[o for p in everything for o in p.build_options],
        wins=[(w.movement, w.amount) for p in everything for w in p.wins],
        followups=[f for p in everything for f in p.followups],
        programs=[prog for p in everything for prog in p.programs],
        restrictions=[r for p in powers for r in p.restrictions],
        lose_when_stuck=base.lose_when_stuck,
    )


class Engine:
    """The rules of one game: the base card and each seat's powers, compiled."""

    def __init__(self, base: Power, seat_powers: Sequence[Sequence[Power]], fast: bool = True) -> None:
        """`fast=False` turns the plain-turn fast paths off, so tests can compare them with the
        generic chain they stand in for."""
        self.fast = fast
        self.seat_rules = [gather(base, powers) for powers in seat_powers]
        self.restricting = [(seat, rules.restrictions) for seat, rules in enumerate(self.seat_rules)
                            if rules.restrictions]
        self.roots = [self._compile_seat(rules) for rules in self.seat_rules]
        self.plain_players = [[player for program in rules.programs
                               if (player := _plain_player(program, rules)) is not None] if fast else []
                              for rules in self.seat_rules]

    # ---- compilation
    def _compile_seat(self, rules: SeatRules) -> StepFn:
        programs = [(self._compile_program(program, rules),
                     _plain_enumerator(program, rules) if self.fast else None)
                    for program in rules.programs]

        def root(walk: Walk) -> bool:
            self._start_turn(walk)
            enumerating = walk.found is not None and walk.probe is None and walk.script is None
            for program, plain in programs:
                if plain is not None and enumerating:
                    plain(walk)
                elif program(walk):
                    return True
            return False
        return root

    def _compile_program(self, program: Program, rules: SeatRules) -> StepFn:
        chain: StepFn = _finish
        for spec in reversed(program.steps):
            chain = self._compile_step(spec, chain, rules, with_followups=True)
        if program.announced:
            chain = _use_step(program.name, chain)
        return chain

    def _compile_step(self, spec: StepSpec, rest: StepFn, rules: SeatRules,
                      with_followups: bool) -> StepFn:
        after = rest
        if with_followups and not spec.repeat:
            for followup in reversed([f for f in rules.followups if f.after == spec.verb]):
                after = self._compile_step(followup.step, after, rules, with_followups=False)
        make = _move_step if spec.verb == "move" else _build_step
        return make(spec, after, rest, rules)

    # ---- turn start
    def _start_turn(self, walk: Walk) -> None:
        """Apply the restrictions that other seats' powers put on this turn."""
        state = walk.state
        for seat, restrictions in self.restricting:
            if seat in state.out or state.seats[seat].team == walk.team:
                continue
            for restriction in restrictions:
                if restriction.condition is None or _moved_last_turn(state, seat, restriction.condition.direction):
                    if restriction.direction == "up":
                        walk.forbid_up = True
                    else:
                        walk.forbid_down = True

    # ---- queries
    def outcomes(self, state: GameState) -> dict[int, tuple[Action, ...]]:
        """The distinct outcomes of the turn of the seat to move: outcome key -> one turn."""
        found: dict[int, tuple[Action, ...]] = {}

        def leaf(walk: Walk) -> bool:
            key = walk.state.outcome_key()
            if key not in found:
                found[key] = tuple(walk.path)
            return False
        walk = Walk(state, leaf)
        walk.found = found
        self.roots[state.to_move](walk)
        return found

    def has_turn(self, state: GameState) -> bool:
        """Whether the seat to move can complete a turn at all."""
        return self.roots[state.to_move](Walk(state, _stop))

    def can_win(self, state: GameState) -> bool:
        """Whether some legal turn wins at once."""
        return self.roots[state.to_move](Walk(state, lambda walk: walk.state.winner is not None))

    def legal_next(self, state: GameState, prefix: Sequence[Action]) -> tuple[list[Action], bool]:
        """The steps that may follow `prefix` (each one leaves the turn completable), and whether
        the prefix is already a complete turn."""
        frontier: set = set()
        depth = len(prefix)

        def leaf(walk: Walk) -> bool:
            if len(walk.path) > depth:
                frontier.add(walk.path[depth])
                return True
            walk.complete = True
            return False
        walk = Walk(state, leaf, script=tuple(prefix), frontier=frontier)
        self.roots[state.to_move](walk)
        return sorted(frontier, key=_action_order), walk.complete

    def play(self, state: GameState, steps: Sequence[Action]) -> GameState:
        """The state after the seat to move plays `steps` (a whole turn), with the turn logged
        and the next seat to move; IllegalTurn if the rules do not accept the turn."""
        def leaf(walk: Walk) -> bool:
            if len(walk.path) != len(steps):
                return False
            walk.result = (walk.state.copy(), tuple(walk.events))
            return True
        walk = Walk(state, leaf, script=tuple(steps))
        if self.plain_players[state.to_move]:
            self._start_turn(walk)
            for player in self.plain_players[state.to_move]:
                walk.result = player(walk, steps)
                if walk.result is not None:
                    break
        if walk.result is None:
            self.roots[state.to_move](walk)
        if walk.result is None:
            raise IllegalTurn(self.why_illegal(state, steps))
        after, events = walk.result
        after.history.append(TurnRecord(state.to_move, tuple(steps), events))
        if after.winner is None:
            after.to_move = after.next_seat(state.to_move)
        return after

    def trace(self, state: GameState, steps: Sequence[Action],
              visit: Callable[[GameState, tuple[Action, ...]], None]) -> bool:
        """Play `steps` as a turn, calling `visit(state, steps so far)` after each step applied on
        the way to the accepted turn (for displays and invariant checks); False if illegal."""
        snapshots: list[tuple[GameState, tuple[Action, ...]]] = []

        def probe(walk: Walk) -> None:
            depth = len(walk.path)
            if depth > len(snapshots) and all(_same_step(walk.state, steps[i], walk.path[i])
                                              for i in range(depth)):
                snapshots.append((walk.state.copy(), tuple(walk.path)))

        def leaf(walk: Walk) -> bool:
            return len(walk.path) == len(steps)
        walk = Walk(state, leaf, script=tuple(steps))
        walk.probe = probe
        accepted = self.roots[state.to_move](walk)
        for snapshot, prefix in snapshots:
            visit(snapshot, prefix)
        return accepted

    def why_illegal(self, state: GameState, steps: Sequence[Action]) -> str:
        """Which step of a refused turn fails, and what the rules allow there instead."""
        from .notation import format_step  # local: notation imports this module's types
        for index in range(len(steps) + 1):
            legal, complete = self.legal_next(state, steps[:index])
            if index == len(steps):
                options = ", ".join(format_step(state, a) for a in legal)
                return f"the turn is not complete; it must go on with one of: {options}"
            if not any(_same_step(state, steps[index], a) for a in legal):
                written = format_step(state, steps[index])
                if not legal and complete:
                    return f"'{written}' (step {index + 1}): the turn is already complete"
                options = ", ".join(format_step(state, a) for a in legal) or "none"
                return f"'{written}' (step {index + 1}) is not allowed here; allowed: {options}"
        return "the turn is not allowed"  # pragma: no cover - legal_next and play agree

    def perft(self, state: GameState, depth: int) -> int:
        """Leaves of the tree of distinct outcomes (spec: 'Perft'), searched in place."""
        if depth == 0:
            return 1
        if depth == 1:
            return len(self.outcomes(state))
        total = 0
        seen: set[int] = set()

        def leaf(walk: Walk) -> bool:
            nonlocal total
            st = walk.state
            key = st.outcome_key()
            if key in seen:
                return False
            seen.add(key)
            if st.winner is not None or depth == 1:
                total += 1
                return False
            mover = st.to_move
            st.history.append(TurnRecord(mover, tuple(walk.path), tuple(walk.events)))
            st.to_move = st.next_seat(mover)
            total += self.perft(st, depth - 1)
            st.to_move = mover
            st.history.pop()
            return False
        self.roots[state.to_move](Walk(state, leaf))
        return total


def _same_step(state: GameState, want: Action, action: Action) -> bool:
    """Whether a step as written is this action: equal, or 'dome' on a level-3 space for
    'build' there (the same step, spec: turn notation), or a `use` name in another case."""
    if want == action:
        return True
    if want[0] == "use":
        return action[0] == "use" and want[2].lower() == action[2].lower()
    return (want[0] == "dome" and action[0] == "build" and want[1:] == action[1:]
            and state.heights[action[2]] == 3)


def _action_order(action: Action) -> tuple:
    return (action[0] != "use", action[1], action[0], str(action[2]))


def _stop(walk: Walk) -> bool:
    return True


def _finish(walk: Walk) -> bool:
    return walk.leaf(walk)


def _moved_last_turn(state: GameState, seat: int, direction: str) -> bool:
    """Whether one of `seat`'s workers moved up (or down) on that seat's most recent turn."""
    for record in reversed(state.history):
        if record.seat == seat:
            for event in record.events:
                if event[0] == "move" and (event[5] > event[4] if direction == "up" else event[5] < event[4]):
                    return True
            return False
    return False


def _use_step(name: str, rest: StepFn) -> StepFn:
    action = ("use", -1, name)

    def step(walk: Walk) -> bool:
        depth = len(walk.path)
        if walk.script is not None and not walk.admits(action, depth):
            return False
        walk.path.append(action)
        walk.events.append(("use", -1, name))
        if walk.probe is not None:
            walk.probe(walk)
        stop = rest(walk)
        walk.events.pop()
        walk.path.pop()
        return stop and walk.stop_here(depth)
    return step


def _win_table(wins: list[tuple[str, int]]) -> tuple[tuple[bool, ...], ...]:
    """WIN[from_height][to_height]: whether a move between those levels wins for the seat."""
    return tuple(tuple(any((kind == "up_onto_level" and here < there == amount)
                           or (kind == "down_at_least" and here - there >= amount)
                           for kind, amount in wins) for there in range(4)) for here in range(4))


def _plain_enumerator(program: Program, rules: SeatRules) -> StepFn | None:
    """The fast path of the commonest turn: when a program is just 'one of your workers moves,
    the moved worker builds' and no hook of the seat touches those steps (no option, follow-up
    or constraint), its outcomes are enumerated by hash arithmetic alone, without applying a
    single step. It must agree with the generic chain exactly (tests compare the two)."""
    if not _is_plain(program, rules):
        return None
    climb = rules.climb
    win = _win_table(rules.wins)
    worker_keys, height_keys, dome_keys, winner_keys = ZOBRIST.worker, ZOBRIST.height, ZOBRIST.dome, ZOBRIST.winner

    def enumerate_plain(walk: Walk) -> bool:
        # Distinct (worker, to, build) triples give distinct outcomes (a worker's class holds
        # S - {from} + {to}, to not in S), so the only duplicates are across programs, where
        # keeping either turn is right: no membership test is needed.
        st = walk.state
        heights, occupant, domes, found = st.heights, st.occupant, st.domes, walk.found
        forbid_up, forbid_down = walk.forbid_up, walk.forbid_down
        winner_key = winner_keys[walk.team]
        blocked = [occupant[s] >= 0 or domes[s] for s in SQUARES]
        built = [dome_keys[s] if heights[s] == 3 else height_keys[s][heights[s]] ^ height_keys[s][heights[s] + 1]
                 for s in SQUARES]
        for worker in st.team_workers(walk.team):
            origin = st.worker_pos[worker]
            here = heights[origin]
            keys = worker_keys[st.worker_class[worker]]
            lifted = st.hash ^ keys[origin]
            wins_from = win[here]
            blocked[origin] = False  # the mover leaves: its square can be built on
            for to in NEIGHBOURS[origin]:
                if blocked[to]:
                    continue
                there = heights[to]
                if there - here > climb or (forbid_up and there > here) or (forbid_down and there < here):
                    continue
                moved = lifted ^ keys[to]
                move = ("move", worker, to)
                if wins_from[there]:
                    found[moved ^ winner_key] = (move,)
                    continue
                for square in NEIGHBOURS[to]:
                    if not blocked[square]:
                        found[moved ^ built[square]] = (move, ("build", worker, square))
            blocked[origin] = True
        return False
    return enumerate_plain


def _is_plain(program: Program, rules: SeatRules) -> bool:
    """'One of your workers moves, the moved worker builds', untouched by any hook."""
    if program.announced or len(program.steps) != 2:
        return False
    move, build = program.steps
    return (move.verb == "move" and move.actor == "any" and build.verb == "build"
            and build.actor in ("moved", "that")
            and not (move.optional or build.optional or move.repeat or build.repeat
                     or move.constraints or build.constraints)
            and not (rules.move_options or rules.build_options or rules.followups))


def _plain_player(program: Program, rules: SeatRules) -> Callable[[Walk, Sequence[Action]], tuple | None] | None:
    """The fast path of playing a written plain turn: check the two steps against the rules and
    apply them to a copy. Returns (state after, events), or None to leave the turn to the generic
    chain (which also gives the reason when a turn is illegal)."""
    if not _is_plain(program, rules):
        return None
    climb = rules.climb
    win = _win_table(rules.wins)

    def play_plain(walk: Walk, steps: Sequence[Action]) -> tuple | None:
        st = walk.state
        if not 1 <= len(steps) <= 2 or steps[0][0] != "move":
            return None
        _, worker, to = steps[0]
        if not 0 <= worker < len(st.worker_pos) or st.worker_team[worker] != walk.team:
            return None
        origin = st.worker_pos[worker]
        if origin < 0 or to not in NEIGHBOURS[origin] or st.occupant[to] >= 0 or st.domes[to]:
            return None
        here, there = st.heights[origin], st.heights[to]
        if there - here > climb or (walk.forbid_up and there > here) or (walk.forbid_down and there < here):
            return None
        move_event = ("move", worker, origin, to, here, there)
        if win[here][there]:
            if len(steps) != 1:
                return None
            after = st.copy()
            after.relocate(worker, to)
            after.winner = walk.team
            return after, (move_event,)
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
        after = st.copy()
        after.relocate(worker, to)
        if height == 3:
            after.set_dome(square, True)
        else:
            after.set_height(square, height + 1)
        return after, (move_event, ("build", worker, square, min(height + 1, 3), height == 3))
    return play_plain


def _actors(spec: StepSpec) -> Callable[[Walk], list[int]]:
    """Which workers may take a step: chosen freshly, or bound by an earlier step."""
    if spec.actor in ("any", "each"):
        return lambda walk: walk.state.team_workers(walk.team)
    if spec.actor == "that":
        return lambda walk: [walk.last_actor] if walk.last_actor >= 0 else []

    def moved(walk: Walk) -> list[int]:
        for event in reversed(walk.events):
            if event[0] == "move":
                return [event[1]]
        return []
    return moved


def _scripted(walk: Walk, workers: list[int], depth: int) -> list[int]:
    """When matching a written step, only the worker it names can take it."""
    script = walk.script
    if script is not None and depth < len(script) and script[depth][1] >= 0:
        return [script[depth][1]] if script[depth][1] in workers else []
    return workers


def _turn_start_square(walk: Walk, worker: int) -> int:
    for event in walk.events:
        if event[0] == "move" and event[1] == worker:
            return event[2]
    return walk.state.worker_pos[worker]


def _last_build_square(walk: Walk) -> int:
    for event in reversed(walk.events):
        if event[0] == "build":
            return event[2]
    return -1


def _move_step(spec: StepSpec, after: StepFn, rest: StepFn, rules: SeatRules) -> StepFn:
    """A move step: the base move, the move options of the seat's powers, the constraints of the
    step and the restrictions of other powers; a win ends the turn at once."""
    climb = rules.climb
    options = rules.move_options
    wins = _win_table(rules.wins)
    actors = _actors(spec)
    not_up = "not_up" in spec.constraints
    level_only = "not_up_or_down" in spec.constraints
    not_back = "not_back_to_start" in spec.constraints

    def candidates(walk: Walk, worker: int) -> list[tuple[int, int, int]]:
        st = walk.state
        heights, occupant, domes = st.heights, st.occupant, st.domes
        origin = st.worker_pos[worker]
        here = heights[origin]
        start = _turn_start_square(walk, worker) if not_back else -1
        found = []
        for to in NEIGHBOURS[origin]:
            if domes[to]:
                continue
            height = heights[to]
            if height - here > climb or (height > here and (not_up or walk.forbid_up)):
                continue
            if (level_only and height != here) or to == start or (walk.forbid_down and height < here):
                continue
            other = occupant[to]
            if other < 0:
                found.append((to, -1, -1))
            elif st.worker_team[other] != walk.team:
                for option in options:
                    if option.same_or_lower and height > here:
                        continue
                    dest = origin if option.destination == "vacated" else BEYOND[origin][to]
                    if dest != origin and (dest < 0 or occupant[dest] >= 0 or domes[dest]):
                        continue
                    found.append((to, other, dest))
                    break
        return found

    def perform(walk: Walk, worker: int, to: int, victim: int, dest: int, then: StepFn) -> bool:
        st = walk.state
        origin = st.worker_pos[worker]
        here, there = st.heights[origin], st.heights[to]
        previous_actor = walk.last_actor
        if victim >= 0:
            st.lift(victim)
        st.relocate(worker, to)
        if victim >= 0:
            st.place(victim, dest)
        walk.events.append(("move", worker, origin, to, here, there))
        if victim >= 0:
            walk.events.append(("force", victim, to, dest))
        walk.path.append(("move", worker, to))
        walk.last_actor = worker
        if walk.probe is not None:
            walk.probe(walk)
        if wins[here][there]:
            st.winner = walk.team
            stop = walk.leaf(walk)
            st.winner = None
        else:
            stop = then(walk)
        walk.last_actor = previous_actor
        walk.path.pop()
        walk.events.pop()
        if victim >= 0:
            walk.events.pop()
            st.lift(victim)
        st.relocate(worker, origin)
        if victim >= 0:
            st.place(victim, to)
        return stop

    if spec.repeat:
        def repeated(walk: Walk) -> bool:
            depth = len(walk.path)
            key = (id(spec), walk.state.hash, walk.last_actor, depth if walk.script is not None else 0)
            if key in walk.visited:
                return False
            walk.visited.add(key)
            if rest(walk):
                return True
            for worker in actors(walk):
                for to, victim, dest in candidates(walk, worker):
                    if walk.script is not None and not walk.admits(("move", worker, to), depth):
                        continue
                    if perform(walk, worker, to, victim, dest, repeated) and walk.stop_here(depth):
                        return True
            return False
        return repeated

    def step(walk: Walk) -> bool:
        if spec.optional and rest(walk):
            return True
        depth = len(walk.path)
        for worker in _scripted(walk, actors(walk), depth):
            for to, victim, dest in candidates(walk, worker):
                if walk.script is not None and not walk.admits(("move", worker, to), depth):
                    continue
                if perform(walk, worker, to, victim, dest, after) and walk.stop_here(depth):
                    return True
        return False
    return step


def _build_step(spec: StepSpec, after: StepFn, rest: StepFn, rules: SeatRules) -> StepFn:
    """A build step: the next piece on an unoccupied neighbouring space, or a dome at a lower
    level where a power allows it, within the step's constraints."""
    actors = _actors(spec)
    dome_anywhere = bool(rules.build_options)
    same = "same_space" in spec.constraints
    not_same = "not_same_space" in spec.constraints
    no_dome = "not_dome" in spec.constraints

    def candidates(walk: Walk, worker: int) -> list[Action]:
        st = walk.state
        heights, occupant, domes = st.heights, st.occupant, st.domes
        last = _last_build_square(walk) if (same or not_same) else -1
        found = []
        for square in NEIGHBOURS[st.worker_pos[worker]]:
            if occupant[square] >= 0 or domes[square]:
                continue
            if (same and square != last) or (not_same and square == last):
                continue
            height = heights[square]
            if height < 3:
                found.append(("build", worker, square))
                if dome_anywhere and not no_dome:
                    found.append(("dome", worker, square))
            elif not no_dome:
                found.append(("build", worker, square))
        return found

    def perform(walk: Walk, action: Action, then: StepFn) -> bool:
        st = walk.state
        _, worker, square = action
        height = st.heights[square]
        dome = action[0] == "dome" or height == 3
        if dome:
            st.set_dome(square, True)
        else:
            st.set_height(square, height + 1)
        walk.events.append(("build", worker, square, height + (not dome), dome))
        walk.path.append(action)
        previous_actor = walk.last_actor
        walk.last_actor = worker
        if walk.probe is not None:
            walk.probe(walk)
        stop = then(walk)
        walk.last_actor = previous_actor
        walk.path.pop()
        walk.events.pop()
        if dome:
            st.set_dome(square, False)
        else:
            st.set_height(square, height)
        return stop

    def each_candidate(walk: Walk, then: StepFn, depth: int) -> bool:
        if then is _finish and walk.found is not None and walk.probe is None:
            return final_builds(walk)
        for worker in _scripted(walk, actors(walk), depth):
            for action in candidates(walk, worker):
                if walk.script is not None and not walk.admits(action, depth):
                    continue
                if perform(walk, action, then) and walk.stop_here(depth):
                    return True
        return False

    height_keys, dome_keys = ZOBRIST.height, ZOBRIST.dome

    def final_builds(walk: Walk) -> bool:
        """The turn's last step, while enumerating: each build's outcome key is the current hash
        with that one square changed, so no build is applied (the hot path of every search)."""
        st = walk.state
        found, path, heights = walk.found, tuple(walk.path), st.heights
        for worker in actors(walk):
            for action in candidates(walk, worker):
                square = action[2]
                height = heights[square]
                if action[0] == "dome" or height == 3:
                    key = st.hash ^ dome_keys[square]
                else:
                    keys = height_keys[square]
                    key = st.hash ^ keys[height] ^ keys[height + 1]
                if key not in found:
                    found[key] = (*path, action)
        return False

    if spec.repeat:
        def repeated(walk: Walk) -> bool:
            depth = len(walk.path)
            key = (id(spec), walk.state.hash, walk.last_actor, depth if walk.script is not None else 0)
            if key in walk.visited:
                return False
            walk.visited.add(key)
            return rest(walk) or each_candidate(walk, repeated, depth)
        return repeated

    def step(walk: Walk) -> bool:
        if spec.optional and rest(walk):
            return True
        return each_candidate(walk, after, len(walk.path))
    return step

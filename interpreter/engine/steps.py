"""Step closures: each compiled step lists its candidates (the base action, the options of the
seat's powers, within the step's constraints and the restrictions in force), applies each one,
calls the rest of the chain, and undoes it."""

from __future__ import annotations

from collections.abc import Callable

from ...dsl.hooks import StepSpec
from ..model.board import ADJACENT, BEYOND, NEIGHBOURS, ZOBRIST
from .walk import Action, SeatRules, StepFn, Walk, finish, win_table

def use_step(name: str, rest: StepFn) -> StepFn:
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


_MOVE_VERBS, _BUILD_VERBS = ("move",), ("build", "dome")


def _squares(walk: Walk, origin: int, verbs: tuple[str, ...]) -> tuple[int, ...]:
    """The squares a step may reach from `origin`: all around it, or, while a written step is
    matched at this depth, only the one it names (none if it names another kind of step), so
    that checking a written turn does not list every candidate to throw all but one away."""
    script, depth = walk.script, len(walk.path)
    if script is None or depth >= len(script):
        return NEIGHBOURS[origin]
    want = script[depth]
    if want[0] not in verbs:
        return ()
    return (want[2],) if want[2] in ADJACENT[origin] else ()


def _first_visit(walk: Walk, spec: StepSpec, depth: int) -> bool:
    """A repeated step ('any number of times') can come back to a state it has been in; each
    (step, state, last actor) is explored once. When matching a written turn the depth counts
    too, since the same state may be passed through at two points of the written turn."""
    key = (id(spec), walk.state.hash, walk.last_actor, depth if walk.script is not None else 0)
    if key in walk.visited:
        return False
    walk.visited.add(key)
    return True


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


def move_step(spec: StepSpec, after: StepFn, rest: StepFn, rules: SeatRules) -> StepFn:
    """A move step: the base move, the move options of the seat's powers, the constraints of the
    step and the restrictions of other powers; a win ends the turn at once."""
    climb = rules.climb
    options = rules.move_options
    wins = win_table(rules.wins)
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
        for to in _squares(walk, origin, _MOVE_VERBS):
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
            # The candidate loop is written out here rather than shared with `step`: every
            # repetition is one more level of recursion, and a shared helper adds a frame to each.
            depth = len(walk.path)
            if not _first_visit(walk, spec, depth):
                return False
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


def build_step(spec: StepSpec, after: StepFn, rest: StepFn, rules: SeatRules) -> StepFn:
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
        for square in _squares(walk, st.worker_pos[worker], _BUILD_VERBS):
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
        if then is finish and walk.found is not None and walk.probe is None:
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
            return _first_visit(walk, spec, depth) and (rest(walk) or each_candidate(walk, repeated, depth))
        return repeated

    def step(walk: Walk) -> bool:
        if spec.optional and rest(walk):
            return True
        return each_candidate(walk, after, len(walk.path))
    return step

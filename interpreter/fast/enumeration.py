"""The enumeration of a turn's distinct outcomes, compiled a second time for speed.

The generic step chain (steps.py) serves every traversal of a turn: matching a written turn,
lookahead, listing the next steps, tracing. Enumeration, the search that agents, `turns` and the
bench spend their time in, needs none of that: no script to match, no event log, no probe. So
each program without a repeated step is compiled a second time, into a chain of nodes that:

* take what the steps' constraints read as arguments (the last actor, the last moved worker, the
  last build square, where each moved worker started) instead of scanning an event log;
* grow their turn from ready-made step tuples (actions.py);
* key the outcomes of the turn's last build by hash arithmetic, without applying them.

Steps that are not last are applied to the state and undone, as in the generic chain. The two
chains visit candidates in the same order, so they find the same outcomes in the same order with
the same turns; tests/test_fast_paths.py compares them on random positions.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NamedTuple

from ...dsl.vocabulary import Role, Verb
from ..chain.actions import actions
from ..chain.walk import Action, Walk
from ..model.board import ADJACENT, BEYOND, NEIGHBOURS, ZOBRIST
from ..model.state import GameState
from .shape import Constraint, FastRules, MoveIntoOpponent, Program, StepSpec, win_table

#: node(walk, path, actor, moved, built, moves): carry on a turn whose steps so far are `path`.
#: actor: the worker of the previous step (or -1); moved: the worker that moved last (or -1);
#: built: the square of the last build (or -1); moves: (worker, from) of each move so far.
Node = Callable[[Walk, tuple[Action, ...], int, int, int, tuple[tuple[int, int], ...]], None]
#: An enumeration's outcomes so far, key -> one turn (Walk.found, which an enumeration sets).
Found = dict[int, tuple[Action, ...]]

_BUILD_KEYS, _DOME_KEYS, _WINNER_KEYS = ZOBRIST.build, ZOBRIST.dome, ZOBRIST.winner
_WORKER_KEYS = ZOBRIST.worker
_NOWHERE: tuple[int, ...] = ()
#: LATER[s][a]: the squares around s that come after a in NEIGHBOURS[s].
_LATER = tuple(tuple(around[around.index(a) + 1:] if a in around else () for a in range(len(NEIGHBOURS)))
               for around in NEIGHBOURS)


class _BuildRule(NamedTuple):
    """What a build step's constraints and the seat's dome option allow, read once."""

    workers_of: Callable[[Walk, int, int], list[int] | tuple[int, ...]]
    optional: bool
    same: bool
    not_same: bool
    no_dome: bool
    low_domes: bool  # a dome on a lower level is a candidate too


def _build_rule(spec: StepSpec, rules: FastRules) -> _BuildRule:
    no_dome = Constraint.NOT_DOME in spec.constraints
    return _BuildRule(_chooser(spec), spec.optional, Constraint.SAME_SPACE in spec.constraints,
                      Constraint.NOT_SAME_SPACE in spec.constraints, no_dome,
                      bool(rules.build_options) and not no_dome)


def _build_squares(same: bool, origin: int, built: int) -> tuple[int, ...]:
    """Where a worker on `origin` may build: around it, or only on the last build's square."""
    if not same:
        return NEIGHBOURS[origin]
    return (built,) if built >= 0 and built in ADJACENT[origin] else _NOWHERE


def enumeration_chain(program: Program, rules: FastRules) -> Node | None:
    """The program's enumeration chain, or None when a step repeats ('any number of times' needs
    the generic chain's record of visited states)."""
    steps = [*program.steps, *(f.step for f in rules.followups)]
    if any(step.repeat for step in steps):
        return None
    after_verb = {verb: [f.step for f in rules.followups if f.after is verb] for verb in (Verb.MOVE, Verb.BUILD)}
    # moves that may precede each program step: from two on, one square can be reached in two
    # ways, and a node entered again in the same state is skipped (see `_once`)
    moves_before, count = [], 0
    for spec in program.steps:
        moves_before.append(count)
        count += sum(step.verb is Verb.MOVE for step in (spec, *after_verb[spec.verb]))
    chain: Node = record
    reads_moves = False  # whether a step from here on reads where a moved worker started
    for spec, before in zip(reversed(program.steps), reversed(moves_before), strict=True):
        chain, reads_moves = _step_node(spec, chain, rules, after_verb[spec.verb], before, reads_moves)
    if program.announced:
        chain = _use_node(program.name, chain)
    return chain


def record(walk: Walk, path: tuple[Action, ...], actor: int, moved: int, built: int,
           moves: tuple[tuple[int, int], ...]) -> None:
    """The end of a turn: its outcome, if not found before, with this turn."""
    found: Found
    found, key = walk.found, walk.state.hash  # type: ignore[assignment]  # (Found)
    if key not in found:
        found[key] = path


def _step_node(spec: StepSpec, rest: Node, rules: FastRules, followups: list[StepSpec], moves_before: int,
               reads_moves: bool) -> tuple[Node, bool]:
    """A program step followed by the seat's follow-ups of its verb (as Engine._compile_step),
    and whether a step from it on reads where moved workers started. Nodes that two moves or more
    may precede are entered once per state (`_once`)."""
    made_before = [moves_before + (spec.verb is Verb.MOVE)]
    for step in followups[:-1]:
        made_before.append(made_before[-1] + (step.verb is Verb.MOVE))
    after = rest
    # (strict=False: with no follow-up, made_before still has its one entry)
    for step, before in zip(reversed(followups), reversed(made_before), strict=False):
        after = _node(step, after, after, rules)
        reads_moves = reads_moves or Constraint.NOT_BACK_TO_START in step.constraints
        if before >= 2:
            after = _once(after, reads_moves)
    node = _node(spec, after, rest, rules)
    reads_moves = reads_moves or Constraint.NOT_BACK_TO_START in spec.constraints
    if moves_before >= 2:
        node = _once(node, reads_moves)
    return node, reads_moves


def _once(node: Node, reads_moves: bool) -> Node:
    """Enter `node` once per state and context. After two moves a worker can stand on one square
    by several paths; the subtree from there finds the same outcomes each time, so only its first
    visit can add any. The context is what the rest of the turn reads: where the last actor and
    the last moved worker stand, the last build square, and (if a step reads it) where each moved
    worker started. Squares, not worker numbers: interchangeable workers hash alike."""
    def once(walk: Walk, path: tuple[Action, ...], actor: int, moved: int, built: int,
             moves: tuple[tuple[int, int], ...]) -> None:
        position = walk.state.worker_pos
        key = (node, walk.state.hash, position[actor] if actor >= 0 else -1,
               position[moved] if moved >= 0 else -1, built,
               tuple((position[worker], start) for worker, start in moves) if reads_moves else None)
        if key not in walk.visited:
            walk.visited.add(key)
            node(walk, path, actor, moved, built, moves)
    once.visits, once.reads_moves = node, reads_moves  # type: ignore[attr-defined]
    if hasattr(node, "last_build"):  # a move before it may fuse with it, checking visits itself
        once.last_build = node.last_build  # type: ignore[attr-defined]
    return once


def _node(spec: StepSpec, after: Node, rest: Node, rules: FastRules) -> Node:
    if spec.verb is Verb.MOVE:
        return _move_node(spec, after, rest, rules)
    if after is record:
        return _last_build_node(spec, rest, rules)
    second = getattr(after, "last_build", None)
    if second is not None:
        return _build_pair_node(spec, second, rest, rules)
    return _build_node(spec, after, rest, rules)


def _use_node(name: str, rest: Node) -> Node:
    action = ("use", -1, name)

    def node(walk: Walk, path: tuple[Action, ...], actor: int, moved: int, built: int,
             moves: tuple[tuple[int, int], ...]) -> None:
        rest(walk, path + (action,), actor, moved, built, moves)
    return node


def _chooser(spec: StepSpec) -> Callable[[Walk, int, int], list[int] | tuple[int, ...]]:
    """Which workers may take the step: any of the team's, or the one an earlier step bound."""
    if spec.actor is Role.CHOSEN or spec.actor is Role.EACH:
        return lambda walk, actor, moved: walk.state.team_workers(walk.team)
    if spec.actor is Role.THAT:
        return lambda walk, actor, moved: (actor,) if actor >= 0 else ()
    return lambda walk, actor, moved: (moved,) if moved >= 0 else ()


def _move_node(spec: StepSpec, after: Node, rest: Node, rules: FastRules) -> Node:
    """As steps.move_step: the base move, the move options, the step's constraints and the
    restrictions in force; a winning move ends the turn."""
    climb, options, wins = rules.climb, rules.move_options, win_table(rules.wins)
    workers_of, optional = _chooser(spec), spec.optional
    not_up = Constraint.NOT_UP in spec.constraints
    level_only = Constraint.NOT_UP_OR_DOWN in spec.constraints
    not_back = Constraint.NOT_BACK_TO_START in spec.constraints

    last = getattr(after, "last_build", None)  # the turn's last build, fused with the move if it follows
    visits = getattr(after, "visits", None)  # `after` is entered once per state (see `_once`)
    if visits is not None and after.reads_moves:  # type: ignore[attr-defined]
        last = None  # (its key would need where each moved worker started: not fused)
    if last is not None:
        builders_of, build_optional, build_same, build_not_same, build_no_dome, build_low_domes = \
            _build_rule(last, rules)

    def builds_after_move(walk: Walk, turn: tuple[Action, ...], worker: int, origin: int, to: int, moved_key: int,
                          built: int, moved: int) -> None:
        """The last build after `worker` moved from `origin` to `to`, keyed from the moved hash
        without applying the move: `origin` is free, `to` is taken."""
        found: Found
        st, found = walk.state, walk.found  # type: ignore[assignment]  # (Found)
        heights, blocked, position = st.heights, st.blocked, st.worker_pos
        if build_optional and moved_key not in found:
            found[moved_key] = turn
        for builder in builders_of(walk, worker, moved):
            blocks, low = actions("build", builder), actions("dome", builder)
            for square in _build_squares(build_same, to if builder == worker else position[builder], built):
                if square != origin and (blocked[square] or square == to):
                    continue
                if build_not_same and square == built:
                    continue
                height = heights[square]
                if height == 3 and build_no_dome:
                    continue
                key = moved_key ^ _BUILD_KEYS[square][height]
                if key not in found:
                    found[key] = turn + (blocks[square],)
                if build_low_domes and height < 3:
                    key = moved_key ^ _DOME_KEYS[square]
                    if key not in found:
                        found[key] = turn + (low[square],)

    def node(walk: Walk, path: tuple[Action, ...], actor: int, moved: int, built: int,
             moves: tuple[tuple[int, int], ...]) -> None:
        if optional:
            rest(walk, path, actor, moved, built, moves)
        st, team = walk.state, walk.team
        heights, occupant, domes = st.heights, st.occupant, st.domes
        highest_up = not (not_up or walk.forbid_up)
        forbid_down = walk.forbid_down
        for worker in workers_of(walk, actor, moved):
            origin = st.worker_pos[worker]
            here = heights[origin]
            start = -1
            if not_back:
                start = next((square for mover, square in moves if mover == worker), origin)
            steps, moves_on, wins_from = actions("move", worker), (*moves, (worker, origin)), wins[here]
            worker_keys = _WORKER_KEYS[st.worker_class[worker]]
            for to in NEIGHBOURS[origin]:
                if domes[to]:
                    continue
                there = heights[to]
                if there - here > climb or (there > here and not highest_up):
                    continue
                if (level_only and there != here) or to == start or (forbid_down and there < here):
                    continue
                victim = occupant[to]
                if victim < 0 and last is not None:  # fused: nothing applied
                    moved_key = st.hash ^ worker_keys[origin] ^ worker_keys[to]
                    if wins_from[there]:
                        key = moved_key ^ _WINNER_KEYS[team]
                        if key not in walk.found:  # type: ignore[operator]  # (Found)
                            walk.found[key] = path + (steps[to],)  # type: ignore[index]
                        continue
                    if visits is not None:  # (_once's key: the mover is the actor and the moved)
                        seen = (visits, moved_key, to, to, built, None)
                        if seen in walk.visited:
                            continue
                        walk.visited.add(seen)
                    builds_after_move(walk, path + (steps[to],), worker, origin, to, moved_key, built, worker)
                    continue
                if victim >= 0:
                    if st.worker_team[victim] == team:
                        continue
                    dest = forced_destination(options, st, origin, to, here, there)
                    if dest < 0:
                        continue
                    st.lift(victim)
                    st.relocate(worker, to)
                    st.place(victim, dest)
                else:
                    st.relocate(worker, to)
                turn = path + (steps[to],)
                if wins_from[there]:
                    key = st.hash ^ _WINNER_KEYS[team]
                    if key not in walk.found:  # type: ignore[operator]  # (Found)
                        walk.found[key] = turn  # type: ignore[index]
                else:
                    after(walk, turn, worker, worker, built, moves_on)
                if victim >= 0:
                    st.lift(victim)
                    st.relocate(worker, origin)
                    st.place(victim, to)
                else:
                    st.relocate(worker, origin)
    return node


def forced_destination(options: Sequence[MoveIntoOpponent], st: GameState, origin: int, to: int, here: int,
                       there: int) -> int:
    """Where the first move option that allows moving into the opponent on `to` forces it, or -1
    (as steps.move_step decides it)."""
    for option in options:
        if option.same_or_lower and there > here:
            continue
        dest = origin if option.destination == "vacated" else BEYOND[origin][to]
        if dest != origin and (dest < 0 or st.occupant[dest] >= 0 or st.domes[dest]):
            continue
        return dest
    return -1


def _build_node(spec: StepSpec, after: Node, rest: Node, rules: FastRules) -> Node:
    """As steps.build_step, for a build that more steps may follow: each candidate is applied,
    the rest of the turn enumerated, and the build undone."""
    workers_of, optional, same, not_same, no_dome, low_domes = _build_rule(spec, rules)

    def node(walk: Walk, path: tuple[Action, ...], actor: int, moved: int, built: int,
             moves: tuple[tuple[int, int], ...]) -> None:
        if optional:
            rest(walk, path, actor, moved, built, moves)
        st = walk.state
        heights, blocked = st.heights, st.blocked
        for worker in workers_of(walk, actor, moved):
            blocks, low = actions("build", worker), actions("dome", worker)
            for square in _build_squares(same, st.worker_pos[worker], built):
                if blocked[square] or (not_same and square == built):  # (blocked: a worker or a dome)
                    continue
                height = heights[square]
                if height < 3:
                    st.set_height(square, height + 1)
                    after(walk, path + (blocks[square],), worker, moved, square, moves)
                    st.set_height(square, height)
                    if low_domes:
                        st.set_dome(square, True)
                        after(walk, path + (low[square],), worker, moved, square, moves)
                        st.set_dome(square, False)
                elif not no_dome:
                    st.set_dome(square, True)
                    after(walk, path + (blocks[square],), worker, moved, square, moves)
                    st.set_dome(square, False)
    return node


def _last_build_node(spec: StepSpec, rest: Node, rules: FastRules) -> Node:
    """As steps.build_step, for the turn's last step: each build's outcome key is the current
    hash with that one square changed, so no build is applied (the hot loop of a search)."""
    workers_of, optional, same, not_same, no_dome, low_domes = _build_rule(spec, rules)

    skip_ends_turn = rest is record

    def node(walk: Walk, path: tuple[Action, ...], actor: int, moved: int, built: int,
             moves: tuple[tuple[int, int], ...]) -> None:
        found: Found
        st, found = walk.state, walk.found  # type: ignore[assignment]  # (Found)
        heights, blocked, start = st.heights, st.blocked, st.hash
        if optional:
            if skip_ends_turn:  # (record, inlined)
                if start not in found:
                    found[start] = path
            else:
                rest(walk, path, actor, moved, built, moves)
        for worker in workers_of(walk, actor, moved):
            blocks, low = actions("build", worker), actions("dome", worker)
            for square in _build_squares(same, st.worker_pos[worker], built):
                if blocked[square] or (not_same and square == built):  # (blocked: a worker or a dome)
                    continue
                height = heights[square]
                if height == 3 and no_dome:
                    continue
                key = start ^ _BUILD_KEYS[square][height]  # a block, or the dome on level 3
                if key not in found:
                    found[key] = path + (blocks[square],)
                if low_domes and height < 3:
                    key = start ^ _DOME_KEYS[square]
                    if key not in found:
                        found[key] = path + (low[square],)
    if skip_ends_turn:
        node.last_build = spec  # type: ignore[attr-defined]  # (a build before it may fuse with it)
    return node


def _build_pair_node(spec: StepSpec, second: StepSpec, rest: Node, rules: FastRules) -> Node:
    """A build followed by the turn's last build (a follow-up such as 'may build one additional
    time'), fused: the outcomes of both are keyed by hash arithmetic and the first build is never
    applied. The second build sees the first's square one level higher, or blocked by its dome.
    Same order and turns as `_build_node` followed by `_last_build_node`."""
    workers_of, optional, same, not_same, no_dome, low_domes = _build_rule(spec, rules)
    (second_workers_of, second_optional, second_same, second_not_same, second_no_dome,
     second_low_domes) = _build_rule(second, rules)
    # The same worker builds twice, anywhere around it but not twice on one square, under the same
    # rules: then builds on a and b in either order are one outcome, and with a first the pair was
    # already found when b, earlier in the order, was first. The second build looks only later.
    commutes = (second.actor is Role.THAT and second_not_same and not (same or not_same or second_same)
                and no_dome == second_no_dome and low_domes == second_low_domes)

    def node(walk: Walk, path: tuple[Action, ...], actor: int, moved: int, built: int,
             moves: tuple[tuple[int, int], ...]) -> None:
        if optional:
            rest(walk, path, actor, moved, built, moves)
        found: Found
        st, found = walk.state, walk.found  # type: ignore[assignment]  # (Found)
        heights, blocked, position, start = st.heights, st.blocked, st.worker_pos, st.hash
        for worker in workers_of(walk, actor, moved):
            blocks, low = actions("build", worker), actions("dome", worker)
            for square in _build_squares(same, position[worker], built):
                if blocked[square] or (not_same and square == built):  # (blocked: a worker or a dome)
                    continue
                height = heights[square]
                if height < 3:
                    firsts = [(blocks[square], start ^ _BUILD_KEYS[square][height], False)]
                    if low_domes:
                        firsts.append((low[square], start ^ _DOME_KEYS[square], True))
                elif not no_dome:
                    firsts = [(blocks[square], start ^ _BUILD_KEYS[square][3], True)]
                else:
                    continue
                for action, first_key, domed in firsts:
                    turn = path + (action,)
                    if second_optional and first_key not in found:
                        found[first_key] = turn
                    for builder in second_workers_of(walk, worker, moved):
                        blocks2, low2 = (blocks, low) if builder == worker else \
                            (actions("build", builder), actions("dome", builder))
                        for there in (_LATER[position[builder]][square] if commutes else
                                      _build_squares(second_same, position[builder], square)):
                            if there == square:
                                if domed or second_not_same:
                                    continue
                                level = height + 1
                            elif blocked[there]:
                                continue
                            else:
                                level = heights[there]
                            if level == 3 and second_no_dome:
                                continue
                            key = first_key ^ _BUILD_KEYS[there][level]
                            if key not in found:
                                found[key] = turn + (blocks2[there],)
                            if second_low_domes and level < 3:
                                key = first_key ^ _DOME_KEYS[there]
                                if key not in found:
                                    found[key] = turn + (low2[there],)
    return node

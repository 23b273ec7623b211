"""The context of one traversal of a turn's decision tree, and what every step shares.

Actions are tuples: ("move", worker, square), ("build", worker, square) (the next piece, a dome
on level 3), ("dome", worker, square) (a dome at a lower level), ("use", -1, name).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ...dsl.hooks import FollowUp, Power, Program
from ..model.state import GameState

Action = tuple
StepFn = Callable[["Walk"], bool]


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
            return same_step(self.state, script[depth], action)
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


def stop(walk: Walk) -> bool:
    return True


def finish(walk: Walk) -> bool:
    return walk.leaf(walk)


def same_step(state: GameState, want: Action, action: Action) -> bool:
    """Whether a step as written is this action: equal, or 'dome' on a level-3 space for
    'build' there (the same step, spec: turn notation), or a `use` name in another case."""
    if want == action:
        return True
    if want[0] == "use":
        return action[0] == "use" and want[2].lower() == action[2].lower()
    return (want[0] == "dome" and action[0] == "build" and want[1:] == action[1:]
            and state.heights[action[2]] == 3)


def win_table(wins: list[tuple[str, int]]) -> tuple[tuple[bool, ...], ...]:
    """WIN[from_height][to_height]: whether a move between those levels wins for the seat."""
    return tuple(tuple(any((kind == "up_onto_level" and here < there == amount)
                           or (kind == "down_at_least" and here - there >= amount)
                           for kind, amount in wins) for there in range(4)) for here in range(4))

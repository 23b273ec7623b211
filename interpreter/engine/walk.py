"""The context of one traversal of a turn's decision tree, and what every step shares.

Actions are tuples: ("move", worker, square), ("build", worker, square) (the next piece, a dome
on level 3), ("dome", worker, square) (a dome at a lower level), ("use", -1, name).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from ..model.state import GameState

if TYPE_CHECKING:
    from ..derived.tally import Tally

Action = tuple
StepFn = Callable[["Walk"], bool]


class Walk:
    """The mutable context of one traversal of a turn's decision tree."""

    __slots__ = ("state", "seat", "team", "path", "events", "last_actor", "script", "frontier",
                 "complete", "leaf", "visited", "forbid_up", "forbid_down", "result", "probe", "found",
                 "banned", "keyed_by_board", "pending", "domelike", "wins_only", "prefix_tests", "fact_key", "memo", "tally", "listed")

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
        #: The prohibitions in force on this turn, by verb: tests a candidate step must fail.
        self.banned: dict = {}
        #: Whether an outcome is the board alone (no fact of the turn is read later), so that a
        #: last build may be keyed by hash arithmetic.
        self.keyed_by_board = True
        #: For a step that each of the player's workers takes: the workers yet to take it.
        self.pending: dict = {}
        #: The squares this turn's player treats as if they held only a dome (tokens), set at the
        #: start of the turn.
        self.domelike: frozenset = frozenset()
        #: A search for a winning turn only (Engine.can_win): the derived code may skip the
        #: outcomes that cannot win (a last build keyed by hash arithmetic), and no leaf stops it.
        self.wins_only = False
        #: Obligations that a build cannot change (derived/invariance.py), in force this turn:
        #: the derived code judges them once before a last build keyed by hash arithmetic (a
        #: test answers None when it cannot judge yet: the builds are then made and judged).
        self.prefix_tests: tuple = ()
        #: The bits of the facts of the turn that a rule reads later, where no build changes them:
        #: the derived code adds them to the keys of a last build (Engine._start_turn).
        self.fact_key: Callable[[Walk], int] | None = None
        #: Whether the derived code may enter a step once per state and context (derived/steps.py,
        #: _wrap): in an enumeration whose leaf reads no more of the turn than its outcome.
        self.memo = False
        #: In a random draw, the count of the turn's outcomes (derived/tally.py): the derived code
        #: gives it the squares of a keyed last build as bits instead of listing them.
        self.tally: Tally | None = None
        #: In a listing, each turn found -> its events and the team it makes win, so that a turn
        #: played from the list is not walked again (Engine.turns).
        self.listed: dict[tuple, tuple[tuple, int | None]] | None = None

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

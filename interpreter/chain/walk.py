"""The context of one traversal of a turn's decision tree, and what every step shares.

Actions are tuples: ("move", worker, square), ("build", worker, square) (the next piece, a dome
on level 3), ("dome", worker, square) (a dome at a lower level), ("use", -1, name).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from ..model.state import Action as Action
from ..model.state import Event as Event
from ..model.state import GameState

if TYPE_CHECKING:
    from ...dsl.vocabulary import Verb
    from .conditions import Test

#: One step of a turn's chain: True when the traversal should stop (see `Walk.stop_here`).
StepFn = Callable[["Walk"], bool]
#: A test of a turn so far that may not be able to judge it yet (None), as `Walk.prefix_tests` holds.
PrefixTest = Callable[..., "bool | None"]


class Walk:
    """The mutable context of one traversal of a turn's decision tree."""

    __slots__ = ("state", "seat", "team", "path", "events", "last_actor", "script", "frontier",
                 "complete", "leaf", "visited", "forbid_up", "forbid_down", "result", "probe", "found",
                 "banned", "keyed_by_board", "pending", "domelike", "wins_only", "prefix_tests", "fact_key", "memo",
                 "tally", "listed", "legal", "log_context", "declined")

    def __init__(self, state: GameState, leaf: Callable[[Walk], bool],
                 script: Sequence[Action] | None = None, frontier: set[Action] | None = None) -> None:
        self.state = state
        self.seat = state.to_move
        self.team = state.seats[self.seat].team
        self.path: list[Action] = []
        self.events: list[Event] = []
        self.last_actor = -1
        self.script = script
        self.frontier = frontier
        self.complete = False
        self.leaf = leaf
        self.visited: set[tuple[object, ...]] = set()
        self.forbid_up = False
        self.forbid_down = False
        self.result: tuple[tuple[Event, ...], int | None] | None = None
        self.probe: Callable[[Walk], None] | None = None
        #: In enumeration, the outcomes found so far (key -> one turn); a final step may then add
        #: its outcomes by hash arithmetic instead of applying and undoing each candidate.
        self.found: dict[int, tuple[Action, ...]] | None = None
        #: The prohibitions in force on this turn, by verb: tests a candidate step must fail.
        self.banned: dict[Verb, tuple[Test, ...]] = {}
        #: Whether an outcome is the board alone (no fact of the turn is read later), so that a
        #: last build may be keyed by hash arithmetic.
        self.keyed_by_board = True
        #: For a step that each of the player's workers takes: the workers yet to take it.
        self.pending: dict[StepFn, tuple[int, ...]] = {}
        #: The squares this turn's player treats as if they held only a dome (tokens), set at the
        #: start of the turn.
        self.domelike: frozenset[int] = frozenset()
        #: A search for a winning turn only (Engine.can_win): the derived code may skip the
        #: outcomes that cannot win (a last build keyed by hash arithmetic), and no leaf stops it.
        self.wins_only = False
        #: Obligations that a build cannot change (derived/invariance.py), in force this turn:
        #: the derived code judges them once before a last build keyed by hash arithmetic (a
        #: test answers None when it cannot judge yet: the builds are then made and judged).
        self.prefix_tests: tuple[PrefixTest, ...] = ()
        #: The bits of the facts of the turn that a rule reads later, where no build changes them:
        #: the derived code adds them to the keys of a last build (Engine._start_turn).
        self.fact_key: Callable[[Walk], int] | None = None
        #: Whether the derived code may enter a step once per state and context (derived/steps.py,
        #: _wrap): in an enumeration whose leaf reads no more of the turn than its outcome.
        self.memo = False
        #: In a random draw, the count of the turn's outcomes (derived/tally.py's Tally): the
        #: derived code gives it the squares of a keyed last build as bits instead of listing
        #: them. The chain only carries it (it knows nothing of the speed layers that build on it).
        self.tally: object | None = None
        #: In a listing, each turn found -> its events and the team it makes win, so that a turn
        #: played from the list is not walked again (Engine.turns).
        self.listed: dict[tuple[Action, ...], tuple[tuple[Event, ...], int | None]] | None = None
        #: A written turn the engine found legal for this state itself (a random draw): the
        #: obligations other seats lay on it are not judged again (Engine._apply_found).
        self.legal = False
        #: What of the turn's log its judgement reads beyond the state (chain/conditions.py's
        #: `log_context`), where an obligation or a fact of the turn reads it: two ways to one
        #: state that differ there are two states to a search that visits each once.
        self.log_context: Callable[[Walk], object] | None = None
        #: The leaf a declined additional turn (`pass`) ends at, where the obligations other seats
        #: lay on turns wrap `leaf` (Engine's root): a turn not taken is not bound by them.
        self.declined: Callable[[Walk], bool] | None = None

    def admits(self, action: Action, depth: int) -> bool:
        """Whether the script (if any) lets this action be the step at `depth`."""
        script = self.script
        assert script is not None  # (asked only while a written turn is matched)
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
        if self.frontier is None:
            return True
        script = self.script
        assert script is not None  # (a frontier is searched past a written beginning)
        return depth != len(script)


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
        name: str = want[2]
        return action[0] == "use" and name.lower() == action[2].lower()
    return (want[0] == "dome" and action[0] == "build" and want[1:] == action[1:]
            and state.heights[action[2]] == 3)

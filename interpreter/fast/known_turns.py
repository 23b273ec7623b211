"""Playing a turn that the engine itself has just found legal, without searching for it again.

`Engine.accept` checks a turn by running the step chain with the turn as a script, which is the
right thing for a turn from outside. A turn drawn from the engine's own enumeration of this very
state is legal by construction; it only needs its events, which follow from its steps: this
module applies the steps one by one and logs the events the step chain would log for them.
tests/test_fast_paths.py compares the result with the generic chain's on random positions.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..chain.walk import Action
from ..model.state import Event, GameState
from .plain import _Moves
from .shape import FastRules, win_table


class KnownTurnPlayer:
    """Applies a seat's known-legal turns: the seat's move options and wins, gathered once."""

    def __init__(self, rules: FastRules) -> None:
        self.moves = _Moves(rules)  # (where a move into an opponent forces it: as the fast paths decide it)
        self.wins = win_table(rules.wins)

    def apply(self, state: GameState, steps: Sequence[Action]) -> tuple[tuple[Event, ...], bool]:
        """Change `state` by the turn's steps; returns its events and whether it won."""
        events: list[Event] = []
        for verb, worker, target in steps:
            if verb == "use":
                events.append(("use", -1, target))
            elif verb == "move":
                origin = state.worker_pos[worker]
                here, there = state.heights[origin], state.heights[target]
                victim = state.occupant[target]
                events.append(("move", worker, origin, target, here, there))
                forced = self.moves.force(state, origin, target, state.worker_team[worker]) if victim >= 0 else None
                if forced is not None:  # a move option forces the opponent away (the turn is legal)
                    dest = forced[1]
                    state.lift(victim)
                    state.relocate(worker, target)
                    state.place(victim, dest)
                    events.append(("force", victim, target, dest))
                else:
                    state.relocate(worker, target)
                if self.wins[here][there]:
                    return tuple(events), True
            else:
                height = state.heights[target]
                dome = verb == "dome" or height == 3
                if dome:
                    state.set_dome(target, True)
                else:
                    state.set_height(target, height + 1)
                events.append(("build", worker, target, height + (not dome), dome))
        return tuple(events), False

"""Monte Carlo tree search (UCT) with random playouts, for any cards and any number of seats.

The budget is a number of iterations, not seconds, so that a result does not depend on the
machine that played it. The moves are the rules' own distinct outcomes (`engine.turns`); the
playouts are the engine's (`engine.playout`), the loop random games use.

Each iteration copies the root state once and plays down the tree on that copy
(`engine.play_in_place`), then plays the playout on it: no node holds a state. A node stores the
turn that leads to it and the team that chose it; its reward is that team's (1 for a win, 0 for
a loss, a share for a game with no winner), so that with three or more teams each node is
judged by whoever chose it.

A position in which the seat to move can win at once is scored as won by its team, without a
playout (`engine.can_win`, once per new node): a random playout from there would throw the win
away most of the time, and a search that cannot see a threatened win in one does not block it.
For the same reason the agent plays a win in one without searching, and stops searching when a
turn of its own is a sure win (it leaves the other seats no turn).
"""

from __future__ import annotations

import math
import random

from ..engine.engine import Engine
from ..model.state import GameState
from .base import AgentError, SeatView, Turn, ViewAgent
from .tactics import winning_turns

__all__ = ["MctsAgent"]

#: A node whose game ends with no winner (every seat left passes).
NO_WINNER = -1


class _Node:
    """A turn in the tree: who chose it, how often it was tried and what it earned them."""

    __slots__ = ("turn", "team", "visits", "reward", "children", "untried", "winner", "settles")

    def __init__(self, turn: Turn | None, team: int) -> None:
        self.turn = turn
        self.team = team
        self.visits = 0
        self.reward = 0.0
        self.children: list[_Node] = []
        #: The turns not tried yet from here (None until the node is first expanded).
        self.untried: list[Turn] | None = None
        #: The team that has won here (NO_WINNER: the game is over with none); None: play goes on.
        self.winner: int | None = None
        #: How many stuck seats are settled after the turn, before the next seat plays.
        self.settles = 0


class MctsAgent(ViewAgent):
    """UCT: `iterations` descents of the tree per turn, each ended by one random playout of at
    most `playout_limit` turns. `exploration` is the UCB1 constant (rewards lie in 0..1).
    Deterministic for a given generator."""

    def __init__(self, iterations: int = 400, rng: random.Random | None = None, exploration: float = 1.0,
                 playout_limit: int = 200) -> None:
        super().__init__(rng)
        if iterations < 1:
            raise AgentError(f"MCTS needs at least 1 iteration, not {iterations}")
        self.iterations = iterations
        self.exploration = exploration
        self.playout_limit = playout_limit

    def choose(self, view: SeatView) -> Turn:
        turns = view.turns()
        if len(turns) == 1:
            return turns[0]
        engine, start = view.engine, view.state
        wins = winning_turns(engine, start, turns)
        if wins:  # the root as a won position: no search needed
            return self.rng.choice(wins)
        root = _Node(None, view.team)
        root.untried = self._shuffled(turns)
        rngs = [self.rng] * len(start.seats)
        share = 1.0 / len(start.teams_in_play())
        for _ in range(self.iterations):
            won = self._iterate(view, engine, start.copy(), root, rngs, share)
            if won is not None:  # a turn that wins for sure (it leaves the others no turn)
                return won
        best = max(root.children, key=lambda child: (child.visits, child.reward))
        assert best.turn is not None  # (only the root has no turn)
        return best.turn

    def _iterate(self, view: SeatView, engine: Engine, state: GameState, root: _Node,
                 rngs: list[random.Random], share: float) -> Turn | None:
        """One iteration on `state`, the root's copy: select, expand, play out, back up.
        Returns the root's new child's turn if that turn is a sure win."""
        node, path = root, [root]
        while node.winner is None and node.untried is not None and not node.untried:
            node = self._select(node)
            engine.play_in_place(state, node.turn)  # type: ignore[arg-type]
            for _ in range(node.settles):
                view.settle_stuck(state)
            path.append(node)
        if node.winner is None:
            if node.untried is None:
                node.untried = self._shuffled(engine.turns(state))
            turn = node.untried.pop()
            child = _Node(turn, state.seats[state.to_move].team)
            engine.play_in_place(state, turn)
            self._arrive(view, engine, state, child)
            if node is root and child.winner == root.team:
                return turn
            node.children.append(child)
            path.append(child)
            node = child
        winner = node.winner if node.winner is not None else self._playout(view, engine, state, rngs)
        for step in path:
            step.visits += 1
            if winner == step.team:
                step.reward += 1.0
            elif winner == NO_WINNER:
                step.reward += share
        return None

    def _select(self, node: _Node) -> _Node:
        """The child with the highest UCB1 score (the first of equals)."""
        spread = self.exploration * math.sqrt(math.log(node.visits))
        best, best_score = node.children[0], -1.0
        for child in node.children:
            score = child.reward / child.visits + spread / math.sqrt(child.visits)
            if score > best_score:
                best, best_score = child, score
        return best

    @staticmethod
    def _arrive(view: SeatView, engine: Engine, state: GameState, node: _Node) -> None:
        """After a new node's turn: settle the seats that cannot complete a turn (at most one
        round of them: seats that only pass do not go round for ever), then judge the position:
        over, or won by the seat to move if it can win at once, or open."""
        while state.winner is None and not engine.has_turn(state):
            if node.settles == len(state.seats):
                node.winner = NO_WINNER
                return
            view.settle_stuck(state)
            node.settles += 1
        if state.winner is not None:
            node.winner = state.winner
        elif engine.can_win(state):
            node.winner = state.seats[state.to_move].team

    def _playout(self, view: SeatView, engine: Engine, state: GameState, rngs: list[random.Random]) -> int:
        """Random turns to the end of the game, or `playout_limit` turns (NO_WINNER). A seat with
        no turn is settled as the rules say, and play goes on."""
        left = self.playout_limit
        while True:
            left -= len(engine.playout(state, rngs, left))
            if state.winner is not None:
                return state.winner
            if left <= 0:
                return NO_WINNER
            view.settle_stuck(state)
            left -= 1
            if state.winner is not None:
                return state.winner

    def _shuffled(self, turns: tuple[Turn, ...] | list[Turn]) -> list[Turn]:
        order = list(turns)
        self.rng.shuffle(order)
        return order

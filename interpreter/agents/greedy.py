"""The greedy agent: one turn of sight. It wins when it can, does not hand the next seat a win
in one when it can help it, and otherwise plays at random: the simplest opponent that punishes a
blunder, and a yardstick between random play and search."""

from __future__ import annotations

from ..games.game import Game
from .base import AgentError, SeatView, Turn, ViewAgent
from .tactics import first_at_random, gives_a_win, wins_at_once

__all__ = ["GreedyAgent"]


class GreedyAgent(ViewAgent):
    """A winning turn if there is one (at random among them); else a random turn among those
    after which the next seat cannot win at once; else (every turn loses) any random turn.
    Seeded with a random.Random: the same generator gives the same game. Each pick takes the
    first turn that qualifies in a random order of the turns (`first_at_random`): the same
    uniform pick as choosing among all that qualify, with only the turns looked at made and
    played on copies."""

    def turn(self, game: Game) -> Turn | None:
        """The loop's question, answered without asking first whether the seat has a turn (the
        random order of its turns is empty where it has none: None, which the loop settles)."""
        if game.state.winner is not None:
            return None
        return self._pick(SeatView(game, game.state.to_move))

    def choose(self, view: SeatView) -> Turn:
        picked = self._pick(view)
        if picked is None:
            raise AgentError("the greedy agent was asked to choose for a seat with no turn")
        return picked

    def _pick(self, view: SeatView) -> Turn | None:
        state, engine, rng = view.state, view.engine, self.rng
        if engine.can_win(state):
            win = first_at_random(view.turns_in_random_order(rng), wins_at_once(engine, state))
            if win is not None:
                return win
        safe = first_at_random(view.turns_in_random_order(rng), lambda turn: not gives_a_win(engine, state, turn))
        return safe if safe is not None else next(view.turns_in_random_order(rng), None)

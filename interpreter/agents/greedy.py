"""The greedy agent: one turn of sight. It wins when it can, does not hand the next seat a win
in one when it can help it, and otherwise plays at random: the simplest opponent that punishes a
blunder, and a yardstick between random play and search."""

from __future__ import annotations

from .base import SeatView, Turn, ViewAgent
from .tactics import gives_a_win, winning_turns

__all__ = ["GreedyAgent"]


class GreedyAgent(ViewAgent):
    """A winning turn if there is one (at random among them); else a random turn among those
    after which the next seat cannot win at once; else (every turn loses) any random turn.
    Seeded with a random.Random: the same generator gives the same game."""

    def choose(self, view: SeatView) -> Turn:
        state, engine, turns = view.state, view.engine, view.turns()
        wins = winning_turns(engine, state, turns)
        if wins:
            return self.rng.choice(wins)
        safe = [turn for turn in turns if not gives_a_win(engine, state, turn)]
        return self.rng.choice(safe or list(turns))

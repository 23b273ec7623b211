"""One-turn tactics shared by the agents: the turns that win at once, the turns that leave the
next seat a win in one. Each is judged by playing the turn on a copy of the state, so they hold
for any cards (a win by a power, a loss by a power, a build that wins)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from ..engine.engine import Engine
from ..model.state import GameState
from .base import Turn

__all__ = ["after", "first_at_random", "gives_a_win", "wins_at_once", "winning_turns"]


def after(engine: Engine, state: GameState, turn: Turn) -> GameState:
    """A copy of the state with the turn played (the state itself is left as it was)."""
    copy = state.copy()
    engine.play_in_place(copy, turn)
    return copy


def first_at_random(turns: Iterable[Turn], wanted: Callable[[Turn], bool]) -> Turn | None:
    """The first of `turns` (in a uniformly random order: `SeatView.turns_in_random_order`)
    that is `wanted`, None where none is: a uniform pick among the wanted turns.

    Why not filter, then choose: the first of a random order that has a property is uniform
    among those that have it, and a turn is judged (played on a copy) only until one is found,
    and made only then. A power may give a seat hundreds of turns, most of them wanted."""
    for turn in turns:
        if wanted(turn):
            return turn
    return None


def wins_at_once(engine: Engine, state: GameState) -> Callable[[Turn], bool]:
    """Whether a turn of the seat to move makes its team win at once."""
    team = state.seats[state.to_move].team
    return lambda turn: after(engine, state, turn).winner == team


def winning_turns(engine: Engine, state: GameState, turns: Sequence[Turn]) -> list[Turn]:
    """The turns with which the seat to move wins at once (its team: a turn that makes another
    team win is no win). `engine.can_win` answers first, since most positions have none."""
    if not engine.can_win(state):
        return []
    wins = wins_at_once(engine, state)
    return [turn for turn in turns if wins(turn)]


def gives_a_win(engine: Engine, state: GameState, turn: Turn) -> bool:
    """Whether, after the turn, some other team has won or the next seat to move (if it is not a
    teammate) can win at once. Only the next seat is asked: with three or more seats, a win two
    seats on is beyond one turn's sight."""
    team = state.seats[state.to_move].team
    played = after(engine, state, turn)
    if played.winner is not None:
        return played.winner != team
    return played.seats[played.to_move].team != team and engine.can_win(played)

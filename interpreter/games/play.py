"""Whole games: agents choose placements and turns, the loop applies them and logs the game.

Agents see the game and answer with steps; the loop owns the rules (placement legality, turn
legality through the engine, loss when stuck). A random agent picks uniformly among the distinct
outcomes of the turn, seeded, so a seed gives the same game byte for byte.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol, cast, runtime_checkable

from ...dsl.errors import SantoriniError
from ..model.board import square_name
from ..model.notation import format_turn
from ..model.state import Action, GameState, TurnRecord
from .game import Game, end_of_setup, free_squares, place_workers, placing_seats, settle_stuck
from .setup import legal_placements, seat_setup, token_round


@dataclass(frozen=True)
class TakeBack:
    """An agent's answer instead of a turn: take back the last turn of `seat` and every turn
    played after it, so that the seat is to move again where it was before that turn (a human
    taking back a turn against a bot). The loop does it (`play_turns`) only for a seat that has a
    turn in the game's log; an agent learns how many it has through `TakesBack`."""

    seat: int


class Agent(Protocol):
    def placement(self, game: Game, seat: int) -> list[int]:
        """The squares on which the seat's workers are placed."""

    def turn(self, game: Game) -> tuple[Action, ...] | TakeBack | None:
        """A whole legal turn for the seat to move, or None if it has none (or TakeBack)."""


@runtime_checkable
class TakesBack(Protocol):
    """An agent that may answer TakeBack: before each of its turns the loop tells it how many
    turns of its seat the log holds, since only those can be taken back."""

    def may_take_back(self, turns: int) -> None:
        """`turns`: the seat's own turns in the log (0: TakeBack would be refused)."""


class NothingToTakeBack(SantoriniError):
    """TakeBack from a seat that has no turn in the game's log: an agent's fault, not a move."""


class GameStopped(SantoriniError):
    """The game was stopped before it ended (a player quit, the input ended); the message says
    why, and the log holds the game so far (`stopped`)."""


def stopped(log: GameLog, why: str) -> None:
    """Mark the log of a game stopped before its end: no winner, and the reason (what a record
    of an unfinished game says, so that a reader knows it did not end on the board)."""
    log.winner = None
    log.reason = f"stopped before the end: {why}"


class RandomAgent:
    """Uniform over free squares for placement, uniform over distinct outcomes for turns."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def placement(self, game: Game, seat: int) -> list[int]:
        if seat_setup(game, seat).plain and not token_round(game, seat):
            return self.rng.sample(free_squares(game.state), game.workers_for(seat))
        return list(self.rng.choice(legal_placements(game, seat)))

    def turn(self, game: Game) -> tuple[Action, ...] | None:
        """Drawn among the outcomes the seat to move sees (its view: engine.view)."""
        state = game.state
        return game.engine.random_turn(game.engine.view(state, state.to_move), self.rng)


@dataclass
class GameLog:
    """What happened: placements and turns, and the result. Turns are kept as steps and written
    in notation when read (worker names never change in a game), which keeps writing text out of
    the game loop."""

    state: GameState
    placements: list[str] = field(default_factory=list)
    turn_steps: list[tuple[Action, ...]] = field(default_factory=list)
    winner: str | None = None
    reason: str = ""
    #: What happened to each seat that could not complete a turn, in order ("seat C cannot
    #: complete a turn and is out"): with three or more teams, the game goes on after them.
    stuck: list[str] = field(default_factory=list)
    #: The seats that left the game (three or more teams), in order, with the number of turns
    #: played when each left.
    out: list[tuple[str, int]] = field(default_factory=list)

    @property
    def turns(self) -> list[str]:
        return [format_turn(self.state, steps) for steps in self.turn_steps]

    def __eq__(self, other: object) -> bool:
        return isinstance(other, GameLog) and (self.placements, self.turns, self.winner, self.reason, self.stuck) == \
            (other.placements, other.turns, other.winner, other.reason, other.stuck)


def win_reason(game: Game) -> str:
    """Why the last turn won: the winning move, or what else ended the game."""
    state = game.state
    record = state.history[-1]
    moves = [e for e in record.events if e[0] == "move"]
    mover_team = state.seats[record.seat].team
    if any(e[0] == "lose" for e in record.events):
        losers = ", ".join(state.team_letters[e[1]] for e in record.events if e[0] == "lose")
        return f"{losers} lost by a power during the turn"
    if state.winner != mover_team or (moves and record.events[-1][0] == "build") or not moves:
        last = record.events[-1] if record.events else None
        if last is not None and last[0] == "build":
            return f"the build on {square_name(last[2])} made a win condition true"
        return "the turn won"
    _, worker, origin, to, here, there = moves[-1]
    name = state.worker_name(worker)
    return (f"{name} moved from {square_name(origin)} (level {here}) to {square_name(to)} "
            f"(level {there})")


def run_game(game: Game, agents: Sequence[Agent], on_placement: Callable[[Game, int, str], None] | None = None,
             on_turn: Callable[[Game, int, str], None] | None = None, max_turns: int = 1000,
             on_stuck: Callable[[Game, int, str], None] | None = None,
             on_take_back: Callable[[Game, int, list[str]], None] | None = None) -> GameLog:
    """Place workers, then play turns until a team wins (by a win condition, or because every
    other team is stuck: with three or more teams, a stuck team is out and the others play on).
    `on_stuck(game, seat, what happened)` hears of each seat that cannot complete a turn."""
    log = GameLog(game.state)
    place_all(game, agents, log, on_placement)
    return play_turns(game, agents, log, on_turn, max_turns, on_stuck, on_take_back)


def place_all(game: Game, agents: Sequence[Agent], log: GameLog,
              on_placement: Callable[[Game, int, str], None] | None = None) -> None:
    """The setup: each placing seat's agent places its workers, in order, and the first seat to
    move is set (the first half of `run_game`)."""
    for seat in placing_seats(game):
        steps = place_workers(game, seat, agents[seat].placement(game, seat))
        text = format_turn(game.state, steps)
        log.placements.append(text)
        if on_placement:
            on_placement(game, seat, text)
    end_of_setup(game)


def play_turns(game: Game, agents: Sequence[Agent], log: GameLog,
               on_turn: Callable[[Game, int, str], None] | None = None,
               max_turns: int = 1000, on_stuck: Callable[[Game, int, str], None] | None = None,
               on_take_back: Callable[[Game, int, list[str]], None] | None = None) -> GameLog:
    """The turns of a game whose workers are placed, until it ends (the second half of
    `run_game`, for callers that set up once and play many games from copies). An agent that
    answers TakeBack has turns taken back (`_take_back`); `on_take_back(game, seat, the turns
    taken back)` hears of it."""
    state = game.state  # played in place: the same object, but for a turn taken back
    engine = game.engine
    # (the engine's loop of random turns draws on the whole state: where a card hides a piece, each
    # seat draws on its own view, turn by turn: RandomAgent.turn)
    rngs = None if on_turn or engine.secrets else _random_generators(agents)
    start = None if rngs is not None else _Start(state.copy(), len(log.turn_steps), len(log.stuck), len(log.out))
    left = max_turns  # turns, and passes of a stuck seat that does not lose
    takes_back = [isinstance(agent, TakesBack) for agent in agents]  # (asked once: a protocol's check is slow)
    while left and state.winner is None:
        if rngs is not None:  # random players only: the engine plays their turns in one loop
            before = len(log.turn_steps)
            engine.playout(state, rngs, left, log.turn_steps)  # (added to the log as they are played)
            left -= len(log.turn_steps) - before
            if state.winner is not None:
                log.reason = win_reason(game)
            elif left:  # the seat to move has no turn
                log.reason = _settle(game, log, on_stuck)
                left -= 1
            continue
        seat = state.to_move
        agent = agents[seat]
        if start is not None and takes_back[seat]:
            cast(TakesBack, agent).may_take_back(sum(1 for record in _log_records(state, log, start)
                                                     if record.seat == seat))
        steps = agent.turn(game)
        if isinstance(steps, TakeBack):
            assert start is not None  # (a RandomAgent never takes back)
            taken = _take_back(game, log, start, steps.seat)
            state = game.state
            left = max_turns - (len(log.turn_steps) - start.turns) - (len(log.stuck) - start.stuck)
            if on_take_back:
                on_take_back(game, steps.seat, taken)
            continue
        if steps is None:
            log.reason = _settle(game, log, on_stuck)
        else:
            steps = engine.play_chosen(state, steps)  # (chosen on the seat's view: engine/views.py)
            log.turn_steps.append(steps)
            if on_turn:
                on_turn(game, seat, format_turn(state, steps))
            if state.winner is not None:
                log.reason = win_reason(game)
        left -= 1
    if state.winner is not None:
        log.winner = state.team_letters[state.winner]
    else:
        log.reason = f"no winner after {max_turns} turns"
    return log


@dataclass(frozen=True)
class _Start:
    """Where `play_turns` began: a copy of the state, and the log's lengths then (what a game
    rebuilt after a turn taken back starts from)."""

    state: GameState
    turns: int
    stuck: int
    out: int


def _log_records(state: GameState, log: GameLog, start: _Start) -> list[TurnRecord]:
    """The state's records of the turns played since `start` (the log's turns since then: the
    history before them is the position's, a scenario's turns for one)."""
    played = len(log.turn_steps) - start.turns
    return state.history[len(state.history) - played:] if played else []


def _take_back(game: Game, log: GameLog, start: _Start, seat: int) -> list[str]:
    """Take back the seat's last turn in the log and every turn after it: the game is rebuilt
    from `start` by playing the turns kept (and settling stuck seats between them, as the game
    did), so the state, the log and a record made from it are those of a game in which the
    turns taken back were never played. Returns them, in notation."""
    records = _log_records(game.state, log, start)
    mine = [index for index, record in enumerate(records) if record.seat == seat]
    if not mine:
        letter = game.state.seats[seat].letter
        raise NothingToTakeBack(f"seat {letter} has no turn in this game to take back")
    keep = mine[-1]
    taken = log.turns[start.turns + keep:]
    kept = log.turn_steps[start.turns:start.turns + keep]
    del log.turn_steps[start.turns:], log.stuck[start.stuck:], log.out[start.out:]
    game.state = log.state = start.state.copy()
    log.reason = ""
    for steps in kept:
        while game.state.winner is None and not game.engine.has_turn(game.state):
            _settle(game, log, None)
        game.engine.play_in_place(game.state, steps)
        log.turn_steps.append(steps)
    return taken


def _settle(game: Game, log: GameLog, on_stuck: Callable[[Game, int, str], None] | None) -> str:
    """Settle the stuck seat to move (game.settle_stuck), note it in the log, tell `on_stuck`."""
    seat = game.state.to_move
    happened = settle_stuck(game)
    log.stuck.append(happened)
    log.out.extend(seats_gone(game.state, seat, len(log.turn_steps)))
    if on_stuck:
        on_stuck(game, seat, happened)
    return happened


def seats_gone(state: GameState, seat: int, turns: int) -> list[tuple[str, int]]:
    """The seats that a stuck `seat` took out of the game with it (its team's), in a game of three
    or more teams, as (letter, turns played): what a record lists under `out`."""
    if len(state.team_letters) <= 2 or seat not in state.out:
        return []
    team = state.seats[seat].team
    return [(info.letter, turns) for info in state.seats if info.team == team]


def _random_generators(agents: Sequence[Agent]) -> list[random.Random] | None:
    """Each seat's generator if every agent plays RandomAgent's turns (so that the engine can
    play them itself: Engine.playout, the same game); None if any agent chooses otherwise."""
    if all(isinstance(agent, RandomAgent) and type(agent).turn is RandomAgent.turn for agent in agents):
        return [agent.rng for agent in agents]  # type: ignore[attr-defined]
    return None

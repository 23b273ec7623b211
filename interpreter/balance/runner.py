"""Playing the games of a balance run: one game to one GameResult, and a batch of games at once.

A batch is what a backend sends to a worker process: a few plain values in (pack, agent, turn
limit, and each game's matchup, number and seed), a few small records out. Everything a game
depends on is in the batch, so a worker on another machine plays exactly the game the parent
would have played. A worker keeps the packs and the compiled games it has built (per process),
so that a pack is loaded once and a matchup's rules are compiled once, however many batches come.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from ...dsl.errors import SantoriniError
from ..agents.external import SHOW, BotStderr
from ..agents.registry import close_agents, make_agent
from ..games.game import Game, new_game, parse_players
from ..games.packs import Pack, resolve_pack
from ..games.play import GameLog, run_game
from .plan import Task, pack_digest
from .records import EndKind, GameResult, Matchup
from .seeding import seat_random

#: The level the base rule's win climbs onto.
WIN_LEVEL = 3


class PackMismatch(SantoriniError):
    """A worker whose pack is not the run's (another version installed on a cluster's node)."""


@dataclass(frozen=True)
class Batch:
    """Games to play in one worker task, with everything they depend on."""

    pack: str
    agent: str
    max_turns: int
    tasks: tuple[Task, ...]
    #: The run's plan.pack_digest: a worker whose pack differs refuses to play ("" checks nothing).
    pack_digest: str = ""
    #: Where an external bot's standard error goes (not part of the results: any value plays the same games).
    bot_stderr: BotStderr = SHOW


def play_batch(batch: Batch) -> list[GameResult]:
    """Play every game of the batch, in order (the entry point of worker tasks)."""
    if batch.pack_digest and _digest(batch.pack) != batch.pack_digest:
        raise PackMismatch(f"a worker's pack '{batch.pack}' has other rules than the run's (digest "
                           f"{_digest(batch.pack)}, not {batch.pack_digest}): install the same version everywhere")
    return [play_game(batch.pack, task, batch.agent, batch.max_turns, batch.bot_stderr) for task in batch.tasks]


def play_game(pack_name: str, task: Task, agent: str, max_turns: int, bot_stderr: BotStderr = SHOW) -> GameResult:
    """Play one game of the run and say how it ended."""
    game, log = play_logged(pack_name, task, agent, max_turns, bot_stderr)
    winner, end = classify(game, log)
    return GameResult(matchup=task.matchup, index=task.index, seed=task.seed, agent=agent, winner=winner, end=end,
                      turns=len(log.turn_steps))


def play_logged(pack_name: str, task: Task, agent: str, max_turns: int,
                bot_stderr: BotStderr = SHOW) -> tuple[Game, GameLog]:
    """The game of `task`, played: each seat's agent (placement and turns) draws from its own
    generator of the game's seed."""
    game = _fresh_game(pack_name, task.matchup)
    agents = [make_agent(agent, seat_random(task.seed, seat), bot_stderr) for seat in range(2)]
    try:
        log = run_game(game, agents, max_turns=max_turns)
    finally:
        close_agents(agents)
    return game, log


def classify(game: Game, log: GameLog) -> tuple[int | None, EndKind]:
    """The winning seat (0 or 1, None if no one won) and how the game ended, read from the state.

    STUCK: a seat could not complete a turn and lost. CLIMB: the winner's last turn ended with a
    move of its worker up onto level 3 (the base rule's win). POWER: any other win or loss,
    i.e. one that a card's condition gave (a win by moving down, by towers, a loss by a power).
    LIMIT: the turn limit came first."""
    state = game.state
    if state.winner is None:
        return None, EndKind.LIMIT
    winner = next(i for i, seat in enumerate(state.seats) if seat.team == state.winner)
    if log.stuck:
        return winner, EndKind.STUCK
    return winner, EndKind.CLIMB if _climbed(game) else EndKind.POWER


def _climbed(game: Game) -> bool:
    """Whether the last turn won by the base rule: the mover's team won, no power made anyone
    lose, and its last event is a move of its own worker up onto the winning level."""
    state = game.state
    if not state.history:
        return False
    record = state.history[-1]
    if state.winner != state.seats[record.seat].team or any(e[0] == "lose" for e in record.events):
        return False
    last = record.events[-1] if record.events else None
    if last is None or last[0] != "move":
        return False
    _, worker, _, _, here, there = last
    return state.worker_team[worker] == state.winner and bool(here < there == WIN_LEVEL)


# ---- per process: packs and compiled games, built once
@cache
def _pack(name: str) -> Pack:
    return resolve_pack(name)


@cache
def _digest(name: str) -> str:
    return pack_digest(_pack(name))


@cache
def _compiled(pack_name: str, matchup: Matchup) -> Game:
    return new_game(_pack(pack_name), parse_players([matchup.first, matchup.second]))


def prepare(pack_name: str, matchup: Matchup) -> None:
    """Load the pack and compile the matchup's rules in this process, as a worker does once per
    matchup (a run's time estimate counts this apart from the games)."""
    _compiled(pack_name, matchup)


def _fresh_game(pack_name: str, matchup: Matchup) -> Game:
    """A new game of the matchup on an empty board, its rules compiled once per process."""
    return _compiled(pack_name, matchup).restart()


def batches(tasks: Sequence[Task], size: int, pack: str, agent: str, max_turns: int, digest: str = "",
            bot_stderr: BotStderr = SHOW) -> list[Batch]:
    """The tasks in order, cut into batches of `size` games (the last may be smaller)."""
    return [Batch(pack, agent, max_turns, tuple(tasks[i:i + size]), digest, bot_stderr)
            for i in range(0, len(tasks), size)]


def batch_size(games: int, workers: int, per_worker: int = 8, largest: int = 32) -> int:
    """Games per batch: about `per_worker` batches for each worker (so that the last ones even
    out the load), at most `largest` (so that progress and stored results come often)."""
    return max(1, min(largest, games // max(1, workers * per_worker)))

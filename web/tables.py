"""The games a web server keeps: one `Table` a game, its seats played by people or by agents.

A table holds a `santorini.Game` and nothing of the rules: every question (which steps may come
next, why a step is refused, what a step did) is the library's. What it adds is what a server
needs: a lock per table, so that two requests never change one game at once; agents that think
off the request path, in a thread of their own, on a copy of the game, so that a page asking how
the game stands is answered at once; and bounds on what a request may ask for (how many tables,
how strong an agent).
"""

from __future__ import annotations

import logging
import random
import secrets
import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field

from ..api import Game, Turn
from ..dsl.errors import SantoriniError
from ..interpreter.agents.registry import make_agent, parse_agent_spec
from ..interpreter.chain.walk import same_step
from ..interpreter.games.human import describe_step, refusal_text
from ..interpreter.games.play import Agent
from ..interpreter.model.notation import parse_turn
from ..interpreter.model.state import Action, GameState

_log = logging.getLogger(__name__)

#: Who may play a seat: a person at the page, or one of these agents (an external bot is a
#: program on the server's machine: a page may not start one).
PERSON = "person"
AGENT_KINDS = ("random", "greedy", "mcts")
#: The most iterations a page may give an MCTS agent (its thinking is bounded by them).
MOST_ITERATIONS = 5000
#: The most tables one server keeps; a new one past it replaces the one left alone longest.
MOST_TABLES = 64


class WebError(SantoriniError):
    """A request the server cannot take: what was wrong with it, for the page to show."""


class NotHere(WebError):
    """Something a request names that the server does not keep (a game, a run, a file)."""


class NoSuchGame(NotHere):
    """A game id the server does not keep (never made, or replaced by newer games)."""


@dataclass
class Told:
    """A turn as the page tells it: who played it, its notation, and what it did in words."""

    seat: str
    text: str
    said: list[str]


@dataclass
class Table:
    """One game and who plays each seat (`players[i]`: PERSON or an agent spec)."""

    id: str
    game: Game
    players: list[str]
    seed: int
    agents: list[Agent | None]
    told: list[Told] = field(default_factory=list)
    #: Counts each change to the game: an agent's choice made on an older version is dropped.
    version: int = 0
    thinking: bool = False
    #: What went wrong in an agent's thread, for the page (the game stops there).
    failure: str | None = None
    lock: threading.Lock = field(default_factory=threading.Lock)

    # ---- what the page asks
    def seen(self) -> Game:
        """The game as the page may show it: what every seat played by a person may see (a piece
        a card hides from one of them is never sent: engine/views.py); with no person, the
        whole game, for the spectators of agents."""
        people = [letter for letter, player in zip(self.game.seats, self.players, strict=True) if player == PERSON]
        return self.game.view(*people) if people else self.game

    def seat_player(self, letter: str | None) -> str | None:
        """Who plays the seat of that letter (None: no seat, the game is over)."""
        if letter is None:
            return None
        return self.players[self.game.seats.index(letter)]

    def person_to_move(self) -> bool:
        """Whether a person is to play now (the page then offers the steps)."""
        return not self.game.is_over and self.seat_player(self.game.to_move) == PERSON and self.failure is None

    def options(self, written: Sequence[str]) -> tuple[list[Action], bool, GameState, list[str]]:
        """After the steps of a turn begun (`written`, each in notation): the steps that may come
        next, whether the turn may end there, the position they leave, and what they did beside
        themselves. WebError says why a step is refused (naming the rule or the power)."""
        game = self.game
        if not self.person_to_move():
            raise WebError("it is not a person's turn to play")
        if game.in_setup:
            raise WebError("the workers are placed as a whole: 'place A1 b3; place A2 d3'")
        state, engine = self.seen().state, game.engine
        steps = self._read_steps(written, state)
        legal, complete = engine.legal_next(state, steps)
        states = self._states(steps, state)
        after = states[-1] if len(states) == len(steps) + 1 else state
        return legal, complete, after, _told_of(states, steps)

    def _read_steps(self, written: Sequence[str], state: GameState) -> list[Action]:
        """The steps in notation, each checked against what may come after those before it in
        `state` (the position as the page sees it)."""
        engine = self.game.engine
        steps: list[Action] = []
        for text in written:
            (action, *rest) = parse_turn(state, text) or (None,)
            if action is None or rest:
                raise WebError(f"'{text}' is not one step")
            legal, _ = engine.legal_next(state, steps)
            same = [a for a in legal if same_step(state, action, a)]
            if not same:
                raise WebError(f"'{text}': {refusal_text(engine, state, [*steps, action])}")
            steps.append(same[0])
        return steps

    def play(self, text: str) -> None:
        """A person's turn (or placement), in notation. The library's error (the rules' reason,
        or why the text is not a turn) if refused."""
        if not self.person_to_move():
            raise WebError("it is not a person's turn to play")
        self.play_told(text)

    def _states(self, steps: Sequence[Action], state: GameState) -> list[GameState]:
        """`state`, then the position after each step the rules take from it (fewer where they
        refuse one)."""
        states: list[GameState] = [state]
        self.game.engine.trace(state, steps, lambda reached, prefix: states.append(reached))
        return states

    def play_told(self, turn: Turn | str) -> None:
        """Play the turn (or placement) and tell it: the seat, its notation, what it did beside
        itself (nothing for a turn the rules refuse: playing it says why), and what the rules
        then did to seats left with no turn."""
        game = self.game
        said: list[str] = []
        seen = self.seen().state  # (what the page may be told of: a hidden piece's part is not)
        if not game.in_setup:
            steps = turn.steps if isinstance(turn, Turn) else parse_turn(game.state, turn)
            said = _told_of(self._states(steps, seen), steps)
        letter, settled = game.to_move or "?", len(game.settled)
        game.play(turn)
        text = self.seen().history[-1].notation or "a secret placement"
        self.told.append(Told(letter, text, [*said, *game.settled[settled:]]))
        self.version += 1

    def undo(self) -> None:
        """Take back turns until a person is to play again, one of their turns taken back (the
        agents' turns after it with it). WebError where no person has played yet."""
        game = self.game
        people = [index for index, turn in enumerate(self.told) if self.seat_player(turn.seat) == PERSON]
        if not people:
            raise WebError("nothing to take back: no person has played a turn yet")
        while len(self.told) > people[-1]:
            game.undo()
            self.told.pop()
        self.version += 1
        self.failure = None


def _told_of(states: Sequence[GameState], steps: Sequence[Action]) -> list[str]:
    """What each step did beside itself, in words, from the positions before and after it."""
    return [line for index in range(len(states) - 1)
            for line in describe_step(states[index], states[index + 1], steps[index])]


class Tables:
    """The tables of one server, by id; at most MOST_TABLES, the one left alone longest
    replaced first."""

    def __init__(self, most: int = MOST_TABLES) -> None:
        self._tables: OrderedDict[str, Table] = OrderedDict()
        self._most = most
        self._lock = threading.Lock()

    def new(self, pack: str, cards: Sequence[Sequence[str]], players: Sequence[str], seed: int,
            mode: str | None = None) -> Table:
        """A new game: the seats' cards, who plays each (PERSON or an agent spec), the seed of the
        agents' choices, the mode (None: the pack's for this many seats). WebError (or the
        library's error) names what is wrong."""
        if len(players) != len(cards):
            raise WebError(f"{len(cards)} seats but {len(players)} players: say who plays each seat")
        agents = [None if player == PERSON else _agent(player, random.Random(seed * 31 + index))
                  for index, player in enumerate(players)]
        game = Game([list(names) for names in cards], pack=pack, mode=mode)
        table = Table(secrets.token_urlsafe(9), game, list(players), seed, agents)
        with self._lock:
            self._tables[table.id] = table
            while len(self._tables) > self._most:
                self._tables.popitem(last=False)
        return table

    def get(self, table_id: str) -> Table:
        with self._lock:
            table = self._tables.get(table_id)
            if table is None:
                raise NoSuchGame(f"no game '{table_id}' here (the server keeps its {self._most} latest games)")
            self._tables.move_to_end(table_id)
            return table


def _agent(spec: str, rng: random.Random) -> Agent:
    """The agent a page asks for, within the server's bounds."""
    parsed = parse_agent_spec(spec)
    if parsed.kind not in AGENT_KINDS:
        raise WebError(f"a seat is played by a person or by {', '.join(AGENT_KINDS)} (mcts:ITERATIONS); "
                       f"not {spec!r}")
    if parsed.kind == "mcts" and parsed.iterations > MOST_ITERATIONS:
        raise WebError(f"mcts:{parsed.iterations} thinks too long for the page: at most mcts:{MOST_ITERATIONS}")
    return make_agent(parsed, rng)


def think(table: Table) -> None:
    """Play the agents' turns while an agent is to move: each chosen on a copy of the game, off
    the table's lock, and played only if no request changed the game meanwhile (an undo)."""
    while True:
        with table.lock:
            game = table.game
            if game.is_over or table.failure is not None or table.seat_player(game.to_move) == PERSON:
                table.thinking = False
                return
            agent = table.agents[game.seats.index(game.to_move or "")]
            assert agent is not None  # (not a person's seat)
            copy, version = game.copy(), table.version
        failure: str | None = None
        try:
            turn = copy.agent_turn(agent)
        except SantoriniError as error:
            turn, failure = None, str(error)
        except Exception:  # (a fault of the server's own: the game stops there, the server goes on)
            _log.exception("an agent failed at table %s", table.id)
            turn, failure = None, "the agent failed (the server's log says why)"
        if turn is None and failure is None:
            failure = "the agent found no turn to play"
        with table.lock:
            if table.version != version:
                continue  # (the game changed while it thought: think again)
            if turn is None:
                table.failure, table.thinking = failure, False
                return
            table.play_told(turn)


def start_thinking(table: Table) -> None:
    """Start the agents' thread where an agent is to move and none is thinking (with the lock
    held by the caller)."""
    game = table.game
    if table.thinking or game.is_over or table.failure is not None or table.seat_player(game.to_move) == PERSON:
        return
    table.thinking = True
    threading.Thread(target=think, args=(table,), daemon=True, name=f"agents-{table.id}").start()


__all__ = ["AGENT_KINDS", "MOST_ITERATIONS", "MOST_TABLES", "PERSON", "NoSuchGame", "NotHere", "Table", "Tables",
           "Told", "WebError", "start_thinking", "think"]

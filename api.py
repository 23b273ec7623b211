"""The library's front door: a game of Santorini with any cards, in a few names.

    import santorini

    game = santorini.Game(["Artemis", "Mortal"])        # the bga pack unless told
    game.play("place A1 b3; place A2 d3")              # the setup: each seat places its workers
    game.play("place B1 c4; place B2 c2")
    turns = game.turns()                                # the legal turns, one per distinct outcome
    print(turns[0])                                     # the turn in notation
    game.play("move A1 b4; move A1 b5; build A1 a5")    # IllegalTurn says why not
    game.undo()
    print(game)                                         # the board, and who is to move

A `Game` keeps the whole game: the setup, the turns played (`history`), the winner. A seat left
with no turn is settled as the rules say as soon as it is to move (with two teams it loses; with
more it is out), so `turns()` is empty only when the game is over. Programs that search (bots,
tree search) may use `game.engine` and `game.state` directly: the engine API (`turns`,
`play_in_place`, `random_turn`, `playout`, `perft`) plays on a `GameState` in place.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .dsl.errors import SantoriniError
from .interpreter.engine.engine import Engine
from .interpreter.engine.views import redacted_steps
from .interpreter.games.game import (
    end_of_setup,
    new_game,
    parse_players,
    place_workers,
    placement_names,
    placement_steps,
    placement_text,
    placing_seats,
    resolve_stuck,
    seat_index,
    written_placement,
)
from .interpreter.games.packs import MORTAL, resolve_pack
from .interpreter.games.play import Agent, GameLog, TakeBack, seats_gone, win_reason
from .interpreter.games.records import record_text
from .interpreter.games.setup import legal_placements
from .interpreter.model.notation import format_board, format_turn, parse_turn
from .interpreter.model.state import Action, GameState

if TYPE_CHECKING:
    from .interpreter.games.packs import Pack

__all__ = ["Game", "NothingToUndo", "Turn"]


class NothingToUndo(SantoriniError):
    """`undo` with nothing played yet."""


@dataclass(frozen=True)
class Turn:
    """A turn (or a seat's placement of its workers) as steps, with its turn notation: what
    `turns()` lists and `play` takes. Two turns are equal when their steps are."""

    steps: tuple[Action, ...]
    notation: str

    def __str__(self) -> str:
        return self.notation

    def __repr__(self) -> str:
        return f"Turn({self.notation!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Turn) and self.steps == other.steps

    def __hash__(self) -> int:
        return hash(self.steps)


#: A seat as `Game` takes it: a card's name ('Mortal' for none), the names of a seat with two
#: cards, or a scenario file's entry ({god: NAME, team: LETTER}).
SeatSpec = str | Sequence[str] | dict[str, object]


class Game:
    """A game between seats with the given cards, under a rule pack (a shipped pack's name, or the
    folder of an author's pack) and one of its modes (by default the one for this many players)."""

    def __init__(self, cards: Sequence[SeatSpec], pack: str = "bga", mode: str | None = None) -> None:
        entries = [entry if isinstance(entry, (str, dict)) else {"gods": list(entry)} for entry in cards]
        self._game = new_game(resolve_pack(pack), parse_players(entries), mode)
        self._placing = placing_seats(self._game)
        self._history: list[Turn] = []
        #: Before each turn played: the state, the seats still to place, how many placements and
        #: settled seats there were (what `undo` puts back).
        self._before: list[tuple[GameState, list[int], int, int, int, str]] = []
        self._settled: list[str] = []
        #: The seats that left the game (three or more teams), with the turns played then, and why
        #: the game ended as it did (what a record says: `record`).
        self._out: list[tuple[str, int]] = []
        self._reason = ""
        self._from_position = False

    # ---- what the game is
    @property
    def pack(self) -> Pack:
        return self._game.pack

    @property
    def mode(self) -> str:
        return self._game.mode.name

    @property
    def seats(self) -> list[str]:
        """The seats' letters, in seat order."""
        return [seat.letter for seat in self.state.seats]

    @property
    def cards(self) -> list[tuple[str, ...]]:
        """Each seat's cards, by name ('Mortal' for a seat with none)."""
        return [player.powers or (MORTAL,) for player in self._game.players]

    @property
    def engine(self) -> Engine:
        """The compiled rules of these seats: the engine API, for programs that search."""
        return self._game.engine

    @property
    def state(self) -> GameState:
        """The position, as the engine plays it (changed in place by `play` and `undo`)."""
        return self._game.state

    # ---- where it stands
    @property
    def in_setup(self) -> bool:
        """Whether a seat has still to place its workers."""
        return bool(self._placing)

    @property
    def to_move(self) -> str | None:
        """The letter of the seat to play (or to place its workers); None once the game is over."""
        if self.is_over:
            return None
        seat = self._placing[0] if self._placing else self.state.to_move
        return self.state.seats[seat].letter

    @property
    def winner(self) -> str | None:
        """The letter of the winning team (its first seat's), or None while no one has won."""
        team = self.state.winner
        return None if team is None else self.state.team_letters[team]

    @property
    def is_over(self) -> bool:
        return self.state.winner is not None

    @property
    def history(self) -> list[Turn]:
        """The placements, then the turns, in the order they were played."""
        return list(self._history)

    @property
    def settled(self) -> list[str]:
        """What happened to the seats left with no turn, in order ('seat C cannot complete a turn
        and is out')."""
        return list(self._settled)

    # ---- the one-line position
    def position(self) -> str:
        """The position as one line (games/position.py; docs/scenarios.md, 'Position strings'):
        what `Game.from_position` reads back. Like a scenario's position, it holds no history."""
        from .interpreter.games.position import position_string
        return position_string(self._game, self._placing[0] if self._placing else None)

    @classmethod
    def from_position(cls, text: str) -> Game:
        """The game at a position string's position (a pack folder's path in it is relative to the
        current folder); PositionError (a SantoriniError) names the column of a fault."""
        from .interpreter.games.position import game_from_position
        inner, in_setup = game_from_position(text)
        game = cls.__new__(cls)
        game._game = inner
        placing = placing_seats(inner)
        game._placing = placing[placing.index(inner.state.to_move):] if in_setup else []
        game._history, game._before, game._settled, game._out, game._reason = [], [], [], [], ""
        game._from_position = True
        return game

    # ---- turns
    def turns(self) -> list[Turn]:
        """The legal turns of the seat to move, one per distinct outcome it can tell apart (on its
        view: a piece a card hides from it plays no part), in the engine's order (in the setup:
        the placements its workers, or its setup tokens, may take); empty once the game is over."""
        if self.is_over:
            return []
        if self._placing:
            return list(self._placements(self._placing[0]))
        state = self.engine.view(self.state, self.state.to_move)  # (what the seat to move may see)
        return [Turn(tuple(steps), format_turn(state, steps)) for steps in self.engine.turns(state)]

    def play(self, turn: Turn | str) -> Turn:
        """Play a turn (a `Turn`, or its notation: 'move A1 c4; build A1 c5'; in the setup 'place
        A1 b3; place A2 d3'); returns it as played. IllegalTurn (a SantoriniError) says why the
        rules refuse it, judged on what the seat may see; a piece hidden from it may end the turn
        sooner (a move into a secret Abyss loses at once), and the turn returned says where.
        NotationError: the text is not a turn."""
        before = (self.state.copy(), list(self._placing), len(self._game.placements), len(self._settled),
                  len(self._out), self._reason)
        if self._placing:
            played = self._place(self._placing[0], turn)
            self._placing.pop(0)
            if not self._placing:
                end_of_setup(self._game)
                self._settle()
        else:
            steps = turn.steps if isinstance(turn, Turn) else parse_turn(self.state, turn)
            played_steps = self.engine.play_chosen(self.state, steps)  # (judged on what the seat sees)
            played = Turn(played_steps, format_turn(self.state, played_steps))
            if self.state.winner is not None:
                self._reason = win_reason(self._game)
            self._settle()
        self._before.append(before)
        self._history.append(played)
        return played

    def undo(self) -> Turn:
        """Take back the last turn (or placement) played; returns it. NothingToUndo at the start."""
        if not self._before:
            raise NothingToUndo("nothing to take back: no turn has been played")
        state, self._placing, placements, settled, out, self._reason = self._before.pop()
        self._game.state = state
        del self._game.placements[placements:]
        del self._settled[settled:], self._out[out:]
        return self._history.pop()

    def random_turn(self, rng: random.Random | None = None) -> Turn | None:
        """A turn drawn uniformly among the distinct outcomes (None once the game is over): what a
        random player plays; the same generator gives the same turn."""
        turns = self.turns() if self._placing else None
        rng = rng or random.Random()
        if turns is not None:
            return turns[rng.randrange(len(turns))] if turns else None
        if self.is_over:
            return None
        steps = self.engine.random_turn(self.engine.view(self.state, self.state.to_move), rng)
        return None if steps is None else Turn(tuple(steps), format_turn(self.state, steps))

    def workers_to_place(self) -> list[str]:
        """The names the seat to place gives its workers, in order ('A1', 'A2'): a placement names
        them so, 'place A1 b3; place A2 d3'. In a seat's token round (a card that places tokens
        once every worker is placed): 'token KIND' for each, as in 'token abyss c3'. Empty after
        the setup."""
        return placement_names(self._game, self._placing[0]) if self._placing else []

    def agent_turn(self, agent: Agent) -> Turn | None:
        """The turn an agent of this package (`santorini.interpreter.agents.registry.make_agent`)
        chooses for the seat to move, in the setup its placement; None when it has none (the
        game is over, or the agent passes it to the rules). Not played: `play` it."""
        if self.is_over:
            return None
        if self._placing:
            seat = self._placing[0]
            squares = agent.placement(self._game, seat)
            return Turn(placement_steps(self._game, seat, squares), placement_text(self._game, seat, squares))
        chosen = agent.turn(self._game)
        if chosen is None or isinstance(chosen, TakeBack):
            return None
        steps = tuple(chosen)
        return Turn(steps, format_turn(self.state, steps))

    def record(self, seed: int | None = None) -> str:
        """The game as a record (schema/record.schema.json; `seed`, the agents' seed, if any):
        what `santorini play --record` writes, and `replay`, `render` and the playground's Watch
        read; a game not over is recorded as stopped. A game started from a position has none
        (its position is not the empty board's)."""
        if self._from_position:
            raise SantoriniError("a game started from a position has no record: a record starts from the "
                                 "empty board (save the position string instead: `position()`)")
        placements = [format_turn(self.state, steps) for steps in self._game.placements]
        reason = self._reason if self.is_over else (
            f"stopped before the end: seat {self.to_move} to {'place' if self._placing else 'move'}")
        log = GameLog(self.state, placements, [turn.steps for turn in self._history[len(placements):]],
                      self.winner, reason, list(self._settled), list(self._out))
        return record_text(self._game, log, seed)

    def _settle(self) -> None:
        """Settle the seats that cannot complete a turn, as the game loop does (games/play.py):
        what happened, the seats that left, and why the game ended if it did."""
        game = self._game
        turns = len(self._history) + 1 - len(game.placements)  # (the turn being played counts)
        for _ in game.state.seats:
            seat = game.state.to_move
            settled = resolve_stuck(game)
            if settled is None:
                break
            self._settled.append(settled)
            self._out += seats_gone(game.state, seat, max(turns, 0))
            self._reason = settled

    def perft(self, depth: int) -> int:
        """The leaves of the tree of distinct outcomes to `depth` plies (the scenario spec's
        'Perft'); after the setup only."""
        if self._placing:
            raise SantoriniError("perft counts turns: place the workers first")
        return self.engine.perft(self.state, depth)

    def copy(self) -> Game:
        """The same game, to play on apart (the compiled rules are shared)."""
        other = Game.__new__(Game)
        other._game = self._game.copy()
        other._placing = list(self._placing)
        other._history = list(self._history)
        other._before = [(state.copy(), *rest) for state, *rest in self._before]  # type: ignore[misc]
        other._settled, other._out, other._reason = list(self._settled), list(self._out), self._reason
        other._from_position = self._from_position
        return other

    def view(self, *seats: str) -> Game:
        """The game as the seat (a letter) may see it, apart from this one: its position, turns,
        history, record and pictures leave out every piece the cards hide from that seat (a
        secret token), and its `turns()` are those the seat can tell apart. With several seats,
        what all of them may see (a screen they share). A placement hidden from the seat is in
        its history with no steps. With nothing hidden, a plain copy."""
        indices = [seat_index(self.state, seat) for seat in seats]
        other = self.copy()
        other._game = self._game.view(*indices)
        if other._game is self._game:
            return other
        hidden = self.engine.secrets.hidden_from(self.state, *indices)
        placers = placing_seats(self._game)
        for index, turn in enumerate(self._history[:len(placers)]):  # (only a placement hides a step)
            seen = redacted_steps(placers[index], turn.steps, hidden)
            if seen != turn.steps:
                other._history[index] = Turn(seen, "")
        other._before = []  # (what the seats never saw cannot be taken back on their view)
        return other

    # ---- pictures and text
    def svg(self, **options: object) -> str:
        """The board as an SVG picture, the last turn marked (model/svg.py's `board_svg`, whose
        options it takes: arrows, highlights, size, legend)."""
        from .interpreter.model.svg import board_svg
        state = self.state
        return board_svg(state, last_turn=state.history[-1] if state.history else None, **options)  # type: ignore[arg-type]

    def _repr_svg_(self) -> str:
        """The picture Jupyter shows for a game."""
        return self.svg()

    def __str__(self) -> str:
        board = format_board(self.state, with_workers=True)
        if self.is_over:
            return f"{board}\nwinner: {self.winner}"
        return f"{board}\n{'to place' if self._placing else 'to move'}: {self.to_move}"

    def __repr__(self) -> str:
        cards = " v ".join(" + ".join(seat) for seat in self.cards)
        where = f"winner {self.winner}" if self.is_over else f"{self.to_move} to {'place' if self._placing else 'move'}"
        return f"<santorini.Game {cards} ({self.pack.name}, {self.mode}): {where}, {len(self._history)} played>"

    # ---- the setup
    def _placements(self, seat: int) -> Iterator[Turn]:
        """Every way the seat may place its workers (or its setup tokens): sets of free squares in
        square order, those the cards' placement rules allow."""
        for squares in legal_placements(self._game, seat):
            yield Turn(placement_steps(self._game, seat, squares), placement_text(self._game, seat, squares))

    def _place(self, seat: int, turn: Turn | str) -> Turn:
        """Place the seat's workers as `turn` says (its workers named in order: A1, A2, ...), or
        in its token round its setup tokens."""
        squares = [square for _, _, square in turn.steps] if isinstance(turn, Turn) else \
            written_placement(self._game, seat, turn)
        steps = place_workers(self._game, seat, squares)
        return Turn(tuple(steps), format_turn(self.state, steps))

"""A human at the keyboard: picks a numbered legal step or types one in turn notation.

Each choice is checked before it is taken: a typed step that the rules refuse is explained
(what was wrong, what is allowed) and the player is asked again, never thrown out.
"""

from __future__ import annotations

from collections.abc import Callable

import click

from ..engine.engine import Action
from ..engine.walk import same_step
from ..model.board import parse_square, square_name
from ..model.notation import NotationError, format_board, format_step, parse_step
from .game import Game, free_squares
from .setup import placement_fault

END_TURN = "end"


class HumanAgent:
    """Reads choices from `ask` (click.prompt by default), one step at a time."""

    def __init__(self, ask: Callable[[str], str] | None = None,
                 say: Callable[[str], None] = click.echo) -> None:
        self.ask = ask or (lambda text: click.prompt(text, prompt_suffix=" "))
        self.say = say

    def placement(self, game: Game, seat: int) -> list[int]:
        chosen: list[int] = []
        letter = game.state.seats[seat].letter
        while len(chosen) < game.workers_for(seat):
            answer = self.ask(f"seat {letter}: place worker {len(chosen) + 1} on which space?")
            try:
                square = parse_square(answer)
            except ValueError as err:
                self.say(f"  {err}")
                continue
            if square not in free_squares(game.state) or square in chosen:
                self.say(f"  {square_name(square)} is occupied; choose an unoccupied space")
                continue
            chosen.append(square)
            if len(chosen) == game.workers_for(seat):
                fault = placement_fault(game, seat, tuple(chosen))
                if fault is not None:  # the card's placement rules (an area, opposite edges)
                    self.say(f"  {fault}; place them again")
                    chosen = []
        return chosen

    def turn(self, game: Game) -> tuple[Action, ...] | None:
        state, engine = game.state, game.engine
        steps: list[Action] = []
        while True:
            legal, complete = engine.legal_next(state, steps)
            if not steps and not legal and not complete:
                self.say(f"seat {state.seats[state.to_move].letter} cannot complete a turn")
                return None
            if complete and not legal:
                return tuple(steps)
            self.say(f"seat {state.seats[state.to_move].letter}, your options:")
            for number, action in enumerate(legal, start=1):
                self.say(f"  {number}. {format_step(state, action)}")
            if complete:
                self.say("  0. end the turn here")
            answer = self.ask("choose a number or type a step:").strip()
            if complete and answer in ("0", END_TURN, "pass"):
                return tuple(steps)
            action = self._read(state, answer, legal, steps, engine)
            if action is not None:
                steps.append(action)
                self._show(game, steps)

    def _show(self, game: Game, steps: list[Action]) -> None:
        """The board after the steps taken so far, so the player sees what a step did (a push,
        a swap) before choosing the next one."""
        boards: list[str] = []
        game.engine.trace(game.state, steps, lambda state, prefix: boards.append(format_board(state, with_workers=True)))
        if len(boards) == len(steps):
            self.say(boards[-1])

    def _read(self, state, answer: str, legal: list[Action], steps: list[Action], engine) -> Action | None:  # noqa: ANN001
        if answer.isascii() and answer.isdigit():  # ('²' is a digit to str.isdigit, not to int)
            index = int(answer[:6]) - 1 if len(answer) <= 6 else -1
            if 0 <= index < len(legal):
                return legal[index]
            self.say(f"  {answer} is not on the list: choose 1 to {len(legal)}")
            return None
        try:
            action = parse_step(state, answer)
        except NotationError as err:
            self.say(f"  {err}")
            return None
        same = [a for a in legal if same_step(state, action, a)]  # 'dome' is 'build' only on level 3
        if not same:
            self.say(f"  '{answer}' is not a legal step now: {engine.why_illegal(state, [*steps, action])}")
            return None
        return same[0]

"""A human at the keyboard: picks a numbered legal step or types one in turn notation.

Each choice is checked before it is taken: a typed step that the rules refuse is explained
(what was wrong, what is allowed) and the player is asked again, never thrown out. When the input
ends (EOF: a closed pipe, Ctrl-D) no answer can come: that is InputEnded, a SantoriniError (bad
input, exit code 2 at the command line), not click's 'Aborted!' (exit code 1), which Ctrl-C still gives.
"""

from __future__ import annotations

from collections.abc import Callable

import click

from ...dsl.errors import SantoriniError
from ..engine.engine import Engine
from ..engine.walk import same_step
from ..model.board import parse_square, square_name
from ..model.notation import NotationError, format_board, format_step, parse_step, parse_turn
from ..model.state import Action, GameState
from .game import Game, free_squares
from .setup import placement_fault

END_TURN = "end"


class InputEnded(SantoriniError):
    """The input ended (EOF) while a human seat was asked for a choice: the game cannot go on.
    A problem of the input, not of the game, so one message and exit code 2."""


def prompt(text: str) -> str:
    """click.prompt, with the end of input kept apart from Ctrl-C: click turns both into Abort
    (exit code 1); the end of input is raised again as EOFError, for HumanAgent to report."""
    try:
        answer: str = click.prompt(text, prompt_suffix=" ")
    except click.Abort as err:
        if isinstance(err.__context__, EOFError):  # (click raises Abort while handling the EOFError)
            click.echo()  # (ends the prompt's line, so that the message starts on its own)
            raise EOFError from None
        raise
    return answer


class HumanAgent:
    """Reads choices from `ask` (click.prompt by default), one step at a time; an `ask` that
    raises EOFError (the input ended) stops the game with InputEnded."""

    def __init__(self, ask: Callable[[str], str] | None = None,
                 say: Callable[[str], None] = click.echo) -> None:
        self.ask = ask or prompt
        self.say = say

    def _answer(self, question: str) -> str:
        """The answer to `question`; InputEnded if the input has ended, since asking again
        would get no answer either."""
        try:
            return self.ask(question)
        except EOFError:
            raise InputEnded(f"the input ended before the game did: no answer to '{question}'; "
                             "the game is stopped (a human seat answers every question)") from None

    def placement(self, game: Game, seat: int) -> list[int]:
        chosen: list[int] = []
        letter = game.state.seats[seat].letter
        while len(chosen) < game.workers_for(seat):
            answer = self._answer(f"seat {letter}: place worker {len(chosen) + 1} on which space?")
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
        """Steps one at a time (a number from the list, or a step typed in notation), or a
        whole turn on one line ('move A1 c4; build A1 c5'); 'undo' takes back the last step."""
        state, engine = game.state, game.engine
        steps: list[Action] = []
        while True:
            legal, complete = engine.legal_next(state, steps)
            if not steps and not legal and not complete:
                self.say(f"seat {state.seats[state.to_move].letter} cannot complete a turn")
                return None
            if complete and not legal:
                return tuple(steps)
            here = self._state_after(game, steps)
            legal = sorted(legal, key=lambda a: _display_order(here, a))
            self.say(f"seat {state.seats[state.to_move].letter}, your options:")
            for number, action in enumerate(legal, start=1):
                self.say(f"  {number}. {_with_level(here, action)}")
            if complete:
                self.say("  0. end the turn here")
            if steps:
                self.say(f"  (or '{UNDO}' to take back '{format_step(state, steps[-1])}')")
            answer = self._answer("choose a number, or type a step or a whole turn:").strip()
            if complete and answer in ("0", END_TURN, "pass"):
                return tuple(steps)
            if answer.lower() == UNDO and steps:
                steps.pop()
                self._show(game, steps)
                continue
            if ";" in answer:
                typed = self._read_turn(state, answer, steps, engine)
                if typed is not None:
                    taken = len(steps)
                    steps.extend(typed)
                    self._show(game, steps, since=taken)
                    if engine.legal_next(state, steps) == ([], True):
                        return tuple(steps)
                continue
            picked = self._read(state, answer, legal, steps, engine)
            if picked is not None:
                steps.append(picked)
                self._show(game, steps, since=len(steps) - 1)

    def _state_after(self, game: Game, steps: list[Action]) -> GameState:
        if not steps:
            return game.state
        seen: list[GameState] = []
        game.engine.trace(game.state, steps, lambda state, prefix: seen.append(state))
        return seen[-1] if len(seen) == len(steps) else game.state

    def _show(self, game: Game, steps: list[Action], since: int | None = None) -> None:
        """The board after the steps taken so far, and in words what the steps from `since` did
        beside themselves (a worker pushed or swapped, a block removed), so the player sees what
        a power did before choosing the next step."""
        states: list[GameState] = [game.state]
        game.engine.trace(game.state, steps, lambda state, prefix: states.append(state))
        if len(states) != len(steps) + 1:
            return
        if since is not None:
            for index in range(since, len(steps)):
                for line in describe_step(states[index], states[index + 1], steps[index]):
                    self.say(f"  {line}")
        self.say(format_board(states[-1], with_workers=True))

    def _read_turn(self, state: GameState, answer: str, steps: list[Action], engine: Engine) -> list[Action] | None:
        """Several steps typed at once: each must be legal after the ones before it."""
        try:
            typed = list(parse_turn(state, answer))
        except NotationError as err:
            self.say(f"  {err}")
            return None
        taken: list[Action] = []
        for action in typed:
            legal, _ = engine.legal_next(state, [*steps, *taken])
            same = [a for a in legal if same_step(state, action, a)]
            if not same:
                self.say(f"  '{answer}' is not a legal turn now: {engine.why_illegal(state, [*steps, *taken, action])}")
                return None
            taken.append(same[0])
        return taken

    def _read(self, state: GameState, answer: str, legal: list[Action], steps: list[Action],
              engine: Engine) -> Action | None:
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


UNDO = "undo"


def _display_order(state: GameState, action: Action) -> tuple[int, str, str, str | int]:
    """Steps listed by worker, then verb, then space (a1, b1, ... e5), named options first."""
    verb, worker, target = action
    if verb == "use":
        return (0, "", "", str(target))
    name = state.worker_name(worker) if isinstance(worker, int) and worker >= 0 else str(worker)
    return (1, name, verb, target if isinstance(target, int) else -1)


def _with_level(state: GameState, action: Action) -> str:
    """'move A1 c4 (level 1)': a step and the level of the space it goes to."""
    text = format_step(state, action)
    verb, _, target = action
    if verb in ("move", "build", "dome", "force", "place") and isinstance(target, int) and target >= 0:
        level = state.heights[target]
        return f"{text}  (level {level}{', domed' if state.domes[target] else ''})"
    return text


def describe_step(before: GameState, after: GameState, action: Action) -> list[str]:
    """In words, what a step changed beside its own move or build: workers forced elsewhere or
    taken off the board, blocks removed or added elsewhere, tokens placed (read from the two
    states, so any power's effect is told the same way)."""
    verb, actor, target = action
    lines = []
    for worker, (was, now) in enumerate(zip(before.worker_pos, after.worker_pos, strict=True)):
        if was == now or (worker == actor and verb == "move") or (verb == "place" and worker == actor):
            continue
        name = after.worker_name(worker)
        if now < 0:
            lines.append(f"{name} was removed from the game (from {square_name(was)})")
        elif was < 0:
            lines.append(f"{name} entered the board on {square_name(now)}")
        else:
            lines.append(f"{name} was forced from {square_name(was)} to {square_name(now)}")
    for square in range(len(after.heights)):
        if square == target and verb in ("build", "dome"):
            continue
        if before.heights[square] != after.heights[square] or before.domes[square] != after.domes[square]:
            lines.append(f"{square_name(square)} went from level {before.heights[square]}"
                         f"{' (domed)' if before.domes[square] else ''} to level {after.heights[square]}"
                         f"{' (domed)' if after.domes[square] else ''}")
    for square in sorted(set(before.tokens) | set(after.tokens)):
        if before.tokens.get(square) != after.tokens.get(square):
            token = after.tokens.get(square) or before.tokens.get(square)
            assert token is not None  # (it differs: one of the two holds one)
            where = "is now on" if square in after.tokens else "left"
            lines.append(f"the {token[0]} token {where} {square_name(square)}")
    return lines

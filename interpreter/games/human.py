"""A human at the keyboard: picks a numbered legal step or types one in turn notation.

Each choice is checked before it is taken: a typed step that the rules refuse is explained (what
was wrong, and the rule or power that forbids it where the engine can say) and the player is
asked again, never thrown out; the allowed steps are listed at each new step and on request
('list'), not after every mistake. At every prompt 'help' explains the commands and 'quit'
stops the game (PlayerQuit). 'undo' takes back the last step, or at the start of a turn the
player's last whole turn and every turn since (TakeBack, done by the game loop).

The board is drawn once per turn, at its start, with the last turn's squares marked. When the
input ends (EOF: a closed pipe, Ctrl-D) no answer can come: that is InputEnded, a SantoriniError
(bad input, exit code 2 at the command line); Ctrl-C is left to the caller (KeyboardInterrupt or
click's Abort), which stops the game too.
"""

from __future__ import annotations

import linecache
from collections.abc import Callable, Mapping, Sequence

import click

from ...dsl.vocabulary import Step, nested
from ..chain.walk import same_step
from ..engine.engine import Engine
from ..engine.refusal import Reason, explain
from ..model.board import COLUMNS, SIZE, parse_square, square_name
from ..model.notation import NotationError, format_cell, format_step, format_turn, parse_step, parse_turn
from ..model.state import Action, Event, GameState
from .game import Game, free_squares, placement_names
from .play import GameStopped, TakeBack
from .setup import placement_fault

END_TURN = "end"
UNDO = "undo"
HELP = ("help", "h")
QUIT = ("quit", "exit")
LIST = ("list", "?")
BOARD = "board"

#: A square's mark on the board: where the last turn moved a worker to, moved one from, built.
MOVED_TO, MOVED_FROM, BUILT = "*", ".", "+"
LEGEND = f"{MOVED_TO} moved to, {MOVED_FROM} moved from, {BUILT} built on"
#: Marks by square (a square has one: moved to, else built on, else moved from).
Marks = dict[int, str]
#: How the board is drawn: the state and its marks (the command line draws it in colour).
Draw = Callable[[GameState, Marks], None]

STEP_HELP = """\
  how to write a step: VERB WORKER SPACE, e.g. 'move A1 c4', 'build A1 c5', 'dome A1 c5'
    (spaces: columns a-e west to east, rows 1-5 south to north); a power may add 'force B1 c2',
    'remove B1', 'place A3 a1', 'token KIND d2', 'use NAME' or 'pass'.
    Several steps on one line, separated by ';', are taken one after the other:
    'move A1 c4; build A1 c5'."""

TURN_HELP = f"""\
commands:
  a number      take that step from the list
  a step        type it in turn notation (below)
  0 or end      end the turn here, when the turn may end
  list or ?     the steps allowed now, numbered
  board         the board again, with the steps of this turn marked
  undo          take back the last step; at the start of a turn, your last turn and
                every turn played since (against a bot: its reply too)
  help          this help
  quit          stop the game (no winner; a --record file is written)
{STEP_HELP}"""

PLACEMENT_HELP = """\
commands:
  a space       place your next worker there, e.g. 'c3'
  list or ?     the free spaces
  board         the board, with the workers you placed so far marked
  undo          take back the last worker you placed
  help          this help
  quit          stop the game (no winner; a --record file is written)"""


class InputEnded(GameStopped):
    """The input ended (EOF) while a human seat was asked for a choice: the game cannot go on.
    A problem of the input, not of the game, so one message and exit code 2."""


class PlayerQuit(GameStopped):
    """A human seat typed 'quit': the game stops there, with no winner."""


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
    """Reads choices from `ask` (click.prompt by default), one step at a time, and tells the
    player what happens through `say`; `draw` draws the board (by default as text through `say`).
    An `ask` that raises EOFError (the input ended) stops the game with InputEnded."""

    def __init__(self, ask: Callable[[str], str] | None = None,
                 say: Callable[[str], None] = click.echo, draw: Draw | None = None) -> None:
        self.ask = ask or prompt
        self.say = say
        self.draw: Draw = draw or (lambda state, marks: say(marked_board(state, marks)))
        #: The seat's turns in the game's log, which 'undo' may take back (told by the loop).
        self.undoable = 0

    def may_take_back(self, turns: int) -> None:
        """The game loop's count of this seat's turns that it may take back (TakesBack)."""
        self.undoable = turns

    def _answer(self, question: str) -> str:
        """The answer to `question`, stripped; InputEnded if the input has ended, since asking
        again would get no answer either."""
        try:
            return self.ask(question).strip()
        except EOFError:
            raise InputEnded(f"the input ended before the game did: no answer to '{question}'; "
                             "the game is stopped (a human seat answers every question)") from None

    def _quit(self, state: GameState, seat: int) -> PlayerQuit:
        return PlayerQuit(f"seat {state.seats[seat].letter} quit")

    def placement(self, game: Game, seat: int) -> list[int]:
        chosen: list[int] = []
        game = game.view(seat)  # (what the seat may see)
        state = game.state
        letter = state.seats[seat].letter
        names = placement_names(game, seat)
        tokens = [name.removeprefix("token ") for name in names if name.startswith("token ")]
        if any(position >= 0 for position in state.worker_pos):
            self.draw(state, {})
        self.say(f"seat {letter} places its {', '.join(tokens)} token(s) ({HINT})" if tokens
                 else f"seat {letter} places {len(names)} workers ({HINT})")
        while len(chosen) < len(names):
            what = f"its {tokens[len(chosen)]} token" if tokens else f"worker {len(chosen) + 1}"
            answer = self._answer(f"seat {letter}: place {what} on which space?")
            word = answer.lower()
            if word in HELP:
                self.say(PLACEMENT_HELP)
                continue
            if word in QUIT:
                raise self._quit(state, seat)
            if word in LIST:
                free = [square_name(s) for s in free_squares(state) if s not in chosen]
                self.say(f"  free spaces: {', '.join(free)}")
                continue
            if word == BOARD:
                self.draw(state, dict.fromkeys(chosen, MOVED_TO))
                continue
            if word == UNDO:
                if chosen:
                    self.say(f"  took back worker {len(chosen)} on {square_name(chosen.pop())}")
                else:
                    self.say("  nothing to take back: no worker of this placement is placed yet")
                continue
            try:
                square = parse_square(answer)
            except ValueError as err:
                self.say(f"  {err} (type 'help' for the commands)")
                continue
            if square not in free_squares(state) or square in chosen:
                self.say(f"  {square_name(square)} is occupied; choose an unoccupied space")
                continue
            chosen.append(square)
            if len(chosen) == len(names):
                fault = placement_fault(game, seat, tuple(chosen))
                if fault is not None:  # the card's placement rules (an area, opposite edges)
                    self.say(f"  {fault}; place them again")
                    chosen = []
        return chosen

    def turn(self, game: Game) -> tuple[Action, ...] | TakeBack | None:
        """Steps one at a time (a number from the list, or a step typed in notation), or a
        whole turn on one line ('move A1 c4; build A1 c5'); see TURN_HELP for the commands."""
        game = game.view(game.state.to_move)  # (what the seat may see)
        state, engine = game.state, game.engine
        seat = state.to_move
        steps: list[Action] = []
        legal, complete = engine.legal_next(state, steps)
        if not legal and not complete:
            self.say(f"seat {state.seats[seat].letter} cannot complete a turn")
            return None
        self._draw_start(state)
        self.say(f"seat {state.seats[seat].letter} to move ({HINT})")
        listed = False  # (the allowed steps are listed once at each new step, then on request)
        while True:
            legal, complete = engine.legal_next(state, steps)
            if complete and not legal:
                return tuple(steps)
            here = self._state_after(game, steps)
            legal = sorted(legal, key=lambda a: _display_order(here, a))
            if not listed:
                self._list(state, here, legal, complete, steps)
                listed = True
            answer = self._answer("choose a number, or type a step or a whole turn:")
            word = answer.lower()
            if complete and word in ("0", END_TURN, "pass"):
                return tuple(steps)
            if word in HELP:
                self.say(TURN_HELP)
                continue
            if word in QUIT:
                raise self._quit(state, seat)
            if word in LIST:
                self._list(state, here, legal, complete, steps)
                continue
            if word == BOARD:
                self.draw(here, change_marks(state, here))
                continue
            if word == UNDO:
                if steps:
                    self.say(f"  took back '{format_step(state, steps.pop())}'")
                    listed = False
                    continue
                if self.undoable:
                    return TakeBack(seat)
                self.say("  nothing to take back: you have not played a turn in this game yet")
                continue
            if ";" in answer:
                typed = self._read_turn(state, answer, steps, engine)
                if typed is not None:
                    taken = len(steps)
                    steps.extend(typed)
                    self._tell(game, steps, since=taken)
                    listed = False
                    if engine.legal_next(state, steps) == ([], True):
                        return tuple(steps)
                continue
            picked = self._read(state, answer, legal, steps, engine)
            if picked is not None:
                steps.append(picked)
                self._tell(game, steps, since=len(steps) - 1)
                listed = False

    def _draw_start(self, state: GameState) -> None:
        """The board at the start of a turn (once per turn), the last turn's squares marked."""
        marks = last_turn_marks(state)
        if marks:
            record = state.history[-1]
            self.say(f"the last turn, seat {state.seats[record.seat].letter}'s "
                     f"'{format_turn(state, record.steps)}', is marked: {LEGEND}")
        self.draw(state, marks)

    def _list(self, state: GameState, here: GameState, legal: list[Action], complete: bool,
              steps: list[Action]) -> None:
        """The allowed steps, numbered, and how to end the turn or take something back."""
        self.say(f"seat {state.seats[state.to_move].letter}, your options:")
        for number, action in enumerate(legal, start=1):
            self.say(f"  {number}. {_with_level(here, action)}")
        if complete:
            self.say("  0. end the turn here")
        if steps:
            self.say(f"  (or '{UNDO}' to take back '{format_step(state, steps[-1])}')")
        elif self.undoable:
            self.say(f"  (or '{UNDO}' to take back {_since_own_turn(state)})")

    def _state_after(self, game: Game, steps: list[Action]) -> GameState:
        if not steps:
            return game.state
        seen: list[GameState] = []
        game.engine.trace(game.state, steps, lambda state, prefix: seen.append(state))
        return seen[-1] if len(seen) == len(steps) else game.state

    def _tell(self, game: Game, steps: list[Action], since: int) -> None:
        """In words, what the steps from `since` did beside themselves (a worker pushed or
        swapped, a block removed), so the player sees what a power did before choosing the next
        step; the board is drawn on request ('board'), not after every step."""
        states: list[GameState] = [game.state]
        game.engine.trace(game.state, steps, lambda state, prefix: states.append(state))
        if len(states) != len(steps) + 1:
            return
        for index in range(since, len(steps)):
            for line in describe_step(states[index], states[index + 1], steps[index]):
                self.say(f"  {line}")

    def _read_turn(self, state: GameState, answer: str, steps: list[Action], engine: Engine) -> list[Action] | None:
        """Several steps typed at once: each must be legal after the ones before it."""
        try:
            typed = list(parse_turn(state, answer))
        except NotationError as err:
            self.say(f"  {err} (type 'help' for the commands)")
            return None
        taken: list[Action] = []
        for action in typed:
            legal, _ = engine.legal_next(state, [*steps, *taken])
            same = [a for a in legal if same_step(state, action, a)]
            if not same:
                why = refusal_text(engine, state, [*steps, *taken, action])
                self.say(f"  '{answer}' is not a legal turn now: '{format_step(state, action)}': {why}; "
                         f"{SEE_LIST}")
                return None
            taken.append(same[0])
        return taken

    def _read(self, state: GameState, answer: str, legal: list[Action], steps: list[Action],
              engine: Engine) -> Action | None:
        if answer.isascii() and answer.isdigit():  # ('²' is a digit to str.isdigit, not to int)
            index = int(answer[:6]) - 1 if len(answer) <= 6 else -1
            if 0 <= index < len(legal):
                return legal[index]
            self.say(f"  {answer} is not on the list: choose 1 to {len(legal)} ({SEE_LIST})")
            return None
        try:
            action = parse_step(state, answer)
        except NotationError as err:
            self.say(f"  {err} (type 'help' for the commands)")
            return None
        same = [a for a in legal if same_step(state, action, a)]  # 'dome' is 'build' only on level 3
        if not same:
            why = refusal_text(engine, state, [*steps, action])
            self.say(f"  '{answer}' is not a legal step now: {why}; {SEE_LIST}")
            return None
        return same[0]


SEE_LIST = "type 'list' to see the allowed steps"
HINT = "type 'help' for the commands: undo, list, board, quit"


def refusal_text(engine: Engine, state: GameState, steps: Sequence[Action]) -> str:
    """Why the last of `steps` is refused, without the list of the allowed steps (shown on
    request): the engine's reason, or, where it only knows that the rules offer no such step,
    the seat's own power that offers steps of that kind with a condition (`_own_rule`)."""
    refusal = explain(engine, state, steps)
    step = refusal.step
    head = f"'{format_step(state, steps[step])}' (step {step + 1}): " if step is not None else ""
    why = refusal.text.removeprefix(head).removesuffix(f"; allowed: {', '.join(refusal.allowed) or 'none'}")
    if refusal.reason is Reason.NOT_OFFERED and refusal.step is not None:
        rule = _own_rule(engine, state, steps[:refusal.step], steps[refusal.step])
        if rule is not None:
            return rule
    return why


def _own_rule(engine: Engine, state: GameState, prefix: Sequence[Action], step: Action) -> str | None:
    """The seat's own power that limits where a step of this kind may go, when the rules offer
    the worker steps of that kind here but not this one, and no board rule is broken (the
    refusal found none): a power's step of that verb written with a condition on its space,
    named with its sentence. None when the seat's powers have no such step."""
    verb, worker, _ = step
    kind = "build" if verb == "dome" else verb
    legal, _ = engine.legal_next(state, prefix)
    if not any(("build" if a[0] == "dome" else a[0]) == kind and a[1] == worker for a in legal):
        return None
    found: list[str] = []
    for power in engine.seat_powers[state.to_move]:
        for part in _steps(power):
            if part.verb.value != kind or not part.filters:
                continue
            sentence = linecache.getline(part.where.file, part.where.line).strip().rstrip(".")
            said = f"{power.name}'s power does not allow it ({sentence})"
            if sentence and said not in found:
                found.append(said)
    return "; ".join(found) or None


def _steps(part: object) -> list[Step]:
    """Every Step written in a power's parts (its turn programs, follow-ups, options)."""
    found = [item for item in nested(part) if isinstance(item, Step)]
    return sorted(found, key=lambda s: (s.where.file, s.where.line, s.where.column))


def _since_own_turn(state: GameState) -> str:
    """'your last turn (move A1 c4; build A1 c5) and the 1 turn since': what 'undo' at the
    start of a turn takes back."""
    seat = state.to_move
    index = max(i for i, record in enumerate(state.history) if record.seat == seat)
    after = len(state.history) - index - 1
    since = f" and the {after} turn{'s' if after != 1 else ''} since" if after else ""
    return f"your last turn, '{format_turn(state, state.history[index].steps)}',{since}"


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


# ---- the board, with a turn's squares marked
def turn_marks(events: Sequence[Event]) -> Marks:
    """The squares a turn changed, read from its events (so any power's turn is marked the
    same way): where workers moved or were forced to and from, where it built or took away."""
    marks: Marks = {}

    def mark(square: int, sign: str) -> None:
        order = (MOVED_TO, BUILT, MOVED_FROM)
        if square >= 0 and (square not in marks or order.index(sign) < order.index(marks[square])):
            marks[square] = sign
    for event in events:
        kind = event[0]
        if kind in ("move", "force"):
            mark(event[2], MOVED_FROM)
            mark(event[3], MOVED_TO)
        elif kind == "place":
            mark(event[2], MOVED_TO)
        elif kind == "remove":
            mark(event[2], MOVED_FROM)
        elif kind in ("build", "unbuild"):
            mark(event[2], BUILT)
    return marks


def last_turn_marks(state: GameState) -> Marks:
    """The marks of the last turn played (none before the first)."""
    return turn_marks(state.history[-1].events) if state.history else {}


def change_marks(before: GameState, after: GameState) -> Marks:
    """The marks of what changed from `before` to `after` (the steps of a turn so far)."""
    marks: Marks = {}
    for square in range(len(after.heights)):
        if (before.heights[square], before.domes[square]) != (after.heights[square], after.domes[square]):
            marks[square] = BUILT
    for was, now in zip(before.worker_pos, after.worker_pos, strict=False):
        if was != now:
            if was >= 0:
                marks.setdefault(was, MOVED_FROM)
            if now >= 0:
                marks[now] = MOVED_TO
    return marks


def marked_board(state: GameState, marks: Mapping[int, str]) -> str:
    """The board as format_board(with_workers=True) writes it, each marked square's cell
    followed by its mark: the same text when nothing is marked."""
    lines = []
    for rank in range(SIZE - 1, -1, -1):
        cells = []
        for column in range(SIZE):
            square = rank * SIZE + column
            worker = state.occupant[square]
            cell = format_cell(state.heights[square], state.domes[square])
            cell += f":{state.worker_name(worker)}" if worker >= 0 else ""
            cells.append(f"{cell}{marks.get(square, '')}".ljust(6))
        lines.append(f"{rank + 1}  {' '.join(cells).rstrip()}")
    lines.append("   " + " ".join(f"{c:<6}" for c in COLUMNS).rstrip())
    return "\n".join(lines)


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

"""The turn interpreter: runs the compiled powers of the seats against a GameState.

A turn is a sequence of decisions. Each seat's turn programs (the base card's standard turn and
the alternatives its powers add) are compiled once, when the engine is made, into chains of
Python closures: a step closure lists the candidate actions of its step (asking the hooks that
generate, restrict and react), applies each one to the state, calls the rest of the chain, and
undoes it. One traversal serves every purpose through its leaf callback: enumerating the distinct
outcomes, checking that a turn can still be completed ("must" by lookahead), matching a turn
written in notation, listing the legal next steps, and perft.

Enumeration, where searches and random play spend their time, has faster stand-ins that must
agree with the chain exactly: the plain-turn paths (plain.py) and, for other programs, a second
compilation specialised for enumeration (enumeration.py). A random turn is drawn by counting
the outcomes, not listing them, where the seat's turn has a shape that allows it (plain.py,
counted.py).

Actions are tuples: ("move", worker, square), ("build", worker, square) (the next piece, a dome
on level 3), ("dome", worker, square) (a dome at a lower level), ("use", -1, name).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from random import Random

from ...dsl.hooks import Power, Program, StepSpec
from ..fast.counted import counted_picker
from ..fast.enumeration import enumeration_chain
from ..fast.known_turns import KnownTurnPlayer
from ..fast.plain import plain_enumerator, plain_lister, plain_picker, plain_player
from ..model.notation import format_step
from ..model.state import GameState, TurnRecord, apply_events
from .steps import build_step, move_step, use_step
from .walk import Action, SeatRules, StepFn, Walk, finish, gather, same_step, stop

__all__ = ["Action", "Engine", "IllegalTurn", "Walk"]

#: Enough for a repeated step to visit every state of four workers on the board.
REPEAT_RECURSION_LIMIT = 20_000


class IllegalTurn(ValueError):
    """A turn the rules do not allow; the message says which step fails and what is allowed."""


class Engine:
    """The rules of one game: the base card and each seat's powers, compiled."""

    def __init__(self, base: Power, seat_powers: Sequence[Sequence[Power]], fast: bool = True) -> None:
        """`fast=False` turns the plain-turn fast paths off, so tests can compare them with the
        generic chain they stand in for."""
        self.fast = fast
        self.seat_rules = [gather(base, powers) for powers in seat_powers]
        if any(step.repeat for rules in self.seat_rules for program in rules.programs for step in program.steps):
            # 'any number of times' is searched depth first, one call level per step taken: a
            # walk through every state of two workers can be hundreds of steps deep.
            sys.setrecursionlimit(max(sys.getrecursionlimit(), REPEAT_RECURSION_LIMIT))
        self.restricting = [(seat, rules.restrictions) for seat, rules in enumerate(self.seat_rules)
                            if rules.restrictions]
        self.roots = [self._compile_seat(rules) for rules in self.seat_rules]
        self.plain_listers = [plain_lister(rules.programs[0], rules)
                              if fast and len(rules.programs) == 1 else None for rules in self.seat_rules]
        #: The last turn `random_turn` picked, with what identifies the state it was picked for and
        #: its events: (steps, state, hash, seat to move, turns played, events).
        self._picked: tuple | None = None
        self.known_turns = [KnownTurnPlayer(rules) for rules in self.seat_rules]
        #: Each seat's way to draw a random turn without listing them all, if it has one.
        self.pickers = [((plain_picker(rules.programs[0], rules) if len(rules.programs) == 1 else None)
                         or counted_picker(rules)) if fast else None for rules in self.seat_rules]
        self.plain_players = [[player for program in rules.programs
                               if (player := plain_player(program, rules)) is not None] if fast else []
                              for rules in self.seat_rules]

    # ---- compilation
    def _compile_seat(self, rules: SeatRules) -> StepFn:
        programs = [(self._compile_program(program, rules), self._enumerator(program, rules))
                    for program in rules.programs]

        def root(walk: Walk) -> bool:
            self._start_turn(walk)
            enumerating = walk.found is not None and walk.probe is None and walk.script is None
            for program, enumerate_outcomes in programs:
                if enumerate_outcomes is not None and enumerating:
                    enumerate_outcomes(walk)
                elif program(walk):
                    return True
            return False
        return root

    def _enumerator(self, program: Program, rules: SeatRules) -> StepFn | None:
        """The fastest way to enumerate the program's outcomes, if any beats the generic chain:
        the plain turn by hash arithmetic alone, else the program's enumeration chain."""
        if not self.fast:
            return None
        plain = plain_enumerator(program, rules)
        if plain is not None:
            return plain
        chain = enumeration_chain(program, rules)
        if chain is None:
            return None

        def enumerate_outcomes(walk: Walk) -> bool:
            chain(walk, (), -1, -1, -1, ())
            return False
        return enumerate_outcomes

    def _compile_program(self, program: Program, rules: SeatRules) -> StepFn:
        chain: StepFn = finish
        for spec in reversed(program.steps):
            chain = self._compile_step(spec, chain, rules, with_followups=True)
        if program.announced:
            chain = use_step(program.name, chain)
        return chain

    def _compile_step(self, spec: StepSpec, rest: StepFn, rules: SeatRules,
                      with_followups: bool) -> StepFn:
        after = rest
        if with_followups and not spec.repeat:
            for followup in reversed([f for f in rules.followups if f.after == spec.verb]):
                after = self._compile_step(followup.step, after, rules, with_followups=False)
        make = move_step if spec.verb == "move" else build_step
        return make(spec, after, rest, rules)

    # ---- turn start
    def _start_turn(self, walk: Walk) -> None:
        """Apply the restrictions that other seats' powers put on this turn."""
        if self.restricting:
            walk.forbid_up, walk.forbid_down = self._forbidden(walk.state, walk.team)

    def _forbidden(self, state: GameState, team: int) -> tuple[bool, bool]:
        """Whether other seats' powers forbid moving up, and moving down, to `team` this turn."""
        up = down = False
        for seat, restrictions in self.restricting:
            if seat in state.out or state.seats[seat].team == team:
                continue
            for restriction in restrictions:
                if restriction.condition is None or _moved_last_turn(state, seat, restriction.condition.direction):
                    if restriction.direction == "up":
                        up = True
                    else:
                        down = True
        return up, down

    # ---- queries
    def outcomes(self, state: GameState) -> dict[int, tuple[Action, ...]]:
        """The distinct outcomes of the turn of the seat to move: outcome key -> one turn."""
        found: dict[int, tuple[Action, ...]] = {}

        def leaf(walk: Walk) -> bool:
            key = walk.state.outcome_key()
            if key not in found:
                found[key] = tuple(walk.path)
            return False
        walk = Walk(state, leaf)
        walk.found = found
        self.roots[state.to_move](walk)
        return found

    def turns(self, state: GameState) -> list[tuple[Action, ...]]:
        """One turn for each distinct outcome, in the order of `outcomes`: what a random player
        picks from. When the seat's only program is the plain turn its turns are already
        distinct outcomes (see plain.py), so they are listed without computing keys."""
        lister = self.plain_listers[state.to_move]
        if lister is None:
            return list(self.outcomes(state).values())
        team = state.seats[state.to_move].team
        up, down = self._forbidden(state, team) if self.restricting else (False, False)
        return lister(state, team, up, down)

    def random_turn(self, state: GameState, rng: Random) -> tuple[Action, ...] | None:
        """`turns(state)[rng.randrange(len(turns))]`, or None when there is no turn: a uniformly
        random distinct outcome, which is what a random player and a playout need. For the plain
        turn and the shapes built on it the pick is made without listing every turn
        (plain.plain_picker, counted.py)."""
        picker = self.pickers[state.to_move]
        if picker is not None:
            team = state.seats[state.to_move].team
            up, down = self._forbidden(state, team) if self.restricting else (False, False)
            picked = picker(state, team, up, down, rng)
            if picked is None:
                return None
            steps, events = picked  # (events None: a win or a forcing move, applied step by step)
            self._picked = (steps, state, state.hash, state.to_move, len(state.history), events)
            return steps
        turns = self.turns(state)
        if not turns:
            return None
        steps = turns[rng.randrange(len(turns))]
        if self.fast:  # found legal for this very state: its events follow from its steps
            self._picked = (steps, state, state.hash, state.to_move, len(state.history), None)
        return steps

    def has_turn(self, state: GameState) -> bool:
        """Whether the seat to move can complete a turn at all."""
        return self.roots[state.to_move](Walk(state, stop))

    def can_win(self, state: GameState) -> bool:
        """Whether some legal turn wins at once."""
        return self.roots[state.to_move](Walk(state, lambda walk: walk.state.winner is not None))

    def legal_next(self, state: GameState, prefix: Sequence[Action]) -> tuple[list[Action], bool]:
        """The steps that may follow `prefix` (each one leaves the turn completable), and whether
        the prefix is already a complete turn."""
        frontier: set = set()
        depth = len(prefix)

        def leaf(walk: Walk) -> bool:
            if len(walk.path) > depth:
                frontier.add(walk.path[depth])
                return True
            walk.complete = True
            return False
        walk = Walk(state, leaf, script=tuple(prefix), frontier=frontier)
        self.roots[state.to_move](walk)
        return sorted(frontier, key=_action_order), walk.complete

    def play(self, state: GameState, steps: Sequence[Action]) -> GameState:
        """The state after the seat to move plays `steps` (a whole turn), with the turn logged
        and the next seat to move; IllegalTurn if the rules do not accept the turn. The given
        state is left as it was."""
        events, won = self.accept(state, steps)
        after = state.copy()
        _conclude(after, steps, events, won)
        return after

    def play_in_place(self, state: GameState, steps: Sequence[Action]) -> None:
        """`play`, changing the given state (for game loops and searches that own their state).
        A turn that `random_turn` has just picked for this state (the same object, hash, seat to
        move and number of turns played) is not checked again: the engine found it legal."""
        picked, self._picked = self._picked, None
        if (picked is not None and picked[0] is steps and picked[1] is state and picked[2] == state.hash
                and picked[3] == state.to_move and picked[4] == len(state.history)):
            seat = state.to_move
            if not self._apply_found(state, seat, steps, picked[5]):
                state.to_move = state.next_seat(seat)
            return
        events, won = self.accept(state, steps)
        apply_events(state, events)
        _log_turn(state, steps, events, won)

    def _apply_found(self, state: GameState, seat: int, steps: tuple[Action, ...], events: tuple | None) -> bool:
        """Play a turn the engine found legal for this state, and log it; returns whether it won
        (the caller passes the turn on otherwise). `events` are the picker's for a turn that does
        not win; None for any other turn, whose steps are then applied one by one."""
        if events is None:
            events, won = self.known_turns[seat].apply(state, steps)
            state.history.append(TurnRecord((seat, tuple(steps), events)))
            if won:
                state.winner = state.seats[seat].team
            return won
        if len(events) == 2:  # a move and a build (the commonest turn)
            (_, worker, _, to, _, _), (_, _, square, height, dome) = events
            state.relocate(worker, to)
            if dome:
                state.set_dome(square, True)
            else:
                state.set_height(square, height)
        else:
            apply_events(state, events)
        state.history.append(TurnRecord((seat, steps, events)))
        return False

    def playout(self, state: GameState, rngs: Sequence[Random], limit: int) -> list[tuple[Action, ...]]:
        """Play random turns in place until a team wins, the seat to move has no turn, or `limit`
        turns are played; returns the turns played. Each seat draws from its own generator
        (`rngs[seat]`) exactly as `random_turn` then `play_in_place` would, so the same generators
        give the same game; one loop plays them all, which is what games between random players
        and the rollouts of a tree search want. A seat left with no turn is for the caller to
        settle by the game's rules (game.settle_stuck)."""
        played: list[tuple[Action, ...]] = []
        pickers, seats, restricting = self.pickers, state.seats, self.restricting
        following = [state.next_seat(seat) for seat in range(len(seats))]  # no seat drops out here
        while len(played) < limit:
            seat = state.to_move
            picker = pickers[seat]
            if picker is None:
                steps = self.random_turn(state, rngs[seat])
                if steps is None:
                    break
                self.play_in_place(state, steps)
            else:
                team = seats[seat].team
                up, down = self._forbidden(state, team) if restricting else (False, False)
                picked = picker(state, team, up, down, rngs[seat])
                if picked is None:
                    break
                steps = picked[0]
                if not self._apply_found(state, seat, steps, picked[1]):
                    state.to_move = following[seat]
            played.append(steps)
            if state.winner is not None:
                break
        return played

    def accept(self, state: GameState, steps: Sequence[Action]) -> tuple[tuple, bool]:
        """The events of `steps` as a turn of the seat to move, and whether it wins; IllegalTurn
        (with the reason) if the rules do not accept it."""
        players = self.plain_players[state.to_move]
        if players:
            team = state.seats[state.to_move].team
            up, down = self._forbidden(state, team) if self.restricting else (False, False)
            for player in players:
                accepted = player(state, team, up, down, steps)
                if accepted is not None:
                    return accepted

        def leaf(walk: Walk) -> bool:
            if len(walk.path) != len(steps):
                return False
            walk.result = (tuple(walk.events), walk.state.winner is not None)
            return True
        walk = Walk(state, leaf, script=tuple(steps))
        self.roots[state.to_move](walk)
        if walk.result is None:
            raise IllegalTurn(self.why_illegal(state, steps))
        return walk.result

    def trace(self, state: GameState, steps: Sequence[Action],
              visit: Callable[[GameState, tuple[Action, ...]], None]) -> bool:
        """Play `steps` as a turn, calling `visit(state, steps so far)` after each step applied on
        the way to the accepted turn (for displays and invariant checks); False if illegal."""
        snapshots: list[tuple[GameState, tuple[Action, ...]]] = []

        def probe(walk: Walk) -> None:
            depth = len(walk.path)
            if depth > len(snapshots) and all(same_step(walk.state, steps[i], walk.path[i])
                                              for i in range(depth)):
                snapshots.append((walk.state.copy(), tuple(walk.path)))

        def leaf(walk: Walk) -> bool:
            return len(walk.path) == len(steps)
        walk = Walk(state, leaf, script=tuple(steps))
        walk.probe = probe
        accepted = self.roots[state.to_move](walk)
        for snapshot, prefix in snapshots:
            visit(snapshot, prefix)
        return accepted

    def why_illegal(self, state: GameState, steps: Sequence[Action]) -> str:
        """Which step of a refused turn fails, and what the rules allow there instead."""
        for index in range(len(steps) + 1):
            legal, complete = self.legal_next(state, steps[:index])
            if index == len(steps):
                options = ", ".join(format_step(state, a) for a in legal)
                return f"the turn is not complete; it must go on with one of: {options}"
            if not any(same_step(state, steps[index], a) for a in legal):
                written = format_step(state, steps[index])
                if not legal and complete:
                    return f"'{written}' (step {index + 1}): the turn is already complete"
                options = ", ".join(format_step(state, a) for a in legal) or "none"
                return f"'{written}' (step {index + 1}) is not allowed here; allowed: {options}"
        return "the turn is not allowed"  # pragma: no cover - legal_next and play agree

    def perft(self, state: GameState, depth: int) -> int:
        """Leaves of the tree of distinct outcomes (spec: 'Perft'), searched in place.

        A finished game has no outcomes: a won position counts 0 at every depth from 1 on, so a
        win is a leaf only on the last ply (as in chess perft), and a seat with no turn adds 0."""
        if depth == 0:
            return 1
        if state.winner is not None:
            return 0
        if depth == 1:
            return len(self.outcomes(state))
        total = 0
        seen: set[int] = set()

        def leaf(walk: Walk) -> bool:
            nonlocal total
            st = walk.state
            key = st.outcome_key()
            if key in seen:
                return False
            seen.add(key)
            if st.winner is not None:  # the game is over before the last ply: no leaf below it
                return False
            mover = st.to_move
            st.history.append(TurnRecord((mover, tuple(walk.path), tuple(walk.events))))
            st.to_move = st.next_seat(mover)
            total += self.perft(st, depth - 1)
            st.to_move = mover
            st.history.pop()
            return False
        self.roots[state.to_move](Walk(state, leaf))
        return total


def _conclude(state: GameState, steps: Sequence[Action], events: tuple, won: bool) -> None:
    """Make a turn's events happen, log the turn, and pass the turn on (unless it won)."""
    apply_events(state, events)
    _log_turn(state, steps, events, won)


def _log_turn(state: GameState, steps: Sequence[Action], events: tuple, won: bool) -> None:
    """Log a turn that has happened, and pass the turn on (unless it won)."""
    mover = state.to_move
    state.history.append(TurnRecord((mover, tuple(steps), events)))
    if won:
        state.winner = state.seats[mover].team
    else:
        state.to_move = state.next_seat(mover)


def _action_order(action: Action) -> tuple:
    return (action[0] != "use", action[1], action[0], str(action[2]))


def _moved_last_turn(state: GameState, seat: int, direction: str) -> bool:
    """Whether one of `seat`'s workers moved up (or down) on that seat's most recent turn."""
    for record in reversed(state.history):
        if record.seat == seat:
            for event in record.events:
                if event[0] == "move" and (event[5] > event[4] if direction == "up" else event[5] < event[4]):
                    return True
            return False
    return False

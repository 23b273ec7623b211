"""The turn interpreter: runs the compiled powers of the seats against a GameState.

A turn is a sequence of decisions. Each seat's turn programs (the base card's standard turn and
the alternatives its powers add) are compiled once, when the engine is made, into the generic
chain (`interpreter/chain/`): a step closure lists the candidate actions of its step (asking the
hooks that generate, restrict and react), applies each one to the state, calls the rest of the
chain, and undoes it. One traversal serves every purpose through its leaf callback: enumerating
the distinct outcomes, checking that a turn can still be completed ("must" by lookahead),
matching a turn written in notation, listing the legal next steps, and perft.

Enumeration, where searches and random play spend their time, has faster stand-ins that must
agree with the chain exactly: the derived engine (`interpreter/derived/`: steps and whole-turn
kernels generated from the typed parts) and the plain turn's paths and counted picks of
`interpreter/fast/`. The engine chooses among them per seat; they import the chain, never the
engine.

Actions are tuples: ("move", worker, square), ("build", worker, square) (the next piece, a dome
on level 3), ("dome", worker, square) (a dome at a lower level), ("use", -1, name).
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Iterator, Sequence
from random import Random
from typing import Concatenate, ParamSpec, TypeVar, cast

from ...dsl.errors import SantoriniError
from ...dsl.vocabulary import (
    Counter,
    FollowUp,
    FollowUpTiming,
    Happened,
    IfPossible,
    Modality,
    Obligation,
    Owner,
    Power,
    Program,
    Prohibition,
    Role,
    Scope,
    SetupToken,
    Step,
    StepPattern,
    Verb,
    WorkerSelector,
)
from ..chain.conditions import Judge, Test, log_context
from ..chain.rules import SeatRules, gather, reaches
from ..chain.steps import (
    EVENT_KIND,
    Reaction,
    StepCompiler,
    WinCheck,
    additional_turn,
    breadth_first,
    gain_step,
    loss_reaction,
    slide_reaction,
    use_step,
)
from ..chain.walk import Action, Event, StepFn, Walk, finish, same_step, stop
from ..derived.conditions import view_only
from ..derived.invariance import unchanged_by_a_build
from ..derived.kernel import (
    IndexDrawn,
    Kernels,
    Listed,
    TurnEndWinner,
    after_gains,
    after_turn_ends,
    after_use,
    alternatives,
    ends_without_choice,
    once_spent,
)
from ..derived.repeated_moves import MovesAgain
from ..derived.steps import Ban, Bound, DerivedCompiler, Slide, Veto
from ..derived.tally import Tally
from ..fast.bits import free_bits
from ..fast.counted import DEFERRED, counted_picker
from ..fast.known_turns import KnownTurnPlayer
from ..fast.masked import masked_picker
from ..fast.plain import inline_turn, plain_can_win, plain_lister, plain_picker, plain_player
from ..fast.playout import fused_playout
from ..fast.shape import FastRules, fast_rules, known_prohibition
from ..model.board import ZOBRIST
from ..model.state import GameState, TurnRecord, apply_events
from .refusal import explain
from .sleeping import sleeping_kinds, without_sleeping
from .views import Secrets

P = ParamSpec("P")
R = TypeVar("R")

__all__ = ["Action", "Engine", "IllegalTurn", "Walk"]

#: A turn made by the engine for a state: its steps, and its events where it wins nothing (None:
#: played step by step).
MadeTurn = tuple[tuple[Action, ...], tuple[Event, ...] | None]

#: A turn `random_turn` picked, with what identifies the state it was picked for and its events:
#: (steps, state, hash, seat to move, turns played, events; None: play the steps one by one).
Picked = tuple[tuple[Action, ...], GameState, int, int, int, tuple[Event, ...] | None]

class IllegalTurn(SantoriniError, ValueError):
    """A turn the rules do not allow; the message says which step fails, why, and what is
    allowed. `refusal` gives the same as data (refusal.py), when the engine diagnosed it."""

    def __init__(self, message: str, refusal: object = None) -> None:
        super().__init__(message)
        self.refusal = refusal


class GameOver(IllegalTurn):
    """A turn offered to a game that is over (a team has won): no turn is legal any more."""


def _refuse_if_over(state: GameState) -> None:
    if state.winner is not None:
        raise GameOver(f"the game is over: {state.team_letters[state.winner]} has won, and no turn can be played")


class _Binding:
    """A prohibition of one seat's card, compiled for the seats it binds."""

    def __init__(self, seat: int, team: int, prohibition: Prohibition) -> None:
        judge = Judge(seat, team)
        self.seat, self.team, self.prohibition = seat, team, prohibition
        self.verb = prohibition.verb
        self.when = judge.compile(prohibition.when) if prohibition.when is not None else None
        test = judge.compile_all(prohibition.filters)
        assert test is not None  # (the checker refuses a prohibition of every step of its verb)
        self.test: Test = test
        self.flag = known_prohibition(prohibition)

    def binds(self, state: GameState, team: int) -> bool:
        return self.seat not in state.out and self.reaches(team)

    def reaches(self, team: int) -> bool:
        """Whether it binds the workers of `team`: every team's ('all workers'), or the other teams'."""
        binds = self.prohibition.binds
        return binds is Owner.ANYONES or (team != self.team and binds is Owner.OPPONENTS)


#: A query of the engine about a state: (engine, state, arguments...) -> answer.
Query = Callable[Concatenate["Engine", GameState, P], R]


def _asleep_or_awake(method: Query[P, R]) -> Query[P, R]:
    """A query of the engine about a state, asked of the engine without the sleeping parts where
    none can act in that state (sleeping.py: `Engine._for`)."""
    name = method.__name__

    def query(self: Engine, state: GameState, /, *args: P.args, **kwargs: P.kwargs) -> R:
        if self._asleep is not None:
            other = self._for(state)
            if other is not self:
                answer: R = getattr(other, name)(state, *args, **kwargs)
                return answer
        return method(self, state, *args, **kwargs)
    return cast(Query[P, R], functools.wraps(method)(query))


class Engine:
    """The rules of one game: the base card and each seat's powers, compiled.

    Its public face is the methods that list, count, draw, check and play turns (`turns`,
    `random_turn`, `play`, `perft`, `why_illegal`, `view`, ...) and five attributes read as given:
    `fast`, `if_possible`, `seat_powers` (each seat's powers), `seat_rules` (each seat's powers
    gathered with the base card's, as the chain runs them) and `secrets` (the pieces the cards
    hide from other teams: engine/views.py). Every other attribute is the
    compiled code, named with a leading underscore: the derived code and the tests read it."""

    def __init__(self, base: Power, seat_powers: Sequence[Sequence[Power]], fast: bool = True,
                 teams: Sequence[int] | None = None, if_possible: IfPossible = IfPossible.WHOLE_TURN,
                 hand_tuned_pickers: bool = True) -> None:
        """`teams[seat]`: the team each seat plays for (by default, a team per seat). `fast=False`
        turns the fast paths off, so tests can compare them with the generic chain. `if_possible`:
        the pack's reading of 'if possible' obligations. `hand_tuned_pickers=False` draws every
        random turn with the derived count (derived/tally.py) instead of fast/'s pickers, so
        tests and benchmarks can compare the two."""
        self.fast = fast
        self.if_possible = if_possible
        teams = list(teams) if teams is not None else list(range(len(seat_powers)))
        self.seat_rules = [gather(seat, teams[seat], base, powers) for seat, powers in enumerate(seat_powers)]
        self.seat_powers = [tuple(powers) for powers in seat_powers]
        self._bindings = [_Binding(rules.seat, rules.team, p) for rules in self.seat_rules for p in rules.prohibitions]
        #: Bindings left out of force, to tell whether one of them is what refuses a step
        #: (refusal.py); empty in play.
        self._lifted: frozenset[_Binding] = frozenset()
        obligations = [(rules, _on_the_player(o)) for rules in self.seat_rules for o in rules.obligations]
        self._obligations = [(rules.seat, rules.team, o, Judge(rules.seat, rules.team).compile(o.requirement))
                             for rules, o in obligations]
        #: The engine of these powers without the parts that need a token only a setup places, which
        #: serves the states with none of it on the board (sleeping.py); None where no part sleeps.
        self._sleeping = sleeping_kinds(self.seat_rules) if fast else frozenset()
        self._asleep = Engine(base, [[without_sleeping(power, self._sleeping) for power in powers]
                                     for powers in seat_powers], fast, teams, if_possible, hand_tuned_pickers) \
            if self._sleeping else None
        self._dome_likes = [(rules.seat, d.token.value, d.binds) for rules in self.seat_rules for d in rules.dome_likes]
        #: The pieces the cards keep hidden from other teams (views.py): a seat's view leaves them out.
        self.secrets = Secrets(frozenset((rules.seat, rule.token.value) for rules in self.seat_rules
                                         for rule in rules.setup if isinstance(rule, SetupToken) and rule.secret))
        self._restricting = bool(self._bindings)
        self._seat_memory = [self._memory(rules) for rules in self.seat_rules]
        #: Whether no build can change the facts each seat's turns keep (derived/invariance.py).
        self._settled_memory = [all(unchanged_by_a_build(dataclasses.replace(fact, scope=Scope.THIS_TURN))
                                   for fact in rules.memory) for rules in self.seat_rules]
        #: Each seat's derived step compiler (interpreter/derived): what it lowered and what it
        #: left to the generic chain (None with fast=False).
        self._derivations: list[DerivedCompiler | None] = [None] * len(self.seat_rules)
        #: The marks of the once-per-game ways a seat's kernels are found without (they serve
        #: once every one is set: kernel.py's `once_spent`).
        self._spent: list[frozenset[str]] = [frozenset()] * len(self.seat_rules)
        #: Each seat's whole turn drawn by one generated function (derived/kernel.py), where its
        #: only program is a move and the moved worker's counted build; and each seat's program
        #: runner, which judges the obligations in force before a kernel may draw.
        self._kernels: list[Kernels | None] = [None] * len(self.seat_rules)
        self._runs: list[Callable[[Walk], bool]] = []
        self._roots = [self._compile_seat(rules) for rules in self.seat_rules]
        shapes = [self._fast_shape(rules) if fast and not rules.grants_turns else None for rules in self.seat_rules]
        self._shapes = shapes
        self._plain_listers = [plain_lister(shape.programs[0], shape) if shape and len(shape.programs) == 1 else None
                              for shape in shapes]
        #: The last turn `random_turn` picked, with what identifies the state it was picked for and
        #: its events: (steps, state, hash, seat to move, turns played, events).
        self._picked: Picked | None = None
        #: The turns `turns` last listed with their events and winners, and what identifies the
        #: state they are for (a copy of it too): (hash, seat to move, turns played, the last
        #: turn's record, {turn: (events, winner)}).
        self._listed: tuple[int, int, int, TurnRecord | None, Listed] | None = None
        #: Each seat's player of the turns the engine found legal (fast/known_turns.py): for the
        #: plain turn's shapes (the others are walked along their steps: `_accepted`).
        self._known_turns = [KnownTurnPlayer(shape) if shape and not shape.extended else None for shape in shapes]
        #: Each seat's way to draw a random turn without listing them all, if it has one.
        self._pickers = [(masked_picker(shape, self._turn_end(self.seat_rules[seat]) if shape.turn_ends else None)
                         if shape.extended else
                         (plain_picker(shape.programs[0], shape) if len(shape.programs) == 1 else None)
                         or counted_picker(shape)) if shape and hand_tuned_pickers else None
                        for seat, shape in enumerate(shapes)]
        #: Each seat drawn by counting its outcomes with the derived code (derived/tally.py),
        #: where no hand-tuned picker or lister of the plain turn serves it. A seat whose turn
        #: the count could not prove exact (a win-less outcome at the leaf beside outcomes merged
        #: by bits) is drawn from its list from then on: the count would be made for nothing.
        self._counting = [picker is None and (lister is None or not hand_tuned_pickers) and derivation is not None
                         and derivation.counts
                         for picker, lister, derivation in zip(self._pickers, self._plain_listers, self._derivations,
                                                                strict=True)]
        #: Each seat whose whole turn its kernels draw, list and search for a win
        #: (derived/kernel.py), where no hand-tuned picker or lister of the plain turn serves it.
        self._kernelled = [picker is None and (lister is None or not hand_tuned_pickers) and kernels is not None
                          for picker, lister, kernels in zip(self._pickers, self._plain_listers, self._kernels,
                                                             strict=True)]
        #: The loop of random turns (fast/playout.py): the seats that play the plain turn, with no
        #: move option and no dome option, are played inline.
        inline = [inline_turn(shape.programs[0], shape) if shape and hand_tuned_pickers and len(shape.programs) == 1
                  else None for shape in shapes]
        self._inline_seats = [turn is not None for turn in inline]

        def winning_turn(state: GameState, seat: int, steps: tuple[Action, ...]) -> None:
            self._apply_found(state, seat, steps, None)
        self._playout = fused_playout([turn[0] if turn else None for turn in inline],
                                      self._forbidden if self._restricting else None, self._other_turn,
                                      winning_turn,
                                      [turn[1] if turn else () for turn in inline],
                                      [self._kernel_picker(seat) if self._kernelled[seat] else picker
                                       for seat, picker in enumerate(self._pickers)],
                                      self._apply_found)
        #: Each seat's fast answer to "can it win at once?", if its turn is the plain one.
        self._win_checks = [plain_can_win(shape.programs[0], shape) if shape and len(shape.programs) == 1 else None
                           for shape in shapes]
        self._plain_players = [[player for program in shape.programs
                               if (player := plain_player(program, shape)) is not None] if shape else []
                              for shape in shapes]

    def _turn_end(self, rules: SeatRules) -> Callable[[GameState, tuple[Event, ...], int], tuple[Event, ...] | None]:
        """For a fast path: what the seat's end-of-turn steps, all automatic (fast/shape.py),
        add to a turn. `(state after the turn's steps, the turn's events, the worker of its last
        step)` -> the events they add, or None when they end the game (a team loses) and the
        engine must play the turn itself."""
        chain = self._turn_end_chain(rules)

        def added(state: GameState, events: tuple[Event, ...], last_actor: int) -> tuple[Event, ...] | None:
            found: list[tuple[Event, ...]] = []

            def leaf(walk: Walk) -> bool:
                found.append(tuple(walk.events[len(events):]))
                return True
            walk = Walk(state, leaf)
            self._start_turn(walk)
            walk.events, walk.last_actor = list(events), last_actor
            chain(walk)
            extra = found[0] if found else None
            if extra is None or state.winner is not None or any(event[0] == "lose" for event in extra):
                return None
            return extra
        return added

    def _turn_end_chain(self, rules: SeatRules) -> StepFn:
        """The seat's end-of-turn steps, compiled on the generic chain."""
        judge = Judge(rules.seat, rules.team)
        compiler = StepCompiler(rules, judge, self._move_wins(rules, judge), self._board_wins(),
                                self._reactions(rules))
        chain: StepFn = finish
        for step in reversed(rules.turn_ends):
            chain = compiler.compile(step, chain, chain)
        return chain

    def _turn_end_winner(self, rules: SeatRules) -> TurnEndWinner:
        """For the kernels' search for a win: the team that wins once the seat's end-of-turn steps
        are taken after a turn (`(state after the turn's steps, its events, the worker of its last
        step)`), or None."""
        chain = self._turn_end_chain(rules)

        def winner(state: GameState, events: tuple[Event, ...], last_actor: int) -> int | None:
            found: list[int | None] = []

            def leaf(walk: Walk) -> bool:
                found.append(walk.state.winner)
                return True
            walk = Walk(state, leaf)
            self._start_turn(walk)
            walk.events, walk.last_actor = list(events), last_actor
            chain(walk)
            return found[0] if found else None
        return winner

    def _fast_shape(self, rules: SeatRules) -> FastRules | None:
        """The fast paths' record of a seat's rules, if they understand every part of them and
        of the other seats' prohibitions that may bind it (fast/shape.py)."""
        return fast_rules(rules, [other for other in self.seat_rules if other.seat != rules.seat])

    def _fact_key(self, walk: Walk) -> int:
        """The bits of the facts of the turn so far that a rule of the seat reads later."""
        key = 0
        for matches, bits in self._seat_memory[walk.seat]:
            if any(matches(walk, event) for event in walk.events):
                key ^= bits
        return key

    def _memory(self, rules: SeatRules) -> list[tuple[Callable[[Walk, Event], bool], int]]:
        """The facts of this seat's turns that its rules read later, each with its hash key."""
        judge = Judge(rules.seat, rules.team)
        return [(judge.pattern(condition.pattern), ZOBRIST.fact(rules.seat, index))
                for index, condition in enumerate(rules.memory)]

    # ---- compilation
    def _move_wins(self, rules: SeatRules, judge: Judge) -> WinCheck:
        """Whether a move of this seat wins: one of its wins matches and no veto of a seat that
        binds it does. A move made in the seat's turn is the seat's, whichever worker makes it
        (one of an opponent's that a power lets it move): 'you win if your worker moves ...' and
        'an opponent cannot win by moving ...' are about the player whose turn it is."""
        wins = [_guarded(judge.pattern(_by_the_player(win.pattern)),
                         judge.compile(win.when) if win.when is not None else None)
                for win in rules.wins]
        vetoes = [(seat_rules.seat, Judge(seat_rules.seat, seat_rules.team).pattern(_by_the_player(veto.pattern)))
                  for seat_rules in self.seat_rules for veto in seat_rules.vetoes
                  if reaches(seat_rules, veto.binds, rules.team)]
        team = rules.team
        if not vetoes:
            return lambda walk, event: team if any(win(walk, event) for win in wins) else None

        def check(walk: Walk, event: Event) -> int | None:
            if not any(win(walk, event) for win in wins):
                return None
            out = walk.state.out
            return None if any(seat not in out and veto(walk, event) for seat, veto in vetoes) else team
        return check

    def _board_wins(self) -> Callable[[Walk], int | None] | None:
        """The team a change of the board makes win ('when there are at least five complete
        towers'), whoever made it; None when no seat has such a win."""
        tests = [(rules.seat, rules.team, Judge(rules.seat, rules.team).compile(win.condition))
                 for rules in self.seat_rules for win in rules.wins_when]
        if not tests:
            return None

        def check(walk: Walk) -> int | None:
            out = walk.state.out
            for seat, team, test in tests:
                if seat not in out and test(walk, -1, -1, -1, 0, 0, None):
                    return team
            return None
        return check

    def _reactions(self, rules: SeatRules, losses: bool = True) -> tuple[Reaction, ...]:
        """What other seats' powers make happen after each move of this seat (a slide, a loss);
        without the losses where `losses` is False (a turn in which no player can win: a loss is
        the others' win)."""
        reactions: list[Reaction] = []
        for holder in self.seat_rules:
            judge = Judge(holder.seat, holder.team)
            for reaction in holder.reactions:
                if not reaches(holder, reaction.trigger.owner, rules.team) or (
                        not losses and reaction.step.verb is Verb.LOSE):
                    continue
                trigger = judge.pattern(reaction.trigger)
                seat = holder.seat

                def live(walk: Walk, event: Event, trigger: Callable[[Walk, Event], bool] = trigger,
                         seat: int = seat) -> bool:
                    return seat not in walk.state.out and trigger(walk, event)
                reactions.append(loss_reaction(live) if reaction.step.verb is Verb.LOSE
                                 else slide_reaction(judge, live, reaction.step))
        return tuple(reactions)

    def _compile_seat(self, rules: SeatRules) -> StepFn:
        judge = Judge(rules.seat, rules.team)
        compiler = StepCompiler(rules, judge, self._move_wins(rules, judge), self._board_wins(),
                                self._reactions(rules))
        programs = [self._compile_program(program, rules, compiler) for program in rules.programs]
        seat = rules.seat
        owed = self._additional_turn(rules, judge, compiler) if rules.grants_turns else None
        derived: list[StepFn] | None = None
        if self.fast:  # (the usual turns; an owed additional turn runs on the chain, in `run`)
            def derivation() -> DerivedCompiler:
                return DerivedCompiler(rules, judge, compiler.move_wins, compiler.board_wins, compiler.reactions,
                                       [Ban(b.verb, b.test, Judge(b.seat, b.team), b.prohibition.filters,
                                            b.team == rules.team) for b in self._bindings if b.reaches(rules.team)],
                                       [win.condition for other in self.seat_rules for win in other.wins_when],
                                       [Veto(other.seat, Judge(other.seat, other.team), veto)
                                        for other in self.seat_rules for veto in other.vetoes
                                        if reaches(other, veto.binds, rules.team)],
                                       [Bound(holder, Judge(holder, team), obligation)
                                        for holder, team, obligation, _ in self._obligations if team != rules.team],
                                       [Slide(other.seat, Judge(other.seat, other.team), reaction)
                                        for other in self.seat_rules for reaction in other.reactions
                                        if reaction.step.verb is Verb.FORCE
                                        and reaches(other, reaction.trigger.owner, rules.team)])
            lowered = derivation()
            derived = [self._compile_program(program, rules, lowered) for program in rules.programs]
            self._derivations[seat] = lowered
            # (kernels draw a usual turn whole, where a seat owed an additional turn must take that
            # one: a seat whose card gives them has none; its counted and listed turns go through
            # `run`, which takes the owed turn on the chain)
            self._kernels[seat] = None if rules.grants_turns else _seat_kernels(derived)
            options = [option for options in rules.options.values() for option in options]
            marks = frozenset(mark for mark in (*(option.once_per_game for option in options),
                                                *(program.once_per_game for program in rules.programs),
                                                *(step.once_per_game for step in (*rules.turn_ends,
                                                                                  *rules.turn_begins)))
                              if mark is not None)
            if self._kernels[seat] is None and marks and not rules.grants_turns and not any(
                    option.instead for option in options if option.once_per_game is not None):
                # (the seat's turns once its once-per-game ways, turns and end-of-turn steps are
                # used: kernel.py's `once_spent`)
                spent = derivation()
                spent.spent = marks
                kernels = _seat_kernels([self._compile_program(program, rules, spent) for program in rules.programs
                                         if program.once_per_game not in marks])
                if kernels is not None:
                    self._kernels[seat] = once_spent(kernels, seat, marks)
                    self._spent[seat] = marks

        # (a turn found by its steps once per game, `Your Turn (once per game):`, whose steps an
        # earlier program also accepts, is played as that one: such a program's turns are listed
        # only where they play as listed; `earlier` bounds the earlier programs' turns' lengths)
        unannounced = [program.once_per_game if program.once_per_game is not None and not program.announced and index
                       else None for index, program in enumerate(rules.programs)]
        earlier = _turn_lengths(rules, rules.programs[:max((i for i, m in enumerate(unannounced) if m), default=0)])
        # (a program whose turns are all longer than the earlier programs' cannot share their steps)
        unannounced = [mark if mark is not None and _turn_lengths(rules, [program])[0] <= earlier[1] else None
                       for mark, program in zip(unannounced, rules.programs, strict=True)]

        owed_name = Counter.ADDITIONAL_TURN.value

        def run(walk: Walk) -> bool:
            if owed is not None and walk.state.counters.get((seat, owed_name), 0) > 0:
                return owed(walk)
            enumerating = derived is not None and _enumerating(walk)
            for index, program in enumerate(programs):
                chain = derived[index] if enumerating else program  # type: ignore[index]  # (derived is set)
                mark = unannounced[index]
                if mark is not None and walk.script is None and (seat, mark) not in walk.state.marks:
                    stop = self._as_listed(walk, chain, mark, earlier)
                else:
                    stop = chain(walk)
                if stop and not enumerating:
                    return True
            return False

        self._runs.append(run)
        #: The tests of the obligations that no build can change (derived/invariance.py).
        settled = {test for _, _, obligation, test in self._obligations if unchanged_by_a_build(obligation.requirement)}

        # (what of a turn's log the obligations other seats may lay on it and its own facts read:
        # a search visits a state once per value of it, `Walk.log_context`)
        memory = self._seat_memory[seat]
        binding = [(Judge(holder, team), obligation.requirement)
                   for holder, team, obligation, _ in self._obligations if team != rules.team]
        context = log_context(binding, [matches for matches, _ in memory]) if binding or memory else None

        def root(walk: Walk) -> bool:
            self._start_turn(walk)
            if walk.legal:  # (a turn found legal for this state: its events and winner are all it wants)
                return run(walk)
            walk.log_context = context
            required, late = self._obligations_in_force(walk, run)
            if not required and not late:
                if not memory:
                    walk.log_context = None  # (nothing judges the turn's log: a state is visited once)
                # (an outcome is the board and the facts it keeps: the derived code may skip a step
                # entered again in the same state and context)
                walk.memo = walk.keyed_by_board and walk.fact_key is None
                return run(walk)
            leaf = walk.leaf
            walk.declined = leaf
            if late:
                met_late = self._late_judge(walk, run, required, late)
                walk.leaf = lambda w: (all(test(w, -1, -1, -1, 0, 0, None) for test in required) and met_late(w)
                                       and leaf(w))
            else:
                walk.leaf = lambda w: all(test(w, -1, -1, -1, 0, 0, None) for test in required) and leaf(w)
            if (self.fast and _enumerating(walk)
                    and all(test in settled for test in required) and all(test in settled for test, _ in late)):
                # the derived code judges obligations that no build changes once before a last
                # build, and keys its builds (derived/invariance.py); one read late, once the turn
                # has taken the step it is judged at (until then, each outcome is judged)
                tests: list[Callable[..., bool | None]] = list(required)
                if late:
                    verbs = {verb for _, verb in late}
                    tests.append(lambda w, *view: met_late(w) if verbs <= {a[0] for a in w.path} else None)
                walk.prefix_tests = tuple(tests)
            else:
                walk.keyed_by_board = False  # an outcome is kept only if its turn meets the obligations
            try:
                return run(walk)
            finally:
                walk.leaf, walk.declined = leaf, None
                walk.prefix_tests = ()
        return root

    def _additional_turn(self, rules: SeatRules, judge: Judge, compiler: StepCompiler) -> StepFn:
        """The turn the seat takes when it is owed one: one of its additional turn programs, or a
        pass. In a program that says 'no player can win during this turn' no step wins: its
        steps are compiled with no win to judge, and no power's reaction makes a player lose (a
        loss is the other players' win)."""
        winless = StepCompiler(rules, judge, lambda walk, event: None, None, self._reactions(rules, losses=False))
        chains = [self._compile_program(program, rules, winless if program.winless else compiler)
                  for program in rules.additional]
        return additional_turn(rules.seat, chains)

    def _obligations_in_force(self, walk: Walk,
                              run: Callable[[Walk], bool]) -> tuple[list[Test], list[tuple[Test, str]]]:
        """The obligations other seats' powers lay on this turn: those in force (a test every turn
        must pass), and those read late (test, verb). One that binds only 'if possible' is in force
        when some turn meets it, judged over the whole turn; read late (the pack's setting), it is
        judged at the moment it applies, the first step of its verb (`_late_judge`)."""
        required: list[Test] = []
        late: list[tuple[Test, str]] = []
        state = walk.state
        for holder, team, obligation, test in self._obligations:
            if holder in state.out or team == walk.team:
                continue
            if obligation.if_possible:
                verb = _verb_of(obligation.requirement)
                if self.if_possible is IfPossible.LATE and verb is not None:
                    late.append((test, verb.value))
                    continue
                if not self._possible(walk, run, (*required, test)):
                    continue  # possible together with the obligations already in force, or not at all
            required.append(test)
        return required, late

    def _possible(self, walk: Walk, run: Callable[[Walk], bool], tests: tuple[Test, ...],
                  prefix: tuple[Action, ...] | None = None, state: GameState | None = None) -> bool:
        """Whether some complete turn (beginning with `prefix`, if given) meets every test."""
        least = len(prefix) if prefix is not None else 0
        found = False

        def meets(w: Walk) -> bool:
            nonlocal found
            found = found or (len(w.path) >= least and all(t(w, -1, -1, -1, 0, 0, None) for t in tests))
            return found
        if not prefix:  # (a whole turn: the search stops at the first turn that meets the tests)
            probe = Walk(state or walk.state, meets)
        else:  # (past a written beginning the search goes on after a stop: `found` tells)
            probe = Walk(state or walk.state, meets, script=prefix, frontier=set())
        probe.banned, probe.forbid_up, probe.forbid_down = walk.banned, walk.forbid_up, walk.forbid_down
        probe.domelike, probe.log_context = walk.domelike, walk.log_context
        run(probe)
        return found

    def _late_judge(self, walk: Walk, run: Callable[[Walk], bool], required: list[Test],
                    late: list[tuple[Test, str]]) -> Callable[[Walk], bool]:
        """For obligations read late: a complete turn passes one if it meets it, or if, at the
        first step of its verb, no way on from the steps taken before meets it (judged from a copy
        of the turn's starting state, once per obligation and beginning)."""
        known: dict[tuple[int, tuple[Action, ...]], bool] = {}  # (which obligation, the turn's beginning) -> possible
        start = walk.state.copy()

        def met(w: Walk) -> bool:
            for index, (test, verb) in enumerate(late):
                if test(w, -1, -1, -1, 0, 0, None):
                    continue
                path = tuple(w.path)
                first = next((i for i, action in enumerate(path) if action[0] == verb), len(path))
                key = (index, path[:first])
                if key not in known:
                    known[key] = self._possible(walk, run, (*required, test), key[1], start)
                if known[key]:
                    return False
            return True
        return met

    def _compile_program(self, program: Program, rules: SeatRules, compiler: StepCompiler) -> StepFn:
        """A program's chain: the seat's gains, the announcement (or the once-per-game mark), the
        program's steps, each with the follow-ups its verb triggers, then the seat's end-of-turn
        steps."""
        chain = self._compile_steps(program, rules, compiler)
        spent: frozenset[str] = getattr(compiler, "spent", frozenset())
        for step in reversed([step for step in rules.turn_begins if step.once_per_game not in spent]):
            # (before the program's first step; the derived code's kernels begin there, so a seat
            # with such steps has none until they are spent)
            chain = compiler.compile(step, chain, chain)
        if rules.turn_starts:
            kernels: Kernels | None = getattr(chain, "kernel", None)
            chain = gain_step(tuple(rules.turn_starts), chain)
            if kernels is not None:  # (the derived code's: the same functions, the gains made first)
                chain.kernel = after_gains(kernels, rules.seat,  # type: ignore[attr-defined]
                                           tuple((c.counter.value, c.amount) for c in rules.turn_starts))
        if program.announced or program.once_per_game is not None:
            kernels = getattr(chain, "kernel", None)
            name = program.name if program.announced else None
            chain = use_step(name, chain, program.once_per_game)
            if kernels is not None:  # (the derived code's: each turn after the announcement or the mark)
                chain.kernel = after_use(kernels, rules.seat, name,  # type: ignore[attr-defined]
                                         program.once_per_game)
        return chain

    def _compile_steps(self, program: Program, rules: SeatRules, compiler: StepCompiler,
                       with_ends: bool = True) -> StepFn:
        """A program's steps, each with the follow-ups its verb triggers, then the seat's
        end-of-turn steps (unless not `with_ends`)."""
        chain: StepFn = finish
        spent: frozenset[str] = getattr(compiler, "spent", frozenset())
        ends = [step for step in (rules.turn_ends if with_ends else ()) if step.once_per_game not in spent]
        for step in reversed(ends):
            chain = compiler.compile(step, chain, chain)
        for step in reversed(program.steps):
            step = self._replaced(step, rules)
            rest = chain
            after = rest
            if step.repeat.times is not None:
                for followup in reversed(rules.followups):
                    if followup.trigger.verb is step.verb and followup.timing is not FollowUpTiming.BEFORE:
                        after = self._follow_up(followup, compiler, after)
            chain = compiler.compile(step, after, rest)
            befores = [f for f in rules.followups if f.trigger.verb is step.verb and f.timing is FollowUpTiming.BEFORE]
            if befores and step.repeat.times is not None:
                bound = compiler.compile(dataclasses.replace(step, actor=WorkerSelector(Role.THAT)), after, rest)
                for followup in befores:
                    before = dataclasses.replace(followup.step, actor=step.actor)
                    chain = compiler.compile(before, bound, chain)
        if (ends and isinstance(compiler, DerivedCompiler)
                and all(ends_without_choice(step) for step in ends)):
            # (the turn's kernels without the end-of-turn steps, which add to its events)
            bare: Kernels | None = getattr(self._compile_steps(program, rules, compiler, with_ends=False), "kernel",
                                           None)
            if bare is not None:
                kept = compiler.board_wins is None and all(step.verb is Verb.REMOVE for step in rules.turn_ends)
                # (steps that make a team lose on what no build changes: judged after each move,
                # where no reaction to the move takes the worker on)
                after_moves = (self._turn_end_winner(rules) if not kept and not compiler.reactions and all(
                    step.verb is Verb.LOSE and step.destination is None and all(
                        unchanged_by_a_build(part) for part in (*step.filters, *((step.guard,) if step.guard else ())))
                    for step in rules.turn_ends) else None)
                # (obligations on the turn's moves alone, which the steps leave as they were)
                moves_only = all(isinstance(obligation.requirement, Happened) and all(
                    view_only(part) for part in obligation.requirement.pattern.filters)
                    for _, _, obligation, _ in self._obligations)
                chain.kernel = after_turn_ends(bare, self._turn_end(rules), kept,  # type: ignore[attr-defined]
                                               after_moves, moves_only)
        return chain

    @staticmethod
    def _replaced(step: Step, rules: SeatRules) -> Step:
        """A program step as a power's replacement of it says ('... any number of times instead,
        spending 1 coin each time'): its repetition, modality and cost."""
        for option in rules.options.get(step.verb, []):
            stated = option.step
            if option.instead and (stated.repeat.times != 1 or stated.repeat.up_to or stated.cost):
                return dataclasses.replace(step, repeat=stated.repeat, modality=stated.modality, cost=stated.cost)
        return step

    @staticmethod
    def _follow_up(followup: FollowUp, compiler: StepCompiler, after: StepFn) -> StepFn:
        """After a program step, the follow-up's step when the step matches its trigger; 'each
        time' offers it again after each of its own steps that match."""
        matches = compiler.judge.pattern(followup.trigger)
        kind = EVENT_KIND[followup.trigger.verb]

        def last_event(walk: Walk) -> Event | None:
            return next((e for e in reversed(walk.events) if e[0] == kind), None)

        if followup.timing is FollowUpTiming.EACH_TIME:
            # 'each time' is a step repeated while its steps match the trigger: searched breadth
            # first like any repeated step (chain/steps.py's breadth_first), the turn going on (`after`)
            # from each state it reaches, the step taken again from those that match
            onward: list[StepFn] = [after]  # (where the step's candidates go on: the search's)

            def expand(walk: Walk, then: StepFn) -> bool:
                event = last_event(walk)
                if event is None or not matches(walk, event):
                    return False
                previous, onward[0] = onward[0], then
                try:
                    return step(walk)
                finally:
                    onward[0] = previous

            def again(walk: Walk) -> bool:
                event = last_event(walk)
                if event is None or not matches(walk, event):
                    return after(walk)
                return breadth_first(walk, again, after, expand)
            # (taken again only: the search goes on from each state itself, so where a guard
            # does not hold, the step offers nothing more)
            step = compiler.compile(dataclasses.replace(followup.step, modality=Modality.MUST),
                                    lambda walk: onward[0](walk), lambda walk: False)
            if followup.step.verb is Verb.MOVE and followup.step.guard is None:
                # (the derived engine's kernels take it in: repeated_moves.py; a guard they do not judge)
                again.moves_again = MovesAgain(followup.trigger, followup.step)  # type: ignore[attr-defined]
                again.then = after  # type: ignore[attr-defined]
            return again

        step = compiler.compile(followup.step, after, after)
        if not followup.trigger.filters:
            return step

        def triggered(walk: Walk) -> bool:
            event = last_event(walk)
            return step(walk) if event is not None and matches(walk, event) else after(walk)
        automatic = getattr(step, "automatic", None)  # (a step the derived engine lowers: derived/kernel.py)
        if automatic is not None and after is finish:
            triggered.automatic = automatic.triggered(followup.trigger)  # type: ignore[attr-defined]
        return triggered

    # ---- turn start
    def _start_turn(self, walk: Walk) -> None:
        """Put in force the prohibitions that other seats' powers lay on this turn, and the
        tokens its player treats as domes."""
        memory = self._seat_memory[walk.seat]
        walk.keyed_by_board = not memory
        if memory and self._settled_memory[walk.seat] and self.fast and _enumerating(walk):
            # the derived code keys a last build with the facts of the turn's moves, which no
            # build changes (derived/invariance.py)
            walk.keyed_by_board, walk.fact_key = True, self._fact_key
        if self._dome_likes and walk.state.tokens:
            walk.domelike = self._domelike(walk)
        if not self._restricting:
            return
        banned: dict[Verb, list[Test]] = {}
        state = walk.state
        lifted = self._lifted
        for binding in self._bindings:
            if lifted and binding in lifted:
                continue
            if binding.binds(state, walk.team) and (binding.when is None or binding.when(walk, -1, -1, -1, 0, 0, None)):
                banned.setdefault(binding.verb, []).append(binding.test)
                if binding.flag == "up":
                    walk.forbid_up = True
                elif binding.flag == "down":
                    walk.forbid_down = True
        walk.banned = {verb: tuple(tests) for verb, tests in banned.items()}

    def _domelike(self, walk: Walk) -> frozenset[int]:
        """The squares whose tokens the player to move treats as if they held only a dome."""
        state = walk.state
        squares: set[int] = set()
        for square, (kind, holder) in state.tokens.items():
            holder_team = state.seats[holder].team
            for rule_holder, token, binds in self._dome_likes:
                if rule_holder == holder and token == kind and holder not in state.out and (
                        binds is Owner.ANYONES or (binds is Owner.OPPONENTS and holder_team != walk.team)):
                    squares.add(square)
        return frozenset(squares)

    def _forbidden(self, state: GameState, team: int) -> tuple[bool, bool]:
        """Whether other seats' powers forbid moving up, and moving down, to `team` this turn (for
        the fast paths, which the gate lets run only under these two prohibitions)."""
        walk = Walk(state, stop)
        self._start_turn(walk)
        return walk.forbid_up, walk.forbid_down

    def _key(self, walk: Walk) -> int:
        """The outcome key of the turn walked so far: the state's, and each fact of the turn that
        a rule reads later (fast/shape.py keeps the fast paths off seats that have such facts
        unless the board shows them)."""
        key = walk.state.outcome_key()
        for matches, bits in self._seat_memory[walk.seat]:
            if any(matches(walk, event) for event in walk.events):
                key ^= bits
        return key

    # ---- how each seat is served
    def paths(self, seat: int) -> list[str]:
        """How the engine finds the seat's turns, in words: what lists them, what draws a random
        one, and what the derived engine (interpreter/derived) lowered from the seat's parts or
        left to the generic chain, and why (`santorini show` and `bench` print it)."""
        if not self.fast:
            return ["every traversal: the generic chain (fast paths off)"]
        if self._plain_listers[seat] is not None:
            listing = "the plain turn's lister (fast/plain.py)"
        elif self._kernels[seat] is not None:
            listing = "the whole turn by the derived code (derived/kernel.py)"
        else:
            listing = "the derived code, step by step (derived/steps.py)"
        picker = self._pickers[seat]
        name = getattr(picker, "__qualname__", type(picker).__name__).split(".")[0]
        drawing = (f"counted by a hand-tuned picker ({name})" if picker is not None
                   else "drawn whole by the derived code (derived/kernel.py)"
                   if self._kernelled[seat]
                   else "counted by the derived code (derived/tally.py)" if self._counting[seat]
                   else "drawn from the listed turns")
        derivation = self._derivations[seat]
        report = derivation.report() if derivation is not None else []
        if self._kernelled[seat]:  # (the count's reasons hold only where the kernels leave a position)
            report = [f"where the kernels leave a position to the chain, {line}" if line.startswith("listed to draw:")
                      else line for line in report]
        lines = [f"listing turns: {listing}", f"random turn: {drawing}", *report]
        if self.seat_rules[seat].grants_turns:
            lines.append("generic: an additional turn the seat is owed (no lowering yet; its usual turns as above)")
        if self._spent[seat]:
            lines.append(f"once per game ({', '.join(sorted(self._spent[seat]))}): the whole turn by the derived "
                         "code once the card is marked, the count (derived/tally.py) until then")
        if derivation is not None and self._kernels[seat] is None:
            why = ("the seat has more than one turn program, and not every one has kernels, or two may find one "
                   "outcome (derived/kernel.py's alternatives)" if len(self.seat_rules[seat].programs) > 1
                   else derivation.unkernelled[0] if derivation.unkernelled
                   else "its turn is not a move (or two) followed by the moved worker's counted build")
            lines.append(f"not drawn whole (derived/kernel.py): {why}")
        team = self.seat_rules[seat].team
        kernels = self._kernels[seat]
        if any(holder_team != team for _, holder_team, _, _ in self._obligations):
            lines.append("another seat's obligation: lowered as the squares the move must end on (derived/kernel.py)"
                         if self._kernelled[seat] and kernels is not None and kernels.lowers_obligations
                         else "generic: another seat's obligation, judged on each whole turn by the generic test")
        if derivation is not None and derivation.reactions:
            lines.append("another seat's reaction to this seat's moves: lowered as a slide (derived/writer.py)"
                         if self._kernelled[seat] and derivation.lowered_slide() is not None
                         else "generic: a reaction to this seat's moves ('each time ... moves, ...': "
                              "another seat's, or its own card's)")
        if derivation is not None and derivation.board_wins is not None:
            lines.append("a win judged on the board: a drawn build that may make it hold is played step by step"
                         if self._kernelled[seat] else "generic: a win judged on the board after every build")
        if self._seat_memory[seat]:
            lines.append("generic: facts of this seat's turns that a rule reads later, keyed on each outcome")
        if self._asleep is not None:
            asleep = self._asleep.paths(seat)
            lines.append(f"while no {', '.join(sorted(self._sleeping))} token is on the board, the parts that need "
                         f"one sleep (engine/sleeping.py): {asleep[0]}; {asleep[1]}")
        return lines

    # ---- queries
    def _for(self, state: GameState) -> Engine:
        """The engine that serves `state`: this one, or where a token that some part needs (and that
        only a setup places) is not on the board, the one without those parts (sleeping.py)."""
        sleeping = self._sleeping
        for kind, _ in state.tokens.values():
            if kind in sleeping:
                return self
        return self._asleep if self._asleep is not None else self

    def view(self, state: GameState, seat: int) -> GameState:
        """What `seat` may see of `state` (views.py): the state itself when the cards hide nothing
        from it, else a copy without what they hide. A seat's turns are listed on its view."""
        return self.secrets.view(state, seat) if self.secrets else state

    @_asleep_or_awake
    def outcomes(self, state: GameState) -> dict[int, tuple[Action, ...]]:
        """The distinct outcomes of the turn of the seat to move: outcome key -> one turn. A
        finished game has none (the spec's perft counts it 0), whatever its board would allow."""
        return {} if state.winner is not None else self._outcomes(state, None)

    def _outcomes(self, state: GameState, listed: Listed | None) -> dict[int, tuple[Action, ...]]:
        """`outcomes`; with `listed`, each turn's events and winner too (see `turns`)."""
        found: dict[int, tuple[Action, ...]] = {}

        def leaf(walk: Walk) -> bool:
            key = self._key(walk)
            if key not in found:
                found[key] = turn = tuple(walk.path)
                if listed is not None:
                    listed[turn] = (tuple(walk.events), walk.state.winner)
            return False
        walk = Walk(state, leaf)
        walk.found = found
        walk.listed = listed
        self._roots[state.to_move](walk)
        return found

    @_asleep_or_awake
    def turns(self, state: GameState, keep_events: bool = False) -> list[tuple[Action, ...]]:
        """One turn for each distinct outcome, in the order of `outcomes`: what a random player
        picks from. When the seat's only program is the plain turn its turns are already
        distinct outcomes (see plain.py), so they are listed without computing keys.

        `keep_events`: for a caller that will play the turns of the list (an agent that plays
        each on a copy of the state): the engine keeps each turn's events and winner, for the
        last state listed so, and `play`/`play_in_place` play a turn of it on that state or a
        copy of it without walking it again. A finished game has no turn."""
        if state.winner is not None:
            return []
        lister = self._plain_listers[state.to_move]
        if lister is None and self._kernels[state.to_move] is not None and self.fast:
            kernels, walk = self._kernel_walk(state)
            if walk is not None:
                kept: Listed | None = {} if keep_events else None
                turns = kernels.turns(walk, kept)
                if kept is not None:
                    self._listed = (state.hash, state.to_move, len(state.history),
                                    state.history[-1] if state.history else None, kept)
                return turns
        if lister is None:
            if not self.fast or not keep_events:
                return list(self.outcomes(state).values())
            listed: Listed = {}
            turns = list(self._outcomes(state, listed).values())
            self._listed = (state.hash, state.to_move, len(state.history),
                            state.history[-1] if state.history else None, listed)
            return turns
        team = state.seats[state.to_move].team
        up, down = self._forbidden(state, team) if self._restricting else (False, False)
        return lister(state, team, up, down)

    @_asleep_or_awake
    def turns_in_random_order(self, state: GameState, rng: Random) -> Iterator[tuple[Action, ...]]:
        """Each turn of `turns(state)` once, in a uniformly random order: the indices shuffled
        by Fisher-Yates one place at a time (place i takes `rng.randrange(i, n)`), each turn made
        only when the caller asks for the next.

        Why: an agent that wants a random turn with some property (one that wins, one that
        hands the next seat no win) takes the first that has it, and pays for the turns it
        looked at rather than for listing them all. Where the seat's turns are counted (its
        kernels, or the tally) the i-th turn is drawn by its index and nothing is listed; else
        the list is made. The i-th turn is `turns(state)[i]` either way, so the order is the same
        with the fast paths on or off. A turn drawn here is played on this state, or on a copy,
        without being walked again, as a listed one is. A finished game has no turn."""
        if state.winner is not None:
            return
        count, nth, listed = self._indexed(state)
        if listed is not None:
            self._listed = (state.hash, state.to_move, len(state.history),
                            state.history[-1] if state.history else None, listed)
        moved: dict[int, int] = {}  # (the places the shuffle has changed; any other holds its own index)
        for place in range(count):
            pick = rng.randrange(place, count)
            index = moved.get(pick, pick)
            moved[pick] = moved.get(place, place)
            steps, events = nth(index)
            if events is not None and listed is not None:
                listed[steps] = (events, None)  # (a counted turn with events wins nothing: `_apply_found`)
            yield steps

    def _indexed(self, state: GameState) -> tuple[int, Callable[[int], MadeTurn], Listed | None]:
        """The number of turns of the seat to move, the i-th of them in `turns`'s order as
        (steps, events or None), and the dict where the events of the turns drawn are kept for
        `accept` (None: the list made here keeps them itself)."""
        seat = state.to_move
        if self.fast and self._plain_listers[seat] is None:
            if self._kernels[seat] is not None:
                kernels, walk = self._kernel_walk(state)
                if walk is not None:  # (one walk for the count and every draw: the kernels keep the count)
                    def drawn(index: int) -> MadeTurn:
                        made = kernels.draw(walk, IndexDrawn(index))  # type: ignore[arg-type]  # (its one randrange)
                        assert made is not None  # (an index below the count)
                        return made
                    return kernels.count(walk), drawn, {}
            if self._counting[seat]:
                tally = self._tally(state)
                if tally.counted():
                    def counted(index: int) -> MadeTurn:
                        return cast(MadeTurn, tally.turn(index, state.heights, state.tokens))
                    return tally.total, counted, {}
        turns = self.turns(state, keep_events=True)
        return len(turns), lambda index: (turns[index], None), None

    @_asleep_or_awake
    def random_turn(self, state: GameState, rng: Random) -> tuple[Action, ...] | None:
        """`turns(state)[rng.randrange(len(turns))]`, or None when there is no turn: a uniformly
        random distinct outcome, which is what a random player and a playout need. For the plain
        turn and the shapes built on it the pick is made without listing every turn
        (plain.plain_picker, counted.py). A finished game has no turn."""
        if state.winner is not None:
            return None
        picker = self._pickers[state.to_move]
        if picker is not None:
            team = state.seats[state.to_move].team
            up, down = self._forbidden(state, team) if self._restricting else (False, False)
            picked = picker(state, team, up, down, rng, free_bits(state))
            if picked is None:
                return None
            if picked is not DEFERRED:  # (DEFERRED: drawn from the list below)
                # (events None: a win or a forcing move, applied step by step)
                steps, events = cast("tuple[tuple[Action, ...], tuple[Event, ...] | None]", picked)
                self._picked = (steps, state, state.hash, state.to_move, len(state.history), events)
                return steps
        if self._kernelled[state.to_move]:
            drawn = self._kernel_draw(state, rng)
            if drawn is None:
                return None
            if drawn is not DEFERRED:
                steps, events = cast("tuple[tuple[Action, ...], tuple[Event, ...] | None]", drawn)
                self._picked = (steps, state, state.hash, state.to_move, len(state.history), events)
                return steps
        if self._counting[state.to_move]:
            tally = self._tally(state)
            if tally.counted():
                if not tally.total:
                    return None
                steps, events = cast("tuple[tuple[Action, ...], tuple[Event, ...] | None]",
                                     tally.turn(rng.randrange(tally.total), state.heights, state.tokens))
                self._picked = (steps, state, state.hash, state.to_move, len(state.history), events)
                return steps
            self._counting[state.to_move] = False  # (its turns mix what the count cannot tell apart)
        turns = self.turns(state)
        if not turns:
            return None
        steps = turns[rng.randrange(len(turns))]
        if self.fast:  # found legal for this very state: its events follow from its steps
            self._picked = (steps, state, state.hash, state.to_move, len(state.history), None)
        return steps

    def _kernel_draw(self, state: GameState, rng: Random) -> object:
        """The random turn of the seat to move drawn by its kernel (derived/kernel.py): its steps
        and events, None when it has none, or DEFERRED while another seat's obligation the
        kernel does not lower is in force (the turn is then counted or listed)."""
        kernels, walk = self._kernel_walk(state)
        return DEFERRED if walk is None else kernels.draw(walk, rng)

    def _kernel_walk(self, state: GameState) -> tuple[Kernels, Walk | None]:
        """The kernels of the seat to move, and a walk at its turn's start with the prohibitions
        in force; None while an obligation the kernels do not judge is in force, or a board win
        holds as the turn starts."""
        seat = state.to_move
        kernels = self._kernels[seat]
        assert kernels is not None
        walk = Walk(state, stop)
        self._start_turn(walk)
        if (self._obligations and not kernels.lowers_obligations
                and any(self._obligations_in_force(walk, self._runs[seat]))):
            return kernels, None
        if kernels.board_wins is not None and kernels.board_wins(walk) is not None:
            return kernels, None  # (a board win holds already: every build would make it, as the chain judges)
        if kernels.serves is not None and not kernels.serves(walk):
            return kernels, None
        return kernels, walk

    def _kernel_picker(self, seat: int) -> Callable[[GameState, int, bool, bool, Random, int], object]:
        """The seat's kernel as the playout loop calls a picker (DEFERRED: the loop then asks
        `random_turn`)."""
        def pick(state: GameState, team: int, up: bool, down: bool, rng: Random, free: int) -> object:
            return self._kernel_draw(state, rng)
        rules = self.seat_rules[seat]
        # (the kinds of event its turns have: those of moves and builds, unless a turn may also
        # announce a program, place a worker or end with steps of its own; None: not told, each
        # event is checked)
        plain = not rules.turn_ends and not rules.turn_begins and not any(
            program.announced or any(step.verb is Verb.PLACE for step in program.steps) for program in rules.programs)
        pick.event_kinds = frozenset({"move", "force", "build", "token"}) if plain else None  # type: ignore[attr-defined]
        pick.reads_history = bool(self._obligations) or self._restricting  # type: ignore[attr-defined]
        return pick

    def _tally(self, state: GameState) -> Tally:
        """The turn's distinct outcomes counted by the derived code (derived/tally.py)."""
        tally = Tally()

        def leaf(walk: Walk) -> bool:
            tally.leaf(walk, self._key(walk))
            return False
        walk = Walk(state, leaf)
        walk.tally = tally
        self._roots[state.to_move](walk)
        return tally

    @_asleep_or_awake
    def has_turn(self, state: GameState) -> bool:
        """Whether the seat to move can complete a turn at all (not in a finished game)."""
        return state.winner is None and self._roots[state.to_move](Walk(state, stop))

    @_asleep_or_awake
    def can_win(self, state: GameState) -> bool:
        """Whether some legal turn makes the seat to move win at once (its team: a turn that makes
        another seat win, such as a fifth complete tower for an opponent's count, does not count).
        In a finished game no turn can be played, so none wins."""
        if state.winner is not None:
            return False
        team = state.seats[state.to_move].team
        check = self._win_checks[state.to_move]
        if check is not None:
            up, down = self._forbidden(state, team) if self._restricting else (False, False)
            return check(state, team, up, down)
        if not self.fast:
            return self._roots[state.to_move](Walk(state, lambda walk: walk.state.winner == team))
        if self._kernels[state.to_move] is not None:
            kernels, walk = self._kernel_walk(state)
            if walk is not None and kernels.can_win is not None:
                return kernels.can_win(walk)
        won = False

        def leaf(walk: Walk) -> bool:  # (the derived code does not stop at the first win)
            nonlocal won
            won = won or walk.state.winner == team
            return False
        walk = Walk(state, leaf)
        walk.wins_only = True
        self._roots[state.to_move](walk)
        return won

    @_asleep_or_awake
    def legal_next(self, state: GameState, prefix: Sequence[Action]) -> tuple[list[Action], bool]:
        """The steps that may follow `prefix` (each one leaves the turn completable), and whether
        the prefix is already a complete turn. A finished game has no step."""
        if state.winner is not None:
            return [], False
        frontier: set[Action] = set()
        depth = len(prefix)

        def leaf(walk: Walk) -> bool:
            if len(walk.path) > depth:
                frontier.add(walk.path[depth])
                return True
            # (a turn that ends before the prefix does, by leaving out a step the prefix takes,
            # is not the prefix)
            walk.complete = walk.complete or len(walk.path) == depth
            return False
        walk = Walk(state, leaf, script=tuple(prefix), frontier=frontier)
        self._roots[state.to_move](walk)
        return sorted(frontier, key=_action_order), walk.complete

    @_asleep_or_awake
    def play(self, state: GameState, steps: Sequence[Action]) -> GameState:
        """The state after the seat to move plays `steps` (a whole turn), with the turn logged
        and the next seat to move; IllegalTurn if the rules do not accept the turn. The given
        state is left as it was."""
        events, winner = self.accept(state, steps)
        after = state.copy()
        _conclude(after, steps, events, winner)
        return after

    @_asleep_or_awake
    def play_in_place(self, state: GameState, steps: Sequence[Action]) -> None:
        """`play`, changing the given state (for game loops and searches that own their state).
        A turn that `random_turn` has just picked for this state (the same object, hash, seat to
        move and number of turns played) is not checked again: the engine found it legal."""
        picked, self._picked = self._picked, None
        _refuse_if_over(state)
        if (picked is not None and picked[0] is steps and picked[1] is state and picked[2] == state.hash
                and picked[3] == state.to_move and picked[4] == len(state.history)):
            seat = state.to_move
            if not self._apply_found(state, seat, steps, picked[5]):
                state.to_move = state.next_seat(seat)
            return
        events, winner = self.accept(state, steps)
        apply_events(state, events)
        _log_turn(state, steps, events, winner)

    def play_chosen(self, state: GameState, steps: Sequence[Action]) -> tuple[Action, ...]:
        """`play_in_place` for a turn the seat to move chose on its view (views.py): returns the
        steps played. A turn is judged on what the seat sees, so that a refusal never tells of
        a piece hidden from it; a turn its view accepts is played on the whole state, where a
        hidden piece may end it sooner (a worker that moves into a secret Abyss loses at once):
        then its longest start that the whole state accepts as a turn is played."""
        steps = tuple(steps)
        seat = state.to_move
        if not self.secrets or not self.secrets.hidden_from(state, seat):
            self.play_in_place(state, steps)
            return steps
        _refuse_if_over(state)
        self.accept(self.view(state, seat), steps)  # (refused for what the seat sees, and said so)
        for end in range(len(steps), 0, -1):
            try:
                self.play_in_place(state, steps[:end])
            except IllegalTurn:
                continue
            return steps[:end]
        raise IllegalTurn("a piece hidden from this seat makes its turn impossible, and no rule of the cards says "
                          "what then: the engine cannot play it without telling of the piece")

    def _apply_found(self, state: GameState, seat: int, steps: tuple[Action, ...],
                     events: tuple[Event, ...] | None) -> bool:
        """Play a turn the engine found legal for this state, and log it; returns whether it won
        (the caller passes the turn on otherwise). `events` are the picker's for a turn that does
        not win; None for any other turn, whose steps are then applied one by one."""
        if events is None:
            known = self._known_turns[seat]
            if known is None:
                events, winner = self._accepted(state, steps, legal=True)
                apply_events(state, events)
            else:
                events, won = known.apply(state, steps)
                winner = state.seats[seat].team if won else None
            state.history.append(TurnRecord((seat, tuple(steps), events)))
            state.winner = winner
            return winner is not None
        if len(events) == 2 and events[0][0] == "move" and events[1][0] == "build":  # (the commonest turn)
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

    @_asleep_or_awake
    def playout(self, state: GameState, rngs: Sequence[Random], limit: int,
                played: list[tuple[Action, ...]] | None = None) -> list[tuple[Action, ...]]:
        """Play random turns in place until a team wins, the seat to move has no turn, or `limit`
        turns are played; returns the turns played. Each seat draws from its own generator
        (`rngs[seat]`) exactly as `random_turn` then `play_in_place` would, so the same generators
        give the same game; one loop plays them all, which is what games between random players
        and the rollouts of a tree search want. A seat left with no turn is for the caller to
        settle by the game's rules (game.settle_stuck). `played`: a list to add the turns to
        (a game's log), returned; by default a new one."""
        if played is None:
            played = []
        self._playout(state, rngs, limit + len(played), played)
        return played

    def _other_turn(self, state: GameState, seat: int, rng: Random) -> tuple[Action, ...] | None:
        """The playout's turn of a seat with neither an inline turn nor a picker: drawn from its
        list of turns and played in place; the playout passes the turn on (None: no turn)."""
        steps = self.random_turn(state, rng)
        if steps is None:
            return None
        picked, self._picked = self._picked, None  # (found for this state by random_turn: legal)
        self._apply_found(state, seat, steps, picked[5] if picked is not None else None)
        return steps

    @_asleep_or_awake
    def accept(self, state: GameState, steps: Sequence[Action]) -> tuple[tuple[Event, ...], int | None]:
        """The events of `steps` as a turn of the seat to move, and the team it makes win (None:
        nobody wins); IllegalTurn (with the reason) if the rules do not accept it, GameOver if
        the game has been won."""
        return self._accepted(state, steps)

    def _as_listed(self, walk: Walk, chain: StepFn, mark: str, lengths: tuple[int, float]) -> bool:
        """`chain`, a program found by its steps once per game, with its turns kept only where a
        written turn of their steps plays them (an earlier program may accept the same steps:
        the turn is then that one, the card unmarked). The turns' builds are then made one by one,
        so that each comes to the leaf; only a turn whose length an earlier program's turns may
        have (`lengths`: the fewest and most steps) is played to see."""
        start = walk.state.copy()
        leaf, keyed = walk.leaf, walk.keyed_by_board
        fewest, most = lengths

        def own(w: Walk) -> bool:
            if fewest <= len(w.path) <= most and not self._marks(start, tuple(w.path), mark):
                return False
            return leaf(w)
        walk.leaf, walk.keyed_by_board = own, False
        try:
            return chain(walk)
        finally:
            walk.leaf, walk.keyed_by_board = leaf, keyed

    def _marks(self, state: GameState, steps: tuple[Action, ...], mark: str) -> bool:
        """Whether `steps`, written as a turn, are played by the program that sets `mark`."""
        found: list[bool] = []

        def leaf(walk: Walk) -> bool:
            if len(walk.path) != len(steps):
                return False
            found.append(any(event[0] == "mark" and event[2] == mark for event in walk.events))
            return True
        self._roots[state.to_move](Walk(state.copy(), leaf, script=steps))
        return bool(found) and found[0]

    def _accepted(self, state: GameState, steps: Sequence[Action],
                  legal: bool = False) -> tuple[tuple[Event, ...], int | None]:
        """`accept`; `legal`: a turn the engine found legal for this state itself, whose
        obligations are not judged again (a search of every turn, where one binds 'if
        possible')."""
        _refuse_if_over(state)
        listed = self._listed
        if (listed is not None and listed[0] == state.hash and listed[1] == state.to_move
                and listed[2] == len(state.history) and listed[3] is (state.history[-1] if state.history else None)):
            found = listed[4].get(tuple(steps))
            if found is not None:  # (a turn of the list `turns` made for this state)
                return found
        players = self._plain_players[state.to_move]
        if players:
            team = state.seats[state.to_move].team
            up, down = self._forbidden(state, team) if self._restricting else (False, False)
            for player in players:
                accepted = player(state, team, up, down, steps)
                if accepted is not None:
                    events, won = accepted
                    return events, (team if won else None)

        def leaf(walk: Walk) -> bool:
            if len(walk.path) != len(steps):
                return False
            walk.result = (tuple(walk.events), walk.state.winner)
            return True
        walk = Walk(state, leaf, script=tuple(steps))
        walk.legal = legal
        self._roots[state.to_move](walk)
        if walk.result is None:
            refusal = explain(self, state, steps)
            raise IllegalTurn(refusal.text, refusal)
        return walk.result

    @_asleep_or_awake
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
        accepted = self._roots[state.to_move](walk)
        for snapshot, prefix in snapshots:
            visit(snapshot, prefix)
        return accepted

    @_asleep_or_awake
    def why_illegal(self, state: GameState, steps: Sequence[Action]) -> str:
        """Which step of a refused turn fails, why, and what the rules allow there instead."""
        return explain(self, state, steps).text

    @_asleep_or_awake
    def offers(self, state: GameState, prefix: Sequence[Action], step: Action) -> bool:
        """Whether the rules offer `step` after `prefix`, whether or not the turn can be
        completed after it (`legal_next` keeps only the steps after which it can). Nothing
        below the step is searched: the written turn ends there."""
        depth = len(prefix)
        offered = False

        def probe(walk: Walk) -> None:
            nonlocal offered
            if len(walk.path) == depth + 1:
                offered = True

        walk = Walk(state, lambda walk: False, script=(*prefix, step))
        walk.probe = probe
        self._roots[state.to_move](walk)
        return offered

    @_asleep_or_awake
    def perft(self, state: GameState, depth: int) -> int:
        """Leaves of the tree of distinct outcomes (spec: 'Perft'), searched in place.

        A finished game has no outcomes: a won position counts 0 at every depth from 1 on, so a
        win is a leaf only on the last ply (as in chess perft). A seat with no turn ends a game of
        two teams (0); with three or more it is out, as in play, and the next seat's turn is counted
        at the same depth (its leaving is not a ply). A depth that is not a whole number, 0 or
        more, is refused (SantoriniError): counting down from -1 would never reach 0."""
        if isinstance(depth, bool) or not isinstance(depth, int) or depth < 0:
            raise SantoriniError(f"perft counts to a depth of 0 or more (a whole number); found {depth!r}")
        if depth == 0:
            return 1
        if state.winner is not None:
            return 0
        if depth == 1:
            count = self._counted(state)
            return count or self._perft_after_stuck(state, depth)
        total = 0
        seen: set[int] = set()

        def leaf(walk: Walk) -> bool:
            nonlocal total
            st = walk.state
            key = self._key(walk)
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
        self._roots[state.to_move](Walk(state, leaf))
        return total if seen else self._perft_after_stuck(state, depth)

    def _counted(self, state: GameState) -> int:
        """The number of distinct outcomes of the turn of the seat to move: counted by its
        kernels (derived/kernel.py) where they serve the state, else listed."""
        if self.fast and self._kernels[state.to_move] is not None:
            kernels, walk = self._kernel_walk(state)
            if walk is not None:
                return kernels.count(walk)
        return len(self.outcomes(state))

    def _perft_after_stuck(self, state: GameState, depth: int) -> int:
        """perft once the seat to move, which has no turn, is settled: with two teams the game is
        over (0); with more, its team is out under a loss condition (the last team left has won:
        0), and the next seat in play is counted."""
        seat = state.to_move
        if len(state.team_letters) <= 2 or not self.seat_rules[seat].lose_when_stuck:
            return 0
        after = state.copy()
        after.eliminate(state.seats[seat].team)
        teams = after.teams_in_play()
        if len(teams) < 2:
            return 0
        after.to_move = after.next_seat(seat)
        return self.perft(after, depth)

    @_asleep_or_awake
    def perft_divided(self, state: GameState, depth: int) -> Iterator[int]:
        """perft(state, depth) in parts: one count per distinct outcome of the turn, in the
        order of `outcomes` (their sum is the perft), so that a long count can show progress."""
        if isinstance(depth, bool) or not isinstance(depth, int) or depth < 0:
            raise SantoriniError(f"perft counts to a depth of 0 or more (a whole number); found {depth!r}")
        outcomes = self.outcomes(state) if depth >= 1 and state.winner is None else {}
        if not outcomes:  # a finished game, depth 0, or a seat with no turn (settled by perft)
            yield self.perft(state, depth)
            return
        for steps in outcomes.values():
            yield self.perft(self.play(state, steps), depth - 1)


def _seat_kernels(programs: list[StepFn]) -> Kernels | None:
    """The kernels of a seat whose turn programs are compiled to `programs` (each with its
    kernels as the derived compiler left them, or none)."""
    if len(programs) == 1:
        found: Kernels | None = getattr(programs[0], "kernel", None)
        return found
    return alternatives([getattr(chain, "kernel", None) for chain in programs])


def _turn_lengths(rules: SeatRules, programs: Sequence[Program]) -> tuple[int, float]:
    """The fewest and the most steps of a turn of `programs` (the most: infinite where a step
    repeats any number of times, or the seat has follow-ups or step options that may add steps)."""
    if not programs:
        return 0, -1.0
    if rules.followups or any(rules.options.values()) or rules.turn_ends or rules.turn_begins:
        return 0, float("inf")
    fewest, most = float("inf"), 0.0
    for program in programs:
        low, high = int(program.announced), float(program.announced)
        for step in program.steps:
            times = step.repeat.times
            high += float("inf") if times is None else times
            low += 0 if step.modality is Modality.MAY or step.repeat.up_to or times is None else times
        fewest, most = min(fewest, low), max(most, high)
    return int(fewest), most


def _by_the_player(pattern: StepPattern) -> StepPattern:
    """A pattern of the moves of one seat's turn, whatever their workers' owner: a win's or a
    veto's, which the turn's player makes (`Engine._move_wins`; the veto binds that player)."""
    return dataclasses.replace(pattern, owner=Owner.ANYONES) if pattern.verb is Verb.MOVE else pattern


def _on_the_player(obligation: Obligation) -> Obligation:
    """An obligation as it binds the turns of the players it names: 'at least one opponent worker
    must move up this turn' is about the moves of that player's turn, whichever worker it moves
    (one of the holder's own, that a power lets it move), as a win or a veto is (`_by_the_player`)."""
    requirement = obligation.requirement
    if not isinstance(requirement, Happened):
        return obligation
    return dataclasses.replace(obligation, requirement=dataclasses.replace(
        requirement, pattern=_by_the_player(requirement.pattern)))


def _enumerating(walk: Walk) -> bool:
    """Whether a walk finds outcomes (a listing, a count or a search for a win) rather than
    matching or explaining a written turn: what the derived code serves."""
    return ((walk.found is not None or walk.wins_only or walk.tally is not None) and walk.probe is None
            and walk.script is None)


def _guarded(win: Callable[[Walk, Event], bool], when: Test | None) -> Callable[[Walk, Event], bool]:
    """A win check that holds only while its guard does ('in a game of 3 players')."""
    if when is None:
        return win
    return lambda walk, event: when(walk, -1, -1, -1, 0, 0, None) and win(walk, event)


def _verb_of(condition: object) -> Verb | None:
    """The verb an obligation's requirement is about ('at least one worker must move up'), if it
    is about one kind of step this turn."""
    pattern = getattr(condition, "pattern", None)
    return getattr(pattern, "verb", None)


def _conclude(state: GameState, steps: Sequence[Action], events: tuple[Event, ...], winner: int | None) -> None:
    """Make a turn's events happen, log the turn, and pass the turn on (unless it won)."""
    apply_events(state, events)
    _log_turn(state, steps, events, winner)


def _log_turn(state: GameState, steps: Sequence[Action], events: tuple[Event, ...], winner: int | None) -> None:
    """Log a turn that has happened, and pass the turn on (unless someone won: `winner`, the
    team that won, is not always the mover's)."""
    mover = state.to_move
    state.history.append(TurnRecord((mover, tuple(steps), events)))
    if winner is not None:
        state.winner = winner
    else:
        state.to_move = state.next_seat(mover)


def _action_order(action: Action) -> tuple[bool, bool, int, str, str]:
    """Announcements first, then the steps of workers by worker, then tokens by kind: an action
    names a worker by its index, a token by its kind, so the two are never compared."""
    by_worker = isinstance(action[1], int)
    return (action[0] != "use", not by_worker, action[1] if by_worker else 0,
            action[0] if by_worker else f"{action[0]} {action[1]}", str(action[2]))

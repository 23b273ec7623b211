"""The generic step chain: each step of a turn program compiled to a closure.

A step closure lists its candidates (the step itself, and the step options of the seat's
powers), each within the board rule, the step's filters and the prohibitions in force; applies
each candidate with its effects, logs its events, checks for a win, calls the rest of the chain,
and undoes everything. Every part is read from the typed rules (dsl.vocabulary): nothing here
knows a card.

How a step's own words combine with the board rule of its verb (docs/language.md, "Steps and
the board rules"): a place phrase narrows the board rule's destination, except that 'any space'
widens its region and a stated occupancy ('occupied by an opponent worker') replaces 'unoccupied';
a stated climb limit ('up at most 2 levels') replaces the board rule's.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from ...dsl.vocabulary import (
    ANY_NUMBER,
    ONCE,
    Apart,
    BesideWorker,
    BuildThere,
    Compare,
    Compass,
    Counter,
    Force,
    Heading,
    LevelChange,
    Modality,
    OccupiedBy,
    Owner,
    Piece,
    Region,
    Repeat,
    Role,
    SameSpace,
    SpaceIs,
    SpaceProperty,
    SpaceRef,
    SpaceSelector,
    Step,
    ToCard,
    Verb,
    WorkersAre,
    WorkerSelector,
    direction_counter,
)
from ...dsl.vocabulary.parts import ChangeCounter, Condition, Effect
from ..model.board import ADJACENT, BEYOND, NEIGHBOURS, SQUARES, WRAPPED_NEIGHBOURS, ZOBRIST
from ..model.state import GameState, token_key
from .conditions import (
    Judge,
    Locator,
    Test,
    apart_teams,
    compass_locator,
    flanked_workers,
    per_placing,
    space_locator,
)
from .effects import (
    add_token,
    apply_build,
    apply_counter,
    apply_force,
    apply_lose,
    apply_mark,
    apply_move,
    apply_place,
    apply_remove,
    apply_swap,
    apply_token,
    apply_unbuild,
    undo_add_token,
    undo_build,
    undo_counter,
    undo_force,
    undo_lose,
    undo_mark,
    undo_move,
    undo_place,
    undo_remove,
    undo_swap,
    undo_token,
    undo_unbuild,
)
from .rules import SeatRules
from .walk import Action, Event, StepFn, Walk, finish

#: The event kinds a step of each verb logs (a follow-up's trigger looks for the latest one).
EVENT_KIND = {Verb.MOVE: "move", Verb.BUILD: "build", Verb.FORCE: "force", Verb.REMOVE: "unbuild",
              Verb.TOKEN: "token"}


def use_step(name: str | None, rest: StepFn, once: str | None = None) -> StepFn:
    """The step `use NAME` that announces an alternative turn (at most once per game when `once`
    names the card's mark). With no `name`, a turn found by its steps that may be taken once per
    game: no step of its own, only the mark."""
    action = ("use", -1, name)

    def step(walk: Walk) -> bool:
        depth = len(walk.path)
        if once is not None and (walk.seat, once) in walk.state.marks:
            return False
        if name is None:
            assert once is not None
            apply_mark(walk, once)
            stop = rest(walk)
            undo_mark(walk, once)
            return stop
        if walk.script is not None and not walk.admits(action, depth):
            return False
        walk.path.append(action)
        walk.events.append(("use", -1, name))
        if once is not None:
            apply_mark(walk, once)
        if walk.probe is not None:
            walk.probe(walk)
        stop = rest(walk)
        if once is not None:
            undo_mark(walk, once)
        walk.events.pop()
        walk.path.pop()
        return stop and walk.stop_here(depth)
    return step


# ---- combining a step with its board rule ----------------------------------------------------------

def _is_occupancy(part: Condition) -> bool:
    """A filter that says who may stand on the space: 'unoccupied', 'occupied by an opponent
    worker', or the actor's own space ('under itself')."""
    return (isinstance(part, OccupiedBy) or (isinstance(part, SpaceIs) and part.prop is SpaceProperty.UNOCCUPIED)
            or part == SameSpace(SpaceRef.ORIGIN))


def _is_climb(part: Condition) -> bool:
    return isinstance(part, LevelChange) and part.op is Compare.LE and part.amount >= 0


def merge_destination(base: SpaceSelector, stated: SpaceSelector | None) -> SpaceSelector:
    """The destination of a step whose words say `stated`, under a rule that says `base`."""
    if stated is None:
        return base
    region, ref = base.region, base.ref
    filters = list(base.filters)
    if stated.region is not Region.NEIGHBORING:
        region, ref = stated.region, stated.ref
    if any(_is_occupancy(f) for f in stated.filters):
        filters = [f for f in filters if not _is_occupancy(f)]
    filters.extend(stated.filters)
    return SpaceSelector(region, ref, tuple(filters))


def merge_filters(base: tuple[Condition, ...], stated: tuple[Condition, ...]) -> tuple[Condition, ...]:
    """A step's filters under its board rule's: a stated climb limit replaces the rule's."""
    if any(_is_climb(f) for f in stated):
        base = tuple(f for f in base if not _is_climb(f))
    return (*base, *stated)


# ---- candidates ------------------------------------------------------------------------------------

#: A force that comes with a step, compiled: where it sends the worker on the step's space, and the
#: test that space must pass (None: none).
CompiledForce = tuple[Locator, Test | None]

@dataclass
class _Way:
    """One way of taking a step: who may take it (None: the step's own actor), where it may go,
    the test each candidate passes, the piece it builds, the effects that come with it, and
    whether a move by it can win."""

    chooser: Callable[[Walk], list[int]] | None
    region: Region
    locate: Locator | None
    test: Test | None
    piece: Piece
    forces: tuple[CompiledForce, ...]
    #: A single space the step names must still neighbour the worker when the board rule's
    #: region is the neighbourhood ('on the same space' narrows 'a neighboring space').
    neighbouring: bool
    can_win: bool
    #: The card mark of a once-per-game way: usable while the seat's card lacks it.
    once: str | None = None


@dataclass(frozen=True)
class WayParts:
    """A way of taking a step as typed parts, before it is compiled: who takes it (None: the
    step's own actor), its region (and the space a single-space region names), the filters each
    candidate passes (destination and step filters, merged with the board rule's), the piece, the
    forces that come with it, whether a single space must neighbour the worker, whether a move by
    it can win, and the card mark of a once-per-game way. The generic chain compiles it to
    closures (_Way); the derived engine lowers the same parts to code (interpreter/derived)."""

    actor: WorkerSelector | None
    region: Region
    ref: SpaceRef | None
    filters: tuple[Condition, ...]
    piece: Piece
    forces: tuple[Effect, ...]
    neighbouring: bool
    can_win: bool
    once: str | None


def _way_parts(actor: WorkerSelector | None, base_destination: SpaceSelector, base_filters: tuple[Condition, ...],
               stated_destination: SpaceSelector | None, stated_filters: tuple[Condition, ...], piece: Piece,
               effects: tuple[Effect, ...], around: bool, can_win: bool, once: str | None) -> WayParts:
    destination = merge_destination(base_destination, stated_destination)
    neighbouring = destination.region is Region.SINGLE and around and destination.ref is not SpaceRef.ORIGIN
    filters = (*destination.filters, *merge_filters(base_filters, stated_filters))
    return WayParts(actor, destination.region, destination.ref, filters, piece,
                    tuple(effects), neighbouring, can_win, once)


if TYPE_CHECKING:
    class StepMaker(Protocol):
        """A step compiler's method that compiles a chosen step of one verb (`StepCompiler.move`)."""

        def __call__(self, step: Step, after: StepFn | None, rest: StepFn, optional: bool,
                     repeated: bool) -> StepFn: ...


#: Checks a step just taken may trigger: `WinCheck(walk, event)` -> the team that wins, or None.
WinCheck = Callable[[Walk, Event], "int | None"]
#: What another seat's power makes happen after a move: (walk, the move event) -> its undo, or None.
Reaction = Callable[[Walk, Event], "Callable[[], None] | None"]


class StepCompiler:
    """Compiles the steps of one seat's programs against that seat's rules.

    `move_wins(walk, event)`: the team a move event makes win (the seat's wins, less the vetoes
    of the seats that bind it). `board_wins(walk)`: the team that a change of the board makes
    win ('when there are at least five complete towers'), checked after every build."""

    def __init__(self, rules: SeatRules, judge: Judge, move_wins: WinCheck,
                 board_wins: Callable[[Walk], int | None] | None, reactions: tuple[Reaction, ...] = ()) -> None:
        self.rules = rules
        self.judge = judge
        self.move_wins = move_wins
        self.board_wins = board_wins
        #: What other seats' powers make happen after each move of this seat's that does not win:
        #: callables (walk, move event) -> an undo callable, or None when nothing happened.
        self.reactions = reactions

    # -- the ways of a step
    def way_parts(self, step: Step) -> list[WayParts]:
        """The ways of taking `step`, as parts: its own (unless an option replaces it) and each
        option of the seat's powers for its verb, each merged with the board rule of the verb."""
        board = self.rules.board[step.verb]
        around = board.destination.region is Region.NEIGHBORING
        ways: list[WayParts] = []
        options = self.rules.options.get(step.verb, [])
        if not any(option.instead for option in options):
            ways.append(_way_parts(None, board.destination, board.filters, step.destination, step.filters,
                                   step.piece, (), around, step.can_win, None))
        for option in options:
            stated = option.step
            merged = merge_destination(board.destination, step.destination)
            piece = stated.piece if stated.piece is not Piece.NEXT else step.piece
            actor = stated.actor if stated.actor.role is not Role.SUBJECT else None
            guard = (stated.guard,) if stated.guard is not None else ()  # 'if ..., your worker may ...'
            ways.append(_way_parts(actor, merged, merge_filters(board.filters, step.filters), stated.destination,
                                   (*stated.filters, *guard), piece, stated.effects, around,
                                   step.can_win and stated.can_win, option.once_per_game))
        return ways

    def ways(self, step: Step) -> list[_Way]:
        return [self._way(parts) for parts in self.way_parts(step)]

    def _way(self, parts: WayParts) -> _Way:
        chooser = self.judge.workers(parts.actor) if parts.actor is not None else None
        test = self.judge.compile_all(parts.filters)
        locate: Locator | None = None
        if parts.region is Region.SINGLE:
            assert parts.ref is not None  # (a single space is one the step names)
            locate = space_locator(parts.ref)
        forces = tuple(self._force(effect) for effect in parts.forces)
        return _Way(chooser, parts.region, locate, test, parts.piece, forces, parts.neighbouring, parts.can_win,
                    parts.once)

    def _force(self, effect: Effect) -> CompiledForce:
        if (not isinstance(effect, Force) or effect.worker.role is not Role.DISPLACED
                or effect.destination.region is not Region.SINGLE or effect.destination.ref is None):
            raise TypeError("a force in a step moves the worker on the step's space to one named space")
        return space_locator(effect.destination.ref), self.judge.compile_all(effect.destination.filters)

    def chooser(self, step: Step) -> Callable[[Walk], list[int]]:
        """Who may take a step: chosen freshly, or bound by an earlier step."""
        return self.judge.workers(step.actor)

    # -- the steps
    def compile(self, step: Step, after: StepFn, rest: StepFn) -> StepFn:
        """The closure of `step`: `after` continues the turn once it is taken, `rest` once it is
        declined or done repeating."""
        if step.once_per_game is not None:
            return self._once_per_game(step, rest)
        # (where the guard does not hold: the turn goes on, or takes the step written 'otherwise'
        # first; the checker: an end-of-turn step, so the turn goes on with `rest` after it)
        fail = rest if step.otherwise is None else self.compile(step.otherwise, rest, rest)
        if step.modality is Modality.AUTOMATIC:
            chain = self._automatic(step, after)
            return self._guarded(step, chain, after if step.otherwise is None else fail) if step.guard is not None \
                else chain
        if step.verb is Verb.TOKEN:
            chain = self.token_step(step, after, rest, step.modality is not Modality.MUST)
            return self._guarded(step, chain, fail) if step.guard is not None else chain
        if step.verb is Verb.POINT:
            chain = point_step(step, after, rest, step.modality is Modality.MAY)
            return self._guarded(step, chain, fail) if step.guard is not None else chain
        if step.verb is Verb.PLACE:
            chain = self.place_step(step, after, rest, step.modality is Modality.MAY,
                                    step.modality is Modality.IF_POSSIBLE)
            return self._guarded(step, chain, fail) if step.guard is not None else chain
        if step.verb is Verb.SWAP:
            return self.swap(step, after, rest)
        if step.actor.role is Role.HOLDER:
            chain = self.forces_by_holder(step, after, rest)
            return self._guarded(step, chain, fail) if step.guard is not None else chain
        make = {Verb.MOVE: self.move, Verb.BUILD: self.build, Verb.FORCE: self.force,
                Verb.REMOVE: self.remove if step.target is None else self.remove_worker}.get(step.verb)
        if make is None:  # pragma: no cover - the checker keeps other verbs out of the turns
            raise TypeError(f"the engine cannot take a step of the verb {step.verb}")
        optional = step.modality is Modality.MAY
        repeat = step.repeat
        if step.actor.role is Role.EVERY:
            chain = self._every(step, make, after)
        elif repeat.times is None:
            chain = make(step, None, rest, optional=True, repeated=True)
        elif repeat.up_to:
            chain = rest
            for _ in range(repeat.times):
                chain = make(step, chain, rest, optional=True, repeated=False)
        else:
            chain = after
            for index in range(repeat.times):
                chain = make(step, chain, rest, optional=optional and index == repeat.times - 1, repeated=False)
        return self._guarded(step, chain, fail) if step.guard is not None else chain

    def _once_per_game(self, step: Step, rest: StepFn) -> StepFn:
        """A step the seat may take in one turn of the game: declined, the turn goes on (`rest`);
        taken, the card is marked first, and the step is taken once, then as many more times as
        its repetition allows (one use). With the mark set it is not offered."""
        mark = step.once_per_game
        assert mark is not None and step.modality is Modality.MAY  # (the checker: a 'may' step)
        bare = dataclasses.replace(step, once_per_game=None)
        times, up_to = step.repeat.times, step.repeat.up_to
        if times is None and step.guard is None:
            first = self._at_least_once(bare, rest)
        else:
            more = rest
            if times is None or (up_to and times > 1):
                again = ANY_NUMBER if times is None else Repeat(times - 1, up_to=True)
                # (the later takings are the first one's worker's where the actor was named by a guard)
                actor = WorkerSelector(Role.THAT) if step.guard is not None else step.actor
                more = self.compile(dataclasses.replace(bare, repeat=again, guard=None, actor=actor), rest, rest)
            first = self.compile(dataclasses.replace(bare, modality=Modality.MUST, repeat=ONCE), more, _refuse)

        def take(walk: Walk) -> bool:
            if (walk.seat, mark) in walk.state.marks:
                return rest(walk)
            if rest(walk):
                return True
            apply_mark(walk, mark)
            try:
                return first(walk)
            finally:
                undo_mark(walk, mark)
        return take

    def _at_least_once(self, step: Step, rest: StepFn) -> StepFn:
        """A step taken any number of times, at least once: one breadth-first search, so that each
        outcome comes by its fewest takings, as a repeated step's do; the turn goes on (`rest`)
        only past the first taking."""
        entered: list[int] = []  # (the length of the turn's path where each search began)

        def after_one(walk: Walk) -> bool:
            return len(walk.path) > entered[-1] and rest(walk)
        repeated = self.compile(dataclasses.replace(step, repeat=ANY_NUMBER), after_one, after_one)

        def first(walk: Walk) -> bool:
            entered.append(len(walk.path))
            try:
                return repeated(walk)
            finally:
                entered.pop()
        return first

    def _automatic(self, step: Step, after: StepFn) -> StepFn:
        """What the rules make happen with no choice: nothing is written in the turn."""
        if step.verb is Verb.REMOVE:
            assert step.destination is not None  # (an automatic removal names its space)
            if step.destination.region is Region.ANYWHERE:
                return self._remove_everywhere(step, after)
            return self._remove_on_space(step, after)
        if step.verb is Verb.LOSE:
            return self._flanked_lose(step, after)
        if step.verb is Verb.TOKEN:
            return self._token_on_built(step, after)
        if step.verb is Verb.GRANT_TURN:
            return grant_turn(after)
        raise TypeError(f"nothing happens on its own for the verb {step.verb}")  # pragma: no cover

    def _remove_everywhere(self, step: Step, after: StepFn) -> StepFn:
        """Every worker the step's target names, on a space its destination's filters accept,
        leaves the game, and (BuildThere) the next piece is built on each such space."""
        assert step.target is not None and step.destination is not None
        owned = self.judge.owned(step.target.owner)
        test = self.judge.compile_all(step.destination.filters)
        build = any(isinstance(effect, BuildThere) for effect in step.effects)

        def buildable(walk: Walk, square: int) -> bool:
            """The build on a victim's space is a build by the holder's workers: a prohibition in
            force on their builds there keeps the victim ('if possible')."""
            banned = walk.banned.get(Verb.BUILD, ())
            if not build or not banned:
                return True
            st = walk.state
            height = st.heights[square]
            piece = Piece.DOME if height == 3 else Piece.BLOCK
            builders = [w for w in st.team_workers(walk.team) if st.worker_pos[w] in ADJACENT[square]]
            return any(not any(t(walk, w, st.worker_pos[w], square, height, height, piece) for t in banned)
                       for w in builders)

        def remove(walk: Walk) -> bool:
            st = walk.state
            victims = [(w, st.worker_pos[w]) for w in range(len(st.worker_pos))
                       if st.worker_pos[w] >= 0 and owned(st.worker_team[w])
                       and (test is None or test(walk, w, st.worker_pos[w], st.worker_pos[w],
                                                 st.heights[st.worker_pos[w]], st.heights[st.worker_pos[w]], None))
                       and buildable(walk, st.worker_pos[w])]
            if not victims:
                return after(walk)
            for worker, _ in victims:
                apply_remove(walk, worker)
            built = [apply_build(walk, walk.last_actor, square, st.heights[square] == 3)
                     for _, square in victims] if build else []
            stop = after(walk)
            for record in reversed(built):
                undo_build(walk, record)
            for worker, square in reversed(victims):
                undo_remove(walk, worker, square)
            return stop
        return remove

    def _remove_on_space(self, step: Step, after: StepFn) -> StepFn:
        """After a move: the worker on the space the step names (seen along that move) leaves the
        game, if it is one the step's target names."""
        assert step.target is not None and step.destination is not None and step.destination.ref is not None
        locate = space_locator(step.destination.ref)
        owned = self.judge.owned(step.target.owner)

        def remove(walk: Walk) -> bool:
            move = next((e for e in reversed(walk.events) if e[0] == "move"), None)
            if move is None:
                return after(walk)
            st = walk.state
            square = locate(walk, move[1], move[2], move[3])
            victim = st.occupant[square] if square >= 0 else -1
            if victim < 0 or victim == move[1] or not owned(st.worker_team[victim]):
                return after(walk)
            apply_remove(walk, victim)
            stop = after(walk)
            undo_remove(walk, victim, square)
            return stop
        return remove

    def _token_on_built(self, step: Step, after: StepFn) -> StepFn:
        """A token of the card goes on the space just built, while the game's allowance lasts."""
        assert step.token is not None
        kind, limit = step.token.value, step.per_game
        count = tokens_placed(kind)

        def place(walk: Walk) -> bool:
            st, seat = walk.state, walk.seat
            built = next((e for e in reversed(walk.events) if e[0] == "build"), None)
            placed = st.counters.get((seat, count), 0)
            if built is None or (limit is not None and placed >= limit) or built[2] in st.tokens:
                return after(walk)
            square = built[2]
            add_token(walk, seat, kind, square)
            apply_counter(walk, seat, count, placed + 1)
            stop = after(walk)
            undo_counter(walk, seat, count, placed)
            undo_add_token(walk, square)
            return stop
        return place

    def token_step(self, step: Step, after: StepFn, rest: StepFn, optional: bool) -> StepFn:
        """The player puts the card's token on a space (taking it from where it was): the step
        `token KIND SPACE`, around the step's worker."""
        assert step.token is not None and step.destination is not None
        kind = step.token.value
        choose = self.chooser(step)
        test = self.judge.compile_all(step.destination.filters)

        def take(walk: Walk) -> bool:
            if optional and rest(walk):
                return True
            st, seat = walk.state, walk.seat
            depth = len(walk.path)
            for worker in choose(walk):
                here = st.worker_pos[worker]
                for square in NEIGHBOURS[here]:
                    if square in st.tokens or (test is not None and not test(walk, worker, here, square,
                                                                              st.heights[here], st.heights[square],
                                                                              None)):
                        continue
                    action = ("token", kind, square)
                    if walk.script is not None and not walk.admits(action, depth):
                        continue
                    origin = apply_token(walk, seat, kind, square)
                    stop = written(walk, action, after)
                    undo_token(walk, seat, kind, square, origin)
                    if stop and walk.stop_here(depth):
                        return True
            return False
        return take

    def place_step(self, step: Step, after: StepFn, rest: StepFn, optional: bool,
                   if_possible: bool = False) -> StepFn:
        """A worker waiting on the card enters the board (`place A3 a1`): it has not moved. With
        'if possible', the turn goes on without it only where it has no space to enter; with a
        'lowest' space, on the lowest of the spaces it may enter."""
        team = self.rules.team
        assert step.destination is not None
        test = self.judge.compile_all((*step.destination.filters, *step.filters))
        lowest = step.destination.lowest
        # (a space next to named workers: only the squares around them are looked at, in square order)
        near = [self.judge.workers(f.selector) for f in step.destination.filters if isinstance(f, BesideWorker)]

        def region(walk: Walk) -> Iterable[int]:
            if not near:
                return SQUARES
            positions = walk.state.worker_pos
            return sorted({n for w in near[0](walk) if positions[w] >= 0 for n in NEIGHBOURS[positions[w]]})

        def spaces(walk: Walk, worker: int) -> list[int]:
            st = walk.state
            found = [square for square in region(walk)
                     if not st.blocked[square] and square not in walk.domelike  # (a token does not occupy a space)
                     and (test is None or test(walk, worker, -1, square, 0, st.heights[square], None))]
            if lowest and found:
                least = min(st.heights[square] for square in found)
                found = [square for square in found if st.heights[square] == least]
            return found

        def take(walk: Walk) -> bool:
            if optional and rest(walk):
                return True
            st = walk.state
            depth = len(walk.path)
            waiting = [w for w in st.members.get(team, ()) if w in st.reserve]
            if not waiting:
                return if_possible and rest(walk)
            script = walk.script
            if script is not None and depth < len(script) and script[depth][1] in waiting:
                waiting = [script[depth][1]]  # (the workers on a card are alike: the one written enters)
            worker = waiting[0]  # (the workers on a card are alike: the first one enters)
            open_spaces = spaces(walk, worker)
            if if_possible and not open_spaces:
                return rest(walk)
            for square in _scripted_squares(walk, tuple(open_spaces), "place"):
                action = ("place", worker, square)
                if walk.script is not None and not walk.admits(action, depth):
                    continue
                apply_place(walk, worker, square)
                stop = _go_on(walk, action, worker, after)
                undo_place(walk, worker)
                if stop and walk.stop_here(depth):
                    return True
            return False
        return take

    def _flanked_lose(self, step: Step, after: StepFn) -> StepFn:
        """The owners of the workers flanked by the card holder's lose and leave the game; the last
        team left wins."""
        assert step.target is not None
        owned, team = self.judge.owned(step.target.owner), self.rules.team

        def lose(walk: Walk) -> bool:
            st = walk.state
            teams = list(dict.fromkeys(st.worker_team[w] for w in flanked_workers(walk, team, owned)))
            if not teams:
                return after(walk)
            undo = [apply_lose(walk, loser) for loser in teams]
            left = st.teams_in_play()
            if len(left) == 1:
                st.winner = left.pop()
                stop = walk.leaf(walk)
                st.winner = None
            else:
                stop = after(walk)
            for lost in reversed(undo):
                undo_lose(walk, lost)
            return stop
        return lose

    def swap(self, step: Step, after: StepFn, rest: StepFn) -> StepFn:
        """Every worker of the player exchanges spaces with a worker of one opponent, each with its
        own, in the order the player picks; or none does ('may'). Under a guard that names opponents
        ('if none of an opponent's workers neighbor yours'), an opponent it names. Each exchange is
        written as a force of the player's worker onto the other's space: `force A1 d4`."""
        team = self.rules.team
        guard = step.guard
        if isinstance(guard, Apart) and guard.owner is Owner.OPPONENTS:
            condition = guard
            partners = per_placing(lambda walk: apart_teams(walk, team, condition))
        else:
            test = self.judge.compile(guard) if guard is not None else None

            def partners(walk: Walk) -> list[int]:
                if test is not None and not test(walk, -1, -1, -1, 0, 0, None):
                    return []
                return sorted(t for t in walk.state.teams_in_play() if t != team)
        optional = step.modality is Modality.MAY

        def exchange(mine: tuple[int, ...], theirs: tuple[int, ...], walk: Walk) -> bool:
            if not mine:
                return after(walk)
            st = walk.state
            depth = len(walk.path)
            # (exchanges of distinct pairs make one outcome in any order, and alike workers make one
            # outcome whichever is paired with which: unless a written turn is matched, the first of
            # the player's workers is paired first, each time with a later one of the others)
            ordered = walk.script is None
            alike = ordered and len({st.worker_class[w] for w in mine}) == 1 \
                and len({st.worker_class[w] for w in theirs}) == 1
            for worker in mine[:1] if ordered else mine:
                for index, other in enumerate(theirs):
                    here, there = st.worker_pos[worker], st.worker_pos[other]
                    action: Action = ("force", worker, there)
                    if walk.script is not None and not walk.admits(action, depth):
                        continue
                    apply_swap(walk, worker, other)
                    then = functools.partial(exchange, tuple(m for m in mine if m != worker),
                                             theirs[index + 1:] if alike else tuple(t for t in theirs if t != other))
                    stop = _go_on(walk, action, worker, then)
                    undo_swap(walk, worker, other, here, there)
                    if stop and walk.stop_here(depth):
                        return True
            return False

        def take(walk: Walk) -> bool:
            teams = partners(walk)
            if not teams:
                return rest(walk)
            if optional and rest(walk):
                return True
            mine = tuple(walk.state.team_workers(team))
            for other_team in teams:
                theirs = tuple(walk.state.team_workers(other_team))
                if mine and len(theirs) >= len(mine) and exchange(mine, theirs, walk):
                    return True
            return False
        return take

    def _every(self, step: Step, make: StepMaker, after: StepFn) -> StepFn:
        """A step each of the player's workers takes once, in the order the player picks; with
        'may', each takes it or not, and with 'any number of times', as often as it likes (from
        zero), one worker's takings all before the next worker's."""
        team = self.rules.team
        holder: list[StepFn] = []
        optional = step.modality is Modality.MAY
        repeated = step.repeat.times is None

        def each(walk: Walk) -> bool:
            pending = walk.pending
            entry = pending.get(each)  # None on the first call; then the workers yet to take it
            remaining = tuple(walk.state.team_workers(team)) if entry is None else entry
            if entry is None and not remaining:
                return optional and after(walk)  # no worker to take it: a step that must be taken cannot be
            if not remaining:
                del pending[each]
                stop = after(walk)
                pending[each] = remaining  # (here `entry`: an empty one)
                return stop
            previous_actor = walk.last_actor
            stop = False
            for worker in remaining:
                pending[each] = tuple(w for w in remaining if w != worker)
                walk.last_actor = worker
                if holder[0](walk):
                    stop = True
                    break
            walk.last_actor = previous_actor
            if entry is None:
                del pending[each]
            else:
                pending[each] = entry
            return stop

        single = dataclasses.replace(step, actor=WorkerSelector(Role.THAT),
                                     modality=Modality.MAY if optional else Modality.MUST)
        holder.append(make(single, None if repeated else each, each, optional=optional, repeated=repeated))
        return each

    def _guarded(self, step: Step, chain: StepFn, rest: StepFn) -> StepFn:
        """A step under a guard: taken while it holds; a guard on workers names who takes it."""
        guard = step.guard
        if isinstance(guard, WorkersAre):
            standing = self.judge.standing(guard)

            def bound(walk: Walk) -> bool:
                workers = standing(walk)
                if not workers:
                    return rest(walk)
                previous = walk.last_actor
                for worker in workers:
                    walk.last_actor = worker
                    if chain(walk):
                        walk.last_actor = previous
                        return True
                walk.last_actor = previous
                return False
            return bound
        assert guard is not None  # (a step is guarded when it has a guard)
        test = self.judge.compile(guard)
        return lambda walk: chain(walk) if test(walk, -1, -1, -1, 0, 0, None) else rest(walk)

    def _workers(self, step: Step, ways: list[_Way]) -> Callable[[Walk], list[int]]:
        """Who may take a step by any of its ways, in a fixed order."""
        own = self.chooser(step)
        choosers = [way.chooser or own for way in ways]
        if all(c is own for c in choosers):
            return own
        distinct = list(dict.fromkeys(choosers))

        def anyone(walk: Walk) -> list[int]:
            return list(dict.fromkeys(w for choose in distinct for w in choose(walk)))
        return anyone

    def move(self, step: Step, after: StepFn | None, rest: StepFn, optional: bool, repeated: bool) -> StepFn:
        ways = self.ways(step)
        mixed = _mixed(ways)
        choose = self._workers(step, ways)
        own = self.chooser(step)
        wins = self.move_wins
        reactions = self.reactions
        blocked_moves = _banned(Verb.MOVE)

        def candidates(walk: Walk, worker: int) -> list[tuple[int, int, int, _Way]]:
            st = walk.state
            heights = st.heights
            origin = st.worker_pos[worker]
            here = heights[origin]
            banned = blocked_moves(walk)
            usable = _usable(walk, ways, worker, own, choose)
            found: list[tuple[int, int, int, _Way]] = []
            domelike = walk.domelike
            for to in _union(walk, usable, worker, origin, "move") if usable else ():
                if st.domes[to] or to in domelike:
                    continue
                there = heights[to]
                if banned and any(test(walk, worker, origin, to, here, there, None) for test in banned):
                    continue
                for way in usable:
                    if mixed and to not in _squares(walk, way, worker, origin, "move"):
                        continue
                    if way.test is not None and not way.test(walk, worker, origin, to, here, there, None):
                        continue
                    victim, dest = -1, -1
                    if way.forces:
                        victim = st.occupant[to]
                        dest = _force_destination(walk, way.forces[0], worker, origin, to, victim)
                        if dest < 0:
                            continue
                    elif st.occupant[to] >= 0:
                        continue  # a worker stays where it is unless an effect moves it
                    found.append((to, victim, dest, way))
                    break  # the first way that reaches a space is the step there
            return found

        def perform(walk: Walk, worker: int, to: int, victim: int, dest: int, way: _Way, then: StepFn) -> bool:
            st = walk.state
            previous_actor = walk.last_actor
            event = apply_move(walk, worker, to, victim, dest)
            if way.once is not None:
                apply_mark(walk, way.once)
            walk.path.append(("move", worker, to))
            walk.last_actor = worker
            if walk.probe is not None:
                walk.probe(walk)
            winner = wins(walk, event) if way.can_win else None
            if winner is not None:
                st.winner = winner
                stop = walk.leaf(walk)
                st.winner = None
            elif reactions:
                undo = [u for react in reactions if (u := react(walk, event)) is not None]
                stop = after_reactions(walk, then)
                for u in reversed(undo):
                    u()
            else:
                stop = then(walk)
            walk.last_actor = previous_actor
            walk.path.pop()
            if way.once is not None:
                undo_mark(walk, way.once)
            undo_move(walk, event, victim)
            return stop

        if repeated:
            def each_move(walk: Walk, then: StepFn) -> bool:
                depth = len(walk.path)
                for worker in _scripted(walk, choose(walk), depth):
                    for to, victim, dest, way in candidates(walk, worker):
                        if walk.script is not None and not walk.admits(("move", worker, to), depth):
                            continue
                        if perform(walk, worker, to, victim, dest, way, then) and walk.stop_here(depth):
                            return True
                return False

            def again(walk: Walk) -> bool:
                return breadth_first(walk, again, rest, each_move)
            return again
        assert after is not None  # (None only for a repeated step)

        def take(walk: Walk) -> bool:
            if optional and rest(walk):
                return True
            depth = len(walk.path)
            for worker in _scripted(walk, choose(walk), depth):
                for to, victim, dest, way in candidates(walk, worker):
                    if walk.script is not None and not walk.admits(("move", worker, to), depth):
                        continue
                    if perform(walk, worker, to, victim, dest, way, after) and walk.stop_here(depth):
                        return True
            return False
        return take

    def build(self, step: Step, after: StepFn | None, rest: StepFn, optional: bool, repeated: bool) -> StepFn:
        ways = self.ways(step)
        mixed = _mixed(ways)
        choose = self._workers(step, ways)
        own = self.chooser(step)
        blocked_builds = _banned(Verb.BUILD)
        board_wins = self.board_wins
        cost = tuple((c.counter.value, -c.amount) for c in step.cost)

        def candidates(walk: Walk, worker: int) -> list[tuple[Action, str | None]]:
            """Each build the worker may make, with the once-per-game mark its way sets."""
            st = walk.state
            heights = st.heights
            origin = st.worker_pos[worker]
            banned = blocked_builds(walk)
            usable = _usable(walk, ways, worker, own, choose)
            found: list[tuple[Action, str | None]] = []
            seen: set[Action] = set()
            for square in _union(walk, usable, worker, origin, "build") if usable else ():
                height = heights[square]
                for way in usable:
                    if way.piece is Piece.BLOCK and height == 3:
                        continue
                    if mixed and square not in _squares(walk, way, worker, origin, "build"):
                        continue
                    dome = way.piece is Piece.DOME or height == 3
                    piece = Piece.DOME if dome else Piece.BLOCK
                    if way.test is not None and not way.test(walk, worker, origin, square, height, height, piece):
                        continue
                    if banned and any(test(walk, worker, origin, square, height, height, piece) for test in banned):
                        continue
                    if st.domes[square] or square in walk.domelike \
                            or (st.occupant[square] >= 0 and not (square == origin and not dome)):
                        continue  # a piece goes on a space with no dome, and under a worker only its own block
                    action = ("dome" if dome and height < 3 else "build", worker, square)
                    if action not in seen:
                        seen.add(action)
                        found.append((action, way.once))
            return found

        def perform(walk: Walk, action: Action, mark: str | None, then: StepFn) -> bool:
            return perform_build(walk, action, mark, then, cost, board_wins)

        height_keys, dome_keys = ZOBRIST.height, ZOBRIST.dome

        def final_builds(walk: Walk) -> bool:
            """The turn's last step, while enumerating outcomes that are the board alone: each
            build's outcome key is the current hash with one square changed, so none is applied."""
            st = walk.state
            found, path, heights, tokens = walk.found, tuple(walk.path), st.heights, st.tokens
            assert found is not None  # (entered only while enumerating)
            for worker in choose(walk):
                for action, _ in candidates(walk, worker):
                    square = action[2]
                    height = heights[square]
                    if action[0] == "dome" or height == 3:
                        key = st.hash ^ dome_keys[square]
                    else:
                        keys = height_keys[square]
                        key = st.hash ^ keys[height] ^ keys[height + 1]
                    if square in tokens:  # (a build takes the token off: apply_build)
                        key ^= token_key(square, *tokens[square])
                    if key not in found:
                        found[key] = (*path, action)
            return False

        shortcut = board_wins is None and not any(way.once for way in ways) and not cost

        def each_candidate(walk: Walk, then: StepFn, depth: int) -> bool:
            if cost and not _affords(walk, cost):
                return False
            if shortcut and then is finish and walk.found is not None and walk.probe is None and walk.keyed_by_board:
                return final_builds(walk)
            for worker in _scripted(walk, choose(walk), depth):
                for action, mark in candidates(walk, worker):
                    if walk.script is not None and not walk.admits(action, depth):
                        continue
                    if perform(walk, action, mark, then) and walk.stop_here(depth):
                        return True
            return False

        return _taken(lambda walk, then: each_candidate(walk, then, len(walk.path)), after, rest, optional, repeated)

    def force(self, step: Step, after: StepFn | None, rest: StepFn, optional: bool, repeated: bool) -> StepFn:
        """A force the player chooses: a worker that `step.target` names, to the space its place
        names, or to any space of the board its filters accept ('any unoccupied corner space');
        unoccupied: a forced worker never lands on a worker or a dome."""
        choose = self.chooser(step)
        assert step.target is not None and step.destination is not None
        victims = self._targets(step.target)
        ref = step.destination.ref
        # (a force is not a move: the space its worker vacated is the one that worker's last move left)
        locate = None if ref is None else _left_by_last_move if ref is SpaceRef.VACATED else space_locator(ref)
        test = self.judge.compile_all((*step.destination.filters, *step.filters))

        def candidates(walk: Walk, worker: int) -> list[Action]:
            st = walk.state
            origin = st.worker_pos[worker]
            found: list[Action] = []
            for victim in victims(walk, worker):
                here = st.worker_pos[victim]
                for dest in SQUARES if locate is None else (locate(walk, worker, origin, here),):
                    if dest < 0 or st.blocked[dest] or dest in walk.domelike:
                        continue
                    if test is not None and not test(walk, victim, here, dest, st.heights[here], st.heights[dest],
                                                     None):
                        continue
                    found.append(("force", victim, dest))
            return found

        def perform(walk: Walk, worker: int, action: Action, then: StepFn) -> bool:
            _, victim, dest = action
            here = apply_force(walk, victim, dest)
            stop = _go_on(walk, action, worker, then)
            undo_force(walk, victim, here)
            return stop
        return _on_workers(choose, candidates, perform, after, rest, optional, repeated,
                           step.modality is Modality.IF_POSSIBLE)

    def forces_by_holder(self, step: Step, after: StepFn, rest: StepFn) -> StepFn:
        """'you force one or more opponent workers one space south': the player, with no worker of
        theirs acting, forces workers that `step.target` names (wherever they stand), one after the
        other in the order the player picks, each once, each to the space the place names from where
        it stands then, unoccupied (at any level); one at least ('must'), or none ('may'). Written
        `force B1 c1` for each."""
        assert step.target is not None and step.destination is not None
        direction = step.destination.compass
        assert direction is not None  # (the checker: a force by the player goes in a direction)
        locate = compass_locator(direction)
        owned = self.judge.owned(step.target.owner)
        test = self.judge.compile_all((*step.destination.filters, *step.filters))
        optional = step.modality is Modality.MAY

        def forced(done: tuple[int, ...], walk: Walk) -> bool:
            if (after(walk) if done else optional and rest(walk)):
                return True
            st = walk.state
            depth = len(walk.path)
            for victim in range(len(st.worker_pos)):
                here = st.worker_pos[victim]
                if here < 0 or victim in done or not owned(st.worker_team[victim]):
                    continue
                dest = locate(walk, -1, -1, here)
                if dest < 0 or st.blocked[dest] or dest in walk.domelike:
                    continue
                if test is not None and not test(walk, victim, here, dest, st.heights[here], st.heights[dest], None):
                    continue
                action: Action = ("force", victim, dest)
                if walk.script is not None and not walk.admits(action, depth):
                    continue
                apply_force(walk, victim, dest)
                stop = _go_on(walk, action, -1, functools.partial(forced, (*done, victim)))
                undo_force(walk, victim, here)
                if stop and walk.stop_here(depth):
                    return True
            return False
        return functools.partial(forced, ())

    def remove_worker(self, step: Step, after: StepFn | None, rest: StepFn, optional: bool,
                      repeated: bool) -> StepFn:
        """A worker the player chooses leaves the game: one that `step.target` names around the
        acting worker, whose space passes the step's filters, judged from the acting worker's space
        ('standing exactly 2 levels higher'). Written `remove B1`."""
        choose = self.chooser(step)
        assert step.target is not None
        victims = self._targets(step.target)
        test = self.judge.compile_all(step.filters)

        def candidates(walk: Walk, worker: int) -> list[Action]:
            st = walk.state
            origin = st.worker_pos[worker]
            return [("remove", victim, -1) for victim in victims(walk, worker)
                    if test is None or test(walk, worker, origin, st.worker_pos[victim], st.heights[origin],
                                            st.heights[st.worker_pos[victim]], None)]

        to_card = ToCard() in step.effects

        def perform(walk: Walk, worker: int, action: Action, then: StepFn) -> bool:
            victim = action[1]
            square = apply_remove(walk, victim, to_card)
            stop = _go_on(walk, action, worker, then)
            undo_remove(walk, victim, square)
            return stop
        return _on_workers(choose, candidates, perform, after, rest, optional, repeated,
                           step.modality is Modality.IF_POSSIBLE)

    def _targets(self, selector: WorkerSelector) -> Callable[[Walk, int], list[int]]:
        """The workers a force or a removal may act on: around the acting worker, around the
        space the selector names ('neighboring the space it just vacated'), or anywhere ('one of
        your other workers')."""
        owned = self.judge.owned(selector.owner)
        if selector.role is Role.SUBJECT:  # (the acting worker itself: 'return one of your workers to your card')
            return lambda walk, worker: [worker]
        if selector.role is Role.OTHER:
            def anywhere(walk: Walk, worker: int) -> list[int]:
                st = walk.state
                return [w for w in range(len(st.worker_pos))
                        if w != worker and st.worker_pos[w] >= 0 and owned(st.worker_team[w])]
            return anywhere
        centre: Locator | None = None
        if selector.around is SpaceRef.VACATED:
            centre = _left_by_last_move
        elif selector.around is not None:
            centre = space_locator(selector.around)

        def near(walk: Walk, worker: int) -> list[int]:
            st = walk.state
            origin = st.worker_pos[worker]
            square = origin if centre is None else centre(walk, worker, origin, -1)
            if square < 0:
                return []
            around = ADJACENT[square]
            return [w for w in range(len(st.worker_pos))
                    if w != worker and st.worker_pos[w] in around and owned(st.worker_team[w])]
        return near

    def remove(self, step: Step, after: StepFn | None, rest: StepFn, optional: bool, repeated: bool) -> StepFn:
        """Take the top block off a space (never a dome): 'remove a block from ...'; or every block
        on it, one after another, each written `unbuild A1 c3` ('remove all blocks from ...'). A
        space with a worker on it only where the place says so ('occupied by a worker')."""
        ways = self.ways(dataclasses.replace(step, verb=Verb.BUILD))
        choose = self.chooser(step)
        occupied = step.destination is not None and any(isinstance(f, OccupiedBy) for f in step.destination.filters)
        stack = step.piece is Piece.STACK

        def candidates(walk: Walk, worker: int) -> list[Action]:
            st = walk.state
            origin = st.worker_pos[worker]
            found: list[Action] = []
            for square in _union(walk, ways, worker, origin, "unbuild"):
                height = st.heights[square]
                if height == 0 or st.domes[square] or (st.occupant[square] >= 0 and not occupied):
                    continue
                if any(way.test is None or way.test(walk, worker, origin, square, height, height, Piece.BLOCK)
                       for way in ways):
                    found.append(("unbuild", worker, square))
            return found

        cost = tuple((c.counter.value, -c.amount) for c in step.cost)

        def unbuild(walk: Walk, action: Action, then: StepFn) -> bool:
            _, worker, square = action
            unbuilt = apply_unbuild(walk, worker, square)
            onward = then
            if stack and walk.state.heights[square] > 0:
                def onward(walk: Walk) -> bool:  # (the next block of the stack: the same step again)
                    depth = len(walk.path)
                    if walk.script is not None and not walk.admits(action, depth):
                        return False
                    return unbuild(walk, action, then) and walk.stop_here(depth)
            stop = _go_on(walk, action, worker, onward)
            undo_unbuild(walk, square, unbuilt)
            return stop

        def perform(walk: Walk, action: Action, then: StepFn) -> bool:
            if cost:
                _pay(walk, cost, 1)
            stop = unbuild(walk, action, then)
            if cost:
                _pay(walk, cost, -1)
            return stop

        def each_candidate(walk: Walk, then: StepFn, depth: int) -> bool:
            if cost and not _affords(walk, cost):
                return False
            for worker in _scripted(walk, choose(walk), depth):
                for action in candidates(walk, worker):
                    if walk.script is not None and not walk.admits(action, depth):
                        continue
                    if perform(walk, action, then) and walk.stop_here(depth):
                        return True
            return False

        # (repeated 'any number of times' only with a cost, which the checker asks: the coins run out)
        return _taken(lambda walk, then: each_candidate(walk, then, len(walk.path)), after, rest, optional, repeated)


# ---- shared helpers --------------------------------------------------------------------------------

def _on_workers(choose: Callable[[Walk], list[int]], candidates: Callable[[Walk, int], list[Action]],
                perform: Callable[[Walk, int, Action, StepFn], bool], after: StepFn | None, rest: StepFn,
                optional: bool, repeated: bool, if_possible: bool = False) -> StepFn:
    """A step the player takes on another worker (a force, a removal): each worker `choose`
    allows offers its `candidates`, and `perform` makes one, goes on with the turn and undoes it.
    A repeated step goes on with itself (`after` is None then). `if_possible`: the turn goes on
    without it (`rest`) only where no worker has a candidate."""
    def each_candidate(walk: Walk, then: StepFn) -> bool:
        depth = len(walk.path)
        for worker in choose(walk):
            for action in candidates(walk, worker):
                if walk.script is not None and not walk.admits(action, depth):
                    continue
                if perform(walk, worker, action, then) and walk.stop_here(depth):
                    return True
        return False

    def none(walk: Walk) -> bool:
        return not any(candidates(walk, worker) for worker in choose(walk))
    # (repeated, a force may bring a worker back where it was: each state is searched once)
    return _taken(each_candidate, after, rest, optional, repeated, none if if_possible else None)


def _taken(each_candidate: Callable[[Walk, StepFn], bool], after: StepFn | None, rest: StepFn, optional: bool,
           repeated: bool, left_out: Callable[[Walk], bool] | None = None) -> StepFn:
    """A step's closure from its takings (`each_candidate(walk, then)`: each one made, the turn
    going on with `then`). Repeated any number of times: breadth first from the walk's state, each
    state searched once, the turn going on (`rest`) at each. Else taken once, going on with `after`;
    `optional`: the turn also goes on without it; `left_out`: where it holds, the turn goes on
    without it instead ('if possible': no candidate)."""
    if repeated:
        def again(walk: Walk) -> bool:
            return breadth_first(walk, again, rest, each_candidate)
        return again
    assert after is not None  # (None only for a repeated step)
    then = after

    def take(walk: Walk) -> bool:
        if optional and rest(walk):
            return True
        if left_out is not None and left_out(walk):
            return rest(walk)
        return each_candidate(walk, then)
    return take


def _go_on(walk: Walk, action: Action, worker: int, then: StepFn) -> bool:
    """After a step's effects are applied: log its action, make its worker 'that worker', let a
    probe see the state, go on with the turn, and put the walk back as it was."""
    walk.path.append(action)
    previous_actor = walk.last_actor
    walk.last_actor = worker
    if walk.probe is not None:
        walk.probe(walk)
    stop = then(walk)
    walk.last_actor = previous_actor
    walk.path.pop()
    return stop


def perform_build(walk: Walk, action: Action, mark: str | None, then: StepFn, cost: tuple[tuple[str, int], ...],
                  board_wins: Callable[[Walk], int | None] | None) -> bool:
    """Make a build ('build' or 'dome'), spend its cost, set its once-per-game mark, judge a
    board win, go on with the turn (`then`), and undo it all: the build as every chain makes it
    (the generic one, and the derived code's builds that are not keyed)."""
    st = walk.state
    _, worker, square = action
    built = apply_build(walk, worker, square, action[0] == "dome" or st.heights[square] == 3)
    if cost:
        _pay(walk, cost, 1)
    if mark is not None:
        apply_mark(walk, mark)
    walk.path.append(action)
    previous_actor = walk.last_actor
    walk.last_actor = worker
    if walk.probe is not None:
        walk.probe(walk)
    winner = board_wins(walk) if board_wins is not None else None
    if winner is not None:
        st.winner = winner
        stop = walk.leaf(walk)
        st.winner = None
    else:
        stop = then(walk)
    walk.last_actor = previous_actor
    walk.path.pop()
    if mark is not None:
        undo_mark(walk, mark)
    if cost:
        _pay(walk, cost, -1)
    undo_build(walk, built)
    return stop


def _banned(verb: Verb) -> Callable[[Walk], tuple[Test, ...]]:
    """The prohibitions in force on this turn's steps of `verb` (set at the start of the turn)."""
    return lambda walk: walk.banned.get(verb, ())


def _force_destination(walk: Walk, force: CompiledForce, worker: int, origin: int, to: int,
                       victim: int) -> int:
    """Where the worker on `to` is forced to when `worker` steps there from `origin` (-1: it cannot
    be). A forced worker goes to an unoccupied space, or to the one the mover leaves."""
    if victim < 0:
        return -1
    locate, test = force
    dest = locate(walk, worker, origin, to)
    st = walk.state
    if dest < 0 or (dest != origin and (st.blocked[dest] or dest in walk.domelike)):
        return -1
    if test is not None and not test(walk, victim, to, dest, st.heights[to], st.heights[dest], None):
        return -1
    return dest


def _squares(walk: Walk, way: _Way, worker: int, origin: int, kind: str) -> tuple[int, ...]:
    """The spaces a way of a step may reach: its region, or, while a written step is matched at
    this depth, only the one it names (none if it names another kind of step)."""
    if way.region is Region.NEIGHBORING:
        region = NEIGHBOURS[origin]
    elif way.region is Region.ANYWHERE:
        region = SQUARES
    elif way.region is Region.WRAPPED:
        region = WRAPPED_NEIGHBOURS[origin]
    elif way.region is Region.OVER_WORKER:
        occupant = walk.state.occupant
        region = tuple(beyond for n in NEIGHBOURS[origin]
                       if occupant[n] >= 0 and (beyond := BEYOND[origin][n]) >= 0)
    else:
        assert way.locate is not None  # (the region is one space, which the way locates)
        square = way.locate(walk, worker, origin, -1)
        if square < 0 or (way.neighbouring and square not in ADJACENT[origin]):
            return ()
        region = (square,)
    script, depth = walk.script, len(walk.path)
    if script is None or depth >= len(script):
        return region
    want = script[depth]
    if want[0] != kind and not (kind == "build" and want[0] == "dome"):
        return ()
    return (want[2],) if want[2] in region else ()


def slide_reaction(judge: Judge, trigger: Callable[[Walk, Event], bool], step: Step) -> Reaction:
    """A reaction that forces the worker of a matching move on, space by space in the move's
    direction, while the next space passes the step's filters (an automatic repeated force)."""
    assert step.destination is not None
    test = judge.compile_all((*step.destination.filters, *step.filters))

    def slide(walk: Walk, event: Event) -> Callable[[], None] | None:
        if not trigger(walk, event):
            return None
        st = walk.state
        worker, previous, here = event[1], event[2], event[3]
        if st.worker_pos[worker] != here:
            return None
        while True:
            ahead = BEYOND[previous][here]
            if ahead < 0 or (test is not None and not test(walk, worker, here, ahead, st.heights[here],
                                                            st.heights[ahead], None)):
                break
            previous, here = here, ahead
        if here == event[3]:
            return None
        start = apply_force(walk, worker, here)
        return lambda: undo_force(walk, worker, start)
    return slide


def loss_reaction(trigger: Callable[[Walk, Event], bool]) -> Reaction:
    """A reaction by which the player of the worker of a matching move loses and leaves the game
    (its team: teammates share their workers)."""

    def lose(walk: Walk, event: Event) -> Callable[[], None] | None:
        if not trigger(walk, event):
            return None
        st = walk.state
        team = st.worker_team[event[1]]
        if not any(st.seats[seat].team == team for seat in range(len(st.seats)) if seat not in st.out):
            return None  # (already out)
        lost = apply_lose(walk, team)
        return lambda: undo_lose(walk, lost)
    return lose


def after_reactions(walk: Walk, then: StepFn) -> bool:
    """Go on with the turn after other seats' reactions to a move: unless one made a player lose,
    and the last team left wins (the turn ends with the win), or the player to move lost (its
    turn ends there)."""
    st = walk.state
    if not st.out:
        return then(walk)
    left = st.teams_in_play()
    if len(left) == 1:
        st.winner = left.pop()
        stop = walk.leaf(walk)
        st.winner = None
        return stop
    return walk.leaf(walk) if walk.seat in st.out else then(walk)


def _usable(walk: Walk, ways: list[_Way], worker: int, own: Callable[[Walk], list[int]],
            choose: Callable[[Walk], list[int]]) -> list[_Way]:
    """The ways of a step open to `worker` now: its chooser names the worker, and a once-per-game
    way has not been used by this seat."""
    marks = walk.state.marks
    return [way for way in ways
            if (way.once is None or (walk.seat, way.once) not in marks)
            and (choose is own or worker in (way.chooser or own)(walk))]


def _affords(walk: Walk, cost: tuple[tuple[str, int], ...]) -> bool:
    counters, seat = walk.state.counters, walk.seat
    return all(counters.get((seat, name), 0) >= amount for name, amount in cost)


def _pay(walk: Walk, cost: tuple[tuple[str, int], ...], sign: int) -> None:
    """Spend the cost of a step (sign 1), or give it back on undo (sign -1)."""
    st, seat = walk.state, walk.seat
    for name, amount in (cost if sign > 0 else reversed(cost)):
        value = st.counters.get((seat, name), 0)
        if sign > 0:
            apply_counter(walk, seat, name, value - amount)
        else:
            undo_counter(walk, seat, name, value + amount)


def gain_step(changes: tuple[ChangeCounter, ...], rest: StepFn) -> StepFn:
    """What happens to the card as a turn starts ('you gain 1 coin'): nothing is written."""
    amounts = tuple((c.counter.value, c.amount) for c in changes)

    def gain(walk: Walk) -> bool:
        st, seat = walk.state, walk.seat
        before = [apply_counter(walk, seat, name, st.counters.get((seat, name), 0) + amount)
                  for name, amount in amounts]
        stop = rest(walk)
        for (name, _), value in reversed(list(zip(amounts, before, strict=True))):
            undo_counter(walk, seat, name, value)
        return stop
    return gain


def written(walk: Walk, action: Action, then: StepFn) -> bool:
    """A step that the turn writes (`action`, its changes already made), and the turn after it:
    the path holds it while `then` runs, and a probe sees it."""
    walk.path.append(action)
    if walk.probe is not None:
        walk.probe(walk)
    stop = then(walk)
    walk.path.pop()
    return stop


def point_step(step: Step, after: StepFn, rest: StepFn, optional: bool) -> StepFn:
    """The player points a token of its card (`point KIND DIRECTION`, `point KIND nowhere`): its
    direction counter (`direction_counter`) is set; a direction it points in already is no step."""
    assert step.token is not None and step.heading is not None
    kind, name = step.token.value, direction_counter(step.token)
    values = tuple(direction.number for direction in Compass) if step.heading is Heading.ANY else (0,)

    def take(walk: Walk) -> bool:
        if optional and rest(walk):
            return True
        seat, depth = walk.seat, len(walk.path)
        now = walk.state.counters.get((seat, name), 0)
        for value in values:
            action = ("point", kind, value)
            if value == now or (walk.script is not None and not walk.admits(action, depth)):
                continue
            before = apply_counter(walk, seat, name, value)
            stop = written(walk, action, after)
            undo_counter(walk, seat, name, before)
            if stop and walk.stop_here(depth):
                return True
        return False
    return take


def grant_turn(after: StepFn) -> StepFn:
    """The seat is owed one more turn ('you may take an additional turn'): its counter of
    additional turns goes up by one, and the seat moves again after this turn (GameState.next_seat)."""
    name = Counter.ADDITIONAL_TURN.value

    def grant(walk: Walk) -> bool:
        seat = walk.seat
        before = apply_counter(walk, seat, name, walk.state.counters.get((seat, name), 0) + 1)
        stop = after(walk)
        undo_counter(walk, seat, name, before)
        return stop
    return grant


def additional_turn(seat: int, chains: list[StepFn]) -> StepFn:
    """An additional turn the seat is owed: one fewer is owed once it begins; the player takes
    one of its `chains` (the additional turn's programs), or declines it with `pass` (a turn not
    taken: the obligations other seats lay on turns do not bind it, `Walk.declined`)."""
    name = Counter.ADDITIONAL_TURN.value
    action = ("pass", -1, -1)

    def take(walk: Walk) -> bool:
        st = walk.state
        owed = st.counters.get((seat, name), 0)
        before = apply_counter(walk, seat, name, owed - 1)
        try:
            depth = len(walk.path)
            if walk.script is None or walk.admits(action, depth):
                if written(walk, action, walk.declined or walk.leaf) and walk.stop_here(depth):
                    return True
            return any(chain(walk) for chain in chains)
        finally:
            undo_counter(walk, seat, name, before)
    return take


def _mixed(ways: list[_Way]) -> bool:
    """Whether the ways of a step reach different regions (so each space is checked against each)."""
    return len(ways) > 1 and not all(way.region is Region.NEIGHBORING for way in ways)


def tokens_placed(kind: str) -> str:
    """The name of the counter, on the seat's card, of the tokens of `kind` its steps placed."""
    return f"{kind} tokens placed"


def _union(walk: Walk, ways: list[_Way], worker: int, origin: int, kind: str) -> tuple[int, ...]:
    """The spaces any way of a step may reach, in the order of the first way's region."""
    first = _squares(walk, ways[0], worker, origin, kind)
    if len(ways) == 1 or all(way.region is Region.NEIGHBORING for way in ways):
        return first
    seen = dict.fromkeys(first)
    for way in ways[1:]:
        seen.update(dict.fromkeys(_squares(walk, way, worker, origin, kind)))
    return tuple(seen)


def _scripted_squares(walk: Walk, squares: tuple[int, ...], kind: str) -> tuple[int, ...]:
    """The squares a step of `kind` may use, narrowed to the one a written step names."""
    script, depth = walk.script, len(walk.path)
    if script is None or depth >= len(script):
        return squares
    want = script[depth]
    return (want[2],) if want[0] == kind and want[2] in squares else ()


def _scripted(walk: Walk, workers: list[int], depth: int) -> list[int]:
    """When matching a written step, only the worker it names can take it."""
    script = walk.script
    if script is not None and depth < len(script):
        named = script[depth][1]
        if not isinstance(named, int):  # a step that names no worker ('token talus d2') is not this one
            return []
        if named >= 0:
            return [named] if named in workers else []
    return workers


def _left_by_last_move(walk: Walk, worker: int, origin: int, target: int) -> int:
    """The space the worker's latest move of this turn left (-1 if it has not moved): 'the space
    it just vacated' in a step after that move."""
    for event in reversed(walk.events):
        if event[0] == "move" and event[1] == worker:
            square: int = event[2]
            return square
    return -1


def _refuse(walk: Walk) -> bool:
    """Where a step that must be taken cannot be: no turn goes on."""
    return False


def breadth_first(walk: Walk, step: object, rest: StepFn, expand: Callable[[Walk, StepFn], bool],
                  stops: bool = True) -> bool:
    """A step repeated any number of times (or a follow-up taken again each time its step
    matches: Engine._follow_up), from the walk's state: each state it reaches is
    visited once (`_first_visit`), in breadth-first order (the fewest repetitions first; among
    as many, in the order they were reached), and at each the turn goes on (`rest`), then the
    step is taken again (`expand(walk, then)`, each candidate going on with `then`). So a turn's
    outcomes come by their fewest repetitions, and each is reached, as its steps say, by a
    shortest way.

    The walk is put in each state in turn: its state, path, events and last actor are saved
    when the state is reached (`GameState.fork`) and given back to the walk when it is visited;
    the walk is left as it came. A stop asked below (a leaf that returns True) ends the search
    as it ends any step's: where every depth between here and there lets a stop go up
    (`Walk.stop_here`: matching a written turn's frontier, one completion of a step there is
    enough); with `stops` False (the derived chain, whose leaves never stop a search) it is not
    asked."""
    depth = len(walk.path)
    if not _first_visit(walk, step, depth):
        return False
    state, path, events, actor = walk.state, walk.path, walk.events, walk.last_actor
    states: list[tuple[GameState, list[Action], list[Event], int]] = [(state, path, events, actor)]

    def reached(w: Walk) -> bool:
        if _first_visit(w, step, len(w.path)):
            states.append((w.state.fork(), w.path[:], w.events[:], w.last_actor))
        return False
    try:
        for at, (st, steps, happened, last) in enumerate(states):
            if at:
                walk.state, walk.path, walk.events, walk.last_actor = st, steps, happened, last
            if not stops:  # (neither says to stop: both are asked)
                rest(walk)
                expand(walk, reached)
            elif (rest(walk) or expand(walk, reached)) and all(walk.stop_here(d) for d in range(depth, len(steps))):
                return True
    finally:
        walk.state, walk.path, walk.events, walk.last_actor = state, path, events, actor
    return False


def _first_visit(walk: Walk, step: object, depth: int) -> bool:
    """A repeated step ('any number of times') can come back to a state it has been in; each
    (step, state, last actor) is explored once, and, where the turn is judged on more of its log
    than the state shows (an obligation on each worker's last move, a fact kept: `Walk.log_context`),
    once per state and what of the log is read: two ways to one board, one that meets the judgement
    and one that does not, are both searched. When matching a written turn the depth counts too,
    since the same state may be passed through at two points of the written turn."""
    script = walk.script
    # Within a written turn the depth counts (a state may be passed through at two points of it);
    # past its end (looking for a completion) it does not, or a cycle of moves would never end.
    # (the workers yet to take a step each of them takes are part of where the turn stands)
    key = (id(step), walk.state.hash, walk.last_actor, depth if script is not None and depth <= len(script) else -1,
           walk.log_context(walk) if walk.log_context is not None else None,
           tuple(walk.pending.values()) if walk.pending else None)
    if key in walk.visited:
        return False
    walk.visited.add(key)
    return True


__all__ = ["StepCompiler", "WayParts", "merge_destination", "merge_filters", "perform_build", "use_step"]

"""Random games played in one loop: the plain turn's seats played inline, the others by the engine.

`Engine.playout` plays the random turns of a game between random players (the games of
`santorini bench`, and the rollouts of a tree search). A seat whose turn is the plain one (one of
your workers moves, that worker builds; no dome option, perhaps a move option into an opponent's
space: `inline_kinds`, `inline_options`) has its
turn drawn and played here, inline: the same draw as `plain_picker` (plain.py) from the seat's
generator, in the same order of outcomes, and the same changes to the state as
`Engine._apply_found`. The loop keeps the free squares as one integer, the domes' bits, and the
hash with the squares by level (the state's level_field) above it in one number, in locals, from
one inline turn to the next, and calls nothing for them. Every other seat's
turn, and a winning turn of any seat, is the engine's (`other_turn`, `winning_turn`); the loop
writes its locals back to the state before and reads them again after. tests/test_playout.py and
tests/test_conformance.py check that the games are those of asking each player for a turn.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Sequence
from random import Random
from types import FunctionType

from ..chain.actions import actions
from ..chain.walk import Action
from ..model.board import BEYOND, HASH_BITS, LEVEL_BIT, NEIGHBOUR_BITS, NEIGHBOURS, SQUARE_BITS, SQUARES, ZOBRIST
from ..model.state import Event, GameState, TurnRecord, counter_key
from .bits import free_bits
from .counted import DEFERRED, Deferred
from .plain import A_MOVE, A_WIN, Drawn, Kinds, TurnPairs, _turn_pairs

#: The kinds of event the loop plays itself (the others are the engine's: Engine._apply_found).
SIMPLE = frozenset(("move", "force", "build", "unbuild", "counter", "token", "use"))

#: The bits of the state's hash (board.HASH_BITS): the loop keeps the level field above them.
_HASH = (1 << HASH_BITS) - 1
#: _NEXT[n][seat]: the seat after `seat` of n, while none has left the game (GameState.next_seat).
_NEXT = tuple(tuple((seat + 1) % count for seat in range(count)) for count in range(9))

#: (state, generators by seat, turn limit, the list of turns played, to extend) -> None
Playout = Callable[[GameState, Sequence[Random], int, list[tuple[Action, ...]]], None]
#: A seat's move options into an opponent's space: (same or lower, to the vacated space) each
#: (plain._Moves.options).
Options = tuple[tuple[bool, bool], ...]
#: A seat's picker as the loop calls it: counted.Picker, whose answer the engine's own pickers
#: (Engine._kernel_picker) type as object.
SeatPicker = Callable[[GameState, int, bool, bool, Random, int], object]


def fused_playout(inline_kinds: Sequence[Kinds | None],
                  forbidden: Callable[[GameState, int], tuple[bool, bool]] | None,
                  other_turn: Callable[[GameState, int, Random], tuple[Action, ...] | None],
                  winning_turn: Callable[[GameState, int, tuple[Action, ...]], None],
                  inline_options: Sequence[Options] = (), pickers: Sequence[SeatPicker | None] = (),
                  found: Callable[[GameState, int, tuple[Action, ...], tuple[Event, ...] | None], bool] | None = None
                  ) -> Playout:
    """The playout loop of an engine. `inline_kinds[seat]`: the move kinds of a seat played
    inline (plain._Moves.kinds: [forbid up][forbid down][from level][to level]), else None;
    `inline_options[seat]`: its move options into an opponent's space, (same or lower, the
    forced worker goes to the vacated space) as plain._Moves.options, tried in order.
    `forbidden(state, team)`: whether other seats' powers forbid moving up and down this turn,
    or None when no power forbids anything. `other_turn(state, seat, rng)`: play the random
    turn of a seat with neither an inline turn nor a picker in place, without passing the turn
    on, and return it (None: it has none).
    `winning_turn(state, seat, steps)`: play a winning turn drawn here. `pickers[seat]`: the
    counting picker of a seat not played inline (counted.py's Picker), whose turn the loop
    draws and, when its events are only moves, forces, builds, removals of a block, counters and tokens,
    plays itself, as
    `Engine._apply_found` would (`found(state, seat, steps, events)` plays the others)."""
    # The loop keeps the state's hash and its level_field in one number, `key`: the hash (64
    # bits) below, the squares by level from bit 64 up, so that one xor makes what a build does
    # to both. `build_keys[s][h]`: a piece built on s at height h (ZOBRIST.build, and the square's
    # level); `height_keys[s][h]`: the square s at height h (ZOBRIST.height, and its level).
    worker_keys, dome_keys = ZOBRIST.worker, ZOBRIST.dome
    build_keys = tuple(tuple(ZOBRIST.build[s][h] ^ ((LEVEL_BIT[s][h] ^ LEVEL_BIT[s][h + 1]) << HASH_BITS)
                             for h in range(3)) + (ZOBRIST.build[s][3],) for s in SQUARES)
    height_keys = tuple(tuple(ZOBRIST.height[s][h] ^ LEVEL_BIT[s][h] << HASH_BITS for h in range(4)) for s in SQUARES)
    neighbour_bits, neighbours, square_bits = NEIGHBOUR_BITS, NEIGHBOURS, SQUARE_BITS
    a_move, a_win = A_MOVE, A_WIN
    seat_options = list(inline_options) or [()] * len(inline_kinds)
    #: The kinds of an inline seat's moves when no power can forbid anything; None for a seat
    #: the loop hands to the engine, or whose moves a prohibition may bind (read each turn).
    unbound = [kinds[0][0] if kinds is not None and forbidden is None else None for kinds in inline_kinds]

    def forced_to(st: GameState, origin: int, to: int, team: int, options: Options) -> int:
        """Where a move option forces the worker on `to` when a worker moves there from
        `origin` (plain._Moves.force), or -1: no option lets it."""
        victim = st.occupant[to]
        if victim < 0 or st.worker_team[victim] == team:
            return -1
        here, there = st.heights[origin], st.heights[to]
        for same_or_lower, vacated in options:
            if same_or_lower and there > here:
                continue
            dest = origin if vacated else BEYOND[origin][to]
            if dest != origin and (dest < 0 or st.blocked[dest]):
                continue
            return dest
        return -1

    def count_options(st: GameState, worker: int, origin: int, kind_of: tuple[int, ...], free: int, options: Options,
                      team: int, total: int, ends: list[int], moves: list[int]) -> int:
        """The playout loop's count of a worker's moves for a seat with move options: a free
        space as the plain turn counts it, an opponent's space where an option forces its
        worker away (the builds around it but where the forced worker goes)."""
        heights, around_free, code = st.heights, free | square_bits[origin], worker * 32
        for to, bit, around in neighbour_bits[origin]:
            kind = kind_of[heights[to]]
            if not kind:
                continue
            if free & bit:
                total += (around_free & around).bit_count() if kind == a_move else 1
            elif (dest := forced_to(st, origin, to, team, options)) >= 0:
                total += 1 if kind == a_win else (around_free & ~square_bits[dest] & around).bit_count()
            else:
                continue
            ends.append(total)
            moves.append(code + to)
        return total

    seat_pickers = list(pickers) or [None] * len(inline_kinds)
    #: Whether a seat's picker says that its turns have only kinds of event the loop plays (the
    #: picker's `event_kinds`, counted.Picker): its events are then played without a check.
    trusted = [kinds is not None and kinds <= SIMPLE for kinds in (getattr(picker, "event_kinds", None)
                                                                   for picker in seat_pickers)]
    #: Whether the history must be up to date before a seat's turn (the turns the loop played
    #: are added to it in one go, later): for a power's prohibition, which may read it, and a
    #: picker that says it reads it (its `reads_history`, counted.Picker).
    reading = [forbidden is not None or bool(getattr(picker, "reads_history", False)) for picker in seat_pickers]
    # a picker that is an object is called through its bound method (half the cost of a call)
    seat_pickers = [picker if picker is None or isinstance(picker, FunctionType)
                    else picker.__call__  # type: ignore[operator]  # (mypy reads a Callable's __call__ so)
                    for picker in seat_pickers]

    #: each worker's ready-made turns (plain._turn_pairs), by worker index: the same in every
    #: game, made for as many workers as a game has had
    pairs_of: list[TurnPairs] = []

    def playout(st: GameState, rngs: Sequence[Random], limit: int, played: list[tuple[Action, ...]]) -> None:
        heights, blocked, positions, occupant = st.heights, st.blocked, st.worker_pos, st.occupant
        domes, classes, history, seats, counters = st.domes, st.worker_class, st.history, st.seats, st.counters
        teams = [info.team for info in seats]
        out = len(st.out)
        following = _NEXT[len(seats)] if not st.out and len(seats) < len(_NEXT) else \
            [st.next_seat(seat) for seat in range(len(seats))]
        # each seat's workers, in the order they were placed (read again after another seat's turn)
        seat_workers = [st.members.get(team, ()) for team in teams]
        workers = len(positions)
        draws = [rng.randrange for rng in rngs]
        while len(pairs_of) < workers:
            pairs_of.append(_turn_pairs("build", len(pairs_of)))
        turn_pairs = pairs_of
        own_keys = [worker_keys[cls] for cls in classes]  # (each worker's hash keys)
        # kept in locals while inline turns are played, written back when the state is handed on
        seat, key, dome_bits, free = st.to_move, st.hash | st.level_field << HASH_BITS, st.dome_bits, free_bits(st)
        append = played.append
        # the turns played here, inline or picked, (seat, steps, events), made TurnRecords and
        # added to the history in one go before anything reads it (the engine's turn, a power's
        # prohibition, a picker that says it reads it), and at the end: a record each turn costs
        # 2 % of a game
        pending: list[tuple[int, tuple[Action, ...], tuple[Event, ...]]] = []
        note, record_all = pending.append, history.extend

        for _ in range(limit - len(played)):  # (each pass plays one turn, or ends the game)
            kinds_from = unbound[seat]
            if kinds_from is None:
                if pending and reading[seat]:
                    record_all(map(TurnRecord, pending))
                    pending.clear()
                kinds = inline_kinds[seat]
                st.to_move, st.hash, st.dome_bits, st.level_field = seat, key & _HASH, dome_bits, key >> HASH_BITS
                if kinds is None:  # another seat's turn: its picker's, or the engine's
                    picker = seat_pickers[seat]
                    picked: Drawn | Deferred | None = DEFERRED
                    if picker is not None:
                        team = teams[seat]
                        up, down = forbidden(st, team) if forbidden is not None else (False, False)
                        picked = picker(st, team, up, down, rngs[seat], free)  # type: ignore[assignment]  # (Picker)
                        if picked is None:
                            break
                        if picked is not DEFERRED:  # (DEFERRED: a state the picker leaves to the list of turns)
                            steps, events = picked  # type: ignore[misc]  # (not DEFERRED)
                            simple = events is not None and trusted[seat]
                            if events is not None and not simple:
                                for event in events:
                                    if event[0] not in SIMPLE:
                                        break
                                else:
                                    simple = True
                            if simple:  # played here, as `apply_events` would, on the loop's arrays and locals
                                for event in events:  # type: ignore[union-attr]  # (simple: not None)
                                    kind = event[0]
                                    if kind == "move" or kind == "force":  # (the commonest first): state.relocate
                                        worker, square = event[1], event[3]
                                        old = positions[worker]
                                        if occupant[old] == worker:
                                            occupant[old] = -1
                                            blocked[old] = domes[old]
                                            if not domes[old]:
                                                free |= square_bits[old]
                                        occupant[square] = worker
                                        blocked[square] = 1
                                        positions[worker] = square
                                        free &= ~square_bits[square]
                                        keys = own_keys[worker]
                                        key ^= keys[old] ^ keys[square]
                                    elif kind == "build":
                                        _, _, square, height, dome = event
                                        if dome:
                                            domes[square] = True
                                            blocked[square] = 1
                                            dome_bits ^= square_bits[square]
                                            free &= ~square_bits[square]
                                            key ^= dome_keys[square]
                                        else:
                                            heights_of = height_keys[square]
                                            key ^= heights_of[heights[square]] ^ heights_of[height]
                                            heights[square] = height
                                    elif kind == "unbuild":  # (state.set_height)
                                        _, _, square, height = event
                                        heights_of = height_keys[square]
                                        key ^= heights_of[heights[square]] ^ heights_of[height]
                                        heights[square] = height
                                    elif kind == "counter":  # (state.set_counter, written out)
                                        _, seat_of, name, value = event
                                        held = counters.get((seat_of, name), 0)
                                        if held != value:
                                            key ^= counter_key(seat_of, name, held) ^ counter_key(seat_of, name, value)
                                            if value:
                                                counters[(seat_of, name)] = value
                                            else:
                                                counters.pop((seat_of, name), None)
                                    elif kind == "token":  # as apply_events: from where it was, to where it goes
                                        _, seat_of, token, origin, square = event
                                        st.hash = key & _HASH
                                        if origin >= 0:
                                            st.set_token(origin, None)
                                        if square >= 0:
                                            st.set_token(square, (token, seat_of))
                                        key = st.hash | key >> HASH_BITS << HASH_BITS
                                    # ("use": a named option used, nothing on the board changes)
                                note((seat, steps, events))  # type: ignore[arg-type]  # (simple: not None)
                                append(steps)
                                seat = following[seat]
                                continue
                    if pending:  # (the engine's turn may read the history: the turns before are made first)
                        record_all(map(TurnRecord, pending))
                        pending.clear()
                    if picked is DEFERRED:  # no picker, or one that leaves this state to the list of turns
                        steps = other_turn(st, seat, rngs[seat])
                    else:
                        found(st, seat, steps, events)  # type: ignore[misc]  # (given with the pickers)
                    if steps is None or st.winner is not None:
                        if steps is not None:
                            append(steps)
                        return
                    append(steps)
                    key, dome_bits, free = st.hash | st.level_field << HASH_BITS, st.dome_bits, free_bits(st)
                    if len(positions) != workers:  # a power added a worker to the game
                        seat_workers = [st.members.get(team, ()) for team in teams]
                        workers = len(positions)
                        while len(pairs_of) < workers:
                            pairs_of.append(_turn_pairs("build", len(pairs_of)))
                        own_keys = [worker_keys[cls] for cls in classes]
                    if len(st.out) != out:  # a power made a team lose during the turn
                        following = [st.next_seat(s) for s in range(len(seats))]
                        out = len(st.out)
                    # (the same seat again where its turn owes it an additional one)
                    seat = st.next_seat(seat) if counters else following[seat]
                    continue
                up, down = forbidden(st, teams[seat])  # type: ignore[misc]  # (set: else `unbound` has the kinds)
                kinds_from = kinds[up][down]
            total = 0
            ends: list[int] = []
            moves: list[int] = []  # worker * 32 + to, as in plain_picker
            options = seat_options[seat]
            if options:  # a seat with move options: the moves into opponents' spaces too
                for worker in seat_workers[seat]:
                    origin = positions[worker]
                    if origin >= 0:
                        total = count_options(st, worker, origin, kinds_from[heights[origin]], free, options,
                                              teams[seat], total, ends, moves)
            else:
                for worker in seat_workers[seat]:
                    origin = positions[worker]
                    if origin < 0:
                        continue
                    kind_of = kinds_from[heights[origin]]
                    around_free = free | square_bits[origin]
                    code = worker * 32
                    for to, bit, around in neighbour_bits[origin]:
                        if not free & bit:
                            continue
                        kind = kind_of[heights[to]]
                        if kind == a_move:
                            total += (around_free & around).bit_count()
                        elif kind:
                            total += 1
                        else:
                            continue
                        ends.append(total)
                        moves.append(code + to)
            if not total:
                break
            index = draws[seat](total)
            entry = bisect_right(ends, index)
            move = moves[entry]
            worker, to = move >> 5, move & 31
            if entry:
                index -= ends[entry - 1]
            origin = positions[worker]
            here, there = heights[origin], heights[to]
            if kinds_from[here][there] == a_win:
                if pending:
                    record_all(map(TurnRecord, pending))
                st.to_move, st.hash, st.dome_bits, st.level_field = seat, key & _HASH, dome_bits, key >> HASH_BITS
                steps = (actions("move", worker)[to],)
                winning_turn(st, seat, steps)
                append(steps)
                return
            keys = own_keys[worker]
            if not options or free >> to & 1:
                for square in neighbours[to]:
                    if square == origin or free >> square & 1:
                        if not index:
                            break
                        index -= 1
                # the move (state.relocate, written out: the worker holds its square)
                occupant[origin] = -1
                blocked[origin] = 0  # (a worker never stands under a dome)
                free = (free | square_bits[origin]) ^ square_bits[to]
                forced = None
            else:  # a move option: the worker on `to` is forced to `dest`
                victim = occupant[to]
                dest = forced_to(st, origin, to, teams[seat], seat_options[seat])
                for square in neighbours[to]:
                    if (square == origin or free >> square & 1) and square != dest:
                        if not index:
                            break
                        index -= 1
                victim_keys = worker_keys[classes[victim]]
                key ^= victim_keys[to] ^ victim_keys[dest]
                occupant[origin] = -1
                blocked[origin] = 0
                occupant[dest] = victim  # (after the origin's: `dest` may be the origin)
                blocked[dest] = 1
                positions[victim] = dest
                free = (free | square_bits[origin]) & ~square_bits[dest]
                forced = ("force", victim, to, dest)
            occupant[to] = worker
            blocked[to] = 1
            positions[worker] = to
            steps = turn_pairs[worker][to][square]
            height = heights[square]
            if height == 3:  # the build: a dome (state.set_dome) or a block (state.set_height)
                domes[square] = True
                blocked[square] = 1
                dome_bits ^= square_bits[square]
                free ^= square_bits[square]
                build = ("build", worker, square, 3, True)
            else:
                heights[square] = height + 1
                build = ("build", worker, square, height + 1, False)
            key ^= keys[origin] ^ keys[to] ^ build_keys[square][height]  # (a block and its level, or a dome on 3)
            if forced is None:
                note((seat, steps, (("move", worker, origin, to, here, there), build)))
            else:
                note((seat, steps, (("move", worker, origin, to, here, there), forced, build)))
            append(steps)
            seat = following[seat]
        if pending:
            record_all(map(TurnRecord, pending))
        st.to_move, st.hash, st.dome_bits, st.level_field = seat, key & _HASH, dome_bits, key >> HASH_BITS
    return playout

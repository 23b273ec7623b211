"""The effect executor: every change a rule makes to the state, with its undo.

Each `apply_*` function changes the state, logs one event in the turn's log (the log says what a
turn did, and replaying the events replays the turn: model/state.apply_events), and returns what
its `undo_*` needs; the undo takes the event off the log and restores the state exactly (the
Zobrist hash included). Steps and automatic rules call only these, so that every effect is
written once, and every effect is logged.

Events: ("move", worker, from, to, from_height, to_height), ("force", worker, from, to),
("build", worker, square, new_height, dome), ("unbuild", worker, square, new_height),
("place", worker, square), ("remove", worker, square), ("lose", team),
("token", seat, kind, from, to), ("counter", seat, name, value), ("mark", seat, name).
"""

from __future__ import annotations

from ..model.state import BoardToken
from .walk import Event, Walk

#: What `undo_build` needs: the square, its height before, whether a dome was built, and the
#: token the build took off (None: none).
Built = tuple[int, int, bool, BoardToken | None]
#: What `undo_lose` needs: what `GameState.eliminate` took off the board, and the seats out before.
Lost = tuple[tuple[list[tuple[int, int]], list[tuple[int, BoardToken]]], set[int]]


def apply_move(walk: Walk, worker: int, to: int, victim: int = -1, dest: int = -1) -> Event:
    """A worker moves to `to`; a worker standing there (`victim`) is forced to `dest` at once
    (both pieces move together, so a swap works). Returns the move event."""
    st = walk.state
    origin = st.worker_pos[worker]
    event = ("move", worker, origin, to, st.heights[origin], st.heights[to])
    if victim >= 0:
        st.lift(victim)
    st.relocate(worker, to)
    if victim >= 0:
        st.place(victim, dest)
    walk.events.append(event)
    if victim >= 0:
        walk.events.append(("force", victim, to, dest))
    return event


def undo_move(walk: Walk, event: Event, victim: int = -1) -> None:
    st = walk.state
    _, worker, origin, to = event[:4]
    if victim >= 0:
        walk.events.pop()
        st.lift(victim)
    walk.events.pop()
    st.relocate(worker, origin)
    if victim >= 0:
        st.place(victim, to)


def apply_force(walk: Walk, worker: int, dest: int) -> int:
    """A worker is forced to `dest` (not a move). Returns where it stood."""
    st = walk.state
    here = st.worker_pos[worker]
    st.relocate(worker, dest)
    walk.events.append(("force", worker, here, dest))
    return here


def undo_force(walk: Walk, worker: int, here: int) -> None:
    walk.events.pop()
    walk.state.relocate(worker, here)


def apply_swap(walk: Walk, worker: int, other: int) -> None:
    """Two workers exchange spaces, both forced (neither moves)."""
    st = walk.state
    here, there = st.worker_pos[worker], st.worker_pos[other]
    st.lift(other)
    st.relocate(worker, there)
    st.place(other, here)
    walk.events.append(("force", worker, here, there))
    walk.events.append(("force", other, there, here))


def undo_swap(walk: Walk, worker: int, other: int, here: int, there: int) -> None:
    st = walk.state
    del walk.events[-2:]
    st.lift(other)
    st.relocate(worker, here)
    st.place(other, there)


def apply_build(walk: Walk, worker: int, square: int, dome: bool) -> Built:
    """The next piece (a block, or a dome) on a square; a token there leaves the game. Returns
    what the undo needs."""
    st = walk.state
    height = st.heights[square]
    if dome:
        st.set_dome(square, True)
    else:
        st.set_height(square, height + 1)
    walk.events.append(("build", worker, square, height + (not dome), dome))
    token = st.tokens.get(square)
    if token is not None:
        st.set_token(square, None)
        walk.events.append(("token", token[1], token[0], square, -1))
    return square, height, dome, token


def undo_build(walk: Walk, built: Built) -> None:
    square, height, dome, token = built
    st = walk.state
    if token is not None:
        walk.events.pop()
        st.set_token(square, token)
    walk.events.pop()
    if dome:
        st.set_dome(square, False)
    else:
        st.set_height(square, height)


#: What undo_unbuild needs: the height before, and the token taken off with the block (or None).
Unbuilt = tuple[int, tuple[str, int] | None]


def apply_unbuild(walk: Walk, worker: int, square: int) -> Unbuilt:
    """The top block of a square is taken away, and a token on it with it ('you also remove any
    tokens on the block'). Returns what the undo needs."""
    st = walk.state
    height = st.heights[square]
    st.set_height(square, height - 1)
    walk.events.append(("unbuild", worker, square, height - 1))
    token = st.tokens.get(square)
    if token is not None:
        st.set_token(square, None)
        walk.events.append(("token", token[1], token[0], square, -1))
    return height, token


def undo_unbuild(walk: Walk, square: int, unbuilt: Unbuilt) -> None:
    height, token = unbuilt
    st = walk.state
    if token is not None:
        walk.events.pop()
        st.set_token(square, token)
    walk.events.pop()
    st.set_height(square, height)


def apply_place(walk: Walk, worker: int, square: int) -> None:
    """A worker waiting on its card enters the board (it has not moved)."""
    st = walk.state
    st.reserve.discard(worker)
    st.place(worker, square)
    walk.events.append(("place", worker, square))


def undo_place(walk: Walk, worker: int) -> None:
    walk.events.pop()
    st = walk.state
    st.lift(worker)
    st.reserve.add(worker)


def apply_remove(walk: Walk, worker: int, to_card: bool = False) -> int:
    """A worker leaves the game, or the board for its card (`to_card`). Returns its square."""
    st = walk.state
    square = st.worker_pos[worker]
    st.lift(worker)
    if to_card:
        st.reserve.add(worker)
        walk.events.append(("remove", worker, square, True))
    else:
        walk.events.append(("remove", worker, square))
    return square


def undo_remove(walk: Walk, worker: int, square: int) -> None:
    walk.events.pop()
    walk.state.reserve.discard(worker)
    walk.state.place(worker, square)


def apply_lose(walk: Walk, team: int) -> Lost:
    """A team loses and leaves the game (its seats out, its workers and tokens off the board)."""
    st = walk.state
    out = set(st.out)
    taken = st.eliminate(team)
    walk.events.append(("lose", team))
    return taken, out


def undo_lose(walk: Walk, lost: Lost) -> None:
    taken, out = lost
    walk.events.pop()
    walk.state.restore(taken, out)


def apply_token(walk: Walk, seat: int, kind: str, square: int) -> int:
    """The seat's token of `kind` goes to `square`, from wherever it was (-1: the card).
    Returns where it was."""
    st = walk.state
    origin = next((s for s, token in st.tokens.items() if token == (kind, seat)), -1)
    if origin >= 0:
        st.set_token(origin, None)
    st.set_token(square, (kind, seat))
    walk.events.append(("token", seat, kind, origin, square))
    return origin


def undo_token(walk: Walk, seat: int, kind: str, square: int, origin: int) -> None:
    walk.events.pop()
    st = walk.state
    st.set_token(square, None)
    if origin >= 0:
        st.set_token(origin, (kind, seat))


def add_token(walk: Walk, seat: int, kind: str, square: int) -> None:
    """A new token of the seat's goes on `square` (one of several of its kind)."""
    walk.state.set_token(square, (kind, seat))
    walk.events.append(("token", seat, kind, -1, square))


def undo_add_token(walk: Walk, square: int) -> None:
    walk.events.pop()
    walk.state.set_token(square, None)


def apply_counter(walk: Walk, seat: int, name: str, value: int) -> int:
    """A counter on the seat's card is set to `value`. Returns the value before."""
    st = walk.state
    before = st.counters.get((seat, name), 0)
    st.set_counter(seat, name, value)
    walk.events.append(("counter", seat, name, value))
    return before


def undo_counter(walk: Walk, seat: int, name: str, before: int) -> None:
    walk.events.pop()
    walk.state.set_counter(seat, name, before)


def apply_mark(walk: Walk, name: str) -> None:
    """A once-per-game power of the seat to move is used: a mark on its card."""
    walk.state.set_mark(walk.seat, name, True)
    walk.events.append(("mark", walk.seat, name))


def undo_mark(walk: Walk, name: str) -> None:
    walk.events.pop()
    walk.state.set_mark(walk.seat, name, False)

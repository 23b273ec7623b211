"""The web playground's server: a Flask app whose routes call the library, and `serve`.

The page (static/) holds no rules: it asks the routes below, which ask a table (tables.py), which
asks the library. Every answer is JSON; a request the server cannot take gets a status and
`{"error": "..."}` that says what was wrong, never a traceback (a fault of the server's own is
logged on its side and told to the page as an internal error). Requests are bounded: a body of at
most MAX_BODY bytes, at most MOST_STEPS steps, the tables and agents of tables.py.

    GET  /api/packs                     the shipped packs, their cards and modes
    POST /api/games                     a new game: {"pack", "mode", "seats": [{"cards": [...], "player"}], "seed"}
    GET  /api/games/ID                  the game: seats, whose turn, the board, the turns told
    POST /api/games/ID/options          {"steps": [...]}: the steps that may come next
    POST /api/games/ID/play             {"turn": "move A1 c3; build A1 c4"}: a person's turn
    POST /api/games/ID/undo             back to the person's last turn
    GET  /api/games/ID/record           the game so far as a record (what `santorini play --record` writes)
    POST /api/watch                     {"text": a game record, a scenario or a position string}: its pictures
    GET  /api/cards/template            a card to start from
    POST /api/cards/check               {"text", "pack"}: the card's faults, each at its line and column
    POST /api/cards                     {"text", "pack"}: keep the card to play; the id of its pack
    POST /api/scenarios/run             {"text", "pack"}: a pasted scenario run, PASS or why not
    POST /api/balance                   {"pack", "card", "against", "games", "agent"}: a small balance run
    GET  /api/balance/ID                how far it is; GET /api/balance/ID/files/report.html, its report
"""

from __future__ import annotations

import dataclasses
import logging
import random
from collections.abc import Callable, Sequence
from importlib.resources import files
from pathlib import Path
from typing import Any

from flask import Flask, Response, jsonify, request, send_file
from werkzeug.exceptions import HTTPException, RequestEntityTooLarge

from ..dsl.errors import SantoriniError
from ..interpreter.games.packs import MORTAL, Pack, load_pack, pack_names
from .authoring import TEMPLATE, AuthorPacks
from .balancing import BalanceRuns
from .tables import PERSON, NotHere, Tables, WebError, start_thinking
from .views import Json, options_view, table_view
from .watch import watch

#: The largest request body the server reads (a card or a record is far smaller).
MAX_BODY = 256 * 1024
#: The most steps a turn begun may hold.
MOST_STEPS = 64

_log = logging.getLogger(__name__)


def create_app(tables: Tables | None = None, authors: AuthorPacks | None = None,
               runs: BalanceRuns | None = None, packs: Sequence[Path] = ()) -> Flask:
    """The playground's Flask app (its games kept in `tables`, the cards written in its pages in
    `authors`, their balance runs in `runs`: new stores by default), offering the shipped packs
    and the pack folders `packs` (an author's own: PackError names their faults)."""
    app = Flask(__name__, static_folder=str(files(__package__) / "static"), static_url_path="/static")
    app.config["MAX_CONTENT_LENGTH"] = MAX_BODY
    app.json.sort_keys = False  # type: ignore[attr-defined]
    store = tables if tables is not None else Tables()
    written = authors if authors is not None else AuthorPacks()
    balance = runs if runs is not None else BalanceRuns()
    views = {name: _pack_view(load_pack(name)) for name in pack_names()}
    for folder in packs:
        own = written.serve(folder)
        views[own.name] = _pack_view(own)

    @app.get("/")
    def index() -> Response:
        return app.send_static_file("index.html")

    @app.get("/api/packs")
    def offered_packs() -> Response:
        return jsonify({"packs": list(views.values())})

    @app.post("/api/games")
    def new_game() -> tuple[Response, int]:
        body = _body()
        seats = _field(body, "seats", list)
        if not 2 <= len(seats) <= 8:
            raise _BadRequest("a game has 2 to 8 seats")
        cards = [_field(seat, "cards", list) if isinstance(seat, dict) else _bad("each seat is an object")
                 for seat in seats]
        players = [str(seat.get("player", PERSON)) for seat in seats]
        seed = body.get("seed")
        seed = random.randrange(1 << 31) if seed is None else _integer(seed, "seed")
        pack = written.pack_path(str(body.get("pack", "bga")))
        mode = body.get("mode")
        table = store.new(pack, [[str(name) for name in names] or [MORTAL] for names in cards], players, seed,
                          None if mode in (None, "") else str(mode))
        with table.lock:
            start_thinking(table)
            return jsonify(table_view(table)), 201

    @app.get("/api/games/<table_id>")
    def game(table_id: str) -> Response:
        table = store.get(table_id)
        with table.lock:
            return jsonify(table_view(table))

    @app.post("/api/games/<table_id>/options")
    def options(table_id: str) -> Response:
        table = store.get(table_id)
        steps = _field(_body(), "steps", list)
        if len(steps) > MOST_STEPS:
            raise WebError(f"a turn begun holds at most {MOST_STEPS} steps")
        with table.lock:
            return jsonify(options_view(*table.options([str(step) for step in steps])))

    @app.post("/api/games/<table_id>/play")
    def play(table_id: str) -> Response:
        table = store.get(table_id)
        turn = _field(_body(), "turn", str)
        with table.lock:
            table.play(turn)
            start_thinking(table)
            return jsonify(table_view(table))

    @app.post("/api/games/<table_id>/undo")
    def undo(table_id: str) -> Response:
        table = store.get(table_id)
        with table.lock:
            table.undo()
            start_thinking(table)
            return jsonify(table_view(table))

    @app.get("/api/games/<table_id>/record")
    def record(table_id: str) -> Response:
        table = store.get(table_id)
        with table.lock:
            return jsonify({"text": table.seen().record(table.seed)})

    @app.post("/api/watch")
    def watch_text() -> Response:
        return jsonify(watch(_field(_body(), "text", str), written.serves_folder))

    @app.get("/api/cards/template")
    def template() -> Response:
        return jsonify({"text": TEMPLATE})

    @app.post("/api/cards/check")
    def check_card() -> Response:
        body = _body()
        checked = written.check(_field(body, "text", str), str(body.get("pack", "bga")))
        return jsonify({"name": checked.name, "faults": [dataclasses.asdict(fault) for fault in checked.faults]})

    @app.post("/api/cards")
    def publish_card() -> tuple[Response, int]:
        body = _body()
        pack, card = written.publish(_field(body, "text", str), str(body.get("pack", "bga")))
        return jsonify({"pack": pack, "card": card}), 201

    @app.post("/api/scenarios/run")
    def run_scenario() -> Response:
        body = _body()
        passed, failures = written.run_scenario(_field(body, "text", str), str(body.get("pack", "bga")))
        return jsonify({"passed": passed, "failures": failures})

    @app.post("/api/balance")
    def start_balance() -> tuple[Response, int]:
        body = _body()
        against = body.get("against", [])
        if not isinstance(against, list):
            raise _BadRequest("'against' must be a list of cards (empty: every card)")
        run = balance.start(written.pack_path(str(body.get("pack", "bga"))), _field(body, "card", str),
                            [str(name) for name in against], _integer(body.get("games", 4), "games"),
                            str(body.get("agent", "random")))
        return jsonify(run.status()), 201

    @app.get("/api/balance/<run_id>")
    def balance_status(run_id: str) -> Response:
        return jsonify(balance.get(run_id).status())

    @app.get("/api/balance/<run_id>/files/<name>")
    def balance_file(run_id: str, name: str) -> Response:
        path = balance.get(run_id).file(name)
        return send_file(path, max_age=0)

    @app.errorhandler(NotHere)
    def not_here(error: NotHere) -> tuple[Response, int]:
        return jsonify({"error": str(error)}), 404

    @app.errorhandler(SantoriniError)
    def refused(error: SantoriniError) -> tuple[Response, int]:
        return jsonify({"error": str(error)}), 422 if not isinstance(error, _BadRequest) else 400

    @app.errorhandler(RequestEntityTooLarge)
    def too_large(error: RequestEntityTooLarge) -> tuple[Response, int]:
        too_long = f"the request's body is over {MAX_BODY // 1024} KiB: the server does not read it"
        return jsonify({"error": too_long}), 413

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException) -> tuple[Response, int]:
        return jsonify({"error": error.description or error.name}), error.code or 500

    @app.errorhandler(Exception)
    def internal(error: Exception) -> tuple[Response, int]:
        _log.exception("the playground failed on %s %s", request.method, request.path)
        return jsonify({"error": "the server failed on this request (its log says why); the game is as it was"}), 500

    return app


class _BadRequest(WebError):
    """A request body that is not what the route reads."""


def _body() -> dict[str, Any]:
    """The request's JSON object."""
    body = request.get_json(silent=True)
    if not isinstance(body, dict):
        raise _BadRequest("the request's body must be a JSON object")
    return body


def _field(body: dict[str, Any], name: str, kind: type) -> Any:
    """A field of the body, of the kind the route reads."""
    value = body.get(name)
    if not isinstance(value, kind):
        raise _BadRequest(f"'{name}' must be {'a list' if kind is list else 'text'}")
    return value


def _integer(value: object, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise _BadRequest(f"'{name}' must be a whole number")
    return value


def _bad(message: str) -> list[Any]:
    raise _BadRequest(message)


def _pack_view(pack: Pack) -> Json:
    """A pack as the new-game form offers it: its cards (with the player counts each is for)."""
    cards: list[Json] = [{"name": MORTAL, "players": None, "summary": "No power: the base rules only."}]
    cards += [{"name": card.name, "players": list(card.players), "summary": card.summary}
              for card in sorted(pack.cards.values(), key=lambda card: card.name)]
    modes = [{"name": mode.name, "title": mode.title, "players": list(mode.players), "summary": mode.summary,
              "powers_per_seat": mode.powers_per_seat} for mode in pack.modes.values()]
    return {"name": pack.name, "title": pack.title, "cards": cards, "modes": modes,
            "default_modes": {str(count): name for count, name in sorted(pack.default_modes.items())}}


def serve(host: str = "127.0.0.1", port: int = 8000, announce: Callable[[str], None] = print,
          packs: Sequence[Path] = ()) -> None:
    """Serve the playground until interrupted (waitress, several threads: a slow request of
    one page never holds up another's), offering the shipped packs and the folders `packs`."""
    from waitress.server import TcpWSGIServer, create_server
    server = create_server(create_app(packs=packs), host=host, port=port, threads=8)
    where = f"{host}:{port}"
    if isinstance(server, TcpWSGIServer):  # (one address: the port it took, where asked for any)
        where = ":".join(server.getsockname())
    announce(f"the Santorini playground is at http://{where}/ (Ctrl-C stops it)")
    try:
        server.run()
    finally:
        server.close()


__all__ = ["MAX_BODY", "MOST_STEPS", "create_app", "serve"]

"""The playground server's API (web/app.py), through Flask's test client: what a page is sent,
the steps it is offered, refusals with their reasons, agents that play off the request path,
undo, and bad requests that get a status and a message, never a traceback.

Expectations are the rules' own, counted by hand on S0 (A on b3 and d3, B on c4 and c2): each of
A's workers has the six free squares around it (b3: a2 a3 a4 b2 b4 c3; d3: c3 d2 d4 e2 e3 e4),
c4 and c2 being B's.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from santorini.web import tables as tables_module
from santorini.web.app import MAX_BODY, MOST_STEPS, create_app
from santorini.web.tables import MOST_ITERATIONS, Table, Tables, start_thinking, think

S0 = ("place A1 b3; place A2 d3", "place B1 c4; place B2 c2")


@pytest.fixture
def client() -> FlaskClient:
    return create_app().test_client()


def new_game(client: FlaskClient, cards: tuple[str, ...] = ("Mortal", "Mortal"),
             players: tuple[str, ...] = ("person", "person"), seed: int = 1, pack: str = "bga") -> dict[str, Any]:
    response = client.post("/api/games", json={"pack": pack, "seed": seed,
                                               "seats": [{"cards": [card], "player": player}
                                                         for card, player in zip(cards, players, strict=True)]})
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def at_s0(client: FlaskClient, cards: tuple[str, ...] = ("Mortal", "Mortal")) -> str:
    """A game of two people with the workers placed as S0; its id."""
    game = new_game(client, cards)
    for placement in S0:
        assert client.post(f"/api/games/{game['id']}/play", json={"turn": placement}).status_code == 200
    return game["id"]


def offered(client: FlaskClient, game: str, steps: list[str]) -> dict[str, Any]:
    response = client.post(f"/api/games/{game}/options", json={"steps": steps})
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def test_the_packs_offer_their_cards_with_the_player_counts() -> None:
    packs = create_app().test_client().get("/api/packs").get_json()["packs"]
    by_name = {pack["name"]: pack for pack in packs}
    assert {"bga", "pantheon", "first-edition"} <= set(by_name)
    cards = {card["name"]: card for card in by_name["bga"]["cards"]}
    assert cards["Mortal"]["players"] is None
    assert cards["Apollo"]["players"] == [2, 3, 4]
    assert cards["Aphrodite"]["players"] == [2, 4]  # (BGA: not for three players)


def test_a_new_game_starts_with_the_person_placing(client: FlaskClient) -> None:
    game = new_game(client)
    assert game["in_setup"] and game["person_to_move"] and game["to_move"] == "A"
    assert game["place"] == ["A1", "A2"]
    assert len(game["free"]) == 25
    assert game["svg"].startswith("<svg") and game["told"] == []
    again = client.get(f"/api/games/{game['id']}").get_json()
    assert again["id"] == game["id"] and again["version"] == 0


def test_the_steps_offered_are_the_rules_own(client: FlaskClient) -> None:
    game = at_s0(client)
    first = offered(client, game, [])
    moves = {option["step"] for option in first["options"]}
    assert moves == {f"move A1 {s}" for s in ("a2", "a3", "a4", "b2", "b4", "c3")} | {
        f"move A2 {s}" for s in ("c3", "d2", "d4", "e2", "e3", "e4")}
    assert not first["complete"]
    option = next(o for o in first["options"] if o["step"] == "move A1 b4")
    assert option == {"step": "move A1 b4", "verb": "move", "worker": "A1", "square": "b4"}
    # after the move, A1 builds around b4: a3 a4 a5 b3 (left free) b5 c3 c5; c4 is B1's
    builds = offered(client, game, ["move A1 b4"])
    squares = ("a3", "a4", "a5", "b3", "b5", "c3", "c5")
    assert {o["step"] for o in builds["options"]} == {f"build A1 {s}" for s in squares}


def test_a_refused_step_says_why(client: FlaskClient) -> None:
    game = at_s0(client)
    far = client.post(f"/api/games/{game}/options", json={"steps": ["move A1 e5"]})
    assert far.status_code == 422 and "not next to A1" in far.get_json()["error"]
    taken = client.post(f"/api/games/{game}/options", json={"steps": ["move A1 c4"]})
    assert taken.status_code == 422 and "occupied by B1" in taken.get_json()["error"]
    turn = client.post(f"/api/games/{game}/play", json={"turn": "move A1 b4; build A1 d5"})
    assert turn.status_code == 422 and "build A1 d5" in turn.get_json()["error"]
    assert client.get(f"/api/games/{game}").get_json()["told"][-1]["seat"] == "B"  # (nothing played)


def test_a_turn_played_is_told_and_undone(client: FlaskClient) -> None:
    game = at_s0(client)
    played = client.post(f"/api/games/{game}/play", json={"turn": "move A1 b4; build A1 b5"}).get_json()
    assert played["told"][-1] == {"seat": "A", "text": "move A1 b4; build A1 b5", "said": []}
    assert played["to_move"] == "B"
    undone = client.post(f"/api/games/{game}/undo").get_json()
    assert [told["text"] for told in undone["told"]] == list(S0)
    assert undone["to_move"] == "A"
    assert "0:A1" in undone["position"] or "A1b3" in undone["position"]


def test_what_a_power_did_is_told_in_words(client: FlaskClient) -> None:
    """Apollo moving onto B1's square forces B1 to the square he left: told as a force."""
    game = at_s0(client, ("Apollo", "Mortal"))
    after = offered(client, game, ["move A1 c4"])
    assert after["said"] == ["B1 was forced from c4 to b3"]
    played = client.post(f"/api/games/{game}/play", json={"turn": "move A1 c4; build A1 c5"}).get_json()
    assert played["told"][-1]["said"] == ["B1 was forced from c4 to b3"]


def test_agents_play_their_seats_off_the_request_path(client: FlaskClient) -> None:
    game = new_game(client, players=("random", "random"), seed=4)
    table_id = game["id"]
    for _ in range(2000):
        game = client.get(f"/api/games/{table_id}").get_json()
        if not game["thinking"]:
            break
        threading.Event().wait(0.01)
    assert game["over"] and game["winner"] in ("A", "B")
    assert game["told"][0]["text"].startswith("place A1")
    again = new_game(client, players=("random", "random"), seed=4)
    while again["thinking"]:
        threading.Event().wait(0.01)
        again = client.get(f"/api/games/{again['id']}").get_json()
    assert again["told"] == game["told"]  # (the same seed, the same game)


def test_a_slow_agent_at_one_table_holds_up_no_other() -> None:
    """While an agent thinks at one table (its thinking held here until the other table's game
    is played on), another table is answered and played on."""
    tables = Tables()
    client = create_app(tables).test_client()
    release, asked = threading.Event(), threading.Event()

    class Slow:
        """A random player that thinks until it is released."""

        def placement(self, game: object, seat: int) -> list[int]:
            asked.set()
            assert release.wait(60)
            return [0, 1]

        def turn(self, game: object) -> None:  # pragma: no cover - the test ends before
            return None

    slow = tables.new("bga", [["Mortal"], ["Mortal"]], ["random", "person"], 1)
    slow.agents[0] = Slow()  # type: ignore[assignment]
    with slow.lock:
        start_thinking(slow)
    assert asked.wait(60)
    game = at_s0(client)
    for turn in ("move A1 b4; build A1 b5", "move B1 c5; build B1 c4"):
        assert client.post(f"/api/games/{game}/play", json={"turn": turn}).status_code == 200
    assert len(client.get(f"/api/games/{game}").get_json()["told"]) == 4
    view = client.get(f"/api/games/{slow.id}").get_json()
    assert view["thinking"] and view["told"] == []
    release.set()
    for _ in range(6000):
        view = client.get(f"/api/games/{slow.id}").get_json()
        if not view["thinking"]:
            break
        threading.Event().wait(0.01)
    assert view["told"][0]["text"] == "place A1 a1; place A2 b1" and view["person_to_move"]


def test_an_agent_whose_game_changed_while_it_thought_thinks_again() -> None:
    """An undo while an agent thinks: its choice, made on the older game, is not played."""
    tables = Tables()
    client = create_app(tables).test_client()
    game = at_s0(client)
    table = tables.get(game)
    client.post(f"/api/games/{game}/play", json={"turn": "move A1 b4; build A1 b5"})
    table.players[1] = "random"
    seen: list[int] = []

    class Undone:
        """An agent that takes back the person's turn while it thinks (as a page's undo would)."""

        def turn(self, game: object) -> None:
            if not seen:
                seen.append(table.version)
                table.undo()
            return None

        def placement(self, game: object, seat: int) -> list[int]:  # pragma: no cover - not asked
            raise AssertionError

    table.agents[1] = Undone()  # type: ignore[assignment]
    table.thinking = True
    think(table)
    assert seen and table.failure is None and table.person_to_move()
    assert [told.text for told in table.told] == list(S0)


@pytest.mark.parametrize(("body", "status", "says"), [
    ({"seats": [{"cards": ["Zeuss"]}, {"cards": ["Mortal"]}]}, 422, "did you mean 'Zeus'"),
    ({"seats": [{"cards": ["Mortal"]}]}, 400, "2 to 8 seats"),
    ({"seats": "Mortal"}, 400, "'seats' must be a list"),
    ({"seats": [{"cards": ["Mortal"], "player": "external:ls"}, {"cards": ["Mortal"]}]}, 422, "not 'external:ls'"),
    ({"seats": [{"cards": ["Mortal"], "player": f"mcts:{MOST_ITERATIONS + 1}"}, {"cards": ["Mortal"]}]}, 422,
     f"at most mcts:{MOST_ITERATIONS}"),
    ({"seats": [{"cards": ["Mortal"]}, {"cards": ["Mortal"]}], "pack": "nope"}, 422, "no pack 'nope' here"),
    ({"seats": [{"cards": ["Mortal"]}, {"cards": ["Mortal"]}], "seed": "x"}, 400, "'seed' must be a whole number"),
])
def test_a_bad_new_game_says_what_is_wrong(client: FlaskClient, body: dict[str, Any], status: int, says: str) -> None:
    response = client.post("/api/games", json=body)
    assert response.status_code == status
    assert says in response.get_json()["error"]


def test_bad_requests_get_a_status_and_a_message_never_a_traceback(client: FlaskClient) -> None:
    game, fresh = at_s0(client), new_game(client)["id"]
    answers = [
        (client.post("/api/games", data="{", content_type="application/json"), 400),
        (client.post("/api/games", data="x" * (MAX_BODY + 1), content_type="application/json"), 413),
        (client.get("/api/games/nope"), 404),
        (client.post(f"/api/games/{game}/options", json={"steps": ["fly A1 c3"]}), 422),
        (client.post(f"/api/games/{game}/options", json={"steps": ["move A1 b4"] * (MOST_STEPS + 1)}), 422),
        (client.post(f"/api/games/{game}/play", json={"turn": 7}), 400),
        (client.post(f"/api/games/{game}/play", json={"turn": "move A9 c3"}), 422),
        (client.post(f"/api/games/{fresh}/undo"), 422),
        (client.get("/api/nothing"), 404),
    ]
    for response, status in answers:
        assert response.status_code == status, response.get_json()
        error = response.get_json()["error"]
        assert error and "Traceback" not in error and 'File "' not in error


def test_a_fault_of_the_server_is_an_internal_error_without_its_traceback(monkeypatch: pytest.MonkeyPatch) -> None:
    client = create_app().test_client()
    game = at_s0(client)

    def broken(self: Table, written: list[str]) -> None:
        raise KeyError("a fault of the server's own")
    monkeypatch.setattr(Table, "options", broken)
    response = client.post(f"/api/games/{game}/options", json={"steps": []})
    assert response.status_code == 500
    assert "KeyError" not in response.get_json()["error"] and "server failed" in response.get_json()["error"]


def test_a_person_may_not_play_an_agent_s_seat(client: FlaskClient, monkeypatch: pytest.MonkeyPatch) -> None:
    # (the agent's thread is held until the request is answered: else it may have played already)
    release = threading.Event()
    monkeypatch.setattr(tables_module, "think", lambda table: release.wait(5))
    game = new_game(client, players=("random", "person"), seed=2)
    response = client.post(f"/api/games/{game['id']}/play", json={"turn": "place A1 b3; place A2 d3"})
    release.set()
    assert response.status_code == 422 and "not a person's turn" in response.get_json()["error"]


def test_the_tables_keep_the_latest_games() -> None:
    tables = Tables(most=2)
    client = create_app(tables).test_client()
    first, second, third = (new_game(client)["id"] for _ in range(3))
    assert client.get(f"/api/games/{first}").status_code == 404
    assert client.get(f"/api/games/{second}").status_code == 200
    assert client.get(f"/api/games/{third}").status_code == 200


def test_serve_prints_its_address_and_answers_there() -> None:
    """`santorini serve --port 0` listens on this machine only, on a free port it prints."""
    import subprocess
    import sys
    import urllib.request
    process = subprocess.Popen([sys.executable, "-m", "santorini", "serve", "--port", "0"],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        address = line.split(" is at ")[1].split()[0]
        assert address.startswith("http://127.0.0.1:")
        with urllib.request.urlopen(f"{address}api/packs", timeout=30) as answer:
            assert answer.status == 200 and b'"bga"' in answer.read()
        with urllib.request.urlopen(address, timeout=30) as answer:
            assert b"Santorini playground" in answer.read()
    finally:
        process.terminate()
        process.wait(30)


def test_serve_on_a_port_taken_says_so() -> None:
    import socket
    import subprocess
    import sys
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run([sys.executable, "-m", "santorini", "serve", "--port", str(port)],
                              capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert f"cannot listen on 127.0.0.1:{port}" in done.stderr and "Traceback" not in done.stderr


#: A record of three turns, made by hand from S0: A1 to b4 building b5, B1 to c5 building on c4
#: (the square it left), A2 to d4 building d5.
RECORD = """pack: bga
players: [Mortal, Mortal]
placements:
- place A1 b3; place A2 d3
- place B1 c4; place B2 c2
turns:
- move A1 b4; build A1 b5
- move B1 c5; build B1 c4
- move A2 d4; build A2 d5
"""


def test_a_record_is_watched_turn_by_turn(client: FlaskClient) -> None:
    shown = client.post("/api/watch", json={"text": RECORD}).get_json()
    assert shown["kind"] == "record"
    assert [frame["caption"] for frame in shown["frames"]] == [
        "after the setup", "turn 1: A: move A1 b4; build A1 b5", "turn 2: B: move B1 c5; build B1 c4",
        "turn 3: A: move A2 d4; build A2 d5"]
    first, last = shown["frames"][0]["svg"], shown["frames"][-1]["svg"]
    assert 'class="worker A1 team-A b3"' in first and 'class="worker A1 team-A b4"' in last
    assert 'class="square c4 level-1"' in last and 'class="square c4 level-0"' in first


def test_a_position_string_and_a_scenario_are_watched_as_one_picture(client: FlaskClient) -> None:
    text = "bga/standard Apollo,Athena 00000/00000/00000/00000/00000 A1b3,A2d3,B1c4,B2c2 A"
    shown = client.post("/api/watch", json={"text": text}).get_json()
    assert shown["kind"] == "position" and len(shown["frames"]) == 1
    assert 'class="worker B1 team-B c4"' in shown["frames"][0]["svg"]
    scenario = (Path(__file__).parent / "scenarios" / "bga" / "athena-blocks-up.yaml").read_text(encoding="utf-8")
    shown = client.post("/api/watch", json={"text": scenario}).get_json()
    assert shown["kind"] == "scenario" and len(shown["frames"]) == 1


@pytest.mark.parametrize(("text", "says"), [
    (RECORD.replace("move B1 c5; build B1 c4", "move B1 c5; build B1 e5"), "pasted text:8:3: turn 2"),
    (RECORD.replace("players: [Mortal, Mortal]", "players: [Mortal, Zeuss]"), "pasted text:2:10:"),
    (RECORD.replace("pack: bga", "pack: /tmp/my-pack"), "shipped packs"),
    ("turns: [\n", "pasted text:1:9:"),
    ("hello world", "neither a game record"),
    ("  ", "paste a game record"),
])
def test_a_text_that_cannot_be_watched_says_where(client: FlaskClient, text: str, says: str) -> None:
    response = client.post("/api/watch", json={"text": text})
    assert response.status_code == 422
    assert says in response.get_json()["error"]


# ---- authoring: a card written in the page

def card_text(client: FlaskClient) -> str:
    return client.get("/api/cards/template").get_json()["text"]


#: A scenario of the template's god (Ergane: the worker may build a second time, not on the same
#: space), by hand: A1 moves b3 -> b4 and builds b5; a second build may go on a5 (next to b4), not
#: on b5 again, and the turn may end after one build.
ERGANE_SCENARIO = """name: Ergane builds twice, not on the same space
edition: bga
players: [Ergane, Mortal]
board: |
  0 0 0 0 0
  0 0 0 0 0
  0 0 0 0 0
  0 0 0 0 0
  0 0 0 0 0
workers: {A1: b3, A2: d3, B1: c4, B2: c2}
expect:
  legal:
    - "move A1 b4; build A1 b5; build A1 a5"
    - "move A1 b4; build A1 b5"
  illegal:
    - "move A1 b4; build A1 b5; build A1 b5"
"""


def test_the_template_card_checks_clean_and_a_typo_is_found_at_its_place(client: FlaskClient) -> None:
    text = card_text(client)
    assert client.post("/api/cards/check", json={"text": text, "pack": "bga"}).get_json() == {
        "name": "Ergane", "faults": []}
    typo = client.post("/api/cards/check", json={"text": text.replace("it may build", "it mya build")}).get_json()
    line = text.splitlines().index(next(line for line in text.splitlines() if "it may build" in line)) + 1
    assert [(f["line"], f["column"]) for f in typo["faults"]] == [(line, text.splitlines()[line - 1].index("may") + 1)]
    assert "did you mean 'may'" in typo["faults"][0]["message"]
    broken = client.post("/api/cards/check", json={"text": text.replace("[2, 3, 4]", "[2, 3, 4")}).get_json()
    assert broken["faults"] and broken["faults"][0]["line"] == 6
    empty = client.post("/api/cards/check", json={"text": ""}).get_json()
    assert empty["name"] is None and empty["faults"][0]["line"] == 1


def test_a_card_written_is_played_at_once(client: FlaskClient) -> None:
    made = client.post("/api/cards", json={"text": card_text(client), "pack": "bga"})
    assert made.status_code == 201
    pack, card = made.get_json()["pack"], made.get_json()["card"]
    assert card == "Ergane" and pack.startswith("author-")
    game = client.post("/api/games", json={"pack": pack, "seats": [{"cards": ["Ergane"], "player": "person"},
                                                                    {"cards": ["Athena"], "player": "person"}]})
    assert game.status_code == 201 and game.get_json()["pack"] == pack
    table = game.get_json()["id"]
    for placement in S0:
        client.post(f"/api/games/{table}/play", json={"turn": placement})
    second = offered(client, table, ["move A1 b4", "build A1 b5"])
    assert second["complete"]  # (the second build is a 'may')
    assert {o["step"] for o in second["options"]} == {f"build A1 {s}" for s in ("a3", "a4", "a5", "b3", "c3", "c5")}


def test_a_card_with_faults_is_not_played(client: FlaskClient) -> None:
    made = client.post("/api/cards", json={"text": card_text(client).replace("it may build", "it mya build")})
    assert made.status_code == 422 and "line 11, column 34" in made.get_json()["error"]
    game = client.post("/api/games", json={"pack": "author-0", "seats": [{"cards": ["Mortal"]}, {"cards": ["Mortal"]}]})
    assert game.status_code == 422 and "no pack 'author-0' here" in game.get_json()["error"]
    folder = client.post("/api/games", json={"pack": "/tmp", "seats": [{"cards": ["Mortal"]}, {"cards": ["Mortal"]}]})
    assert folder.status_code == 422  # (a page never names a folder of the server's machine)


def test_a_pasted_scenario_runs_under_the_card_being_written(client: FlaskClient) -> None:
    pack = client.post("/api/cards", json={"text": card_text(client)}).get_json()["pack"]
    run = client.post("/api/scenarios/run", json={"text": ERGANE_SCENARIO, "pack": pack}).get_json()
    assert run == {"passed": True, "failures": []}
    wrong = ERGANE_SCENARIO.replace("build A1 b5; build A1 b5", "build A1 b5; build A1 a5")
    failed = client.post("/api/scenarios/run", json={"text": wrong, "pack": pack}).get_json()
    assert not failed["passed"] and any("move A1 b4; build A1 b5; build A1 a5" in f for f in failed["failures"])
    shipped = client.post("/api/scenarios/run", json={"text": ERGANE_SCENARIO, "pack": "bga"})
    assert shipped.status_code == 422 and "no card 'Ergane'" in shipped.get_json()["error"]
    unreadable = client.post("/api/scenarios/run", json={"text": ERGANE_SCENARIO.replace("workers: {", "workers: ["),
                                                        "pack": pack})
    assert unreadable.status_code == 422 and unreadable.get_json()["error"].startswith("scenario.yaml:")


# ---- balance at a glance

def finished_run(client: FlaskClient, run: dict[str, Any]) -> dict[str, Any]:
    for _ in range(3000):
        if run["state"] != "running":
            return run
        threading.Event().wait(0.05)
        run = client.get(f"/api/balance/{run['id']}").get_json()
    raise AssertionError("the balance run did not end")


def test_a_small_balance_run_of_a_written_card_reports(client: FlaskClient) -> None:
    """The template's god against Mortal, one game per seat order: two games, then a report whose
    table names both cards and whose plots are served beside it."""
    pack = client.post("/api/cards", json={"text": card_text(client)}).get_json()["pack"]
    started = client.post("/api/balance", json={"pack": pack, "card": "Ergane", "against": ["Mortal"], "games": 1,
                                                "agent": "random"})
    assert started.status_code == 201
    run = started.get_json()
    assert run["total"] == 2 and run["card"] == "Ergane"
    run = finished_run(client, run)
    assert run["state"] == "done" and run["played"] == 2, run
    page = client.get(f"/api/balance/{run['id']}/files/{run['report']}")
    assert page.status_code == 200 and b"Balance report" in page.data and b"Ergane" in page.data
    pictures = [name for name in page.data.decode().split('"') if name.endswith(".png")]
    for name in pictures:
        assert client.get(f"/api/balance/{run['id']}/files/{name}").status_code == 200
    assert client.get(f"/api/balance/{run['id']}/files/results.sqlite").status_code == 404
    assert client.get(f"/api/balance/{run['id']}/files/run.log").status_code == 404


@pytest.mark.parametrize(("body", "says"), [
    ({"card": "Zeuss"}, "did you mean 'Zeus'"),
    ({"card": "Apollo", "games": 21}, "1 to 20 games"),
    ({"card": "Apollo", "agent": "mcts:5000"}, "up to mcts:100"),
    ({"card": "Apollo", "agent": "external:ls"}, "not 'external:ls'"),
    ({"card": "Apollo", "against": ["Nobody"]}, "no card 'Nobody'"),
    ({"card": "Apollo", "pack": "/tmp"}, "no pack '/tmp' here"),
])
def test_a_balance_run_the_page_may_not_start_says_why(client: FlaskClient, body: dict[str, Any], says: str) -> None:
    response = client.post("/api/balance", json=body)
    assert response.status_code == 422 and says in response.get_json()["error"]
    assert client.get("/api/balance/nothing").status_code == 404


# ---- an author's own pack, offered by `santorini serve --pack DIR`

INVENTIONS = Path(__file__).parent / "invented" / "inventions"


def test_a_pack_the_server_is_started_with_is_offered_and_played() -> None:
    client = create_app(packs=[INVENTIONS]).test_client()
    packs = {pack["name"]: pack for pack in client.get("/api/packs").get_json()["packs"]}
    assert "inventions" in packs and "Dimera" in {card["name"] for card in packs["inventions"]["cards"]}
    game = new_game(client, ("Dimera", "Mortal"), pack="inventions")
    assert game["pack"] == "inventions" and game["seats"][0]["cards"] == ["Dimera"]
    record = RECORD.replace("pack: bga", f"pack: {INVENTIONS}").replace("[Mortal, Mortal]", "[Dimera, Mortal]")
    record = record.replace("move A2 d4; build A2 d5", "move A2 d4; build A2 d5; build A1 a4")
    shown = client.post("/api/watch", json={"text": record})
    assert shown.status_code == 200, shown.get_json()
    assert shown.get_json()["frames"][-1]["caption"] == "turn 3: A: move A2 d4; build A2 d5; build A1 a4"
    other = create_app().test_client().post("/api/watch", json={"text": record})
    assert other.status_code == 422 and "packs it was started with" in other.get_json()["error"]


def test_serve_with_a_pack_that_has_faults_says_them(tmp_path: Path) -> None:
    import subprocess
    import sys
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "pack.yaml").write_text("name: mine\n", encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "santorini", "serve", "--port", "0", "--pack", str(folder)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "pack.yaml:1:1: missing required key 'language'" in done.stderr and "Traceback" not in done.stderr


def test_a_game_is_started_in_the_mode_asked_for(client: FlaskClient) -> None:
    bga = next(pack for pack in client.get("/api/packs").get_json()["packs"] if pack["name"] == "bga")
    assert bga["default_modes"] == {"2": "standard", "3": "three-players", "4": "four-players"}
    assert {mode["name"]: mode["players"] for mode in bga["modes"]}["no-powers"] == [2]
    seats = [{"cards": ["Mortal"]}, {"cards": ["Mortal"]}]
    assert client.post("/api/games", json={"seats": seats, "mode": "no-powers"}).get_json()["mode"] == "no-powers"
    powered = client.post("/api/games", json={"seats": [{"cards": ["Apollo"]}, {"cards": ["Mortal"]}],
                                              "mode": "no-powers"})
    assert powered.status_code == 422 and "gives each seat 0 power(s)" in powered.get_json()["error"]
    unknown = client.post("/api/games", json={"seats": seats, "mode": "nope"})
    assert unknown.status_code == 422 and "has no mode 'nope'" in unknown.get_json()["error"]


def test_an_agent_that_fails_stops_its_game_and_says_so() -> None:
    """A fault inside an agent (not a rules error) stops that table's game with a message; the
    page is told, and the server goes on."""
    tables = Tables()
    client = create_app(tables).test_client()
    table = tables.new("bga", [["Mortal"], ["Mortal"]], ["random", "person"], 1)

    class Broken:
        def placement(self, game: object, seat: int) -> list[int]:
            raise ZeroDivisionError("a fault of the agent's own")

        def turn(self, game: object) -> None:  # pragma: no cover - never asked
            return None

    table.agents[0] = Broken()  # type: ignore[assignment]
    table.thinking = True
    think(table)
    view = client.get(f"/api/games/{table.id}").get_json()
    assert not view["thinking"] and view["failure"] == "the agent failed (the server's log says why)"
    assert "ZeroDivisionError" not in str(view)
    assert client.get("/api/packs").status_code == 200


def test_a_game_played_is_saved_as_a_record_that_watch_reads(client: FlaskClient) -> None:
    game = at_s0(client)
    client.post(f"/api/games/{game}/play", json={"turn": "move A1 b4; build A1 b5"})
    text = client.get(f"/api/games/{game}/record").get_json()["text"]
    assert "turns:\n- move A1 b4; build A1 b5\n" in text and "seed: 1\n" in text
    shown = client.post("/api/watch", json={"text": text}).get_json()
    assert [frame["caption"] for frame in shown["frames"]] == ["after the setup", "turn 1: A: move A1 b4; build A1 b5"]


def _settled(client: FlaskClient, table_id: str) -> dict[str, Any]:
    """The game once no agent is thinking."""
    for _ in range(3000):
        game = client.get(f"/api/games/{table_id}").get_json()
        if not game["thinking"]:
            return game
        threading.Event().wait(0.01)
    raise AssertionError("the agent did not finish")


def test_a_secret_token_is_never_sent_to_the_other_seat_s_page(client: FlaskClient) -> None:
    """Tartarus (an agent) places its Abyss in secret; the page of the person playing B is never
    sent it: not in the board, the position, what is told, the steps offered or the record. The
    game itself has it (checked on the server's table)."""
    tables = Tables()
    client = create_app(tables).test_client()
    game = new_game(client, ("Tartarus", "Mortal"), ("random", "person"), seed=3)
    game = _settled(client, game["id"])
    assert game["person_to_move"] and game["place"] == ["B1", "B2"]
    free = game["free"]
    placed = client.post(f"/api/games/{game['id']}/play",
                         json={"turn": f"place B1 {free[0]}; place B2 {free[-1]}"}).get_json()
    game = _settled(client, placed["id"])
    table = tables.get(game["id"])
    assert any(kind == "abyss" for kind, _ in table.game.state.tokens.values())  # (the game has it)
    sent = [client.get(f"/api/games/{game['id']}").get_data(as_text=True),
            client.post(f"/api/games/{game['id']}/options", json={"steps": []}).get_data(as_text=True),
            client.get(f"/api/games/{game['id']}/record").get_data(as_text=True)]
    assert game["person_to_move"] and not game["in_setup"]
    assert "a secret placement" in [told["text"] for told in game["told"]]
    for body in sent:
        assert "abyss" not in body.lower()


def test_the_holder_of_a_secret_token_places_it_from_its_page(client: FlaskClient) -> None:
    """Tartarus played by a person: after every worker, its page is asked for the token ('token
    abyss'), places it with a turn as the page's clicks write it, and is sent it back; a page that
    people of both seats share is not (B must not see it)."""
    game = new_game(client, ("Tartarus", "Mortal"), ("person", "random"), seed=3)
    game = client.post(f"/api/games/{game['id']}/play", json={"turn": "place A1 a1; place A2 e5"}).get_json()
    game = _settled(client, game["id"])
    assert game["in_setup"] and game["person_to_move"] and game["place"] == ["token abyss"]
    square = next(s for s in game["free"] if s not in ("a1", "e5"))
    game = client.post(f"/api/games/{game['id']}/play", json={"turn": f"token abyss {square}"}).get_json()
    assert not game["in_setup"] and f"tokens={square}:abyss" in game["position"]
    assert game["told"][-1]["text"] == f"token abyss {square}"
    shared = new_game(client, ("Tartarus", "Mortal"), ("person", "person"), seed=3)
    for placement in ("place A1 a1; place A2 e5", "place B1 c3; place B2 b2", "token abyss d4"):
        shared = client.post(f"/api/games/{shared['id']}/play", json={"turn": placement}).get_json()
    assert "abyss" not in shared["position"] and shared["told"][-1]["text"] == "a secret placement"


def test_a_token_pointed_is_offered_as_a_button_not_a_square() -> None:
    """Aeolus's `point wind east`: its target is a direction (east is 3), not the square d1."""
    from santorini.api import Game
    from santorini.web.views import options_view
    state = Game(["Aeolus", "Mortal"]).state
    (option,) = options_view([("point", "wind", 3)], True, state, [])["options"]
    assert option == {"step": "point wind east", "verb": "point", "worker": None, "square": None}

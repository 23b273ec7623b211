"""Four-player team games: each pack's 4-player mode pairs the players across the table (A with C,
B with D); teammates share their workers, each plays by their own power, an opponent's power binds
both seats of the other team, and a team wins or loses as one. Who places and who moves first
follow each edition's text. Whole seeded games keep the invariants after every step, for every
card that allows four players."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner
from test_conformance import play_each_card

from santorini.interpreter.cli.cli import main
from santorini.interpreter.engine.engine import IllegalTurn
from santorini.interpreter.games.game import (
    Game,
    SetupError,
    end_of_setup,
    new_game,
    parse_players,
    placing_seats,
    settle_stuck,
)
from santorini.interpreter.games.packs import MORTAL, load_pack, resolve_pack
from santorini.interpreter.games.scenario import load_scenario
from santorini.interpreter.model.notation import parse_turn
from support import PACKS, REPO

GODS = ["Apollo", "Athena", "Pan", "Demeter"]


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def position(tmp_path: Path, pack: str, players: list, to_move: str, board: str, workers: dict,
             history: list[str] | None = None) -> Game:
    data = {"name": "a four-player position", "edition": pack, "players": players, "to_move": to_move,
            "board": board, "workers": workers, "history": history or []}
    path = tmp_path / "position.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    return load_scenario(path).game


def letters(game: Game, seats: list[int]) -> list[str]:
    return [game.state.seats[s].letter for s in seats]


# ---- the modes
@pytest.mark.parametrize(("pack", "placers", "first"), [("bga", ["A", "B"], "C"), ("pantheon", ["C", "D"], "A"),
                                                        ("first-edition", ["A", "B"], "A")])
def test_each_pack_pairs_players_across_the_table(pack: str, placers: list[str], first: str) -> None:
    """BGA: 'the first player on each team places the workers and the second player of each team
    takes the first turn'. Pantheon: 'The start player's partner places their team's workers
    first, then the next player in clockwise order ... The start player takes the first turn.'"""
    game = new_game(load_pack(pack), parse_players(GODS))
    assert game.mode.name == "four-players" and load_pack(pack).mode(None, 4).name == "four-players"
    assert [s.team for s in game.state.seats] == [0, 1, 0, 1]
    assert game.state.team_letters == ["A", "B"]
    assert letters(game, placing_seats(game)) == placers
    rng = random.Random(1)
    for seat in placing_seats(game):
        squares = rng.sample([s for s in range(25) if not game.state.blocked[s]], 2)
        from santorini.interpreter.games.game import place_workers
        place_workers(game, seat, squares)
    end_of_setup(game)
    assert game.state.seats[game.state.to_move].letter == first
    assert sorted(game.state.worker_names) == ["A1", "A2", "B1", "B2"]  # two workers per team, shared
    order = [first]
    state = game.state
    seat = state.to_move
    for _ in range(3):
        seat = state.next_seat(seat)
        order.append(state.seats[seat].letter)
    assert order == {"A": ["A", "B", "C", "D"], "C": ["C", "D", "A", "B"]}[first]  # clockwise from the first


def test_written_teams_must_agree_with_the_mode() -> None:
    pack = load_pack("pantheon")
    agreeing = [{"god": "Apollo", "team": "X"}, {"god": "Pan", "team": "Y"}, {"god": "Athena", "team": "X"},
                {"god": "Atlas", "team": "Y"}]
    game = new_game(pack, parse_players(agreeing))
    assert game.state.team_letters == ["A", "B"] and [s.team for s in game.state.seats] == [0, 1, 0, 1]
    beside = [{"god": g, "team": t} for g, t in zip(GODS, "AABB", strict=True)]
    with pytest.raises(SetupError, match=r"pairs players across the table: A with C, B with D; "
                                         r"the players' teams say A with B, C with D"):
        new_game(pack, parse_players(beside))


def test_bga_requires_a_power_for_every_seat_with_four_players() -> None:
    with pytest.raises(SetupError, match=r"requires a power for every seat; seat D \(Mortal\) has none"):
        new_game(load_pack("bga"), parse_players(["Apollo", "Athena", "Pan", MORTAL]))
    for pack in ("pantheon", "first-edition"):
        new_game(load_pack(pack), parse_players([MORTAL] * 4))


def test_a_card_for_two_or_three_players_is_refused_in_a_four_player_game() -> None:
    pack = load_pack("bga")
    refused = [name for name, card in pack.cards.items() if 4 not in card.players]
    assert refused
    for name in refused:
        with pytest.raises(SetupError, match=f"{name} is for"):
            new_game(pack, parse_players([name, "Apollo", "Pan", "Atlas"]))


def test_an_authors_mode_may_pair_players_beside_each_other(tmp_path: Path) -> None:
    folder = tmp_path / "beside"
    (folder / "modes").mkdir(parents=True)
    pack = (REPO / "powers" / "pantheon" / "pack.yaml").read_text(encoding="utf-8")
    (folder / "pack.yaml").write_text(pack.replace("name: pantheon", "name: beside\nextends: pantheon")
                                      .replace("4: four-players", "4: beside"), encoding="utf-8")
    (folder / "modes" / "beside.yaml").write_text(
        "name: beside\ntitle: Beside\nplayers: [4, 6]\nsummary: Partners beside each other.\npowers_per_seat: 1\n"
        "rules: |\n  Setup:\n    players beside each other are teammates.\n"
        "    the second player of each team places 2 workers.\n"
        "    the second player of each team takes the first turn.\n", encoding="utf-8")
    loaded = resolve_pack(str(folder))
    game = new_game(loaded, parse_players(GODS))
    assert [s.team for s in game.state.seats] == [0, 0, 1, 1]
    assert letters(game, placing_seats(game)) == ["B", "D"]
    six = new_game(loaded, parse_players([MORTAL] * 6), "beside")
    assert six.state.team_letters == ["A", "C", "E"]
    assert letters(six, placing_seats(six)) == ["B", "D", "F"]
    with pytest.raises(SetupError, match="is for 4, 6 players, not 5"):
        new_game(loaded, parse_players([MORTAL] * 5), "beside")


# ---- shared workers, own powers, opponents' powers
#: Team A (A1 a1, A2 e1) and team B (B1 a5, B2 e5) in the corners; c3 is level 1, c2 level 2 and
#: a3 level 3. Rows 5 to 1.
BOARD = "0 0 0 0 0\n0 0 0 0 0\n3 0 1 0 0\n0 0 2 0 0\n0 0 0 0 0\n"
CORNERS = {"A1": "b1", "A2": "d1", "B1": "b5", "B2": "d5"}


def legal(game: Game, text: str) -> bool:
    try:
        game.engine.play(game.state, parse_turn(game.state, text))
    except IllegalTurn:
        return False
    return True


def test_teammates_share_their_workers_and_each_plays_by_their_own_power(tmp_path: Path) -> None:
    """A (Artemis) and C (Mortal) are team A. On C's turn either of the team's workers may move, a
    worker of team B may not, and Artemis's second move is A's only."""
    players = ["Artemis", MORTAL, MORTAL, MORTAL]
    c_turn = position(tmp_path, "pantheon", players, "C", BOARD, CORNERS)
    assert legal(c_turn, "move A1 a2; build A1 a1") and legal(c_turn, "move A2 e2; build A2 e1")
    assert not legal(c_turn, "move B1 a4; build B1 a5")
    assert not legal(c_turn, "move A1 a2; move A1 a3; build A1 a4")  # Artemis is A's, not C's
    a_turn = position(tmp_path, "pantheon", players, "A", BOARD, CORNERS)
    assert legal(a_turn, "move A1 a1; move A1 a2; build A1 b2")
    assert not legal(a_turn, "move B1 a4; build B1 a5")


def test_an_opponents_power_binds_both_opponents_and_not_the_teammate(tmp_path: Path) -> None:
    """Athena (A) moved up on her last turn: B and D (her opponents) cannot move up until her next
    turn; C (her teammate) can."""
    workers = {"A1": "c3", "A2": "d2", "B1": "b2", "B2": "e4"}
    players = ["Athena", MORTAL, MORTAL, MORTAL]
    history = ["move A1 c2; build A1 c1"]  # A1 up from c3 (level 1) to c2 (level 2); c1 becomes level 1
    b_turn = position(tmp_path, "pantheon", players, "A", BOARD, workers, history)
    assert b_turn.state.seats[b_turn.state.to_move].letter == "B"
    assert not legal(b_turn, "move B1 c1; build B1 b1")  # up to level 1: forbidden
    assert legal(b_turn, "move B1 b1; build B1 a1")
    b_played = [*history, "move B2 d4; build B2 d3"]  # d3 becomes level 1
    c_turn = position(tmp_path, "pantheon", players, "A", BOARD, workers, b_played)
    assert c_turn.state.seats[c_turn.state.to_move].letter == "C"
    assert legal(c_turn, "move A2 d3; build A2 d2")  # Athena's teammate moves up: not bound
    d_turn = position(tmp_path, "pantheon", players, "A", BOARD, workers, [*b_played, "move A2 e2; build A2 e1"])
    assert d_turn.state.seats[d_turn.state.to_move].letter == "D"
    assert not legal(d_turn, "move B1 c1; build B1 b1")  # still Athena's last turn: forbidden
    assert legal(d_turn, "move B1 a2; build B1 a1")


# ---- winning and losing together
def test_a_teammates_win_is_the_teams(tmp_path: Path) -> None:
    """C moves team A's worker up to level 3: team A (seats A and C) wins."""
    workers = {"A1": "b3", "A2": "e1", "B1": "b5", "B2": "d5"}
    board = "0 0 0 0 0\n0 0 0 0 0\n3 2 1 0 0\n0 0 2 0 0\n0 0 0 0 0\n"  # a3 level 3, b3 level 2
    game = position(tmp_path, "first-edition", [MORTAL] * 4, "C", board, workers)
    after = game.engine.play(game.state, parse_turn(game.state, "move A1 a3"))
    assert after.winner == 0 and after.team_letters[after.winner] == "A"
    assert {after.seats[s].letter for s in range(4) if after.seats[s].team == after.winner} == {"A", "C"}


def test_a_stuck_seat_makes_its_team_lose(tmp_path: Path) -> None:
    """D is to move and every worker of team B is walled in by domes: team B loses (B with it),
    and team A wins; the board is left as it is."""
    board = "0 3D 0 3D 0\n3D 3D 0 3D 3D\n0 0 0 0 0\n0 0 0 0 0\n0 0 0 0 0\n"
    workers = {"A1": "c1", "A2": "e1", "B1": "a5", "B2": "e5"}
    game = position(tmp_path, "pantheon", ["Apollo", "Atlas", "Pan", "Demeter"], "D", board, workers)
    assert not game.engine.has_turn(game.state)
    assert settle_stuck(game) == "seat D (team B) cannot complete a turn and loses"
    assert game.state.winner == 0 and game.state.out == {1, 3}
    assert sorted(p for p in game.state.worker_pos if p >= 0) == sorted(game.state.worker_pos)  # nothing lifted


# ---- whole games
def four_player_cards(pack: str) -> list[str]:
    return sorted(name for name, card in load_pack(pack).cards.items() if 4 in card.players)


@pytest.mark.parametrize("pack", PACKS)
def test_random_four_player_games_for_every_card_that_allows_four(pack: str) -> None:
    """Every card of the pack that allows four players sits in a seeded team game with three
    others drawn at random: every step keeps the invariants, every game ends with a team's win,
    and Engine.playout plays the same game."""
    assert play_each_card(pack, 4) == len(four_player_cards(pack))


def test_the_same_seed_gives_the_same_four_player_game() -> None:
    outputs = {run("play", "--gods", *GODS, "--seed", "11").output for _ in range(2)}
    assert len(outputs) == 1


# ---- the command line and records
def test_play_four_players_prints_the_teams_and_the_winning_team(tmp_path: Path) -> None:
    record = tmp_path / "game.yaml"
    result = run("play", "--players", "4", "--gods", *GODS, "--seed", "5", "--record", str(record))
    assert result.exit_code == 0, result.output
    lines = result.output.strip().splitlines()
    assert lines[0] == ("pack bga, mode four-players, seed 5; A: Apollo, B: Athena, C: Pan, D: Demeter; "
                        "teams A (A, C), B (B, D)")
    assert [line.split(":")[0] for line in lines if line.startswith("setup ")] == ["setup A", "setup B"]
    turns = [line.split()[2] for line in lines if line.startswith("turn ")]
    assert turns[:4] == ["C:", "D:", "A:", "B:"]  # BGA: the second player of each team moves first
    winner = next(line for line in lines if line.startswith("winner: "))
    assert winner.startswith(("winner: team A (A, C)", "winner: team B (B, D)"))
    data = yaml.safe_load(record.read_text(encoding="utf-8"))
    assert data["mode"] == "four-players" and len(data["placements"]) == 2
    assert data["placements"][1].startswith("place B1 ")
    replayed = run("replay", str(record))
    assert replayed.exit_code == 0, replayed.output


def test_play_four_players_in_pantheon_places_from_the_start_players_partner() -> None:
    result = run("play", "--pack", "pantheon", "--gods", MORTAL, "Apollo", "Pan", "Atlas", "--seed", "2")
    assert result.exit_code == 0, result.output
    lines = result.output.strip().splitlines()
    setups = [line for line in lines if line.startswith("setup ")]
    assert [line.split(":")[0] for line in setups] == ["setup C", "setup D"]
    assert setups[0].startswith("setup C: place A1 ") and setups[1].startswith("setup D: place B1 ")
    assert [line.split()[2] for line in lines if line.startswith("turn ")][:2] == ["A:", "B:"]


@pytest.mark.parametrize(("args", "message"), [
    (["--players", "4", "--gods", *GODS[:3]], "--players 4, but --gods names 3 seats"),
    (["--gods", *GODS[:3], "Mortal"], "requires a power for every seat; seat D (Mortal) has none"),
    (["--gods", "Apollo", "Athena", "Pan", "Demeter", "--human", "E"], "seats are A, B, C, D"),
])
def test_play_bad_four_player_seats_exit_2_with_one_message(args: list[str], message: str) -> None:
    result = run("play", *args)
    assert result.exit_code == 2, result.output
    assert message in result.output and "Traceback" not in result.output

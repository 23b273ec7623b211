"""Three-player games: each pack's 3-player mode, whole games to their end (a stuck seat is out,
its workers leave the board, the turn skips it, the last player left wins, or a normal win ends
the game), the command line with three seats, and random conformance games for the cards that
allow three players."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner
from test_conformance import CheckingAgent, final, invariants, play_each_card

from santorini.interpreter.cli.cli import main, spread_gods
from santorini.interpreter.games.bench import run_bench
from santorini.interpreter.games.game import (
    Game,
    SetupError,
    new_game,
    parse_players,
    resolve_all_stuck,
    settle_stuck,
)
from santorini.interpreter.games.packs import MORTAL, PackError, load_pack, load_pack_folder, resolve_pack
from santorini.interpreter.games.play import RandomAgent, run_game
from santorini.interpreter.games.scenario import ScenarioError, check, load_scenario
from santorini.interpreter.model.notation import parse_turn
from support import PACKS, REPO

RULES = Path("/work/shared/rules")  # the editions' texts, where this checkout has them

#: Three gods that every pack has and that allow three players.
GODS = ["Apollo", "Athena", "Pan"]

#: B (Demeter) walled in by domes at a1 and e5; A and C free. Rows 5 to 1.
WALLED_B = {
    "board": "0 0 0 3D 0\n0 0 0 3D 3D\n0 0 0 0 0\n3D 3D 0 0 0\n0 3D 0 0 0\n",
    "workers": {"A1": "c3", "A2": "c4", "B1": "a1", "B2": "e5", "C1": "e1", "C2": "a5"},
}


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def position(tmp_path: Path, pack: str, players: list[str], to_move: str = "A", **changes: object) -> Game:
    data = {"name": "a three-player position", "edition": pack, "players": players, "to_move": to_move,
            **WALLED_B, **changes}
    path = tmp_path / "position.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    return load_scenario(path).game


def no_worker_of_the_out(game: Game) -> None:
    state = game.state
    for seat in state.out:
        team = state.seats[seat].team
        assert not state.team_workers(team), f"seat {state.seats[seat].letter} is out but has workers on the board"
        assert all(state.worker_pos[w] < 0 for w in state.members.get(team, ()))


def three_player_cards(pack: str) -> list[str]:
    return sorted(name for name, card in load_pack(pack).cards.items() if 3 in card.players)


# ---- the modes
@pytest.mark.parametrize("pack", PACKS)
def test_each_pack_has_a_three_player_default_mode(pack: str) -> None:
    loaded = load_pack(pack)
    mode = loaded.mode(None, 3)
    assert mode.players == (3,) and mode.powers_per_seat == 1
    assert mode.title == "3 Player Standard"
    assert "each player places 2 workers." in mode.rules
    game = new_game(loaded, parse_players(GODS))
    assert game.mode is mode and game.workers_per_seat == 2
    assert [s.letter for s in game.state.seats] == ["A", "B", "C"]
    assert loaded.mode(None, 2).name != mode.name  # two players keep their own mode


@pytest.mark.parametrize(("pack", "source"), [("bga", ("bga-wiki-power-list.txt", "bga-help-powers-and-setup.txt")),
                                              ("pantheon", ("pantheon-edition-rulebook.txt",))])
def test_the_mode_text_is_the_editions_verbatim(pack: str, source: tuple[str, ...]) -> None:
    text = load_pack(pack).mode(None, 3).path
    printed = yaml.safe_load(Path(text).read_text(encoding="utf-8"))["text"]
    if not all((RULES / name).is_file() for name in source):
        pytest.skip("the editions' texts are not in this checkout")
    edition = "\n".join((RULES / name).read_text(encoding="utf-8") for name in source)
    for line in printed.splitlines():
        assert line.strip() in edition, line


def test_the_first_edition_prints_no_three_player_setup() -> None:
    """Its mode is ours (a ruling), so it has no `text:`; the pack's cards do allow three."""
    mode_file = Path(load_pack("first-edition").mode(None, 3).path)
    assert "text" not in yaml.safe_load(mode_file.read_text(encoding="utf-8"))


def test_bga_requires_a_power_for_every_seat_with_three_players() -> None:
    with pytest.raises(SetupError, match=r"requires a power for every seat; seat C \(Mortal\) has none"):
        new_game(load_pack("bga"), parse_players(["Apollo", "Athena", MORTAL]))
    new_game(load_pack("bga"), parse_players(["Apollo", MORTAL]))  # optional with two players
    for pack in ("pantheon", "first-edition"):  # as their 2-player modes, a seat may be a Mortal
        new_game(load_pack(pack), parse_players([MORTAL, MORTAL, MORTAL]))


def author_pack(tmp_path: Path, default_three: str = "three-players") -> Path:
    """A pack that extends bga, with a Demeter for two players only."""
    folder = tmp_path / "two-only"
    folder.mkdir()
    pack = (REPO / "powers" / "bga" / "pack.yaml").read_text(encoding="utf-8")
    pack = pack.replace("name: bga", "name: two-only\nextends: bga").replace("3: three-players", f"3: {default_three}")
    (folder / "pack.yaml").write_text(pack, encoding="utf-8")
    card = (REPO / "powers" / "bga" / "demeter.yaml").read_text(encoding="utf-8")
    assert "players: [2, 3, 4]" in card
    (folder / "demeter.yaml").write_text(card.replace("players: [2, 3, 4]", "players: [2]"), encoding="utf-8")
    return folder


def test_a_card_that_does_not_allow_three_players_is_refused(tmp_path: Path) -> None:
    folder = author_pack(tmp_path)
    pack = resolve_pack(str(folder))
    with pytest.raises(SetupError, match="Demeter is for 2 players, not 3"):
        new_game(pack, parse_players(["Demeter", "Apollo", "Pan"]))
    new_game(pack, parse_players(["Demeter", "Apollo"]))
    result = run("play", "--pack", str(folder), "--gods", "Demeter", "Apollo", "Pan", "--seed", "1")
    assert result.exit_code == 2 and "Demeter is for 2 players, not 3" in result.output
    assert "Traceback" not in result.output
    shipped_two_only = [(pack_name, name) for pack_name in PACKS for name, card in load_pack(pack_name).cards.items()
                        if 3 not in card.players]
    for pack_name, name in shipped_two_only:  # and so is every shipped one
        with pytest.raises(SetupError, match=f"{name} is for"):
            new_game(load_pack(pack_name), parse_players([name, "Apollo", "Pan"]))


@pytest.mark.parametrize(("entry", "message"), [("nosuch", "the pack has no such mode"),
                                                ("standard", "for 3 players is for 2 players")])
def test_a_default_mode_must_exist_and_be_for_its_player_count(tmp_path: Path, entry: str, message: str) -> None:
    folder = author_pack(tmp_path, entry)
    with pytest.raises(PackError, match=message) as raised:
        load_pack_folder(folder, REPO / "modes" / "bga")
    error = raised.value.errors[0]
    assert error.file.endswith("pack.yaml") and error.line > 1


# ---- a stuck seat is out; the last player left wins; a normal win ends the game
@pytest.mark.parametrize("pack", PACKS)
def test_a_stuck_seat_is_out_its_workers_leave_and_the_turn_passes_to_the_next(tmp_path: Path, pack: str) -> None:
    game = position(tmp_path, pack, ["Atlas", "Demeter", "Hephaestus"], to_move="B")
    state, engine = game.state, game.engine
    assert not engine.has_turn(state)
    assert settle_stuck(game) == "seat B cannot complete a turn and is out"
    assert state.out == {1} and state.winner is None
    assert state.to_move == 2  # C
    no_worker_of_the_out(game)
    assert [state.worker_name(w) for w, p in enumerate(state.worker_pos) if p >= 0] == ["A1", "A2", "C1", "C2"]
    engine.play_in_place(state, parse_turn(state, "move C1 e2; build C1 e1"))
    assert state.to_move == 0  # A
    engine.play_in_place(state, parse_turn(state, "move A1 b3; build A1 c3"))
    assert state.to_move == 2  # C again: B is skipped
    assert state.next_seat(2) == 0 and state.next_seat(0) == 2


@pytest.mark.parametrize("pack", PACKS)
def test_the_last_player_left_wins(tmp_path: Path, pack: str) -> None:
    """B and C are both walled in by domes at the corners: B is out, then C, and A, the only player
    left, wins."""
    board = "0 3D 0 3D 0\n3D 3D 0 3D 3D\n0 0 0 0 0\n3D 3D 0 3D 3D\n0 3D 0 3D 0\n"
    game = position(tmp_path, pack, ["Atlas", "Demeter", "Hephaestus"], to_move="B", board=board,
                    workers={"A1": "c3", "A2": "c4", "B1": "a1", "B2": "e5", "C1": "e1", "C2": "a5"})
    state = game.state
    assert resolve_all_stuck(game) == ["seat B cannot complete a turn and is out",
                                       "seat C cannot complete a turn and is out; seat A is the only player left"]
    assert state.winner == 0 and state.out == {1, 2}
    no_worker_of_the_out(game)
    assert resolve_all_stuck(game) == []


@pytest.mark.parametrize("pack", PACKS)
def test_a_normal_win_ends_a_three_player_game(tmp_path: Path, pack: str) -> None:
    board = "0 0 0 0 0\n0 0 3 0 0\n0 0 2 0 0\n0 0 0 0 0\n0 0 0 0 0\n"
    game = position(tmp_path, pack, ["Atlas", "Demeter", "Hephaestus"], to_move="C", board=board,
                    workers={"A1": "a1", "A2": "a2", "B1": "e1", "B2": "e2", "C1": "c3", "C2": "a5"})
    state = game.state
    game.engine.play_in_place(state, parse_turn(state, "move C1 c4"))
    assert state.winner == 2 and state.team_letters[state.winner] == "C"
    assert resolve_all_stuck(game) == []  # the game is over: nobody else is settled


# ---- whole games
@pytest.mark.parametrize(("pack", "players"), [(pack, GODS) for pack in PACKS] +
                         [(pack, [MORTAL] * 3) for pack in PACKS if pack != "bga"])  # BGA requires powers
def test_whole_seeded_three_player_games_end_with_a_winner(pack: str, players: list[str]) -> None:
    """Seeded games of three players, turn by turn with every step checked; some of them see a
    seat go out (and then play on without it)."""
    template = new_game(load_pack(pack), parse_players(players))
    eliminations = 0
    for seed in range(30):
        game = template.restart()

        def after_turn(g: Game, seat: int, text: str) -> None:
            invariants(g.state)
            no_worker_of_the_out(g)
            assert seat not in g.state.out

        def stuck(g: Game, seat: int, text: str) -> None:
            assert seat in g.state.out and text.startswith(f"seat {g.state.seats[seat].letter} cannot complete a turn")
            invariants(g.state)
            no_worker_of_the_out(g)
            assert g.state.winner is not None or g.state.to_move not in g.state.out

        rng = random.Random(f"three-{pack}-{seed}")
        log = run_game(game, [CheckingAgent(rng) for _ in range(3)], on_turn=after_turn, on_stuck=stuck)
        assert log.winner in ("A", "B", "C"), log.reason
        assert log.winner not in {game.state.seats[s].letter for s in game.state.out}
        eliminations += len(log.stuck)
        played = template.restart()  # the same game through Engine.playout
        rng = random.Random(f"three-{pack}-{seed}")
        played_log = run_game(played, [RandomAgent(rng) for _ in range(3)])
        assert played_log == log
        assert final(played.state) == final(game.state)
    if players == GODS:  # a seat goes out in about one game in three; Mortals, more rarely
        assert eliminations, "no seat went out in these games"


def test_random_three_player_games_for_the_cards_that_allow_three() -> None:
    """Each card of each pack that allows three players, in a seeded game with two others drawn at
    random: every step keeps the invariants (a player who is out has nothing left on the board),
    every game ends with a winner, and Engine.playout plays the same game."""
    for pack in PACKS:
        assert play_each_card(pack, 3) == len(three_player_cards(pack))


def test_scenario_history_settles_a_stuck_seat(tmp_path: Path) -> None:
    """A history turn is played by the seat in turn: a stuck seat before it is out first."""
    game = position(tmp_path, "bga", ["Atlas", "Demeter", "Hephaestus"], to_move="B",
                    history=["move C1 e2; build C1 e1", "move A1 b3; build A1 c3"])
    assert game.state.to_move == 2 and game.state.out == {1}
    no_worker_of_the_out(game)
    data = {"name": "over", "edition": "bga", "players": ["Atlas", "Demeter"], "to_move": "B", **WALLED_B,
            "history": ["move A1 b3; build A1 c3"]}
    data["workers"] = {k: v for k, v in WALLED_B["workers"].items() if not k.startswith("C")}
    (tmp_path / "over.yaml").write_text(yaml.safe_dump(data), encoding="utf-8")
    result = run("scenario", str(tmp_path / "over.yaml"))
    assert result.exit_code == 2 and "the game is over (winner A)" in result.output


@pytest.mark.parametrize("pack", PACKS)
def test_the_three_player_scenario_files(pack: str) -> None:
    for name in ("three-players-stuck.yaml", "three-players-out.yaml"):
        scenario = load_scenario(REPO / "tests" / "scenarios" / pack / name)
        assert len(scenario.state.seats) == 3
        assert check(scenario) == [], scenario.name


# ---- the command line
def test_gods_take_one_name_per_seat() -> None:
    assert spread_gods(["--gods", "Apollo", "Athena", "Pan", "--seed", "3"]) == \
        ["--gods", "Apollo", "--gods", "Athena", "--gods", "Pan", "--seed", "3"]
    assert spread_gods(["--gods=Apollo", "Athena"]) == ["--gods=Apollo", "--gods", "Athena"]
    assert spread_gods(["--seed", "3", "--gods", "Apollo", "Athena"]) == \
        ["--seed", "3", "--gods", "Apollo", "--gods", "Athena"]
    assert spread_gods(["--", "--gods", "x", "y"]) == ["--", "--gods", "x", "y"]


def first_seed_with(needle: str, *args: str) -> tuple[int, str]:
    for seed in range(60):
        result = run("play", *args, "--seed", str(seed))
        assert result.exit_code == 0, result.output
        if needle in result.output:
            return seed, result.output
    raise AssertionError(f"no seed below 60 prints {needle!r}")


def test_play_three_players_prints_every_seat_who_is_out_and_the_winner(tmp_path: Path) -> None:
    seed, output = first_seed_with("cannot complete a turn and is out", "--players", "3", "--gods", *GODS)
    lines = output.strip().splitlines()
    assert lines[0] == f"pack bga, mode three-players, seed {seed}; A: Apollo, B: Athena, C: Pan"
    assert [line.split(":")[0] for line in lines if line.startswith("setup ")] == ["setup A", "setup B", "setup C"]
    assert any(line.startswith("turn 3 C: ") for line in lines)
    out_line = next(line for line in lines if "is out" in line)
    assert out_line.startswith("seat ") and " cannot complete a turn and is out" in out_line
    out_seat = out_line.split()[1]
    assert lines[-1].startswith("winner: ") and not lines[-1].startswith(f"winner: {out_seat}")
    after = lines[lines.index(out_line):]  # the seat out does not play again
    assert not any(line.startswith("turn ") and line.split()[2] == f"{out_seat}:" for line in after)
    # the same game from the repeatable form, and with --players inferred
    assert run("play", "--gods", "Apollo", "--gods", "Athena", "--gods", "Pan", "--seed", str(seed)).output == output
    assert run("play", "--gods", *GODS, "--seed", str(seed)).output == output
    # and its record replays, eliminations included
    record = tmp_path / "game.yaml"
    assert run("play", "--gods", *GODS, "--seed", str(seed), "--record", str(record)).exit_code == 0
    data = yaml.safe_load(record.read_text(encoding="utf-8"))
    assert data["mode"] == "three-players" and data["players"] == GODS
    assert len(data["placements"]) == 3
    replayed = run("replay", str(record))
    assert replayed.exit_code == 0, replayed.output


def test_play_three_players_the_last_player_left_wins() -> None:
    _, output = first_seed_with("the only player left", "--gods", *GODS)
    assert output.strip().splitlines()[-1].endswith("is the only player left)")


@pytest.mark.parametrize(("args", "message"), [
    (["--players", "3", "--gods", "Apollo", "Athena"], "--players 3, but --gods names 2 seats (Apollo Athena)"),
    (["--players", "2", "--gods", *GODS], "--players 2, but --gods names 3 seats"),
    (["--gods", "Apollo"], "--gods names 1 seat (Apollo); a game has at least 2"),
    (["--gods", "Apollo", "Athena", "Mortal"], "requires a power for every seat"),
    (["--gods", "Apollo", "Athena", "Pan", "Hermes", "Atlas"], "has no default mode for 5 players"),
    (["--gods", *GODS, "--human", "D"], "seats are A, B, C"),
    (["--gods", "Apollo", "Athena", "Zeuss"], "has no card 'Zeuss'"),
])
def test_play_bad_seats_exit_2_with_one_message(args: list[str], message: str) -> None:
    result = run("play", *args)
    assert result.exit_code == 2, result.output
    assert message in result.output and "Traceback" not in result.output
    assert len(result.output.strip().splitlines()) == 1


def test_first_edition_and_pantheon_play_three_mortals() -> None:
    for pack in ("first-edition", "pantheon"):
        result = run("play", "--pack", pack, "--players", "3", "--gods", MORTAL, MORTAL, MORTAL, "--seed", "1")
        assert result.exit_code == 0, result.output
        assert "A: Mortal, B: Mortal, C: Mortal" in result.output
        assert result.output.strip().splitlines()[-1].startswith("winner: ")


def test_bench_three_players() -> None:
    result = run("bench", "--gods", *GODS, "--players", "3", "--seconds", "0.2")
    assert result.exit_code == 0, result.output
    assert result.output.strip().splitlines()[-1].startswith("games/s: ")
    bench = run_bench(load_pack("bga"), GODS, 0.2, 1)
    assert bench.games and set(bench.wins) <= {"A", "B", "C", "none"}
    bad = run("bench", "--gods", *GODS, "--players", "2")
    assert bad.exit_code == 2 and "--players 2, but --gods names 3 seats" in bad.output


def test_two_god_form_is_unchanged() -> None:
    result = run("play", "--pack", "bga", "--gods", "Apollo", "Athena", "--seed", "7")
    assert result.exit_code == 0
    assert result.output.splitlines()[0] == "pack bga, mode standard, seed 7; A: Apollo, B: Athena"
    assert run("play", "--gods", "Apollo", "Athena", "--players", "2", "--seed", "7").output == result.output


# ---- a position with a seat already out (scenario extension 'out')
def test_a_scenario_may_say_a_seat_is_out_and_the_turn_skips_it(tmp_path: Path) -> None:
    path = REPO / "tests" / "scenarios" / "bga" / "three-players-a-seat-already-out.yaml"
    scenario = load_scenario(path)
    state = scenario.state
    assert state.out == {1} and state.seats[state.to_move].letter == "C"
    after = scenario.game.engine.play(state, parse_turn(state, "move C1 c4; build C1 c5"))
    assert after.seats[after.to_move].letter == "A"  # B is skipped


@pytest.mark.parametrize(("changes", "message"), [
    ({"out": ["B"]}, "seat B is out, so its workers are not on the board (B1, B2 are)"),
    ({"out": ["B"], "workers": {"A1": "c3", "A2": "c4", "C1": "e1", "C2": "a5"}, "to_move": "B"},
     "seat B is out and does not move"),
    ({"out": ["B", "C"], "workers": {"A1": "c3", "A2": "c4"}}, "at least two teams must still be playing"),
])
def test_a_seat_out_must_be_consistent(tmp_path: Path, changes: dict, message: str) -> None:
    with pytest.raises(ScenarioError, match=re.escape(message)):
        position(tmp_path, "bga", GODS, **changes)


@pytest.mark.parametrize("pack", PACKS)
def test_perft_settles_a_stuck_seat_and_counts_the_next(tmp_path: Path, pack: str) -> None:
    """B is walled in and to move: in a game of three it is out (its workers leave), and perft
    counts C's turn at the same depth, exactly as from the position written with B out."""
    stuck = position(tmp_path, pack, GODS, to_move="B")
    engine, state = stuck.engine, stuck.state
    assert not engine.has_turn(state)
    without_b = position(tmp_path, pack, GODS, to_move="C", out=["B"],
                         workers={k: v for k, v in WALLED_B["workers"].items() if not k.startswith("B")})
    for depth in (1, 2):
        count = engine.perft(state, depth)
        assert count == without_b.engine.perft(without_b.state, depth) > 0
        assert sum(engine.perft_divided(state, depth)) == count
    two = position(tmp_path, pack, ["Apollo", "Athena"], to_move="B",
                   workers={k: v for k, v in WALLED_B["workers"].items() if not k.startswith("C")})
    assert two.engine.perft(two.state, 1) == 0  # with two teams, the game is over


def test_a_record_lists_who_left_the_game_and_replay_checks_it(tmp_path: Path) -> None:
    seed, output = first_seed_with("cannot complete a turn and is out", "--gods", *GODS)
    record = tmp_path / "game.yaml"
    assert run("play", "--gods", *GODS, "--seed", str(seed), "--record", str(record)).exit_code == 0
    data = yaml.safe_load(record.read_text(encoding="utf-8"))
    out_line = next(line for line in output.splitlines() if "is out" in line)
    letter = out_line.split()[1]
    turns_before = sum(1 for line in output[:output.index(out_line)].splitlines() if line.startswith("turn "))
    assert data["out"][0] == {"seat": letter, "after_turn": turns_before}
    assert list(data)[-3:] == ["out", "position", "result"]
    assert run("replay", str(record)).exit_code == 0
    data["out"][0]["after_turn"] += 1
    record.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    parted = run("replay", str(record))
    assert parted.exit_code == 1 and "the seats that leave the game are" in parted.output

"""The library's front door (api.py): `import santorini` gives a Game that lists, plays and takes
back turns in notation, from the setup to the winner. Expectations come from the rules: the
placements are the pairs of free squares, and the counts from S0 are the spec's cross-checked
perft counts (68 and 5,156)."""

from __future__ import annotations

import random
import subprocess
import sys
from math import comb

import pytest

import santorini
from support import REPO

S0 = ("place A1 b3; place A2 d3", "place B1 c4; place B2 c2")


def at_s0(*cards: str) -> santorini.Game:
    game = santorini.Game(list(cards or ("Mortal", "Mortal")))
    for placement in S0:
        game.play(placement)
    return game


def test_the_package_exports_the_front_door_and_its_errors() -> None:
    for name in ("Game", "Turn", "SantoriniError", "IllegalTurn", "NotationError", "SetupError", "UnknownName"):
        assert name in dir(santorini) and getattr(santorini, name) is not None
    assert issubclass(santorini.IllegalTurn, santorini.SantoriniError)
    assert issubclass(santorini.NothingToUndo, santorini.SantoriniError)
    with pytest.raises(AttributeError):
        santorini.NoSuchName  # noqa: B018


def test_the_installed_package_says_it_is_typed() -> None:
    """py.typed (PEP 561) ships with the package, so a user's type checker reads its hints."""
    from importlib.resources import files
    assert files("santorini").joinpath("py.typed").is_file()


def test_importing_the_package_compiles_nothing_until_a_name_is_used() -> None:
    """The command line imports the package: `import santorini` alone must not load the engine
    (start-up time); the first use of a name does."""
    code = ("import sys, santorini; print('santorini.api' in sys.modules); santorini.Game; "
            "print('santorini.api' in sys.modules)")
    result = subprocess.run([sys.executable, "-c", code], cwd=REPO.parent, capture_output=True, text=True, check=True)
    assert result.stdout.split() == ["False", "True"]


def test_the_setup_lists_every_pair_of_free_squares_and_plays_one() -> None:
    game = santorini.Game(["Mortal", "Mortal"])
    assert game.in_setup and game.to_move == "A"
    placements = game.turns()
    assert len(placements) == comb(25, 2) == len(set(placements))
    assert str(placements[0]) == "place A1 a1; place A2 b1"
    played = game.play(placements[7])
    assert played == placements[7] and game.to_move == "B"
    assert len(game.turns()) == comb(23, 2)  # (two squares taken)
    game.play("place B1 e5; place B2 e4")
    assert not game.in_setup and game.to_move == "A"


def test_a_placement_names_the_seats_workers_in_order() -> None:
    game = santorini.Game(["Mortal", "Mortal"])
    with pytest.raises(santorini.SetupError, match="A1, A2"):
        game.play("place A2 b3; place A1 d3")
    with pytest.raises(santorini.NotationError):
        game.play("put A1 b3; put A2 d3")
    with pytest.raises(santorini.SetupError, match="occupied"):
        game.play("place A1 b3; place A2 b3")
    assert game.in_setup and not game.history  # (nothing half-played)


def test_from_s0_the_turns_and_perft_are_the_spec_counts() -> None:
    game = at_s0()
    turns = game.turns()
    assert len(turns) == 68 == len(set(turns))
    assert game.perft(2) == 5156
    assert all(str(turn).startswith("move A") for turn in turns)


def test_play_takes_notation_or_a_turn_and_refuses_with_the_reason() -> None:
    game = at_s0()
    played = game.play("move A1 b4; build A1 a5")
    assert str(played) == "move A1 b4; build A1 a5" and game.to_move == "B"
    with pytest.raises(santorini.IllegalTurn, match="not yours"):
        game.play("move A2 d4; build A2 d5")
    with pytest.raises(santorini.NotationError):
        game.play("jump B1 c5")
    turn = game.turns()[0]
    assert game.play(turn) == turn and game.to_move == "A"


def test_undo_puts_back_the_position_the_setup_included() -> None:
    game = santorini.Game(["Apollo", "Athena"])
    positions = [game.state.copy()]
    rng = random.Random(3)
    for _ in range(8):
        turn = game.random_turn(rng)
        assert turn is not None
        game.play(turn)
        positions.append(game.state.copy())
    for expected in reversed(positions[:-1]):
        game.undo()
        assert game.state.hash == expected.hash and game.state.to_move == expected.to_move
        assert len(game.state.history) == len(expected.history)
    assert game.in_setup and not game.history
    with pytest.raises(santorini.NothingToUndo):
        game.undo()


def test_a_copy_plays_on_apart() -> None:
    game = at_s0()
    other = game.copy()
    other.play(other.turns()[0])
    assert len(game.history) == 2 and len(other.history) == 3
    assert game.state.hash != other.state.hash and game.to_move == "A"


def test_a_seeded_game_is_the_same_game_and_ends_with_a_winner() -> None:
    def game_with(seed: int) -> santorini.Game:
        game = santorini.Game(["Pan", "Minotaur"])
        rng = random.Random(seed)
        while not game.is_over:
            turn = game.random_turn(rng)
            assert turn is not None
            game.play(turn)
        return game
    first, second = game_with(11), game_with(11)
    assert [str(t) for t in first.history] == [str(t) for t in second.history]
    assert first.winner in ("A", "B") and first.to_move is None and first.turns() == []
    assert first.random_turn(random.Random(1)) is None
    with pytest.raises(santorini.SantoriniError):
        first.play("move A1 a1; build A1 a2")


def test_the_text_of_a_game_draws_the_board_and_says_who_is_to_move() -> None:
    game = at_s0("Artemis", "Mortal")
    text = str(game)
    assert "to move: A" in text and "A1" in text and "B2" in text
    assert repr(game).startswith("<santorini.Game Artemis v Mortal (bga, standard): A to move")


def test_another_pack_an_authors_folder_and_the_modes_bounds() -> None:
    with pytest.raises(santorini.SetupError, match="1 power"):  # (a seat's cards as a list: two here)
        santorini.Game([["Apollo", "Pan"], "Mortal"])
    assert santorini.Game(["Apollo", "Mortal"], pack="pantheon").pack.name == "pantheon"
    folder = str(REPO / "tests" / "invented" / "inventions")
    authored = santorini.Game(["Mortal", "Mortal"], pack=folder)
    assert authored.pack.name != "bga"
    with pytest.raises(santorini.SetupError):
        santorini.Game(["NoSuchGod", "Mortal"])


def test_a_game_is_a_picture_with_its_last_turn_marked() -> None:
    import xml.etree.ElementTree as ElementTree
    game = at_s0()
    game.play("move A1 b4; build A1 a5")
    picture = ElementTree.fromstring(game._repr_svg_())
    classes = [element.get("class", "") for element in picture.iter()]
    assert any(c.startswith("arrow move") for c in classes)
    assert any("worker A1" in c and "b4" in c for c in classes)


def test_the_engine_shows_its_methods_and_five_attributes_its_compiled_code_is_internal() -> None:
    """A bot author reading `dir(game.engine)` finds the engine API, not the derived code's
    tables: every other attribute carries a leading underscore."""
    engine = at_s0("Athena", "Aphrodite").engine
    public = {name for name in vars(engine) if not name.startswith("_")}
    assert public == {"fast", "if_possible", "seat_powers", "seat_rules", "secrets"}
    for method in ("turns", "random_turn", "play", "play_in_place", "perft", "why_illegal", "outcomes", "paths",
                   "view"):
        assert callable(getattr(engine, method))


@pytest.mark.parametrize(("cards", "seeds"), [
    (("Apollo", "Athena"), range(1, 4)), (("Hermes", "Ares"), range(1, 3)),
    (("Apollo", "Athena", "Pan"), range(1, 9)), (("Apollo", "Athena", "Pan", "Atlas"), range(1, 3))])
def test_a_game_s_record_is_the_one_the_game_loop_writes(cards: tuple[str, ...], seeds: range) -> None:
    """The same games played by the game loop (`run_game`, whose log `santorini play --record`
    writes) and through `Game.play`, turn by turn: the same record, text for text, with the seats
    that left a game of three (and when) and why each game ended."""
    from santorini.interpreter.games.game import new_game, parse_players
    from santorini.interpreter.games.packs import load_pack
    from santorini.interpreter.games.play import RandomAgent, run_game
    from santorini.interpreter.games.records import record_text
    left = 0
    for seed in seeds:
        looped = new_game(load_pack("bga"), parse_players(list(cards)))
        rng = random.Random(seed)
        log = run_game(looped, [RandomAgent(rng) for _ in cards])
        written = record_text(looped, log, seed)
        left += bool(log.out)
        game = santorini.Game(list(cards))
        for text in (*log.placements, *log.turns):
            game.play(text)
        assert game.record(seed) == written
        game.undo()
        assert game.record(seed) != written  # (the last turn taken back: its record says so)
    if len(cards) == 3:
        assert left  # (some seat left one of these games: the record's `out` was compared too)


def test_a_game_from_a_position_has_no_record() -> None:
    game = santorini.Game.from_position(
        "bga/standard Apollo,Athena 00000/00000/00000/00000/00000 A1b3,A2d3,B1c4,B2c2 A")
    with pytest.raises(santorini.SantoriniError, match="has no record"):
        game.record()


def test_a_game_not_over_is_recorded_as_stopped_and_reads_back(tmp_path) -> None:  # noqa: ANN001
    """A record of a game under way says it stopped, and `santorini render` reads it back to
    the position it reached; so does a game stopped in the setup."""
    from santorini.interpreter.cli.render import record_position
    game = at_s0("Mortal", "Mortal")
    game.play("move A1 b4; build A1 b5")
    text = game.record()
    assert "reason: 'stopped before the end: seat B to move'" in text
    path = tmp_path / "game.yaml"
    path.write_text(text, encoding="utf-8")
    assert record_position(path).state.hash == game.state.hash
    setup = santorini.Game(["Mortal", "Mortal"])
    setup.play("place A1 b3; place A2 d3")
    path.write_text(setup.record(), encoding="utf-8")
    assert record_position(path).state.hash == setup.state.hash

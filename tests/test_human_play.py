"""Human play in the terminal (issue 21, item 3): 'help' and 'quit' at every prompt; the record
written when the game ends, on 'quit', on Ctrl-C (exit 130) and at the end of input (exit 2);
'undo' of whole turns against a bot; one board, drawn once per human turn with the last turn
marked; a refusal that names the rule and leaves the list of steps to 'list'; play --from."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from pathlib import Path

import click
import pytest
import yaml
from click.testing import CliRunner, Result

from santorini.interpreter.cli.cli import main
from santorini.interpreter.games import human
from santorini.interpreter.games.game import Game, end_of_setup, new_game, parse_players, place_workers
from santorini.interpreter.games.human import BUILT, MOVED_FROM, MOVED_TO, HumanAgent, PlayerQuit, marked_board
from santorini.interpreter.games.packs import load_pack
from santorini.interpreter.games.play import Agent, GameLog, RandomAgent, play_turns
from santorini.interpreter.games.records import record_text
from santorini.interpreter.model.board import parse_square
from santorini.interpreter.model.notation import format_board
from santorini.interpreter.model.state import Action, GameState

#: The plain board's last line (its column letters): one per board drawn.
COLUMN_LINE = "   a      b      c      d      e"

ARTEMIS_POSITION = """\
name: Artemis against a Mortal
edition: bga
players: [Artemis, Mortal]
board: |
  0 0 0 0 0
  0 0 0 0 0
  0 0 0 0 0
  0 0 0 0 0
  0 0 0 0 0
workers: {A1: b3, A2: d3, B1: c4, B2: c2}
"""


def run(*args: str, input: str | None = None) -> Result:  # noqa: A002 - click's name
    return CliRunner().invoke(main, list(args), input=input)


def play_human(*extra: str, answers: list[str], gods: tuple[str, ...] = ("Artemis", "Mortal")) -> Result:
    """Seat A at the keyboard (placing on b3 and d3), seat B random, seed 1."""
    return run("play", "--gods", *gods, "--seed", "1", "--human", "A", *extra,
               input="\n".join(["b3", "d3", *answers]) + "\n")


def s0(gods: list[str]) -> Game:
    """A game after setup: A on b3 and d3, B on c4 and c2 (a third seat on a1 and e5)."""
    game = new_game(load_pack("bga"), parse_players(gods))
    squares = [("b3", "d3"), ("c4", "c2"), ("a1", "e5")]
    for seat in range(len(gods)):
        place_workers(game, seat, [parse_square(s) for s in squares[seat]])
    end_of_setup(game)
    return game


def scripted(answers: list[str]) -> Callable[[str], str]:
    """An `ask` that gives the answers in order, then says 'quit'."""
    given: Iterator[str] = iter(answers)
    return lambda question: next(given, "quit")


def snapshot(state: GameState) -> tuple[object, ...]:
    """Everything that makes a position (and its past): compared for 'exactly the same'."""
    return (state.hash, state.heights, state.domes, state.worker_pos, state.occupant, state.to_move,
            state.winner, sorted(state.out), [(r.seat, r.steps, r.events) for r in state.history],
            state.counters, sorted(state.marks), state.tokens)


# ---- help and quit
def test_help_is_understood_at_the_placement_and_the_turn_prompts() -> None:
    result = play_human(answers=["help", "quit"], gods=("Mortal", "Mortal"))
    placement = run("play", "--gods", "Mortal", "Mortal", "--seed", "1", "--human", "A", input="help\nquit\n")
    for output in (result.output, placement.output):
        assert "unknown verb" not in output and "Traceback" not in output
        assert "quit          stop the game" in output and "undo" in output
    assert "place your next worker there" in placement.output
    assert "how to write a step: VERB WORKER SPACE" in result.output and "list or ?" in result.output


def test_quit_ends_the_game_with_no_winner_and_writes_the_record(tmp_path: Path) -> None:
    record = tmp_path / "game.yaml"
    result = play_human("--record", str(record), answers=["move A1 b4; build A1 b5", "quit"])
    assert result.exit_code == 0, result.output
    assert "no winner (stopped before the end: seat A quit)" in result.output
    assert f"record written to {record}" in result.output
    data = yaml.safe_load(record.read_text(encoding="utf-8"))
    assert data["result"] == {"winner": None, "reason": "stopped before the end: seat A quit"}
    assert data["turns"][0] == "move A1 b4; build A1 b5" and len(data["turns"]) == 2  # and B's reply
    replayed = run("replay", str(record))
    assert replayed.exit_code == 0 and replayed.output.startswith("replayed 2 turns under bga"), replayed.output
    assert run("check", str(record)).exit_code == 0


def test_quit_during_the_setup_writes_a_record_that_replay_and_check_accept(tmp_path: Path) -> None:
    record = tmp_path / "game.yaml"
    result = run("play", "--gods", "Mortal", "Mortal", "--seed", "1", "--human", "B", "--record", str(record),
                 input="quit\n")
    assert result.exit_code == 0, result.output
    data = yaml.safe_load(record.read_text(encoding="utf-8"))
    assert len(data["placements"]) == 1 and data["turns"] == [] and data["result"]["winner"] is None
    replayed = run("replay", str(record))
    assert replayed.exit_code == 0 and "stops after 1 of 2 placements" in replayed.output
    assert run("check", str(record)).exit_code == 0


def test_a_record_with_missing_placements_and_turns_is_still_refused(tmp_path: Path) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(yaml.safe_dump({"pack": "bga", "players": ["Mortal", "Mortal"],
                                    "placements": ["place A1 b3; place A2 d3"], "turns": ["move A1 b4; build A1 b5"],
                                    "result": {"winner": None, "reason": "stopped"}}), encoding="utf-8")
    result = run("replay", str(path))
    assert result.exit_code == 2 and "the record has 1 placements; 2 seats place workers" in result.output


# ---- Ctrl-C and the end of input
@pytest.mark.parametrize("interrupt", [KeyboardInterrupt, click.Abort])
def test_ctrl_c_writes_the_record_says_where_and_exits_130(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                           interrupt: type[BaseException]) -> None:
    answers = iter(["b3", "d3", "move A1 b4; build A1 b5"])

    def ask(question: str) -> str:
        answer = next(answers, None)
        if answer is None:
            raise interrupt
        return answer
    monkeypatch.setattr(human, "prompt", ask)
    record = tmp_path / "game.yaml"
    result = run("play", "--gods", "Artemis", "Mortal", "--seed", "1", "--human", "A", "--record", str(record))
    assert result.exit_code == 130, result.output
    assert f"record written to {record}" in result.output
    assert "Aborted" not in result.output and "Traceback" not in result.output
    data = yaml.safe_load(record.read_text(encoding="utf-8"))
    assert data["result"] == {"winner": None, "reason": "stopped before the end: interrupted (Ctrl-C)"}
    assert len(data["turns"]) == 2
    assert run("replay", str(record)).exit_code == 0 and run("check", str(record)).exit_code == 0


def test_ctrl_c_while_an_agent_chooses_writes_the_record_too(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from santorini.interpreter.cli import cli

    class Interrupted(RandomAgent):
        """Plays two turns at random, then is interrupted while choosing the third."""

        def turn(self, game: Game) -> tuple[Action, ...] | None:
            if len(game.state.history) >= 2:
                raise KeyboardInterrupt
            return super().turn(game)
    monkeypatch.setattr(cli, "_agent", lambda spec, rng, bot_stderr="show": Interrupted(rng))
    record = tmp_path / "game.yaml"
    result = run("play", "--gods", "Mortal", "Mortal", "--seed", "1", "--record", str(record))
    assert result.exit_code == 130 and f"record written to {record}" in result.output, result.output
    data = yaml.safe_load(record.read_text(encoding="utf-8"))
    assert len(data["turns"]) == 2 and data["result"]["reason"] == "stopped before the end: interrupted (Ctrl-C)"


def test_the_end_of_input_writes_the_record_and_exits_2(tmp_path: Path) -> None:
    record = tmp_path / "game.yaml"
    result = play_human("--record", str(record), answers=["move A1 b4; build A1 b5"])
    assert result.exit_code == 2, result.output
    assert "error: the input ended before the game did" in result.output
    assert f"record written to {record}" in result.output
    data = yaml.safe_load(record.read_text(encoding="utf-8"))
    assert data["result"] == {"winner": None, "reason": "stopped before the end: the input ended"}
    replayed = run("replay", str(record))
    assert replayed.exit_code == 0 and "replayed 2 turns" in replayed.output


def test_a_game_that_ends_on_the_board_still_writes_its_record(tmp_path: Path) -> None:
    record = tmp_path / "game.yaml"
    result = play_human("--record", str(record), answers=["1"] * 400, gods=("Mortal", "Mortal"))
    assert result.exit_code == 0, result.output
    data = yaml.safe_load(record.read_text(encoding="utf-8"))
    assert data["result"]["winner"] in ("A", "B") and "stopped" not in data["result"]["reason"]
    assert run("replay", str(record)).exit_code == 0


# ---- undo of whole turns
def test_undo_at_the_start_of_a_turn_takes_back_the_last_round_exactly() -> None:
    """A plays, B (random) replies, A plays, B replies; 'undo' at A's third turn puts A back
    where it was before its second turn: the same position, the same past, the same log."""
    game = s0(["Artemis", "Mortal"])
    seen: list[GameState] = []
    agent = HumanAgent(ask=scripted(["move A1 b4; build A1 b5", "move A2 e3; build A2 e4", "undo"]),
                       say=lambda text: None, draw=lambda state, marks: seen.append(state.copy()))
    agents: list[Agent] = [agent, RandomAgent(random.Random(5))]
    log = GameLog(game.state)
    taken: list[list[str]] = []
    with pytest.raises(PlayerQuit):
        play_turns(game, agents, log, on_turn=lambda g, seat, text: None,
                   on_take_back=lambda g, seat, turns: taken.append(turns))
    # boards drawn: A's turns 1, 2 and 3, then turn 2 again after the undo (where 'quit' came)
    assert len(seen) == 4
    assert snapshot(seen[3]) == snapshot(seen[1])
    assert snapshot(game.state) == snapshot(seen[1])
    assert len(taken) == 1 and taken[0][0] == "move A2 e3; build A2 e4" and len(taken[0]) == 2
    assert len(log.turn_steps) == 2 and log.turns[0] == "move A1 b4; build A1 b5"
    assert [r.steps for r in game.state.history] == log.turn_steps
    text = record_text(game, log, 5)
    assert "move A2 e3" not in text


def test_undo_takes_back_every_seats_turn_since_and_can_go_on(tmp_path: Path) -> None:
    """Three seats: A's undo takes back A's turn and B's and C's replies; a second undo goes
    one round further; with no turn of A's left, 'undo' is refused and A plays on."""
    game = s0(["Pan", "Demeter", "Hephaestus"])
    seen: list[GameState] = []
    said: list[str] = []
    agent = HumanAgent(ask=scripted(["1", "1", "1", "1", "undo", "undo", "undo", "move A1 a4; build A1 a5"]),
                       say=said.append, draw=lambda state, marks: seen.append(state.copy()))
    agents: list[Agent] = [agent, RandomAgent(random.Random(1)), RandomAgent(random.Random(2))]
    log = GameLog(game.state)
    taken: list[int] = []
    with pytest.raises(PlayerQuit):
        play_turns(game, agents, log, on_turn=lambda g, seat, text: None,
                   on_take_back=lambda g, seat, turns: taken.append(len(turns)))
    assert taken == [3, 3]
    assert snapshot(seen[3]) == snapshot(seen[1])  # back before A's second turn
    assert snapshot(seen[4]) == snapshot(seen[0])  # and before its first
    assert any("nothing to take back" in line for line in said)
    assert log.turns[0] == "move A1 a4; build A1 a5" and len(log.turns) == 3


def test_undo_within_a_turn_still_takes_back_the_last_step() -> None:
    game = s0(["Artemis", "Mortal"])
    said: list[str] = []
    agent = HumanAgent(ask=scripted(["move A1 b4", "undo", "move A2 e3; build A2 e4"]), say=said.append)
    assert agent.turn(game) == (("move", 1, parse_square("e3")), ("build", 1, parse_square("e4")))
    assert "  took back 'move A1 b4'" in said


def test_the_command_line_undoes_a_turn_against_a_bot(tmp_path: Path) -> None:
    record = tmp_path / "game.yaml"
    result = play_human("--record", str(record), "--agent", "B=greedy",
                        answers=["move A1 b4; build A1 b5", "undo", "move A2 e3; build A2 e4", "quit"])
    assert result.exit_code == 0, result.output
    assert "seat A took back 2 turns; back to turn 1:" in result.output
    turns = yaml.safe_load(record.read_text(encoding="utf-8"))["turns"]
    assert turns[0] == "move A2 e3; build A2 e4" and len(turns) == 2
    assert run("replay", str(record)).exit_code == 0


# ---- one board, once per human turn, the last turn marked
def test_the_board_is_drawn_once_per_human_turn_with_the_last_turn_marked() -> None:
    result = play_human(answers=["move A1 b4; build A1 b5", "move A2 e3; build A2 e4", "quit"])
    output = result.output
    assert output.count(COLUMN_LINE) == 3  # A's three turns, and no other board
    after_a = output[output.index("turn 1 A:"):output.index("turn 2 B:")]
    assert COLUMN_LINE not in after_a  # not after the human's own turn
    second = output[output.index("turn 2 B:"):]
    board = second[:second.index(COLUMN_LINE)]
    assert "the last turn, seat B's '" in board and "is marked: * moved to, . moved from, + built on" in board
    rows = [line for line in board.splitlines() if line[:1].isdigit() and line[1:3] == "  "]
    cells = " ".join(rows)
    assert cells.count(MOVED_TO) == 1 and cells.count(BUILT) == 1 and cells.count(MOVED_FROM) == 1
    assert "│" not in output  # piped: the plain style only


def test_marks_follow_the_squares_of_the_last_turn() -> None:
    game = s0(["Mortal", "Mortal"])
    game.engine.play_in_place(game.state, (("move", 0, parse_square("b4")), ("build", 0, parse_square("b3"))))
    marks = human.last_turn_marks(game.state)
    assert marks == {parse_square("b4"): MOVED_TO, parse_square("b3"): BUILT}
    text = marked_board(game.state, marks)
    assert "0:A1*" in text and "1+" in text
    assert marked_board(game.state, {}) == format_board(game.state, with_workers=True)


def test_a_board_on_request_marks_the_steps_of_this_turn() -> None:
    game = s0(["Artemis", "Mortal"])
    drawn: list[dict[int, str]] = []
    agent = HumanAgent(ask=scripted(["move A1 b4", "board"]), say=lambda text: None,
                       draw=lambda state, marks: drawn.append(dict(marks)))
    with pytest.raises(PlayerQuit):
        agent.turn(game)
    assert drawn[-1] == {parse_square("b3"): MOVED_FROM, parse_square("b4"): MOVED_TO}


# ---- refusals and 'list'
def test_a_refusal_names_the_power_and_leaves_the_list_to_list() -> None:
    game = s0(["Artemis", "Mortal"])
    said: list[str] = []
    agent = HumanAgent(ask=scripted(["move A1 b4", "move A1 b3", "list"]), say=said.append)
    with pytest.raises(PlayerQuit):
        agent.turn(game)
    refused = next(i for i, line in enumerate(said) if "'move A1 b3' is not a legal step now" in line)
    line = said[refused]
    assert "Artemis's power does not allow it (after your worker moves, it may move one additional time, " \
           "not back to its starting space)" in line
    assert "type 'list' to see the allowed steps" in line and "allowed:" not in line
    listed = said[refused + 1:]
    assert listed[0] == "seat A, your options:"  # shown again only because 'list' asked for it
    assert any(entry.strip().startswith("1. ") for entry in listed)
    assert sum(1 for entry in said if entry == "seat A, your options:") == 3  # start, after the move, 'list'


def test_an_opponents_prohibition_is_named_too() -> None:
    game = s0(["Mortal", "Athena"])
    state = game.state
    state.set_height(parse_square("b4"), 1)
    game.engine.play_in_place(state, (("move", 0, parse_square("a3")), ("build", 0, parse_square("a2"))))
    state.set_height(parse_square("c5"), 1)
    game.engine.play_in_place(state, (("move", 2, parse_square("c5")), ("build", 2, parse_square("d5"))))
    said: list[str] = []
    with pytest.raises(PlayerQuit):
        HumanAgent(ask=scripted(["move A1 b4"]), say=said.append).turn(game)
    line = next(line for line in said if "'move A1 b4' is not a legal step now" in line)
    assert "Athena's power forbids it" in line and "allowed:" not in line


def test_a_number_off_the_list_points_to_list_without_listing_again() -> None:
    game = s0(["Mortal", "Mortal"])
    said: list[str] = []
    with pytest.raises(PlayerQuit):
        HumanAgent(ask=scripted(["99"]), say=said.append).turn(game)
    refused = next(i for i, line in enumerate(said) if "99 is not on the list" in line)
    assert "type 'list'" in said[refused] and said[refused + 1:] == []


# ---- play --from
def test_play_from_a_scenario_plays_on_from_its_position(tmp_path: Path) -> None:
    path = tmp_path / "position.yaml"
    path.write_text(ARTEMIS_POSITION + "history:\n  - move A1 b4; build A1 b5\n  - move B1 c5; build B1 d5\n",
                    encoding="utf-8")
    record = tmp_path / "played.yaml"
    result = run("play", "--from", str(path), "--human", "A", "--seed", "1", "--record", str(record),
                 input="move A2 e3; build A2 e4\nquit\n")
    assert result.exit_code == 0, result.output
    assert f"from {path} (Artemis against a Mortal): seat A to move" in result.output
    first = result.output[:result.output.index(COLUMN_LINE)]
    assert "5  0      1      0:B1*  1+" in first  # the scenario's board, its last history turn marked
    assert "4  0      0:A1   0." in first
    assert "turn 3 A: move A2 e3; build A2 e4" in result.output
    data = yaml.safe_load(record.read_text(encoding="utf-8"))
    assert data["history"] == ["move A1 b4; build A1 b5", "move B1 c5; build B1 d5", "move A2 e3; build A2 e4",
                               data["history"][3]]
    assert "played on: no winner (stopped before the end: seat A quit)" in data["name"] and "expect" not in data
    assert run("check", str(record)).exit_code == 0
    again = run("play", "--from", str(record), "--seed", "1")
    assert again.exit_code == 0 and "turn 5 A:" in again.output


def test_play_from_with_random_agents_plays_to_the_end(tmp_path: Path) -> None:
    path = tmp_path / "position.yaml"
    path.write_text(ARTEMIS_POSITION + "to_move: B\n", encoding="utf-8")
    result = run("play", "--from", str(path), "--seed", "3", "--agent", "A=greedy")
    assert result.exit_code == 0, result.output
    assert "turn 1 B:" in result.output and "winner: " in result.output


@pytest.mark.parametrize(("text", "args", "message"), [
    (ARTEMIS_POSITION.replace("Artemis, Mortal", "Artemis, Zeuss"), (), ":3:"),
    (ARTEMIS_POSITION.replace("workers: {A1: b3, A2: d3, B1: c4, B2: c2}", "workers: {A1: b3, A2: d3}\nplacing: B"),
     (), "a position in setup ('placing'): play --from starts from a position in play"),
    (ARTEMIS_POSITION + "history:\n  - move A1 b4; build A1 b9\n", (), ":12:"),
    (ARTEMIS_POSITION, ("--gods", "Apollo", "Pan"), "leave out --gods"),
    (ARTEMIS_POSITION, ("--pack", "pantheon"), "leave out --pack"),
    ("pack: bga\nplayers: [Mortal, Mortal]\nplacements: []\nturns: []\n", (), "position.yaml:1:1:"),
])
def test_play_from_a_bad_file_is_one_located_error(tmp_path: Path, text: str, args: tuple[str, ...],
                                                   message: str) -> None:
    path = tmp_path / "position.yaml"
    path.write_text(text, encoding="utf-8")
    result = run("play", "--from", str(path), *args)
    assert result.exit_code == 2, result.output
    assert message in result.output and "Traceback" not in result.output
    assert "seed" not in result.output  # (refused before the game)
    if message.startswith(":"):
        assert f"{path}{message}" in result.output


def test_play_from_a_missing_file_or_without_players_is_bad_input(tmp_path: Path) -> None:
    missing = run("play", "--from", str(tmp_path / "nope.yaml"))
    assert missing.exit_code == 2 and "no such file" in missing.output
    nothing = run("play", "--seed", "1")
    assert nothing.exit_code == 2 and "--gods G1 G2" in nothing.output and "--from FILE" in nothing.output


def test_play_from_a_finished_game_says_there_is_nothing_to_play(tmp_path: Path) -> None:
    position = ARTEMIS_POSITION.replace("0 0 0 0 0\n  0 0 0 0 0\n  0 0 0 0 0\n  0 0 0 0 0\n  0 0 0 0 0",
                                        "0 0 0 0 0\n  0 0 0 0 0\n  0 3 0 0 0\n  0 2 0 0 0\n  0 0 0 0 0")
    path = tmp_path / "position.yaml"
    path.write_text(position.replace("A1: b3", "A1: b2") + "history:\n  - move A1 b3\n", encoding="utf-8")
    result = run("play", "--from", str(path))
    assert result.exit_code == 2 and "the game is over after this history (winner A)" in result.output

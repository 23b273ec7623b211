"""The agents (docs/agents.md): greedy and MCTS take a win in one and block one; MCTS beats random
and greedy; a seed gives the same game; an external bot plays over the line protocol, and a bot
that breaks it gives one clear error; `santorini play --agent`."""

from __future__ import annotations

import random
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner

import santorini
from santorini.dsl.errors import SantoriniError
from santorini.interpreter.agents import (
    AgentError,
    BotError,
    ExternalAgent,
    GreedyAgent,
    MctsAgent,
    RandomAgent,
    make_agent,
)
from santorini.interpreter.agents.protocol import read_request, request_lines
from santorini.interpreter.agents.tactics import first_at_random
from santorini.interpreter.cli.cli import main
from santorini.interpreter.games.documents import dump, game_document, position_document
from santorini.interpreter.games.game import Game, new_game, parse_players, resolve_all_stuck
from santorini.interpreter.games.packs import resolve_pack
from santorini.interpreter.games.play import run_game
from santorini.interpreter.games.scenario import load_scenario
from santorini.interpreter.model.notation import format_turn, parse_turn
from support import REPO

EXAMPLE_BOT = [sys.executable, "-m", "santorini.interpreter.agents.example_bot"]
#: The search budget of the strength tests: "a few hundred" iterations a turn.
BUDGET = 200


def mortal_position(board: str, workers: dict[str, str], to_move: str = "A") -> dict:
    return {"name": "hand-made", "edition": "bga", "players": ["Mortal", "Mortal"], "to_move": to_move,
            "board": board, "workers": workers}


def texts(game: Game, turns) -> set[str]:  # noqa: ANN001
    return {format_turn(game.state, turn) for turn in turns}


def choice(agent, game: Game) -> str:  # noqa: ANN001
    return format_turn(game.state, agent.turn(game))


# ---- positions built by hand
#: A1 stands on level 2 at b2 beside level 3 at c2: 'move A1 c2' wins, and nothing else does (A2
#: and the other squares near A1 are low). B threatens a win too (B1 on level 2 at d4, e5 is 3):
#: an agent that only blocked would not win.
WIN_IN_ONE = mortal_position("0 0 0 0 3\n0 0 0 2 0\n0 0 0 0 0\n0 2 3 0 0\n0 0 0 0 0\n",
                             {"A1": "b2", "A2": "e1", "B1": "d4", "B2": "a5"})
#: B1 on level 2 at d4; its only level-3 neighbour is e5, so B wins next turn unless e5 is domed.
#: Only A1 (from c5, by d5) and A2 (from e3, by e4) can get next to e5; nothing else stops B1,
#: and A cannot win: the blocks are exactly these two turns.
BLOCK = mortal_position("0 0 0 0 3\n0 0 0 2 0\n0 0 0 0 0\n0 0 0 0 0\n0 0 0 0 0\n",
                        {"A1": "c5", "A2": "e3", "B1": "d4", "B2": "a1"})
BLOCKS = {"move A1 d5; build A1 e5", "move A2 e4; build A2 e5"}
#: B1 (a1) is walled in by domes on a2, b1 and level 2 on b2; B2 (e1) can only step to d2 (level
#: 1). A wins by leaving B no turn: A1 takes d2, or builds d2 up to level 2 (from c2 or d3).
STUCK = mortal_position("0 0 0 0 0\n0 0 0 0 0\n0 0 0 0 0\n0D 2 0 1 0D\n0 0D 0 0D 0\n",
                        {"A1": "c3", "A2": "c5", "B1": "a1", "B2": "e1"})


def test_the_hand_made_positions_are_what_their_comments_say(position) -> None:  # noqa: ANN001
    game = position(yaml.safe_dump(WIN_IN_ONE)).game
    engine = game.engine
    winners = {t for t in texts(game, engine.turns(game.state))
               if engine.play(game.state, parse_turn(game.state, t)).winner == 0}
    assert winners == {"move A1 c2"}
    game = position(yaml.safe_dump(BLOCK)).game
    turns = game.engine.turns(game.state)
    assert not game.engine.can_win(game.state) and len(turns) > 20
    blocking = {format_turn(game.state, t) for t in turns if not game.engine.can_win(game.engine.play(game.state, t))}
    assert blocking == BLOCKS
    game = position(yaml.safe_dump(STUCK)).game
    stuck = {format_turn(game.state, t) for t in game.engine.turns(game.state)
             if not game.engine.has_turn(game.engine.play(game.state, t))}
    assert stuck and all("A1 d2" in t or t.endswith("build A1 d2") for t in stuck)
    assert not game.engine.can_win(game.state)


@pytest.mark.parametrize("make", [lambda seed: GreedyAgent(random.Random(seed)),
                                  lambda seed: MctsAgent(BUDGET, random.Random(seed))], ids=["greedy", "mcts"])
def test_greedy_and_mcts_take_a_win_in_one(position, make) -> None:  # noqa: ANN001
    game = position(yaml.safe_dump(WIN_IN_ONE)).game
    for seed in range(3):
        assert choice(make(seed), game) == "move A1 c2"


@pytest.mark.parametrize("make", [lambda seed: GreedyAgent(random.Random(seed)),
                                  lambda seed: MctsAgent(BUDGET, random.Random(seed))], ids=["greedy", "mcts"])
def test_greedy_and_mcts_block_a_win_in_one(position, make) -> None:  # noqa: ANN001
    game = position(yaml.safe_dump(BLOCK)).game
    chosen = {choice(make(seed), game) for seed in range(4)}
    assert chosen <= BLOCKS


def test_greedy_picks_among_every_safe_turn(position) -> None:  # noqa: ANN001
    """Both blocks are safe, and the greedy agent's random pick reaches each of them."""
    game = position(yaml.safe_dump(BLOCK)).game
    chosen = [choice(GreedyAgent(random.Random(seed)), game) for seed in range(40)]
    assert set(chosen) == BLOCKS


def test_first_at_random_takes_the_first_wanted_turn_and_judges_no_further() -> None:
    judged: list[int] = []

    def wanted(turn: int) -> bool:
        judged.append(turn)
        return turn % 7 == 3
    assert first_at_random(iter([5, 8, 10, 17, 24, 31]), wanted) == 10
    assert judged == [5, 8, 10]
    judged.clear()
    assert first_at_random(iter([1, 2]), wanted) is None
    assert judged == [1, 2]


def test_mcts_wins_by_leaving_the_opponent_stuck(position) -> None:  # noqa: ANN001
    game = position(yaml.safe_dump(STUCK)).game
    for seed in range(2):
        turn = MctsAgent(BUDGET, random.Random(seed)).turn(game)
        assert not game.engine.has_turn(game.engine.play(game.state, turn))


def test_the_random_agent_is_the_game_loops_own() -> None:
    """Re-exported, not copied: games of random agents stay the engine's one loop."""
    from santorini.interpreter.games import play
    assert RandomAgent is play.RandomAgent


# ---- strength: whole Mortal games, the seats alternating
def play_games(count: int, first, second) -> tuple[int, int]:  # noqa: ANN001
    """(wins, losses) of `first(seed)` against `second(seed)` over `count` games, seats alternating."""
    template = new_game(resolve_pack("bga"), parse_players(["Mortal", "Mortal"]))
    wins = losses = 0
    for index in range(count):
        agents = [first(index), second(index)]
        seat = index % 2
        log = run_game(template.restart(), agents if seat == 0 else agents[::-1])
        if log.winner == "AB"[seat]:
            wins += 1
        elif log.winner is not None:
            losses += 1
    return wins, losses


def test_mcts_beats_random_in_at_least_90_of_100_games() -> None:
    start = time.perf_counter()
    wins, _ = play_games(100, lambda i: MctsAgent(BUDGET, random.Random(i)),
                         lambda i: RandomAgent(random.Random(10_000 + i)))
    print(f"mcts:{BUDGET} v random: {wins}/100 in {time.perf_counter() - start:.0f} s")
    assert wins >= 90


def test_mcts_beats_greedy_more_often_than_it_loses() -> None:
    start = time.perf_counter()
    wins, losses = play_games(20, lambda i: MctsAgent(BUDGET, random.Random(i)),
                              lambda i: GreedyAgent(random.Random(10_000 + i)))
    print(f"mcts:{BUDGET} v greedy: {wins} won, {losses} lost in {time.perf_counter() - start:.0f} s")
    assert wins > losses


def test_greedy_beats_random() -> None:
    wins, losses = play_games(20, lambda i: GreedyAgent(random.Random(i)),
                              lambda i: RandomAgent(random.Random(10_000 + i)))
    assert wins > 2 * losses


# ---- any cards, any number of seats
@pytest.mark.parametrize("gods", [["Apollo", "Athena"], ["Artemis", "Pan"], ["Minotaur", "Demeter"],
                                  ["Artemis", "Demeter", "Pan"], ["Apollo", "Athena", "Pan", "Demeter"]],
                         ids=lambda gods: "-".join(gods))
def test_mcts_and_greedy_play_whole_games_of_any_cards_and_seats(gods: list[str]) -> None:
    game = new_game(resolve_pack("bga"), parse_players(gods))
    agents = [MctsAgent(30, random.Random(1)), GreedyAgent(random.Random(2))] + \
             [RandomAgent(random.Random(3 + i)) for i in range(len(gods) - 2)]
    log = run_game(game, agents)  # every turn is checked by the engine as it is played
    assert log.winner is not None and log.turns


# ---- a seed gives the same game
@pytest.mark.parametrize("make", [lambda seed: GreedyAgent(random.Random(seed)),
                                  lambda seed: MctsAgent(40, random.Random(seed))], ids=["greedy", "mcts"])
def test_the_same_seed_gives_the_same_game(make) -> None:  # noqa: ANN001
    template = new_game(resolve_pack("bga"), parse_players(["Apollo", "Minotaur"]))

    def game(seed: int):  # noqa: ANN202
        return run_game(template.restart(), [make(seed), GreedyAgent(random.Random(seed + 1))])
    first, again, other = game(3), game(3), game(4)
    assert first.placements == again.placements and first.turns == again.turns
    assert (first.winner, first.reason) == (again.winner, again.reason)
    assert (first.placements, first.turns) != (other.placements, other.turns)


# ---- agents by name
@pytest.mark.parametrize(("spec", "kind"), [("random", RandomAgent), ("greedy", GreedyAgent), ("mcts:25", MctsAgent),
                                            ("MCTS", MctsAgent), ("external:mybot --level 3", ExternalAgent),
                                            ("external:2.5:mybot", ExternalAgent)])
def test_agent_specs_make_their_agents(spec: str, kind: type) -> None:
    agent = make_agent(spec, random.Random(0))
    assert type(agent) is kind
    if kind is MctsAgent:
        assert agent.iterations == (25 if spec == "mcts:25" else 400)
    if spec == "external:2.5:mybot":
        assert agent.timeout == 2.5 and agent.argv == ["mybot"]


@pytest.mark.parametrize(("spec", "message"), [
    ("alphazero", "unknown agent 'alphazero'; agents are random, greedy, mcts:ITERATIONS"),
    ("mcts:many", "whole number, 1 or more"), ("mcts:0", "whole number, 1 or more"),
    ("greedy:3", "greedy takes no setting"), ("external:", "external needs the bot's command"),
    ("external:0:bot", "more than 0"), ("external:'unclosed", "cannot read the command"),
])
def test_a_bad_agent_spec_is_one_clear_error(spec: str, message: str) -> None:
    with pytest.raises(AgentError, match=re.escape(message)):
        make_agent(spec, random.Random(0))
    assert issubclass(AgentError, SantoriniError)


# ---- positions for programs outside: written as the spec writes them, read back the same
@pytest.mark.parametrize("gods", [["Mortal", "Mortal"], ["Athena", "Prometheus"], ["Apollo", "Athena", "Pan"],
                                  ["Apollo", "Athena", "Pan", "Demeter"]], ids=lambda gods: "-".join(gods))
def test_written_positions_read_back_as_the_same_position(tmp_path: Path, gods: list[str]) -> None:
    template = new_game(resolve_pack("bga"), parse_players(gods))
    for seed in range(4):
        game = template.restart()
        rng = random.Random(seed)
        run_game(game, [RandomAgent(rng) for _ in gods], max_turns=6 + 4 * seed)
        if game.state.winner is not None:
            continue
        for name, document in (("position", position_document(game)), ("game", game_document(game))):
            path = tmp_path / f"{name}.yaml"
            path.write_text(dump(document), encoding="utf-8")
            loaded = load_scenario(path).game
            resolve_all_stuck(loaded)
            assert (loaded.state.hash, loaded.state.to_move, loaded.state.out) == \
                   (game.state.hash, game.state.to_move, game.state.out), (name, seed)
            if name == "game":  # exact: the same turns, even where a rule reads the last turn
                assert texts(loaded, loaded.engine.turns(loaded.state)) == texts(game, game.engine.turns(game.state))


def test_a_position_in_setup_reads_back_with_its_placing_seat(tmp_path: Path) -> None:
    from santorini.interpreter.games.game import place_workers
    game = new_game(resolve_pack("bga"), parse_players(["Apollo", "Athena", "Pan"]))
    for seat, squares in ((0, [0, 24]), (1, [12, 13]), (2, None)):
        path = tmp_path / "setup.yaml"
        path.write_text(dump(position_document(game, placing=seat)), encoding="utf-8")
        loaded = load_scenario(path)
        assert loaded.document.data["placing"] == "ABC"[seat]
        assert loaded.state.hash == game.state.hash and loaded.state.to_move == seat
        if squares:
            place_workers(game, seat, squares)


def test_a_request_reads_back_as_written() -> None:
    lines = request_lines("turn", "B", [("position", ["a: 1", "b: |", "  x"]), ("legal", ["move B1 c3; build B1 c4"]),
                                        ("later", [])])
    first, *rest = lines
    request = read_request(first, iter(rest))
    assert (request.kind, request.seat) == ("turn", "B")
    assert request.blocks == {"position": ["a: 1", "b: |", "  x"], "legal": ["move B1 c3; build B1 c4"], "later": []}


# ---- external agents
def bot_game(agent: ExternalAgent, seat: int = 0, gods: tuple[str, ...] = ("Mortal", "Mortal"), seed: int = 1):  # noqa: ANN201
    game = new_game(resolve_pack("bga"), parse_players(list(gods)))
    others = [GreedyAgent(random.Random(seed + i)) for i in range(len(gods))]
    agents = [agent if i == seat else others[i] for i in range(len(gods))]
    with agent:
        return run_game(game, agents)


@pytest.mark.parametrize(("gods", "seat"), [(("Mortal", "Mortal"), 0), (("Apollo", "Athena"), 1),
                                            (("Artemis", "Athena", "Pan"), 2)])
def test_the_example_bot_plays_whole_games_through_the_protocol(gods: tuple[str, ...], seat: int) -> None:
    agent = ExternalAgent([*EXAMPLE_BOT, "--seed", "4"])
    log = bot_game(agent, seat, gods)
    assert log.winner is not None and len(log.turns) > 2
    assert agent._bot is None  # closed: told to quit


def test_the_example_bot_is_deterministic_for_its_seed() -> None:
    first = bot_game(ExternalAgent([*EXAMPLE_BOT, "--seed", "7"]))
    again = bot_game(ExternalAgent([*EXAMPLE_BOT, "--seed", "7"]))
    assert (first.placements, first.turns) == (again.placements, again.turns)


#: A bot that writes each request's kind and `position-string` line to the file it is given,
#: and answers the first legal line (it reads the requests with the package's protocol reader).
LOGGING_BOT = r'''
import sys
from santorini.interpreter.agents.protocol import QUIT, read_request
log = open(sys.argv[1], "a", encoding="utf-8")
lines = iter(sys.stdin.readline, "")
next(lines)
print("ready logging-bot", flush=True)
for line in lines:
    if line.strip() == QUIT:
        break
    request = read_request(line, lines)
    log.write(request.kind + "\t" + request.blocks["position-string"][0] + "\n")
    log.flush()
    print(request.blocks["legal"][0], flush=True)
'''


def test_each_request_carries_the_position_as_a_string_that_reads_back(tmp_path: Path) -> None:
    """The `position-string` block is the position the bot is asked about: the placement's a
    position in setup with the workers placed so far, each turn's the position the bot's turn
    is played from (its turns, read back, are the turns the engine lists there: cards that read
    no earlier turn, which a position string does not hold)."""
    script, log_file = tmp_path / "bot.py", tmp_path / "log.txt"
    script.write_text(LOGGING_BOT, encoding="utf-8")
    game_log = bot_game(ExternalAgent([sys.executable, str(script), str(log_file)]), seat=1,
                        gods=("Pan", "Artemis"))
    requests = [line.split("\t") for line in log_file.read_text(encoding="utf-8").splitlines()]
    assert requests[0][0] == "place" and requests[0][1].endswith(" B placing")
    assert " A1" in requests[0][1] and " B1" not in requests[0][1]  # (A placed first)
    turns = [text for kind, text in requests[1:] if kind == "turn"]
    assert len(turns) == len(requests) - 1 == len(game_log.turns[1::2])
    replayed = santorini.Game(["Pan", "Artemis"])
    for placement in game_log.placements:
        replayed.play(placement)
    for number, text in enumerate(game_log.turns):
        if number % 2 == 1:  # (seat B's turn: the bot was asked from this position)
            assert turns[number // 2] == replayed.position()
            assert sorted(map(str, santorini.Game.from_position(turns[number // 2]).turns())) == \
                sorted(map(str, replayed.turns()))
        replayed.play(text)


#: A bot written without the library: it reads the protocol, places on the first legal
#: placement, then misbehaves at its first turn as its argument says.
BAD_BOT = r'''
import sys, time
mode = sys.argv[1]
lines = iter(sys.stdin.readline, "")
next(lines)
if mode == "no-ready":
    print("hello", flush=True)
print("ready test-bot", flush=True)
for line in lines:
    if line.strip() == "quit":
        break
    kind = line.split()[0]
    blocks = {}
    for header in lines:
        if header.strip() == "end":
            break
        name, count = header.split()
        blocks[name] = [next(lines).rstrip("\n") for _ in range(int(count))]
    if kind == "place":
        print(blocks["legal"][0] + ("\n" + blocks["legal"][0] if mode == "twice" else ""), flush=True)
    elif mode == "garbage":
        print("build me a tower", flush=True)
    elif mode == "illegal":
        print("pass", flush=True)
    elif mode == "far":
        print("move A1 e5; build A1 e4", flush=True)
    elif mode == "exit":
        print("something went wrong here", file=sys.stderr, flush=True)
        sys.exit(3)
    elif mode == "hang":
        time.sleep(60)
        sys.exit(4)  # (had the agent's timeout not fired: the test fails then, it does not hang)
    elif mode == "give-up":
        print("error I resign", flush=True)
    else:
        print(blocks["legal"][0], flush=True)
'''


@pytest.mark.parametrize(("mode", "message"), [
    ("no-ready", "answered the handshake with 'hello'; expected 'ready'"),
    ("garbage", "answered 'build me a tower', which is not a turn ("),
    ("illegal", "answered 'pass', which seat A may not play: "),
    ("far", "answered 'move A1 e5; build A1 e4', which seat A may not play: "),
    ("exit", "exited (code 3) before answering; expected one of seat A's legal turns in the spec's notation, such as "),
    ("hang", "did not answer within 1 s; expected one of seat A's legal turns"),
    ("give-up", "gave up: I resign"),
    ("twice", "wrote 'place A1 a1; place A2 b1' when no answer was due; expected one line for each request"),
])
def test_a_bot_that_breaks_the_protocol_gives_one_clear_error(tmp_path: Path, mode: str, message: str,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """One clear error, and the bot is stopped: its process has ended. A bot that hangs is given
    up on after the agent's timeout (the message says so); had that timeout not fired, the bot
    exits after 60 s and the test fails on its message (no clock is read here)."""
    script = tmp_path / "bot.py"
    script.write_text(BAD_BOT, encoding="utf-8")
    started: list[subprocess.Popen[str]] = []

    class Recorded(subprocess.Popen[str]):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            started.append(self)
    monkeypatch.setattr(subprocess, "Popen", Recorded)
    agent = ExternalAgent([sys.executable, str(script), mode], timeout=1.0)
    with pytest.raises(BotError) as raised:
        bot_game(agent)
    text = str(raised.value)
    assert text.startswith(f"bot '{agent.label}' (seat A) ") and message in text
    assert "\n" not in text and "Traceback" not in text
    if mode == "exit":
        assert "its last words on standard error: 'something went wrong here'" in text
    assert len(started) == 1 and started[0].poll() is not None  # the bot is not left running


def test_a_bot_that_answers_legal_turns_plays_a_whole_game(tmp_path: Path) -> None:
    script = tmp_path / "bot.py"
    script.write_text(BAD_BOT, encoding="utf-8")
    log = bot_game(ExternalAgent([sys.executable, str(script), "first-legal"]), seat=1)
    assert log.winner is not None


def test_a_bot_that_cannot_start_is_one_clear_error() -> None:
    with pytest.raises(BotError, match=r"^bot 'no-such-bot-here' cannot start: no such file or directory"):
        bot_game(ExternalAgent("no-such-bot-here"))


def test_a_bot_answering_a_placement_on_the_wrong_workers_is_refused(tmp_path: Path) -> None:
    script = tmp_path / "bot.py"
    script.write_text('import sys\nprint("ready", flush=True) if sys.stdin.readline() else None\n'
                      'for line in sys.stdin:\n    if line.strip() == "end":\n'
                      '        print("place A1 a1; place A2 a2", flush=True)\n', encoding="utf-8")
    with pytest.raises(BotError, match=r"expected a placement of workers B1, B2, each once"):
        bot_game(ExternalAgent([sys.executable, str(script)]), seat=1)


# ---- the command line
def run(*args: str):  # noqa: ANN201
    return CliRunner().invoke(main, list(args))


def test_play_with_agents_is_a_whole_game_and_deterministic() -> None:
    args = ("play", "--gods", "Mortal", "Mortal", "--agent", "A=mcts:50", "--agent", "B=greedy", "--seed", "5")
    first, again = run(*args), run(*args)
    assert first.exit_code == 0, first.output
    assert first.output == again.output
    assert "A: Mortal [mcts:50], B: Mortal [greedy]" in first.output.splitlines()[0]
    assert first.output.strip().splitlines()[-1].startswith("winner: ")


def test_play_without_agents_is_unchanged_by_them() -> None:
    """Random stays the default, with the same games from the same seed."""
    plain = run("play", "--gods", "Apollo", "Athena", "--seed", "7")
    named = run("play", "--gods", "Apollo", "Athena", "--seed", "7", "--agent", "A=random", "--agent", "B=random")
    assert plain.exit_code == named.exit_code == 0
    assert plain.output.splitlines()[1:] == named.output.splitlines()[1:]


def test_play_with_an_external_bot() -> None:
    command = " ".join([*EXAMPLE_BOT, "--seed", "2"])
    result = run("play", "--gods", "Apollo", "Athena", "--seed", "3", "--agent", f"B=external:{command}")
    assert result.exit_code == 0, result.output
    assert result.output.strip().splitlines()[-1].startswith("winner: ")


def test_play_with_a_broken_bot_exits_2_with_one_message(tmp_path: Path) -> None:
    script = tmp_path / "bot.py"
    script.write_text(BAD_BOT, encoding="utf-8")
    result = run("play", "--gods", "Mortal", "Mortal", "--seed", "3",
                 "--agent", f"A=external:1:{sys.executable} {script} hang")
    assert result.exit_code == 2
    assert result.output.strip().splitlines()[-1].startswith("error: bot ")
    assert "did not answer within 1 s" in result.output and "Traceback" not in result.output


@pytest.mark.parametrize(("args", "message"), [
    (["--agent", "A=alphazero"], "--agent A=alphazero: unknown agent 'alphazero'; agents are random, greedy"),
    (["--agent", "C=greedy"], "--agent C=greedy: seats are A, B"),
    (["--agent", "greedy"], "--agent greedy: write SEAT=AGENT, e.g. --agent A=mcts:400"),
    (["--agent", "A=mcts:zero"], "--agent A=mcts:zero: the iterations of mcts are a whole number"),
    (["--agent", "A=greedy", "--agent", "a=mcts"], "--agent a=mcts: seat A already has --agent A=greedy"),
    (["--agent", "B=greedy", "--human", "B"], "--agent B=greedy: seat B is played by --human B"),
])
def test_bad_agent_options_exit_2_with_a_message(args: list[str], message: str) -> None:
    result = run("play", "--gods", "Mortal", "Mortal", "--seed", "1", *args)
    assert result.exit_code == 2, result.output
    assert message in result.output and "Traceback" not in result.output


# ---- the guide
GUIDE = (REPO / "docs" / "agents.md").read_text(encoding="utf-8")


def test_the_guides_example_agent_runs_as_written() -> None:
    examples = re.findall(r"^```python\n(.+?)\n```", GUIDE, re.MULTILINE | re.DOTALL)
    assert examples
    for example in examples:
        exec(compile(example, "docs/agents.md", "exec"), {})  # noqa: S102 - our own guide


def test_the_guides_example_exchange_is_the_protocol(tmp_path: Path) -> None:
    """The exchange shown is what the engine writes: its handshake, its blocks, whose `game`
    document loads as a scenario, and whose answer is a legal turn there."""
    block = re.search(r"^```\n(> santorini-agent.+?)\n```", GUIDE, re.MULTILINE | re.DOTALL).group(1)
    lines = block.splitlines()
    from santorini.interpreter.agents.protocol import hello_line
    assert lines[0] == f"> {hello_line('A')}" and lines[1].startswith("< ready")
    engine_lines = [line[2:] for line in lines[2:lines.index("> end") + 1]]
    legal_at = next(i for i, line in enumerate(engine_lines) if line.startswith("legal "))
    string_at = engine_lines.index("position-string 1")
    # (the guide leaves most of `legal` out)
    shown = engine_lines[:legal_at] + ["legal 0"] + engine_lines[string_at:]
    request = read_request(shown[0], iter(shown[1:]))
    path = tmp_path / "game.yaml"
    path.write_text(request.text("game"), encoding="utf-8")
    game = load_scenario(path).game
    turns = texts(game, game.engine.turns(game.state))
    assert len(turns) == int(engine_lines[legal_at].split()[1])
    assert {line for line in engine_lines[legal_at + 1:string_at] if line != "..."} <= turns
    answer = lines[lines.index("> end") + 1]
    assert answer.startswith("< ") and answer[2:] in turns
    now = tmp_path / "position.yaml"
    now.write_text(request.text("position"), encoding="utf-8")
    assert load_scenario(now).state.hash == game.state.hash
    assert santorini.Game.from_position(request.blocks["position-string"][0]).state.hash == game.state.hash

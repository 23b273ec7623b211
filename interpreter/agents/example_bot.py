"""An example bot for the external-agent protocol (docs/agents.md): it wins when it can, and
otherwise plays a random legal turn.

Run it as the agent of a seat:

    santorini play --gods Mortal Mortal --agent A="external:python -m santorini.interpreter.agents.example_bot"

It talks to the engine only through the protocol, on its standard input and output. It uses
this library for what any bot must do with its own code: read the position the request gives
(the `game` block: a scenario document, loaded with `load_scenario`) and list the seat's turns,
to see which of them wins. A bot in another language would parse the same YAML and apply its own
rules, or just pick from the request's `legal` block, which lists every legal turn in notation.
Its messages for people go to standard error, never to standard output.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path

from ...dsl.errors import SantoriniError
from .protocol import ERROR, PLACE, QUIT, READY, VERSION, Request, read_hello, read_request


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=0, help="seed of the random choices (default 0)")
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    lines = _lines(sys.stdin)
    try:
        version, letter = read_hello(next(lines, ""))
        if version != VERSION:
            _say(f"{ERROR} this bot speaks protocol version {VERSION}, not {version}")
            return 1
        _say(f"{READY} example-bot")
        for line in lines:
            if line.strip() == QUIT:
                return 0
            request = read_request(line, lines)
            _say(choose(request, rng))
    except SantoriniError as err:  # (a ProtocolError too) said to the engine, which stops the game with it
        _say(f"{ERROR} {'; '.join(str(err).splitlines())}")
        return 1
    return 0  # the engine closed our input: the game is over


def choose(request: Request, rng: random.Random) -> str:
    """The answer to one request: a placement at random; a winning turn, else a random one."""
    legal = request.blocks.get("legal", [])
    if request.kind == PLACE:
        return rng.choice(legal)
    from ..games.game import resolve_all_stuck
    from ..games.scenario import load_scenario
    from ..model.notation import format_turn
    with tempfile.TemporaryDirectory() as folder:  # load_scenario reads a file
        path = Path(folder) / "position.yaml"
        path.write_text(request.text("game"), encoding="utf-8")
        game = load_scenario(path).game
    resolve_all_stuck(game)  # seats that cannot play after the last turn are settled, as in the game
    state, engine = game.state, game.engine
    team = state.seats[state.to_move].team
    turns = engine.turns(state)
    winning = [turn for turn in turns if engine.play(state, turn).winner == team] if engine.can_win(state) else []
    return format_turn(state, rng.choice(winning or turns))


def _lines(stream: Iterable[str]) -> Iterator[str]:
    for line in stream:
        yield line.rstrip("\r\n")


def _say(line: str) -> None:
    print(line, flush=True)


if __name__ == "__main__":
    sys.exit(main())

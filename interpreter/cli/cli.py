"""The `santorini` command: check, scenario, perft, cards, show, play, replay, bench, balance.

Exit codes: 0 ok, 1 failed (a scenario failed, a check found faults, a replay parted ways),
2 bad input (an unknown name, a malformed file or argument). Errors are one clear message, never a
traceback.
"""

from __future__ import annotations

import math
import os
import random
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, SupportsFloat, SupportsIndex

import click
from click.core import ParameterSource

from ...dsl.errors import SantoriniError, SourceError
from ..engine.views import redacted_steps
from ..games.game import Game, SetupError, new_game, parse_players
from ..games.human import HumanAgent, InputEnded, last_turn_marks
from ..games.offer import OfferKind, select_powers
from ..games.packs import MORTAL, Pack, UnknownName, resolve_pack
from ..games.play import Agent, GameLog, GameStopped, RandomAgent, place_all, play_turns, stopped
from ..model.notation import format_turn
from .balance import EXIT_INTERRUPTED, balance
from .bots import bot_stderr_of, bot_stderr_option
from .common import EXIT_BAD_INPUT, EXIT_FAILED, EXIT_OK, PACK_OPTION, P, R, bad_input, reports_bad_input
from .render import render

if TYPE_CHECKING:
    from ..games.scenario import Scenario

# Commands that read YAML files import their modules when they run: `santorini cards` and
# `santorini play` then start without loading the YAML and JSON Schema libraries.


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="santorini-rules")
def main() -> None:
    """Santorini rules engine: god powers written as data, one generic turn interpreter."""


@main.command()
@click.argument("paths", nargs=-1)
@reports_bad_input
def check(paths: tuple[str, ...]) -> None:
    """Validate packs, cards, modes, scenarios and records (default: every shipped pack).

    Runs every stage (schema, parse, check, compile) and prints every fault as
    file:line:col: message. Exits 1 if a fault was found.
    """
    missing = [p for p in paths if not Path(p).exists()]
    if missing:
        bad_input(f"no such file or folder: {', '.join(missing)}")
    from ..games.validate import check_paths
    checked, errors = check_paths(list(paths))
    for error in errors:
        click.echo(str(error))
    click.echo(f"{checked} files checked, {len(errors)} faults")
    sys.exit(EXIT_FAILED if errors else EXIT_OK)


@main.command()
@click.argument("paths", nargs=-1, required=True)
@reports_bad_input
def scenario(paths: tuple[str, ...]) -> None:
    """Run scenario files (or every *.yaml under folders): PASS/FAIL per scenario, then a tally."""
    missing = [p for p in paths if not Path(p).exists()]
    if missing:
        bad_input(f"no such file or folder: {', '.join(missing)}")
    from ..games.scenario import run_scenarios, scenario_files
    from .progress import progress
    with progress("scenarios", len(scenario_files(list(paths))), "files") as advance:
        result = run_scenarios(list(paths), on_file=lambda _: advance(1))
    for line in result.lines:
        click.echo(line)
    click.echo(f"{result.passed} passed, {result.failed} failed")
    sys.exit(EXIT_BAD_INPUT if result.faults else EXIT_FAILED if result.failed else EXIT_OK)


@main.command()
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@click.option("--depth", type=click.IntRange(1, 12), required=True, help="Count up to this depth (1 to 12).")
@reports_bad_input
def perft(file: str, depth: int) -> None:
    """Count the leaves of the tree of distinct outcomes from a scenario's position.

    Prints `depth: count` for each depth. From depth 4 on, it first says how large the run
    will be (an estimate from the counts so far), and a terminal gets a progress bar."""
    from ..games.scenario import load_scenario
    from .progress import progress
    loaded = load_scenario(file)
    engine, state = loaded.game.engine, loaded.state
    counts: list[int] = []
    for d in range(1, depth + 1):
        if d < 4 or not counts or not counts[-1]:
            counts.append(engine.perft(state, d))
        else:
            growth = counts[-1] / (counts[-2] if len(counts) > 1 and counts[-2] else 1)
            click.echo(f"depth {d}: about {counts[-1] * growth:.3g} leaves (each depth so far multiplied the "
                       f"count by about {growth:.3g})", err=True)
            parts = engine.outcomes(state)
            total = 0
            with progress(f"depth {d}", len(parts), "outcomes") as advance:
                for count in engine.perft_divided(state, d):
                    total += count
                    advance(1)
            counts.append(total)
        click.echo(f"{d}: {counts[-1]}")


def _pack(name: str) -> Pack:
    try:
        return resolve_pack(name)
    except UnknownName as err:
        bad_input(str(err))


if TYPE_CHECKING:  # ParamType is generic from click 8.4 on (the value it gives, what it reads)
    _FloatParam = click.ParamType[float, object]
else:
    _FloatParam = click.ParamType


class _Seconds(_FloatParam):
    """A finite duration in seconds, 0.1 to a day: 'nan' would play nothing and 'inf' never stop."""

    name = "seconds"

    def convert(self, value: object, param: click.Parameter | None, ctx: click.Context | None) -> float:
        try:
            if not isinstance(value, (str, bytes, SupportsFloat, SupportsIndex)):
                raise TypeError(value)
            seconds = float(value)
        except (TypeError, ValueError):
            self.fail(f"{value!r} is not a number of seconds", param, ctx)
        if not math.isfinite(seconds) or not 0.1 <= seconds <= 86400:
            self.fail(f"{value!r}: give a finite number of seconds from 0.1 to 86400", param, ctx)
        return seconds


SECONDS = _Seconds()

@main.command()
@PACK_OPTION
@reports_bad_input
def cards(pack_name: str) -> None:
    """List a pack's cards: name, tier, summary (one line each)."""
    pack = _pack(pack_name)
    from .display import show_table
    rows = [(MORTAL, "-", "No power: the base rules only.")]
    rows += [(c.name, c.tier or c.kind, c.summary) for c in sorted(pack.cards.values(), key=lambda c: c.name)]
    width = max(len(r[0]) for r in rows)
    show_table(("card", "tier", "summary"), rows,
               [f"{name:<{width}}  {tier:<8}  {summary}" for name, tier, summary in rows])


@main.command()
@click.argument("name")
@PACK_OPTION
@reports_bad_input
def show(name: str, pack_name: str) -> None:
    """Show one card: title, summary, printed text, rules, bans."""
    pack = _pack(pack_name)
    card = pack.card(name)
    if card is None:
        card = pack.base
        click.echo(f"{MORTAL}: no power; the pack's base rules apply ({card.path}).\n")
    click.echo(f"{card.name}, {card.title}  [{card.kind}{', ' + card.tier if card.tier else ''}; "
               f"players {', '.join(map(str, card.players))}; pack {pack.name}]")
    text = "\n".join(f"  {line}" for line in card.text.strip().splitlines())
    click.echo(f"\n{card.summary}\n\nCard text:\n{text}\n\nRules:")
    for line in card.rules.rstrip().splitlines():
        click.echo(f"  {line}")
    click.echo(f"\nBans: {', '.join(card.bans) if card.bans else 'none'}")
    _show_speed(pack, card.name if card is not pack.base else MORTAL)


def _show_speed(pack: Pack, name: str) -> None:
    """How the engine runs the card's turns against a Mortal (Engine.paths): which parts it
    lowers to fast code, and which it leaves to the generic chain."""
    try:
        game = new_game(pack, parse_players([name, MORTAL]))
    except SetupError as error:
        click.echo(f"\nSpeed: not shown ({error}).")
        return
    click.echo("\nSpeed (its seat against a Mortal):")
    for line in game.engine.paths(0):
        click.echo(f"  {line}")


def _make_game(pack_name: str, gods: tuple[str, ...], mode: str | None) -> Game:
    pack = _pack(pack_name)
    return new_game(pack, parse_players(list(gods)), mode)


class SeatsCommand(click.Command):
    """A command whose `--gods` takes one name per seat: `--gods G1 G2 G3`. The words after
    `--gods`, up to the next option, are its values (`--gods G1 --gods G2` says the same)."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        return super().parse_args(ctx, spread_gods(args))


def spread_gods(args: list[str]) -> list[str]:
    """`--gods A B C` as `--gods A --gods B --gods C`, for an option with multiple=True."""
    spread: list[str] = []
    index = 0
    while index < len(args):
        arg = args[index]
        index += 1
        spread.append(arg)
        if arg == "--":
            spread.extend(args[index:])
            break
        if arg == "--gods" or arg.startswith("--gods="):
            if arg == "--gods" and index < len(args):
                spread.append(args[index])  # its first value, as click reads it
                index += 1
            while index < len(args) and not args[index].startswith("-"):
                spread += ["--gods", args[index]]
                index += 1
    return spread


def gods_option(what: str) -> Callable[[Callable[P, R]], Callable[P, R]]:
    return click.option("--gods", multiple=True, required=True, metavar="GOD...",
                        help=f"{what}, one name per seat in seat order (Mortal for none): "
                             "--gods G1 G2 for two players, --gods G1 G2 G3 for three, --gods G1 G2 G3 G4 "
                             "for four (two teams: A and C, B and D, as the pack's 4-player mode pairs them).")


PLAYERS_OPTION = click.option("--players", "players", type=int, default=None, metavar="N",
                              help="The number of seats (default: one per name of --gods; if given, it "
                                   "must match them).")


def _seat_names(gods: tuple[str, ...], players: int | None) -> tuple[str, ...]:
    """The --gods names, checked against --players."""
    if players is not None and players != len(gods):
        bad_input(f"--players {players}, but --gods names {len(gods)} seat{'s' if len(gods) != 1 else ''} "
                  f"({' '.join(gods)}): give one power per seat (Mortal for none)")
    if len(gods) < 2:
        bad_input(f"--gods names {len(gods)} seat ({' '.join(gods)}); a game has at least 2: "
                  "give one power per seat, e.g. --gods G1 G2")
    return gods


PLAY_GODS_OPTION = click.option(
    "--gods", multiple=True, metavar="GOD...",
    help="The seats' powers, one name per seat in seat order (Mortal for none): --gods G1 G2 for two players, "
         "--gods G1 G2 G3 for three, --gods G1 G2 G3 G4 for four (two teams: A and C, B and D, as the pack's "
         "4-player mode pairs them). Required unless --from gives the players.")


@main.command(cls=SeatsCommand)
@PACK_OPTION
@PLAY_GODS_OPTION
@PLAYERS_OPTION
@click.option("--mode", default=None, help="Mode name (default: the pack's standard mode for the number of players).")
@click.option("--seed", type=int, default=None, help="Seed of the players' random choices (default: random).")
@click.option("--human", "humans", multiple=True, metavar="SEAT",
              help="Seat letter played from the keyboard (repeatable); type 'help' at its prompts.")
@click.option("--agent", "agent_specs", multiple=True, metavar="SEAT=AGENT",
              help="The agent that plays a seat (repeatable): random (the default), greedy, mcts:ITERATIONS, "
                   "external:COMMAND (a bot program; see docs/agents.md), e.g. --agent A=mcts:400.")
@click.option("--record", "record_path", type=click.Path(dir_okay=False), default=None,
              help="Write the game record (YAML) here: when the game ends, and when it is stopped (quit, "
                   "Ctrl-C, the end of input). From --from, the record is a scenario file.")
@click.option("--from", "from_path", default=None, metavar="FILE",
              help="Start from a scenario file's position (its pack, mode, players, board and history), or a "
                   "one-line position string, and play on from there; not with --pack, --gods, --players or --mode.")
@click.option("--setup", "offer", type=click.Choice([kind.value for kind in OfferKind]), default=None,
              help="Share out the powers as the pack's selection of powers says (bga: Board Game Arena's "
                   "quick, tournament or custom setup), every choice drawn from the seed; --players N "
                   "players (default 2), not with --gods.")
@bot_stderr_option("show")
@reports_bad_input
def play(pack_name: str, gods: tuple[str, ...], players: int | None, mode: str | None, seed: int | None,
         humans: tuple[str, ...], agent_specs: tuple[str, ...], record_path: str | None,
         from_path: str | None, offer: str | None, bot_stderr: str) -> None:
    """Play a whole game, printed turn by turn; random players unless --human or --agent.

    With three players, a seat that cannot complete a turn is out (its workers leave the board)
    and the others play on: the last one left wins, unless someone wins first. With four, the
    pack's mode makes two teams (A and C, B and D) that share their workers and win together.
    A human seat types 'help' for its commands (undo, list, board, quit; see docs/playing.md)."""
    if offer is not None and (gods or from_path is not None):
        bad_input("--setup shares out the powers itself: give --players N, not --gods or --from")
    if from_path is None and not gods and offer is None:
        bad_input("give the seats' powers (--gods G1 G2, one per seat), a selection of powers (--setup quick) or a "
                  "position to start from (--from FILE)")
    if seed is None:
        seed = random.SystemRandom().randrange(2**31)
    if offer is not None:
        selection = select_powers(_pack(pack_name), players or 2, OfferKind(offer), random.Random(f"{seed}:setup"))
        for line in selection.told:
            click.echo(f"setup: {line}")
        gods = selection.powers
    scenario = _scenario_to_play(from_path) if from_path is not None else None
    game = scenario.game if scenario is not None else _make_game(pack_name, _seat_names(gods, players), mode)
    if record_path:
        _check_writable(record_path)
    letters = [s.letter for s in game.state.seats]
    for seat in humans:
        if seat.upper() not in letters:
            bad_input(f"--human {seat}: seats are {', '.join(letters)}")
    chosen = _seat_agents(agent_specs, letters, humans)
    rng = random.Random(seed)
    from .display import show_board
    human_seats = {h.upper() for h in humans}
    agents = [HumanAgent(draw=show_board) if s.letter in human_seats else _agent(chosen.get(s.letter), rng, bot_stderr)
              for s in game.state.seats]
    labels = ", ".join(f"{s.letter}: {p.label}{f' [{chosen[s.letter]}]' if s.letter in chosen else ''}"
                       for s, p in zip(game.state.seats, game.players, strict=True))
    if scenario is not None:
        letter = game.state.seats[game.state.to_move].letter
        click.echo(f"from {from_path} ({scenario.name}): seat {letter} to move")
    click.echo(f"pack {game.pack.name}, mode {game.mode.name}, seed {seed}; {labels}{_teams_line(game)}")
    if scenario is not None and not human_seats:
        show_board(game.state)

    # (with a person at the keyboard, what a card hides from a human seat is not printed)
    hidden = frozenset(h for seat, s in enumerate(game.state.seats) if s.letter in human_seats
                       for h in game.engine.secrets.hidden_from(game.state, seat))

    def placed(g: Game, seat: int, text: str) -> None:
        shown = format_turn(g.state, redacted_steps(seat, g.placements[-1], hidden)) if hidden else text
        click.echo(f"setup {g.state.seats[seat].letter}: {shown or 'a secret placement'}")
        if not human_seats:  # (a human seat draws the board when it is its turn to choose)
            show_board(g.state)

    def turned(g: Game, seat: int, text: str) -> None:
        shown = format_turn(g.state, redacted_steps(seat, g.state.history[-1].steps, hidden)) if hidden else text
        click.echo(f"\nturn {len(g.state.history)} {g.state.seats[seat].letter}: {shown}")
        if not human_seats:
            show_board(g.state)

    def stuck(g: Game, seat: int, text: str) -> None:
        click.echo(f"\n{text}")

    def taken_back(g: Game, seat: int, taken: list[str]) -> None:
        click.echo(f"\nseat {g.state.seats[seat].letter} took back {len(taken)} turn{'s' if len(taken) != 1 else ''}; "
                   f"back to turn {len(g.state.history) + 1}:")
        for text in taken:
            click.echo(f"  {text}")

    log = GameLog(game.state)
    status, error, ended = EXIT_OK, None, False
    try:
        try:
            if scenario is None:
                place_all(game, agents, log, placed)
            play_turns(game, agents, log, on_turn=turned, on_stuck=stuck, on_take_back=taken_back)
            ended = True
        finally:
            if chosen:
                from ..agents.registry import close_agents
                close_agents(agents)
    except InputEnded as err:  # (bad input: the record is kept, then the message and exit code 2)
        stopped(log, "the input ended")
        status, error = EXIT_BAD_INPUT, str(err)
    except GameStopped as err:  # (a player quit: no winner, exit code 0)
        stopped(log, str(err))
    except (KeyboardInterrupt, click.Abort):
        click.echo()
        stopped(log, "interrupted (Ctrl-C)")
        status = EXIT_INTERRUPTED
    if human_seats and ended:  # (the position the game ended in, its last turn marked)
        click.echo()
        show_board(game.state, last_turn_marks(game.state))
    click.echo(f"\n{'winner: ' + _winner(game, log.winner) if log.winner else 'no winner'} ({log.reason})")
    if record_path:
        from ..games.records import record_text, scenario_record_text
        text = record_text(game, log, seed) if scenario is None else \
            scenario_record_text(scenario.document, game, log)
        if not _write_record(record_path, text) and status == EXIT_OK:
            status = EXIT_FAILED
    if error is not None:
        bad_input(error)
    sys.exit(status)


def _scenario_to_play(path: str) -> Scenario:
    """The scenario `play --from` starts from: its position, with its history played. A file
    that is not a scenario, or a position that cannot be played on (in setup, or a game that is
    over), is one located error; options that the file decides are refused."""
    context = click.get_current_context()
    given = [f"--{name}" for name in ("pack", "gods", "players", "mode")
             if context.get_parameter_source("pack_name" if name == "pack" else name) is ParameterSource.COMMANDLINE]
    if given:
        bad_input(f"--from {path}: the scenario gives the pack, the mode and the players; leave out {', '.join(given)}")
    from ..games.scenario import ScenarioError, load_scenario
    if not Path(path).is_file() and " " in path.strip():  # (a one-line position string)
        from ..games.position import scenario_from_position
        scenario = scenario_from_position(path)
    elif not Path(path).is_file():
        bad_input(f"--from {path}: {'that is a folder' if Path(path).is_dir() else 'no such file'}; "
                  "give a scenario file or a position string")
    else:
        scenario = load_scenario(path)
    document, state = scenario.document, scenario.state

    def fail(key: str, message: str) -> ScenarioError:
        line, column = document.position((key,))
        return ScenarioError([SourceError(document.path, line, column, message)])
    if "placing" in document.data:
        raise fail("placing", "a position in setup ('placing'): play --from starts from a position in play; "
                              "place the workers in the file ('workers') and leave out 'placing'")
    if state.winner is not None:
        raise fail("history", f"the game is over after this history (winner {state.team_letters[state.winner]}): "
                              "there is nothing to play on")
    return scenario


def _write_record(path: str, text: str) -> bool:
    """Write the record; if it cannot be written, keep the game on standard output. Whether it
    was written."""
    try:
        Path(path).write_text(text, encoding="utf-8")
    except OSError as err:  # the game is played: keep it, on standard output
        click.echo(f"error: cannot write the record to {path}: {(err.strerror or str(err)).lower()}; "
                   "here it is:", err=True)
        click.echo(text, nl=False)
        return False
    click.echo(f"record written to {path}")
    return True


def _seat_agents(specs: tuple[str, ...], letters: list[str], humans: tuple[str, ...]) -> dict[str, str]:
    """--agent SEAT=AGENT by seat letter, each spec checked: a seat of the game, given once, and
    not played by --human too."""
    if not specs:
        return {}
    from ..agents.registry import parse_agent_spec
    chosen: dict[str, str] = {}
    for text in specs:
        seat, equals, spec = text.partition("=")
        seat = seat.strip().upper()
        if not equals or not seat or not spec.strip():
            bad_input(f"--agent {text}: write SEAT=AGENT, e.g. --agent A=mcts:400")
        if seat not in letters:
            bad_input(f"--agent {text}: seats are {', '.join(letters)}")
        if seat in chosen:
            bad_input(f"--agent {text}: seat {seat} already has --agent {seat}={chosen[seat]}")
        if seat in {h.upper() for h in humans}:
            bad_input(f"--agent {text}: seat {seat} is played by --human {seat}; give it one or the other")
        try:
            parse_agent_spec(spec)
        except SantoriniError as err:
            bad_input(f"--agent {text}: {err}")
        chosen[seat] = spec.strip()
    return chosen


def _agent(spec: str | None, rng: random.Random, bot_stderr: str = "show") -> Agent:
    """The agent of an --agent spec (an external bot's standard error sent where --bot-stderr
    says); a random player (as before --agent) without one."""
    if spec is None:
        return RandomAgent(rng)
    from ..agents.registry import make_agent
    return make_agent(spec, rng, bot_stderr_of(bot_stderr))


def _check_writable(path: str) -> None:
    """Refuse a record path that cannot be written, before a game is played into it."""
    target = Path(path)
    folder = target.parent if str(target.parent) else Path(".")
    if target.is_dir():
        bad_input(f"--record {path}: that is a folder; give a file name")
    if not folder.is_dir():
        bad_input(f"--record {path}: there is no folder {folder}")
    if not os.access(folder, os.W_OK) or (target.exists() and not os.access(target, os.W_OK)):
        bad_input(f"--record {path}: cannot write there (permission denied)")


def _team_seats(game: Game) -> dict[str, list[str]]:
    """Each team's letter and the letters of its seats."""
    teams: dict[str, list[str]] = {}
    for seat in game.state.seats:
        teams.setdefault(game.state.team_letters[seat.team], []).append(seat.letter)
    return teams


def _teams_line(game: Game) -> str:
    """'; teams A (A, C), B (B, D)' in team play; nothing when every player is alone."""
    teams = _team_seats(game)
    if all(len(seats) == 1 for seats in teams.values()):
        return ""
    return "; teams " + ", ".join(f"{team} ({', '.join(seats)})" for team, seats in teams.items())


def _winner(game: Game, team: str) -> str:
    """'A', or 'team A (A, C)' when the winning team has several seats."""
    seats = _team_seats(game)[team]
    return team if len(seats) == 1 else f"team {team} ({', '.join(seats)})"


@main.command()
@click.argument("first")
@click.argument("second")
@reports_bad_input
def diff(first: str, second: str) -> None:
    """List, card by card, what changes from pack FIRST to pack SECOND."""
    from ..games.packs import diff_packs, pack_differences
    from .display import show_table
    one, other = _pack(first), _pack(second)
    changes = diff_packs(one, other)
    if not changes:
        click.echo(f"{first} and {second} have the same cards and rules")
        return
    rows = []
    for difference in pack_differences(one, other):
        if difference.only_in is not None:
            rows.append((difference.label, "only in", difference.only_in if difference.only_in == one.name else "",
                         difference.only_in if difference.only_in == other.name else ""))
        for name in difference.fields:
            a, b = difference.values[name]
            rows.append((difference.label, name, _cell_text(a), _cell_text(b)))
    show_table(("card", "what", one.name, other.name), rows, changes)


def _cell_text(value: object) -> str:
    """A field's value in a table cell (rules keep their lines)."""
    if isinstance(value, tuple):
        return ", ".join(map(str, value)) or "(none)"
    return str(value).strip()


@main.command("replay")
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@click.option("--pack", "pack_name", default=None, help="Replay under this pack (default: the record's).")
@reports_bad_input
def replay_command(file: str, pack_name: str | None) -> None:
    """Replay a game record, under its own pack or another one, and report where they part."""
    from ..games.records import replay
    report = replay(file, pack_name)
    click.echo(report.message)
    sys.exit(EXIT_OK if report.same else EXIT_FAILED)


@main.command(cls=SeatsCommand)
@PACK_OPTION
@gods_option("The seats' powers")
@PLAYERS_OPTION
@click.option("--seconds", type=SECONDS, default=5.0, show_default=True, help="How long to play (0.1 to 86400).")
@click.option("--seed", type=int, default=1, show_default=True)
@reports_bad_input
def bench(pack_name: str, gods: tuple[str, ...], players: int | None, seconds: float, seed: int) -> None:
    """Random playouts from S0 (A on b3 d3, B on c4 c2; a third seat and more place at random):
    every turn enumerates all the distinct outcomes and picks one uniformly. Prints the wins of
    each seat (a first look at balance); the last line reads `games/s: X`."""
    from ..games.bench import run_bench
    from .progress import progress
    pack, names = _pack(pack_name), list(_seat_names(gods, players))
    engine = _make_game(pack_name, tuple(names), None).engine
    for seat, name in enumerate(names):
        click.echo(f"seat {chr(ord('A') + seat)} ({name}): " + "; ".join(engine.paths(seat)))
    with progress("bench", seconds, "s") as advance:
        result = run_bench(pack, names, seconds, seed, on_progress=advance)
    click.echo(f"games: {result.games}")
    click.echo(f"turns: {result.turns}")
    click.echo("wins: " + ", ".join(f"{seat} {count} ({count / result.games:.1%})"
                                    for seat, count in result.wins.items()))
    click.echo(f"elapsed: {result.elapsed:.2f}")
    click.echo(f"games/s: {result.games / result.elapsed:.1f}")


main.add_command(balance)
main.add_command(render)


@main.command()
@click.option("--host", default="127.0.0.1", show_default=True,
              help="The address to listen on (this machine only, unless told otherwise).")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True,
              help="The port to listen on (0: any free port).")
@click.option("--pack", "packs", multiple=True, type=click.Path(exists=True, file_okay=False),
              help="Offer your own pack too: the folder of its pack.yaml (repeatable).")
@reports_bad_input
def serve(host: str, port: int, packs: tuple[str, ...]) -> None:
    """Start the web playground (play any cards in the browser) and print its address."""
    from ...web import serve as serve_playground
    try:
        serve_playground(host, port, announce=click.echo, packs=[Path(folder) for folder in packs])
    except OSError as error:
        bad_input(f"cannot listen on {host}:{port}: {error.strerror or error}")
    except KeyboardInterrupt:
        click.echo("stopped")

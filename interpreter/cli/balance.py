"""`santorini balance`: play a card against others (or a whole pack) many times, and report.

The work is done by santorini.interpreter.balance (run.py); this module reads the options, shows
progress, and prints the plan, an estimate of its time, a summary per opponent and where the report is.

Before the games, a few of them are played here to measure the run (run.py, `Estimate`), and the
estimate is printed when the run will take long enough for it to matter (ESTIMATE_FROM). Above
ASK_ABOVE, and only when standard input is a terminal, the command asks before it goes on
(`--yes` does not ask); a script or CI job is never stopped by a question it cannot answer.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Sequence
from contextlib import ExitStack
from pathlib import Path
from typing import TYPE_CHECKING

import click

from ...dsl.errors import SantoriniError
from .bots import bot_stderr_of, bot_stderr_option
from .common import EXIT_FAILED, PACK_OPTION, bad_input, reports_bad_input

if TYPE_CHECKING:
    from ..balance.records import GameResult
    from ..balance.run import Estimate

#: The exit code of a run stopped by Ctrl-C (128 + SIGINT), as shells give it.
EXIT_INTERRUPTED = 130

#: The defaults: a first look at a card that ends in a few minutes on a laptop's two cores. One card
#: against all of bga's is 76 seat-ordered matchups x 5 = 380 games, measured at 0.74 s of one core
#: each (about 2 min 20 s on two free cores; docs/balance.md). A verdict wants more games and a
#: stronger agent: the report says how sure each figure is.
DEFAULT_GAMES, DEFAULT_AGENT = 5, "mcts:50"
#: Runs estimated to take less (seconds) start without an estimate: it would be read after they end.
ESTIMATE_FROM = 30.0
#: Runs estimated to take more (seconds) ask before they start, on a terminal, unless --yes.
ASK_ABOVE = 600.0
#: Where `--bot-stderr log` (the default) appends a run's bots' standard error, in its folder.
BOT_LOG = "bot-stderr.log"


class Declined(SantoriniError):
    """The person at the terminal chose not to start a long run."""


#: The bounds of the options that size a run. They are plan.MAX_GAMES, plan.MAX_TURNS and
#: plan.SEED_MIN/SEED_MAX, written out here so that `--help` does not import the balance package
#: (test_balance_faults checks that they agree); MAX_JOBS bounds the processes one machine starts.
MAX_GAMES, MAX_TURNS, MAX_JOBS = 500_000, 10_000, 1024
SEED_MIN, SEED_MAX = -(2**63), 2**63 - 1


def _at_most(limit: int, why: str) -> Callable[[click.Context, click.Parameter, int | None], int | None]:
    """An option's upper bound, checked after its type's lower one (so that 0 keeps the message
    'not in the range x>=1'): a count that sizes a run is refused at once, not after a long plan."""
    def check(context: click.Context, parameter: click.Parameter, value: int | None) -> int | None:
        if value is not None and value > limit:
            raise click.BadParameter(f"{value} is more than {limit}, {why}")
        return value
    return check


#: The summary's columns.
HEADERS = ("god", "opponent", "games", "win rate", "95% interval", "first seat", "turns", "climb/power/stuck/limit", "")


@click.command()
@PACK_OPTION
@click.option("--gods", "gods", multiple=True, metavar="NEW[,NEW2]",
              help="The cards under test, separated by commas (repeatable); Mortal is a card too.")
@click.option("--against", default="all", show_default=True, metavar="all|G1,G2",
              help="Their opponents: 'all' (every card of the pack, Mortal included, that the bans allow and "
                   "that two players may hold) or cards separated by commas.")
@click.option("--matrix", is_flag=True, help="Play every pair of the pack's two-player cards, Mortal included "
                                             "(bans respected, no card against itself), instead of --gods.")
@click.option("--games", type=click.IntRange(min=1), default=DEFAULT_GAMES, show_default=True,
              callback=_at_most(MAX_GAMES, f"the most games per seat order (a run plays at most {2 * MAX_GAMES})"),
              help=f"Games per seat order: each pair plays 2 x N games, N with each card in the first seat "
                   f"(at most {MAX_GAMES}; a run plays at most {2 * MAX_GAMES} games in all).")
@click.option("--agent", default=DEFAULT_AGENT, show_default=True,
              help="The agent both seats play with: random, greedy, mcts:ITERATIONS, external:COMMAND. The "
                   "defaults (--games, --agent) are a first look that ends in minutes; a verdict wants more games "
                   "and a stronger agent (e.g. --games 100 --agent mcts:400).")
@click.option("--jobs", type=click.IntRange(min=1), default=None,
              callback=_at_most(MAX_JOBS, "the most processes a run starts"),
              help=f"Worker processes (local) or CPUs (local Ray); default: the number of cores, at most "
                   f"{MAX_JOBS}. 1 plays in this process.")
@click.option("--backend", type=click.Choice(["local", "ray"]), default="local", show_default=True,
              help="local: a pool of processes on this machine; ray: Ray tasks (pip install "
                   "'santorini-rules[ray]').")
@click.option("--address", default=None, help="With --backend ray: the address of a running Ray cluster "
                                              "(default: start Ray on this machine).")
@click.option("--seed", type=click.IntRange(min=SEED_MIN, max=SEED_MAX), default=1, show_default=True,
              help="The run's seed, a 64-bit integer (-2^63 to 2^63-1, what the store keeps): game i of a "
                   "matchup is seeded from (seed, matchup, i).")
@click.option("--out", "out", type=click.Path(file_okay=False), default="balance-run", show_default=True,
              help="The run's folder: results.sqlite (results as they arrive; the same command again "
                   "resumes), the report and the raw results. A folder holds one run: a run with other "
                   "settings (agent, seed, games, cards, pack rules) is refused there.")
@click.option("--max-turns", type=click.IntRange(min=1), default=300, show_default=True,
              callback=_at_most(MAX_TURNS, "the longest turn limit"),
              help=f"Turns (both seats') after which a game ends with no winner (at most {MAX_TURNS}).")
@click.option("--batch", type=click.IntRange(min=1), default=None,
              help="Games per task sent to a worker (default: about 8 tasks per worker, at most 32 games).")
@click.option("--html", is_flag=True, help="Write the report as HTML (report.html) instead of Markdown (report.md).")
@click.option("--quiet", is_flag=True, help="No progress bar.")
@click.option("--yes", "-y", "yes", is_flag=True,
              help=f"Start without asking, however long the estimate (a run estimated above {ASK_ABOVE / 60:g} "
                   "minutes asks first when standard input is a terminal).")
@bot_stderr_option("log", own_log=f"{BOT_LOG} in the run's folder (--out)")
@reports_bad_input
def balance(pack_name: str, gods: tuple[str, ...], against: str, matrix: bool, games: int, agent: str,
            jobs: int | None, backend: str, address: str | None, seed: int, out: str, max_turns: int,
            batch: int | None, html: bool, quiet: bool, yes: bool, bot_stderr: str) -> None:
    """Balance run: play cards against each other with an agent, in both seat orders, and report
    win rates (95% Wilson intervals), the first seat's advantage, game lengths, how games end, and
    ratings. Results are stored as they arrive; run the same command again to resume. Before the
    games, a few are played to estimate the run's time (long runs ask first on a terminal: --yes).

    \b
    santorini balance --gods MyGod --against Mortal,OtherGod --games 4 --agent greedy
    santorini balance --pack my-pack --gods MyGod --games 100 --agent mcts:400 --jobs 8
    santorini balance --matrix --games 50 --backend ray --address ray://head:10001"""
    from ..balance import run as run_module
    from ..balance.backends import Backend, default_jobs
    from ..balance.plan import ALL, split_names
    from ..balance.report import ReportError, check_writable, report_files
    from ..balance.run import make_plan
    from ..balance.store import FILE_NAME, FILES
    if address is not None and backend != Backend.RAY.value:
        bad_input("--address names a Ray cluster; give --backend ray with it")
    opponents = split_names(against)
    if not opponents:  # an empty list is not 'all': a blank in a script would silently test every card
        bad_input(f"--against names no card: give '{ALL}' or cards separated by commas")
    names = tuple(name for text in gods for name in split_names(text))
    plan = make_plan(pack_name, names, opponents, matrix, games, agent, seed, max_turns)
    chosen = Backend(backend)
    workers = jobs or default_jobs()
    folder = Path(out)
    spec = plan.spec
    bots = bot_stderr_of(bot_stderr, folder / BOT_LOG)
    logs = spec.agent.startswith("external:") and bots.mode == "log"
    in_folder = logs and bots.path == str((folder / BOT_LOG).absolute())
    check_writable(folder, [*FILES, *report_files(spec.gods, matrix, html), *([BOT_LOG] if in_folder else [])])
    if logs and not in_folder:
        _check_log(Path(str(bots.path)))  # (before a game is played, as the run's own files)
    click.echo(f"plan: {len(plan.matchups)} matchups (seat-ordered) x {games} games = {len(plan.tasks)} games; "
               f"pack {spec.pack}, agent {spec.agent}, seed {spec.seed}")
    with ExitStack() as stack:
        advance = [lambda steps: None]

        def started(stored: int, to_play: int) -> None:
            where = f"{chosen.value}, {workers} job{'s' if workers != 1 else ''}" if address is None \
                else f"ray at {address}"
            click.echo(f"store {folder / FILE_NAME}: {stored} stored, {to_play} to play ({where})")

        def estimated(estimate: Estimate) -> None:
            if estimate.seconds >= ESTIMATE_FROM:
                click.echo(f"estimate: {describe(estimate)}")
                if estimate.seconds > ASK_ABOVE and not yes and on_terminal() and not _go_on():
                    raise Declined("not started")
            if estimate.games and not quiet:
                from .progress import progress
                advance[0] = stack.enter_context(progress("games", estimate.games, "games"))

        try:
            outcome = run_module.run_balance(plan, folder, chosen, workers, address, batch, on_start=started,
                                             on_results=lambda results: advance[0](len(results)),
                                             on_estimate=estimated, bot_stderr=bots)
        except KeyboardInterrupt:
            stack.close()  # the progress bar first
            click.echo(f"interrupted: the games played so far are stored in {folder / FILE_NAME}; run the same "
                       "command again to play the rest", err=True)
            sys.exit(EXIT_INTERRUPTED)
        except Declined:
            click.echo(f"not started: the sample games are stored in {folder / FILE_NAME}; run the same command "
                       "with --yes to play the rest, or give fewer --games or a cheaper --agent", err=True)
            sys.exit(EXIT_FAILED)
    if outcome.played:
        click.echo(f"played {outcome.played} games in {outcome.seconds:.1f} s ({outcome.rate:.2f} games/s)")
    _summary(outcome.results, spec.gods, matrix)
    from ..balance.report import write_report
    try:
        page = write_report(outcome.results, folder, pack=spec.pack, agent=spec.agent, gods=list(spec.gods),
                            matrix=matrix, html=html)
    except ReportError as err:  # the games are safe in the store: say so, and how to get the report
        bad_input(f"{err}; the games are stored in {folder / FILE_NAME}: make that path writable and run the "
                  "same command again to write the report")
    click.echo(f"report: {page}")


def on_terminal() -> bool:
    """Whether someone can answer a question: standard input is a terminal (a test replaces this)."""
    return sys.stdin.isatty()


def _go_on() -> bool:
    """Ask whether to start the long run; no answer (end of input, Ctrl-C) is no."""
    try:
        return click.confirm("start it?", default=False)
    except click.Abort:
        return False


def describe(estimate: Estimate) -> str:
    """The estimate, for people: the time, what it is for, and that it is an estimate from a sample."""
    if estimate.workers is None:
        where = "on one core (divide by the cluster's cores)"
    elif estimate.at_once == 1:
        where = "in one process"
    else:
        where = f"on {estimate.at_once} processes"
    sample = f"{estimate.sampled} sample game{'s' if estimate.sampled != 1 else ''}"
    return (f"about {duration(estimate.seconds)} for the {estimate.games} games left, {where} (an estimate from "
            f"{sample} played here, {estimate.seconds_per_game:.2f} s a game; matchups differ in cost)")


def duration(seconds: float) -> str:
    """A duration for people, in its two largest units: '45 s', '4 min 05 s', '2 h 15 min', '3 d 04 h'."""
    whole = max(0, round(seconds))
    if whole < 60:
        return f"{whole} s"
    if whole < 3600:
        return f"{whole // 60} min {whole % 60:02d} s"
    minutes = round(whole / 60)
    if minutes < 24 * 60:
        return f"{minutes // 60} h {minutes % 60:02d} min"
    hours = round(whole / 3600)
    return f"{hours // 24} d {hours % 24:02d} h"


def _check_log(path: Path) -> None:
    """Refuse (exit 2) a --bot-stderr log file that could not be appended to, before a game is played."""
    if path.is_dir():
        bad_input(f"--bot-stderr log:{path}: a folder has that name")
    if path.exists() and not path.is_file():
        bad_input(f"--bot-stderr log:{path}: it is not a regular file")
    if not path.parent.is_dir():
        bad_input(f"--bot-stderr log:{path}: there is no folder {path.parent}")
    if not os.access(path if path.exists() else path.parent, os.W_OK):
        bad_input(f"--bot-stderr log:{path}: cannot write it (permission denied)")


def _summary(results: list[GameResult], gods: tuple[str, ...], matrix: bool) -> None:
    """Per opponent of each card under test, one row; for a matrix, the ratings instead."""
    from ..balance.ratings import bradley_terry
    from ..balance.stats import opponent_rows
    from .display import show_table
    if matrix:
        ratings = sorted(bradley_terry(results).items(), key=lambda item: (-item[1], item[0]))
        rated = [(name, f"{round(rating):+d}") for name, rating in ratings]
        show_table(("card", "rating (Bradley-Terry, Elo scale)"), rated, _aligned([("card", "rating"), *rated], 1))
        return
    rows = []
    for god in gods:
        for row in opponent_rows(results, god):
            first = "-" if row.first_seat_rate is None else f"{row.first_seat_rate:.0%}"
            ends = "/".join(str(count) for count in row.ends.values())
            rows.append((row.god, row.opponent, str(row.games), f"{row.rate:.1%}", f"{row.low:.0%}-{row.high:.0%}",
                         first, f"{row.mean_turns:.1f}", ends, "UNBALANCED" if row.unbalanced else ""))
    show_table(HEADERS, rows, _aligned([HEADERS, *rows], 2))


def _aligned(rows: Sequence[Sequence[str]], names: int) -> list[str]:
    """Plain lines in columns (for a pipe or a file): the first `names` columns left, figures right."""
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return ["  ".join(cell.ljust(width) if column < names else cell.rjust(width)
                      for column, (cell, width) in enumerate(zip(row, widths, strict=True))).rstrip() for row in rows]

"""``companion bench``: the benchmarks: ``crash``, ``power-cut`` (issue 42), ``fuzz``, ``soak`` (robustness,
issue 9), ``advisor`` (the advisors' decision times), ``claims`` (Schotten Totten's claims against plain
enumeration) and ``texts`` (every text of the four demos checked through the text log).

Each prints its figures as one JSON object with ``--json`` (else a line of text) and exits 0 when it
ran; the figures, not the exit status, say how robust or fast the box is (benchmarks, not tests). The one
exception: ``claims`` exits 1 when a claim disagrees with the enumeration (a wrong claim is a bug).
"""

from __future__ import annotations

import argparse
import json
import sys

from companion.bench import FuzzReport, run_crash_bench, run_fuzz, run_soak
from companion.bench.advisor import measure
from companion.bench.claims import run as run_claims
from companion.cli.common import MOST, in_range, parse_variant, positive, print_figures
from companion.errors import UserError
from companion.registry import names


def add_commands(subparsers) -> None:
    """Register ``bench crash|power-cut|fuzz|soak|advisor|claims|texts`` on the ``companion`` command's
    subparsers."""
    bench = subparsers.add_parser("bench", help="benchmarks: power cuts, fuzzed rules, long evenings, advisor speed")
    sub = bench.add_subparsers(dest="bench_command", metavar="BENCH")
    sub.required = True

    def add(name: str, handler, help: str, *, game: bool = False, count: str | None = None,
            default: int = 0) -> argparse.ArgumentParser:
        parser = sub.add_parser(name, help=help)
        if game:
            parser.add_argument("--game", required=True, metavar="GAME", help=f"one of {', '.join(names())}")
        if count:
            parser.add_argument(f"--{count}", type=int, default=default, metavar="N", help=f"default {default}")
            parser.add_argument("--seed", type=int, default=1, metavar="S", help="seeds every random choice (default 1)")
        parser.add_argument("--json", action="store_true", help="one JSON object")
        parser.set_defaults(handler=handler)
        return parser

    crash = add("crash", _crash, "SIGKILL `companion play GAME` at random moments; check the store", game=True,
                count="trials", default=20)
    crash.add_argument("--script-lines", type=int, default=60, metavar="N",
                       help="presses each child plays before quitting, rounded up to a whole action "
                            "(default 60)")
    crash.add_argument("--exec", dest="exec_children", action="store_true",
                       help="start each child as a fresh interpreter instead of forking this one")
    crash.add_argument("--verbose", action="store_true", help="one line per trial on stderr")

    cut = add("power-cut", _power_cut, "whole games by hand, SIGKILLed several times each and resumed to the end; "
              "compared with an uninterrupted run", game=True, count="runs", default=20)
    cut.add_argument("--kills", type=int, default=3, metavar="K", help="SIGKILLs a run (default 3)")
    cut.add_argument("--jobs", type=int, default=1, metavar="N",
                     help="runs at once (0: one per CPU); the figures do not depend on it")
    cut.add_argument("--verbose", action="store_true", help="one line per run on stderr")

    fuzz = add("fuzz", _fuzz, "random play over random variants, every action and invariant checked", game=True,
               count="games", default=1000)
    fuzz.add_argument("--jobs", type=int, default=1, metavar="N",
                      help="worker processes (0: one per CPU); the figures do not depend on it")

    soak = add("soak", _soak, "run the Can't Stop session loop for N frames, game after game, learning the dice "
                              "between games; RSS after each game, its peak and open files")
    soak.add_argument("--frames", type=int, default=36000)
    soak.add_argument("--games", type=int, metavar="G", help="stop after G games (default: when the frames are run)")
    soak.add_argument("--fast", action="store_true", help="as fast as possible instead of the configured fps")

    advisor = add("advisor", _advisor, "time the advisor's decisions (seat 0) against the game's baseline players",
                  game=True, count="games", default=20)
    advisor.add_argument("--players", type=int, metavar="N", help="players at the table (default: the game's own)")
    advisor.add_argument("--opponent", metavar="AGENT",
                         help="the other seats' agent (default: rule28 in cant-stop, random elsewhere)")
    advisor.add_argument("--variant", action="append", default=[], metavar="KEY=VALUE",
                         help="a rules variant (repeatable; `companion games --json` lists them)")
    advisor.add_argument("--nodes", type=int, metavar="N",
                         help="the advisor's node budget a decision (default: the box's, the whole search)")
    advisor.add_argument("--deadline-ms", type=float, default=0.0, metavar="MS",
                         help="a deadline a decision (default 0: none; the box decides by nodes, not time)")

    add("claims", _claims, "Schotten Totten claims against plain enumeration: agreement, time per stone",
        count="positions", default=3000)

    texts = add("texts", _texts, "the four demos' text logs checked: floor size, cut, inside, overlap")
    texts.add_argument("--games", metavar="G,G", help=f"comma-separated, of {', '.join(names())} (default: all)")
    texts.add_argument("--languages", default="en,ru", metavar="L,L", help="comma-separated (default: en,ru)")


def _crash(args) -> int:
    progress = (lambda line: print(line, file=sys.stderr)) if args.verbose else None
    result = run_crash_bench(args.game, positive(args.trials, "--trials"), args.seed,
                             script_lines=positive(args.script_lines, "--script-lines"),
                             exec_children=args.exec_children, progress=progress)
    print_figures(result, args.json)
    return 0


def _power_cut(args) -> int:
    from companion.bench.power_cut import run_power_cut

    in_range(args.kills, "--kills", 0, 1000)
    in_range(args.jobs, "--jobs", 0, 256)
    progress = (lambda line: print(line, file=sys.stderr)) if args.verbose else None
    print_figures(run_power_cut(args.game, positive(args.runs, "--runs"), args.kills, args.seed, jobs=args.jobs,
                                progress=progress), args.json)
    return 0


def _fuzz(args) -> int:
    in_range(args.jobs, "--jobs", 0, 256)  # 0: one per CPU
    report = FuzzReport()
    print_figures(run_fuzz(args.game, positive(args.games, "--games"), args.seed, report=report, jobs=args.jobs),
                  args.json)
    for example in report.examples:
        print(f"violation: {example}", file=sys.stderr)
    if report.unfinished:
        print(f"{report.unfinished} game(s) stopped unfinished at the step limit", file=sys.stderr)
    return 0


def _soak(args) -> int:
    games = None if args.games is None else positive(args.games, "--games")
    print_figures(run_soak(positive(args.frames, "--frames", 10 * MOST), fast=args.fast, games=games), args.json)
    return 0


def _advisor(args) -> int:
    print_figures(measure(args.game, positive(args.games, "--games"), args.seed, players=args.players,
                          opponent=args.opponent, variant=parse_variant(args.variant),
                          deadline_ms=args.deadline_ms, nodes=args.nodes), args.json)
    return 0


def _texts(args) -> int:
    from companion.bench.texts import run_texts
    from companion.i18n import checked_language

    games = [g.strip() for g in args.games.split(",")] if args.games else None
    unknown = [g for g in games or () if g not in names()]
    if unknown:
        raise UserError(f"--games: no game {unknown[0]!r}; choose from {', '.join(names())}")
    languages = tuple(checked_language(code.strip(), "--languages") for code in args.languages.split(","))
    result = run_texts(games, languages)
    if args.json:
        print(json.dumps(result))
        return 0
    for run in result["runs"]:
        print(f"{run['game']} {run['language']} camera {run['camera']}: {run['texts']} texts in {run['frames']} "
              f"frames, smallest {run['min_px']} px, {run['problems']} problems"
              + ("" if run["ended"] else " (the demo did not end)"))
        for example in run["examples"]:
            print(f"  {example}")
    return 0


def _claims(args) -> int:
    result = run_claims(positive(args.positions, "--positions"), args.seed)
    print_figures(result, args.json)
    return 0 if result["disagreements"] == 0 else 1

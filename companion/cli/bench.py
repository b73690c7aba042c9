"""``companion bench``: the benchmarks: ``crash``, ``fuzz``, ``soak`` (robustness, issue 9).

Each prints its figures as one JSON object with ``--json`` (else a line of text) and exits 0 when it
ran; the figures, not the exit status, say how robust the box is (benchmarks, not tests).
"""

from __future__ import annotations

import sys

from companion.bench import FuzzReport, run_crash_bench, run_fuzz, run_soak
from companion.cli.common import positive, print_figures
from companion.errors import UserError
from companion.registry import names


def add_commands(subparsers) -> None:
    bench = subparsers.add_parser("bench", help="robustness benchmarks: power cuts, fuzzed rules, long evenings")
    sub = bench.add_subparsers(dest="bench_command", metavar="BENCH")
    sub.required = True

    crash = sub.add_parser("crash", help="SIGKILL `companion play GAME` at random moments; check the store")
    crash.add_argument("--game", required=True, help=f"one of {', '.join(names())}")
    crash.add_argument("--trials", type=int, default=20)
    crash.add_argument("--seed", type=int, default=1)
    crash.add_argument("--script-lines", type=int, default=60, metavar="N",
                       help="script commands each child plays before quitting (default 60)")
    crash.add_argument("--exec", dest="exec_children", action="store_true",
                       help="start each child as a fresh interpreter instead of forking this one")
    crash.add_argument("--verbose", action="store_true", help="one line per trial on stderr")
    crash.add_argument("--json", action="store_true")
    crash.set_defaults(handler=_crash)

    fuzz = sub.add_parser("fuzz", help="random play over random variants, every action and invariant checked")
    fuzz.add_argument("--game", required=True, help=f"one of {', '.join(names())}")
    fuzz.add_argument("--games", type=int, default=1000)
    fuzz.add_argument("--seed", type=int, default=1)
    fuzz.add_argument("--jobs", type=int, default=1, metavar="N",
                      help="worker processes (0: one per CPU); the figures do not depend on it")
    fuzz.add_argument("--json", action="store_true")
    fuzz.set_defaults(handler=_fuzz)

    soak = sub.add_parser("soak", help="run the Can't Stop session loop for N frames; RSS and open files")
    soak.add_argument("--frames", type=int, default=36000)
    soak.add_argument("--fast", action="store_true", help="as fast as possible instead of the configured fps")
    soak.add_argument("--json", action="store_true")
    soak.set_defaults(handler=_soak)



def _crash(args) -> int:
    progress = (lambda line: print(line, file=sys.stderr)) if args.verbose else None
    result = run_crash_bench(args.game, positive(args.trials, "--trials"), args.seed,
                             script_lines=positive(args.script_lines, "--script-lines"),
                             exec_children=args.exec_children, progress=progress)
    print_figures(result, args.json)
    return 0


def _fuzz(args) -> int:
    if args.jobs < 0:
        raise UserError(f"--jobs must be 0 (one per CPU) or more, not {args.jobs}")
    report = FuzzReport()
    print_figures(run_fuzz(args.game, positive(args.games, "--games"), args.seed, report=report, jobs=args.jobs),
           args.json)
    for example in report.examples:
        print(f"violation: {example}", file=sys.stderr)
    if report.unfinished:
        print(f"{report.unfinished} game(s) stopped unfinished at the step limit", file=sys.stderr)
    return 0


def _soak(args) -> int:
    print_figures(run_soak(positive(args.frames, "--frames"), fast=args.fast), args.json)
    return 0

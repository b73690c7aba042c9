"""``companion bench``: robustness benchmarks (issue 9): ``crash``, ``fuzz``, ``soak``.

Each prints its figures as one JSON object with ``--json`` (else a line of text) and exits 0 when it
ran; the figures, not the exit status, say how robust the box is (benchmarks, not tests).
"""

from __future__ import annotations

import json
import sys

from companion.errors import UserError


def add_commands(subparsers) -> None:
    bench = subparsers.add_parser("bench", help="robustness benchmarks: power cuts, fuzzed rules, long evenings")
    sub = bench.add_subparsers(dest="bench_command", metavar="BENCH")
    sub.required = True

    crash = sub.add_parser("crash", help="SIGKILL `companion play GAME` at random moments; check the store")
    crash.add_argument("--game", required=True, help="a game the bench covers: cant-stop, donkey-race, ludo, schotten-totten")
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
    fuzz.add_argument("--game", required=True, help="an engine the fuzzer covers")
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


def _positive(value: int, flag: str) -> int:
    if value < 1:
        raise UserError(f"{flag} must be at least 1, not {value}")
    return value


def _print(result: dict, as_json: bool) -> None:
    if as_json:
        print(json.dumps(result))
    else:
        print(", ".join(f"{key} {value}" for key, value in result.items()))


def _crash(args) -> int:
    from companion.bench.crash import GAMES, run_crash_bench

    if args.game not in GAMES:
        raise UserError(f"the crash bench covers {', '.join(sorted(GAMES))}, not {args.game!r}")
    progress = (lambda line: print(line, file=sys.stderr)) if args.verbose else None
    result = run_crash_bench(args.game, _positive(args.trials, "--trials"), args.seed,
                             script_lines=_positive(args.script_lines, "--script-lines"),
                             exec_children=args.exec_children, progress=progress)
    _print(result, args.json)
    return 0


def _fuzz(args) -> int:
    from companion.bench.fuzz import ENGINES, run_fuzz

    if args.game not in ENGINES:
        raise UserError(f"the fuzzer covers {', '.join(sorted(ENGINES))}, not {args.game!r}")
    from companion.bench.fuzz import FuzzReport

    if args.jobs < 0:
        raise UserError(f"--jobs must be 0 (one per CPU) or more, not {args.jobs}")
    report = FuzzReport()
    _print(run_fuzz(args.game, _positive(args.games, "--games"), args.seed, report=report, jobs=args.jobs),
           args.json)
    for example in report.examples:
        print(f"violation: {example}", file=sys.stderr)
    if report.unfinished:
        print(f"{report.unfinished} game(s) stopped unfinished at the step limit", file=sys.stderr)
    return 0


def _soak(args) -> int:
    from companion.bench.soak import run_soak

    _print(run_soak(_positive(args.frames, "--frames"), fast=args.fast), args.json)
    return 0

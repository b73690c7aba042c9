"""``companion simulate GAME --agents A,B --games N --seed S``: agents play each other through the engine
(docs/CLI.md); the game's agents are its ``companion.agents`` module, found through the registry."""

from __future__ import annotations

import json

from companion.agents import run_simulation
from companion.cli.common import in_range, parse_variant, positive
from companion.registry import names


def add_commands(subparsers) -> None:
    """Register ``simulate``."""
    simulate = subparsers.add_parser("simulate", help="agents play each other through the engine")
    simulate.add_argument("game", choices=names())
    simulate.add_argument("--agents", required=True, help="comma-separated agent names in seating order")
    simulate.add_argument("--games", type=int, default=1000)
    simulate.add_argument("--seed", type=int, default=1)
    simulate.add_argument("--variant", action="append", default=[], metavar="KEY=VALUE")
    simulate.add_argument("--jobs", type=int, default=1, metavar="N",
                          help="worker processes (0: one per CPU); the figures do not depend on it")
    simulate.add_argument("--budget", type=int, metavar="NODES",
                          help="the advisor's node budget a decision, in its game's unit (default: the whole search)")
    simulate.add_argument("--calibration", action="store_true",
                          help="cant-stop: how often the win chance the hint shows came true (Brier score, 10 bins)")
    simulate.add_argument("--json", action="store_true")
    simulate.set_defaults(handler=_simulate)


def _simulate(args) -> int:
    agents = [a.strip() for a in args.agents.split(",") if a.strip()]
    positive(args.games, "--games")
    in_range(args.jobs, "--jobs", 0, 256)  # 0: one per CPU
    if args.budget is not None:
        in_range(args.budget, "--budget", 0, 10 ** 9)
    result = run_simulation(args.game, agents, args.games, args.seed, parse_variant(args.variant), jobs=args.jobs,
                            calibration=args.calibration, budget=args.budget)
    if args.json:
        print(json.dumps(result))
    else:
        for key, value in result.items():
            print(f"{key}: {value}")
    return 0

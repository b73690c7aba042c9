"""``companion stats``: the saved games' statistics: the dice's fairness, each player's record and luck,
and with ``--plots`` their charts (docs/CLI.md)."""

from __future__ import annotations

import json
from pathlib import Path

from companion.cli.common import check_given_store
from companion.display.stats import write_plots
from companion.errors import CorruptLog, MissingFileError
from companion.paths import resolve
from companion.registry import game, names
from companion.stats import game_summary, store_figures
from companion.store import Store

PLOTTED_GAMES = 20
"""``--plots`` draws the course of at most this many finished games, the latest."""


def add_commands(subparsers) -> None:
    """Register ``stats``."""
    stats = subparsers.add_parser("stats", help="the saved games' statistics: dice fairness, players, charts")
    stats.add_argument("--store", type=Path, metavar="FILE", help="the store to read (default: the box's own)")
    stats.add_argument("--game", choices=names(), help="only this game's saved games")
    stats.add_argument("--all", action="store_true", help="count the dice entered by hand too")
    stats.add_argument("--json", action="store_true", help="one JSON object")
    stats.add_argument("--plots", type=Path, metavar="DIR", help="write the charts as PNG files into DIR")
    stats.set_defaults(handler=_stats)


def _stats(args) -> int:
    check_given_store(args.store)  # a file given that is not the box's store is refused, never changed
    path = args.store or resolve().store_file
    if not Path(path).is_file():
        raise MissingFileError(f"--store {path}: no store there (give the box's store)" if args.store else
                               f"{path}: no store there (play a game first, or give --store FILE)")
    with Store(path) as store:
        figures = store_figures(store, args.game, hand=args.all)
        if args.plots:
            finished = store.finished_games(args.game)[-PLOTTED_GAMES:]
            summaries = []
            for record in finished:
                if record.game in names():
                    try:
                        summaries.append((record.id, game_summary(store, record.id)))
                    except CorruptLog:
                        pass  # listed in the figures' "unreadable"
            figures["plots"] = [str(p) for p in write_plots(figures, summaries, args.plots)]
    if args.json:
        print(json.dumps(figures))
        return 0
    dice = figures["dice"]
    scope = game(args.game).title() if args.game else "all games"
    print(f"{_count(figures['games'], 'saved game')} ({figures['finished']} finished), {scope}")
    print(f"dice: {dice['rolls']} rolls, faces 1-6 {dice['faces']}, chi2 {dice['chi2']}, p {dice['p_value']:.4f}")
    print(f"  {dice['verdict']}")
    for name, player in figures["players"].items():
        extra = ", ".join(f"{k} {v}" for k, v in player.items() if k not in ("games", "wins"))
        print(f"{name}: {_count(player['games'], 'game')}, {_count(player['wins'], 'win')}"
              + (f", {extra}" if extra else ""))
    for path in figures.get("plots", []):
        print(f"chart: {path}")
    if figures.get("unreadable"):
        print(f"left out, cannot be read or replayed: game {', '.join(map(str, figures['unreadable']))} "
              f"(the log says why)")
    return 0


def _count(n: int, noun: str) -> str:
    """``n`` and ``noun``, plural unless ``n`` is 1 (the command's own English lines; screens use ngettext)."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"

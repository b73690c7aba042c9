"""The screenshots of ``docs/screenshots/``: every game's screens, the notice screens, History and the menu,
in each language the box speaks, remade by ``python -m companion.app.screenshots --write [--languages ...]``.

Each game's two demos run headless at 800 x 480 with ``--screenshots`` (``companion.app.demo``: the camera
demo and the by-hand demo), and one screen of each mode (half way through the game) is kept as
``LANG/GAME-camera-MODE.png`` or ``LANG/GAME-hand-MODE.png`` (the summary's pages as
``...-summary-K.png``). The notice screens
(``companion.screens.notice``) are drawn as ``LANG/notice-KIND.png``; History's list and a replay of the
by-hand demo's game as ``LANG/history-*.png``; the main menu as ``LANG/menu.png``; the charts of
``companion stats --plots`` as ``LANG/stats-*.png``. Every screenshot in English, a few in each other
language (:data:`FEW`). A maintainer's tool: the pictures are for looking at, the checks are in
``tests/screens/test_fit.py``; ``optipng -o2`` on them afterwards keeps the repository a quarter smaller.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import shutil
import sys
import tempfile
from pathlib import Path

from companion.commands import Button, Command
from companion.i18n import LANGUAGES, current_language, set_language

SIZE = (800, 480)
"""The box's screen."""

DOCS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
"""Where the screenshots go in the repository."""

FULL = "en"
"""The language whose every screenshot is kept; of the others, :data:`FEW` (to keep the repository small)."""

FEW = ("notice-", "history-list-", "-turn.png", "menu.png", "cant-stop-hand-choose", "cant-stop-camera-check",
       "ludo-hand-move", "ludo-camera-move", "schotten-totten-hand-claim", "schotten-totten-camera-check",
       "donkey-race-hand-play", "donkey-race-hand-refill")
"""Parts of the file names kept in the languages other than :data:`FULL`: every notice and History's list
and replay, the menu, and each game's main screens."""


def _one_of_each_mode(folder: Path) -> dict[str, Path]:
    """A screenshot of each mode in ``folder`` (files ``NNNN-MODE.png``): the one half way through the game
    of those of its mode (a board with pieces on it); the summary's pages each under ``summary-K``."""
    by_mode: dict[str, list[Path]] = {}
    summary = 0
    for path in sorted(folder.glob("*.png")):
        mode = path.stem.split("-", 1)[1]
        if mode == "summary":
            summary += 1
            mode = f"summary-{summary}"
        by_mode.setdefault(mode, []).append(path)
    return {mode: paths[len(paths) // 2] for mode, paths in by_mode.items()}


def game_screens(game: str, out: Path) -> list[Path]:
    """Both demos of ``game`` in the current language; one screen of each mode copied into ``out``."""
    from companion.app.demo import run_demo

    written = []
    for by_hand in (False, True):
        with tempfile.TemporaryDirectory(prefix="companion-shots-") as folder:
            shots = Path(folder) / "shots"
            store = Path(folder) / "demo.sqlite3"
            with contextlib.redirect_stdout(io.StringIO()):
                run_demo(Path(folder) / "state", headless=True, screenshots=shots, store_file=store, game_name=game,
                         by_hand=by_hand)
            for mode, path in _one_of_each_mode(shots).items():
                target = out / f"{game}-{'hand' if by_hand else 'camera'}-{mode}.png"
                shutil.copyfile(path, target)
                written.append(target)
            if by_hand:
                written += history_screens(game, store, out)
    return written


def history_screens(game: str, store_file: Path, out: Path) -> list[Path]:
    """History's list with the game of ``store_file``, and its replay at the start, a turn in and at the
    end."""
    import pygame

    from companion.app.menu import available_games
    from companion.app.menu_model import MenuModel, Screen
    from companion.app.menu_store import StoreMenuData
    from companion.app.replay import ReplaySession, _screen
    from companion.display import menu as menu_display
    from companion.display.window import render_surface
    from companion.registry import game as game_entry
    from companion.store import Store

    entry = game_entry(game)
    written = []
    with Store(store_file) as store:
        (record,) = store.finished_games(game=game)
        model = MenuModel(StoreMenuData(store), available_games())
        path = out / "menu.png"
        pygame.image.save(render_surface(menu_display.draw, model.view(), SIZE, "menu"), str(path))
        written.append(path)
        model.screen = Screen.HISTORY
        path = out / f"history-list-{game}.png"
        pygame.image.save(render_surface(menu_display.draw, model.view(), SIZE, "menu"), str(path))
        written.append(path)
        session = ReplaySession(store, entry, record.id)
        screen = _screen(entry)
        for name, presses in (("start", ()), ("turn", (Button.NEXT, Button.NEXT, Button.BANK)),
                              ("end", (Button.PASS,))):
            for button in presses:
                session.on_command(Command(button))
            path = out / f"history-{game}-{name}.png"
            pygame.image.save(render_surface(entry.module("display").draw, screen.build_view(session), SIZE,
                                             "replay"), str(path))
            written.append(path)
    return written


def stats_plots(out: Path) -> list[Path]:
    """``companion stats --plots`` over the camera demo of Can't Stop (its real photos): the dice's faces,
    the wins and the game's course, as ``stats-*.png``."""
    from companion.app.demo import run_demo
    from companion.display.stats import write_plots
    from companion.stats import game_summary, store_figures
    from companion.store import Store

    with tempfile.TemporaryDirectory(prefix="companion-shots-") as folder:
        store_file = Path(folder) / "demo.sqlite3"
        with contextlib.redirect_stdout(io.StringIO()):
            run_demo(Path(folder) / "state", headless=True, screenshots=None, store_file=store_file)
        plots = Path(folder) / "plots"
        with Store(store_file) as store:
            summaries = [(record.id, game_summary(store, record.id)) for record in store.finished_games()]
            written = write_plots(store_figures(store), summaries, plots)
        kept = []
        for path in written:
            target = out / f"stats-{path.name.replace('game-1-', 'game-')}"
            shutil.copyfile(path, target)
            kept.append(target)
    return kept


def notice_screens(out: Path) -> list[Path]:
    """Each notice screen (``companion.screens.notice.Notice``), as ``notice-KIND.png``."""
    import pygame

    from companion.app.notices import NoticeSession
    from companion.display import notice as notice_display
    from companion.display.window import render_surface
    from companion.screens import notice as notice_screen
    from companion.screens.notice import Notice

    written = []
    for kind in Notice:
        path = out / f"notice-{kind.value}.png"
        view = notice_screen.build_view(NoticeSession([kind]))
        pygame.image.save(render_surface(notice_display.draw, view, SIZE, "notice"), str(path))
        written.append(path)
    return written


def write(languages: list[str], games: list[str], folder: Path = DOCS) -> list[Path]:
    """The screenshots of ``games`` in each of ``languages`` into ``folder/LANG/`` (each emptied first)."""
    previous = current_language()
    written = []
    try:
        for language in languages:
            set_language(language)
            out = folder / language
            if out.exists():
                shutil.rmtree(out)
            out.mkdir(parents=True)
            made = notice_screens(out) + (stats_plots(out) if language == FULL else [])
            for game in games:
                made += game_screens(game, out)
            for path in made:
                if language != FULL and not any(part in path.name for part in FEW):
                    path.unlink()
                else:
                    written.append(path)
    finally:
        set_language(previous)
    return written


def main(argv: list[str] | None = None) -> int:
    from companion.registry import names

    parser = argparse.ArgumentParser(prog="python -m companion.app.screenshots", description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="remake the screenshots")
    parser.add_argument("--languages", default=",".join(LANGUAGES), help="comma-separated (default: all five)")
    parser.add_argument("--games", default=",".join(names()), help="comma-separated (default: all four)")
    parser.add_argument("--out", type=Path, default=DOCS, help="the folder (default: docs/screenshots)")
    args = parser.parse_args(argv)
    if not args.write:
        parser.print_help()
        return 0
    written = write(args.languages.split(","), args.games.split(","), args.out)
    print(f"{len(written)} screenshots in {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

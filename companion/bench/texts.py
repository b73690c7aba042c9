"""``companion bench texts``: every text of the four demos checked from outside, through the text log.

Each demo (``companion demo --game G``, on its camera and with ``--camera none``) runs headless at the
box's 800 x 480 in each language asked for, writing its text log (``--text-log``); the log is then
checked as ARCHITECTURE.md "The screen" asks (``companion.display.checks.problems``): no text under the
floor (18 px), none cut, every box inside the window, no two texts of one frame overlapping. The figures
are a benchmark (a whole game each, minutes in all), not a test; ``tests/screens/test_fit.py`` checks the
same on every screen of each game's by-hand script.
"""

from __future__ import annotations

import contextlib
import io
import json
import tempfile
from pathlib import Path

from companion.app.demo import run_demo
from companion.app.text_log import recording
from companion.display.checks import problems
from companion.i18n import current_language, set_language
from companion.registry import names

SIZE = (800, 480)
"""The window of the demos (the config's default display size)."""


def check_demo(game: str, language: str, by_hand: bool) -> dict:
    """Run the demo of ``game`` (``by_hand``: with ``--camera none``) in ``language`` and check its text
    log. Returns ``{"game", "language", "camera": "none" | "demo", "ended", "frames", "texts", "min_px",
    "problems", "examples"}`` (``ended``: the demo reached its winner; ``examples``: up to five of the
    problems found, each one line)."""
    previous = current_language()
    set_language(language)
    try:
        with tempfile.TemporaryDirectory(prefix="companion-texts-") as folder:
            log = Path(folder) / "texts.jsonl"
            with recording(log), contextlib.redirect_stdout(io.StringIO()):
                status = run_demo(Path(folder) / "state", headless=True, screenshots=None, game_name=game,
                                  by_hand=by_hand)
            entries = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    finally:
        set_language(previous)
    found = problems(entries, SIZE)
    return {"game": game, "language": language, "camera": "none" if by_hand else "demo", "ended": status == 0,
            "frames": max((e["frame"] for e in entries), default=0), "texts": len(entries),
            "min_px": min((e["px"] for e in entries), default=0), "problems": len(found), "examples": found[:5]}


def run_texts(games: list[str] | None = None, languages: tuple[str, ...] = ("en", "ru")) -> dict:
    """:func:`check_demo` for every game of ``games`` (default: all) in each of ``languages``, on its
    camera and by hand. Returns ``{"runs": [...], "problems": total}``."""
    runs = [check_demo(game, language, by_hand) for game in (games or names()) for language in languages
            for by_hand in (False, True)]
    return {"runs": runs, "problems": sum(run["problems"] for run in runs)}

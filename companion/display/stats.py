"""The statistics' charts as PNG files (``companion stats --plots DIR``), drawn with the display's own
charts (``companion.display.charts``) on an off-screen surface: no window is needed."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pygame

from companion.display.charts import draw_bar_chart, draw_line_chart
from companion.display.text import draw_text, draw_wrapped
from companion.i18n import _
from companion.registry import game_title
from companion.screens import palette
from companion.screens.summary import course_chart
from companion.stats import GameSummary

SIZE = (800, 480)
"""The charts' size in pixels: the box's screen."""


def _canvas(title: str, subtitle: str = "") -> tuple[pygame.Surface, pygame.Rect]:
    surface = pygame.Surface(SIZE)
    surface.fill(palette.BACKGROUND)
    unit = SIZE[1] // 12
    draw_text(surface, title, pygame.Rect(unit // 2, 0, SIZE[0] - unit, unit * 3 // 2), unit * 4 // 5,
              palette.FOREGROUND, bold=True)
    top = unit * 3 // 2
    if subtitle:
        top += draw_wrapped(surface, subtitle, pygame.Rect(unit // 2, top, SIZE[0] - unit, unit * 2), unit * 3 // 5,
                            palette.MUTED, max_lines=2).height
    return surface, pygame.Rect(unit // 2, top + unit // 3, SIZE[0] - unit, SIZE[1] - top - unit // 2)


def write_plots(figures: dict, summaries: Sequence[tuple[int, GameSummary]], folder: Path) -> list[Path]:
    """Write the charts of ``figures`` (:func:`companion.stats.store_figures`) and of each (game id,
    summary) into ``folder`` (made if missing): ``dice_faces.png``, ``wins.png`` and
    ``game-ID-course.png``. Returns the files written. Raises OSError when the folder cannot be written."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    dice = figures["dice"]
    surface, area = _canvas(_("The dice"), dice["verdict"])
    draw_bar_chart(surface, area, dice["faces"], [str(face) for face in range(1, 7)], _("dice"),
                   reference=sum(dice["faces"]) / 6 if sum(dice["faces"]) else None)
    written.append(_save(surface, folder / "dice_faces.png"))
    players = figures["players"]
    surface, area = _canvas(_("Games won"))
    draw_bar_chart(surface, area, [p["wins"] for p in players.values()], list(players), _("wins"))
    written.append(_save(surface, folder / "wins.png"))
    for game_id, summary in summaries:
        surface, area = _canvas(_("{game}, game {id}: the course of the game").format(game=game_title(summary.game),
                                                                                     id=game_id))
        chart = course_chart(summary)
        draw_line_chart(surface, area, chart.series, chart.names, chart.x_label, chart.y_label, chart.high,
                        chart.colours)
        written.append(_save(surface, folder / f"game-{game_id}-course.png"))
    return written


def _save(surface: pygame.Surface, path: Path) -> Path:
    pygame.image.save(surface, str(path))
    return path

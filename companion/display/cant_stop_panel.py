"""The side panel: photo of the roll with the dice read, bust chance, the options (pairings) and the hint.

From top to bottom: the photo (about half the panel's height when there are options) with the bust
chance beside it, the options as rows ("6 + 8" in bold, then what it does, on as many lines as it needs;
see ``companion.display.cant_stop_options``), and the room of the hint at the bottom (the hint itself, in full on
as many lines as it needs, is placed and drawn by ``companion.display.cant_stop_hint``; a hint too long for the
panel goes to a band across the screen instead and leaves the panel no room).
"""

from __future__ import annotations

from dataclasses import dataclass

import pygame

from companion.display import fonts, text
from companion.display.cant_stop_hint import MIN_TOP_LINES, panel_hint_height
from companion.display.cant_stop_layout import ScreenLayout
from companion.display.cant_stop_options import draw_options, options_height
from companion.display.cant_stop_photo import crop_for_dice, draw_dice_faces, draw_photo, fit_rect
from companion.i18n import _, percent
from companion.screens import palette
from companion.screens.cant_stop import ScreenView

ENTRY_ROW_LINES = 2.8
"""The dice row's height, in lines of ``layout.large``, while a roll is entered by hand (no options to
show yet): dice large enough to read and change from arm's length, the selected one marked under it."""

def format_probability(p: float) -> str:
    """A chance as a whole percentage the language's way (:func:`companion.i18n.percent`: "44%", German
    "44 %", as the options and hints write it): "<1%" for tiny non-zero chances, ">99%" just below
    certain."""
    if 0 < p < 0.005:
        return "<" + percent(0.01)
    if 0.995 <= p < 1:
        return ">" + percent(0.99)
    return percent(round(p * 100) / 100)


def draw_side_panel(surface: pygame.Surface, view: ScreenView, layout: ScreenLayout) -> None:
    """Draw the side panel of ``view`` into ``layout.side``, all but the hint
    (``companion.display.cant_stop_hint``).

    The hint's room is at the bottom (as many lines as it needs; none when it is in the band); the
    options take the height that shows each of them in full (``companion.display.cant_stop_options``:
    about 1.5 lines of ``layout.normal`` type for a one-line option, more for an effect on several
    lines), every one in full where they fit in the panel; else a window of them around the selected one,
    leaving the top at least :data:`MIN_TOP_LINES` lines of ``layout.large`` (and never under 1.3 lines
    of ``layout.small`` each); the photo with the bust chance gets what is left (nothing under a line of
    ``layout.small``); the bust chance goes beside the photo or under it, whichever leaves the photo
    larger. A roll entered by hand (no photo, no options yet) gets a row of large dice
    (:data:`ENTRY_ROW_LINES`).
    """
    regions = side_panel_regions(view, layout)
    pygame.draw.rect(surface, palette.PANEL, layout.side, border_radius=layout.pad)
    if regions.top.height > 0:
        _draw_top(surface, regions.top, view, layout)
    draw_options(surface, regions.options, view.options, layout, browse=getattr(view, "browse", True))


@dataclass(frozen=True)
class PanelRegions:
    """Where the side panel's parts go (pixels): ``top`` (photo or dice, bust chance; zero height when
    there is none), ``options`` and ``hint`` (the hint's room: zero height without a hint and when the
    hint is in the band of ``layout.hint_band``)."""

    top: pygame.Rect
    options: pygame.Rect
    hint: pygame.Rect


def side_panel_regions(view: ScreenView, layout: ScreenLayout) -> PanelRegions:
    """The regions of :func:`draw_side_panel` for ``view`` inside ``layout.side`` (see its docstring)."""
    inner = layout.side.inflate(-2 * layout.pad, -2 * layout.pad)
    gap = layout.pad

    hint_h = panel_hint_height(view, layout)
    hint_rect = pygame.Rect(inner.x, inner.bottom - hint_h, inner.width, hint_h)
    bottom = hint_rect.top - (gap if hint_h else 0)
    has_visual = view.frame_bgr is not None or bool(view.dice)
    has_top = has_visual or view.bust_probability is not None
    avail = bottom - inner.top - (gap if has_top and view.options else 0)

    n = len(view.options)
    row_gap = max(1, layout.pad // 2)
    wanted = options_height(view.options, inner.width, layout)  # every option in full, in small type
    smallest = n * (round(layout.small * 1.3) + row_gap)
    min_top = round(layout.large * MIN_TOP_LINES)
    if not has_top:
        options_h = avail
    elif view.frame_bgr is None and not view.options and any(d.selected for d in view.dice):
        # a roll entered by hand (a die is selected): large dice, nothing else
        options_h = avail - round(layout.large * ENTRY_ROW_LINES)
    elif view.frame_bgr is None:  # dice faces and/or the bust chance, one row each
        rows = (1 if view.dice else 0) + (1 if view.bust_probability is not None else 0)
        options_h = max(min(max(smallest, wanted), avail - min_top),
                        avail - rows * round(layout.large * 1.6) - (rows - 1) * gap)
    else:  # every option in full where they fit, before the photo's least height (the sums show the roll too)
        options_h = wanted if wanted <= avail else max(smallest, avail - min_top)
    options_h = max(0, min(options_h, avail))
    top_h = avail - options_h if has_top else 0
    top = pygame.Rect(inner.x, inner.y, inner.width, top_h if top_h >= layout.small else 0)
    options = pygame.Rect(inner.x, bottom - options_h, inner.width, options_h)
    return PanelRegions(top, options, hint_rect)


def _draw_top(surface: pygame.Surface, top: pygame.Rect, view: ScreenView, layout: ScreenLayout) -> None:
    """The photo (or dice faces) with the bust chance beside or below it."""
    gap = layout.pad
    has_visual = view.frame_bgr is not None or bool(view.dice)
    if view.frame_bgr is None and view.dice and view.bust_probability is not None:
        half = (top.height - gap) // 2
        _draw_visual(surface, pygame.Rect(top.x, top.y, top.width, half), view, layout)
        _draw_bust(surface, pygame.Rect(top.x, top.bottom - half, top.width, half), view.bust_probability, layout)
        return
    if view.bust_probability is None or not has_visual:
        if view.bust_probability is not None:
            _draw_bust(surface, top, view.bust_probability, layout)
        else:
            _draw_visual(surface, top, view, layout)
        return
    beside_w = round(top.width * 0.64)
    beside = pygame.Rect(top.x, top.y, beside_w, top.height)
    row_h = min(top.height // 3, round(layout.large * 1.5))
    below = pygame.Rect(top.x, top.y, top.width, top.height - row_h - gap)
    source = _visual_size(view, beside), _visual_size(view, below)
    fits = [fit_rect(src, area) for src, area in zip(source, (beside, below), strict=True)]
    if fits[0].width * fits[0].height >= fits[1].width * fits[1].height:
        _draw_visual(surface, beside, view, layout)
        _draw_bust(surface, pygame.Rect(beside.right + gap, top.y, top.right - beside.right - gap, top.height),
                   view.bust_probability, layout)
    else:
        _draw_visual(surface, below, view, layout)
        _draw_bust(surface, pygame.Rect(top.x, below.bottom + gap, top.width, row_h), view.bust_probability, layout)


def _visual_size(view: ScreenView, area: pygame.Rect) -> tuple[int, int]:
    """The (w, h) of what :func:`_draw_visual` shows in ``area``: the cropped photo, or the dice row."""
    if view.frame_bgr is None:
        return (max(1, len(view.dice)), 1)
    fh, fw = view.frame_bgr.shape[:2]
    boxes = [d.box for d in view.dice if d.box is not None]
    x0, y0, x1, y1 = crop_for_dice((fw, fh), boxes, area.width / max(1, area.height))
    return (x1 - x0, y1 - y0)


def _draw_visual(surface: pygame.Surface, area: pygame.Rect, view: ScreenView, layout: ScreenLayout) -> None:
    """The photo with the dice boxes; dice without a box (or without a photo) as faces below it."""
    loose = tuple(d for d in view.dice if d.box is None or view.frame_bgr is None)
    if view.frame_bgr is None:
        draw_dice_faces(surface, area, loose)
        return
    faces_h = round(min(area.height * 0.3, layout.large * 1.6)) if loose else 0
    photo_area = pygame.Rect(area.x, area.y, area.width, area.height - faces_h)
    photo = draw_photo(surface, photo_area, view.frame_bgr, tuple(d for d in view.dice if d.box is not None),
                       layout.normal)
    if loose:
        draw_dice_faces(surface, pygame.Rect(photo.x, photo.bottom, area.width, faces_h), loose)


def _draw_bust(surface: pygame.Surface, rect: pygame.Rect, p: float, layout: ScreenLayout) -> None:
    """"Bust next roll" and the percentage: stacked when ``rect`` is tall, on one row when it is flat."""
    pygame.draw.rect(surface, palette.BACKGROUND, rect, border_radius=layout.pad)
    label, value = _("Bust next roll"), format_probability(p)
    inner = rect.inflate(-2 * layout.pad, 0)
    if rect.height < layout.large * 2.2:  # one row: label left, value right
        value_w = fonts.font(layout.large, bold=True).size(value)[0]
        value_w = min(value_w, inner.width // 2)
        text.draw_text(surface, label, pygame.Rect(inner.x, inner.y, inner.width - value_w - layout.pad, inner.height),
                       layout.normal, palette.MUTED)
        text.draw_text(surface, value, pygame.Rect(inner.right - value_w, inner.y, value_w, inner.height),
                       layout.large, palette.FOREGROUND, bold=True, align="right")
        return
    label_font = fonts.font(layout.small)
    lines = text.wrap_all(label, layout.small, inner.width)
    label_h = label_font.get_linesize() * len(lines)
    value_h = min(rect.height - label_h, round(layout.large * 1.6))
    y = rect.y + (rect.height - label_h - value_h) // 2
    for k, line in enumerate(lines):  # the label on up to two lines, centred
        line_rect = pygame.Rect(inner.x, y + k * label_font.get_linesize(), inner.width, label_font.get_linesize())
        text.draw_text(surface, line, line_rect, layout.small, palette.MUTED, align="center")
    text.draw_text(surface, value, pygame.Rect(inner.x, y + label_h, inner.width, value_h),
                   round(layout.large * 1.3), palette.FOREGROUND, bold=True, align="center")

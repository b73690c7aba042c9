"""The options list of the side panel (Can't Stop's pairings): every option readable in full.

Each option is one row: a "▶" marker on the selected one, the label in bold ("5 + 10", up to 40 % of the
width) and its effect after it ("bust 12% · 5 to 1/9, 10 to 1/7"). An effect too wide for one line is
broken onto more lines, first after "·" (the bust chance on one line, the columns on the next), then
after the commas between columns, then between words, and its row grows to hold them; when the rows
then need more height than the panel gives, the rows close up, and when they still do not fit, the
rows around the selected one are shown with a line saying how many more NEXT reaches. Type never
shrinks below ``layout.small`` (the floor) and no effect is cut.

:func:`layout_options` computes where everything goes (pure geometry, tested without drawing);
:func:`draw_options` draws it; :func:`options_height` is the height the side panel should give.
"""

from __future__ import annotations

from dataclasses import dataclass

import pygame

from companion.display import fonts, text
from companion.display.cant_stop_layout import ScreenLayout
from companion.i18n import ngettext
from companion.screens import palette
from companion.screens.cant_stop import OptionView

MAX_LINES = 3
"""Most lines one effect may take."""

BREAKS = (" \u00b7 ", ", ")
"""Where an effect breaks first, in order: after the bust chance, then between columns."""


@dataclass(frozen=True)
class OptionRow:
    """Where one option goes: ``index`` in the view's options, its row, the label's box and type size, and
    the effect's box, type size and lines (pixels; the lines join back to the whole effect unless
    ``cut``)."""

    index: int
    row: pygame.Rect
    label_rect: pygame.Rect
    label_size: int
    effect_rect: pygame.Rect
    effect_size: int
    effect_lines: tuple[str, ...]
    cut: bool = False


def effect_lines(effect: str, font: pygame.font.Font, width: int, max_lines: int = MAX_LINES) -> list[str] | None:
    """``effect`` broken onto at most ``max_lines`` lines no wider than ``width`` pixels in ``font``, or
    None when it cannot be. One line when it fits; otherwise broken at :data:`BREAKS` first ("·" is
    dropped at a break, a comma stays at its line's end), then between words, then inside a word."""
    if font.size(effect)[0] <= width:
        return [effect]
    lines: list[str] = []
    for part in effect.split(BREAKS[0]):
        lines += _pack(part.split(BREAKS[1]), BREAKS[1], font, width)
    if len(lines) > max_lines or any(font.size(line)[0] > width for line in lines):
        return None
    return lines


def _pack(pieces: list[str], joiner: str, font: pygame.font.Font, width: int) -> list[str]:
    """Greedy lines of ``pieces`` joined by ``joiner`` (kept, less its space, at each line's end); a
    piece wider than a line is word-wrapped on its own lines."""
    lines: list[str] = []
    current = ""
    for i, piece in enumerate(pieces):
        piece = piece + (joiner.rstrip() if i < len(pieces) - 1 else "")
        candidate = f"{current} {piece}" if current else piece
        if font.size(candidate)[0] <= width:
            current = candidate
            continue
        if current:
            lines.append(current)
        if font.size(piece)[0] <= width:
            current = piece
        else:
            wrapped = text.wrap(piece, font, width, len(piece))
            lines += wrapped[:-1]
            current = wrapped[-1] if wrapped else ""
    if current:
        lines.append(current)
    return lines


def _row_height(layout: ScreenLayout, label_size: int, size: int, lines: int, compact: bool = False) -> int:
    """A row's height: one and a half lines of ``layout.normal`` for a one-line effect (1.25 when
    ``compact``), else the effect's lines (each ``size`` type) and a little air."""
    single = round(layout.normal * (1.25 if compact else 1.5))
    label = fonts.font(label_size, bold=True).get_linesize() + 2
    if lines <= 1:
        return max(single, label)
    return max(single, label, lines * fonts.font(size).get_linesize() + (2 if compact else max(4, layout.pad)))


def layout_options(rect: pygame.Rect, options: tuple[OptionView, ...], layout: ScreenLayout) -> list[OptionRow]:
    """Place ``options`` in ``rect`` (top-aligned, rows ``layout.pad // 2`` apart, 1 px when closed up); see
    the module docstring for the rules. Returns one :class:`OptionRow` per option shown: all of them, or
    the whole rows around the selected one that fit above the line of :func:`more_line_height` (at least
    the selected one)."""
    rect = pygame.Rect(rect)
    if not options or rect.height <= 0:
        return []
    gap = max(1, layout.pad // 2)
    widest = max((o.label for o in options), key=lambda label: fonts.font(layout.normal, True).size(label)[0])
    label_size = text.fit_size(widest, round(rect.width * 0.4), layout.normal, layout.small, bold=True)
    label_font = fonts.font(label_size, bold=True)
    label_w = min(round(rect.width * 0.4), max(label_font.size(o.label)[0] for o in options))
    marker_w = round(round(layout.normal * 1.5) * 0.9)
    effect_x = rect.x + marker_w + label_w + layout.pad * 2
    effect_w = max(1, rect.right - layout.pad - effect_x)
    size = layout.small
    font = fonts.font(size)
    broken = [effect_lines(o.effect, font, effect_w) or text.wrap_all(o.effect, size, effect_w) for o in options]
    for compact in (False, True):  # tighter rows, closer together, before leaving any out
        heights = [_row_height(layout, label_size, size, len(lines), compact) for lines in broken]
        row_gap = 1 if compact else gap
        if sum(heights) + row_gap * (len(options) - 1) <= rect.height:
            return _rows(rect, range(len(options)), broken, heights, row_gap, marker_w, label_w, label_size, effect_x,
                         effect_w, size)
    room = rect.height - more_line_height(layout)
    shown = _window(options, heights, room, 1)
    if len(shown) == 1 and heights[shown[0]] > room:  # one effect taller than the panel: its lines that fit
        k = shown[0]
        fit = max(1, (room - 2) // font.get_linesize())
        broken[k] = broken[k][:fit - 1] + [text.ellipsize(" ".join(broken[k][fit - 1:]), font, effect_w)]
        heights[k] = _row_height(layout, label_size, size, len(broken[k]), True)
    return _rows(rect, shown, broken, heights, 1, marker_w, label_w, label_size, effect_x, effect_w, size)


def more_line_height(layout: ScreenLayout) -> int:
    """The height of the line under a window of options that says how many more there are."""
    return fonts.font(layout.small).get_linesize() + 2


def _window(options: tuple[OptionView, ...], heights: list[int], room: int, gap: int) -> range:
    """The longest run of options around the selected one whose rows fit in ``room`` pixels (the
    selected one always)."""
    selected = next((k for k, o in enumerate(options) if o.selected), 0)
    first = last = selected
    used = heights[selected]
    while True:
        grown = False
        for k in (last + 1, first - 1):  # the next ones first: NEXT goes that way
            if 0 <= k < len(options) and not first <= k <= last and used + gap + heights[k] <= room:
                used += gap + heights[k]
                first, last = min(first, k), max(last, k)
                grown = True
        if not grown:
            return range(first, last + 1)


def _rows(rect, shown, broken, heights, gap, marker_w, label_w, label_size, effect_x, effect_w,
          size) -> list[OptionRow]:
    rows, y = [], rect.y
    for k in shown:
        lines, height = broken[k], heights[k]
        row = pygame.Rect(rect.x, y, rect.width, height)
        label_rect = pygame.Rect(rect.x + marker_w, row.y + 1, label_w, height - 2)
        effect_h = min(height - 2, len(lines) * fonts.font(size).get_linesize())
        effect_rect = pygame.Rect(effect_x, row.centery - effect_h // 2, effect_w, effect_h)
        rows.append(OptionRow(k, row, label_rect, label_size, effect_rect, size, tuple(lines)))
        y += height + gap
    return rows


def options_height(options: tuple[OptionView, ...], width: int, layout: ScreenLayout) -> int:
    """The height (pixels) the options want in a ``width``-pixel-wide panel: all their rows in
    ``layout.small`` effect type, as many lines each as they need."""
    if not options:
        return 0
    rows = layout_options(pygame.Rect(0, 0, width, 10_000), options, layout)
    return rows[-1].row.bottom if rows else 0


def draw_options(
    surface: pygame.Surface, rect: pygame.Rect, options: tuple[OptionView, ...], layout: ScreenLayout,
    browse: bool = True,
) -> list[pygame.Rect]:
    """Draw ``options`` in ``rect`` as :func:`layout_options` places them; return each row's rectangle.

    The selected option is inverted (white row, dark text) with a "▶" in front; the others have a thin
    outline. Options that do not fit are counted under them, with the key that shows them when ``browse``
    (a live game's NEXT; not in History's replay, where NEXT steps the replay on).
    """
    rows = layout_options(rect, options, layout)
    for placed in rows:
        option, row = options[placed.index], placed.row
        radius = max(2, min(row.height, round(layout.normal * 1.5)) // 5)
        if option.selected:
            pygame.draw.rect(surface, palette.HIGHLIGHT, row, border_radius=radius)
            ink = palette.HIGHLIGHT_TEXT
            marker = pygame.Rect(row.x, row.y, placed.label_rect.x - row.x, row.height)
            text.draw_text(surface, "\u25b6", marker, layout.normal, ink, align="center")
        else:
            pygame.draw.rect(surface, palette.SLOT_EDGE, row, max(1, layout.pad // 3), border_radius=radius)
            ink = palette.FOREGROUND
        text.draw_text(surface, option.label, placed.label_rect, placed.label_size, ink, bold=True)
        text.draw_lines(surface, placed.effect_lines, placed.effect_rect, placed.effect_size, ink, whole=option.effect)
    hidden = len(options) - len(rows)
    if hidden and rows:
        line = pygame.Rect(rect.x + layout.pad, rows[-1].row.bottom + 1, rect.width - 2 * layout.pad,
                           more_line_height(layout))
        more = (ngettext("{n} more pairing: NEXT", "{n} more pairings: NEXT", hidden) if browse else
                ngettext("{n} more pairing", "{n} more pairings", hidden))
        text.draw_text(surface, more.format(n=hidden), line, layout.small, palette.MUTED)
    return [placed.row for placed in rows]

"""Text that a player reads from arm's length: never under the floor size, never overflowing its box.

Every function takes a target rectangle in pixels and draws nothing outside it (the surface's clip is
narrowed to the rectangle while drawing). Type never shrinks below :func:`floor_px` (18 px at 800 x 480,
proportionally more on a larger screen, ARCHITECTURE.md "The screen"): a text that does not fit is
wrapped, or laid out differently by its caller; only as the last resort is it cut with "…", and then the
text log says so.

The text log (:class:`TextLog`, ``--text-log FILE``) records every line drawn through this module: the
frame it was drawn in, the screen's mode, the text, the font size in pixels, the rectangle the line's
ink box covers and whether it was cut, so that the screens can be checked from outside.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

import pygame

from companion.display import fonts
from companion.screens.palette import RGB

ELLIPSIS = "\u2026"

FLOOR_PX = 18
"""The smallest type a player reads, in pixels at the 800 x 480 design size (issue 37: legible from arm's
length at the box's 7-inch screen); :func:`floor_px` scales it with the screen."""

DESIGN_SIZE = (800, 480)
"""The screen every size is designed for (the Raspberry Pi Touch Display)."""


def unit_of(size: tuple[int, int]) -> float:
    """The scale of a ``(width, height)`` pixel screen against :data:`DESIGN_SIZE` (1.0 at 800 x 480, 1.5 at
    1280 x 720): the smaller of the two ratios, so that a layout made for 800 x 480 fits."""
    return max(0.25, min(size[0] / DESIGN_SIZE[0], size[1] / DESIGN_SIZE[1]))


def floor_px(size: tuple[int, int]) -> int:
    """The smallest font size (pixels) on a screen of ``size``: :data:`FLOOR_PX` times :func:`unit_of`."""
    return max(fonts.MIN_SIZE, round(FLOOR_PX * unit_of(size)))


def surface_floor(surface: pygame.Surface) -> int:
    """:func:`floor_px` of the screen ``surface`` belongs to (its top parent when it is a subsurface)."""
    return floor_px(surface.get_abs_parent().get_size())


# -- the text log --------------------------------------------------------------------------------------------


class TextLog:
    """Where every drawn line is recorded: one dict per line, ``{"frame": n, "mode": str, "text": str,
    "px": int, "rect": [x, y, w, h], "cut": bool}``, given to ``sink``.

    ``frame`` counts the frames drawn (:func:`begin_frame`, 1 for the first); ``mode`` is the screen's
    mode then (a game session's ``mode.value``, "menu", "summary"...); ``rect`` is the box of the line as
    rendered (the font's full line height), in the screen's pixels; ``cut`` is true when the line was
    shortened with "…" or did not fit its box.
    """

    def __init__(self, sink: Callable[[dict], None]):
        self.sink = sink
        self.frame = 0
        self.mode = ""

    @classmethod
    def to_file(cls, path: str | Path) -> "TextLog":
        """A log writing one JSON line a text to ``path`` (created or emptied; its folder must exist)."""
        handle = open(path, "w", encoding="utf-8")  # noqa: SIM115 - closed by close()
        log = cls(lambda entry: handle.write(json.dumps(entry, ensure_ascii=False) + "\n"))
        log._handle = handle
        return log

    def close(self) -> None:
        """Close the log's file, if it writes one."""
        handle = getattr(self, "_handle", None)
        if handle is not None:
            handle.close()
            self._handle = None


_log: TextLog | None = None


def start_log(log: TextLog | None) -> TextLog | None:
    """Send every line drawn from now on to ``log`` (None: stop logging); returns the log it replaces."""
    global _log
    previous, _log = _log, log
    return previous


def begin_frame(mode: str = "") -> None:
    """A new frame is being drawn, of a screen in ``mode``: the lines drawn after it are logged under the
    next frame number. Called by the window before each draw (``companion.display.window``)."""
    if _log is not None:
        _log.frame += 1
        _log.mode = mode


def log_line(text: str, px: int, rect: pygame.Rect, cut: bool = False) -> None:
    """Record one line drawn outside this module's functions (a die's value on the photo, a token's
    badge): ``px`` its font size, ``rect`` its box on the screen."""
    if _log is not None and text:
        _log.sink({"frame": _log.frame, "mode": _log.mode, "text": text, "px": int(px),
                   "rect": [int(rect.x), int(rect.y), int(rect.width), int(rect.height)], "cut": bool(cut)})


# -- measuring -----------------------------------------------------------------------------------------------


def ellipsize(text: str, font: pygame.font.Font, max_width: int) -> str:
    """``text`` cut at the end with "…" so that it is at most ``max_width`` pixels wide ("" if nothing fits)."""
    if font.size(text)[0] <= max_width:
        return text
    lo, hi = 0, len(text)
    while lo < hi:  # longest prefix that fits together with the ellipsis
        mid = (lo + hi + 1) // 2
        if font.size(text[:mid].rstrip() + ELLIPSIS)[0] <= max_width:
            lo = mid
        else:
            hi = mid - 1
    if lo == 0:
        return ELLIPSIS if font.size(ELLIPSIS)[0] <= max_width else ""
    return text[:lo].rstrip() + ELLIPSIS


def _words(text: str) -> list[str]:
    """The words of ``text``, split at spaces and line breaks but never at a no-break space (``8\xa0%``
    stays whole, as German and Russian write a percentage)."""
    return [w for w in re.split(r"[ \t\n\r]+", text.strip(" \t\n\r")) if w]


def wrap(text: str, font: pygame.font.Font, max_width: int, max_lines: int) -> list[str]:
    """Break ``text`` into at most ``max_lines`` lines of at most ``max_width`` pixels.

    Breaks between words (:func:`_words`); a word longer than a line is broken inside. The last line
    ends in "…" when text was left over.
    """
    words = _words(text)
    lines: list[str] = []
    current = ""
    i = 0
    while i < len(words) and len(lines) < max_lines:
        word = words[i]
        candidate = f"{current} {word}" if current else word
        if font.size(candidate)[0] <= max_width:
            current = candidate
            i += 1
        elif current:
            lines.append(current)
            current = ""
        else:  # a single word wider than the line: split it
            cut = len(word)
            while cut > 1 and font.size(word[:cut])[0] > max_width:
                cut -= 1
            lines.append(word[:cut])
            words[i] = word[cut:]
    if current and len(lines) < max_lines:
        lines.append(current)
        current = ""
    if i < len(words) or current:
        rest = " ".join(([current] if current else []) + words[i:])
        lines[-1] = ellipsize(lines[-1] + " " + rest, font, max_width)
    return lines


def wrap_all(text: str, size: int, width: int, bold: bool = False) -> list[str]:
    """``text`` in ``size`` type on as many lines of at most ``width`` pixels as it needs, broken between
    words (a word wider than the line is broken inside)."""
    return wrap(text, fonts.font(size, bold), max(1, width), max(1, len(text)))


def wrap_balanced(text: str, size: int, width: int, bold: bool = False) -> list[str]:
    """``text`` on as few lines as :func:`wrap_all` needs, but with the lines as even as they can be (for
    centred text: no last word alone on its line): the narrowest width, found by bisection, that still
    takes no more lines."""
    lines = wrap_all(text, size, width, bold)
    if len(lines) < 2:
        return lines
    low, high = 1, max(1, width)
    while low < high:
        middle = (low + high) // 2
        if len(wrap_all(text, size, middle, bold)) <= len(lines):
            high = middle
        else:
            low = middle + 1
    return wrap_all(text, size, high, bold)


def fits(text: str, size: int, width: int, bold: bool = False) -> bool:
    """Whether ``text`` is at most ``width`` pixels wide in ``size`` type."""
    return fonts.font(size, bold).size(text)[0] <= width


def width_of(text: str, size: int, bold: bool = False) -> int:
    """The width in pixels of ``text`` in ``size`` type."""
    return fonts.font(size, bold).size(text)[0]


def line_height(size: int, bold: bool = False) -> int:
    """The height in pixels of one line of ``size`` type (``get_linesize()``, about 1.16 times ``size``)."""
    return fonts.font(size, bold).get_linesize()


def fit_size(text: str, max_width: int, size: int, min_size: int, bold: bool = False) -> int:
    """The largest font size from ``size`` down to ``min_size`` at which ``text`` fits in ``max_width``."""
    size = max(size, min_size)
    while size > min_size and fonts.font(size, bold).size(text)[0] > max_width:
        size = max(min_size, int(size * 0.9))
    return size


def wrapped_size(text: str, width: int, height: int, size: int, least: int, bold: bool = False,
                 max_lines: int | None = None) -> tuple[int, list[str]] | None:
    """The largest size from ``size`` down to ``least`` at which ``text``, wrapped between words, fits a
    ``width`` x ``height`` box on at most ``max_lines`` lines (any number when None), with those lines;
    None when it does not fit even at ``least``."""
    size = max(size, least)
    while True:
        lines = wrap_all(text, size, width, bold)
        room = height // line_height(size, bold)
        if len(lines) <= room and (max_lines is None or len(lines) <= max_lines) and \
                all(fits(line, size, width, bold) for line in lines):
            return size, lines
        if size <= least:
            return None
        size = max(least, int(size * 0.92))


# -- drawing -------------------------------------------------------------------------------------------------


def draw_text(surface: pygame.Surface, text: str, rect: pygame.Rect, size: int, colour: RGB, *, bold: bool = False,
              align: str = "left", min_size: int | None = None, background: RGB | None = None) -> pygame.Rect:
    """Draw one line of ``text`` inside ``rect``, vertically centred; return the rectangle drawn.

    The font shrinks from ``size`` towards ``min_size`` (default: the floor, :func:`surface_floor`; never
    below it) to fit the width; what still does not fit is cut with "…" (logged as cut). ``align`` is
    "left", "center" or "right".
    """
    rect = pygame.Rect(rect)
    if not text or rect.width <= 0 or rect.height <= 0:
        return pygame.Rect(rect.x, rect.y, 0, 0)
    floor = surface_floor(surface)
    low = max(floor, min_size or floor)
    size = fit_size(text, rect.width, max(size, low), low, bold)
    font = fonts.font(size, bold)
    line = ellipsize(text, font, rect.width)
    return _blit_line(surface, line, font, size, rect, colour, align, background, cut=line != text)


def draw_wrapped(surface: pygame.Surface, text: str, rect: pygame.Rect, size: int, colour: RGB, *,
                 bold: bool = False, max_lines: int = 3, min_size: int | None = None) -> pygame.Rect:
    """Draw ``text`` wrapped onto several lines inside ``rect`` (top-aligned); return the area used.

    Tries sizes from ``size`` down to ``min_size`` (default and at least: the floor) until the whole text
    fits in the rectangle on at most ``max_lines`` lines; at the smallest size the last line is cut with
    "…" (logged as cut).
    """
    rect = pygame.Rect(rect)
    if not text or rect.width <= 0 or rect.height <= 0:
        return pygame.Rect(rect.x, rect.y, 0, 0)
    floor = surface_floor(surface)
    low = max(floor, min_size or floor)
    fitted = wrapped_size(text, rect.width, rect.height, max(size, low), low, bold, max_lines)
    if fitted is None:
        size = low
        font = fonts.font(size, bold)
        room = max(1, min(max_lines, rect.height // font.get_linesize()))
        lines = wrap(text, font, rect.width, room)
    else:
        size, lines = fitted
    return draw_lines(surface, lines, rect, size, colour, bold=bold, whole=text)


def draw_lines(surface: pygame.Surface, lines: list[str] | tuple[str, ...], rect: pygame.Rect, size: int,
               colour: RGB, *, bold: bool = False, align: str = "left", whole: str | None = None) -> pygame.Rect:
    """Draw ``lines`` as given (no shrinking, no wrapping), one under the other from the top of ``rect``
    in ``size`` type, each clipped to ``rect``; return the area used. For text laid out beforehand;
    ``whole``: the text the lines were made of (a line ending in "…" that it does not end in is logged as
    cut)."""
    rect = pygame.Rect(rect)
    font = fonts.font(size, bold)
    used = pygame.Rect(rect.x, rect.y, 0, 0)
    y = rect.y
    for line in lines:
        line_rect = pygame.Rect(rect.x, y, rect.width, font.get_linesize())
        cut = line.endswith(ELLIPSIS) and not (whole or "").endswith(ELLIPSIS)
        drawn = _blit_line(surface, line, font, size, line_rect, colour, align, None, cut=cut, within=rect)
        used = drawn if used.width == 0 else used.union(drawn)
        y += font.get_linesize()
    return used


def _blit_line(surface: pygame.Surface, line: str, font: pygame.font.Font, size: int, rect: pygame.Rect,
               colour: RGB, align: str, background: RGB | None, *, cut: bool = False,
               within: pygame.Rect | None = None) -> pygame.Rect:
    """Render ``line`` in ``font`` (of ``size`` px) aligned in ``rect``, clipped to ``within`` (default
    ``rect``), and log it; a line whose box does not fit inside ``within`` is logged as cut."""
    if not line:
        return pygame.Rect(rect.x, rect.y, 0, 0)
    image = font.render(line, True, colour, background) if background else font.render(line, True, colour)
    target = pygame.Rect(0, 0, image.get_width(), font.get_linesize())
    target.centery = rect.centery
    if align == "center":
        target.centerx = rect.centerx
    elif align == "right":
        target.right = rect.right
    else:
        target.left = rect.left
    bounds = pygame.Rect(within if within is not None else rect)
    outside = not bounds.inflate(2, 2).contains(target)
    offset = surface.get_abs_offset()
    log_line(line, size, target.move(offset), cut=cut or outside)
    old_clip = surface.get_clip()
    surface.set_clip(bounds.clip(old_clip))
    surface.blit(image, (target.x, target.y + (target.height - image.get_height()) // 2))
    surface.set_clip(old_clip)
    return target.clip(bounds)

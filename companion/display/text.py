"""Text that always fits: shrink to a minimum size, then wrap or cut with an ellipsis, never overflow.

Every function takes a target rectangle in pixels and draws nothing outside it (the surface's clip is
narrowed to the rectangle while drawing).
"""

from __future__ import annotations

import re

import pygame

from companion.display import fonts
from companion.screens.palette import RGB

ELLIPSIS = "\u2026"


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


def wrap(text: str, font: pygame.font.Font, max_width: int, max_lines: int) -> list[str]:
    """Break ``text`` into at most ``max_lines`` lines of at most ``max_width`` pixels.

    Breaks at spaces, never at a no-break space (``8\xa0%`` stays whole, as German and Russian write a
    percentage); a word longer than a line is broken inside. The last line ends in "…" when text was
    left over.
    """
    words = re.split(r"[ \t\n\r]+", text.strip(" \t\n\r"))
    words = [w for w in words if w]
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


def fit_size(text: str, max_width: int, size: int, min_size: int, bold: bool = False) -> int:
    """The largest font size from ``size`` down to ``min_size`` at which ``text`` fits in ``max_width``."""
    size = max(size, min_size)
    while size > min_size and fonts.font(size, bold).size(text)[0] > max_width:
        size = max(min_size, int(size * 0.9))
    return size


def _least_size(size: int, min_size: int | None) -> int:
    """The smallest font a text of ``size`` may shrink to: ``min_size``, else two thirds of ``size``."""
    return min_size if min_size is not None else max(fonts.MIN_SIZE, size * 2 // 3)


def draw_text(surface: pygame.Surface, text: str, rect: pygame.Rect, size: int, colour: RGB, *, bold: bool = False,
              align: str = "left", min_size: int | None = None, background: RGB | None = None) -> pygame.Rect:
    """Draw one line of ``text`` inside ``rect``, vertically centred; return the rectangle drawn.

    The font shrinks from ``size`` towards ``min_size`` (default two thirds of ``size``) to fit the width,
    and is never taller than ``rect``; what still does not fit is cut with "…". ``align`` is "left",
    "center" or "right".
    """
    rect = pygame.Rect(rect)
    if not text or rect.width <= 0 or rect.height <= 0:
        return pygame.Rect(rect.x, rect.y, 0, 0)
    size = min(size, fonts.size_for_height(rect.height))
    low = min(size, _least_size(size, min_size))
    size = fit_size(text, rect.width, size, low, bold)
    font = fonts.font(size, bold)
    line = ellipsize(text, font, rect.width)
    return _blit_line(surface, line, font, rect, colour, align, background)


def draw_wrapped(surface: pygame.Surface, text: str, rect: pygame.Rect, size: int, colour: RGB, *,
                 bold: bool = False, max_lines: int = 3, min_size: int | None = None) -> pygame.Rect:
    """Draw ``text`` wrapped onto several lines inside ``rect`` (top-aligned); return the area used.

    Tries sizes from ``size`` down to ``min_size`` until the whole text fits in the rectangle; at the
    smallest size the last line is cut with "…".
    """
    rect = pygame.Rect(rect)
    if not text or rect.width <= 0 or rect.height <= 0:
        return pygame.Rect(rect.x, rect.y, 0, 0)
    low = _least_size(size, min_size)
    size = max(size, low)
    while True:
        font = fonts.font(size, bold)
        lines_room = max(1, min(max_lines, rect.height // font.get_linesize()))
        lines = wrap(text, font, rect.width, lines_room)
        complete = not lines or not lines[-1].endswith(ELLIPSIS) or text.endswith(ELLIPSIS)
        if (complete and font.get_linesize() * len(lines) <= rect.height) or size <= low:
            break
        size = max(low, int(size * 0.9))
    return _blit_lines(surface, lines, font, rect, colour)


def draw_lines(
    surface: pygame.Surface,
    lines: list[str] | tuple[str, ...],
    rect: pygame.Rect,
    size: int,
    colour: RGB,
    *,
    bold: bool = False,
) -> pygame.Rect:
    """Draw ``lines`` as given (no shrinking, no wrapping), one under the other from the top of ``rect``
    in ``size`` type, each clipped to ``rect``; return the area used. For text laid out beforehand."""
    rect = pygame.Rect(rect)
    font = fonts.font(size, bold)
    return _blit_lines(surface, lines, font, rect, colour)


def _blit_lines(surface: pygame.Surface, lines, font: pygame.font.Font, rect: pygame.Rect, colour: RGB) -> pygame.Rect:
    """Blit ``lines`` one under the other from the top of ``rect``, each clipped to it; the area used."""
    used = pygame.Rect(rect.x, rect.y, 0, 0)
    y = rect.y
    for line in lines:
        line_rect = pygame.Rect(rect.x, y, rect.width, min(font.get_linesize(), rect.bottom - y))
        if line_rect.height <= 0:
            break
        used = used.union(_blit_line(surface, line, font, line_rect, colour, "left", None))
        y += font.get_linesize()
    return used


def _blit_line(
    surface: pygame.Surface,
    line: str,
    font: pygame.font.Font,
    rect: pygame.Rect,
    colour: RGB,
    align: str,
    background: RGB | None,
) -> pygame.Rect:
    if not line:
        return pygame.Rect(rect.x, rect.y, 0, 0)
    image = font.render(line, True, colour, background) if background else font.render(line, True, colour)
    target = image.get_rect()
    target.centery = rect.centery
    if align == "center":
        target.centerx = rect.centerx
    elif align == "right":
        target.right = rect.right
    else:
        target.left = rect.left
    old_clip = surface.get_clip()
    surface.set_clip(rect.clip(old_clip))
    surface.blit(image, target)
    surface.set_clip(old_clip)
    return target.clip(rect)

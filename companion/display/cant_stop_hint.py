"""Where the Can't Stop hint goes, always in full: in the side panel when it fits there, else in a band.

The hint ("Hint: Use 7 twice: win chance 12% (10% otherwise); next roll busts 15%; column 6 is nearly
lost: ...", up to about 150 characters) is wrapped between words onto as many lines as it needs; no
word is ever cut. It stays at the bottom of the side panel, in ``layout.normal`` type or else
``layout.small``, when that leaves the options their full height (``companion.display.cant_stop_options``) and the
photo (or bust chance) at least :data:`MIN_TOP_LINES` lines of ``layout.large`` (:data:`MIN_TOP_ALONE`
without options). Otherwise, on the game's screen (the frame keeps the notice band's space), it takes
that space while no notice shows and it fits there (:func:`band_fits`), else it stays in the panel in
``layout.small`` and the options get what is left: the board never gives up height for it. On a view
without that space (render tests), it moves to a band across the body's width under the board and the
panel, on one line of ``layout.normal`` type, else on as many lines of ``layout.small`` as it needs; the
board and the side panel give up the band's height (a band is only made when it is lower than the hint
would be in the panel; see :func:`hint_band_height`).
(:func:`companion.display.cant_stop.screen_layout` makes that layout.) No type is ever smaller than
``layout.small``, the floor.

:func:`hint_placement` says where the lines go (pure geometry, tested without drawing); :func:`draw_hint`
draws them; :func:`hint_band_height` is the band a view needs (0: none).
"""

from __future__ import annotations

from dataclasses import dataclass

import pygame

from companion.display import fonts, text
from companion.display.cant_stop_layout import ScreenLayout
from companion.display.cant_stop_options import options_height
from companion.i18n import _
from companion.screens import palette
from companion.screens.cant_stop import ScreenView

MIN_TOP_LINES = 1.6
"""Lines of ``layout.large`` type that the photo (or dice) keeps above the options."""

MIN_TOP_ALONE = 3.0
"""Lines of ``layout.large`` type that the photo with the bust chance keeps when there are no options."""

MAX_BAND_SHARE = 0.45
"""Most of the body's height a band may take (a hint needing more, far longer than any advisor's, is cut
with "…" on its last line)."""


@dataclass(frozen=True)
class HintPlacement:
    """Where the hint goes (pixels): ``region`` (the bar on its left included), ``body`` (the text's box),
    its type ``size`` and ``lines``, which join back to the whole text (between words) unless ``cut``;
    ``in_band``: in the full-width band rather than the side panel."""

    region: pygame.Rect
    body: pygame.Rect
    size: int
    lines: tuple[str, ...]
    in_band: bool
    cut: bool = False


def hint_text(hint: str) -> str:
    """The hint as shown: "Hint: " and the advisor's line."""
    return _("Hint: ") + hint


def _bar(layout: ScreenLayout) -> int:
    return max(2, layout.pad // 2)


def _wrap_all(words: str, size: int, width: int) -> list[str]:
    """``words`` on as many lines of at most ``width`` pixels as they need (``text.wrap`` without a limit)."""
    font = fonts.font(size)
    return text.wrap(words, font, width, max(1, len(words)))


def _panel_inner(layout: ScreenLayout) -> pygame.Rect:
    return layout.side.inflate(-2 * layout.pad, -2 * layout.pad)


def panel_hint(view: ScreenView, layout: ScreenLayout) -> tuple[int, list[str]] | None:
    """(type size, lines) of ``view``'s hint in the side panel of ``layout``, or None when it does not
    fit there in full (see the module docstring). Sizes tried: ``layout.normal``, then ``layout.small``."""
    if not view.hint:
        return None
    inner = _panel_inner(layout)
    gap = layout.pad
    body_w = inner.width - _bar(layout) - layout.pad
    has_top = view.frame_bgr is not None or bool(view.dice) or view.bust_probability is not None
    need = 0
    if view.options:
        need += options_height(view.options, inner.width, layout)
        if has_top:
            need += gap + round(layout.large * MIN_TOP_LINES)
    elif has_top:
        need += round(layout.large * MIN_TOP_ALONE)
    for size in (layout.normal, layout.small):
        lines = _wrap_all(hint_text(view.hint), size, body_w)
        if len(lines) * fonts.font(size).get_linesize() + (gap + need if need else 0) <= inner.height:
            return size, lines
    return None


def band_hint(hint: str, width: int, layout: ScreenLayout) -> tuple[int, list[str]]:
    """(type size, lines) of ``hint`` in a band whose text is ``width`` pixels wide: one line of
    ``layout.normal`` when it fits, else ``layout.small`` (the floor) on as many lines as it needs."""
    words = hint_text(hint)
    lines = _wrap_all(words, layout.normal, width)
    if len(lines) <= 1:
        return layout.normal, lines
    return layout.small, _wrap_all(words, layout.small, width)


def band_fits(hint: str, band: pygame.Rect, layout: ScreenLayout) -> bool:
    """Whether ``hint`` fits whole in ``band`` (the frame's notice band while it shows no notice)."""
    size, lines = band_hint(hint, _band_body_width(band.width, layout), layout)
    return len(lines) * fonts.font(size).get_linesize() <= band.height


def _band_body_width(width: int, layout: ScreenLayout) -> int:
    return width - _bar(layout) - 3 * layout.pad


def hint_band_height(view: ScreenView, layout: ScreenLayout) -> int:
    """The height (pixels) of the band ``view``'s hint needs on a screen of ``layout`` (its scores rows
    as they will be): 0 when there is no hint, when it fits in the side panel, and when the band would be
    higher than the hint in the panel's ``layout.small`` type (options far too long for the panel in any
    case: the band would only shrink the board); the hint then stays in the panel in full and the
    options get what is left."""
    if not view.hint or panel_hint(view, layout) is not None:
        return 0
    size, lines = band_hint(view.hint, _band_body_width(layout.body.width, layout), layout)
    band = len(lines) * fonts.font(size).get_linesize() + layout.pad
    band = min(band, round(layout.body.height * MAX_BAND_SHARE))
    squeezed_size, squeezed = _squeezed(view, layout)
    in_panel = len(squeezed) * fonts.font(squeezed_size).get_linesize()
    return band if band < in_panel else 0  # the band must give the options and photo more room, not less


def panel_hint_height(view: ScreenView, layout: ScreenLayout) -> int:
    """The height the hint takes at the bottom of the side panel (0 without a hint or with a band)."""
    if not view.hint or layout.hint_band.height > 0:
        return 0
    size, lines = panel_hint(view, layout) or _squeezed(view, layout)
    return len(lines) * fonts.font(size).get_linesize()


def _squeezed(view: ScreenView, layout: ScreenLayout) -> tuple[int, list[str]]:
    """The hint in ``layout.small`` type on as many lines as it needs: for a layout made without the band
    the hint needs (``ScreenLayout.for_size`` called directly); the options then get less room."""
    inner = _panel_inner(layout)
    return layout.small, _wrap_all(hint_text(view.hint), layout.small, inner.width - _bar(layout) - layout.pad)


def hint_placement(view: ScreenView, layout: ScreenLayout) -> HintPlacement | None:
    """Where ``view``'s hint goes on a screen of ``layout`` (None without a hint): in
    ``layout.hint_band`` when the layout has one, else at the bottom of the side panel."""
    if not view.hint:
        return None
    bar = _bar(layout)
    if layout.hint_band.height > 0:
        band = layout.hint_band
        size, lines = band_hint(view.hint, _band_body_width(band.width, layout), layout)
        inset = min(layout.pad // 2, max(0, (band.height - len(lines) * fonts.font(size).get_linesize()) // 2))
        body = pygame.Rect(band.x + bar + 2 * layout.pad, band.y + inset,
                           _band_body_width(band.width, layout), band.height - 2 * inset)
        return _placed(band, body, size, lines, True)
    inner = _panel_inner(layout)
    size, lines = panel_hint(view, layout) or _squeezed(view, layout)
    height = len(lines) * fonts.font(size).get_linesize()
    region = pygame.Rect(inner.x, inner.bottom - height, inner.width, height)
    body = pygame.Rect(region.x + bar + layout.pad, region.y, region.width - bar - layout.pad, height)
    return _placed(region, body, size, lines, False)


def _placed(region: pygame.Rect, body: pygame.Rect, size: int, lines: list[str], in_band: bool) -> HintPlacement:
    room = max(1, body.height // fonts.font(size).get_linesize())
    cut = len(lines) > room
    if cut:  # only when the band or panel was made too small for it: say so with "…"
        lines = lines[:room - 1] + [text.ellipsize(" ".join(lines[room - 1:]), fonts.font(size), body.width)]
    return HintPlacement(region, body, size, tuple(lines), in_band, cut)


def draw_hint(surface: pygame.Surface, view: ScreenView, layout: ScreenLayout) -> HintPlacement | None:
    """Draw ``view``'s hint where :func:`hint_placement` puts it: a bar in the foreground colour on its
    left, the lines in exactly their size; in the band, on the panel colour. Returns the placement."""
    placed = hint_placement(view, layout)
    if placed is None:
        return None
    if placed.in_band:
        pygame.draw.rect(surface, palette.PANEL, placed.region, border_radius=layout.pad)
    bar = _bar(layout)
    pygame.draw.rect(surface, palette.FOREGROUND, (placed.region.x, placed.region.y, bar, placed.region.height))
    text.draw_lines(surface, placed.lines, placed.body, placed.size, palette.FOREGROUND, whole=hint_text(view.hint))
    return placed

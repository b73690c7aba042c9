"""Drawing the Can't Stop screen (:class:`companion.screens.cant_stop.ScreenView`) at any size.

The shared frame (``companion.display.chrome``: the header with the prompt, the notice band with a bust
or a claim, the player strip with each player's columns, the key chips) around the body (see
:mod:`companion.display.cant_stop_layout`): the board on the left, the side panel (photo, bust chance, options,
hint) on the right, and a winner banner over it when the game is over.

The board (cant-stop.md A.2): 11 columns 2..12 at their real heights, markers, runners, claims. Columns
stand side by side on a common baseline, each as tall as its number of spaces, so the board has the
game's mountain shape. The column number is written below each column and above its top space.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, replace

import pygame

from companion.display import text
from companion.display.cant_stop_hint import band_fits, draw_hint, hint_band_height, panel_hint
from companion.display.cant_stop_layout import ScreenLayout
from companion.display.cant_stop_panel import draw_side_panel
from companion.display.chrome import chrome_layout, draw_chrome, seat_styles
from companion.display.tokens import draw_runner, draw_token
from companion.display.window import render_surface
from companion.screens import palette
from companion.screens.cant_stop import CantStopBoardView, ScreenView
from companion.screens.palette import PlayerStyle

RUNNER = -1  # seat value standing for the active player's runner in :func:`pieces_by_space`


@dataclass(frozen=True)
class BoardLayout:
    """Pixel geometry of the board drawn in ``rect`` for the column ``heights`` (column -> spaces).

    Each column gets ``rect.width / 11`` pixels; its spaces (``slot_width`` wide, ``cell_height`` tall)
    rise from a baseline ``label_height`` above the bottom of ``rect``, height 1 being the bottom space.
    A label strip of ``label_height`` lies under every column and above its top space.
    """

    rect: pygame.Rect
    heights: dict[int, int]
    label_px: int = 0

    @property
    def columns(self) -> list[int]:
        """The column numbers, left to right."""
        return sorted(self.heights)

    @property
    def column_width(self) -> float:
        return self.rect.width / max(1, len(self.heights))

    @property
    def slot_width(self) -> float:
        return self.column_width * 0.86

    @property
    def label_height(self) -> float:
        """Height of a column number's strip: 7.5 % of the board, and at least a line of ``label_px`` type."""
        line = float(text.line_height(self.label_px, bold=True)) if self.label_px else 0.0
        return max(8.0, self.rect.height * 0.075, line)

    @property
    def cell_height(self) -> float:
        tallest = max(self.heights.values(), default=1)
        return max(1.0, (self.rect.height - 2 * self.label_height) / tallest)

    def column_x(self, column: int) -> float:
        """Left edge of the column's slot."""
        i = self.columns.index(column)
        return self.rect.x + i * self.column_width + (self.column_width - self.slot_width) / 2

    def space_rect(self, column: int, height: int) -> pygame.Rect:
        """The rectangle of space ``height`` (1 = bottom) of ``column``."""
        bottom = self.rect.bottom - self.label_height
        top = bottom - height * self.cell_height
        x = self.column_x(column)
        return pygame.Rect(round(x), round(top), round(x + self.slot_width) - round(x),
                           round(top + self.cell_height) - round(top))

    def space_centre(self, column: int, height: int) -> tuple[int, int]:
        """Centre pixel of space ``height`` of ``column``: where a lone piece on that space is centred."""
        return self.space_rect(column, height).center

    def column_rect(self, column: int) -> pygame.Rect:
        """All spaces of ``column`` together."""
        return self.space_rect(column, self.heights[column]).union(self.space_rect(column, 1))

    def bottom_label_rect(self, column: int) -> pygame.Rect:
        x = self.rect.x + self.columns.index(column) * self.column_width
        return pygame.Rect(round(x), round(self.rect.bottom - self.label_height), round(self.column_width),
                           round(self.label_height))

    def top_label_rect(self, column: int) -> pygame.Rect:
        top = self.space_rect(column, self.heights[column]).top
        x = self.rect.x + self.columns.index(column) * self.column_width
        return pygame.Rect(round(x), round(top - self.label_height), round(self.column_width),
                           round(self.label_height))

    def piece_size(self, count: int) -> float:
        """Diameter of each piece when ``count`` pieces share one space (smaller when they must overlap)."""
        # Up to a quarter taller than a space (pieces on neighbouring spaces then touch, never hide each
        # other): larger pieces read from across the table.
        size = min(1.25 * self.cell_height, 0.95 * self.slot_width)
        room = self.column_width * 0.98
        if count > 1 and size * (1 + 0.55 * (count - 1)) > room:
            size = room / (1 + 0.55 * (count - 1))
        return size

    def piece_centres(self, column: int, height: int, count: int) -> list[tuple[float, float]]:
        """Centres of ``count`` pieces sharing a space, left to right, spread over the slot's width.

        One piece sits at :meth:`space_centre`; several are spaced evenly across the column's width (the
        slot plus the gap beside it), overlapping by at most 45 % of a piece.
        """
        cx, cy = self.space_centre(column, height)
        size = self.piece_size(count)
        if count <= 1:
            return [(cx, cy)]
        step = min(size * 1.05, (self.column_width * 0.98 - size) / (count - 1))
        first = cx - step * (count - 1) / 2
        return [(first + k * step, cy) for k in range(count)]


def pieces_by_space(board: CantStopBoardView) -> dict[tuple[int, int], list[int]]:
    """Which pieces stand on each space: (column, height) -> seats in seat order, then ``RUNNER``.

    Markers in claimed columns are left out (the claim is drawn instead, cant-stop.md A.7), as are heights
    outside the column.
    """
    spaces: dict[tuple[int, int], list[int]] = defaultdict(list)
    for seat in sorted(board.markers):
        for column, height in board.markers[seat].items():
            if column in board.claimed or not 1 <= height <= board.heights.get(column, 0):
                continue
            spaces[(column, height)].append(seat)
    for column, height in board.runners.items():
        if 1 <= height <= board.heights.get(column, 0):
            spaces[(column, height)].append(RUNNER)
    return dict(spaces)


def draw_board(
    surface: pygame.Surface,
    rect: pygame.Rect,
    board: CantStopBoardView,
    styles: dict[int, PlayerStyle],
    label_size: int,
) -> BoardLayout:
    """Draw the board inside ``rect`` and return its layout.

    Spaces are dark slots with lines between them, the top space a shade lighter. A claimed column is
    filled with its owner's colour and carries the owner's token on its top space. Markers are the
    players' tokens; the active player's runners are white discs with black rings. A column holding a
    runner has its number written white-on-black inverted (a box) so the turn's columns stand out.
    ``styles`` maps seat -> style; ``label_size`` is the column numbers' font size in pixels.
    """
    layout = BoardLayout(pygame.Rect(rect), dict(board.heights), label_size)
    edge = max(1, round(layout.cell_height / 14))
    for column in layout.columns:
        owner = board.claimed.get(column)
        owner_style = styles.get(owner) if owner is not None else None
        for height in range(1, layout.heights[column] + 1):
            cell = layout.space_rect(column, height)
            if owner_style is not None:
                fill = owner_style.colour
            else:
                fill = palette.TOP_SPACE if height == layout.heights[column] else palette.SLOT
            pygame.draw.rect(surface, fill, cell)
            pygame.draw.rect(surface, palette.SLOT_EDGE if owner_style is None else palette.INK, cell, edge)
        if owner_style is not None:
            top = layout.space_rect(column, layout.heights[column])
            pygame.draw.rect(surface, palette.INK, layout.column_rect(column), edge * 2)
            draw_token(surface, top.center, layout.piece_size(1) * 1.05, owner_style)
        _draw_labels(surface, layout, column, column in board.runners, label_size)

    for (column, height), seats in sorted(pieces_by_space(board).items()):
        centres = layout.piece_centres(column, height, len(seats))
        size = layout.piece_size(len(seats))
        for seat, centre in zip(seats, centres, strict=True):
            if seat == RUNNER:
                draw_runner(surface, centre, size)
            elif seat in styles:
                draw_token(surface, centre, size, styles[seat])
    return layout


def _draw_labels(surface: pygame.Surface, layout: BoardLayout, column: int, has_runner: bool, size: int) -> None:
    label = str(column)
    for box in (layout.bottom_label_rect(column), layout.top_label_rect(column)):
        if has_runner:
            inner = box.inflate(-max(2, box.width // 8), 0)
            pygame.draw.rect(surface, palette.HIGHLIGHT, inner, border_radius=max(1, inner.height // 4))
            text.draw_text(surface, label, box, size, palette.HIGHLIGHT_TEXT, bold=True, align="center")
        else:
            text.draw_text(surface, label, box, size, palette.FOREGROUND, bold=True, align="center")


def board_styles(view: ScreenView) -> dict[int, PlayerStyle]:
    """Seat -> drawing style for the players of a view, with distinct badges (the player strip's)."""
    return {view.chrome.seats[k].seat: style for k, style in seat_styles(view.chrome).items()}


def fitted(view: ScreenView, size: tuple[int, int]) -> ScreenView:
    """``view`` with a hint that keeps the board in place: while a notice holds the band's space, a hint
    too long for the side panel is cut to its advice, the part before its first colon ("Pair 6+8", not
    "Pair 6+8: next roll busts 0%; ..."), where that fits the panel (#51: the board shrank on such
    screens). Otherwise ``view`` as it is."""
    if not (view.chrome.band_space and view.chrome.notice and view.hint):
        return view
    layout = ScreenLayout.for_body(size, chrome_layout(view.chrome, size).body)
    if panel_hint(view, layout) is not None:
        return view
    advice = view.hint.split(": ", 1)[0]
    short = replace(view, hint=advice)
    return short if advice != view.hint and panel_hint(short, layout) is not None else view


def screen_layout(view: ScreenView, size: tuple[int, int] = (800, 480)) -> ScreenLayout:
    """The layout of ``view``'s body on a ``size`` screen: the frame's body
    (``companion.display.chrome.chrome_layout``) split by :meth:`ScreenLayout.for_body`.

    On the game's screen the frame keeps the notice band's space (``Chrome.band_space``), so the board
    keeps its place and size through the game: while no notice shows, the side panel reaches down into
    the band's space, and a hint too long for that panel takes the band's space instead where it fits
    there (``hint.band_fits``). Only a hint too long for both (a long hint beside many pairings: the
    advisor's longest, in German or Russian) takes a band under the board and the panel, and the board
    gives up that band's height (``hint.hint_band_height``), as on a view without the band's space; with
    a notice showing, the hint is first cut to its advice (:func:`fitted`)."""
    return _laid_out(fitted(view, size), size)


def _laid_out(view: ScreenView, size: tuple[int, int]) -> ScreenLayout:
    """:func:`screen_layout` of a view already :func:`fitted`."""
    frame = chrome_layout(view.chrome, size)
    layout = ScreenLayout.for_body(size, frame.body)
    if view.chrome.band_space and not view.chrome.notice:
        side = pygame.Rect(layout.side.x, layout.side.y, layout.side.width, frame.notice.bottom - layout.side.y)
        extended = replace(layout, side=side)
        if not view.hint or panel_hint(view, extended) is not None:
            return extended
        if band_fits(view.hint, frame.notice, layout):
            return replace(layout, hint_band=pygame.Rect(frame.notice))
    band = hint_band_height(view, layout)
    if band:
        layout = ScreenLayout.for_body(size, frame.body, hint_band=band)
    return layout


def draw(surface: pygame.Surface, view: ScreenView) -> BoardLayout:
    """Draw ``view`` over the whole of ``surface`` (any size), laid out by :func:`screen_layout`; return
    where the board was drawn.

    Reads no file once the fonts are loaded (they are cached in memory after the first use).
    """
    view = fitted(view, surface.get_size())
    draw_chrome(surface, view.chrome)
    layout = _laid_out(view, surface.get_size())
    styles = board_styles(view)
    board = draw_board(surface, layout.board, view.board, styles, layout.normal)
    draw_side_panel(surface, view, layout)
    draw_hint(surface, view, layout)
    return board


def render(view: ScreenView, size: tuple[int, int] = (800, 480)) -> pygame.Surface:
    """A new ``size`` (width, height) pixel surface with ``view`` drawn on it; needs no window."""
    return render_surface(draw, view, size)


def board_layout(view: ScreenView, size: tuple[int, int] = (800, 480)) -> BoardLayout:
    """Where the board of ``view`` lies on a ``size`` screen (for finding pieces in screenshots)."""
    layout = screen_layout(view, size)
    return BoardLayout(layout.board, dict(view.board.heights), layout.normal)

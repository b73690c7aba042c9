"""Drawing the Schotten Totten screen (:class:`StView`) at any size; designed for 800 x 480.

The shared frame (``companion.display.chrome``: header with the game of the match, notice band, player
strip with match points and stones, key chips) around the body, top to bottom: side ``a`` (seat 0) cards
stacked toward the stones, the row of nine stones (each with the formation tags of its two complete
sides beside it: "CR 24"), side ``b`` (seat 1) cards, and an info box: at the claim step the selected
stone's verdict in plain words, else the public alert, and the legend of the tags under them. A card is a
rectangle in its colour with its code (colour letter and value) written on it, so colour is never the
only cue. A claimed stone shows its owner's token; a claimable one has a thick white ring; a stone the
other player may claim next turn a yellow ring (and the alert says so in words).
"""

from __future__ import annotations

from dataclasses import replace

import pygame

from companion.display import fonts, text
from companion.display.chrome import chrome_layout, draw_chrome, seat_styles
from companion.display.tokens import draw_token
from companion.display.window import render_surface
from companion.games.schotten_totten import card_name
from companion.i18n import _
from companion.screens import palette
from companion.screens.common import Tone
from companion.screens.schotten_totten import StoneView, StView

CARD_COLOURS = {"R": (0xD0, 0x30, 0x30), "O": (0xF0, 0x8C, 0x20), "Y": (0xF0, 0xE0, 0x40),
                "G": (0x2E, 0xA0, 0x4E), "B": (0x30, 0x70, 0xD8), "P": (0x95, 0x55, 0xC8)}
"""Fill of each card colour (the reference deck's colours, brightened for the screen)."""

DARK_TEXT = {"O", "Y", "G"}
"""Card colours written in black (the others in white), for contrast."""

ALERT: palette.RGB = (0xF0, 0xE4, 0x42)


def _style(view: StView, seat: int) -> palette.PlayerStyle:
    return seat_styles(view.chrome).get(seat, palette.player_style(seat, ""))


def draw_card(surface: pygame.Surface, rect: pygame.Rect, code: str, floor: int, *, pending: bool = False) -> None:
    """One card (``code``: ``"Y5"``): its colour, its name in the language spoken in bold (at least
    ``floor`` px); a pending (unconfirmed) card gets a dashed white edge."""
    fill = CARD_COLOURS.get(code[:1], palette.SLOT)
    pygame.draw.rect(surface, fill, rect, border_radius=max(2, rect.height // 6))
    pygame.draw.rect(surface, palette.INK, rect, width=1, border_radius=max(2, rect.height // 6))
    ink = palette.INK if code[:1] in DARK_TEXT else palette.FOREGROUND
    size = max(floor, min(round(floor * 1.3), fonts.size_for_height(rect.height)))
    text.draw_text(surface, card_name(code) + ("?" if pending else ""), rect, size, ink, bold=True, align="center")
    if pending:
        _dashed_rect(surface, rect.inflate(4, 4), palette.HIGHLIGHT)


def _dashed_rect(surface: pygame.Surface, rect: pygame.Rect, colour, dash: int = 6) -> None:
    for x in range(rect.left, rect.right, dash * 2):
        pygame.draw.line(surface, colour, (x, rect.top), (min(x + dash, rect.right), rect.top), 2)
        pygame.draw.line(surface, colour, (x, rect.bottom - 1), (min(x + dash, rect.right), rect.bottom - 1), 2)
    for y in range(rect.top, rect.bottom, dash * 2):
        pygame.draw.line(surface, colour, (rect.left, y), (rect.left, min(y + dash, rect.bottom)), 2)
        pygame.draw.line(surface, colour, (rect.right - 1, y), (rect.right - 1, min(y + dash, rect.bottom)), 2)


def _draw_side(surface: pygame.Surface, area: pygame.Rect, stone: StoneView, seat: int, toward_top: bool,
               card_h: int, floor: int) -> None:
    """A side's cards stacked from the stone outward (the first played nearest the stone)."""
    cards = list(stone.cards[seat])
    pending = stone.proposed and stone.proposed_seat == seat
    if pending:
        cards.append(stone.proposed)
    step = card_h + 2
    for k, code in enumerate(cards[:3]):
        y = area.bottom - (k + 1) * step if toward_top else area.top + k * step + 2
        draw_card(surface, pygame.Rect(area.x + 3, y, area.width - 6, card_h), code, floor,
                  pending=bool(pending) and k == len(cards) - 1)


def _draw_stone(surface: pygame.Surface, view: StView, rect: pygame.Rect, index: int, stone: StoneView,
                floor: int) -> None:
    """The stone's disc (its number, or its owner's token once claimed) on the left of ``rect``, the
    formation tags of the two sides on the right (side a above, side b below)."""
    size = min(rect.height * 0.86, text.line_height(floor, bold=True) + 4)
    centre = (rect.x + 1 + size / 2, rect.centery)
    if stone.owner is not None:
        draw_token(surface, centre, size, _style(view, stone.owner))
    else:
        pygame.draw.circle(surface, palette.TOP_SPACE, centre, size / 2)
        pygame.draw.circle(surface, palette.SLOT_EDGE, centre, size / 2, width=2)
        box = pygame.Rect(0, 0, round(size), text.line_height(floor, bold=True))
        box.center = (round(centre[0]), round(centre[1]))
        text.draw_text(surface, str(index + 1), box, floor, palette.FOREGROUND, bold=True, align="center")
        if stone.claimable:
            pygame.draw.circle(surface, palette.HIGHLIGHT, centre, size / 2 + 3, width=4)
        elif stone.threatened:
            pygame.draw.circle(surface, ALERT, centre, size / 2 + 3, width=3)
    tags = pygame.Rect(round(centre[0] + size / 2 + 2), rect.y, rect.right - round(centre[0] + size / 2 + 2),
                       rect.height)
    line = text.line_height(floor)
    for k, label in enumerate(stone.labels):
        if label:
            row = pygame.Rect(tags.x, tags.centery - line if k == 0 else tags.centery, tags.width, line)
            text.draw_text(surface, label, row, floor, palette.MUTED, align="center")


def board_metrics(body: pygame.Rect, info_h: int, floor: int) -> tuple[int, int, int]:
    """(height of each side's area, of the stone row, of a card) in pixels for a board in ``body`` above an
    info box ``info_h`` high: the stone row holds the disc and two lines of tags; each side three cards."""
    stone_h = 2 * text.line_height(floor) + 2
    side_h = max(0, (body.height - info_h - stone_h - 4) // 2)  # 2 px each side: a code's line box overhangs its card
    card_h = max(min_card(floor), min(round(text.line_height(floor, bold=True) * 1.6), side_h // 3 - 2))
    return side_h, stone_h, card_h


def min_card(floor: int) -> int:
    """The lowest card that still holds its code in the floor's bold type (a line of it, less the pixel of
    air above and below that the line box carries)."""
    return text.line_height(floor, bold=True) - 2


def info_text(view: StView) -> tuple[str, palette.RGB]:
    """The info box's first text and its colour: at the claim step the selected stone's verdict; else the
    public alert; else the legend of the formation tags."""
    selected = next(((k, s) for k, s in enumerate(view.stones) if s.selected), None)
    if view.claiming and selected is not None and selected[1].reason:
        return _("Stone {n}: {why}").format(n=selected[0] + 1, why=selected[1].reason), palette.FOREGROUND
    if view.alert:
        return view.alert, ALERT
    return view.legend, palette.MUTED


def info_parts(view: StView) -> list[tuple[str, palette.RGB]]:
    """The info box's texts, first to last: :func:`info_text`, and under a verdict or an alert the legend
    too, so the tags on the board ("D 12") are never left unexplained; last the card colours' letters
    (:func:`fitted` drops it first where the box has no room)."""
    first = info_text(view)
    parts = [first] if first[0] else []
    if first[1] != palette.MUTED and view.legend:
        parts.append((view.legend, palette.MUTED))
    if view.colours:
        parts.append((view.colours, palette.MUTED))
    return parts


Info = list[tuple[str, palette.RGB, list[str]]]
"""The info box's parts as drawn: (text, colour, its wrapped lines)."""


INFO_LINES = 2
"""The lines kept under the stones for the info box, on every screen of the game (so the board never
moves when an alert comes or goes): fewer when the body is too low for the board and them."""


def _info(parts: list[tuple[str, palette.RGB]], body: pygame.Rect, floor: int, pad: int) -> tuple[Info, int]:
    """The info box's parts wrapped to the width of ``body``, and the lines they take."""
    info = [(words, colour, text.wrap_all(words, floor, body.width - 2 * pad, bold=colour != palette.MUTED))
            for words, colour in parts]
    return info, sum(len(wrapped) for _words, _colour, wrapped in info)


def info_room(body: pygame.Rect, floor: int, pad: int) -> int:
    """The info box's lines for a body ``body``: :data:`INFO_LINES`, or fewer where the board would not
    fit above them (the same for every screen of a game: it depends on the body alone)."""
    for lines in range(INFO_LINES, 0, -1):
        if _board_fits(body, _info_height(lines, floor, pad), floor):
            return lines
    return 0


def _info_height(lines: int, floor: int, pad: int) -> int:
    return lines * text.line_height(floor, bold=True) + (pad if lines else 0)


def _board_fits(body: pygame.Rect, info_h: int, floor: int) -> bool:
    side_h, _stone_h, card_h = board_metrics(body, info_h, floor)
    return 3 * (card_h + 2) <= side_h


def fitted(view: StView, size: tuple[int, int]) -> tuple[StView, list[tuple[str, palette.RGB]]]:
    """``view`` as drawn on a ``size`` screen, and the parts of its info box (:func:`info_parts`) shown: a
    body too low for the board and all of them runs the two legends on in one text (the tags' and the
    colours' letters: Russian at 800 x 480), else drops the colours' letters, then the legend, and then
    moves a verdict or an alert into the notice band."""
    frame = chrome_layout(view.chrome, size)
    floor, pad = frame.type.floor, frame.pad
    parts, room = info_parts(view), info_room(frame.body, floor, pad)
    while parts and _info(parts, frame.body, floor, pad)[1] > room:
        if len(parts) > 1 and parts[-1][1] == parts[-2][1] == palette.MUTED:
            joined = [*parts[:-2], (f"{parts[-2][0]} · {parts[-1][0]}", palette.MUTED)]  # one flow, no half-empty line
            if _info(joined, frame.body, floor, pad)[1] <= room:
                parts = joined
                continue
        if parts[-1][1] == palette.MUTED:
            parts = parts[:-1]  # the colours' letters, then the legend: the cards come first
            continue
        notice = " ".join(part for part in (view.chrome.notice, parts[0][0]) if part)
        tone = view.chrome.tone if view.chrome.notice else Tone.WARNING
        return replace(view, chrome=replace(view.chrome, notice=notice, tone=tone)), []
    return view, parts


def draw(surface: pygame.Surface, view: StView) -> None:
    """Draw ``view`` over the whole of ``surface`` (any size): the shared frame, then the body: side ``a``
    (seat 0) cards above the row of nine stones, side ``b`` below, each side's token in a gutter at their
    left, and the info box under them (or, when the body is too low for it, the verdict or alert in the
    notice band: :func:`fitted`)."""
    view, parts = fitted(view, surface.get_size())
    layout = draw_chrome(surface, view.chrome)
    body, sizes, pad = layout.body, layout.type, layout.pad
    floor = sizes.floor
    info, _lines = _info(parts, body, floor, pad)
    info_h = _info_height(info_room(body, floor, pad), floor, pad)  # kept whether anything is said or not
    side_h, stone_h, card_h = board_metrics(body, info_h, floor)
    # a gutter at the left with each side's token: which row of cards is whose (a new player asked)
    token = round(text.line_height(floor, bold=True) * 1.3)  # large enough for its letter
    gutter = token + pad
    for seat, centre_y in ((0, body.y + side_h / 2), (1, body.y + side_h + stone_h + side_h / 2)):
        if view.chrome.seats and side_h >= token:
            draw_token(surface, (body.x + token / 2, centre_y), token, _style(view, seat))
    col_w = (body.width - gutter) / 9
    for i, stone in enumerate(view.stones[:9]):
        x0, x1 = round(body.x + gutter + i * col_w), round(body.x + gutter + (i + 1) * col_w)
        column = pygame.Rect(x0, body.y, x1 - x0, side_h * 2 + stone_h)
        if stone.selected:
            pygame.draw.rect(surface, palette.SLOT, column)
            pygame.draw.rect(surface, palette.HIGHLIGHT, column, width=3)
        elif view.claiming and stone.reason:  # completed by the player to act: it can be looked at
            pygame.draw.rect(surface, palette.SLOT_EDGE, column, width=1)
        _draw_side(surface, pygame.Rect(x0, body.y, x1 - x0, side_h), stone, 0, True, card_h, floor)
        stone_rect = pygame.Rect(x0, body.y + side_h, x1 - x0, stone_h)
        _draw_stone(surface, view, stone_rect, i, stone, floor)
        _draw_side(surface, pygame.Rect(x0, stone_rect.bottom, x1 - x0, side_h), stone, 1, False, card_h, floor)
    y = body.bottom - info_h
    line_h = text.line_height(floor, bold=True)
    for words, colour, lines in info:
        box = pygame.Rect(body.x, y, body.width, len(lines) * line_h)
        text.draw_lines(surface, lines, box.inflate(-2 * pad, 0), floor, colour, bold=colour != palette.MUTED,
                        whole=words)
        y = box.bottom


def render(view: StView, size: tuple[int, int] = (800, 480)) -> pygame.Surface:
    """A new surface of ``size`` with ``view`` drawn on it (tests, screenshots); needs no window."""
    return render_surface(draw, view, size)

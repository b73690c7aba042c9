"""Drawing the Schotten Totten screen (:class:`StView`) at any size; designed for 800 x 480.

Layout, top to bottom: the top bar (title, whose turn, message; the prompt in large type), side ``a``
(seat 0) cards stacked toward the stones, the row of nine stones, side ``b`` (seat 1) cards, an info
line (the selected stone's claim reason, else the public alert), and the bottom bar (match points,
stones, keys). A card is a rectangle in its colour with its code (colour letter and value) written on
it, so colour is never the only cue. A claimed stone is filled with its owner's colour and letter; a
claimable one has a thick white ring and "claim"; a stone the other player may claim next turn has a
yellow dashed ring and "!".
"""

from __future__ import annotations

import pygame

from companion.display import fonts, text
from companion.display.tokens import draw_token
from companion.display.window import render_surface
from companion.i18n import _, ngettext
from companion.screens import palette
from companion.screens.schotten_totten import StoneView, StView

CARD_COLOURS = {"R": (0xD0, 0x30, 0x30), "O": (0xF0, 0x8C, 0x20), "Y": (0xF0, 0xE0, 0x40),
                "G": (0x2E, 0xA0, 0x4E), "B": (0x30, 0x70, 0xD8), "P": (0x95, 0x55, 0xC8)}
"""Fill of each card colour (the reference deck's colours, brightened for the screen)."""

DARK_TEXT = {"O", "Y", "G"}
"""Card colours written in black (the others in white), for contrast."""

ALERT: palette.RGB = (0xF0, 0xE4, 0x42)


def seat_label(name: str, seat: int, points: int, stones: int) -> str:
    """The bottom bar's line for ``seat`` (0: side a, 1: side b): "Ada (a): 1 point, 2 stones" (match
    points and stones held, counted with ``ngettext``)."""
    return _("{name} ({side}): {points}, {stones}").format(
        name=name, side="a" if seat == 0 else "b",
        points=ngettext("{n} point", "{n} points", points).format(n=points),
        stones=ngettext("{n} stone", "{n} stones", stones).format(n=stones))


def _style(view: StView, seat: int) -> palette.PlayerStyle:
    if seat >= len(view.players):
        return palette.player_style(seat, "")
    return palette.player_style(seat, view.players[seat], palette.badges(view.players)[seat])


def draw_card(surface: pygame.Surface, rect: pygame.Rect, code: str, *, pending: bool = False) -> None:
    """One card: its colour, its code in bold; a pending (unconfirmed) card gets a dashed white edge."""
    fill = CARD_COLOURS.get(code[:1], palette.SLOT)
    pygame.draw.rect(surface, fill, rect, border_radius=max(2, rect.height // 6))
    pygame.draw.rect(surface, palette.INK, rect, width=1, border_radius=max(2, rect.height // 6))
    ink = palette.INK if code[:1] in DARK_TEXT else palette.FOREGROUND
    text.draw_text(surface, code + ("?" if pending else ""), rect.inflate(-4, -2),
                   fonts.size_for_height(rect.height * 0.8),
                   ink, bold=True, align="center")
    if pending:
        _dashed_rect(surface, rect.inflate(4, 4), palette.HIGHLIGHT)


def _dashed_rect(surface: pygame.Surface, rect: pygame.Rect, colour, dash: int = 6) -> None:
    for x in range(rect.left, rect.right, dash * 2):
        pygame.draw.line(surface, colour, (x, rect.top), (min(x + dash, rect.right), rect.top), 2)
        pygame.draw.line(surface, colour, (x, rect.bottom - 1), (min(x + dash, rect.right), rect.bottom - 1), 2)
    for y in range(rect.top, rect.bottom, dash * 2):
        pygame.draw.line(surface, colour, (rect.left, y), (rect.left, min(y + dash, rect.bottom)), 2)
        pygame.draw.line(surface, colour, (rect.right - 1, y), (rect.right - 1, min(y + dash, rect.bottom)), 2)


def _draw_side(surface: pygame.Surface, area: pygame.Rect, stone: StoneView, seat: int, toward_top: bool) -> None:
    """A side's cards stacked from the stone outward, and its formation label at the far end."""
    label_h = max(10, area.height // 6)
    card_h = (area.height - label_h) // 3 - 2
    cards = list(stone.cards[seat])
    pending = stone.proposed and stone.proposed_seat == seat
    if pending:
        cards.append(stone.proposed)
    for k, code in enumerate(cards[:3]):
        y = area.bottom - (k + 1) * (card_h + 2) if toward_top else area.top + k * (card_h + 2)
        draw_card(surface, pygame.Rect(area.x + 3, y, area.width - 6, card_h), code,
                  pending=bool(pending) and k == len(cards) - 1)
    label = stone.labels[seat]
    if label:
        y = area.top if toward_top else area.bottom - label_h
        text.draw_text(surface, label, pygame.Rect(area.x + 1, y, area.width - 2, label_h), label_h, palette.MUTED,
                       align="center", min_size=max(6, label_h * 2 // 5))


def _draw_stone(surface: pygame.Surface, view: StView, rect: pygame.Rect, index: int, stone: StoneView) -> None:
    centre = rect.center
    size = min(rect.width, rect.height) * 0.8
    if stone.owner is not None:
        draw_token(surface, centre, size, _style(view, stone.owner))
        return
    pygame.draw.circle(surface, palette.TOP_SPACE, centre, size / 2)
    pygame.draw.circle(surface, palette.SLOT_EDGE, centre, size / 2, width=2)
    text.draw_text(surface, str(index + 1), pygame.Rect(0, 0, size, size * 0.6).move(
        centre[0] - size / 2, centre[1] - size * 0.3), round(size * 0.5), palette.FOREGROUND, bold=True, align="center")
    if stone.claimable:
        pygame.draw.circle(surface, palette.HIGHLIGHT, centre, size / 2 + 3, width=4)
    elif stone.threatened:
        pygame.draw.circle(surface, ALERT, centre, size / 2 + 3, width=3)
        text.draw_text(surface, "!", pygame.Rect(rect.right - 14, rect.top, 12, rect.height // 2), rect.height // 2,
                       ALERT, bold=True)


def draw(surface: pygame.Surface, view: StView) -> None:
    """Draw ``view`` over the whole of ``surface`` (any size)."""
    w, h = surface.get_size()
    surface.fill(palette.BACKGROUND)
    small = max(9, h // 32)
    normal = max(11, h // 26)
    large = max(13, h // 19)
    top_h = round(h * 0.15)
    bottom_h = round(h * 0.14)  # two rows: the seats, then the keys
    info_h = round(h * 0.055)
    stone_h = round(h * 0.1)
    pad = max(2, w // 200)
    # top bar
    pygame.draw.rect(surface, palette.PANEL, (0, 0, w, top_h))
    row = pygame.Rect(pad * 2, 0, w - pad * 4, top_h * 2 // 5)
    title = text.draw_text(surface, view.title, pygame.Rect(row.x, row.y, w // 4, row.height), small, palette.MUTED,
                           bold=True)
    x = title.right + pad * 4
    if view.active is not None:
        style = _style(view, view.active)
        draw_token(surface, (x + row.height * 0.4, row.centery), row.height * 0.8, style)
        x += row.height + pad
        name_rect = text.draw_text(surface, view.players[view.active], pygame.Rect(x, row.y, w // 4, row.height), normal,
                              style.colour, bold=True)
        x = name_rect.right + pad * 4
        pygame.draw.rect(surface, style.colour, (0, top_h - 3, w, 3))
    msg = view.status if view.refused else (view.message or view.status)
    text.draw_text(surface, msg, pygame.Rect(x, row.y, row.right - x, row.height), normal, palette.FOREGROUND,
                   bold=True, align="right")
    text.draw_wrapped(surface, view.prompt, pygame.Rect(pad * 2, row.bottom, w - pad * 4, top_h - row.height - 4),
                      large, palette.FOREGROUND, bold=True, max_lines=2, min_size=max(8, small * 3 // 4))
    # board
    board_top = top_h + pad
    board_bottom = h - bottom_h - info_h - pad
    side_h = (board_bottom - board_top - stone_h) // 2
    col_w = w / 9
    for i, stone in enumerate(view.stones[:9]):
        x0 = round(i * col_w)
        x1 = round((i + 1) * col_w)
        column = pygame.Rect(x0, board_top, x1 - x0, board_bottom - board_top)
        if stone.selected:
            pygame.draw.rect(surface, palette.SLOT, column)
            pygame.draw.rect(surface, palette.HIGHLIGHT, column, width=3)
        _draw_side(surface, pygame.Rect(x0, board_top, x1 - x0, side_h), stone, 0, toward_top=True)
        stone_rect = pygame.Rect(x0, board_top + side_h, x1 - x0, stone_h)
        _draw_stone(surface, view, stone_rect, i, stone)
        _draw_side(surface, pygame.Rect(x0, stone_rect.bottom, x1 - x0, side_h), stone, 1, toward_top=False)
    # info line: the selected stone's reason, else the alert
    info = pygame.Rect(pad * 2, board_bottom, w - pad * 4, info_h)
    reason = next((s.reason for s in view.stones if s.selected and s.reason), "")
    if view.refused and view.message:
        text.draw_wrapped(surface, view.message, info.inflate(0, info.height // 2).move(0, -info.height // 4),
                          normal, ALERT, bold=True, max_lines=2, min_size=max(7, small * 2 // 3))
    elif reason:
        text.draw_text(surface, reason, info, normal, palette.FOREGROUND, bold=True, min_size=max(7, small * 2 // 3))
    elif view.alert:
        text.draw_text(surface, view.alert, info, normal, ALERT, bold=True, min_size=max(7, small * 2 // 3))
    # bottom bar: match points and stones on its first row, the keys on the second
    bar = pygame.Rect(0, h - bottom_h, w, bottom_h)
    pygame.draw.rect(surface, palette.PANEL, bar)
    seats_row = pygame.Rect(0, bar.y, w, bottom_h * 11 // 20)
    keys_row = pygame.Rect(pad * 2, seats_row.bottom, w - pad * 4, bar.bottom - seats_row.bottom)
    x = pad * 2
    for seat, name in enumerate(view.players[:2]):
        style = _style(view, seat)
        draw_token(surface, (x + seats_row.height * 0.3, seats_row.centery), seats_row.height * 0.55, style)
        x += round(seats_row.height * 0.65)
        label = seat_label(name, seat, view.points[seat], view.stones_held[seat])
        drawn = text.draw_text(surface, label, pygame.Rect(x, seats_row.y, w * 3 // 8, seats_row.height), small,
                               palette.FOREGROUND, min_size=max(6, small * 3 // 5))
        x = drawn.right + pad * 4
    game_text = _("game {n}/{total}").format(n=view.game_number, total=view.match_length)
    text.draw_text(surface, game_text, pygame.Rect(x, seats_row.y, w - x - pad * 2, seats_row.height), small,
                   palette.MUTED, align="right")
    keys = "   ".join(f"{k}: {v}" for k, v in view.keys)
    text.draw_text(surface, keys, keys_row, small, palette.MUTED, min_size=max(6, small * 3 // 5))
    if view.winner is not None or view.match_winner is not None:
        _draw_banner(surface, view, pygame.Rect(w // 8, board_top + side_h - stone_h // 2, w * 3 // 4, stone_h * 2),
                     large)


def _draw_banner(surface: pygame.Surface, view: StView, rect: pygame.Rect, size: int) -> None:
    pygame.draw.rect(surface, palette.PANEL, rect, border_radius=8)
    seat = view.winner
    colour = _style(view, seat).colour if seat is not None else palette.HIGHLIGHT
    pygame.draw.rect(surface, colour, rect, width=4, border_radius=8)
    if view.match_winner:
        line = _("{name} wins the match {a}-{b}").format(name=view.match_winner, a=view.points[0], b=view.points[1])
    elif seat is not None:
        line = _("{name} wins the game").format(name=view.players[seat])
    else:
        line = _("Match drawn {a}-{b}").format(a=view.points[0], b=view.points[1])
    text.draw_text(surface, line, rect.inflate(-16, -8), size, palette.FOREGROUND, bold=True, align="center")


def render(view: StView, size: tuple[int, int] = (800, 480)) -> pygame.Surface:
    """A new surface of ``size`` with ``view`` drawn on it (tests, screenshots); needs no window."""
    return render_surface(draw, view, size)

"""The top bar (title, whose turn, message/status, prompt), the bottom bar (scores, keys) and the winner banner."""

from __future__ import annotations

import pygame

from companion.display import fonts, palette, text
from companion.display.layout import ScreenLayout
from companion.display.palette import PlayerStyle
from companion.display.tokens import draw_token
from companion.display.view import ScreenView
from companion.i18n import _

STAR = "\u2605"


def draw_top_bar(
    surface: pygame.Surface, view: ScreenView, styles: dict[int, PlayerStyle], layout: ScreenLayout
) -> None:
    """Draw the top bar into ``layout.top_bar``.

    Title row: the title (muted, at most 30 % of the width), then the active player's token and name in
    their colour, then the message (bold) and status (muted) right-aligned. Prompt row: the prompt in
    large bold type, shrunk and if need be wrapped onto two lines. A strip in the active player's colour
    runs along the bar's bottom edge.
    """
    bar = layout.top_bar
    pygame.draw.rect(surface, palette.PANEL, bar)
    row = layout.title_row
    x = row.x
    title = text.draw_text(surface, view.title, pygame.Rect(x, row.y, round(row.width * 0.3), row.height),
                           layout.small, palette.MUTED, bold=True)
    x = title.right + layout.pad * 3 if view.title else x
    seat = view.active
    active = styles.get(seat) if seat is not None else None
    if seat is not None and active is not None:
        token = round(row.height * 0.8)
        draw_token(surface, (x + token / 2, row.centery), token, active)
        x += token + layout.pad
        name = view.players[seat].name
        drawn = text.draw_text(surface, name, pygame.Rect(x, row.y, round(row.width * 0.3), row.height),
                               layout.normal, active.colour, bold=True)
        x = drawn.right + layout.pad * 3
        strip = max(2, round(layout.pad * 0.7))
        pygame.draw.rect(surface, active.colour, (bar.x, bar.bottom - strip, bar.width, strip))
    right = pygame.Rect(x, row.y, row.right - x, row.height)
    status_w = 0
    if view.status:
        status_size = text.fit_size(view.status, right.width // (2 if view.message else 1), layout.small,
                                    max(6, layout.small * 2 // 3))
        status_w = min(fonts.font(status_size).size(view.status)[0], right.width // (2 if view.message else 1))
        text.draw_text(surface, view.status, pygame.Rect(right.right - status_w, right.y, status_w, right.height),
                       layout.small, palette.MUTED, align="right")
    if view.message:
        msg = pygame.Rect(right.x, right.y, right.width - status_w - (layout.pad * 3 if status_w else 0), right.height)
        text.draw_text(surface, view.message, msg, layout.normal, palette.FOREGROUND, bold=True, align="right")
    text.draw_wrapped(surface, view.prompt, layout.prompt_row, layout.large, palette.FOREGROUND, bold=True,
                      max_lines=2, min_size=max(6, layout.small * 3 // 4))


def draw_bottom_bar(
    surface: pygame.Surface, view: ScreenView, styles: dict[int, PlayerStyle], layout: ScreenLayout
) -> None:
    """Draw the scores row and the key legend into ``layout.bottom_bar``.

    Scores: one cell per player with token, name, one box per column needed to win (filled for each
    claimed column) and "★ n" games won; the active player's cell is outlined. Keys: each key in a light
    key cap followed by its meaning; everything shrinks, then the meanings are cut, to fit one row.
    """
    pygame.draw.rect(surface, palette.PANEL, layout.bottom_bar)
    _draw_scores(surface, view, styles, layout)
    _draw_keys(surface, view.keys, layout)


def _draw_scores(
    surface: pygame.Surface, view: ScreenView, styles: dict[int, PlayerStyle], layout: ScreenLayout
) -> None:
    row = layout.scores_row
    if not view.players:
        return
    to_win = int(view.extra.get("columns_to_win", 3)) if isinstance(view.extra, dict) else 3
    boxes = min(max(to_win, 0), 5)
    pad = layout.pad
    token = round(row.height * 0.78)
    box = round(row.height * 0.36)
    box_step = box + max(1, box // 3)
    wins = [f"{STAR} {p.wins}" for p in view.players]
    wins_w = [fonts.font(layout.small, bold=True).size(w)[0] for w in wins]
    fixed = [pad + token + pad + pad + boxes * box_step + pad + w + pad for w in wins_w]
    budget = row.width - sum(fixed) - pad * (len(fixed) - 1)
    for name_size in (layout.normal, layout.small):  # the smaller type only when the names need it
        wants = [fonts.font(name_size, bold=True).size(p.name)[0] for p in view.players]
        if sum(wants) <= budget:
            break
    names = _share(wants, budget)
    spare = row.width - sum(fixed) - sum(names)
    gap = min(pad * 6, spare // max(1, len(fixed) - 1)) if len(fixed) > 1 else 0
    x = row.x
    for seat, player in enumerate(view.players):
        style = styles[seat]
        cell = pygame.Rect(x, row.y, fixed[seat] + names[seat], row.height)
        x = cell.right + gap
        if seat == view.active:
            pygame.draw.rect(surface, palette.FOREGROUND, cell, max(1, pad // 3), border_radius=pad)
        draw_token(surface, (cell.x + pad + token / 2, cell.centery), token, style)
        name_x = cell.x + 2 * pad + token
        name = text.draw_text(surface, player.name, pygame.Rect(name_x, row.y, names[seat], row.height),
                              name_size, palette.FOREGROUND, bold=True, min_size=name_size)
        stats_x = max(name.right, name_x) + pad
        for k in range(boxes):
            r = pygame.Rect(stats_x + k * box_step, row.centery - box // 2, box, box)
            if k < player.claimed:
                pygame.draw.rect(surface, style.colour, r)
            pygame.draw.rect(surface, palette.FOREGROUND, r, max(1, box // 6))
        wins_x = stats_x + boxes * box_step + pad
        text.draw_text(surface, wins[seat], pygame.Rect(wins_x, row.y, wins_w[seat], row.height), layout.small,
                       palette.FOREGROUND, bold=True, min_size=layout.small)


def _share(wants: list[int], budget: int) -> list[int]:
    """Give each of ``wants`` (pixels) what it asks for, the longest ones cut to share ``budget`` fairly."""
    out = list(wants)
    order = sorted(range(len(wants)), key=lambda i: wants[i])
    left = max(0, budget)
    for k, i in enumerate(order):
        out[i] = min(wants[i], left // (len(order) - k))
        left -= out[i]
    return out


def _draw_keys(surface: pygame.Surface, keys: tuple[tuple[str, str], ...], layout: ScreenLayout) -> None:
    row = layout.keys_row
    if not keys:
        return
    gap = layout.pad * 3
    pad = max(2, layout.pad)

    def widths(size: int) -> list[tuple[int, int]]:
        font_key, font_text = fonts.font(size, bold=True), fonts.font(size)
        return [(font_key.size(k)[0] + 2 * pad, font_text.size(m)[0]) for k, m in keys]

    size = layout.small
    low = max(6, layout.small * 3 // 4)
    while size > low and sum(a + b + pad + gap for a, b in widths(size)) > row.width:
        size -= 1
    measured = widths(size)
    total = sum(a + b + pad + gap for a, b in measured)
    share = None if total <= row.width else (row.width - sum(a + pad + gap for a, _b in measured)) // len(keys)
    x = row.x
    cap_h = min(row.height - 2, round(fonts.font(size).get_linesize() * 1.1))
    for (key, meaning), (key_w, text_w) in zip(keys, measured, strict=True):
        if x >= row.right:
            break
        cap = pygame.Rect(x, row.centery - cap_h // 2, min(key_w, row.right - x), cap_h)
        pygame.draw.rect(surface, palette.FOREGROUND, cap, border_radius=max(2, cap_h // 4))
        text.draw_text(surface, key, cap, size, palette.HIGHLIGHT_TEXT, bold=True, align="center", min_size=size)
        x = cap.right + pad
        width = min(text_w if share is None else max(0, share), row.right - x)
        text.draw_text(surface, meaning, pygame.Rect(x, row.y, width, row.height), size, palette.FOREGROUND,
                       min_size=size)
        x += width + gap


def winner_banner_rect(layout: ScreenLayout) -> pygame.Rect:
    """Where the winner banner goes: 80 % of the width, 34 % of the height, centred above the bottom bar."""
    w, h = layout.size
    banner = pygame.Rect(0, 0, round(w * 0.8), round(h * 0.34))
    banner.center = (w // 2, layout.bottom_bar.y // 2 + layout.top_bar.height // 4)
    return banner


def winner_banner_border(layout: ScreenLayout) -> int:
    """Width in pixels of the banner's frame in the winner's colour."""
    return max(3, layout.pad)


def draw_winner_banner(
    surface: pygame.Surface, view: ScreenView, styles: dict[int, PlayerStyle], layout: ScreenLayout
) -> pygame.Rect:
    """Darken everything above the bottom bar and draw a banner "<name> wins!" across the middle.

    The banner is 80 % of the width and about a third of the height, framed in the winner's colour, with
    the winner's token on the left. Returns the banner's rectangle.
    """
    w, h = layout.size
    shade = pygame.Surface((w, layout.bottom_bar.y), pygame.SRCALPHA)
    shade.fill((0, 0, 0, 150))
    surface.blit(shade, (0, 0))
    seat = view.winner
    style = styles.get(seat) if seat is not None else None
    name = view.players[seat].name if seat is not None and 0 <= seat < len(view.players) else "?"
    banner = winner_banner_rect(layout)
    colour = style.colour if style else palette.FOREGROUND
    radius = layout.pad * 2
    pygame.draw.rect(surface, palette.BACKGROUND, banner, border_radius=radius)
    pygame.draw.rect(surface, colour, banner, winner_banner_border(layout), border_radius=radius)
    inner = banner.inflate(-4 * layout.pad, -4 * layout.pad)
    token = round(inner.height * 0.7)
    if style is not None:
        draw_token(surface, (inner.x + token / 2, inner.centery), token, style)
    text_rect = pygame.Rect(inner.x + token + 2 * layout.pad, inner.y, inner.width - token - 2 * layout.pad,
                            inner.height)
    title_rect = pygame.Rect(text_rect.x, text_rect.y, text_rect.width, round(text_rect.height * 0.62))
    text.draw_text(surface, _("{name} wins!").format(name=name), title_rect, round(layout.large * 1.8), colour,
                   bold=True, align="center", min_size=layout.normal)
    sub = pygame.Rect(text_rect.x, title_rect.bottom, text_rect.width, text_rect.height - title_rect.height)
    text.draw_text(surface, _("Game over"), sub, layout.normal, palette.FOREGROUND, align="center")
    return banner

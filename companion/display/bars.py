"""The top bar (title, whose turn, message/status, prompt), the bottom bar (scores, keys) and the winner banner."""

from __future__ import annotations

from dataclasses import dataclass

import pygame

from companion.display import fonts, text
from companion.display.layout import ScreenLayout
from companion.display.tokens import draw_token
from companion.i18n import _
from companion.screens import palette
from companion.screens.cant_stop import ScreenView
from companion.screens.palette import PlayerStyle

STAR = "\u2605"


def draw_top_bar(
    surface: pygame.Surface, view: ScreenView, styles: dict[int, PlayerStyle], layout: ScreenLayout
) -> None:
    """Draw the top bar into ``layout.top_bar``.

    Title row: the title (muted, at most 30 % of the width), then the active player's token and name in
    their colour, then the message (bold) and status (muted) right-aligned (a message too long for what
is left of the row goes whole into the upper half of the prompt row instead). Prompt row: the prompt in
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
    prompt_row = layout.prompt_row
    if view.message:
        msg = pygame.Rect(right.x, right.y, right.width - status_w - (layout.pad * 3 if status_w else 0), right.height)
        least = max(6, layout.normal * 2 // 3)
        if fonts.font(least, bold=True).size(view.message)[0] <= msg.width:
            text.draw_text(surface, view.message, msg, layout.normal, palette.FOREGROUND, bold=True, align="right",
                           min_size=least)
        else:  # too long beside a long name: the message takes the prompt row's upper half, whole
            upper = pygame.Rect(prompt_row.x, prompt_row.y, prompt_row.width, prompt_row.height // 2)
            text.draw_text(surface, view.message, upper, layout.normal, palette.FOREGROUND, bold=True,
                           min_size=fonts.MIN_SIZE)
            prompt_row = pygame.Rect(prompt_row.x, upper.bottom, prompt_row.width, prompt_row.height - upper.height)
    text.draw_wrapped(surface, view.prompt, prompt_row, layout.large, palette.FOREGROUND, bold=True,
                      max_lines=2, min_size=max(6, layout.small * 3 // 4))


def draw_bottom_bar(
    surface: pygame.Surface, view: ScreenView, styles: dict[int, PlayerStyle], layout: ScreenLayout
) -> None:
    """Draw the scores row and the key legend into ``layout.bottom_bar``.

    Scores: one cell per player with token, name, one box per column needed to win (filled for each
    claimed column) and "★ n" games won; the active player's cell is outlined; on two rows when the
    names do not fit one (see :func:`score_cells`). Keys: each key in a light
    key cap followed by its meaning; everything shrinks, then the meanings are cut, to fit one row.
    """
    pygame.draw.rect(surface, palette.PANEL, layout.bottom_bar)
    _draw_scores(surface, view, styles, layout)
    _draw_keys(surface, view.keys, layout)


@dataclass(frozen=True)
class ScoreCell:
    """Where one player's score goes (pixels): the whole ``cell`` (outlined for the active player), the
    token's centre and size, the name's box and type size, the first claimed-column box and the wins."""

    seat: int
    cell: pygame.Rect
    token_centre: tuple[float, float]
    token_size: int
    name_rect: pygame.Rect
    name_size: int
    boxes_x: int
    box: int
    box_step: int
    wins_rect: pygame.Rect


def _score_rows_of(n: int, rows: int) -> list[range]:
    """The seats of each row: the first rows take one more when ``n`` does not split evenly."""
    per = -(-n // rows)
    return [range(k, min(n, k + per)) for k in range(0, n, per)]


def _score_parts(view: ScreenView, layout: ScreenLayout, row_h: int) -> tuple[int, int, int, int, list[str], list[int]]:
    """(boxes, token, box, box_step, wins texts, wins widths) of a scores row ``row_h`` pixels high."""
    to_win = int(view.extra.get("columns_to_win", 3)) if isinstance(view.extra, dict) else 3
    boxes = min(max(to_win, 0), 5)
    token = round(row_h * 0.78)
    box = round(row_h * 0.36)
    box_step = box + max(1, box // 3)
    wins = [f"{STAR} {p.wins}" for p in view.players]
    wins_w = [fonts.font(layout.small, bold=True).size(w)[0] for w in wins]
    return boxes, token, box, box_step, wins, wins_w


def _fixed_widths(view: ScreenView, layout: ScreenLayout, row_h: int) -> list[int]:
    """Each cell's width without its name."""
    pad = layout.pad
    boxes, token, _box, box_step, _wins, wins_w = _score_parts(view, layout, row_h)
    return [pad + token + pad + pad + boxes * box_step + pad + w + pad for w in wins_w]


def _names_fit(view: ScreenView, layout: ScreenLayout, rows: int, size: int) -> bool:
    """Whether every name fits whole in ``size`` bold type with the scores on ``rows`` rows."""
    row_h = layout.scores_row.height // max(1, layout.score_rows)
    if rows != layout.score_rows:  # asked about another number of rows: as that layout would make them
        row_h = ScreenLayout.for_size(layout.size, score_rows=rows).scores_row.height // rows
    fixed = _fixed_widths(view, layout, row_h)
    font = fonts.font(size, bold=True)
    for seats in _score_rows_of(len(view.players), rows):
        slot = (layout.scores_row.width - layout.pad * (len(seats) - 1)) // len(seats) if rows > 1 else None
        widths = [fixed[s] + font.size(view.players[s].name)[0] for s in seats]
        if slot is not None and max(widths) > slot:
            return False
        if sum(widths) + layout.pad * (len(seats) - 1) > layout.scores_row.width:
            return False
    return True


def score_rows_needed(view: ScreenView, layout: ScreenLayout) -> int:
    """1 when every name fits whole on one scores row (in ``layout.normal`` or ``layout.small`` bold
    type), else 2 (three or four players; two players share one row in any case)."""
    if len(view.players) <= 2:
        return 1
    if any(_names_fit(view, layout, 1, size) for size in (layout.normal, layout.small)):
        return 1
    return 2


def score_cells(view: ScreenView, layout: ScreenLayout) -> list[ScoreCell]:
    """Where each player's score goes on the ``layout.score_rows`` rows of ``layout.scores_row``.

    One cell per player (seat order, split evenly over the rows, the first rows taking one more): token,
    name, one box per column needed to win (up to five) and "★ n" games won. Names are whole in
    ``layout.normal`` bold type when all of them fit, else in ``layout.small``; only names too long even
    for that share the room left (cut with "…" when drawn). On one row the cells sit side by side with
    up to six pads between them; on several rows they stand in equal columns.
    """
    if not view.players:
        return []
    rows = max(1, layout.score_rows)
    row_h = layout.scores_row.height // rows
    pad = layout.pad
    boxes, token, box, box_step, _wins, wins_w = _score_parts(view, layout, row_h)
    fixed = _fixed_widths(view, layout, row_h)
    name_size = next((size for size in (layout.normal, layout.small) if _names_fit(view, layout, rows, size)),
                     layout.small)
    font = fonts.font(name_size, bold=True)
    cells: list[ScoreCell] = []
    for r, seats in enumerate(_score_rows_of(len(view.players), rows)):
        y = layout.scores_row.y + r * row_h
        width = layout.scores_row.width
        slot = (width - pad * (len(seats) - 1)) // len(seats) if rows > 1 else None
        budget = (slot - max(fixed[s] for s in seats)) if slot is not None else \
            width - sum(fixed[s] for s in seats) - pad * (len(seats) - 1)
        wants = [font.size(view.players[s].name)[0] for s in seats]
        names = [max(0, min(w, budget)) for w in wants] if slot is not None else _share(wants, budget)
        if slot is None:
            spare = width - sum(fixed[s] for s in seats) - sum(names)
            gap = min(pad * 6, spare // max(1, len(seats) - 1)) if len(seats) > 1 else 0
        x = layout.scores_row.x
        for k, seat in enumerate(seats):
            cell = pygame.Rect(x, y, fixed[seat] + names[k], row_h)
            x = x + slot + pad if slot is not None else cell.right + gap
            name_x = cell.x + 2 * pad + token
            name_rect = pygame.Rect(name_x, y, names[k], row_h)
            boxes_x = name_rect.right + pad
            wins_x = boxes_x + boxes * box_step + pad
            cells.append(ScoreCell(seat, cell, (cell.x + pad + token / 2, cell.centery), token, name_rect, name_size,
                                   boxes_x, box, box_step, pygame.Rect(wins_x, y, wins_w[seat], row_h)))
    return cells


def _draw_scores(
    surface: pygame.Surface, view: ScreenView, styles: dict[int, PlayerStyle], layout: ScreenLayout
) -> None:
    to_win = int(view.extra.get("columns_to_win", 3)) if isinstance(view.extra, dict) else 3
    boxes = min(max(to_win, 0), 5)
    pad = layout.pad
    for placed in score_cells(view, layout):
        seat, player, style = placed.seat, view.players[placed.seat], styles[placed.seat]
        if seat == view.active:
            pygame.draw.rect(surface, palette.FOREGROUND, placed.cell, max(1, pad // 3), border_radius=pad)
        draw_token(surface, placed.token_centre, placed.token_size, style)
        text.draw_text(surface, player.name, placed.name_rect, placed.name_size, palette.FOREGROUND, bold=True,
                       min_size=placed.name_size)
        box, cy = placed.box, placed.cell.centery
        for k in range(boxes):
            r = pygame.Rect(placed.boxes_x + k * placed.box_step, cy - box // 2, box, box)
            if k < player.claimed:
                pygame.draw.rect(surface, style.colour, r)
            pygame.draw.rect(surface, palette.FOREGROUND, r, max(1, box // 6))
        text.draw_text(surface, f"{STAR} {player.wins}", placed.wins_rect, layout.small, palette.FOREGROUND,
                       bold=True, min_size=layout.small)


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
    low = max(6, layout.small * 2 // 3)
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

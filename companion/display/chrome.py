"""The frame every screen shares (ARCHITECTURE.md "The screen"): the header, the body, the notice band,
the player strip and the key chips, laid out from the surface's size and the texts they hold.

From top to bottom:

- the **header**: the game's title (muted), the token and name of the player to act in the seat's
  colour, the round on the right; under them the prompt in large type (wrapped onto more lines in smaller
  type, never under the floor, when it is long); a strip in the seat's colour along its bottom edge;
- the **body**: what is left, the game's own (:func:`draw_chrome` returns its rectangle);
- the **notice band**: the last event, a warning, a refused press or the game's winner
  (``Chrome.notice``, drawn by its tone); with ``Chrome.band_space`` (Ludo, Schotten Totten, the donkey
  race) it has a space of its own, two lines of the floor size, kept empty when there is no notice, so
  the body (the board) keeps its place and size through the game; elsewhere only when there is one;
- the **player strip**: each player's token, name, standing and games won, the player to act outlined;
  on two rows when one is too narrow for every name whole;
- the **key chips**: each button's name on a key cap and what it does now, on as many rows as they need
  (spaced closer before a second row is taken).

Every text is at least the floor size (``companion.display.text.floor_px``: 18 px at 800 x 480) and
whole: what does not fit on one line takes another. :func:`chrome_layout` computes where everything goes
(pure geometry, tested without drawing); :func:`draw_chrome` draws it.
"""

from __future__ import annotations

from dataclasses import dataclass

import pygame

from companion.display import text
from companion.display.tokens import draw_token
from companion.screens import palette
from companion.screens.common import Chrome, SeatChip, Tone
from companion.screens.palette import RGB, PlayerStyle

STAR = "\u2605"

NOTICE_COLOURS: dict[str, tuple[RGB, RGB]] = {
    Tone.EVENT: ((0x34, 0x40, 0x4E), palette.FOREGROUND),
    Tone.WARNING: (palette.YELLOW, palette.INK),
    Tone.REFUSED: ((0xE6, 0x9F, 0x00), palette.INK),
}
"""(band, text) colours of each notice tone: an event on a lighter panel, a warning on Okabe-Ito yellow, a
refused press on Okabe-Ito orange (dark text on both, contrast above 9:1); the tone is also said by the
words, never by colour alone."""


@dataclass(frozen=True)
class Sizes:
    """Type sizes (pixels) on a screen of scale ``unit`` (1.0 at 800 x 480): ``floor`` the smallest any
    text may be (18 px at 800 x 480), ``normal`` names and body text (21), ``large`` the prompt (26),
    ``huge`` a winner's banner (40)."""

    unit: float
    floor: int

    @property
    def normal(self) -> int:
        return max(self.floor, round(21 * self.unit))

    @property
    def large(self) -> int:
        return max(self.floor, round(26 * self.unit))

    @property
    def huge(self) -> int:
        return max(self.floor, round(40 * self.unit))

    def px(self, design: float) -> int:
        """``design`` pixels at 800 x 480 scaled to this screen (never under 1)."""
        return max(1, round(design * self.unit))


def sizes_for(size: tuple[int, int]) -> Sizes:
    """The type sizes of a ``(width, height)`` screen."""
    return Sizes(text.unit_of(size), text.floor_px(size))


@dataclass(frozen=True)
class ChipPlace:
    """Where one seat's chip goes: the whole ``cell``, the token's centre and size, and the boxes of the
    name, the standing and the games won (zero width when the chip has none)."""

    index: int
    cell: pygame.Rect
    token_centre: tuple[int, int]
    token_size: int
    name: pygame.Rect
    score: pygame.Rect
    wins: pygame.Rect


@dataclass(frozen=True)
class KeyPlace:
    """One key chip: the cap with the button's name and the box of what it does."""

    cap: pygame.Rect
    meaning: pygame.Rect


@dataclass(frozen=True)
class ChromeLayout:
    """Where the frame's parts go on a screen of ``size`` (pixels), for one :class:`Chrome`.

    ``header`` holds ``title_row`` and ``prompt`` (the prompt's ``prompt_lines`` in ``prompt_size``);
    ``body`` is the game's; ``notice`` (zero height without a notice) holds ``notice_lines`` in
    ``notice_size``; ``strip`` the player chips (``chips``); ``keys`` the key chips (``key_places``).
    """

    size: tuple[int, int]
    type: Sizes
    pad: int
    header: pygame.Rect
    title_row: pygame.Rect
    prompt: pygame.Rect
    prompt_size: int
    prompt_lines: tuple[str, ...]
    body: pygame.Rect
    notice: pygame.Rect
    notice_size: int
    notice_lines: tuple[str, ...]
    strip: pygame.Rect
    chips: tuple[ChipPlace, ...]
    keys: pygame.Rect
    key_places: tuple[KeyPlace, ...]


def seat_styles(chrome: Chrome) -> dict[int, PlayerStyle]:
    """The style of each seat chip, by index in ``chrome.seats``: the palette's colour and shape (or the
    chip's own colour), with badges that tell every player apart."""
    badges = palette.badges([seat.name for seat in chrome.seats])
    styles = {}
    for k, seat in enumerate(chrome.seats):
        style = palette.player_style(seat.seat, seat.name, badges[k])
        if seat.colour is not None:
            style = PlayerStyle(seat.colour, style.shape, style.letter)
        styles[k] = style
    return styles


def _prompt_lines(prompt: str, width: int, sizes: Sizes) -> tuple[int, list[str]]:
    """The prompt's type size and lines: one line of ``large``, else up to two of ``normal``, else the
    floor on as many lines as it needs."""
    if not prompt:
        return sizes.large, []
    if text.fits(prompt, sizes.large, width, bold=True):
        return sizes.large, [prompt]
    lines = text.wrap_all(prompt, sizes.normal, width, bold=True)
    if len(lines) <= 2:
        return sizes.normal, lines
    return sizes.floor, text.wrap_all(prompt, sizes.floor, width, bold=True)


def _notice_lines(notice: str, width: int, sizes: Sizes, tone: str = Tone.EVENT) -> tuple[int, list[str]]:
    """The notice's type size and lines: up to two lines of ``normal``, else the floor on as many lines as
    it needs; a win in ``huge`` type on one line, else ``large`` on as many as it needs."""
    if not notice:
        return sizes.normal, []
    if tone == Tone.WIN:
        if text.fits(notice, sizes.huge, width, bold=True):
            return sizes.huge, [notice]
        return sizes.large, text.wrap_balanced(notice, sizes.large, width, bold=True)
    lines = text.wrap_all(notice, sizes.normal, width, bold=True)
    if len(lines) <= 2:
        return sizes.normal, lines
    return sizes.floor, text.wrap_all(notice, sizes.floor, width, bold=True)


def band_margin(pad: int) -> int:
    """The margin above and below the text of a game's notice band: a third of ``pad`` (2 px at 800 x 480),
    so two lines of the floor size take little more than their own height."""
    return max(2, pad // 3)


def fixed_band_height(sizes: Sizes, pad: int) -> int:
    """The notice band's own space on a game's screen: two lines of the floor size and their margins
    (46 px at 800 x 480). It is kept whether a notice shows or not, so the board never moves."""
    return 2 * text.line_height(sizes.floor, bold=True) + 2 * band_margin(pad)


def win_token_size(chrome: Chrome, sizes: Sizes, pad: int) -> int:
    """The winner's token in a win's band, in pixels: 48 design px, or the height of a band of its own
    space less its margins (:func:`fixed_band_height`)."""
    if chrome.band_space:
        return fixed_band_height(sizes, pad) - 2 * band_margin(pad)
    return sizes.px(48)


def board_side(chrome: Chrome, width: int, height: int) -> int:
    """The side in pixels of the square board of a body ``width`` x ``height`` pixels whose band lies
    beside the board (``chrome.board_share``, Ludo): as tall as the body, at most that share of its width."""
    return min(height, round(width * chrome.board_share))


def _fixed_notice_lines(notice: str, width: int, sizes: Sizes, tone: str) -> tuple[int, list[str]]:
    """The notice's type size and lines inside :func:`fixed_band_height`: one line of ``normal`` (a win:
    ``large``), else two lines of the floor; a notice longer than that takes the floor on as many lines
    as it needs (the band then grows: never cut)."""
    if not notice:
        return sizes.normal, []
    one_line = sizes.large if tone == Tone.WIN else sizes.normal
    if text.fits(notice, one_line, width, bold=True):
        return one_line, [notice]
    wrap = text.wrap_balanced if tone == Tone.WIN else text.wrap_all  # a win is centred: even lines
    return sizes.floor, wrap(notice, sizes.floor, width, bold=True)


def _chip_parts(seat: SeatChip, sizes: Sizes, pad: int, token: int) -> tuple[int, int, int, int]:
    """(width of the whole chip, of the name, of the standing, of the wins) in pixels."""
    name = text.width_of(seat.name, sizes.normal, bold=True)
    score = text.width_of(seat.score, sizes.floor) if seat.score else 0
    wins = text.width_of(f"{STAR} {seat.wins}", sizes.floor, bold=True) if seat.wins is not None else 0
    gap = _chip_gap(pad)
    total = pad + token + pad + name + (gap + score if score else 0) + (gap + wins if wins else 0) + pad
    return total, name, score, wins


def _chip_gap(pad: int) -> int:
    """The room between a chip's name, standing and games won."""
    return pad * 3 // 2


def _stacked_width(parts: tuple[int, int, int, int], pad: int, token: int) -> int:
    """The width of a two-line chip: the name over the standing and the games won."""
    _total, name, score, wins = parts
    below = score + (_chip_gap(pad) + wins if wins else 0) if score else wins
    return pad + token + pad + max(name, below) + pad


def _strip_rows(chrome: Chrome, width: int, sizes: Sizes, pad: int, token: int) -> tuple[int, int, bool]:
    """(rows, columns, two-line chips) of the player strip: one row when every chip fits side by side;
    else a grid of two columns, of one-line chips when they fit, else of two-line chips (the name over
    the standing); else one chip a row. With ``chrome.band_space`` the strip does not follow its texts
    (a standing grows through the game): two-line chips in two columns, or one chip a row; with
    ``chrome.short_standings`` too, one row of one-line chips where they fit."""
    n = len(chrome.seats)
    if n == 0:
        return 0, 0, False
    parts = [_chip_parts(seat, sizes, pad, token) for seat in chrome.seats]
    if chrome.band_space and chrome.short_standings and sum(p[0] for p in parts) + pad * (n - 1) <= width:
        return 1, n, False
    if chrome.band_space:
        if max(_stacked_width(p, pad, token) for p in parts) <= (width - pad) // 2:
            return -(-n // 2), min(n, 2), True
        return n, 1, True
    widths = [p[0] for p in parts]
    if sum(widths) + pad * (n - 1) <= width:
        return 1, n, False
    half = (width - pad) // 2
    if max(widths) <= half:
        return -(-n // 2), 2, False
    if max(_stacked_width(p, pad, token) for p in parts) <= half:
        return -(-n // 2), 2, True
    return n, 1, False


KEY_SPACINGS = ((1.0, 3), (0.5, 2), (0.5, 1))
"""(padding inside a key cap, gap between chips), in ``pad`` units, tried in turn: the first that puts
the key chips on the fewest rows is used (German and Russian words sometimes overflow one row by a few
pixels; a second row would take the body's height)."""


def _key_rows(keys: tuple[tuple[str, str], ...], width: int, sizes: Sizes, pad: int
              ) -> tuple[list[list[tuple[int, int]]], int]:
    """The key chips flowed onto rows of at most ``width`` pixels: per row, each chip's (cap width,
    meaning width); a chip never breaks. Also the gap between chips, in pixels (:data:`KEY_SPACINGS`)."""
    best: tuple[list[list[tuple[int, int]]], int] | None = None
    for inside, between in KEY_SPACINGS:
        rows: list[list[tuple[int, int]]] = []
        used = 0
        gap = pad * between
        for button, meaning in keys:
            cap = text.width_of(button, sizes.floor, bold=True) + round(2 * pad * inside)
            what = min(text.width_of(meaning, sizes.floor), max(0, width - cap - pad))
            chip = cap + pad + what
            if rows and used + gap + chip <= width:
                rows[-1].append((cap, what))
                used += gap + chip
            else:
                rows.append([(cap, what)])
                used = chip
        if best is None or len(rows) < len(best[0]):
            best = (rows, gap)
        if len(rows) <= 1:
            break
    assert best is not None
    return best


def chrome_layout(chrome: Chrome, size: tuple[int, int]) -> ChromeLayout:
    """Where every part of the frame of ``chrome`` goes on a ``(width, height)`` screen (module
    docstring)."""
    w, h = int(size[0]), int(size[1])
    sizes = sizes_for((w, h))
    pad = sizes.px(6)
    inner_w = w - 2 * pad
    # header: title row, then the prompt (a page with no prompt and nobody to act: the title is its prompt)
    fixed = chrome.band_space  # header and band keep their space: the board keeps its place and size
    title_h = sizes.px(36) if (fixed or chrome.prompt or chrome.active is not None or chrome.round) else 0
    title_row = pygame.Rect(pad, pad // 2, inner_w, title_h)
    prompt_size, prompt_lines = _prompt_lines(chrome.prompt or chrome.title, inner_w, sizes)
    prompt_h = len(prompt_lines) * text.line_height(prompt_size, bold=True)
    if fixed:  # a prompt a little too long for one line of large type is one line of normal: same height
        prompt_h = max(prompt_h, text.line_height(sizes.large, bold=True))
    prompt = pygame.Rect(pad, title_row.bottom, inner_w, prompt_h)
    header = pygame.Rect(0, 0, w, prompt.bottom + pad + sizes.px(3))
    # bottom up: key chips, player strip, notice band
    cap_h = text.line_height(sizes.floor, bold=True) + sizes.px(6)
    key_row_h = cap_h + sizes.px(6)
    rows, key_gap = _key_rows(chrome.keys, inner_w, sizes, pad)
    keys = pygame.Rect(0, h - len(rows) * key_row_h - (pad if rows else 0), w, len(rows) * key_row_h +
                       (pad if rows else 0))
    key_places: list[KeyPlace] = []
    for r, row in enumerate(rows):
        x, y = pad, keys.y + r * key_row_h + (key_row_h - cap_h) // 2
        for cap_w, what_w in row:
            cap = pygame.Rect(x, y, cap_w, cap_h)
            meaning = pygame.Rect(cap.right + pad, y, what_w, cap_h)
            key_places.append(KeyPlace(cap, meaning))
            x = meaning.right + key_gap
    token = sizes.px(30)
    strip_rows, columns, stacked = _strip_rows(chrome, inner_w, sizes, pad, token)
    chip_h = (text.line_height(sizes.normal, bold=True) + text.line_height(sizes.floor) + pad) if stacked \
        else sizes.px(40)
    strip_h = strip_rows * chip_h + (pad if strip_rows else 0)
    strip = pygame.Rect(0, keys.y - strip_h, w, strip_h)
    chips = _place_chips(chrome, strip, strip_rows, columns, sizes, pad, token, chip_h, stacked)
    body_top = header.bottom + pad
    if fixed:  # the band's own space, two lines of the floor, kept with or without a notice
        margin = band_margin(pad)
        band_h = fixed_band_height(sizes, pad)
        win_token = win_token_size(chrome, sizes, pad) if chrome.tone == Tone.WIN and chrome.winner is not None else 0
        left = board_side(chrome, inner_w, strip.y - pad // 2 - body_top) + 2 * pad if chrome.board_share else 0
        notice_w = inner_w - left - 2 * pad - (win_token + 2 * pad if win_token else 0)
        notice_size, notice_lines = _fixed_notice_lines(chrome.notice, notice_w, sizes, chrome.tone)
        notice_h = max(band_h, len(notice_lines) * text.line_height(notice_size, bold=True) + 2 * margin)
        notice = pygame.Rect(pad + left, strip.y - notice_h - pad // 2, inner_w - left, notice_h)
        # beside a square board the body reaches down to the strip: its right part ends above the band
        body = pygame.Rect(pad, body_top, inner_w, max(0, (strip.y if left else notice.y) - pad // 2 - body_top))
    else:
        win_token = win_token_size(chrome, sizes, pad) if chrome.tone == Tone.WIN and chrome.winner is not None else 0
        notice_w = inner_w - 2 * pad - (win_token + 2 * pad if win_token else 0)
        notice_size, notice_lines = _notice_lines(chrome.notice, notice_w, sizes, chrome.tone)
        notice_h = max(len(notice_lines) * text.line_height(notice_size, bold=True), win_token) + \
            (2 * pad if notice_lines else 0)
        notice = pygame.Rect(pad, strip.y - notice_h - (pad if notice_lines else 0), inner_w, notice_h)
        body = pygame.Rect(pad, body_top, inner_w, max(0, (notice.y if notice_lines else strip.y) - pad - body_top))
    return ChromeLayout((w, h), sizes, pad, header, title_row, prompt, prompt_size, tuple(prompt_lines), body,
                        notice, notice_size, tuple(notice_lines), strip, chips, keys, tuple(key_places))


def _place_chips(chrome: Chrome, strip: pygame.Rect, rows: int, columns: int, sizes: Sizes, pad: int, token: int,
                 chip_h: int, stacked: bool = False) -> tuple[ChipPlace, ...]:
    """Where each chip goes: side by side on one row (``columns`` == the seats), else in a grid of
    ``columns``; ``stacked``: the name on the chip's first line, the standing and games won under it."""
    places = []
    if not rows:
        return ()
    width = strip.width - 2 * pad
    parts = [_chip_parts(seat, sizes, pad, token) for seat in chrome.seats]
    if columns == len(chrome.seats):  # one row: chips side by side, the spare room spread between them
        spare = width - sum(p[0] for p in parts)
        gap = min(pad * 6, spare // max(1, len(parts) - 1)) if len(parts) > 1 else 0
        slots = []
        x = strip.x + pad
        for total, *_rest in parts:
            slots.append((x, strip.y + pad // 2, total))
            x += total + gap
    else:
        cell_w = (width - pad * (columns - 1)) // columns
        slots = [(strip.x + pad + (k % columns) * (cell_w + pad), strip.y + pad // 2 + (k // columns) * chip_h, cell_w)
                 for k in range(len(parts))]
    for k, ((x, y, cell_w), (_total, name_w, score_w, wins_w)) in enumerate(zip(slots, parts, strict=True)):
        cell = pygame.Rect(x, y, min(cell_w, strip.right - pad - x), chip_h - pad // 2)
        centre = (x + pad + token // 2, cell.centery)
        gap = _chip_gap(pad)
        if stacked:
            name_h, below_h = text.line_height(sizes.normal, bold=True), text.line_height(sizes.floor)
            top = cell.y + (cell.height - name_h - below_h) // 2
            left = x + 2 * pad + token
            name = pygame.Rect(left, top, max(0, min(name_w, cell.right - pad - left)), name_h)
            score = pygame.Rect(left, top + name_h, score_w, below_h)
            wins_x = score.right + gap if score_w else left
            wins = pygame.Rect(wins_x, top + name_h, wins_w, below_h)
            places.append(ChipPlace(k, cell, centre, token, name, score, wins))
            continue
        room = cell.right - pad - (x + 2 * pad + token) - (gap + score_w if score_w else 0) - \
            (gap + wins_w if wins_w else 0)
        name = pygame.Rect(x + 2 * pad + token, y, max(0, min(name_w, room)), cell.height)
        wins = pygame.Rect(cell.right - pad - wins_w, y, wins_w, cell.height)
        score_right = (wins.x - gap) if wins_w else cell.right - pad
        score = pygame.Rect(score_right - score_w, y, score_w, cell.height)
        places.append(ChipPlace(k, cell, centre, token, name, score, wins))
    return tuple(places)


def draw_chrome(surface: pygame.Surface, chrome: Chrome, *, background: RGB = palette.BACKGROUND) -> ChromeLayout:
    """Clear ``surface`` and draw the frame of ``chrome`` (module docstring); returns the layout, whose
    ``body`` is the game's to draw."""
    layout = chrome_layout(chrome, surface.get_size())
    surface.fill(background)
    styles = seat_styles(chrome)
    draw_header(surface, chrome, layout, styles)
    draw_notice(surface, chrome, layout, styles)
    draw_strip(surface, chrome, layout, styles)
    draw_keys(surface, chrome.keys, layout)
    return layout


def draw_header(surface: pygame.Surface, chrome: Chrome, layout: ChromeLayout, styles: dict[int, PlayerStyle]) -> None:
    """The header: title, the player to act (token and name in the seat's colour), the round, the prompt."""
    sizes, pad, row = layout.type, layout.pad, layout.title_row
    pygame.draw.rect(surface, palette.PANEL, layout.header)
    right = text.width_of(chrome.round, sizes.floor) if chrome.round else 0
    if right:
        text.draw_text(surface, chrome.round, pygame.Rect(row.right - right, row.y, right, row.height), sizes.floor,
                       palette.MUTED, align="right")
    x = row.x
    active = chrome.active
    if chrome.title and row.height:  # beside a player's name a third of the row at most; alone, all the row leaves
        room = row.width // 3 if active is not None else row.width - right - pad * 3
        title_w = min(text.width_of(chrome.title, sizes.floor, bold=True), room)
        x = text.draw_text(surface, chrome.title, pygame.Rect(x, row.y, title_w, row.height), sizes.floor,
                           palette.MUTED, bold=True).right + pad * 3
    if active is not None and 0 <= active < len(chrome.seats):
        style = styles[active]
        token = sizes.px(30)
        draw_token(surface, (x + token // 2, row.centery), token, style)
        x += token + pad
        name_room = row.right - right - pad * 3 - x
        text.draw_text(surface, chrome.seats[active].name, pygame.Rect(x, row.y, name_room, row.height), sizes.normal,
                       style.colour, bold=True)
        stripe = sizes.px(4)
        pygame.draw.rect(surface, style.colour, (0, layout.header.bottom - stripe, layout.header.width, stripe))
    if layout.prompt_lines:
        text.draw_lines(surface, layout.prompt_lines, layout.prompt, layout.prompt_size, palette.FOREGROUND,
                        bold=True, whole=chrome.prompt or chrome.title)


def draw_notice(surface: pygame.Surface, chrome: Chrome, layout: ChromeLayout,
                styles: dict[int, PlayerStyle] | None = None) -> None:
    """The notice band, in the colours of its tone (:data:`NOTICE_COLOURS`); a win framed in the winner's
    colour with the winner's token; nothing without a notice."""
    if not layout.notice_lines:
        return
    pad = layout.pad
    inset = band_margin(pad) if chrome.band_space else pad  # a band of its own space: text close to its edges
    body = layout.notice.inflate(-2 * pad, -2 * inset)
    if chrome.tone == Tone.WIN:
        style = (styles or {}).get(chrome.winner) if chrome.winner is not None else None
        colour = style.colour if style else palette.FOREGROUND
        pygame.draw.rect(surface, palette.BACKGROUND, layout.notice, border_radius=2 * pad)
        pygame.draw.rect(surface, colour, layout.notice, max(3, pad // 2), border_radius=2 * pad)
        if style is not None:
            token = win_token_size(chrome, layout.type, pad)
            draw_token(surface, (body.x + token // 2, body.centery), token, style)
            body = pygame.Rect(body.x + token + 2 * pad, body.y, body.width - token - 2 * pad, body.height)
        lines_h = len(layout.notice_lines) * text.line_height(layout.notice_size, bold=True)
        area = pygame.Rect(body.x, body.centery - lines_h // 2, body.width, lines_h)
        text.draw_lines(surface, layout.notice_lines, area, layout.notice_size, colour, bold=True, align="center",
                        whole=chrome.notice)
        return
    band, ink = NOTICE_COLOURS.get(chrome.tone, NOTICE_COLOURS[Tone.EVENT])
    pygame.draw.rect(surface, band, layout.notice, border_radius=pad)
    lines_h = len(layout.notice_lines) * text.line_height(layout.notice_size, bold=True)
    area = pygame.Rect(body.x, body.centery - lines_h // 2, body.width, lines_h)  # centred in a band kept taller
    text.draw_lines(surface, layout.notice_lines, area, layout.notice_size, ink, bold=True, whole=chrome.notice)


def draw_strip(surface: pygame.Surface, chrome: Chrome, layout: ChromeLayout, styles: dict[int, PlayerStyle]) -> None:
    """The player strip: each chip's token, name, standing and games won; the player to act outlined."""
    if not layout.chips:
        return
    sizes, pad = layout.type, layout.pad
    pygame.draw.rect(surface, palette.PANEL, layout.strip)
    for place in layout.chips:
        seat = chrome.seats[place.index]
        if place.index == chrome.active:
            pygame.draw.rect(surface, palette.FOREGROUND, place.cell, max(2, pad // 2), border_radius=pad)
        draw_token(surface, place.token_centre, place.token_size, styles[place.index])
        text.draw_text(surface, seat.name, place.name, sizes.normal, palette.FOREGROUND, bold=True)
        if seat.score:
            text.draw_text(surface, seat.score, place.score, sizes.floor, palette.MUTED)
        if seat.wins is not None:
            text.draw_text(surface, f"{STAR} {seat.wins}", place.wins, sizes.floor, palette.FOREGROUND, bold=True)


def draw_keys(surface: pygame.Surface, keys: tuple[tuple[str, str], ...], layout: ChromeLayout) -> None:
    """The key chips: each button's name on a light key cap, then what it does now."""
    if not layout.key_places:
        return
    sizes = layout.type
    pygame.draw.rect(surface, palette.PANEL, layout.keys)
    for (button, meaning), place in zip(keys, layout.key_places, strict=True):
        pygame.draw.rect(surface, palette.FOREGROUND, place.cap, border_radius=max(2, place.cap.height // 4))
        text.draw_text(surface, button, place.cap, sizes.floor, palette.HIGHLIGHT_TEXT, bold=True, align="center")
        text.draw_text(surface, meaning, place.meaning, sizes.floor, palette.FOREGROUND)

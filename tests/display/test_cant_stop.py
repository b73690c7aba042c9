"""companion.display: the Pygame renderer, drawn on the dummy SDL driver (no screen needed).

Views are built by hand; the photo is a synthetic BGR image with four white "dice". Screenshots of
every rendered view are written to the test's temporary folder.
"""

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"  # before pygame is imported anywhere

import builtins
import io
from importlib import resources

import numpy as np
import pygame
import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.display import Display, fonts, text
from companion.display.cant_stop import RUNNER, BoardLayout, board_layout, draw, pieces_by_space, screen_layout
from companion.display.cant_stop import render as render_to_surface
from companion.display.chrome import chrome_layout
from companion.display.cant_stop_layout import ScreenLayout
from companion.display.cant_stop_panel import draw_options, format_probability
from companion.display.cant_stop_photo import crop_for_dice, draw_photo, frame_to_surface
from companion.screens import palette
from companion.screens.cant_stop import CantStopBoardView, DieView, OptionView, ScreenView, build_view
from companion.screens.common import Chrome, SeatChip, Tone

HEIGHTS = dict(zip(range(2, 13), (3, 5, 7, 9, 11, 13, 11, 9, 7, 5, 3), strict=True))  # cant-stop.md A.2
SIZES = [(800, 480), (1920, 1080)]
BOXES = [(60, 40, 100, 80), (130, 50, 170, 90), (70, 120, 110, 160), (200, 150, 240, 190)]


@pytest.fixture(scope="module", autouse=True)
def _pygame():
    pygame.init()
    yield
    pygame.display.quit()


def dice_photo() -> np.ndarray:
    """A 300 x 400 grey table with four white dice (black pips) at BOXES, in BGR."""
    img = np.full((300, 400, 3), (90, 110, 100), np.uint8)
    for x0, y0, x1, y1 in BOXES:
        img[y0:y1, x0:x1] = 245
        img[(y0 + y1) // 2 - 3:(y0 + y1) // 2 + 3, (x0 + x1) // 2 - 3:(x0 + x1) // 2 + 3] = 0
    return img


PLAYERS = (("Anna", 0, 1), ("Ben", 1, 0))
"""(name, seat, games won) of the two players of :func:`make_view`."""


def make_view(players=PLAYERS, active=0, prompt="Choose a pairing, then press Enter",
              keys=(("Enter", "confirm"), ("\u2190 \u2192", "choose"), ("R", "roll"), ("S", "stop")), notice="",
              winner=None, **changes) -> ScreenView:
    """Mid-turn, two players: Anna (seat 0, active) has runners on 6, 7 and 9; Ben owns column 2.
    ``players``: (name, seat, wins) triples; ``winner``: the seat that has won (a WIN notice)."""
    seats = tuple(SeatChip(name, seat, "columns 0/3", wins) for name, seat, wins in players)
    tone = Tone.EVENT
    if winner is not None:
        notice, tone = f"{players[winner][0]} wins!", Tone.WIN
    chrome = Chrome("Can't Stop", seats, active, prompt, keys, notice, tone, "Turn 3", winner)
    fields = dict(
        chrome=chrome,
        winner=winner,
        board=CantStopBoardView(
            heights=HEIGHTS,
            markers={0: {6: 2, 8: 4}, 1: {7: 6, 10: 3, 2: 3}},
            runners={6: 3, 7: 5, 9: 1},
            claimed={2: 1},
        ),
        status="4 dice seen",
        frame_bgr=dice_photo(),
        dice=tuple(DieView(v, b) for v, b in zip((3, 4, 5, 6), BOXES, strict=True)),
        options=(
            OptionView("3 + 4 | 5 + 6", "7 up 1, 11 enters"),
            OptionView("3 + 5 | 4 + 6", "8 enters, 10 enters", selected=True),
            OptionView("3 + 6 | 4 + 5", "9 up 2"),
        ),
        bust_probability=0.0802,
        hint="Take 9 twice, then stop.",
    )
    fields.update(changes)
    return ScreenView(**fields)


def colour_at(surface: pygame.Surface, xy) -> tuple[int, int, int]:
    return tuple(surface.get_at((int(xy[0]), int(xy[1]))))[:3]


def share_of(surface: pygame.Surface, rect: pygame.Rect, colour) -> float:
    """Fraction of the pixels in ``rect`` that have exactly ``colour``."""
    pixels = pygame.surfarray.pixels3d(surface)[rect.left:rect.right, rect.top:rect.bottom]
    return float(np.all(pixels == np.array(colour), axis=-1).mean())


def piece_box(layout: BoardLayout, column: int, height: int, index: int = 0, count: int = 1) -> pygame.Rect:
    size = layout.piece_size(count)
    box = pygame.Rect(0, 0, int(size * 0.7), int(size * 0.7))
    box.center = tuple(map(round, layout.piece_centres(column, height, count)[index]))
    return box


def save(surface: pygame.Surface, folder, name: str) -> None:
    path = folder / f"{name}_{surface.get_width()}x{surface.get_height()}.png"
    pygame.image.save(surface, str(path))
    assert path.stat().st_size > 0


@pytest.mark.parametrize("size", SIZES)
def test_surface_has_requested_size(size, tmp_path):
    surface = render_to_surface(make_view(), size)
    assert surface.get_size() == size
    save(surface, tmp_path, "mid_turn")


@pytest.mark.parametrize("size", SIZES)
def test_marker_drawn_in_player_colour_at_its_space(size, tmp_path):
    view = make_view()
    surface = render_to_surface(view, size)
    save(surface, tmp_path, "markers")
    layout = board_layout(view, size)
    # Anna (seat 0, circle, vermillion) alone on column 8, space 4.
    anna = palette.player_colour(0)
    cx, cy = layout.space_centre(8, 4)
    radius = layout.piece_size(1) / 2
    assert colour_at(surface, (cx - radius * 0.6, cy)) == anna  # left of the letter, inside the circle
    assert share_of(surface, piece_box(layout, 8, 4), anna) > 0.4
    # Ben (seat 1, square, sky blue) alone on column 10, space 3.
    assert share_of(surface, piece_box(layout, 10, 3), palette.player_colour(1)) > 0.4
    # An empty space shows no player colour.
    assert share_of(surface, piece_box(layout, 11, 2), anna) == 0


def test_shared_space_shows_every_piece(tmp_path):
    """Four markers and the runner on column 7, space 5: all five are visible side by side."""
    players = tuple((n, i, 0) for i, n in enumerate(("Anna", "Ben", "Chloe", "Dmitri")))
    board = CantStopBoardView(HEIGHTS, {s: {7: 5} for s in range(4)}, {7: 5}, {})
    view = make_view(players=players, board=board, active=1)
    assert pieces_by_space(board)[(7, 5)] == [0, 1, 2, 3, RUNNER]
    size = (1920, 1080)
    surface = render_to_surface(view, size)
    save(surface, tmp_path, "shared_space")
    layout = board_layout(view, size)
    centres = layout.piece_centres(7, 5, 5)
    assert all(b[0] > a[0] for a, b in zip(centres, centres[1:], strict=False))
    for seat in range(4):  # the visible left part of each token holds its colour
        x, y = centres[seat]
        probe = pygame.Rect(0, 0, max(2, int(layout.piece_size(5) * 0.15)), 3)
        probe.center = (round(x - layout.piece_size(5) * 0.3), round(y))
        assert share_of(surface, probe, palette.player_colour(seat)) > 0.3, seat
    runner = piece_box(layout, 7, 5, 4, 5)
    assert share_of(surface, runner, palette.RUNNER_FILL) > 0.1


@pytest.mark.parametrize("size", SIZES)
def test_claimed_column_filled_with_owner_colour(size):
    view = make_view()
    surface = render_to_surface(view, size)
    layout = board_layout(view, size)
    ben = palette.player_colour(1)
    for height in (1, 2):  # lower spaces of column 2, claimed by Ben; his token sits on the top one
        assert colour_at(surface, layout.space_centre(2, height)) == ben
    assert colour_at(surface, layout.space_centre(3, 1)) == palette.SLOT  # unclaimed neighbour


def test_runner_is_neutral_not_a_player_colour():
    view = make_view()
    surface = render_to_surface(view, (800, 480))
    layout = board_layout(view, (800, 480))
    box = piece_box(layout, 9, 1)
    assert share_of(surface, box, palette.RUNNER_FILL) > 0.15
    assert share_of(surface, box, palette.RUNNER_RING) > 0.15
    for seat in range(4):
        assert share_of(surface, box, palette.player_colour(seat)) == 0


@pytest.mark.parametrize("size", SIZES)
def test_the_winner_is_said_in_the_notice_band_in_their_colour(size, tmp_path):
    view = make_view(winner=1, active=None, prompt="Game over", options=(), bust_probability=None)
    surface = render_to_surface(view, size)
    save(surface, tmp_path, "winner")
    band = chrome_layout(view.chrome, size).notice
    ben = palette.player_colour(1)
    assert band.height > 0
    assert colour_at(surface, (band.left + 1, band.centery)) == ben  # the band's frame
    assert share_of(surface, band.inflate(-band.width // 4, -band.height // 4), ben) > 0.02  # "Ben wins!"
    plain = make_view(active=None, prompt="Game over", options=(), bust_probability=None)
    assert chrome_layout(plain.chrome, size).notice.height == 0  # no band without a notice


LONG = "This prompt is far too long to fit on any screen in one line of large type " * 6


def _logged(view, size) -> list[dict]:
    """The text log of one render of ``view``."""
    lines = []
    previous = text.start_log(text.TextLog(lines.append))
    try:
        render_to_surface(view, size)
    finally:
        text.start_log(previous)
    return lines


@pytest.mark.parametrize("size", SIZES)
def test_long_texts_stay_inside_their_regions(size, tmp_path):
    hint = "Use 7 twice: win chance 12% (10% otherwise); next roll busts 15%"
    cases = {
        "prompt": (dict(prompt=LONG), "header"),
        "hint": (dict(hint=hint), "side"),
        "options": (dict(options=(OptionView("3 + 4", LONG, selected=True),) * 6), "side"),
        "keys": (dict(keys=tuple((f"K{i}", "what it does") for i in range(6))), "keys"),
    }
    floor = text.floor_px(size)
    for name, (changes, where) in cases.items():
        view = make_view(**changes)
        frame, body = chrome_layout(view.chrome, size), screen_layout(view, size)
        region = {"header": frame.header, "side": body.side, "keys": frame.keys}[where]
        save(render_to_surface(view, size), tmp_path, f"long_{name}")
        logged = _logged(view, size)
        assert all(entry["px"] >= floor for entry in logged), name
        base = {entry["text"] for entry in _logged(make_view(), size)}
        mine = [entry for entry in logged if entry["text"] not in base]  # the lines this case changed
        assert mine, name
        for entry in mine:
            assert region.inflate(2, 2).contains(pygame.Rect(entry["rect"])), (name, entry)


@pytest.mark.parametrize("size", SIZES)
def test_a_hint_too_long_for_the_panel_gets_a_band_above_the_scores(size, tmp_path):
    from companion.display.cant_stop import screen_layout
    from companion.display.cant_stop_hint import hint_placement

    view = make_view(hint=LONG)
    layout = screen_layout(view, size)
    placed = hint_placement(view, layout)
    assert placed.in_band and not placed.cut and layout.hint_band.contains(placed.body)
    assert " ".join(placed.lines).split() == f"Hint: {LONG}".split()
    assert all(fonts.font(placed.size).size(line)[0] <= placed.body.width for line in placed.lines)
    assert max(layout.board.bottom, layout.side.bottom) < layout.hint_band.top
    assert layout.hint_band.bottom <= layout.body.bottom
    surface = render_to_surface(view, size)
    save(surface, tmp_path, "long_hint")
    assert share_of(surface, placed.body, palette.FOREGROUND) > 0.02  # the words are drawn in the band


def test_a_text_too_long_for_its_box_is_cut_at_the_floor_and_logged_as_cut():
    surface = pygame.Surface((800, 480))
    rect = pygame.Rect(10, 10, 300, 60)
    lines = []
    previous = text.start_log(text.TextLog(lines.append))
    try:
        used = text.draw_wrapped(surface, LONG, rect, 34, (255, 255, 255), bold=True, max_lines=2)
        text.draw_text(surface, "short", rect, 30, (255, 255, 255))
    finally:
        text.start_log(previous)
    assert rect.contains(used)
    assert [e["px"] for e in lines] == [18, 18, 30] and [e["cut"] for e in lines] == [False, True, False]
    lines = text.wrap(LONG, fonts.font(20), 300, 2)
    assert len(lines) == 2 and lines[-1].endswith(text.ELLIPSIS)
    assert all(fonts.font(20).size(line)[0] <= 300 for line in lines)
    assert text.ellipsize("x" * 500, fonts.font(20), 100).endswith(text.ELLIPSIS)
    assert fonts.font(20).size(text.ellipsize("x" * 500, fonts.font(20), 100))[0] <= 100


def test_rendering_reads_no_files(monkeypatch):
    render_to_surface(make_view(), (800, 480))  # fonts loaded into memory once

    def refuse(*args, **kwargs):
        raise AssertionError(f"I/O while rendering: {args!r}")

    monkeypatch.setattr(builtins, "open", refuse)
    monkeypatch.setattr(io, "open", refuse)
    monkeypatch.setattr(os, "open", refuse)
    monkeypatch.setattr(pygame.image, "load", refuse)
    monkeypatch.setattr(pygame.image, "save", refuse)
    # new sizes mean new font sizes: they come from the bytes in memory
    for size in [(1024, 600), (1280, 720), (640, 360)]:
        render_to_surface(make_view(winner=0, prompt=LONG), size)


@pytest.mark.parametrize("size", [(320, 240), (480, 800), (2560, 1440)])
def test_other_sizes_render(size):
    assert render_to_surface(make_view(), size).get_size() == size


def test_empty_view_renders():
    view = ScreenView(Chrome("Can't Stop", (SeatChip("Solo", 0),), 0, "Roll"), CantStopBoardView(HEIGHTS, {}, {}, {}))
    assert render_to_surface(view, (800, 480)).get_size() == (800, 480)


# --- photo panel ---------------------------------------------------------------------------------------


def test_frame_converted_from_bgr_to_rgb():
    frame = np.zeros((10, 20, 3), np.uint8)
    frame[:, :] = (255, 0, 0)  # pure blue in BGR
    surface = frame_to_surface(frame, (20, 10))
    assert colour_at(surface, (5, 5)) == (0, 0, 255)


def test_crop_keeps_every_die_and_zooms_at_most_twice():
    boxes = [(60, 40, 100, 80), (200, 150, 240, 190)]
    x0, y0, x1, y1 = crop_for_dice((400, 300), boxes, aspect=4 / 3)
    assert 0 <= x0 and 0 <= y0 and x1 <= 400 and y1 <= 300
    assert all(x0 <= b[0] and y0 <= b[1] and b[2] <= x1 and b[3] <= y1 for b in boxes)
    assert (x1 - x0) >= 400 / 2 - 1 and (y1 - y0) >= 300 / 2 - 1
    assert crop_for_dice((400, 300), [], 1.0) == (0, 0, 400, 300)
    # a flat place to draw in and dice spread from top to bottom: no die is cut off
    tall = [(300, 5, 340, 45), (320, 250, 360, 290), (100, 120, 140, 160)]
    for aspect in (4.0, 0.25, 1.0):
        x0, y0, x1, y1 = crop_for_dice((400, 300), tall, aspect)
        assert all(x0 <= b[0] and y0 <= b[1] and b[2] <= x1 and b[3] <= y1 for b in tall), aspect


def test_flagged_die_marked_and_selected_die_outlined(tmp_path):
    area = pygame.Rect(0, 0, 600, 450)
    plain = pygame.Surface(area.size)
    dice = tuple(DieView(v, b) for v, b in zip((3, 4, 5, 6), BOXES, strict=True))
    draw_photo(plain, area, dice_photo(), dice, 22)
    assert share_of(plain, area, palette.DIE_FLAGGED) == 0
    flagged = pygame.Surface(area.size)
    marked = dice[:2] + (DieView(5, BOXES[2], flagged=True, selected=True),) + dice[3:]
    draw_photo(flagged, area, dice_photo(), marked, 22)
    save(flagged, tmp_path, "flagged_photo")
    assert share_of(flagged, area, palette.DIE_FLAGGED) > 0.001
    # the selected die has a thick white frame: more white than the same die unselected
    unselected = pygame.Surface(area.size)
    draw_photo(unselected, area, dice_photo(), dice[:2] + (DieView(5, BOXES[2], flagged=True),) + dice[3:], 22)
    assert share_of(flagged, area, palette.HIGHLIGHT) > share_of(unselected, area, palette.HIGHLIGHT) * 1.1


def test_selected_option_is_inverted():
    layout = ScreenLayout.for_body((800, 480), pygame.Rect(0, 80, 800, 300))
    surface = pygame.Surface((800, 480))
    surface.fill(palette.PANEL)
    options = (OptionView("2 + 5", "a"), OptionView("3 + 6", "b", selected=True), OptionView("4 + 7", "c"))
    rows = draw_options(surface, pygame.Rect(10, 10, 300, 200), options, layout)
    assert len(rows) == 3
    assert share_of(surface, rows[1], palette.HIGHLIGHT) > 0.5
    assert share_of(surface, rows[0], palette.HIGHLIGHT) < 0.1


def test_bust_probability_as_percentage():
    assert format_probability(0.0802) == "8%"
    assert format_probability(0.4398) == "44%"
    assert format_probability(0.001) == "<1%"
    assert format_probability(0.0) == "0%"
    assert format_probability(0.999) == ">99%"
    assert format_probability(1.0) == "100%"
    from companion.i18n import speaking

    with speaking("de"):  # #51: the large figure said "19%" beside the options' "Risiko 19 %"
        assert format_probability(0.192).replace("\u00a0", " ") == "19 %"


# --- palette and fonts ----------------------------------------------------------------------------------


def test_player_styles_differ_by_colour_shape_and_letter():
    styles = [palette.player_style(i, n) for i, n in enumerate(("anna", "Ben", "42", "  "))]
    assert len({s.colour for s in styles}) == 4
    assert len({s.shape for s in styles}) == 4
    assert [s.letter for s in styles] == ["A", "B", "4", "4"]
    for s in styles:  # visible on the background, and distinct from the neutral runner
        assert palette.contrast_ratio(s.colour, palette.BACKGROUND) >= 3
        assert s.colour != palette.RUNNER_FILL
    assert palette.contrast_ratio(palette.FOREGROUND, palette.BACKGROUND) >= 7
    assert palette.contrast_ratio(palette.MUTED, palette.BACKGROUND) >= 7


def test_bundled_font_found_through_importlib_resources():
    folder = resources.files("assets") / "fonts"
    assert fonts.font_bytes() == (folder / fonts.REGULAR).read_bytes()
    assert fonts.font_bytes(bold=True) == (folder / fonts.BOLD).read_bytes()
    assert (folder / "LICENSE-DejaVu.txt").is_file()
    big, small = fonts.font(40), fonts.font(20)
    assert big.size("Hg")[1] > small.size("Hg")[1]
    assert fonts.font(40) is big  # cached


def test_display_window_headless(tmp_path):
    display = Display(320, 200, headless=True)
    try:
        assert display.size == (320, 200)
        surface = display.render(make_view(), draw)
        assert surface.get_size() == (320, 200)
        display.show(make_view(winner=0), draw)
        path = display.save_png(tmp_path / "shots" / "window.png")
        assert path.is_file() and pygame.image.load(str(path)).get_size() == (320, 200)
        assert isinstance(display.events(), list)
    finally:
        display.close()


def test_font_falls_back_to_pygame_default(monkeypatch):
    monkeypatch.setattr(fonts, "REGULAR", "no-such-font.ttf")
    fonts.font_bytes.cache_clear()
    try:
        data = fonts.font_bytes()
        assert data == (resources.files("pygame") / pygame.font.get_default_font()).read_bytes()
        assert pygame.font.Font(io.BytesIO(data), 20).size("A")[0] > 0
    finally:
        fonts.font_bytes.cache_clear()


# --- badges: the letters on the players' tokens -----------------------------------------------------------

@pytest.mark.parametrize("names, expected", [
    (("Player 1", "Player 2"), ("P1", "P2")),  # the default players: no longer both "P"
    (("Player 2", "Player 1"), ("P2", "P1")),  # the words, not the seats, when they tell them apart
    (("Anna", "Alex"), ("A1", "A2")),  # one word each: initial + seat number
    (("Ada", "Ben", "Cleo"), ("A", "B", "C")),  # distinct initials stay one letter
    (("Ada Byron", "Ada King", "ben"), ("AB", "AK", "B")),
    (("Ann Lee", "Al Lee", "Bo"), ("A1", "A2", "B")),  # same word initials: seat numbers
    (("anna", "", "??"), ("A", "2", "3")),  # no letter or digit: the seat number
    (("1st", "", "Zed"), ("1", "2", "Z")),
    (("", "1st"), ("11", "12")),  # seat 1's number clashes with the digit initial
])
def test_badges_are_distinct(names, expected):
    assert palette.badges(names) == expected


@given(st.lists(st.text(max_size=12), min_size=1, max_size=4))
def test_badges_always_differ_and_keep_unshared_initials(names):
    badges = palette.badges(names)
    assert len(set(badges)) == len(names)
    assert all(1 <= len(b) <= 2 for b in badges)
    initials = [palette.initial(n, seat) for seat, n in enumerate(names)]
    for seat, first in enumerate(initials):
        assert badges[seat].startswith(first) or not any(ch.isalnum() for ch in names[seat])
        if initials.count(first) == 1:
            assert badges[seat] == first


def test_player_styles_carry_the_badges_and_the_colours_given():
    styles = palette.player_styles(["Player 1", "Player 2"], colours=[2, 0])
    assert [s.letter for s in styles] == ["P1", "P2"]
    assert [s.colour for s in styles] == [palette.player_colour(2), palette.player_colour(0)]


def _ink_off_the_fill(style: palette.PlayerStyle, size: int) -> tuple[int, int]:
    """(pixels of the badge's ink outside the token's coloured fill, all pixels of its ink): the ink must
    not run over the black outline or out of the shape."""
    from companion.display.tokens import draw_token

    plain, badged = pygame.Surface((3 * size, 3 * size)), pygame.Surface((3 * size, 3 * size))
    centre = (1.5 * size, 1.5 * size)
    draw_token(plain, centre, size, style, letter=False)
    draw_token(badged, centre, size, style)
    a, b = pygame.surfarray.array3d(plain), pygame.surfarray.array3d(badged)
    ink = np.any(a != b, axis=2)
    fill = np.all(a == style.colour, axis=2)
    return int(np.sum(ink & ~fill)), int(np.sum(ink))


@pytest.mark.parametrize("badge, shown_from", [("W", 15), ("P2", 19), ("MW", 24)])
@pytest.mark.parametrize("seat", range(4))
def test_a_badge_stays_inside_every_shape(seat, badge, shown_from):
    """Never over the outline; shown on every token from ``shown_from`` px up (in every shape)."""
    style = palette.player_style(seat, "", badge)
    for size in range(12, 65):
        off, ink = _ink_off_the_fill(style, size)
        assert off == 0, f"{badge!r} crosses the outline of a {style.shape.value} of {size} px"
        assert ink > 0 or size < shown_from, f"no {badge!r} on a {style.shape.value} of {size} px"


def _badges_drawn(monkeypatch, modules, render) -> set[str]:
    """The badges of every token the ``modules`` draw while ``render()`` runs."""
    drawn = []
    for module in modules:
        real = module.draw_token

        def spy(surface, centre, size, style, _real=real, **kwargs):
            drawn.append(style.letter)
            return _real(surface, centre, size, style, **kwargs)

        monkeypatch.setattr(module, "draw_token", spy)
    render()
    return set(drawn)


DEFAULT_PLAYERS = ("Player 1", "Player 2")


def chrome_module():
    """The shared frame's module (it draws the tokens of the header and the player strip)."""
    from companion.display import chrome

    return chrome


def test_cant_stop_screen_badges_the_default_players_apart(monkeypatch):
    from companion.display import cant_stop as board
    from companion.display import chrome
    view = make_view(players=tuple((n, i, 0) for i, n in enumerate(DEFAULT_PLAYERS)), active=1,
                     board=CantStopBoardView(HEIGHTS, {0: {7: 3}, 1: {7: 3, 8: 2}}, {}, {4: 1}))
    assert _badges_drawn(monkeypatch, (chrome, board), lambda: render_to_surface(view)) == {"P1", "P2"}


def test_schotten_totten_screen_badges_the_default_players_apart(monkeypatch):
    from companion.display import schotten_totten
    from companion.screens.schotten_totten import StoneView, StView

    stones = tuple(StoneView(((), ()), owner=(0 if i == 2 else 1 if i == 5 else None)) for i in range(9))
    chrome = Chrome("Schotten Totten", tuple(SeatChip(n, i) for i, n in enumerate(DEFAULT_PLAYERS)), 0,
                    "Player 1: play a card")
    view = StView(chrome, stones)
    surface = pygame.Surface((800, 480))
    drawn = _badges_drawn(monkeypatch, (schotten_totten, chrome_module()),
                          lambda: schotten_totten.draw(surface, view))
    assert drawn == {"P1", "P2"}


def test_donkey_race_screen_badges_the_default_players_apart(monkeypatch):
    from companion.display import donkey_race
    from companion.screens.donkey_race import DonkeyRaceView, LaneView, SectorView

    lanes = tuple(LaneView(n, i, i, 0, 0, 5) for i, n in enumerate(DEFAULT_PLAYERS))
    chrome = Chrome("Donkey race", tuple(SeatChip(n, i) for i, n in enumerate(DEFAULT_PLAYERS)), 0, "Player 1 leads")
    view = DonkeyRaceView(chrome, lanes, 10, tuple(SectorView(i, "") for i in range(2)))
    surface = pygame.Surface((800, 480))
    drawn = _badges_drawn(monkeypatch, (donkey_race, chrome_module()), lambda: donkey_race.draw(surface, view))
    assert drawn == {"P1", "P2"}


# --- Can't Stop's options at the product's 800 x 480: every option readable in full ------------------------

BOARDS = (  # positions of the `cant-stop moves` contract, without the dice
    {},  # a turn's start: every pairing moves two columns (the longest effects)
    {"runners": {"7": 3, "8": 2}},  # one runner left: pairings split into single columns (up to six options)
    {"runners": {"10": 6, "11": 4, "12": 2}},  # all runners out, high up in two-digit columns
    {"markers": {"Player 1": {"7": 12, "6": 10, "10": 6}, "Player 2": {"8": 10}}, "claimed": {"2": "Player 2"}},
)


def _real_option_views(tmp_path):
    """(dice, view) of a real Can't Stop session in CHOOSE for every roll (126 dice sets) on each board."""
    import itertools
    import random
    from dataclasses import replace

    from companion.games.cant_stop import state_from_position
    from companion.session.cant_stop import CantStopSession
    from companion.store import Store

    players = ["Player 1", "Player 2"]
    with Store(tmp_path / "options.sqlite3") as store:
        session = CantStopSession(store, store.new_game("cant-stop", players, {}), players, rng=random.Random(1))
        for board in BOARDS:
            for dice in itertools.combinations_with_replacement(range(1, 7), 4):
                session.state = state_from_position({"players": players, "active": "Player 1", "dice": list(dice),
                                                     **board})
                if not session.state.legal_actions():
                    continue  # a bust: the box says so, there is nothing to choose
                view = build_view(session)  # the photo and its dice take the panel's top, as at the table
                yield dice, replace(view, frame_bgr=dice_photo(), dice=make_view().dice)


def test_every_cant_stop_option_is_shown_in_full_at_800x480(tmp_path):
    from companion.display.cant_stop import screen_layout
    from companion.display.cant_stop_options import layout_options
    from companion.display.cant_stop_panel import side_panel_regions

    most, crowded = (0, 0), None
    for dice, view in _real_option_views(tmp_path):
        layout = screen_layout(view, (800, 480))  # a long hint moves to a band under the board and panel
        regions = side_panel_regions(view, layout)
        rows = layout_options(regions.options, view.options, layout)
        assert len(rows) == len(view.options), dice
        assert regions.options.bottom <= regions.hint.top and regions.top.bottom <= regions.options.top
        for option, row in zip(view.options, rows, strict=True):
            where = f"{dice}: {option}"
            assert regions.options.contains(row.row), where
            assert row.row.contains(row.effect_rect) and row.row.contains(row.label_rect), where
            font = fonts.font(row.effect_size)
            assert all(font.size(line)[0] <= row.effect_rect.width for line in row.effect_lines), where
            assert len(row.effect_lines) * font.get_linesize() <= row.effect_rect.height, where
            shown = " ".join(row.effect_lines).replace("\u00b7", "").split()
            assert shown == option.effect.replace("\u00b7", "").split(), where  # every word, nothing cut
            assert fonts.font(row.label_size, bold=True).size(option.label)[0] <= row.label_rect.width, where
            assert row.effect_size == layout.small and row.label_size == layout.normal, where  # no shrinking
        lines = sum(len(r.effect_lines) for r in rows)
        if lines > most[1]:
            most, crowded = (len(rows), lines), view
    assert most[0] >= 3 and most[1] >= 6  # the sweep did reach panels of several two-line options
    save(render_to_surface(crowded), tmp_path, "most-crowded-options")  # COMPANION_SHOTS=DIR keeps it


def test_effect_lines_break_after_the_bust_chance_first():
    from companion.display.cant_stop_options import effect_lines

    font = fonts.font(19)
    effect = "bust 0% \u00b7 5 to 1/9, 10 to 1/7"
    assert effect_lines(effect, font, 1000) == [effect]
    assert effect_lines(effect, font, font.size("5 to 1/9, 10 to 1/7")[0]) == ["bust 0%", "5 to 1/9, 10 to 1/7"]
    assert effect_lines(effect, font, font.size("10 to 1/7,")[0]) == ["bust 0%", "5 to 1/9,", "10 to 1/7"]
    assert effect_lines(effect, font, font.size("10 to 1/7,")[0], max_lines=2) is None
    assert effect_lines("x" * 80, font, 100) is None  # too long for three lines: the caller shrinks or cuts


def test_the_options_take_photo_space_only_when_they_need_two_lines():
    from companion.display.cant_stop_panel import side_panel_regions

    layout = ScreenLayout.for_body((800, 480), pygame.Rect(6, 80, 788, 290))
    short = side_panel_regions(make_view(options=(OptionView("6 + 8", "bust 0%"),) * 2), layout)
    long = side_panel_regions(make_view(options=(OptionView("6 + 8", "bust 0% \u00b7 6 to 3/11, 8 to 1/11"),) * 2),
                              layout)
    assert short.options.height < long.options.height and short.top.height > long.top.height > 40


def test_a_die_tag_keeps_clear_of_the_other_dice_and_their_outlines():
    from companion.display.cant_stop_photo import _outlined, _place_tag

    # what a die's box takes on screen: its outline (3 px at label size 24), three times as wide when selected
    box = pygame.Rect(10, 10, 40, 40)
    assert _outlined(box, DieView(3, (0, 0, 1, 1)), 24) == pygame.Rect(7, 7, 46, 46)
    assert _outlined(box, DieView(3, (0, 0, 1, 1), selected=True), 24) == pygame.Rect(1, 1, 58, 58)
    photo = pygame.Rect(0, 0, 400, 300)
    box = pygame.Rect(180, 130, 40, 40)
    tag = pygame.Rect(0, 0, 30, 20)
    # neighbours right, left, above and below (with their outlines): only the corners are free
    avoid = [pygame.Rect(224, 140, 40, 40), pygame.Rect(136, 130, 40, 40), pygame.Rect(170, 86, 40, 40),
             pygame.Rect(180, 174, 40, 40)]
    placed = _place_tag(tag, box, photo, avoid, gap=3)
    assert photo.contains(placed) and not any(placed.colliderect(r) for r in avoid)
    assert placed.bottom == box.top + 20 // 3 and placed.left == box.right - 30 // 3  # on the top right corner
    assert _place_tag(tag, box, photo, [], gap=3).midleft == (box.right + 3, box.centery)  # free: right of it


def test_wrapping_keeps_a_no_break_space_whole():
    from companion.display import fonts
    from companion.display.text import wrap

    lines = wrap("Siegchance 88\xa0% (sonst 83\xa0%); Pech im nächsten Wurf: 0\xa0%", fonts.font(20), 150, 6)
    assert len(lines) > 2 and not [line for line in lines if line.startswith("%")]
    assert all(number + "\xa0%" in " ".join(lines) for number in ("88", "83", "0"))


def test_the_check_says_when_a_die_is_leaning():
    from types import SimpleNamespace

    from companion.screens.cant_stop import _status
    from companion.session.cant_stop import Mode
    from vision.observation import DiceObservation, DieReading

    def status(*dice):
        return _status(SimpleNamespace(mode=Mode.CHECK, check=SimpleNamespace(observation=DiceObservation(dice, (480, 640)))))

    flat = DieReading(3, (0, 0, 40, 40), 0.95)
    doubted = DieReading(5, (50, 0, 90, 40), 0.4, flagged=True)
    leaning = DieReading(2, (100, 0, 140, 40), 0.3, flagged=True, cocked=True)
    assert status(flat, doubted) == "Dice marked ? are uncertain: check them"
    assert status(flat, doubted, leaning) == "A die is leaning: lay it flat or roll it again, then check the dice"
    assert status(flat) == ""


def test_a_win_in_the_band_wraps_to_even_lines():
    """#51: "... (Ben: your marker there comes off)" was centred with "off)" alone on its second line."""
    from companion.display import text

    pygame.font.init()
    words = "Ada banks, claims column 2 and wins! (Ben: your marker there comes off)"
    plain = text.wrap_all(words, 18, 740, bold=True)
    even = text.wrap_balanced(words, 18, 740, bold=True)
    assert len(plain) == len(even) == 2 and plain[1] == "off)"
    widths = [text.width_of(line, 18, bold=True) for line in even]
    assert max(widths) - min(widths) < 120 and " ".join(even) == words


def test_a_notice_beside_a_long_hint_leaves_the_board_in_place(tmp_path):
    """#51: with a notice in the band ("Ada banks", held into Ben's turn), a hint too long for the panel
    took a band under the board, which shrank; the hint is cut to its advice instead."""
    from dataclasses import replace

    from companion.display.cant_stop import fitted

    hint = "Pair 6+8: next roll busts 0%; bank then and your win chance against an equal player is 29%"
    options = tuple(OptionView(f"{a} + {b}", f"bust 0% · {a} to 1/5, {b} to 1/5", k == 1)
                    for k, (a, b) in enumerate(((3, 11), (6, 8), (7, 7))))
    quiet = replace(make_view(), options=options, hint=hint,
                    chrome=replace(make_view().chrome, band_space=True, short_standings=True, notice=""))
    told = replace(quiet, chrome=replace(quiet.chrome, notice="Ada banks"))
    for size in ((800, 480), (1280, 720)):
        assert screen_layout(told, size).board == screen_layout(quiet, size).board
    assert fitted(told, (800, 480)).hint == "Pair 6+8"
    assert fitted(quiet, (800, 480)).hint == hint  # no notice: the band's space holds it whole

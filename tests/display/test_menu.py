"""Drawing the menu on a surface (no window): the highlight lands on the selected row at any size."""

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pygame
import pytest

from companion.display.menu import draw as draw_menu
from companion.display.menu import visible_window
from companion.screens import palette
from companion.screens.menu import MenuItem, MenuView


def test_visible_window_keeps_the_selection_in_view():
    assert visible_window(3, 2, 5) == range(0, 3)
    assert visible_window(10, 0, 4) == range(0, 4)
    assert visible_window(10, 6, 4) == range(4, 8)
    assert visible_window(10, 9, 4) == range(6, 10)


@pytest.mark.parametrize("size", [(800, 480), (320, 240), (1920, 1080)])
def test_highlight_is_on_the_selected_row(size):
    pygame.font.init()
    view = MenuView("Choose a game", tuple(MenuItem(f"Item {i}", i != 3) for i in range(4)), 2, ("a line",),
                    "a message", "NEXT: move")
    surface = pygame.Surface(size)
    draw_menu(surface, view)
    width, height = size
    unit = max(8, height // 12)
    row_top = unit * 2 + unit * 3 // 4 + unit // 4 + 2 * unit  # title, one line, gap, two rows
    left = max(4, width // 40) + 8  # past the rounded corner
    assert tuple(surface.get_at((left, row_top + 2)))[:3] == palette.HIGHLIGHT
    assert tuple(surface.get_at((left, row_top - unit + 2)))[:3] == palette.BACKGROUND


def _margin_has_ink(surface, top, bottom):
    width = surface.get_width()
    margin = max(4, width // 40)
    return any(tuple(surface.get_at((x, y)))[:3] == palette.FOREGROUND
               for x in range(width - margin, width) for y in range(top, bottom))


def test_a_long_list_shows_where_more_items_lie():
    pygame.font.init()
    items = tuple(MenuItem(f"Item {i}") for i in range(30))
    height = 480
    unit = height // 12
    top, middle, bottom = unit * 2, height // 2, height - unit * 2
    for selected, above, below in ((0, False, True), (15, True, True), (29, True, False)):
        surface = pygame.Surface((800, height))
        draw_menu(surface, MenuView("Spell", items, selected, (), "", "NEXT: move"))
        assert _margin_has_ink(surface, top, middle) is above and _margin_has_ink(surface, middle, bottom) is below
    surface = pygame.Surface((800, height))
    draw_menu(surface, MenuView("Short", items[:3], 0, (), "", "NEXT: move"))
    assert not _margin_has_ink(surface, top, bottom)

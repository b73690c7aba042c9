"""Drawing the menu on a surface (no window): the highlight lands on the selected row at any size."""

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pygame
import pytest

from companion.display import text
from companion.display.menu import draw as draw_menu
from companion.display.menu import visible_window
from companion.screens import palette
from companion.screens.menu import MenuItem, MenuView


def test_visible_window_keeps_the_selection_in_view():
    assert visible_window(3, 2, 5) == range(0, 3)
    assert visible_window(10, 0, 4) == range(0, 4)
    assert visible_window(10, 6, 4) == range(4, 8)
    assert visible_window(10, 9, 4) == range(6, 10)


@pytest.mark.parametrize("size", [(800, 480), (1280, 720), (1920, 1080)])
def test_highlight_is_on_the_selected_row(size):
    pygame.font.init()
    view = MenuView("Choose a game", tuple(MenuItem(f"Item {i}", i != 3) for i in range(4)), 2, ("a line",),
                    "a message", (("NEXT", "move"),))
    surface = pygame.Surface(size)
    drawn = []
    previous = text.start_log(text.TextLog(drawn.append))
    try:
        draw_menu(surface, view)
    finally:
        text.start_log(previous)
    items = {entry["text"]: pygame.Rect(entry["rect"]) for entry in drawn if entry["text"].startswith("Item")}
    assert items["Item 0"].bottom <= items["Item 1"].top <= items["Item 2"].top  # the items in order, one a row
    left = items["Item 2"].x - 4  # just left of the selected item's text: its highlight
    assert tuple(surface.get_at((left, items["Item 2"].centery)))[:3] == palette.HIGHLIGHT
    assert tuple(surface.get_at((left, items["Item 1"].centery)))[:3] == palette.BACKGROUND


def _margin_has_ink(surface, top, bottom):
    width = surface.get_width()
    return any(tuple(surface.get_at((x, y)))[:3] == palette.FOREGROUND
               for x in range(width - 24, width - 6) for y in range(top, bottom))


def test_a_long_list_shows_where_more_items_lie():
    pygame.font.init()
    items = tuple(MenuItem(f"Item {i}") for i in range(30))
    height = 480
    top, middle, bottom = 50, height // 2, height - 45  # the body, between the header and the key chips
    for selected, above, below in ((0, False, True), (15, True, True), (29, True, False)):
        surface = pygame.Surface((800, height))
        draw_menu(surface, MenuView("Spell", items, selected, (), "", (("NEXT", "move"),)))
        assert _margin_has_ink(surface, top, middle) is above and _margin_has_ink(surface, middle, bottom) is below
    surface = pygame.Surface((800, height))
    draw_menu(surface, MenuView("Short", items[:3], 0, (), "", (("NEXT", "move"),)))
    assert not _margin_has_ink(surface, top, bottom)

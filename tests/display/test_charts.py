"""The charts' value axis (companion.display.charts): counts are marked with whole numbers only."""

import pygame

from companion.display.charts import draw_bar_chart, draw_line_chart, whole_ticks


def test_ticks_of_counts_are_whole_numbers_up_to_a_round_top():
    """Issue 37: "1.9 columns" and "2.5 stones" were half the axis' top; every tick is now a whole number."""
    assert whole_ticks(3.86) == (0, 1, 2, 3, 4)  # Can't Stop's columns climbed
    assert whole_ticks(5.0) == (0, 1, 2, 3, 4, 5)  # Schotten Totten's stones held
    assert whole_ticks(20.0) == (0, 5, 10, 15, 20)  # the donkey race's track
    assert whole_ticks(0.0) == (0, 1) and whole_ticks(11) == (0, 5, 10, 15)
    assert whole_ticks(96) == (0, 20, 40, 60, 80, 100)
    for top in (0.3, 1, 2.5, 7, 13, 33.3, 250, 999):
        ticks = whole_ticks(top)
        assert all(isinstance(t, int) for t in ticks) and ticks[0] == 0 and ticks[-1] >= top and len(ticks) <= 6


def test_charts_draw_with_whole_ticks():
    pygame.font.init()
    surface = pygame.Surface((800, 480))
    draw_line_chart(surface, pygame.Rect(20, 20, 760, 300), ((0.0, 1.2, 3.8), (0.5, 2.0, 2.1)), ("Ada", "Ben"),
                    "turn", "columns", None)
    draw_bar_chart(surface, pygame.Rect(20, 330, 760, 140), (3, 7, 5, 4, 6, 5), [str(f) for f in range(1, 7)], "dice",
                   5.0)
    assert len({surface.get_at((x, y))[:3] for x in range(0, 800, 20) for y in range(0, 480, 20)}) > 3

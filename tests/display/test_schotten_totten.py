"""Schotten Totten's screen texts that count (ngettext, in English and another language)."""

from companion.display.schotten_totten import seat_label
from companion.i18n import set_language


def test_the_bar_counts_points_and_stones_in_the_singular_and_the_plural():
    assert seat_label("Ada", 0, 1, 1) == "Ada (a): 1 point, 1 stone"
    assert seat_label("Ben", 1, 0, 2) == "Ben (b): 0 points, 2 stones"


def test_the_bar_counts_in_russian_with_its_three_forms():
    set_language("ru")
    try:
        one, few, many = seat_label("Ada", 0, 1, 1), seat_label("Ada", 0, 2, 3), seat_label("Ada", 0, 5, 5)
    finally:
        set_language("en")
    assert len({one.split(": ")[1], few.split(": ")[1], many.split(": ")[1]}) == 3

"""Schotten Totten's screen texts that count (ngettext, in English and another language) and the formation
tags that fit beside a stone."""

import pygame
import pytest

from companion.display import text
from companion.games.schotten_totten import formation_name
from companion.i18n import LANGUAGES, set_language
from companion.screens.schotten_totten import FORMATION_TAGS, formation_legend, formation_tag, seat_standing


def test_the_strip_counts_points_and_stones_in_the_singular_and_the_plural():
    assert seat_standing(1, 1) == "1 point · 1 stone"
    assert seat_standing(0, 2) == "0 points · 2 stones"


def test_the_strip_counts_in_russian_with_its_three_forms():
    set_language("ru")
    try:
        one, few, many = seat_standing(1, 1), seat_standing(2, 3), seat_standing(5, 5)
    finally:
        set_language("en")
    assert len({one, few, many}) == 3


@pytest.mark.parametrize("language", list(LANGUAGES))
def test_every_formation_tag_with_its_largest_sum_fits_beside_a_stone_at_800x480(language):
    """A ninth of 800 px less the stone's disc (a line of the floor's bold type and 4 px) and 3 px of air."""
    pygame.font.init()
    set_language(language)
    try:
        floor = text.floor_px((800, 480))
        room = (800 - 12) // 9 - (text.line_height(floor, bold=True) + 4) - 3
        for game, ranks in FORMATION_TAGS.items():
            for rank in ranks:
                tag = formation_tag((rank, 27), game)
                assert text.width_of(tag, floor) <= room, (language, game, tag)
            legend = formation_legend(game)
            assert all(tag_name.split(" ", 1)[1] in {formation_name(r, game) for r in ranks} or language != "en"
                       for tag_name in legend.split(" \u00b7 "))
    finally:
        set_language("en")

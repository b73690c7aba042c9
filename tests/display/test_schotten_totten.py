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


def test_an_alert_leaves_the_legend_of_the_tags_on_the_board(tmp_path):
    """Issue 51: the alert took the legend's place, so a tag like "D 12" went unexplained."""
    import random

    from companion.app.by_hand import by_hand_variant, script_path
    from companion.commands import Button, Command
    from companion.display.schotten_totten import render
    from companion.registry import game
    from companion.screens.schotten_totten import build_view
    from companion.session.base import NO_CAMERA
    from companion.store import Store

    entry = game("schotten-totten")
    presses = [line.strip() for line in script_path(entry.name).read_text(encoding="utf-8").splitlines()
               if line.strip() and not line.startswith("#")]
    variant = by_hand_variant(entry.name)
    with Store(tmp_path / "s.sqlite3") as store:
        session = entry.module("session").SESSION(store, store.new_game(entry.name, ["Ada", "Ben"], variant),
                                                  ["Ada", "Ben"], entry.config(variant), rng=random.Random(1))
        session.on_camera_problem(NO_CAMERA)
        views = []
        for press in presses:
            view = build_view(session)
            if view.alert and any(label for stone in view.stones for label in stone.labels):
                views.append(view)
            session.on_command(Command(Button(press)))
    assert views, "the demo game shows an alert beside formation tags"

    def drawn_of(view) -> list[dict]:
        drawn: list[dict] = []
        previous = text.start_log(text.TextLog(drawn.append))
        try:
            render(view, (800, 480))
        finally:
            text.start_log(previous)
        return drawn

    from dataclasses import replace

    for view in views[:: max(1, len(views) // 5)]:
        drawn = drawn_of(view)
        said = " ".join(entry["text"] for entry in drawn)
        assert view.alert.split()[0] in said and view.legend.split(" · ")[0] in said, said
        # the board does not move when the alert goes: every card and tag drawn at the same place
        quiet = {entry["text"]: entry["rect"] for entry in drawn_of(replace(view, alert=""))}
        cards = {entry["text"]: entry["rect"] for entry in drawn if len(entry["text"]) <= 4}
        assert cards and all(quiet.get(name) == rect for name, rect in cards.items()), (cards, quiet)


@pytest.mark.parametrize("language, shown", [("en", True), ("de", True), ("nl", True), ("pt_BR", True),
                                             ("ru", False)])
def test_the_colour_letters_are_explained_where_the_info_box_has_room(language, shown):
    """#51: "Ge5" and "Gr5" on the cards, and no word for which is yellow. Under the tags' legend the
    letters and their colours take the info box's second line where they fit on it; Russian's six names
    are wider than 800 px, so there the two legends run on as one text over the two lines; they go first
    for an alert."""
    from dataclasses import replace

    from companion.display.schotten_totten import fitted
    from companion.screens.common import Chrome
    from companion.screens.schotten_totten import StoneView, StView, colour_legend

    pygame.font.init()
    set_language(language)
    try:
        stones = tuple(StoneView(((), ())) for _ in range(9))
        view = StView(Chrome("Schotten Totten", (), None, "x", band_space=True), stones,
                      legend=formation_legend("schotten-totten"), colours=colour_legend())
        texts = [words for words, _colour in fitted(view, (800, 480))[1]]
        assert texts == [view.legend, view.colours] if shown else texts == [f"{view.legend} · {view.colours}"]
        assert [words for words, _colour in fitted(view, (1280, 720))[1]] == [view.legend, view.colours]
        alerted = [words for words, _colour in fitted(replace(view, alert="Ben may claim stone 4"), (800, 480))[1]]
        assert alerted == ["Ben may claim stone 4", view.legend]
        assert language != "de" or "Ge\u00a0gelb · Gr\u00a0grün" in view.colours  # a wrap never parts a pair
    finally:
        set_language("en")


def test_each_side_of_the_stones_shows_whose_cards_it_holds():
    """#51: a new player could not tell which row of cards was whose: each side has its player's token in
    a gutter at the left, seat 0 (Ada) above the stones, seat 1 (Ben) below."""
    from companion.display.chrome import chrome_layout, seat_styles
    from companion.display.schotten_totten import render
    from companion.screens.common import Chrome, SeatChip
    from companion.screens.schotten_totten import StoneView, StView

    pygame.font.init()
    chrome = Chrome("Schotten Totten", (SeatChip("Ada", 0, ""), SeatChip("Ben", 1, "")), 0, "x", band_space=True)
    view = StView(chrome, tuple(StoneView(((), ())) for _ in range(9)), legend="")
    surface = render(view, (800, 480))
    body = chrome_layout(chrome, (800, 480)).body
    styles = seat_styles(chrome)
    gutter = [tuple(surface.get_at((x, y)))[:3] for x in range(body.x, body.x + 20) for y in range(body.y, body.bottom)]
    above = gutter.index(styles[0].colour) if styles[0].colour in gutter else None
    below = gutter.index(styles[1].colour) if styles[1].colour in gutter else None
    assert above is not None and below is not None
    assert (above % body.height) < body.height // 2 < (below % body.height)  # Ada's above, Ben's below

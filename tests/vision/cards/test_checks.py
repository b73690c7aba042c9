"""Right or refused (issue 25): a card reading breaking the table's rules is refused with a reason, on
rendered scenes and on the real photos of ../shared/data/cards/handwritten_battle."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.commands import Command
from companion.games.schotten_totten import Card
from companion.session import SchottenTottenReading, SeenCard
from companion.session.schotten_totten import SchottenTottenSession
from companion.store import Store
from vision.cards import read_donkey_race, read_schotten_totten
from vision.cards.checks import CROWDED, OUTSIDE, TWICE, settle
from vision.cards.render import render_st_scene
from vision.observation import CardReading


def card(code: str, stone: int, side: str, corners=((10, 10), (50, 10), (50, 70), (10, 70)), flagged=False):
    xs, ys = [x for x, _ in corners], [y for _, y in corners]
    return CardReading(code=code, value=int(code[1:]), colour=None, box=(min(xs), min(ys), max(xs), max(ys)),
                       corners=corners, confidence=0.9, flagged=flagged, stone=stone, side=side)


def test_a_card_past_the_edge_refuses_the_photo_and_boxes_are_clipped():
    kept, problem = settle([card("R5", 0, "a", ((-30, -70), (50, -70), (50, 20), (-30, 20)))], (480, 640),
                           "schotten-totten")
    assert kept == [] and problem == OUTSIDE
    near = card("R5", 0, "a", ((-4, 2), (50, 2), (50, 70), (-4, 70)))  # within the tolerance
    (kept_card,), problem = settle([near], (480, 640), "schotten-totten")
    assert problem is None and kept_card.box == (0, 2, 50, 70)


def test_four_cards_at_one_side_or_one_card_twice_refuse_the_photo():
    four = [card(f"R{v}", 3, "b") for v in (1, 2, 3, 4)]
    assert settle(four, (480, 640), "schotten-totten")[1] == CROWDED
    assert settle(four, (480, 640), "donkey-race")[1] is None  # no stones there
    twice = [card("G7", 1, "a"), card("G7", 5, "b")]
    assert settle(twice, (480, 640), "schotten-totten")[1] == TWICE
    assert settle([card("G7", 1, "a"), card("G7", 5, "b", flagged=True)], (480, 640), "schotten-totten")[1] is None


def test_a_rendered_side_with_four_cards_is_refused_not_read():
    rng = np.random.default_rng(5)
    columns = {(4, "b"): [("red", 1), ("blue", 2), ("green", 3), ("yellow", 4)], (1, "a"): [("purple", 9)]}
    frame, _truth, _stones = render_st_scene(rng, columns)
    observation = read_schotten_totten(frame)
    assert observation.problem == CROWDED


def test_the_session_takes_nothing_from_a_refused_photo(tmp_path):
    with Store(tmp_path / "s.sqlite3") as store:
        session = SchottenTottenSession(store, store.new_game("schotten-totten", ["Ada", "Ben"], {}), ["Ada", "Ben"],
                                        stable_frames=1)
        session.on_command(Command.parse("confirm"))  # the proposed starter; the deal follows
        seat = session.state.active
        fine = SchottenTottenReading((SeenCard(2, seat, Card(0, 1)),))
        session.on_frame(None, SchottenTottenReading(fine.cards, TWICE))
        assert session.proposal is None and session.camera_problem == TWICE  # the same card, refused
        session.on_frame(None, fine)
        assert session.proposal == (Card(0, 1), 2)


@pytest.mark.parametrize("game", ["schotten-totten", "donkey-race"])
def test_real_photos_give_four_cards_inside_the_picture_or_a_problem(shared_data, game):
    photos = sorted((shared_data / "cards" / "handwritten_battle" / "images").glob("*.jpg"))
    assert len(photos) >= 20
    for path in photos:
        frame = cv2.imread(str(path))
        h, w = frame.shape[:2]
        observation = (read_schotten_totten(frame) if game == "schotten-totten" else read_donkey_race(frame, players=4))
        assert all(0 <= c.box[0] <= c.box[2] <= w and 0 <= c.box[1] <= c.box[3] <= h for c in observation.cards), path
        assert len(observation.cards) == 4 or observation.problem, path.name


@pytest.mark.parametrize(("offered", "flagged", "truth", "wrong"), [
    (["R5", "B7"], 0, ["B7", "R5"], False),       # exactly the cards laid
    (["R5"], 1, ["R5", "B7"], False),             # the missing one is asked about
    (["R5", "B7"], 1, ["R5", "B7"], False),       # a question too many
    (["R5"], 0, ["R5", "B7"], True),              # a card missed silently
    (["R5", "R6"], 1, ["R5", "B7"], True),        # an unflagged card that is not there
    (["R5", "R5"], 0, ["R5"], True),              # counted with repeats
    ([], 1, ["R5", "B7"], True),                  # one question for two missing cards
])
def test_a_false_accept_is_an_offer_the_players_are_not_asked_about(offered, flagged, truth, wrong):
    from vision.cards.eval import offered_wrong

    assert offered_wrong(offered, flagged, truth) is wrong

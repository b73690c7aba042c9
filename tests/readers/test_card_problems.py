"""The card readers' reasons for refusing a photo: vision's English texts, marked for translation in
companion (vision imports nothing of companion, its i18n included) and shown translated."""

from __future__ import annotations

from companion import i18n
from companion.readers.base import CARD_PROBLEMS
from companion.readers.schotten_totten import reading_from_observation
from vision.cards.checks import CROWDED, OUTSIDE, TWICE
from vision.observation import CardsObservation


def test_the_marked_texts_are_visions_word_for_word():
    assert CARD_PROBLEMS == (OUTSIDE, CROWDED, TWICE)


def test_a_refused_photo_is_named_in_the_players_language():
    observation = CardsObservation("schotten-totten", cards=(), frame_shape=(480, 640), problem=TWICE)
    try:
        i18n.set_language("de")
        problem = reading_from_observation(observation).problem
        assert problem == i18n._(TWICE)
    finally:
        i18n.set_language("en")
    assert problem and problem != TWICE

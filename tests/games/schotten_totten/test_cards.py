"""Schotten Totten's cards as the players read them: each language's colour letters."""

import pytest

from companion.games.schotten_totten import COLOURS, Card, card_name
from companion.i18n import LANGUAGES, speaking


@pytest.mark.parametrize("language", list(LANGUAGES))
def test_each_language_has_short_distinct_colour_letters(language):
    with speaking(language):
        letters = [Card(colour, 5).name[:-1] for colour in range(len(COLOURS))]
    assert len(set(letters)) == len(COLOURS) and all(1 <= len(letter) <= 2 for letter in letters), letters


@pytest.mark.parametrize("language, yellow_five, green_nine", [
    ("en", "Y5", "G9"), ("de", "Ge5", "Gr9"), ("nl", "Ge5", "Gr9"), ("pt_BR", "Am5", "Vd9"), ("ru", "Жл5", "Зл9")])
def test_a_card_is_named_in_the_language_spoken(language, yellow_five, green_nine):
    with speaking(language):
        assert (card_name("Y5"), Card(3, 9).name) == (yellow_five, green_nine)
        assert card_name("") == ""  # an empty slot stays empty
    assert Card(2, 5).code == "Y5"  # the code, for files and the command line, never changes

"""companion.names: default seat names recognised in every language the box speaks."""

import pytest

from companion.i18n import LANGUAGES, speaking
from companion.names import is_seat_name, seat_name


@pytest.mark.parametrize("language", list(LANGUAGES))
def test_each_languages_seat_name_is_a_seat(language):
    with speaking(language):
        names = [seat_name(seat) for seat in range(4)]
    assert len(set(names)) == 4 and all(is_seat_name(name) for name in names)


@pytest.mark.parametrize("name", ["Ada", "Player", "Player 2x", "Player2", "player 2", "The Player 2", "Игрок"])
def test_a_persons_name_is_no_seat(name):
    assert not is_seat_name(name)

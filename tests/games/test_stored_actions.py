"""Every field of a stored action is checked against what the box writes (issue 52): a damaged event is
refused, never read as another action (a bit flip turned a roll's source "hand" into "(and")."""

from __future__ import annotations

import pytest

from companion.games.cant_stop import action_from_dict as cant_stop
from companion.games.donkey_race import step_actions
from companion.games.donkey_race.actions import action_from_dict as donkey_race
from companion.games.ludo import action_from_dict as ludo
from companion.games.schotten_totten import action_from_dict as schotten_totten

GOOD = [
    (cant_stop, {"type": "roll", "dice": [1, 2, 3, 4], "read": [1, 2, 3, 4], "source": "camera"}),
    (cant_stop, {"type": "choose", "totals": [3, 7]}),
    (ludo, {"type": "move", "from": "yard", "die": 6, "source": "board"}),
    (ludo, {"type": "roll", "value": 4, "source": "hand"}),
    (schotten_totten, {"type": "play", "card": "R5", "stone": 3}),
    (donkey_race, {"type": "play", "cards": [5, 5]}),
]


@pytest.mark.parametrize("decode, good", GOOD)
def test_what_the_box_writes_is_read(decode, good):
    decode(good)


@pytest.mark.parametrize("decode, good", GOOD)
@pytest.mark.parametrize("damage", [
    ("source", "(and"), ("source", None), ("read", [1, 2, 7]), ("read", "1234"), ("extra", 1), ("typ", "roll"),
])
def test_a_field_the_box_never_writes_is_refused(decode, good, damage):
    key, value = damage
    with pytest.raises(ValueError):
        decode({**good, key: value})


@pytest.mark.parametrize("decode, good, key", [
    (cant_stop, GOOD[0][1], "dice"), (cant_stop, GOOD[1][1], "totals"), (ludo, GOOD[3][1], "value"),
    (schotten_totten, GOOD[4][1], "stone"), (donkey_race, GOOD[5][1], "cards"),
])
@pytest.mark.parametrize("wrong", [True, 3.0, "3"])
def test_a_number_that_is_a_flag_a_fraction_or_a_text_is_refused(decode, good, key, wrong):
    value = [wrong] * len(good[key]) if isinstance(good[key], list) else wrong
    with pytest.raises(ValueError):
        decode({**good, key: value})


def test_a_value_out_of_its_range_is_refused():
    with pytest.raises(ValueError, match="7 is not in 1..6"):
        cant_stop({"type": "roll", "dice": [1, 2, 3, 7]})
    with pytest.raises(ValueError, match="9 is not in 0..8"):
        schotten_totten({"type": "claim", "stone": 9})


def test_a_donkey_race_step_checks_its_own_keys():
    step = {"actions": [{"type": "pass"}], "note": "", "source": "hand"}
    assert len(step_actions(step)) == 1
    for damage in ({"note": "dea1"}, {"source": "(and"}, {"actions": []}, {"extra": 1}):
        with pytest.raises(ValueError):
            step_actions({**step, **damage})

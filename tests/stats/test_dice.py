"""The dice's fairness (companion.stats.dice): counts by face, Pearson's chi-square, verdicts only as strong
as the sample."""

import math
import random

import pytest

from companion.stats import MIN_DICE, DiceRoll, face_counts, fairness, rolls_of
from companion.store import Event


def _faces(rng: random.Random, n: int, weights) -> list[int]:
    counts = [0] * 6
    for value in rng.choices(range(1, 7), weights=weights, k=n):
        counts[value - 1] += 1
    return counts


def test_the_p_value_is_the_chi_square_tail_with_five_degrees_of_freedom():
    assert fairness([10] * 6).chi2 == 0 and fairness([10] * 6).p_value == pytest.approx(1.0)
    # 60 dice whose chi2 is 11.2, just beyond the 5 % critical value 11.07 of 5 degrees of freedom; for an
    # odd number of degrees the tail has a closed form (Abramowitz & Stegun 26.4.5):
    # Q(x; 5) = erfc(sqrt(x / 2)) + sqrt(2x / pi) exp(-x / 2) (1 + x / 3)
    test = fairness([4, 16, 6, 14, 8, 12])
    x = 11.2
    tail = math.erfc(math.sqrt(x / 2)) + math.sqrt(2 * x / math.pi) * math.exp(-x / 2) * (1 + x / 3)
    assert test.chi2 == pytest.approx(x) and test.p_value == pytest.approx(tail, rel=1e-9)
    assert 0.04 < test.p_value < 0.05
    with pytest.raises(ValueError):
        fairness([1, 2, 3])


def test_a_loaded_die_is_called_biased_and_names_its_face():
    loaded = fairness(_faces(random.Random(5), 400, [1, 1, 1, 1, 1, 2]))  # six twice as likely
    assert loaded.biased and loaded.p_value < 0.001
    assert loaded.strangest_face() == (6, True)
    assert loaded.verdict().startswith("6 comes up more often than a fair die would: p = ")


def test_a_fair_die_shows_no_sign_of_bias():
    fair = fairness(_faces(random.Random(5), 400, [1] * 6))
    assert fair.enough and not fair.biased and fair.p_value > 0.01
    assert fair.verdict() == "No sign of a biased die after 400 rolls"


def test_small_samples_cannot_tell_yet():
    few = fairness([0, 0, 0, 0, 0, MIN_DICE - 1])  # all sixes, but too few dice for the test
    assert not few.enough and not few.biased and 0.0 <= few.p_value <= 1.0
    assert few.verdict() == f"Too few dice to tell yet: {MIN_DICE - 1} dice read, a verdict needs {MIN_DICE}"
    assert fairness([0] * 6).to_dict() == {"faces": [0] * 6, "chi2": 0.0, "p_value": 1.0,
                                            "verdict": f"Too few dice to tell yet: 0 dice read, a verdict needs {MIN_DICE}"}


def test_rolls_are_read_from_both_games_logs_with_their_source():
    events = [Event(1, 1, "action", {"type": "start", "seat": 0}, ""),
              Event(1, 2, "action", {"type": "roll", "dice": [1, 2, 2, 6], "source": "camera", "read": [1, 2, 2, 5]}, ""),
              Event(1, 3, "action", {"type": "roll", "dice": [3, 3, 4, 4], "source": "hand"}, ""),
              Event(2, 1, "action", {"type": "roll", "value": 6, "source": "camera"}, ""),
              Event(2, 2, "action", {"type": "roll", "value": 5}, ""),  # before sources were recorded
              Event(3, 1, "step", {"actions": [{"type": "pass"}]}, "")]
    rolls = rolls_of(events)
    assert rolls == [DiceRoll((1, 2, 2, 6), "camera"), DiceRoll((3, 3, 4, 4), "hand"), DiceRoll((6,), "camera"),
                     DiceRoll((5,), "hand")]
    assert face_counts(rolls) == [1, 2, 0, 0, 0, 2]
    assert face_counts(rolls, hand=True) == [1, 2, 2, 2, 1, 2]

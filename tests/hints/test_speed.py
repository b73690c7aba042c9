"""The advisors' speed on this machine against the development machine (the Pi's factor, issue 40)."""

from __future__ import annotations

from companion.app.selftest import check_hints
from companion.config import Config, HintsConfig, config_from_dict
from companion.hints import speed


def test_the_reference_work_is_the_same_everywhere():
    speed.prepare()
    assert speed.reference_work() == speed.reference_work() == 42


def test_selftest_reports_the_factor_and_says_what_to_set():
    slow = check_hints(Config(), measure=lambda: 3.5 * speed.REFERENCE_MS)
    assert slow["factor"] == 3.5 and slow["speed_factor"] == 1.0 and slow["deadline_ms"] == 20.0
    assert not slow["ok"] and not slow["required"]
    pi = Config(hints=HintsConfig(speed_factor=3.2))
    fitting = check_hints(pi, measure=lambda: 3.5 * speed.REFERENCE_MS)
    assert fitting["ok"] and fitting["deadline_ms"] == 64.0
    broken = check_hints(Config(), measure=lambda: 1 / 0)
    assert broken["error"].startswith("ZeroDivisionError") and not broken["ok"]


def test_the_config_keys_of_the_hints():
    config = config_from_dict({"hints": {"deadline_ms": 30, "speed_factor": 2.5}})
    assert config.hints == HintsConfig(deadline_ms=30.0, speed_factor=2.5) and config.hints.deadline == 75.0
    assert Config().hints.deadline == 20.0
    for bad in ({"deadline_ms": 0}, {"speed_factor": -1}, {"speed_factor": "fast"}):
        try:
            config_from_dict({"hints": bad})
        except ValueError as error:
            assert "[hints]" in str(error)
        else:
            raise AssertionError(bad)

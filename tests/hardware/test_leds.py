"""hardware.leds on gpiozero's mock pins: seat LEDs and status patterns."""

import time

import pytest

from companion.config import load_config
from hardware import LedPanel, StatusPattern
from hardware.leds import BLINK_TIMES

SEATS = (5, 6, 13, 19)
STATUS = 26


@pytest.fixture
def leds(factory):
    with LedPanel(SEATS, STATUS, pin_factory=factory) as leds:
        yield leds


def states(factory, pins):
    return [factory.pin(p).state for p in pins]


def transitions(factory, pin):
    """The recorded on/off values of ``pin`` since its history was cleared."""
    return [s.state for s in factory.pin(pin).states]


def test_all_off_at_start(factory, leds):
    assert states(factory, [*SEATS, STATUS]) == [False] * 5
    assert leds.turn is None and leds.pattern is StatusPattern.OFF


def test_show_turn_lights_one_seat(factory, leds):
    leds.show_turn(2)
    assert states(factory, SEATS) == [False, False, True, False]
    leds.show_turn(0)
    assert states(factory, SEATS) == [True, False, False, False]
    leds.show_turn(None)
    assert states(factory, SEATS) == [False] * 4
    leds.show_turn(7)  # more seats than LEDs: none lit
    assert states(factory, SEATS) == [False] * 4
    with pytest.raises(ValueError):
        leds.show_turn(-1)


def test_steady_and_off(factory, leds):
    leds.show_status(StatusPattern.STEADY)
    assert factory.pin(STATUS).state is True
    leds.show_status(StatusPattern.OFF)
    assert factory.pin(STATUS).state is False
    assert states(factory, SEATS) == [False] * 4


def wait_for_transitions(factory, pin, count, limit=10.0):
    """The recorded states of ``pin`` once it has changed ``count`` times: the blink runs on gpiozero's
    own thread and clock, so the test waits for what it checks (up to ``limit`` s, only as a guard
    against a blink that never comes) and measures the blink by the mock pin's timestamps, not by how
    long the test slept: a loaded machine only makes it wait longer."""
    deadline = time.monotonic() + limit
    while len(factory.pin(pin).states) - 1 < count and time.monotonic() < deadline:
        time.sleep(0.01)
    return list(factory.pin(pin).states)


@pytest.mark.parametrize("pattern", [StatusPattern.FAST_BLINK, StatusPattern.SLOW_BLINK])
def test_blinks_at_its_pace_then_stops(factory, leds, pattern):
    on_time, off_time = BLINK_TIMES[pattern]
    factory.pin(STATUS).clear_states()
    leds.show_status(pattern)
    seen = wait_for_transitions(factory, STATUS, 4)
    assert [s.state for s in seen[:4]] == [False, True, False, True]  # off, then on, off and on again
    # a mock pin's timestamp is the time since its previous change: how long the state before it lasted
    lit = [later.timestamp for earlier, later in zip(seen[1:4], seen[2:4], strict=False) if earlier.state]
    dark = [later.timestamp for earlier, later in zip(seen[1:4], seen[2:4], strict=False) if not earlier.state]
    assert lit and dark
    # a thread can be late, never early: each phase lasts at least its time (5 ms for the timer's grain)
    assert min(lit) >= on_time - 0.005 and min(dark) >= off_time - 0.005
    leds.show_status(StatusPattern.STEADY)
    factory.pin(STATUS).clear_states()
    assert factory.pin(STATUS).state is True
    time.sleep(max(on_time, off_time) * 2)
    assert [s.state for s in factory.pin(STATUS).states] == [True]  # no toggling any more


def test_repeating_a_pattern_keeps_the_blink_running(factory, leds, monkeypatch):
    leds.show_status(StatusPattern.FAST_BLINK)
    restarts = []
    monkeypatch.setattr(leds._status, "blink", lambda **kwargs: restarts.append(kwargs))
    for _ in range(20):  # the main loop repeats the call every frame
        leds.show_status(StatusPattern.FAST_BLINK)
    assert restarts == []  # a restarted blink would begin its on phase again every frame and never go off
    factory.pin(STATUS).clear_states()
    values = [s.state for s in wait_for_transitions(factory, STATUS, 3)]
    assert len(values) >= 4 and all(a != b for a, b in zip(values, values[1:], strict=False))  # still on, off, on


def test_close_turns_off_and_frees_pins(factory):
    leds = LedPanel.from_config(load_config(None).leds, pin_factory=factory)
    leds.show_turn(1)
    leds.show_status(StatusPattern.FAST_BLINK)
    leds.close()
    leds.close()
    assert states(factory, [*SEATS, STATUS]) == [False] * 5
    with LedPanel(SEATS, STATUS, pin_factory=factory) as again:  # pins are free again
        again.show_turn(3)
        assert states(factory, SEATS) == [False, False, False, True]


def test_without_status_led_and_duplicates(factory):
    with LedPanel([5, 6], None, pin_factory=factory) as leds:
        leds.show_status(StatusPattern.SLOW_BLINK)  # nothing to blink; remembered
        assert leds.pattern is StatusPattern.SLOW_BLINK and leds.seat_count == 2
    with pytest.raises(ValueError, match="own pin"):
        LedPanel([5, 6], 5, pin_factory=factory)

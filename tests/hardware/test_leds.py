"""hardware.leds on gpiozero's mock pins: seat LEDs and status patterns."""

import time

import pytest

from companion.config import load_config
from hardware import LedPanel, StatusPattern

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


@pytest.mark.parametrize(
    "pattern, window, at_least", [(StatusPattern.FAST_BLINK, 0.45, 3), (StatusPattern.SLOW_BLINK, 0.7, 2)]
)
def test_blinks_then_stops(factory, leds, pattern, window, at_least):
    factory.pin(STATUS).clear_states()
    leds.show_status(pattern)
    time.sleep(window)
    seen = transitions(factory, STATUS)
    assert seen[:3] == [False, True, False]  # off, then on, then off again
    assert len(seen) - 1 >= at_least
    if pattern is StatusPattern.SLOW_BLINK:
        assert len(seen) - 1 <= 3  # about 1 s period: no more than on/off/on in 0.7 s
    leds.show_status(StatusPattern.STEADY)
    factory.pin(STATUS).clear_states()
    time.sleep(0.15)
    assert factory.pin(STATUS).state is True
    assert transitions(factory, STATUS) == [True]  # no toggling any more


def test_repeating_a_pattern_keeps_the_blink_running(factory, leds):
    leds.show_status(StatusPattern.FAST_BLINK)
    for _ in range(20):  # the main loop repeats the call every frame
        leds.show_status(StatusPattern.FAST_BLINK)
    factory.pin(STATUS).clear_states()
    time.sleep(0.3)
    assert len(transitions(factory, STATUS)) >= 3


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

"""The box's LEDs through gpiozero: one per seat (whose turn it is) and one status LED.

Wiring: each LED with its resistor between its BCM pin and ground (lit when the pin is high).
Blinking runs on gpiozero's background thread (``LED.blink(background=True)``), so the main loop only
says *which* pattern to show; repeating the same call every frame changes nothing (the blink keeps its
phase).
"""

from __future__ import annotations

import enum
import logging
from collections.abc import Sequence
from typing import Any

from gpiozero import LED

logger = logging.getLogger(__name__)


class StatusPattern(enum.Enum):
    """What the status LED says."""

    OFF = "off"
    STEADY = "steady"  # waiting for your choice (a button)
    SLOW_BLINK = "slow_blink"  # waiting for the dice to lie still (about 1 s period)
    FAST_BLINK = "fast_blink"  # the reading was not accepted: check the dice (0.25 s period)


BLINK_TIMES: dict[StatusPattern, tuple[float, float]] = {
    StatusPattern.SLOW_BLINK: (0.5, 0.5),
    StatusPattern.FAST_BLINK: (0.125, 0.125),
}
"""Pattern -> (seconds on, seconds off)."""


class LedPanel:
    """Seat LEDs and the status LED.

    seat_pins: BCM pins (0-27) in seat order, at most 4 (may be empty). status_pin: BCM pin, or None
    for a box without a status LED. pin_factory: a gpiozero pin factory (required; see
    ``hardware.buttons.make_pin_factory``). All LEDs start off. Raises ValueError for pins used twice,
    gpiozero's errors for pins it cannot use. Close it (or use ``with``) to turn them off and free them.
    """

    def __init__(self, seat_pins: Sequence[int], status_pin: int | None, *, pin_factory: Any):
        pins = [*seat_pins, *([] if status_pin is None else [status_pin])]
        if len(set(pins)) != len(pins):
            raise ValueError(f"each LED needs its own pin, got seats {list(seat_pins)} and status {status_pin}")
        self._seats: list[LED] = []
        self._status: LED | None = None
        self._turn: int | None = None
        self._pattern = StatusPattern.OFF
        try:
            for pin in seat_pins:
                self._seats.append(LED(pin, pin_factory=pin_factory))
            if status_pin is not None:
                self._status = LED(status_pin, pin_factory=pin_factory)
        except BaseException:
            self.close()
            raise

    @classmethod
    def from_config(cls, config: Any, *, pin_factory: Any) -> "LedPanel":
        """Build from ``companion.config.LedsConfig`` (seats, status)."""
        return cls(config.seats, config.status, pin_factory=pin_factory)

    @property
    def seat_count(self) -> int:
        """How many seat LEDs there are."""
        return len(self._seats)

    @property
    def turn(self) -> int | None:
        """The seat whose LED is lit (None: all off)."""
        return self._turn

    @property
    def pattern(self) -> StatusPattern:
        """The status LED's current pattern."""
        return self._pattern

    def show_turn(self, seat: int | None) -> None:
        """Light ``seat``'s LED (0-based) and turn the others off; None turns all seat LEDs off.

        A seat beyond the wired LEDs (e.g. a fifth player) lights none. Raises ValueError for a
        negative seat.
        """
        if seat is not None and seat < 0:
            raise ValueError(f"seat must be 0 or more, or None, got {seat}")
        self._turn = seat
        for index, led in enumerate(self._seats):
            if index == seat:
                led.on()
            else:
                led.off()

    def show_status(self, pattern: StatusPattern) -> None:
        """Show ``pattern`` on the status LED; the same pattern again leaves a blink undisturbed."""
        if self._status is None or pattern is self._pattern:
            self._pattern = pattern
            return
        self._pattern = pattern
        if pattern is StatusPattern.STEADY:
            self._status.on()
        elif pattern is StatusPattern.OFF:
            self._status.off()
        else:
            on_time, off_time = BLINK_TIMES[pattern]
            self._status.blink(on_time=on_time, off_time=off_time, background=True)

    def close(self) -> None:
        """Stop blinking, turn every LED off and free the pins; safe to call twice."""
        leds = [*self._seats, *([] if self._status is None else [self._status])]
        self._seats, self._status = [], None
        for led in leds:
            led.off()  # stops a blink too
            led.close()

    def __enter__(self) -> "LedPanel":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

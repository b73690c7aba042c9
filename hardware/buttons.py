"""The box's push buttons through gpiozero: callbacks only put :class:`Command`s on a queue.

Wiring: each button between its BCM pin and ground; the Pi's internal pull-up is used, so pressed reads
low. gpiozero calls our callbacks on its own threads (the pin driver's, and each button's hold thread);
they do nothing but queue a ``Command``, and the main loop drains :attr:`ButtonPanel.queue` once per
frame (STYLE.md 2a, 2.3), so no pygame or game state is touched off the main thread.

What each button sends:

- ``confirm``: its command when pressed;
- ``next``: ``Command(Button.NEXT)`` when released after a short press, or ``Command(Button.MENU)``
  once it has been held for ``hold_time`` seconds (then nothing on release). One press never gives both.
- ``undo``: the same way, ``Command(Button.UNDO)`` on release after a short press, or
  ``Command(Button.RULES)`` (how to play) once held for ``hold_time``.
- ``bank``, ``pass``: the same way, their command on release, or ``BANK_HELD`` / ``PASS_HELD`` once held
  (a leap in the donkey race's value entry; the plain press on every other screen).

Debouncing: gpiozero hands ``bounce_time`` to the pin driver (lgpio filters glitches shorter than it;
the mock factory ignores it), and each button also ignores any edge that comes within ``bounce_time``
seconds of the last edge it accepted (:class:`EdgeFilter`). So a bouncing contact gives one command, and
a press shorter than ``bounce_time`` counts as noise.

The pin factory is always passed in (no gpiozero global default): :func:`make_pin_factory` picks it at
the composition root; tests pass ``gpiozero.pins.mock.MockFactory()``.
"""

from __future__ import annotations

import logging
import os
import queue
import threading
import time
from collections.abc import Callable, Mapping
from importlib import import_module
from typing import Any

from gpiozero import Button as GpioButton

from companion.commands import Button, Command
from companion.errors import PinFactoryError
from hardware.pi import is_raspberry_pi

logger = logging.getLogger(__name__)

PANEL_BUTTONS: tuple[Button, ...] = (Button.CONFIRM, Button.BANK, Button.PASS, Button.NEXT, Button.UNDO)
"""The buttons that can have a pin."""

HOLDS: dict[Button, Button] = {Button.NEXT: Button.MENU, Button.UNDO: Button.RULES, Button.BANK: Button.BANK_HELD,
                               Button.PASS: Button.PASS_HELD}
"""What a long press of a button sends (CONFIRM acts when pressed; these act when let go, or when held). A
long press of BANK or PASS is a leap in the donkey race's value entry and the plain press everywhere else
(:func:`companion.commands.as_taken`)."""

_FACTORIES = {
    "lgpio": "gpiozero.pins.lgpio:LGPIOFactory",
    "rpigpio": "gpiozero.pins.rpigpio:RPiGPIOFactory",
    "pigpio": "gpiozero.pins.pigpio:PiGPIOFactory",
    "native": "gpiozero.pins.native:NativeFactory",
    "mock": "gpiozero.pins.mock:MockFactory",
}


def _load_factory(name: str) -> Any:
    module_name, class_name = _FACTORIES[name].split(":")
    try:
        module = import_module(module_name)
    except ModuleNotFoundError as error:
        if error.name != module_name:
            raise
        # gpiozero itself lacks the driver: lgpio came with gpiozero 2.0 (Debian Bookworm's own apt has 1.6.2,
        # Raspberry Pi OS's python3-gpiozero has 2.0 and lgpio).
        try:
            from importlib.metadata import version
            found = version("gpiozero")
        except Exception:
            found = "?"
        raise ModuleNotFoundError(f"gpiozero {found} has no {name} pin factory ({module_name}); "
                                  "gpiozero 2.0 or later has it", name=module_name) from None
    return getattr(module, class_name)()


def make_pin_factory(env: Mapping[str, str] = os.environ) -> Any:
    """The gpiozero pin factory for this machine.

    With ``GPIOZERO_PIN_FACTORY`` set (the systemd unit sets ``lgpio``), that factory is used and a
    failure raises :class:`PinFactoryError`, so a missing driver fails loudly (STYLE.md 2.2). Names:
    lgpio, rpigpio, pigpio, native, mock. Otherwise lgpio is tried and, where it does not work (off the
    Pi, lgpio not installed, no access to ``/dev/gpiochip*``), a ``MockFactory`` is returned: the physical
    buttons and LEDs then do nothing and the keyboard stands in. That is logged as a warning on a Raspberry
    Pi (:func:`hardware.pi.is_raspberry_pi`) and only at debug level elsewhere, where it is expected.
    """
    name = env.get("GPIOZERO_PIN_FACTORY", "").strip().lower()
    if name:
        if name not in _FACTORIES:
            raise PinFactoryError(f"GPIOZERO_PIN_FACTORY={name!r} is not one of: {', '.join(_FACTORIES)}")
        try:
            factory = _load_factory(name)
        except Exception as error:
            raise PinFactoryError(
                f"GPIOZERO_PIN_FACTORY={name}: cannot start the pin factory ({type(error).__name__}: {error}); "
                "check that the library is installed, the user is in the gpio group and the working "
                "directory is writable (lgpio), or unset GPIOZERO_PIN_FACTORY to fall back to mock pins"
            ) from error
    else:
        try:
            factory = _load_factory("lgpio")
        except Exception as error:
            # Off the Pi mock pins are what is expected (the keys stand in): said quietly there.
            level = logging.WARNING if is_raspberry_pi() else logging.DEBUG
            logger.log(
                level, "GPIO: lgpio is not available (%s: %s); using mock pins, so the physical buttons and "
                "LEDs do nothing", type(error).__name__, error,
            )
            factory = _load_factory("mock")
    logger.debug("GPIO pin factory: %s", type(factory).__name__)
    return factory


class EdgeFilter:
    """Debounce and hold logic for one button, driven by the caller's clock (seconds, monotonic).

    Each method returns the :class:`Command` to queue, or None. An edge within ``bounce_time`` seconds
    of the last accepted edge is ignored. ``held``: the command of a long press; the button's own command
    is then queued on release unless :meth:`held` came first, which queues ``held``. Without it the
    command is queued on press.
    Not thread-safe by itself (:class:`ButtonPanel` holds a lock around it).
    """

    def __init__(self, button: Button, bounce_time: float, *, held: Button | None = None):
        self.button = button
        self.bounce_time = bounce_time
        self.held_command = held
        self._last_edge: float | None = None
        self._down = False
        self._held = False

    def _accept(self, now: float) -> bool:
        if self._last_edge is not None and now - self._last_edge < self.bounce_time:
            return False
        self._last_edge = now
        return True

    def pressed(self, now: float) -> Command | None:
        """The contact closed at ``now``."""
        if not self._accept(now):
            return None
        self._down, self._held = True, False
        return None if self.held_command else Command(self.button)

    def released(self, now: float) -> Command | None:
        """The contact opened at ``now``."""
        if not self._down or not self._accept(now):
            return None
        self._down = False
        if self.held_command and not self._held:
            return Command(self.button)
        return None

    def held(self) -> Command | None:
        """gpiozero says the button has been down for ``hold_time``."""
        if not self._down or self._held or not self.held_command:
            return None
        self._held = True
        return Command(self.held_command)


class ButtonPanel:
    """The physical buttons: one gpiozero ``Button`` per entry of ``pins`` (Button -> BCM pin 0-27).

    bounce_time: seconds (>= 0; 0 turns debouncing off). hold_time: seconds a button is held for its long
    press (> 0, :data:`HOLDS`). pin_factory: a gpiozero pin factory (required; see :func:`make_pin_factory`).
    command_queue: where commands go (a new ``queue.SimpleQueue`` by default), exposed as :attr:`queue`.
    clock: monotonic seconds for debouncing (injectable for tests).

    Raises ValueError for a button that has no pin (e.g. MENU), pins used twice, or bad times; gpiozero's
    errors for pins it cannot use (e.g. ``GPIOPinInUse``). Close it (or use ``with``) to free the pins.
    """

    def __init__(
        self,
        pins: Mapping[Button, int],
        *,
        pin_factory: Any,
        bounce_time: float = 0.05,
        hold_time: float = 1.0,
        command_queue: "queue.SimpleQueue[Command] | None" = None,
        clock: Callable[[], float] = time.monotonic,
    ):
        unknown = [b for b in pins if b not in PANEL_BUTTONS]
        if unknown:
            raise ValueError(f"no pin can be given to {', '.join(b.value for b in unknown)}; "
                             f"buttons with pins: {', '.join(b.value for b in PANEL_BUTTONS)}")
        if len(set(pins.values())) != len(pins):
            raise ValueError(f"each button needs its own pin, got {dict((b.value, p) for b, p in pins.items())}")
        if bounce_time < 0 or hold_time <= 0:
            raise ValueError(f"need bounce_time >= 0 and hold_time > 0 (seconds), got {bounce_time}, {hold_time}")
        self.queue: queue.SimpleQueue[Command] = command_queue if command_queue is not None else queue.SimpleQueue()
        self._clock = clock
        self._lock = threading.Lock()
        self._devices: dict[Button, GpioButton] = {}
        try:
            for button, pin in pins.items():
                self._devices[button] = self._make(button, pin, pin_factory, bounce_time, hold_time)
        except BaseException:
            self.close()
            raise
        logger.debug("buttons on pins %s", {b.value: p for b, p in pins.items()})

    @classmethod
    def from_config(cls, config: Any, *, pin_factory: Any, **kwargs: Any) -> "ButtonPanel":
        """Build from ``companion.config.ButtonsConfig`` (pins, bounce_time, hold_time)."""
        return cls(config.pins, pin_factory=pin_factory, bounce_time=config.bounce_time,
                   hold_time=config.hold_time, **kwargs)

    def _make(self, button: Button, pin: int, factory: Any, bounce_time: float, hold_time: float) -> GpioButton:
        device = GpioButton(pin, pull_up=True, bounce_time=bounce_time or None, hold_time=hold_time,
                            pin_factory=factory)
        edges = EdgeFilter(button, bounce_time, held=HOLDS.get(button))
        device.when_pressed = lambda: self._emit(edges.pressed, self._clock())
        device.when_released = lambda: self._emit(edges.released, self._clock())
        if button in HOLDS:
            device.when_held = lambda: self._emit(edges.held)
        return device

    def _emit(self, handler: Callable[..., Command | None], *args: float) -> None:
        with self._lock:
            command = handler(*args)
        if command is not None:
            self.queue.put(command)

    def drain(self) -> list[Command]:
        """Everything queued so far, oldest first; never blocks."""
        commands = []
        while True:
            try:
                commands.append(self.queue.get_nowait())
            except queue.Empty:
                return commands

    @property
    def pins(self) -> dict[Button, Any]:
        """Button -> the gpiozero pin object (a ``MockPin`` under the mock factory)."""
        return {button: device.pin for button, device in self._devices.items()}

    def close(self) -> None:
        """Stop the hold threads and free the pins; safe to call twice."""
        devices, self._devices = self._devices, {}
        for device in devices.values():
            # Each hold thread notices a stop request within 0.1 s; ask them all first so that closing
            # five buttons takes one such wait rather than five. (gpiozero's close() does the rest.)
            thread = getattr(device, "_hold_thread", None)
            if thread is not None:
                thread.stopping.set()
        for device in devices.values():
            device.close()

    def __enter__(self) -> "ButtonPanel":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

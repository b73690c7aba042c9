"""GPIO buttons and LEDs through gpiozero (mock pin factory off the Pi). Callbacks only queue Commands."""

from hardware.buttons import ButtonPanel, make_pin_factory
from hardware.leds import LedPanel, StatusPattern
from hardware.pi import is_raspberry_pi

__all__ = ["ButtonPanel", "make_pin_factory", "LedPanel", "StatusPattern", "is_raspberry_pi"]

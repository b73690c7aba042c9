"""gpiozero before 2.0 (Debian Bookworm's own apt has 1.6.2) has no lgpio pin factory: said plainly."""

import pytest

from companion.errors import PinFactoryError
from hardware import buttons, make_pin_factory


def test_a_gpiozero_without_the_lgpio_module_is_named(monkeypatch):
    monkeypatch.setitem(buttons._FACTORIES, "lgpio", "gpiozero.pins.no_such_driver:LGPIOFactory")
    with pytest.raises(PinFactoryError, match=r"gpiozero \S+ has no lgpio pin factory .*gpiozero 2\.0 or later"):
        make_pin_factory({"GPIOZERO_PIN_FACTORY": "lgpio"})
    assert type(make_pin_factory({})).__name__ == "MockFactory"  # unset: the mock pins, as before

"""hardware.buttons on gpiozero's mock pins: presses become queued Commands."""

import logging
import time

import pytest
from gpiozero.pins.mock import MockFactory

from companion.commands import Button, Command
from companion.config import load_config
from companion.errors import PinFactoryError
from hardware import ButtonPanel, make_pin_factory
from hardware.buttons import EdgeFilter

PINS = {Button.CONFIRM: 17, Button.BANK: 27, Button.PASS: 22, Button.NEXT: 23, Button.UNDO: 24}


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock():
    return FakeClock()


@pytest.fixture
def panel(factory, clock):
    with ButtonPanel(PINS, pin_factory=factory, bounce_time=0.05, hold_time=1.0, clock=clock) as panel:
        yield panel


def tap(factory, pin, clock, seconds=0.2):
    factory.pin(pin).drive_low()
    clock.now += seconds
    factory.pin(pin).drive_high()
    clock.now += seconds


def wait_for(panel, count, timeout=3.0):
    commands = []
    deadline = time.monotonic() + timeout
    while len(commands) < count and time.monotonic() < deadline:
        commands += panel.drain()
        time.sleep(0.005)
    return commands


def test_each_button_queues_its_command(factory, panel, clock):
    for button in (Button.CONFIRM, Button.BANK, Button.PASS, Button.UNDO):
        tap(factory, PINS[button], clock)
    assert panel.drain() == [Command(Button.CONFIRM), Command(Button.BANK), Command(Button.PASS), Command(Button.UNDO)]
    assert panel.drain() == []


def test_command_comes_on_press_for_plain_buttons(factory, panel, clock):
    factory.pin(17).drive_low()
    assert panel.drain() == [Command(Button.CONFIRM)]
    clock.now += 0.2
    factory.pin(17).drive_high()
    assert panel.drain() == []


def test_next_comes_on_release_after_a_short_press(factory, panel, clock):
    factory.pin(23).drive_low()
    assert panel.drain() == []
    clock.now += 0.3
    factory.pin(23).drive_high()
    assert panel.drain() == [Command(Button.NEXT)]


def test_bounce_gives_one_command(factory, panel, clock):
    pin = factory.pin(17)
    for _ in range(3):  # the contact chatters within a few milliseconds
        pin.drive_low()
        clock.now += 0.002
        pin.drive_high()
        clock.now += 0.002
    pin.drive_low()
    clock.now += 0.3
    for _ in range(3):  # and again on release
        pin.drive_high()
        clock.now += 0.002
        pin.drive_low()
        clock.now += 0.002
    pin.drive_high()
    assert panel.drain() == [Command(Button.CONFIRM)]
    clock.now += 0.3
    tap(factory, 17, clock)
    assert panel.drain() == [Command(Button.CONFIRM)]


def test_bouncing_next_gives_one_next(factory, panel, clock):
    pin = factory.pin(23)
    pin.drive_low()
    pin.drive_high()  # bounce: a release 0 s after the press is ignored
    pin.drive_low()
    clock.now += 0.3
    pin.drive_high()
    pin.drive_low()
    pin.drive_high()
    assert panel.drain() == [Command(Button.NEXT)]


def test_holding_next_gives_menu_and_no_next(factory):
    with ButtonPanel(PINS, pin_factory=factory, bounce_time=0.01, hold_time=0.25) as panel:
        factory.pin(23).drive_low()
        assert wait_for(panel, 1) == [Command(Button.MENU)]
        time.sleep(0.1)  # still held: no repeat
        factory.pin(23).drive_high()
        assert panel.drain() == []
        # a short press afterwards is a plain NEXT again
        time.sleep(0.03)  # longer than bounce_time after the release
        factory.pin(23).drive_low()
        time.sleep(0.02)
        factory.pin(23).drive_high()
        assert panel.drain() == [Command(Button.NEXT)]


def test_bank_and_pass_act_when_let_go_or_give_their_long_press(factory):
    """#51: BANK and PASS have long presses too (the donkey race's leaps), so they act on release."""
    bank, pass_ = PINS[Button.BANK], PINS[Button.PASS]
    with ButtonPanel(PINS, pin_factory=factory, bounce_time=0.01, hold_time=0.25) as panel:
        factory.pin(bank).drive_low()
        assert panel.drain() == []
        time.sleep(0.03)
        factory.pin(bank).drive_high()
        assert panel.drain() == [Command(Button.BANK)]
        time.sleep(0.03)
        factory.pin(pass_).drive_low()
        assert wait_for(panel, 1) == [Command(Button.PASS_HELD)]
        factory.pin(pass_).drive_high()
        assert panel.drain() == []


def test_edge_filter_never_gives_both_next_and_menu():
    edges = EdgeFilter(Button.NEXT, 0.05, held=Button.MENU)
    assert edges.pressed(0.0) is None
    assert edges.released(1.2) == Command(Button.NEXT)
    assert edges.held() is None  # a hold that fires after the release is ignored
    assert edges.pressed(2.0) is None
    assert edges.held() == Command(Button.MENU)
    assert edges.held() is None
    assert edges.released(3.5) is None


def test_edge_filter_press_shorter_than_bounce_is_noise():
    edges = EdgeFilter(Button.NEXT, 0.05, held=Button.MENU)
    edges.pressed(0.0)
    assert edges.released(0.01) is None
    assert edges.pressed(1.0) is None  # the next real press still works
    assert edges.released(1.2) == Command(Button.NEXT)


def test_from_config_and_close_frees_the_pins(factory):
    config = load_config(None).buttons
    panel = ButtonPanel.from_config(config, pin_factory=factory)
    # gpiozero 2 names a pin by p.info ("GPIO17"); 1.6 (Debian's apt) by p.number
    assert {b: int(p.info.name[4:]) if hasattr(p, "info") else p.number
            for b, p in panel.pins.items()} == dict(config.pins)
    panel.close()
    panel.close()
    with ButtonPanel.from_config(config, pin_factory=factory) as again:  # pins free again
        factory.pin(17).drive_low()
        assert again.drain() == [Command(Button.CONFIRM)]


def test_bad_pin_maps_are_refused(factory):
    with pytest.raises(ValueError, match="menu"):
        ButtonPanel({Button.MENU: 5}, pin_factory=factory)
    with pytest.raises(ValueError, match="own pin"):
        ButtonPanel({Button.CONFIRM: 5, Button.BANK: 5}, pin_factory=factory)


@pytest.mark.parametrize("on_a_pi, level", [(True, logging.WARNING), (False, logging.DEBUG)])
def test_make_pin_factory_falls_back_to_mock_a_warning_on_a_pi_only(caplog, monkeypatch, on_a_pi, level):
    try:
        import lgpio  # noqa: F401
    except ImportError:
        pass
    else:
        pytest.skip("lgpio is installed here; the fallback is not reachable")
    monkeypatch.setattr("hardware.buttons.is_raspberry_pi", lambda: on_a_pi)
    with caplog.at_level(logging.DEBUG, logger="hardware.buttons"):
        factory = make_pin_factory({})
    assert isinstance(factory, MockFactory)
    said = [record.levelno for record in caplog.records if "mock pins" in record.getMessage()]
    assert said == [level]  # off the Pi mock pins are expected: said quietly
    factory.close()


def test_make_pin_factory_honours_the_environment():
    factory = make_pin_factory({"GPIOZERO_PIN_FACTORY": "mock"})
    assert isinstance(factory, MockFactory)
    factory.close()
    with pytest.raises(PinFactoryError, match="not one of"):
        make_pin_factory({"GPIOZERO_PIN_FACTORY": "magic"})


def test_named_factory_that_fails_raises():
    try:
        import lgpio  # noqa: F401
    except ImportError:
        with pytest.raises(PinFactoryError, match="GPIOZERO_PIN_FACTORY=lgpio"):
            make_pin_factory({"GPIOZERO_PIN_FACTORY": "lgpio"})
    else:
        pytest.skip("lgpio is installed here")

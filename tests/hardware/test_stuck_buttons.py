"""Stuck and bouncing buttons (issue 9, item 6): one command per press, and no button blocks another.

The pure :class:`EdgeFilter` is driven by an injected clock (hypothesis property tests); the
:class:`ButtonPanel` runs on gpiozero's mock pins with a fake debounce clock.
"""

from __future__ import annotations

import time

from hypothesis import example, given, settings
from hypothesis import strategies as st

from companion.commands import Button, Command
from hardware import ButtonPanel
from hardware.buttons import EdgeFilter

PINS = {Button.CONFIRM: 17, Button.BANK: 27, Button.PASS: 22, Button.NEXT: 23, Button.UNDO: 24}
BOUNCE = 0.05


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


# --- the pure filter ---------------------------------------------------------------------------------

# One press: a burst of contact chatter after closing, the time held, a burst after opening, the pause
# before the next press (seconds). Chatter edges come 0.1-5 ms apart, all inside bounce_time.
chatter = st.lists(st.floats(0.0001, 0.005), max_size=6)
press = st.tuples(chatter, st.floats(0.06, 600.0), chatter, st.floats(0.06, 5.0))


def _edges(presses, downs: list[float] | None = None):
    """(time, closed) edges of ``presses``, starting at t=0; ``downs`` gets each press's time from its
    last closing edge to its release (bounce time included): a hold is timed from the contact's last
    closing, as gpiozero's hold timer restarts on each (a chatter of 12 ms once decided it)."""
    t, edges = 0.0, []
    for close_chatter, held, open_chatter, pause in presses:
        start = t
        edges.append((t, True))
        level = True
        for gap in close_chatter:  # bounce: open, close, open, ... ending closed
            t += gap
            level = not level
            edges.append((t, level))
        if not level:
            t += 0.0001
            edges.append((t, True))
        closed_at = t
        t = max(t, start + BOUNCE) + held
        release = t
        if downs is not None:
            downs.append(release - closed_at)
        edges.append((t, False))
        level = False
        for gap in open_chatter:
            t += gap
            level = not level
            edges.append((t, level))
        if level:
            t += 0.0001
            edges.append((t, False))
        t = max(t, release + BOUNCE) + pause
    return edges


def _feed(edge_filter: EdgeFilter, edges, hold_time: float | None = None) -> list[Command]:
    commands = []
    down_since = None
    for now, closed in edges:
        if hold_time is not None and down_since is not None and not closed and now - down_since >= hold_time:
            commands.append(edge_filter.held())  # gpiozero's hold thread fires while it is down
        command = edge_filter.pressed(now) if closed else edge_filter.released(now)
        commands.append(command)
        if closed and down_since is None:
            down_since = now
        elif not closed:
            down_since = None
    return [c for c in commands if c is not None]


@settings(max_examples=200, deadline=None)
@given(presses=st.lists(press, min_size=1, max_size=8))
def test_a_chattering_plain_button_gives_exactly_one_command_per_press(presses):
    commands = _feed(EdgeFilter(Button.CONFIRM, BOUNCE), _edges(presses))
    assert commands == [Command(Button.CONFIRM)] * len(presses)


@settings(max_examples=200, deadline=None)
@given(presses=st.lists(press, min_size=1, max_size=8))
@example(presses=[([0.00390625, 0.00390625, 0.00390625], 0.9609375, [], 1.0)])  # 12 ms of chatter, then 0.999 s
def test_a_chattering_next_gives_one_next_or_one_menu_per_press(presses):
    hold = 1.0
    downs: list[float] = []
    commands = _feed(EdgeFilter(Button.NEXT, BOUNCE, held=Button.MENU), _edges(presses, downs), hold_time=hold)
    assert len(commands) == len(presses)
    for command, down in zip(commands, downs):  # the time the button was really down decides
        assert command.button in (Button.NEXT, Button.MENU)
        if down >= hold + 0.01:
            assert command.button is Button.MENU
        elif down < hold - 0.01:
            assert command.button is Button.NEXT


def test_a_button_stuck_down_for_ten_minutes_gives_one_command():
    edge_filter = EdgeFilter(Button.BANK, BOUNCE)
    assert edge_filter.pressed(0.0) == Command(Button.BANK)
    # nothing else happens for ten minutes: no edge, no command; then it is released and pressed again
    assert edge_filter.released(600.0) is None
    assert edge_filter.pressed(601.0) == Command(Button.BANK)


def test_held_repeats_give_one_menu_per_press():
    edge_filter = EdgeFilter(Button.NEXT, BOUNCE, held=Button.MENU)
    edge_filter.pressed(0.0)
    assert [edge_filter.held() for _ in range(50)].count(Command(Button.MENU)) == 1
    assert edge_filter.released(300.0) is None


# --- on mock pins --------------------------------------------------------------------------------------


def _drain(panel: ButtonPanel, count: int, timeout: float = 2.0) -> list[Command]:
    commands: list[Command] = []
    deadline = time.monotonic() + timeout
    while len(commands) < count and time.monotonic() < deadline:
        commands += panel.drain()
        time.sleep(0.005)
    time.sleep(0.05)
    return commands + panel.drain()


def _tap(factory, pin: int, clock: FakeClock, chatter: int = 0) -> None:
    for _ in range(chatter):  # contact bounce on closing, inside bounce_time
        factory.pin(pin).drive_low()
        clock.now += 0.002
        factory.pin(pin).drive_high()
        clock.now += 0.002
    factory.pin(pin).drive_low()
    clock.now += 0.2
    factory.pin(pin).drive_high()
    clock.now += 0.2


def test_a_stuck_button_does_not_block_the_others_on_mock_pins(factory):
    clock = FakeClock()
    with ButtonPanel(PINS, pin_factory=factory, bounce_time=BOUNCE, hold_time=0.2, clock=clock) as panel:
        factory.pin(PINS[Button.CONFIRM]).drive_low()  # CONFIRM jams down ...
        clock.now += 300.0  # ... for five minutes
        for button in (Button.BANK, Button.PASS, Button.UNDO, Button.BANK):
            _tap(factory, PINS[button], clock, chatter=3)
        commands = _drain(panel, 5)
        assert commands == [Command(Button.CONFIRM), Command(Button.BANK), Command(Button.PASS),
                            Command(Button.UNDO), Command(Button.BANK)]
        factory.pin(PINS[Button.CONFIRM]).drive_high()
        clock.now += 1.0
        assert _drain(panel, 1, timeout=0.1) == []  # releasing the jammed button sends nothing


def test_next_held_for_minutes_gives_one_menu_and_the_others_still_work(factory):
    clock = FakeClock()
    with ButtonPanel(PINS, pin_factory=factory, bounce_time=BOUNCE, hold_time=0.1, clock=clock) as panel:
        factory.pin(PINS[Button.NEXT]).drive_low()
        clock.now += 0.001
        time.sleep(0.5)  # gpiozero's hold thread (real time): five hold times
        clock.now += 300.0
        _tap(factory, PINS[Button.CONFIRM], clock, chatter=2)
        commands = _drain(panel, 2)
        assert sorted(c.button.value for c in commands) == ["confirm", "menu"]
        factory.pin(PINS[Button.NEXT]).drive_high()
        clock.now += 1.0
        assert _drain(panel, 1, timeout=0.1) == []  # no NEXT after the MENU


def test_chattering_presses_on_mock_pins_give_one_command_each(factory):
    clock = FakeClock()
    with ButtonPanel(PINS, pin_factory=factory, bounce_time=BOUNCE, hold_time=1.0, clock=clock) as panel:
        for _ in range(20):
            _tap(factory, PINS[Button.PASS], clock, chatter=4)
        assert _drain(panel, 20) == [Command(Button.PASS)] * 20

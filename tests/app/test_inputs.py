"""companion.app.inputs: scripts, keyboard, GPIO and combined input sources."""

import os
import time

import pytest

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
import pygame  # noqa: E402

from companion import i18n  # noqa: E402
from companion.app.inputs import (KEY_LEGEND, CombinedInput, GpioInput, KeyboardInput, ScriptInput, open_input,
    parse_script)
from companion.commands import Button, Command  # noqa: E402
from companion.config import ButtonsConfig  # noqa: E402
from companion.errors import ScriptError, UserError

SCRIPT = """\
# a short Can't Stop turn
confirm            # roll
wait 2
dice 3 4 3 4

choose 1
wait
bank
"""


def drain(source, polls):
    return [source.poll() for _ in range(polls)]


def test_script_delivers_one_command_per_poll_and_waits(tmp_path):
    path = tmp_path / "turn.script"
    path.write_text(SCRIPT)
    script = ScriptInput(path)
    assert not script.exhausted
    polls = drain(script, 8)
    assert polls == [
        [Command(Button.CONFIRM)],
        [],
        [],
        [Command(Button.DICE, (3, 4, 3, 4))],
        [Command(Button.CHOOSE, (1,))],
        [],
        [Command(Button.BANK)],
        [],
    ]
    assert script.exhausted
    assert script.last_line == 8


def test_trailing_wait_keeps_the_script_running():
    script = ScriptInput.from_text("undo\nwait 3\n")
    assert script.poll() == [Command(Button.UNDO)]
    for _ in range(3):
        assert not script.exhausted
        assert script.poll() == []
    assert script.exhausted


def test_wait_zero_is_nothing_and_steps_keep_line_numbers():
    steps = parse_script("\n\nwait 0\nnext\n", "x")
    assert [(s.line, s.command, s.wait) for s in steps] == [(3, None, 0), (4, Command(Button.NEXT), 0)]
    script = ScriptInput.from_text("wait 0\nnext\n")
    assert script.poll() == [Command(Button.NEXT)]


def test_empty_script_is_exhausted_at_once():
    assert ScriptInput.from_text("# nothing\n\n").exhausted


@pytest.mark.parametrize(
    "line, message",
    [
        ("jump", r"unknown command 'jump'"),
        ("dice 3 x", r"whole numbers"),
        ("wait soon", r"'wait' takes one whole number"),
        ("wait 1 2", r"'wait' takes one whole number"),
        ("wait -1", r"'wait' takes one whole number"),
        ("confirm 3", r"'confirm' takes no numbers, got 1"),
        ("set 2", r"'set' takes 2 number\(s\), got 1"),
        ("choose", r"'choose' takes 1 number\(s\), got 0"),
        ("dice", r"'dice' takes at least 1 number\(s\), got 0"),
        ("choose -1", r"must not be negative"),
    ],
)
def test_script_errors_name_file_and_line(tmp_path, line, message):
    path = tmp_path / "bad.script"
    path.write_text(f"confirm\n# fine so far\n{line}\n")
    with pytest.raises(ScriptError, match=message) as info:
        ScriptInput(path)
    assert str(info.value).startswith(f"{path}:3: ")


def test_unreadable_script_names_the_file(tmp_path):
    with pytest.raises(ScriptError, match="missing.script: cannot read the script: No such file or directory$"):
        ScriptInput(tmp_path / "missing.script")
    assert issubclass(ScriptError, ValueError)


def key(k):
    return pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode="", scancode=0)


def up(k):
    return pygame.event.Event(pygame.KEYUP, key=k, mod=0, unicode="", scancode=0)


def tap(k):
    return [key(k), up(k)]


def test_keyboard_mapping():
    keyboard = KeyboardInput()
    keyboard.feed(
        [
            key(pygame.K_SPACE), key(pygame.K_RETURN), key(pygame.K_c), *tap(pygame.K_b), *tap(pygame.K_p),
            *tap(pygame.K_n), *tap(pygame.K_TAB), *tap(pygame.K_RIGHT), *tap(pygame.K_u), *tap(pygame.K_BACKSPACE),
            key(pygame.K_ESCAPE), key(pygame.K_m), key(pygame.K_q), key(pygame.K_UP),
            key(pygame.K_1), key(pygame.K_6), key(pygame.K_KP3),
            key(pygame.K_z),  # unmapped
            pygame.event.Event(pygame.KEYUP, key=pygame.K_b),  # ignored: B was let go already
            pygame.event.Event(pygame.QUIT),
        ]
    )
    C = Command
    assert keyboard.poll() == [
        C(Button.CONFIRM), C(Button.CONFIRM), C(Button.CONFIRM), C(Button.BANK), C(Button.PASS),
        C(Button.NEXT), C(Button.NEXT), C(Button.NEXT), C(Button.UNDO), C(Button.UNDO),
        C(Button.MENU), C(Button.MENU), C(Button.QUIT), C(Button.UP),
        C(Button.CHOOSE, (1,)), C(Button.CHOOSE, (6,)), C(Button.CHOOSE, (3,)),  # key N: option N, as scripts
        C(Button.QUIT),
    ]
    assert keyboard.poll() == []
    assert not keyboard.exhausted


def test_holding_the_next_or_undo_key_goes_to_the_menu_or_the_rules_as_the_buttons_do():
    """Issue 51: holding NEXT went nowhere in a window although the help says "hold 1 s: back to the menu"."""
    clock = [0.0]
    keyboard = KeyboardInput(hold_time=1.0, clock=lambda: clock[0])
    keyboard.feed([key(pygame.K_n), key(pygame.K_n)])  # a key repeat is no second press
    assert keyboard.poll() == []  # a tap acts when let go: it may still become a long press
    clock[0] = 0.99
    assert keyboard.poll() == []
    clock[0] = 1.0
    assert keyboard.poll() == [Command(Button.MENU)]
    clock[0] = 3.0
    keyboard.feed([up(pygame.K_n)])
    assert keyboard.poll() == []  # held: nothing more when let go
    keyboard.feed([key(pygame.K_u)])
    clock[0] = 3.5
    keyboard.feed([up(pygame.K_u)])
    assert keyboard.poll() == [Command(Button.UNDO)]  # a short press undoes
    keyboard.feed([key(pygame.K_BACKSPACE)])
    clock[0] = 4.6
    assert keyboard.poll() == [Command(Button.RULES)]
    keyboard.feed([key(pygame.K_n), pygame.event.Event(pygame.WINDOWFOCUSLOST)])
    clock[0] = 9.0
    assert keyboard.poll() == []  # the window lost the keys: no long press from a key-up never seen


def test_holding_the_bank_or_pass_key_gives_its_long_press():
    """#51: the donkey race's value entry leaps with a long press of BANK (PASS for the leader); a tap
    of either acts when the key is let go, as the buttons do."""
    clock = [0.0]
    keyboard = KeyboardInput(hold_time=1.0, clock=lambda: clock[0])
    keyboard.feed([key(pygame.K_b)])
    assert keyboard.poll() == []
    clock[0] = 1.0
    assert keyboard.poll() == [Command(Button.BANK_HELD)]
    keyboard.feed([up(pygame.K_b), *tap(pygame.K_p), key(pygame.K_p)])
    assert keyboard.poll() == [Command(Button.PASS)]
    clock[0] = 2.5
    assert keyboard.poll() == [Command(Button.PASS_HELD)]


def test_keyboard_pulls_events_from_the_display_callable():
    pending = [[*tap(pygame.K_b), key(pygame.K_2)], [], [pygame.event.Event(pygame.QUIT)]]
    keyboard = KeyboardInput(lambda: pending.pop(0))
    assert keyboard.poll() == [Command(Button.BANK), Command(Button.CHOOSE, (2,))]
    assert keyboard.poll() == []
    assert keyboard.poll() == [Command(Button.QUIT)]


def test_window_only_source_drains_events_and_gives_quit():
    pending = [[key(pygame.K_b)], [pygame.event.Event(pygame.QUIT)]]
    window = KeyboardInput(lambda: pending.pop(0), keys=False)
    assert window.exhausted  # adds no player input
    assert window.poll() == []
    assert window.poll() == [Command(Button.QUIT)]


def test_key_legend_is_translated_when_read(monkeypatch):
    assert len(KEY_LEGEND) >= 8
    assert ("B", "bank (stop and keep)") in list(KEY_LEGEND)
    assert all(isinstance(k, str) and isinstance(m, str) and k and m for k, m in KEY_LEGEND)
    monkeypatch.setattr(i18n, "_translation", type("Shout", (), {"gettext": staticmethod(str.upper)})())
    assert ("B", "BANK (STOP AND KEEP)") in list(KEY_LEGEND)
    assert KEY_LEGEND[:1] == [KEY_LEGEND[0]]


def test_gpio_input_drains_the_panel(factory):
    source = open_input("gpio", pin_factory=factory)
    try:
        assert isinstance(source, GpioInput)
        factory.pin(17).drive_low()
        factory.pin(22).drive_low()
        time.sleep(0.1)  # longer than the bounce time: PASS acts when let go (its long press is PASS_HELD)
        factory.pin(22).drive_high()
        assert source.poll() == [Command(Button.CONFIRM), Command(Button.PASS)]
        assert source.poll() == []
    finally:
        source.close()
    moved = ButtonsConfig(pins={**ButtonsConfig().pins, Button.CONFIRM: 4})
    with_config = open_input("gpio", pins=moved, pin_factory=factory)
    factory.pin(4).drive_low()
    assert with_config.poll() == [Command(Button.CONFIRM)]
    with_config.close()


def test_combined_input_polls_in_order_and_ends_when_all_end(tmp_path):
    first = ScriptInput.from_text("confirm\nbank\n")
    second = ScriptInput.from_text("wait 2\npass\n")
    combined = CombinedInput([first, second])
    assert drain(combined, 4) == [
        [Command(Button.CONFIRM)],
        [Command(Button.BANK)],
        [Command(Button.PASS)],
        [],
    ]
    assert combined.exhausted
    path = tmp_path / "s.script"
    path.write_text("next\n")
    with_keys = open_input(f"script:{path}+keys")
    assert isinstance(with_keys, CombinedInput)
    assert with_keys.poll() == [Command(Button.NEXT)]
    assert not with_keys.exhausted  # the keyboard takes over
    with_keys.close()


def test_script_pauses_while_not_allowed():
    script = ScriptInput.from_text("confirm\nwait 1\nbank\n")
    assert script.poll(script_allowed=False) == []
    assert script.poll() == [Command(Button.CONFIRM)]
    assert script.poll(script_allowed=False) == []  # does not count toward the wait
    assert script.poll() == []
    assert script.poll() == [Command(Button.BANK)]
    keyboard = KeyboardInput()
    keyboard.feed(tap(pygame.K_p))
    combined = CombinedInput([ScriptInput.from_text("undo\n"), keyboard])
    assert combined.poll(script_allowed=False) == [Command(Button.PASS)]  # keys always count
    assert combined.poll() == [Command(Button.UNDO)]


def test_open_input_with_display_events(tmp_path):
    path = tmp_path / "s.script"
    path.write_text("confirm\n")
    pending = [[key(pygame.K_b), pygame.event.Event(pygame.QUIT)], []]
    source = open_input(f"script:{path}", events=lambda: pending.pop(0))
    assert isinstance(source, CombinedInput)
    assert source.poll() == [Command(Button.CONFIRM), Command(Button.QUIT)]  # the B key is no input here
    assert source.exhausted  # the script ended; the window adds no input
    keys = open_input("keys", events=lambda: tap(pygame.K_b))
    assert keys.poll() == [Command(Button.BANK)]


def test_open_input_specs(tmp_path):
    path = tmp_path / "s.script"
    path.write_text("confirm\n")
    assert isinstance(open_input(f"script:{path}"), ScriptInput)
    assert isinstance(open_input(f"script: {path}"), ScriptInput)
    assert isinstance(open_input("keys"), KeyboardInput)
    with pytest.raises(UserError, match="unknown input 'mouse'"):
        open_input("keys+mouse")
    with pytest.raises(UserError, match="unknown input 'keys:1'"):
        open_input("keys:1")
    with pytest.raises(UserError, match="needs a file"):
        open_input("script:")
    with pytest.raises(UserError, match="twice"):
        open_input("keys+keys")
    with pytest.raises(ScriptError, match="nope.script"):
        open_input(f"keys+script:{tmp_path / 'nope.script'}")


def test_a_digit_key_is_the_scripts_choose_command():
    keyboard = KeyboardInput()
    keyboard.feed([key(getattr(pygame, f"K_{d}")) for d in range(1, 10)])
    assert keyboard.poll() == [Command.parse(f"choose {d}") for d in range(1, 10)]

"""The loop drives the LEDs from the session: whose turn, and what the box waits for."""

import random

import pytest

from companion.app.loop import show_leds
from companion.commands import Command
from companion.session.cant_stop import CantStopSession
from companion.store import Store
from hardware import LedPanel, StatusPattern
from vision.observation import DiceObservation, DieReading


@pytest.fixture
def leds(factory):
    with LedPanel((5, 6, 13, 19), 26, pin_factory=factory) as panel:
        yield panel


def test_leds_follow_the_session(tmp_path, leds):
    import numpy as np

    with Store(tmp_path / "s.sqlite3") as store:
        game_id = store.new_game("cant-stop", ["Ada", "Ben"], {})
        session = CantStopSession(store, game_id, ["Ada", "Ben"], rng=random.Random(1))
        session.on_command(Command.parse("choose 2"))
        show_leds(leds, session)
        assert (leds.turn, leds.pattern) == (1, StatusPattern.STEADY)  # the proposed first player
        session.on_command(Command.parse("confirm"))
        show_leds(leds, session)
        assert (leds.turn, leds.pattern) == (1, StatusPattern.SLOW_BLINK)  # waiting for still dice
        three = DiceObservation(tuple(DieReading(v, (0, 0, 9, 9), 0.9) for v in (1, 2, 3)), (50, 50))
        for _ in range(3):
            session.on_frame(np.zeros((50, 50, 3), np.uint8), three)
        show_leds(leds, session)
        assert leds.pattern is StatusPattern.FAST_BLINK  # three dice: look at the screen
        session.on_command(Command.parse("next"))
        show_leds(leds, session)
        assert leds.pattern is StatusPattern.STEADY  # correcting the reading

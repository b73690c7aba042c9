"""EventHold: the last event of a turn stays on the band a few seconds into the next turn."""

from dataclasses import dataclass

from companion.screens.common import Chrome, SeatChip, Tone
from companion.screens.hold import HOLD_SECONDS, JOIN, EventHold

SEATS = (SeatChip("Ada", 0, "", 0), SeatChip("Ben", 1, "", 0))


@dataclass(frozen=True)
class View:
    chrome: Chrome


def view(active: int, notice: str = "", tone: str = Tone.EVENT) -> View:
    return View(Chrome("Ludo", SEATS, active, "prompt", (), notice, tone))


def shown(hold: EventHold, v: View, now: float) -> str:
    return hold.apply(v, now).chrome.notice


def test_an_event_outlives_its_turn_by_a_few_seconds_then_gives_way():
    hold = EventHold()
    assert shown(hold, view(0, "Ada captures Ben's pawn"), 0.0) == "Ada captures Ben's pawn"
    assert shown(hold, view(1), 0.5) == "Ada captures Ben's pawn"  # Ben's first press cleared the band
    assert shown(hold, view(1, "Ben rolls 3"), 1.0) == "Ada captures Ben's pawn" + JOIN + "Ben rolls 3"
    assert shown(hold, view(1, "Ben rolls 3"), 0.5 + HOLD_SECONDS) == "Ben rolls 3"
    assert shown(hold, view(1), 0.6 + HOLD_SECONDS) == ""


def test_within_a_turn_the_newer_event_replaces_the_older_at_once():
    hold = EventHold()
    shown(hold, view(0, "Ada rolls 6"), 0.0)
    assert shown(hold, view(0, "Ada enters a pawn"), 0.1) == "Ada enters a pawn"


def test_warnings_refusals_and_the_winner_are_shown_as_they_are():
    hold = EventHold()
    shown(hold, view(0, "Ada captures Ben's pawn"), 0.0)
    assert shown(hold, view(1, "Nothing to undo", Tone.REFUSED), 0.2) == "Nothing to undo"
    assert shown(hold, view(1, "Ben wins!", Tone.WIN), 0.3) == "Ben wins!"


def test_no_hold_keeps_nothing():
    hold = EventHold(0.0)
    shown(hold, view(0, "Ada banks"), 0.0)
    assert shown(hold, view(1, "Ben rolls"), 0.0) == "Ben rolls"


def test_a_screen_with_nobody_to_act_passes_no_turn():
    hold = EventHold()
    shown(hold, view(0, "Ada rolls again"), 0.0)
    assert shown(hold, View(Chrome("Ludo", SEATS, None, "check", (), "")), 0.1) == ""
    assert shown(hold, view(0, "Ada captures Ben's pawn"), 0.2) == "Ada captures Ben's pawn"  # still Ada's turn


def test_the_move_that_ends_a_turn_is_kept_even_when_it_shows_with_the_next_player_to_act():
    hold = EventHold()
    shown(hold, view(0, "Ada rolls again"), 0.0)
    assert shown(hold, view(1, "Ada captures Ben's pawn"), 0.1) == "Ada captures Ben's pawn"
    assert shown(hold, view(1), 0.2) == "Ada captures Ben's pawn"
    assert shown(hold, view(1, "Ben rolls 6"), 0.3) == "Ada captures Ben's pawn" + JOIN + "Ben rolls 6"


def test_a_band_empty_when_the_turn_passes_keeps_nothing_and_no_older_news_comes_back():
    hold = EventHold()
    shown(hold, view(0, "Ada banks"), 0.0)
    assert shown(hold, view(1), 0.1) == "Ada banks"
    assert shown(hold, view(1), 0.2) == "Ada banks"  # kept through Ben's turn for a while
    assert shown(hold, view(0), 0.3) == ""  # Ben's turn ended with nothing said: Ada's old bank is no news
    assert shown(hold, view(0, "Ada rolls"), 0.4) == "Ada rolls"


def test_an_older_line_does_not_come_back_alone_once_the_new_turn_has_spoken():
    hold = EventHold()
    shown(hold, view(1, "Ben rolls 4: no pawn can move"), 0.0)
    assert shown(hold, view(0, "Ben rolls 4: no pawn can move"), 0.1) == "Ben rolls 4: no pawn can move"
    assert shown(hold, view(0, "Ada rolls a 6"), 0.2) == "Ben rolls 4: no pawn can move" + JOIN + "Ada rolls a 6"
    assert shown(hold, view(0), 0.3) == ""  # Ada moved: her line went, Ben's older one stays gone


def test_a_screen_of_its_own_between_turns_carries_nothing_on():
    hold = EventHold()
    shown(hold, view(0, "Ada passes"), 0.0)
    assert shown(hold, View(Chrome("Donkey race", SEATS, None, "Round 1 over", (), "Ada passes")), 0.1) == \
        "Ada passes"  # the round's end shows it
    assert shown(hold, view(1), 0.2) == ""  # the next round starts clean

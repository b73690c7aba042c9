"""The donkey race session (table-side state, buttons, card readings) and its screen."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pygame
import pytest

from companion.commands import Button, Command
from companion.display.chrome import chrome_layout
from companion.display.donkey_race import render as render_donkey_race
from companion.games.donkey_race import DONKEY, JOKER, UNKNOWN, DonkeyRaceConfig, Phase, Play
from companion.games.donkey_race.record import codes_from_entry
from companion.i18n import speaking
from companion.readers.donkey_race import read_table, reading_from_observation
from companion.screens.common import Tone
from companion.screens.donkey_race import build_view
from companion.screens.palette import player_colour
from companion.session import DonkeyRaceReading as TableReading
from companion.session import Waiting
from companion.session.donkey_race import DonkeyRaceSession, Mode
from companion.store import Store

FRAME = np.zeros((8, 8, 3), np.uint8)


@pytest.fixture
def store(tmp_path):
    with Store(tmp_path / "s.sqlite3") as opened:
        yield opened


def session(store, players=("Ada", "Ben", "Cleo"), **variant) -> DonkeyRaceSession:
    config = DonkeyRaceConfig(**variant)
    game_id = store.new_game("donkey-race", list(players), {})
    return DonkeyRaceSession(store, game_id, list(players), config, stable_frames=2)


def press(s: DonkeyRaceSession, *lines: str) -> None:
    for line in lines:
        s.on_command(Command.parse(line))


def reading(*sectors, donkey=None) -> TableReading:
    return TableReading(tuple(tuple(sorted(c)) for c in sectors), donkey_seat=donkey)


def test_deal_then_the_camera_proposes_the_donkey_holder(store):
    s = session(store)
    assert s.mode is Mode.DEAL and s.waiting is Waiting.PLAYERS and "Deal 3 cards" in build_view(s).prompt
    press(s, "confirm")
    assert s.mode is Mode.FIRST and s.wants_frame and s.state.deck == (UNKNOWN,) * 96
    for _ in range(2):
        s.on_frame(FRAME, reading((), (), (DONKEY,), donkey=2))
    assert s.active_seat == 2 and "shows the donkey card" in build_view(s).prompt
    press(s, "confirm")
    assert s.mode is Mode.PLAY and s.state.active == 2 and DONKEY in s.state.hands[2]


def test_plays_from_the_camera_are_the_new_cards_in_the_active_sector(store):
    s = session(store)
    press(s, "confirm", "choose 2", "confirm")  # Ben leads (nobody shows the donkey)
    assert build_view(s).to_beat == "Lead 1 to 3 cards of one value"
    for _ in range(2):
        s.on_frame(FRAME, reading((4,), (7, 7), ()))  # a card in Ada's sector is not Ben's play
    assert s.proposed_play() == ((7, 7), "camera")
    assert s.out_of_turn() == "Ada: it is not your turn, Ben acts now"
    assert build_view(s).proposal == "Seen: 2 × 7"
    press(s, "confirm")
    assert s.state.count == 2 and s.state.active == 2
    assert build_view(s).to_beat == "2 cards higher than 7, or PASS"
    press(s, "pass")
    assert s.state.active == 0 and [sec.label for sec in build_view(s).sectors] == ["", "2 × 7", "passed"]
    with speaking("de"):  # what happened, not the button's name "PASSEN"
        assert build_view(s).sectors[2].label == "gepasst"
    press(s, "dice 9 9", "confirm")
    assert s.mode is Mode.REFILL and s.state.points == (2, 1, 0)
    view = build_view(s)
    assert view.round_no == 1 and view.discard == 4
    assert view.reminders[0] == "Ada +2: move the orange circle 2 spaces (to 2)"
    assert view.reminders[2] == "Cleo 0: the yellow triangle stays"
    assert "draws back to 3 cards" in view.reminders[3]
    press(s, "confirm")
    assert s.mode is Mode.PLAY and s.state.active == 0 and s.state.round_no == 2
    assert [len(h) for h in s.state.hands] == [3, 3, 3]


def test_a_play_that_cannot_be_in_the_hand_is_refused(store):
    s = session(store, deck=((1, 8), (13, 1)))
    press(s, "confirm", "choose 1", "confirm", "dice 13", "confirm", "dice 13", "confirm")
    assert s.attention and "cannot be in this hand" in s.message and ".md" not in s.message and s.state.active == 1
    press(s, "dice 1", "confirm")
    assert "higher than 13" in s.message and s.state.active == 1


def test_confirm_without_new_cards_is_refused_and_undo_steps_back(store):
    s = session(store)
    press(s, "confirm", "confirm", "confirm")
    assert s.mode is Mode.PLAY and "No new card" in s.message
    press(s, "undo")
    assert s.mode is Mode.FIRST and s.message == "Taken back: Ada leads the first round"
    again = DonkeyRaceSession(store, s.game_id, s.players, s.config)  # a restart replays the log
    assert again.state == s.state


def test_reshuffle_reminder_and_step(store):
    s = session(store, players=("Ada", "Ben"), deck=((1, 4), (2, 4)), donkey=False, track_length=30)
    press(s, "confirm", "choose 1", "confirm")
    assert len(s.state.deck) == 2
    press(s, "dice 1", "confirm", "dice 2", "confirm")  # 2 is the top value: the round ends (D.4.3)
    assert s.mode is Mode.REFILL and s.state.points == (1, 2)
    press(s, "confirm")  # Ben and Ada draw the last two cards
    assert s.state.deck == () and s.state.active == 1
    press(s, "dice 1", "confirm", "pass")  # Ben leads, Ada passes; Ben must draw from an empty pile
    assert s.mode is Mode.RESHUFFLE
    assert "shuffle the discard pile" in " ".join(build_view(s).reminders)
    discards = len(s.state.discard)
    press(s, "confirm")
    assert s.state.reshuffles == 1 and s.mode is Mode.PLAY and len(s.state.deck) < discards


def test_hand_entry_codes_and_the_reader_adapter():
    config = DonkeyRaceConfig(jokers=2)
    assert codes_from_entry([100, 9], config) == (JOKER, 9) and codes_from_entry([0], config) == (DONKEY,)
    card = lambda value, sector, donkey=False, flagged=False: SimpleNamespace(  # noqa: E731
        value=value, sector=sector, donkey=donkey, flagged=flagged)
    observation = SimpleNamespace(cards=[card(7, "south"), card(0, "north", True), card(None, "east", flagged=True)],
                                  problem=None)
    result = reading_from_observation(observation, 4, config)
    assert result.sectors == ((7,), (UNKNOWN,), (DONKEY,), ()) and result.donkey_seat == 2 and result.flagged


def test_screen_renders_every_mode_at_800x480(store):
    s = session(store, players=("Ada", "Ben", "Cleo", "Dan"), track_length=3)
    surfaces = []
    for line in ("confirm", "confirm", "dice 5", "confirm", "dice 8", "confirm", "pass", "pass", "confirm",
                 "dice 2 2", "confirm", "pass", "pass", "pass"):
        surfaces.append(render_donkey_race(build_view(s)))
        press(s, line)
    assert s.mode is Mode.OVER and s.winner_name == "Ben" and s.state.phase is Phase.OVER
    view = build_view(s)
    final = render_donkey_race(view)
    assert final.get_size() == (800, 480)
    assert view.chrome.tone == Tone.WIN and view.chrome.winner == 1 and "Ben" in view.message
    band = chrome_layout(view.chrome, (800, 480)).notice
    assert final.get_at((band.left + 1, band.centery))[:3] == player_colour(1)  # the band framed in Ben's colour
    assert all(isinstance(x, pygame.Surface) for x in surfaces)
    press(s, "confirm")
    assert s.finished and s.waiting is Waiting.NOTHING


def test_rendered_card_photos_drive_the_first_leader_and_the_plays(store):
    from vision.cards.render import render_donkey_scene

    s = session(store)
    rng = np.random.default_rng(5)

    def show(*hands):
        for _ in range(4):  # this test is about the session: re-render a scene the reader flags
            frame, _ = render_donkey_scene(rng, [list(h) for h in hands])
            seen = read_table(frame, 3, s.config)
            if not seen.flagged:
                break
        for _ in range(2):
            s.on_frame(frame, seen)

    press(s, "confirm")
    show((), (), (0,))  # Cleo shows the donkey card
    assert s.active_seat == 2 and "shows the donkey" in build_view(s).prompt
    press(s, "confirm")
    show((), (), (4,))
    press(s, "confirm")
    assert s.state.plays == ((2, (4,)),) and s.state.active == 0
    show((9,), (), (4,))
    assert s.proposed_play() == ((9,), "camera")
    press(s, "confirm")
    assert s.state.high_seat == 0 and s.state.high_value == 9


def test_start_marker_only_the_shown_donkey_is_set_aside(store):
    s = session(store, donkey_mode="start_marker_only")
    press(s, "confirm", "choose 2", "bank")
    assert "shows the donkey card" in build_view(s).prompt
    press(s, "confirm")
    assert s.mode is Mode.REFILL and build_view(s).prompt == "Set the donkey card aside and draw a card for it"
    assert build_view(s).reminders[1] == "Ben draws a card in its place"
    press(s, "confirm")
    assert s.mode is Mode.PLAY and s.state.removed == (DONKEY,) and len(s.state.hands[1]) == 3
    press(s, "dice 0", "confirm")
    assert "cannot be in this hand" in s.message and ".md" not in s.message  # the donkey is out of the game


def test_start_marker_only_nobody_holds_the_donkey(store):
    s = session(store, donkey_mode="start_marker_only")
    press(s, "confirm", "choose 3", "confirm")
    assert s.message == "Cleo leads the first round; take the donkey card out of the draw pile"
    assert s.mode is Mode.PLAY and len(s.state.deck) == 95 and DONKEY not in s.state.pool


def test_kramer_donkey_round_the_taker_is_told_to_take_the_cards(store):
    s = session(store, donkey_mode="kramer_round")
    press(s, "confirm", "choose 1", "bank", "confirm", "dice 0", "confirm")
    assert build_view(s).to_beat == "Donkey round: play exactly 1 card, any value"
    press(s, "dice 4", "confirm", "dice 9", "confirm")
    assert s.mode is Mode.REFILL and "Cleo takes the round's cards into hand" in build_view(s).reminders[3]
    assert sorted(s.state.hands[2]) == sorted((UNKNOWN, UNKNOWN, DONKEY, 4, 9))


def test_a_play_is_entered_with_the_buttons_alone(tmp_path):
    with Store(tmp_path / "d.sqlite3") as store:
        s = DonkeyRaceSession(store, store.new_game("donkey-race", ["Ada", "Ben"], {}), ["Ada", "Ben"])
        s.on_command(Command(Button.CONFIRM))  # dealt
        s.on_command(Command(Button.CONFIRM))  # Ada leads the first round
        assert s.mode is Mode.PLAY and s.state.active == 0
        s.on_command(Command(Button.BANK))  # the lowest value, one card
        assert s.proposed_play() == ((DONKEY,), "hand")  # the donkey (value 0) is the lowest
        for button in (Button.BANK, Button.BANK, Button.NEXT):
            s.on_command(Command(button))  # 0 -> 1 -> 2, one card -> two
        assert s.proposed_play() == ((2, 2), "hand") and s.state.plays == ()
        s.on_command(Command(Button.PASS))  # down (the leader may not pass): two 1s (one donkey card only)
        assert s.proposed_play() == ((1, 1), "hand")
        s.on_command(Command(Button.PASS))  # down from the lowest pair: round to the highest
        assert s.proposed_play() == ((13, 13), "hand")
        s.on_command(Command(Button.UNDO))  # drops the entry, nothing undone
        assert s.proposed_play() == ((), "camera") and s.state.active == 0
        s.on_command(Command(Button.PASS))  # PASS opens the entry too: one press down from the donkey
        assert s.proposed_play() == ((13,), "hand")
        s.on_command(Command(Button.NEXT))
        s.on_command(Command(Button.NEXT))  # three 13s
        s.on_command(Command(Button.NEXT))  # back to one card, at the same value
        assert s.proposed_play() == ((13,), "hand")
        for _ in range(12):
            s.on_command(Command(Button.PASS))  # 13 -> 1
        s.on_command(Command(Button.CONFIRM))
        assert s.state.active == 1 and s.state.plays == ((0, (1,)),)
        s.on_command(Command(Button.BANK))  # Ben: the lowest value above 1, as many cards as the lead
        assert s.proposed_play() == ((2,), "hand")
        s.on_command(Command(Button.NEXT))  # down from the lowest raise: the highest, still one card
        assert s.proposed_play() == ((13,), "hand")
        s.on_command(Command(Button.BANK))  # up from the highest: round to the lowest raise
        assert s.proposed_play() == ((2,), "hand")


FEWEST = (0, 1, 2, 2, 1, 2, 2, 3, 2, 2, 1, 2, 2, 1)
"""The fewest steps (+-1) and leaps (+-4) from the donkey's 0 to each lead of 0-13, round the 14 values:
3 is 4-1, 6 is two leaps down (0 -> 10 -> 6), 7 two leaps and a step."""


def test_any_card_value_is_entered_with_at_most_four_presses(tmp_path):
    """#51: both ways round the values that may be played, from the lowest play allowed (where the entry
    opens), in steps of 1 and leaps of 4 (a long press): any value of the 14 a leader may lead (the
    donkey's 0 and 1-13) takes at most 3 presses, a follower's raise at most 3 of the values above the
    play to beat (4 over 14 values)."""
    from companion.games.donkey_race import Play, action_to_dict
    from companion.session.donkey_race import press_for

    with Store(tmp_path / "d.sqlite3") as store:
        for value in range(0, 14):
            s = DonkeyRaceSession(store, store.new_game("donkey-race", ["Ada", "Ben"], {}), ["Ada", "Ben"])
            s.on_command(Command(Button.CONFIRM))
            s.on_command(Command(Button.CONFIRM))
            card = DONKEY if value == 0 else value
            presses = press_for(s, Play((card,)))
            assert store.events(s.game_id)[-1].payload["actions"][0] == action_to_dict(Play((card,)))
            # BANK opens the entry at the donkey, then the fewest steps and leaps, then CONFIRM
            assert len(presses) == 1 + FEWEST[value] + 1, (value, presses)
            if value == 5:  # Ben raises the 5: 6-13 are his values; 10 is a leap from 6, 9 a leap and a step
                assert [c.button for c in press_for(s, Play((10,)))] == [Button.BANK, Button.BANK_HELD,
                                                                         Button.CONFIRM]
                s.on_command(Command(Button.UNDO))
                assert [c.button for c in press_for(s, Play((9,)))] == [Button.BANK, Button.BANK_HELD,
                                                                        Button.NEXT, Button.CONFIRM]
def test_the_leaders_entry_by_hand_names_next_for_the_number_of_cards(tmp_path):

    from companion.commands import Button, Command
    from companion.screens.donkey_race import build_view
    from companion.session.donkey_race import DonkeyRaceSession, Mode
    from companion.store import Store

    with Store(tmp_path / "s.sqlite3") as store:
        session = DonkeyRaceSession(store, store.new_game("donkey-race", ["Ada", "Ben"], {}), ["Ada", "Ben"])
        session.on_camera_problem("No camera")
        for _ in range(10):
            if session.mode is Mode.PLAY:
                break
            session.on_command(Command(Button.CONFIRM))
        assert session.mode is Mode.PLAY and not session.state.plays
        session.on_command(Command(Button.BANK))
        keys = dict(build_view(session).keys)  # the leader may not pass: PASS -1, as in the other games
        assert keys["NEXT"] == "number of cards" and keys["PASS"] == "-1" and keys["BANK"] == "+1"
        assert build_view(session).leaps == "Hold BANK: +4 \u00b7 hold PASS: \u22124"
        assert session.proposed_play()[0] == (1,)  # opened at the donkey's 0 by itself, BANK +1
        session.on_command(Command(Button.PASS_HELD))  # 1 leaps down round the 14 values to 11
        assert session.proposed_play()[0] == (11,)
        session.on_command(Command(Button.BANK_HELD))  # and up round to 1 again
        assert session.proposed_play()[0] == (1,)
        session.on_command(Command(Button.CONFIRM))
        view = build_view(session)  # Ben follows: PASS passes, so only BANK leaps
        assert view.leaps == "Hold BANK: +4" and dict(view.keys)["PASS"] == "pass"
        session.on_command(Command(Button.PASS_HELD))  # a long press of a follower's PASS is a pass
        assert store.events(session.game_id)[-1].payload["actions"][0] == {"type": "pass"}


def test_with_no_camera_the_entry_opens_by_itself_and_the_leader_is_never_offered_pass(store):
    s = session(store, players=("Ada", "Ben"))
    s.on_camera_problem("No camera")
    while s.mode is not Mode.PLAY:
        s.on_command(Command(Button.CONFIRM))
    view = build_view(s)
    assert s.proposed_play() == ((DONKEY,), "hand") and view.prompt == "Ada: enter your cards"  # the lowest lead
    assert dict(view.keys) == {"CONFIRM": "play", "BANK": "+1", "NEXT": "number of cards", "PASS": "-1",
                               "UNDO": "undo"}
    assert "PASS" not in view.prompt and not s.may_pass()
    before = s.state
    s.on_command(Command(Button.PASS))  # D.4.1: the leader must lead: PASS steps the value down
    assert s.proposed_play() == ((13,), "hand") and s.state == before and not s.refused
    s.on_command(Command(Button.BANK))  # and back up round to the donkey
    assert s.proposed_play() == ((DONKEY,), "hand")
    s.on_command(Command(Button.BANK))
    s.on_command(Command(Button.CONFIRM))  # Ada leads one 1
    assert s.state.plays == ((0, (1,)),)
    keys = dict(build_view(s).keys)  # Ben follows: the lowest value above 1, and he may pass
    assert s.proposed_play() == ((2,), "hand") and keys["PASS"] == "pass" and keys["NEXT"] == "-1"
    s.on_command(Command(Button.BANK))
    s.on_command(Command(Button.CONFIRM))  # Ben plays a 3
    s.on_command(Command(Button.UNDO))  # with no camera UNDO takes back the last step: the play opens again
    assert s.state.active == 1 and s.proposed_play() == ((3,), "hand")


def test_with_a_camera_the_leader_is_offered_no_pass_either(store):
    s = session(store, players=("Ada", "Ben"))
    press(s, "confirm", "confirm")
    assert s.mode is Mode.PLAY and not s.state.plays
    view = build_view(s)
    assert view.prompt == "Ada: lay your cards" and dict(view.keys) == {"BANK": "by hand", "UNDO": "undo"}
    for _ in range(2):
        s.on_frame(FRAME, reading((5, 5), ()))  # two 5s laid in Ada's sector
    assert dict(build_view(s).keys) == {"CONFIRM": "play", "BANK": "by hand", "UNDO": "undo"}
    s.on_command(Command(Button.CONFIRM))
    assert s.state.plays == ((0, (5, 5)),) and "PASS" in dict(build_view(s).keys)


def test_a_rounds_end_says_the_points_and_the_tokens_that_move(store):
    """D.4.5: the highest play 2, every other player who played 1, a pass 0; tokens move as many spaces
    (D.2); D.6: the winner. The replay's story tells every step, the deal and the refill included."""
    from companion.session.donkey_race import story

    s = session(store, players=("Ada", "Ben", "Cleo", "Dan"), track_length=3)
    press(s, "confirm", "confirm", "dice 5", "confirm", "dice 8", "confirm", "pass")
    assert s.message == "Cleo passes"
    press(s, "pass")
    assert s.message == "Dan passes"  # the round's end screen lists the points and moves: not said twice
    assert build_view(s).reminders[:2] == ("Ada +1: move the orange circle 1 space (to 1)",
                                           "Ben +2: move the light blue square 2 spaces (to 2)")
    press(s, "confirm", "dice 2 2", "confirm", "pass", "pass", "pass")
    assert s.ending == "Ben wins the race with 4 points"  # the winner's band: how the race was won
    told = story(store.events(s.game_id), s.players, s.config)
    assert [t.text for t in told][:5] == ["The cards are dealt", "Ada leads the first round", "Ada plays 5",
                                          "Ben plays 8", "Cleo passes"]
    assert told[5].text == ("Dan passes. Round 1 over: Ada 1 point, Ben 2 points, Cleo 0 points and Dan 0 points; "
                            "move Ada's token 1 space and Ben's token 2 spaces")  # History tells the round whole
    assert [t.seq for t in told if t.ends_turn] == [6, 11]  # the two rounds' ends


def test_the_entry_by_hand_opens_at_a_play_the_table_allows(store):
    """The entry never offers what the box would refuse: not the donkey card once another player is known to
    hold it, and as many cards as the round asks."""
    s = session(store, players=("Ada", "Ben"), hand_size=3)
    s.on_camera_problem("No camera")
    press(s, "confirm", "bank", "confirm")  # dealt; Ada holds the donkey card and leads
    assert s.state.active == 0 and DONKEY in s.state.hands[0]
    press(s, "dice 5 5", "confirm")  # two fives (her third card is the donkey)
    assert s.state.active == 1 and s.state.count == 2
    entry = s.proposed_play()[0]
    assert entry == (6, 6)  # the lowest play that beats them: two cards, not the donkey Ada holds
    assert Play(entry) in s.state.legal_actions()
    press(s, "confirm", "pass")  # Ben's 6 6, Ada passes: Ben's play is the highest, he leads the next round
    press(s, "confirm")  # the players draw
    assert s.mode is Mode.PLAY and s.state.active == 1 and DONKEY in s.state.hands[0]
    lead = s.proposed_play()[0]
    assert lead == (1,) and Play(lead) in s.state.legal_actions()  # the lowest lead, not the donkey card


def test_the_donkey_card_is_named_in_the_players_words(store):
    """Not the record's letter "D" on the screen: the leader's entry by hand opens at the donkey card."""
    s = session(store, players=("Ada", "Ben"))
    s.on_camera_problem("No camera")
    while s.mode is not Mode.PLAY:
        s.on_command(Command(Button.CONFIRM))
    assert s.proposed_play() == ((DONKEY,), "hand")
    for language, word in (("en", "donkey"), ("de", "Esel"), ("ru", "осёл"), ("nl", "ezel"), ("pt_BR", "burro")):
        with speaking(language):
            assert word in build_view(s).proposal, language


def test_the_number_of_cards_steps_from_a_play_typed_with_a_joker(store):
    """A play typed from the keyboard ("dice 7 99": a 7 and a joker) is stepped by the leader's NEXT
    like any entry: three cards from the value it stands for, not an error."""
    from companion.games.donkey_race.record import JOKER_ENTRY

    s = session(store, players=("Ada", "Ben"))
    s.on_camera_problem("No camera")
    while s.mode is not Mode.PLAY:
        s.on_command(Command(Button.CONFIRM))
    s.on_command(Command(Button.DICE, (7, JOKER_ENTRY)))
    s.on_command(Command(Button.NEXT))
    assert s.proposed_play() == ((7, 7, 7), "hand") and not s.refused


def test_after_the_donkey_card_is_led_the_screen_says_higher_than_the_donkey(store):
    """A new user (#51) read "1 card higher than 0" after the donkey card was led: it names the card."""
    from companion.screens.donkey_race import to_beat

    s = session(store, players=("Ada", "Ben", "Cy"))
    s.on_camera_problem("No camera")
    while s.mode is not Mode.PLAY:
        s.on_command(Command(Button.CONFIRM))
    assert s.proposed_play() == ((DONKEY,), "hand")
    s.on_command(Command(Button.CONFIRM))  # the leader leads the donkey card alone
    assert s.state.plays == ((0, (DONKEY,)),)
    assert to_beat(s) == "1 card higher than donkey, or PASS"
    with speaking("de"):
        assert "Esel" in to_beat(s)

"""The Can't Stop session: stable readings, confirm, correct, hand entry, choices, undo and resume."""

from __future__ import annotations

import random

import numpy as np
import pytest

from companion.commands import Command
from companion.display.cant_stop import render as render_to_surface
from companion.errors import CorruptLog
from companion.games.cant_stop import CantStopConfig, Phase
from companion.screens.cant_stop import build_view
from companion.session import SceneChange, Waiting
from companion.session.cant_stop import CantStopSession, Mode, ReadingStabilizer, replay_state
from companion.store import Store
from vision.observation import DiceObservation, DieReading


def observation(*values: int, flagged: tuple[int, ...] = ()) -> DiceObservation:
    dice = tuple(DieReading(v, (10 + 40 * i, 10, 40 + 40 * i, 40), 0.5 if i in flagged else 0.95, i in flagged)
                 for i, v in enumerate(values))
    return DiceObservation(dice, (120, 200))


def scene(seed: int) -> np.ndarray:
    """A distinct 'photo' per seed: random blocks, so two seeds differ over much of the frame."""
    rng = np.random.default_rng(seed)
    small = rng.integers(0, 256, size=(12, 20, 3), dtype=np.uint8)
    return np.kron(small, np.ones((10, 10, 1), dtype=np.uint8))


def press(session: CantStopSession, *words: str) -> None:
    for word in words:
        session.on_command(Command.parse(word))


@pytest.fixture
def store(tmp_path):
    with Store(tmp_path / "store.sqlite3") as store:
        yield store


def new_session(store, players=("Ada", "Ben"), stable_frames=3, seed=1) -> CantStopSession:
    game_id = store.new_game("cant-stop", list(players), {})
    return CantStopSession(store, game_id, list(players), stable_frames=stable_frames, rng=random.Random(seed))


def started(store, **kwargs) -> CantStopSession:
    session = new_session(store, **kwargs)
    press(session, "choose 1", "confirm")  # Ada starts
    return session


def show(session: CantStopSession, frame: np.ndarray, obs: DiceObservation, times: int) -> None:
    for _ in range(times):
        session.on_frame(frame, obs)


# -- the shared pieces ----------------------------------------------------------------------------------


def test_stabilizer_offers_a_reading_only_after_n_equal_frames():
    stabilizer = ReadingStabilizer(stable_frames=3, expected=4)
    assert stabilizer.feed(observation(1, 2, 3, 4)) is None
    assert stabilizer.feed(observation(2, 1, 3, 4)) is None  # the same multiset in another order counts
    assert stabilizer.status == "Hold still…"
    assert stabilizer.feed(observation(4, 3, 2, 1)) is not None


def test_stabilizer_restarts_when_the_values_change_and_says_how_many_dice_it_sees():
    stabilizer = ReadingStabilizer(stable_frames=2, expected=4)
    stabilizer.feed(observation(1, 2, 3, 4))
    assert stabilizer.feed(observation(1, 2, 3, 5)) is None
    assert stabilizer.feed(observation(1, 2, 3)) is None
    assert stabilizer.status == "3 dice seen, 4 needed"
    assert stabilizer.feed(observation()) is None
    assert stabilizer.status == "No dice seen"
    problem = DiceObservation((), (10, 10), problem="frame is black")
    assert stabilizer.feed(problem) is None and stabilizer.status == "frame is black"


def test_stabilizer_rejects_zero_frames():
    with pytest.raises(ValueError):
        ReadingStabilizer(0, 4)


def test_scene_change_ignores_the_same_scene_and_sees_a_new_one():
    detector = SceneChange()
    assert detector.changed(scene(1))  # nothing remembered: any frame is new
    detector.remember(scene(1))
    noisy = np.clip(scene(1).astype(int) + np.random.default_rng(0).integers(-5, 6, scene(1).shape), 0, 255)
    assert not detector.changed(noisy.astype(np.uint8))
    assert detector.changed(scene(2))


# -- the session ----------------------------------------------------------------------------------------


def test_the_box_proposes_who_starts_and_next_picks_another(store):
    session = new_session(store)
    assert session.mode is Mode.START and session.waiting is Waiting.PLAYERS
    proposed = build_view(session).chrome.active
    press(session, "next")
    assert build_view(session).chrome.active == (proposed + 1) % 2
    press(session, "confirm")
    assert session.state.active == (proposed + 1) % 2
    assert [e.payload for e in store.events(session.game_id)] == [{"type": "start", "seat": (proposed + 1) % 2}]


def test_a_stable_reading_of_four_dice_is_offered_and_confirmed(store):
    session = started(store)
    assert session.mode is Mode.WATCH and session.wants_frame and session.waiting is Waiting.CAMERA
    show(session, scene(1), observation(3, 4, 3, 4), 2)
    assert session.mode is Mode.WATCH and build_view(session).status == "Hold still…"
    show(session, scene(1), observation(3, 4, 3, 4), 1)
    assert session.mode is Mode.CHECK and not session.wants_frame
    assert [d.value for d in build_view(session).dice] == [3, 4, 3, 4]
    press(session, "confirm")
    assert session.state.phase is Phase.CHOOSE and session.state.dice == (3, 4, 3, 4)
    last = store.events(session.game_id)[-1].payload
    assert last == {"type": "roll", "dice": [3, 4, 3, 4], "read": [3, 4, 3, 4], "source": "camera"}


def test_three_dice_are_never_offered(store):
    session = started(store)
    show(session, scene(1), observation(3, 4, 3), 5)
    assert session.mode is Mode.WATCH
    assert build_view(session).status == "3 dice seen, 4 needed"


def test_players_correct_a_reading_with_the_buttons(store):
    session = started(store)
    show(session, scene(1), observation(1, 2, 6, 5, 5, flagged=(1,)), 3)  # five dice: never offered
    assert session.mode is Mode.WATCH
    show(session, scene(1), observation(1, 2, 6, 5, flagged=(1,)), 3)
    assert session.mode is Mode.CHECK
    assert [d.selected for d in build_view(session).dice] == [False, True, False, False]  # first flagged die
    press(session, "bank", "bank")  # die 2 up: 2 -> 3 -> 4
    press(session, "next", "pass", "pass")  # die 3 down: 6 -> 5 -> 4
    press(session, "next", "next", "pass")  # past the last die back to the first; down round the six: 1 -> 6
    assert [d.value for d in build_view(session).dice] == [6, 4, 4, 5]
    press(session, "bank")  # and up again round the six: 6 -> 1
    assert [d.value for d in build_view(session).dice] == [1, 4, 4, 5]
    press(session, "confirm")
    assert session.state.dice == (1, 4, 4, 5)
    payload = store.events(session.game_id)[-1].payload
    assert payload["read"] == [1, 2, 6, 5] and payload["dice"] == [1, 4, 4, 5] and payload["source"] == "camera"


def test_a_reading_of_too_few_dice_is_made_four_for_the_players_to_correct(store):
    session = started(store)
    show(session, scene(1), observation(3, 5, 2), 3)
    assert session.mode is Mode.WATCH and dict(build_view(session).keys)["NEXT"] == "correct the dice"
    press(session, "next")  # the missing die is added at the last die's value, selected, with no box
    dice = build_view(session).dice
    assert [(d.value, d.selected, d.box is None) for d in dice] == [
        (3, False, False), (5, False, False), (2, False, False), (2, True, True)]
    press(session, "pass", "confirm")
    assert session.state.dice == (3, 5, 2, 1)
    assert store.events(session.game_id)[-1].payload["read"] == [3, 5, 2]


def test_of_too_many_dice_the_four_surest_are_kept(store):
    session = started(store)
    show(session, scene(1), observation(4, 6, 1, 2, 3, flagged=(1,)), 3)  # the 6 is the reader's doubt
    press(session, "next")
    dice = build_view(session).dice
    assert [d.value for d in dice] == [4, 1, 2, 3] and dice[1].box == (90, 10, 120, 40)  # the 1 on its box
    assert dict(build_view(session).keys)["CONFIRM"] == "accept"


def test_a_misread_die_is_corrected_with_the_presses_of_an_entry_by_hand(store):
    from companion.games.cant_stop import Roll
    from companion.session.cant_stop import press_for

    session = started(store)
    show(session, scene(1), observation(2, 5, 3, 6, flagged=(1,)), 3)  # the doubtful 5 is a 4
    assert [c.button.value for c in press_for(session, Roll((2, 4, 3, 6)))] == ["pass", "confirm"]
    assert store.events(session.game_id)[-1].payload == {"type": "roll", "dice": [2, 4, 3, 6],
                                                         "read": [2, 5, 3, 6], "source": "camera"}


def test_keyboard_corrections_set_add_and_remove(store):
    session = started(store)
    show(session, scene(1), observation(1, 2, 3, 4), 3)
    press(session, "set 1 6", "remove 2", "add 5", "confirm")
    assert session.state.dice == (6, 3, 4, 5)


def test_a_roll_can_be_entered_by_hand_when_the_camera_fails(store):
    session = started(store)
    session.on_camera_problem("no picture from device:0")
    assert session.waiting is Waiting.PLAYERS and session.mode is Mode.WATCH  # a camera: no entry by itself
    assert build_view(session).prompt == "Ada: enter your roll by hand (no picture from device:0)"
    assert dict(build_view(session).keys) == {"NEXT": "enter by hand", "UNDO": "undo"}
    press(session, "next")  # the entry: four dice at 1 3 4 6, the first selected
    assert session.check.values == [1, 3, 4, 6] and dict(build_view(session).keys) == {
        "CONFIRM": "accept", "NEXT": "next die", "BANK": "+1", "PASS": "-1", "UNDO": "cancel"}
    press(session, "bank", "next", "next", "next", "pass")  # only the dice that differ: 1 -> 2, 6 -> 5
    assert session.check.values == [2, 3, 4, 5]
    press(session, "confirm")
    assert session.state.dice == (2, 3, 4, 5)
    assert store.events(session.game_id)[-1].payload["source"] == "hand"


def test_with_no_camera_the_entry_opens_by_itself_and_steps_both_ways(store):
    session = started(store)
    session.on_camera_problem("No camera")  # what the play loop says with --camera none
    assert session.mode is Mode.CHECK and session.check.values == [1, 3, 4, 6] and session.check.selected == 0
    assert build_view(session).prompt == "Ada: enter your roll"
    press(session, "pass")  # down round the six
    assert session.check.values == [6, 3, 4, 6]
    press(session, "next", "bank", "bank", "next", "pass", "pass", "pass", "next", "bank")
    assert session.check.values == [6, 5, 1, 1]  # up, down, round from 6 to 1
    press(session, "confirm")
    assert session.state.dice == (6, 5, 1, 1) and session.mode is Mode.CHOOSE
    press(session, "undo")  # the roll taken back opens again as it was entered, first die selected
    assert session.mode is Mode.CHECK and session.check.values == [6, 5, 1, 1] and session.check.selected == 0
    press(session, "next", "next", "next", "bank", "confirm")  # the last die was a 2
    assert session.state.dice == (6, 5, 1, 2)
    press(session, "choose 1", "confirm")  # roll again: a new entry opens at 1 3 4 6
    assert session.mode is Mode.CHECK and session.check.values == [1, 3, 4, 6]
    press(session, "undo")  # takes back "roll again"
    assert session.mode is Mode.DECIDE


def test_with_no_camera_undo_takes_back_the_entrys_last_press_before_any_event(store):
    """#51: UNDO while a roll was being entered took back the last event (the previous turn's choice),
    not the die just changed."""
    session = started(store)
    session.on_camera_problem("No camera")
    press(session, "dice 3 4 3 4", "confirm", "choose 1", "confirm")  # roll again: a new entry at 1 3 4 6
    press(session, "bank", "next", "pass")
    assert session.check.values == [2, 2, 4, 6] and session.check.selected == 1
    press(session, "undo")  # the -1 on the second die
    assert session.mode is Mode.CHECK and session.check.values == [2, 3, 4, 6] and session.check.selected == 1
    press(session, "undo", "undo")  # NEXT, then the +1
    assert session.check.values == [1, 3, 4, 6] and session.check.selected == 0
    assert session.state.phase is Phase.ROLL and session.mode is Mode.CHECK
    press(session, "undo")  # nothing of the entry left to take back: the last event ("roll again")
    assert session.mode is Mode.DECIDE


def test_dice_command_enters_a_whole_roll(store):
    session = started(store)
    press(session, "dice 6 6 6 6", "confirm")
    assert session.state.phase is Phase.CHOOSE


def test_choices_roll_again_and_bank_follow_the_rules(store):
    session = started(store)
    press(session, "dice 3 4 3 4", "confirm")
    options = session.state.legal_actions()
    assert len(build_view(session).options) == len(options) == 2  # (7, 7) and (6, 8)
    press(session, "choose 2")
    assert session.state.phase is Phase.DECIDE and session.state.runner_map() == {6: 1, 8: 1}
    view = build_view(session)
    assert view.bust_probability == 0.0  # a runner is still free and every column is open (A.6)
    assert view.hint.startswith("Roll again")
    press(session, "confirm")  # roll again
    assert session.mode is Mode.WATCH
    press(session, "dice 1 1 2 2", "confirm", "choose 1", "bank")
    assert session.state.active == 1 and session.state.marker_map(0)
    assert session.message == "Ada banks"


def test_the_same_dice_are_not_read_twice(store):
    session = started(store)
    show(session, scene(1), observation(3, 4, 3, 4), 3)
    press(session, "confirm", "confirm", "confirm")  # roll, first pairing, roll again
    assert session.mode is Mode.WATCH
    show(session, scene(1), observation(3, 4, 3, 4), 6)  # the dice still lie there
    assert session.mode is Mode.WATCH and build_view(session).status == "Roll the dice"
    show(session, scene(2), observation(1, 2, 5, 6), 3)
    assert session.mode is Mode.CHECK


def test_a_bust_ends_the_turn_and_says_so(store):
    session = started(store)
    press(session, "dice 1 1 1 1", "confirm", "choose 1", "confirm")  # runner on 2, roll again
    press(session, "dice 2 2 2 2", "confirm", "choose 1", "confirm")  # runner on 4
    press(session, "dice 3 3 3 3", "confirm", "choose 1", "confirm")  # runner on 6: all placed
    press(session, "dice 6 6 6 6", "confirm")  # only 12: bust
    assert session.state.active == 1 and session.state.runner_map() == {}
    assert session.message == "Ada busts with 6 6 6 6: the runners on 2, 4 and 6 go back"


def test_undo_steps_back_one_event_at_a_time_to_the_start(store):
    session = started(store)
    press(session, "dice 3 4 3 4", "confirm", "choose 2", "bank")
    states = [replay_state(store.events(session.game_id)[:n], 2, session.config)
              for n in range(len(store.events(session.game_id)) + 1)]
    for expected in reversed(states[:-1]):
        press(session, "undo")
        assert session.state == expected
    assert session.mode is Mode.START
    press(session, "undo")
    assert session.message == "Nothing to undo" and store.events(session.game_id) == []


def test_undo_in_check_discards_the_reading_and_reads_again(store):
    session = started(store)
    show(session, scene(1), observation(3, 4, 3, 5), 3)
    press(session, "undo")
    assert session.mode is Mode.WATCH and len(store.events(session.game_id)) == 1
    show(session, scene(1), observation(3, 4, 3, 4), 3)  # same scene, read again
    assert [d.value for d in build_view(session).dice] == [3, 4, 3, 4]


def test_a_new_session_resumes_exactly_where_the_log_ends(store):
    session = started(store)
    press(session, "dice 3 4 3 4", "confirm", "choose 2")
    resumed = CantStopSession(store, session.game_id, ["Ada", "Ben"])
    assert resumed.state == session.state and resumed.mode is Mode.DECIDE


def test_an_illegal_command_changes_nothing(store):
    session = started(store)
    press(session, "dice 3 4 3 4", "confirm")
    before = (session.state, len(store.events(session.game_id)))
    press(session, "choose 9")
    assert (session.state, len(store.events(session.game_id))) == before
    assert "Choose 1 to 2" in session.message
    press(session, "dice 3 4 3 4")
    assert session.message == "No roll is expected now"
    assert (session.state, len(store.events(session.game_id))) == before


def test_a_die_value_outside_1_to_6_is_refused(store):
    session = started(store)
    press(session, "dice 7 1 1 1")
    assert session.mode is Mode.WATCH and "1 to 6" in session.message


def test_a_log_that_does_not_replay_is_reported(store):
    game_id = store.new_game("cant-stop", ["Ada", "Ben"], {})
    store.append_event(game_id, "action", {"type": "bank"})
    with pytest.raises(CorruptLog, match="event 1"):
        CantStopSession(store, game_id, ["Ada", "Ben"])


def test_a_won_game_is_scored_and_cannot_be_undone(store):
    game_id = store.new_game("cant-stop", ["Ada"], {"columns_to_win": 1})
    session = CantStopSession(store, game_id, ["Ada"], CantStopConfig(columns_to_win=1))
    press(session, "confirm")
    for _ in range(3):  # column 2 has three spaces
        press(session, "dice 1 1 6 6", "confirm", "choose 1", "confirm")
    session.undo()
    assert session.state.phase is Phase.DECIDE  # undid the last roll-again
    press(session, "bank")
    assert session.state.phase is Phase.OVER and session.winner_name == "Ada"
    assert [(r.name, r.games, r.wins) for r in store.scoreboard("cant-stop")] == [("Ada", 1, 1)]
    press(session, "undo")
    assert session.state.phase is Phase.OVER
    press(session, "confirm")
    assert session.finished and session.waiting is Waiting.NOTHING


def test_every_mode_renders(store):
    session = started(store)
    shots = [render_to_surface(build_view(session))]
    show(session, scene(1), observation(3, 4, 3, 4, flagged=(2,)), 3)
    shots.append(render_to_surface(build_view(session)))
    press(session, "confirm")
    shots.append(render_to_surface(build_view(session)))
    press(session, "confirm")
    shots.append(render_to_surface(build_view(session), (1920, 1080)))
    assert [s.get_size() for s in shots] == [(800, 480)] * 3 + [(1920, 1080)]


def test_a_whole_roll_typed_over_a_reading_keeps_matching_dice_on_their_boxes(store):
    session = started(store)
    show(session, scene(1), observation(6, 4, 2), 3)
    press(session, "next", "dice 3 4 3 4")
    dice = build_view(session).dice
    assert [d.value for d in dice] == [3, 4, 3, 4]
    assert dice[1].box == (50, 10, 80, 40)  # the 4 stays on the box of the die read as 4
    assert dice[3].box is None  # the die the reader missed has no box


def test_confirmed_dice_lose_their_question_mark_and_options_lead_with_the_bust_chance(store):
    session = started(store)
    show(session, scene(1), observation(3, 4, 3, 4, flagged=(1,)), 3)
    press(session, "confirm")
    assert not any(d.flagged for d in build_view(session).dice)
    assert all(o.effect.startswith("bust ") for o in build_view(session).options)


def test_a_refusal_does_not_outlive_the_correction(tmp_path):
    from companion.commands import Button

    with Store(tmp_path / "s.sqlite3") as store:
        session = CantStopSession(store, store.new_game("cant-stop", ["Ada", "Ben"], {}), ["Ada", "Ben"],
                                  rng=random.Random(1))
        session.on_camera_problem("No camera")
        session.on_command(Command(Button.CONFIRM))  # Ada starts: the entry opens by itself at four dice
        session.on_command(Command(Button.REMOVE, (4,)))  # a die removed from the keyboard: three left
        session.on_command(Command(Button.CONFIRM))
        assert session.message == "A roll needs 4 dice, not 3"
        for _ in range(3):
            session.on_command(Command(Button.NEXT))  # the first, second, third die; then a new one
        session.on_command(Command(Button.NEXT))
        assert session.check.values == [1, 3, 4, 4] and session.message == ""


def test_every_event_is_said_with_what_it_means():
    """Issue 37: a bust with the roll and the runners lost (A.5.3), a bank with the columns claimed and the
    markers that come off them (A.7), a win (A.4); the routine events only where asked (replay, UNDO)."""
    from companion.games.cant_stop import Bank, Roll, RollAgain, state_from_position
    from companion.session.cant_stop import describe

    players = ["Ada", "Ben"]
    state = state_from_position({"players": players, "active": "Ada", "markers": {"Ada": {}, "Ben": {"7": 4}},
                                 "runners": {"6": 2, "8": 11, "11": 1}, "dice": [1, 1, 2, 2]})
    rolling = dataclass_replace(state, phase=Phase.ROLL, dice=())  # 1 1 2 2 gives 2, 3, 4: no runner is free
    bust = rolling.apply(Roll((1, 1, 2, 2)))
    assert describe(players, rolling, Roll((1, 1, 2, 2)), bust) == (
        "Ada busts with 1 1 2 2: the runners on 6, 8 and 11 go back")
    rolled = rolling.apply(Roll((3, 3, 4, 4)))
    assert describe(players, rolling, Roll((3, 3, 4, 4)), rolled) == "Ada rolls 3 3 4 4"
    assert describe(players, rolling, Roll((3, 3, 4, 4)), rolled, routine=False) == ""
    deciding = dataclass_replace(state, phase=Phase.DECIDE, runners=state.runners)
    assert describe(players, deciding, RollAgain(), deciding.apply(RollAgain())) == "Ada rolls again"
    top = dataclass_replace(deciding, runners=tuple(13 if c == 7 else h for c, h in zip(range(2, 13), state.runners)))
    banked = top.apply(Bank())
    assert describe(players, top, Bank(), banked) == (
        "Ada banks and claims columns 7 and 8 (Ben: your marker there comes off)")
    win = dataclass_replace(top, claimed=tuple(0 if c == 12 else -1 for c in range(2, 13)))
    assert describe(players, win, Bank(), win.apply(Bank())) == (
        "Ada banks, claims columns 7 and 8 and wins! (Ben: your marker there comes off)")


def test_undo_says_what_it_took_back_and_a_resumed_roll_shows_its_dice(store):
    session = started(store)
    press(session, "dice 3 4 5 6", "confirm")
    again = CantStopSession(store, session.game_id, ["Ada", "Ben"], rng=random.Random(1))  # a restart
    assert again.mode is Mode.CHOOSE and again.confirmed.values == [3, 4, 5, 6]
    assert [d.value for d in build_view(again).dice] == [3, 4, 5, 6]
    press(session, "undo")
    assert session.message == "Taken back: Ada rolls 3 4 5 6"
    press(session, "undo")
    assert session.message == "Taken back: Ada starts"


def dataclass_replace(state, **changes):
    import dataclasses

    return dataclasses.replace(state, **changes)


# -- the rolls kept to learn from (issue 39) ------------------------------------------------------------

class Keeper:
    """Records what the session hands its keeper."""

    def __init__(self):
        self.kept: list[tuple[list[int], list[int]]] = []
        self.taken_back = 0

    def keep(self, frame, dice, values):
        self.kept.append(([d.value for d in dice], list(values)))

    def take_back(self):
        self.taken_back += 1


def test_a_confirmed_camera_roll_is_kept_die_by_die_with_the_values_confirmed(store):
    session = started(store)
    session.keeper = keeper = Keeper()
    show(session, scene(1), observation(1, 2, 6, 5, flagged=(1,)), 3)
    press(session, "bank", "bank", "confirm")  # the flagged 2 (selected) stepped to 4 on its own die
    assert keeper.kept == [([1, 2, 6, 5], [1, 4, 6, 5])]
    press(session, "undo")  # the roll taken back: its kept dice go too
    assert keeper.taken_back == 1


def test_a_whole_roll_typed_over_several_misread_dice_keeps_only_the_dice_whose_pairing_is_sure(store):
    session = started(store)
    session.keeper = keeper = Keeper()
    show(session, scene(2), observation(1, 2, 6, 5, flagged=(1, 2)), 3)
    press(session, "dice 1 3 4 5", "confirm")  # 2 and 6 both changed: which became 3, which 4, is a guess
    assert keeper.kept == [([1, 5], [1, 5])]


def test_a_roll_entered_by_hand_without_a_camera_reading_is_not_kept(store):
    session = started(store)
    session.keeper = keeper = Keeper()
    press(session, "next", "dice 3 4 5 6", "confirm")
    assert keeper.kept == []


def test_a_roll_by_hand_starts_at_four_dice_one_press_from_every_value(store):
    """With no camera the entry opens at 1 3 4 6 (every value 1-6 one of them or one press away): a roll
    of 2 2 5 6 is three steps and two NEXT, CONFIRM included six presses, as press_for makes them; over
    all 1,296 rolls 5.9 presses on average (one die at 1, each new die at the one before: 7.5)."""
    import itertools

    from companion.games.cant_stop import Roll
    from companion.session.cant_stop import ENTRY_START, entry_presses, press_for

    s = started(store)
    s.on_camera_problem("No camera")
    assert s.mode is Mode.CHECK and s.check.values == list(ENTRY_START) and s.check.selected == 0
    assert entry_presses((2, 2, 5, 6)) == 6
    assert len(press_for(s, Roll((2, 2, 5, 6)))) == 6 and sorted(s.state.dice) == [2, 2, 5, 6]
    rolls = list(itertools.product(range(1, 7), repeat=4))
    counts = [entry_presses(roll) for roll in rolls]
    assert round(sum(counts) / len(counts), 2) == 5.87 and max(counts) == 10 and entry_presses(ENTRY_START) == 1
    for roll in random.Random(3).sample(rolls, 12):  # the presses made are the presses counted
        s.undo()
        s._open_by_hand()
        assert s.mode is Mode.CHECK and s.check.values == list(ENTRY_START)
        assert len(press_for(s, Roll(roll))) == entry_presses(roll) and sorted(s.state.dice) == sorted(roll), roll

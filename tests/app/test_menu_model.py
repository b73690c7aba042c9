"""The menu state machine driven by button commands alone (no pygame, no pins)."""

import pytest

from companion.app.menu_model import (FinishedGame, LookBack, MenuModel, SavedGame, Screen, ShowRules, Shutdown,
    StartGame, pick_sequence)
from companion.commands import Button, Command
from companion.i18n import moment

NEXT, CONFIRM, UNDO, MENU = (Command(b) for b in (Button.NEXT, Button.CONFIRM, Button.UNDO, Button.MENU))
ALL = {"cant-stop": True, "ludo": False, "schotten-totten": False, "donkey-race": False}


class FakeData:
    def __init__(self, saved=(), names=(), lines=(), finished=(), dice=None, left_out=0):
        self.left_out = left_out
        self.saved = list(saved)
        self.names = list(names)
        self.lines = list(lines)
        self.finished = list(finished)
        self.dice_figures = dice or {"faces": [0] * 6, "verdict": "Too few dice to tell yet"}
        self.deleted = []

    def finished_games(self):
        return list(self.finished)

    def dice(self):
        return dict(self.dice_figures)

    def choose_language(self, code):
        self.language = code
        return ""

    def save_prints(self, game, variant):
        self.printed = (game, dict(variant))
        return f"saved {variant['board_layout']}"

    def saved_games(self):
        return list(self.saved)

    def unreadable(self):
        return self.left_out

    def known_names(self):
        return list(self.names)

    def scoreboard_lines(self):
        return list(self.lines)

    def delete_game(self, game_id):
        self.deleted.append(game_id)
        self.saved = [g for g in self.saved if g.id != game_id]


def press(model, *commands):
    actions = [model.handle(c) for c in commands]
    return [a for a in actions if a is not None]


def labels(model):
    return [item.label for item in model.view().items]


def test_new_game_with_defaults_by_confirm_alone():
    model = MenuModel(FakeData(), ALL)
    # New game, Can't Stop, 2 players (highlighted first), Player 1, Player 2, Start.
    actions = press(model, CONFIRM, CONFIRM, CONFIRM, CONFIRM, CONFIRM, CONFIRM)
    assert actions == [StartGame("cant-stop", ("Player 1", "Player 2"), {})]
    assert model.screen is Screen.MAIN


def test_player_count_names_from_the_scoreboard_and_variants():
    model = MenuModel(FakeData(names=["Ada", "Ben"]), ALL, {"cant-stop": {"num_runners": 3}})
    press(model, CONFIRM, CONFIRM)
    assert model.screen is Screen.PLAYER_COUNT
    assert labels(model) == ["1 player (solo)", "2 players", "3 players", "4 players"]
    press(model, NEXT, CONFIRM)  # 3 players
    assert labels(model) == ["Player 1", "Ada", "Ben", "Spell a name"]
    press(model, NEXT, CONFIRM)  # Ada
    assert labels(model) == ["Player 2", "Ben", "Spell a name"]  # never another seat's "Player N"
    press(model, NEXT, CONFIRM)  # Ben
    assert model.view().lines == ("1. Ada", "2. Ben")
    assert labels(model) == ["Player 3", "Spell a name"]
    press(model, CONFIRM)  # Player 3
    assert model.screen is Screen.VARIANTS
    assert labels(model)[1] == "Columns to win: 3"
    press(model, NEXT, CONFIRM, CONFIRM)  # 3 -> 2 -> 4
    press(model, NEXT, CONFIRM)  # pairing: free -> must maximize runners
    assert labels(model)[1:3] == ["Columns to win: 4", "Pairing: use as many runners as you can"]
    actions = press(model, *pick_sequence(model, "Start the game"))
    assert actions == [StartGame("cant-stop", ("Ada", "Ben", "Player 3"),
                                 {"num_runners": 3, "columns_to_win": 4, "pairing_rule": "must_maximize_runners"})]


def test_undo_and_long_next_go_back_one_screen_and_one_name():
    model = MenuModel(FakeData(), ALL)
    press(model, CONFIRM, CONFIRM, CONFIRM, CONFIRM)  # ... first name chosen
    assert model.screen is Screen.PLAYER_NAME and model.view().lines == ("1. Player 1",)
    press(model, UNDO)
    assert model.screen is Screen.PLAYER_NAME and model.view().lines == ()
    press(model, UNDO)
    assert model.screen is Screen.PLAYER_COUNT
    press(model, MENU, MENU)
    assert model.screen is Screen.MAIN
    press(model, UNDO)  # nothing above the main menu
    assert model.screen is Screen.MAIN


def test_unavailable_games_are_listed_but_cannot_be_picked():
    model = MenuModel(FakeData(), ALL)
    press(model, CONFIRM)
    assert labels(model) == ["Can't Stop", "Ludo (not available yet)", "Schotten Totten (not available yet)",
                             "Donkey race (not available yet)"]
    press(model, NEXT)
    assert model.selected == 0  # NEXT skips what cannot be picked (issue 51): here back to Can't Stop
    press(model, Command(Button.CHOOSE, (2,)))  # a digit key still names one: it says why not
    assert model.screen is Screen.GAME and model.view().message == "Not available"


def test_saved_games_resume_and_delete_with_confirmation():
    saved = [SavedGame(4, "cant-stop", ("Ada", "Ben"), "2026-01-02T10:11:12+00:00", 1),
             SavedGame(7, "cant-stop", ("Cy", "Di"), "2026-01-03T09:00:00+00:00", 12, {"columns_to_win": 2})]
    data = FakeData(saved=saved)
    model = MenuModel(data, ALL)
    assert labels(model)[1] == "Saved games (2)"
    press(model, NEXT, CONFIRM)
    assert labels(model) == [f"Can't Stop: Ada, Ben, 1 turn ({moment(saved[0].created)})",
                             f"Can't Stop (Columns to win: 2): Cy, Di, 12 turns ({moment(saved[1].created)})"]
    press(model, NEXT, CONFIRM, NEXT, CONFIRM)  # Cy/Di, Delete
    assert model.screen is Screen.DELETE_CONFIRM and data.deleted == []
    press(model, CONFIRM)  # "No, keep it"
    assert model.screen is Screen.SAVED_GAME and data.deleted == []
    assert model.selected == 1  # back on "Delete"
    press(model, CONFIRM, NEXT, CONFIRM)  # Delete, Yes
    assert data.deleted == [7]
    assert model.screen is Screen.SAVED and labels(model) == [f"Can't Stop: Ada, Ben, 1 turn ({moment(saved[0].created)})"]
    actions = press(model, CONFIRM, CONFIRM)  # Ada/Ben, Resume
    assert actions == [StartGame("cant-stop", ("Ada", "Ben"), {}, game_id=4)]


def test_saved_games_name_their_board_and_count_turns_or_rounds():
    """Two Ludo games on different boards are told apart (ludo.md B.2b); a donkey race counts rounds; a
    log that did not replay counts nothing."""
    saved = [SavedGame(1, "ludo", ("Ada", "Ben"), "2026-01-02T10:00:00+00:00", 5, {"board": "mensch40"}),
             SavedGame(2, "ludo", ("Ada", "Ben"), "2026-01-02T11:00:00+00:00", 1, {}),
             SavedGame(3, "donkey-race", ("Cy", "Di", "Ed"), "2026-01-02T12:00:00+00:00", 3, {}, "round"),
             SavedGame(4, "schotten-totten", ("Ada", "Ben"), "2026-01-02T13:00:00+00:00", None,
                       {"game": "battle-line"})]
    model = MenuModel(FakeData(saved=saved), ALL)
    press(model, NEXT, CONFIRM)
    when = [moment(g.created) for g in saved]
    assert labels(model) == [f"Ludo (Mensch ärgere Dich nicht, 40 squares): Ada, Ben, 5 turns ({when[0]})",
                             f"Ludo (Ludo, 52 squares): Ada, Ben, 1 turn ({when[1]})",
                             f"Donkey race: Cy, Di +1, 3 rounds ({when[2]})",
                             f"Schotten Totten (Cards: Battle Line, 1-10): Ada, Ben ({when[3]})"]
    press(model, CONFIRM)
    assert model.view().lines == ("Ludo (Mensch ärgere Dich nicht, 40 squares)", "Ada, Ben", f"5 turns ({when[0]})")


def test_no_saved_games_is_greyed_out():
    model = MenuModel(FakeData(), ALL)
    assert model.view().items[1].enabled is False
    press(model, NEXT)
    assert model.selected == 2  # the greyed item is skipped (issue 51)
    press(model, Command(Button.CHOOSE, (2,)))
    assert model.screen is Screen.MAIN and model.view().message == "Not available"


def test_scoreboard_and_shutdown_needs_a_second_confirm():
    model = MenuModel(FakeData(lines=["cant-stop: Ada, 2 of 3 won"]), ALL)
    press(model, NEXT, CONFIRM)  # "Saved games (0)" is skipped
    assert model.view().title == "Scoreboard" and model.view().lines == ("cant-stop: Ada, 2 of 3 won",)
    press(model, CONFIRM)
    assert model.screen is Screen.MAIN
    assert press(model, *pick_sequence(model, "Shut down")) == []
    assert model.screen is Screen.SHUTDOWN_CONFIRM and model.selected == 0  # "No" is highlighted first
    assert press(model, CONFIRM) == [] and model.screen is Screen.MAIN
    assert press(model, CONFIRM, NEXT, CONFIRM) == [Shutdown()]


def test_next_wraps_and_choose_picks_directly():
    model = MenuModel(FakeData(), ALL)
    items = model.view().items
    press(model, *[NEXT] * sum(1 for item in items if item.enabled))  # once round the items that can be picked
    assert model.selected == 0 and len(labels(model)) == 8
    press(model, Command(Button.CHOOSE, (3,)))  # the third item
    assert model.screen is Screen.SCOREBOARD
    press(model, Command(Button.BANK), Command(Button.PASS))
    assert model.screen is Screen.SCOREBOARD


from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from companion.registry import game  # noqa: E402

BUTTONS = st.sampled_from([NEXT, CONFIRM, UNDO, MENU, Command(Button.BANK), Command(Button.CHOOSE, (1,))])


@settings(max_examples=150, deadline=None)
@given(st.lists(BUTTONS, max_size=60))
def test_any_button_sequence_keeps_the_menu_consistent(presses):
    saved = [SavedGame(1, "cant-stop", ("Ada", "Ben"), "2026-01-01T00:00:00+00:00")]
    data = FakeData(saved=saved, names=["Ada", "Ben", "Cy"])
    model = MenuModel(data, ALL)
    for command in presses:
        action = model.handle(command)
        view = model.view()
        assert view.items and 0 <= view.selected < len(view.items)
        if isinstance(action, StartGame):
            low, high = game(action.game).players
            assert low <= len(action.players) <= high and len(set(action.players)) == len(action.players)
            assert ALL[action.game] and model.screen is Screen.MAIN
            assert action.game_id is None or action.game_id in {1}
        elif action is not None:
            assert action == Shutdown() or (isinstance(action, ShowRules) and action.game in ALL)


def test_history_lists_finished_games_and_offers_replay_and_summary():
    done = [FinishedGame(9, "cant-stop", ("Ada", "Ben"), "2026-12-01T21:40:00", "Ada"),
            FinishedGame(4, "donkey-race", ("Cy", "Di", "Ed"), "2026-11-30T20:00:00", None)]
    model = MenuModel(FakeData(finished=done), ALL)
    assert "History (2)" in labels(model)
    press(model, *pick_sequence(model, "History (2)"))
    assert model.screen is Screen.HISTORY and model.view().title == "History: finished games"
    assert labels(model) == [f"Can't Stop, {moment(done[0].created)}: Ada won against Ben",
                             f"Donkey race, {moment(done[1].created)}: Cy, Di and Ed, no single winner"]
    press(model, CONFIRM)
    assert model.screen is Screen.HISTORY_GAME and labels(model) == ["Replay", "Summary", "Back"]
    assert press(model, CONFIRM) == [LookBack(9, replay=True)]
    assert press(model, NEXT, CONFIRM) == [LookBack(9, replay=False)]
    press(model, UNDO)
    press(model, NEXT, CONFIRM)  # the donkey race: not playable here (ALL), but a replay needs no camera
    assert press(model, CONFIRM) == [LookBack(4, replay=True)]
    assert press(model, NEXT, CONFIRM) == [LookBack(4, replay=False)]


def test_history_and_saved_games_say_how_many_games_could_not_be_read():
    done = [FinishedGame(9, "cant-stop", ("Ada", "Ben"), "2026-12-01T21:40:00", "Ada")]
    saved = [SavedGame(2, "ludo", ("Ada", "Ben"), "2026-12-01T21:40:00")]
    model = MenuModel(FakeData(finished=done, saved=saved, left_out=2), ALL)
    press(model, *pick_sequence(model, "History (1)"))
    assert model.view().lines == ("2 saved games could not be read and are left out",)
    model = MenuModel(FakeData(finished=done, saved=saved), ALL)
    press(model, *pick_sequence(model, "History (1)"))
    assert model.view().lines == ()
    model = MenuModel(FakeData(saved=saved, left_out=1), ALL)
    press(model, *pick_sequence(model, "Saved games (1)"))
    assert model.screen is Screen.SAVED and model.view().lines == ("1 saved game could not be read and is left out",)


def test_history_is_greyed_without_finished_games_and_the_dice_show_a_chart():
    model = MenuModel(FakeData(dice={"faces": [3, 1, 4, 1, 5, 9], "verdict": "Too few dice to tell yet: 23 dice read"}),
                      ALL)
    assert not next(i for i in model.view().items if i.label == "History (0)").enabled
    press(model, *pick_sequence(model, "The dice"))
    view = model.view()
    assert model.screen is Screen.DICE and view.lines == ("Too few dice to tell yet: 23 dice read",)
    assert view.chart.values == (3, 1, 4, 1, 5, 9) and view.chart.labels == ("1", "2", "3", "4", "5", "6")
    assert view.chart.reference == 23 / 6
    press(model, CONFIRM)
    assert model.screen is Screen.MAIN


def test_how_to_play_and_the_language_screen():
    model = MenuModel(FakeData(), ALL)
    assert "Language: English" in labels(model)
    press(model, *pick_sequence(model, "How to play"))
    assert model.screen is Screen.RULES and labels(model) == ["Can't Stop", "Ludo", "Schotten Totten", "Donkey race"]
    assert press(model, NEXT, CONFIRM) == [ShowRules("ludo")]
    press(model, UNDO)
    press(model, *pick_sequence(model, "Language: English"))
    assert model.screen is Screen.LANGUAGE and model.view().title == "Language"
    assert labels(model) == ["English  ✓", "Deutsch", "Nederlands", "Português (Brasil)", "Русский"]
    data = model.data
    assert press(model, NEXT, CONFIRM) == [] and data.language == "de"
    assert model.screen is Screen.MAIN


def test_the_configs_names_come_first_and_a_name_can_be_spelled_with_the_buttons():
    from companion.registry import MAX_NAME_LENGTH

    model = MenuModel(FakeData(names=["Zoe"]), ALL, names=("Ada", "Ben"))
    press(model, CONFIRM, CONFIRM, CONFIRM)  # new game, Can't Stop, 2 players
    assert labels(model) == ["Player 1", "Ada", "Ben", "Zoe", "Spell a name"]
    press(model, *pick_sequence(model, "Spell a name"))
    assert model.screen is Screen.SPELL and labels(model)[:3] == ["Done: ", "A", "B"]
    assert not model.view().items[0].enabled  # nothing spelled yet
    press(model, *pick_sequence(model, "C"))
    assert labels(model)[1:3] == ["a", "b"]  # small letters after the capital
    for letter in ("y", "r"):
        press(model, *pick_sequence(model, letter))
    press(model, UNDO)  # rubs out the r
    assert model.view().title == "Name of player 1: Cy_"
    press(model, *pick_sequence(model, "Done: Cy"))
    assert model.screen is Screen.PLAYER_NAME and model.view().lines == ("1. Cy",)
    press(model, *pick_sequence(model, "Spell a name"))
    press(model, *pick_sequence(model, "B"))
    for _ in range(MAX_NAME_LENGTH + 2):
        press(model, *pick_sequence(model, "b"))  # no letter past the cap
    assert model.view().title == "Name of player 2: B" + "b" * (MAX_NAME_LENGTH - 1) + "_"


def test_the_russian_picker_offers_cyrillic_letters():
    from companion.i18n import set_language

    set_language("ru")
    try:
        model = MenuModel(FakeData(), ALL)
        press(model, CONFIRM, CONFIRM, CONFIRM)
        press(model, *pick_sequence(model, labels(model)[-1]))
        assert labels(model)[1:4] == ["А", "Б", "В"] and "Ё" in labels(model)
    finally:
        set_language("en")


def test_a_game_with_one_player_count_asks_no_count():
    model = MenuModel(FakeData(), {"schotten-totten": True})
    press(model, CONFIRM)
    press(model, *pick_sequence(model, "Schotten Totten"))
    assert model.screen is Screen.PLAYER_NAME
    press(model, CONFIRM, CONFIRM)
    assert model.screen is Screen.VARIANTS
    assert labels(model)[1:] == ["Cards: Schotten Totten, 1-9", "Claims: after your card", "Games in the match: 3"]
    press(model, NEXT, CONFIRM, NEXT, NEXT, CONFIRM)  # Battle Line; 3 -> 1 game
    actions = press(model, *pick_sequence(model, "Start the game"))
    assert actions == [StartGame("schotten-totten", ("Player 1", "Player 2"), {"game": "battle-line", "match_length": 1})]


@pytest.mark.parametrize("language, written", [("en", "12/1/26"), ("de", "01.12.26"), ("nl", "01-12-2026"),
                                               ("pt_BR", "01/12/2026"), ("ru", "01.12.2026")])
def test_history_writes_the_date_the_languages_way(language, written):
    from companion.i18n import set_language

    set_language(language)
    try:
        model = MenuModel(FakeData(finished=[FinishedGame(9, "cant-stop", ("Ada", "Ben"), "2026-12-01T12:00:00", "Ada")]),
                          ALL)
        press(model, *pick_sequence(model, [label for label in labels(model) if "(1)" in label][-1]))
        assert model.screen is Screen.HISTORY and written in labels(model)[0], labels(model)
    finally:
        set_language("en")


def test_the_menus_keys_speak_of_the_highlight_not_of_a_move_in_a_game():
    from companion.i18n import speaking

    with speaking("de"):
        assert MenuModel(FakeData(), ALL).view().keys == (("WEITER", "nächster Punkt"), ("PASSEN", "voriger"),
                                                          ("OK", "wählen"), ("ZURÜCK", "Menü zurück"))


def test_a_name_is_spelled_both_ways_in_few_presses():
    """NEXT forward, PASS back: "Ada" took about 60 presses with NEXT alone."""
    PASS = Command(Button.PASS)
    model = MenuModel(FakeData(), ALL)
    press(model, CONFIRM, CONFIRM, CONFIRM)  # new game, Can't Stop, 2 players
    press(model, *pick_sequence(model, "Spell a name"))
    presses = [CONFIRM]  # the highlight starts on A
    presses += [NEXT] * 3 + [CONFIRM]  # a -> d
    presses += [PASS] * 3 + [CONFIRM]  # d -> a, back the way it came
    presses += [PASS, CONFIRM]  # a -> "Done: Ada", the item before the letters
    press(model, *presses)
    assert model.screen is Screen.PLAYER_NAME and model.view().lines == ("1. Ada",) and len(presses) == 11
    press(model, *pick_sequence(model, "Spell a name"))
    press(model, PASS)  # from A back past the greyed "Done: " and "space" (nothing spelled) to Z
    view = model.view()
    assert view.items[view.selected].label == "Z"


def test_the_board_to_print_is_offered_once_the_camera_checks_one():
    data = FakeData()
    model = MenuModel(data, ALL)
    press(model, CONFIRM, CONFIRM, CONFIRM, CONFIRM, CONFIRM)  # Can't Stop, 2 players, two names
    assert model.screen is Screen.VARIANTS
    assert "Save the board to print" not in labels(model)  # board_layout none: no board is read
    layout_item = next(i for i, label in enumerate(labels(model)) if label.startswith("Board the camera checks"))
    press(model, Command(Button.CHOOSE, (layout_item + 1,)))  # none -> companion
    assert labels(model)[-1] == "Save the board to print"
    press(model, *pick_sequence(model, "Save the board to print"))
    assert data.printed == ("cant-stop", {"board_layout": "companion"})
    assert model.screen is Screen.VARIANTS and model.view().message == "saved companion"

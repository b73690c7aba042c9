

def test_a_roll_entered_by_hand_names_each_press_and_offers_undo_not_read_again(tmp_path):
    import random

    from companion.commands import Button, Command
    from companion.screens.cant_stop import build_view
    from companion.session.cant_stop import CantStopSession
    from companion.store import Store

    with Store(tmp_path / "s.sqlite3") as store:
        session = CantStopSession(store, store.new_game("cant-stop", ["Ada", "Ben"], {}), ["Ada", "Ben"],
                                  rng=random.Random(1))
        session.on_camera_problem("No camera")
        session.on_command(Command(Button.CONFIRM))  # Ada starts: the entry opens with no press
        view = build_view(session)
        assert view.prompt == "Ada: enter your roll"
        assert dict(view.keys) == {"NEXT": "new die", "BANK": "+1", "PASS": "-1", "UNDO": "undo"}
        for button in (Button.NEXT, Button.NEXT, Button.NEXT, Button.NEXT):
            session.on_command(Command(button))  # three new dice, then round to the first
        keys = dict(build_view(session).keys)
    assert keys == {"CONFIRM": "accept", "NEXT": "next die", "BANK": "+1", "PASS": "-1", "UNDO": "undo"}


def test_the_die_being_entered_by_hand_is_shown_selected(tmp_path):
    import random

    from companion.commands import Button, Command
    from companion.display.cant_stop_photo import die_label
    from companion.screens.cant_stop import build_view
    from companion.session.cant_stop import CantStopSession
    from companion.store import Store

    with Store(tmp_path / "s.sqlite3") as store:
        session = CantStopSession(store, store.new_game("cant-stop", ["Ada", "Ben"], {}), ["Ada", "Ben"],
                                  rng=random.Random(1))
        session.on_camera_problem("No camera")
        session.on_command(Command(Button.CONFIRM))  # the entry opens by itself: a die at 1, selected
        assert [(die_label(d), d.selected) for d in build_view(session).dice] == [("1", True)]
        session.on_command(Command(Button.BANK))
        assert [(die_label(d), d.selected) for d in build_view(session).dice] == [("2", True)]
        session.on_command(Command(Button.NEXT))  # the next die starts at the value of the one before
        assert [(die_label(d), d.selected) for d in build_view(session).dice] == [("2", False), ("2", True)]



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
        # four dice shown from the start: a roll that is 1 3 4 6 takes one press
        assert dict(view.keys) == {"CONFIRM": "accept", "NEXT": "next die", "BANK": "+1", "PASS": "-1",
                                   "UNDO": "undo"}
        session.on_command(Command(Button.REMOVE, (4,)))  # with three dice (the keyboard), on the last one:
        for _ in range(3):  # NEXT adds a die
            session.on_command(Command(Button.NEXT))
        keys = dict(build_view(session).keys)
    assert keys == {"NEXT": "new die", "BANK": "+1", "PASS": "-1", "UNDO": "undo"}


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
        session.on_command(Command(Button.CONFIRM))  # the entry opens by itself: 1 3 4 6, the first selected
        shown = [(die_label(d), d.selected) for d in build_view(session).dice]
        assert shown == [("1", True), ("3", False), ("4", False), ("6", False)]
        session.on_command(Command(Button.BANK))
        session.on_command(Command(Button.NEXT))
        shown = [(die_label(d), d.selected) for d in build_view(session).dice]
        assert shown == [("2", False), ("3", True), ("4", False), ("6", False)]

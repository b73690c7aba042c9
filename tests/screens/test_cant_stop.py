

def test_a_roll_entered_by_hand_offers_cancel_not_read_again(tmp_path):
    import random

    from companion.commands import Button, Command
    from companion.screens.cant_stop import build_view
    from companion.session.cant_stop import CantStopSession
    from companion.store import Store

    with Store(tmp_path / "s.sqlite3") as store:
        session = CantStopSession(store, store.new_game("cant-stop", ["Ada", "Ben"], {}), ["Ada", "Ben"],
                                  rng=random.Random(1))
        session.on_camera_problem("No camera")
        for button in (Button.CONFIRM, Button.NEXT, Button.BANK):
            session.on_command(Command(button))
        keys = dict(build_view(session).keys)
    assert keys["UNDO"] == "cancel" and keys["NEXT"] == "next die"


def test_the_place_for_the_next_die_entered_by_hand_is_shown_selected(tmp_path):
    import random

    from companion.commands import Button, Command
    from companion.display.photo import die_label
    from companion.screens.cant_stop import build_view
    from companion.session.cant_stop import CantStopSession
    from companion.store import Store

    with Store(tmp_path / "s.sqlite3") as store:
        session = CantStopSession(store, store.new_game("cant-stop", ["Ada", "Ben"], {}), ["Ada", "Ben"],
                                  rng=random.Random(1))
        session.on_camera_problem("No camera")
        session.on_command(Command(Button.CONFIRM))
        session.on_command(Command(Button.NEXT))  # an empty roll: only the place for its first die
        assert [(die_label(d), d.selected) for d in build_view(session).dice] == [("+", True)]
        session.on_command(Command(Button.BANK))  # a die at 1, selected; no place shown while it is
        assert [(die_label(d), d.selected) for d in build_view(session).dice] == [("1", True)]
        session.on_command(Command(Button.NEXT))
        assert [(die_label(d), d.selected) for d in build_view(session).dice] == [("1", False), ("+", True)]

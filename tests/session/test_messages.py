"""What the players read never carries a developer's note: no rules-file section, no module or doc name,
no "(input)", whatever buttons and commands they press, in every game."""

import random

import pytest

from companion.commands import Button, Command
from companion.registry import GAMES
from companion.store import Store

NOTES = (".md", "(input)", "ARCHITECTURE", "companion.", "Traceback")
BUTTONS = [b for b in Button if b not in (Button.QUIT, Button.MENU, Button.RULES)]


@pytest.mark.parametrize("entry", GAMES, ids=lambda e: e.name)
def test_no_developer_notes_reach_the_screen(entry, tmp_path):
    rng = random.Random(7)
    players = ["Ada", "Ben"]
    screens = entry.module("screens")
    with Store(tmp_path / "s.sqlite3") as store:
        session = entry.module("session").SESSION(store, store.new_game(entry.name, players, {}), players,
                                                  entry.config(), rng=random.Random(1))
        for _ in range(400):
            button = rng.choice(BUTTONS)
            args = tuple(rng.randint(0, 120) for _ in range(rng.randint(0, 4)))
            session.on_command(Command(button, args))
            view = screens.build_view(session, {})
            shown = " ".join(str(getattr(view, name, "")) for name in ("prompt", "message", "hint"))
            assert not [note for note in NOTES if note in shown], f"{button} {args}: {shown}"
            if session.finished:
                break

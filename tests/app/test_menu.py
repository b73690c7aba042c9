"""companion menu driven by button presses on gpiozero's mock pins, into a started Can't Stop game."""

import pytest

from companion.app.menu import GameInput, MenuRunner, available_games, system_poweroff
from companion.app.menu_store import StoreMenuData, delete_saved_game
from companion.commands import Button, Command
from companion.config import DEFAULT_BUTTON_PINS, config_from_dict
from companion.display.cant_stop import ScreenView
from companion.paths import AppPaths
from companion.registry import names
from companion.store import Store

CONFIG = config_from_dict({"buttons": {"bounce_time": 0.0}})  # no debounce: taps in a test are instant


@pytest.fixture
def paths(tmp_path):
    return AppPaths.from_dirs(tmp_path / "state", tmp_path / "config")


def tap(factory, *buttons):
    for button in buttons:
        pin = factory.pin(DEFAULT_BUTTON_PINS[button])
        pin.drive_low()
        pin.drive_high()


def runner_for(paths, factory, **kwargs):
    runner = MenuRunner(paths=paths, config=CONFIG, input_spec="gpio", headless=True, pin_factory=factory,
                        camera_spec="auto", poweroff=kwargs.pop("poweroff", lambda: None),
                        game_ticks=kwargs.pop("game_ticks", 3))
    runner.open_devices()
    return runner


C, N, U = Button.CONFIRM, Button.NEXT, Button.UNDO


def test_buttons_alone_start_a_cant_stop_game(paths, factory):
    paths.state_dir.mkdir(parents=True)
    with Store(paths.store_file) as store:  # Ada and Ben are on the scoreboard
        old = store.new_game("cant-stop", ["Ada", "Ben"], {})
        store.finish_game(old, {"winner": "Ada"})
    runner = runner_for(paths, factory)
    # New game, Can't Stop, 2 players, Ada (NEXT past "Player 1"), Ben, then columns to win 3 -> 2,
    # and NEXT around to "Start the game".
    tap(factory, C, C, C, N, C, N, C, N, C, N, N, N, N, N, C)
    shown = []
    runner.display.show = lambda view, draw, *mode: shown.append(view)  # what the window was asked to show, in order
    result = runner.run(max_ticks=2)
    assert len(result.games) == 1 and not result.shutdown
    with Store(paths.store_file) as store:
        game = store.game(result.games[0])
        assert (game.game, game.players, game.variant, game.finished) == ("cant-stop", ("Ada", "Ben"),
                                                                         {"columns_to_win": 2}, False)
    assert [type(v).__name__ for v in shown[:1]] == ["MenuView"]
    game_views = [v for v in shown if isinstance(v, ScreenView)]
    assert len(game_views) == 3  # game_ticks
    assert [p.name for p in game_views[0].chrome.seats] == ["Ada", "Ben"]
    assert type(shown[-1]).__name__ == "MenuView"  # back in the menu after the game's ticks
    assert runner.display is None  # devices closed, pins free
    assert factory.pin(DEFAULT_BUTTON_PINS[C]).state == 1  # ... and the pull-up still reads released


def test_buttons_resume_a_saved_game(paths, factory):
    paths.state_dir.mkdir(parents=True)
    with Store(paths.store_file) as store:
        saved = store.new_game("cant-stop", ["Cy", "Di"], {"columns_to_win": 2})
    runner = runner_for(paths, factory, game_ticks=1)
    tap(factory, N, C, C, C)  # Saved games, the one game, Resume
    result = runner.run(max_ticks=1)
    assert result.games == [saved]


def test_shutdown_only_after_the_second_confirm(paths, factory):
    calls = []
    runner = runner_for(paths, factory, poweroff=lambda: calls.append("poweroff"))
    tap(factory, N, N, N, N, N, C, C)  # Shut down (the last of eight; NEXT skips the two greyed), "No, go back"
    runner.run(max_ticks=1)
    assert calls == []
    runner = runner_for(paths, factory, poweroff=lambda: calls.append("poweroff"))
    tap(factory, N, N, N, N, N, C, N, C)  # Shut down, "Yes, shut down"
    result = runner.run(max_ticks=5)
    assert calls == ["poweroff"] and result.shutdown and result.ticks == 1


def test_failed_poweroff_stays_in_the_menu_with_a_message(paths, factory):
    def refuse():
        raise RuntimeError("systemctl poweroff failed (1): Access denied")

    runner = runner_for(paths, factory, poweroff=refuse)
    tap(factory, N, N, N, N, N, C, N, C)
    shown = []
    runner.display.show = lambda view, draw, *mode: shown.append(view)
    result = runner.run(max_ticks=2)
    assert not result.shutdown and result.ticks == 2
    assert shown[-1].message.startswith("Shut down failed: systemctl poweroff failed")


def test_system_poweroff_runs_systemctl(monkeypatch):
    seen = []

    class Done:
        returncode, stderr = 1, "Access denied\n"

    monkeypatch.setattr("subprocess.run", lambda cmd, **kw: seen.append(cmd) or Done())
    with pytest.raises(RuntimeError, match="Access denied"):
        system_poweroff()
    assert seen == [("systemctl", "poweroff")]


def test_game_input_turns_menu_into_quit_and_keeps_the_rest():
    class Inner:
        exhausted = False

        def poll(self, script_allowed=True):
            return [Command(Button.CONFIRM), Command(Button.MENU), Command(Button.NEXT)]

    from collections import deque

    pending = deque([Command(Button.BANK)])
    game_input = GameInput(Inner(), pending)
    assert [c.button for c in game_input.poll()] == [Button.BANK, Button.CONFIRM, Button.QUIT]
    assert list(pending) == [Command(Button.NEXT)] and not game_input.quit_requested


def test_delete_saved_game_removes_game_and_events_only_when_unfinished(tmp_path):
    with Store(tmp_path / "s.sqlite3") as store:
        open_id = store.new_game("cant-stop", ["A", "B"], {})
        store.append_event(open_id, "roll", [1, 2, 3, 4])
        done = store.new_game("cant-stop", ["A", "B"], {})
        store.finish_game(done, {"winner": 0})
        assert delete_saved_game(store._db, done) is False
        assert delete_saved_game(store._db, open_id) is True
        assert store.unfinished_games() == [] and store.events(open_id) == []
        assert [g.id for g in store.finished_games()] == [done]
        data = StoreMenuData(store)
        assert data.known_names() == ["A", "B"]
        assert data.scoreboard_lines() == ["Can't Stop: A, 1 of 1 won", "Can't Stop: B, 0 of 1 won"]
        assert store.integrity_check() == "ok"


def test_the_names_offered_are_no_default_seat_names_even_from_an_older_scoreboard(tmp_path):
    with Store(tmp_path / "s.sqlite3") as store:
        store._db.execute("INSERT INTO scores (name, game, games, wins) VALUES ('Spieler 2', 'ludo', 4, 3), "
                          "('Ada', 'ludo', 4, 1), ('Player 1', 'ludo', 2, 0)")  # kept by a box before the fix
        assert StoreMenuData(store).known_names() == ["Ada"]


def test_saved_games_count_turns_not_events_and_name_their_board(tmp_path):
    """Issue 37: a Schotten Totten game of 8 plays is 8 turns (its log holds the deal and every draw too);
    two Ludo games on different boards are told apart."""
    import random

    from companion.games.schotten_totten import SchottenTottenConfig
    from companion.session.schotten_totten import SchottenTottenSession

    with Store(tmp_path / "s.sqlite3") as store:
        game_id = store.new_game("schotten-totten", ["Ada", "Ben"], {})
        session = SchottenTottenSession(store, game_id, ["Ada", "Ben"], SchottenTottenConfig(), rng=random.Random(1))
        session.on_command(Command.parse("confirm"))
        for stone, card in enumerate((11, 21, 31, 41, 51, 61, 12, 22), start=1):  # R1 O1 Y1 ... one a stone
            session.on_command(Command.parse(f"set {stone} {card}"))
            session.on_command(Command.parse("confirm"))
        store.new_game("ludo", ["Ada", "Ben"], {"board": "mensch40"})
        store.new_game("ludo", ["Ada", "Ben"], {"board": "dga56"})
        saved = StoreMenuData(store).saved_games()
        assert store.event_count(game_id) > 8
        assert [(g.game, g.turns, g.unit) for g in saved] == [("schotten-totten", 8, "turn"), ("ludo", 0, "turn"),
                                                              ("ludo", 0, "turn")]
        assert [dict(g.variant) for g in saved[1:]] == [{"board": "mensch40"}, {"board": "dga56"}]


def test_a_replay_steps_by_play_not_by_draw_and_jumps_a_turn_at_a_time(tmp_path):
    """Schotten Totten: a step is a card played (the draw after it and the deal need no press of their
    own); BANK goes from turn's end to turn's end; Can't Stop's replay shows each roll's dice."""
    import random

    from companion.app.replay import ReplaySession
    from companion.games.schotten_totten import SchottenTottenConfig
    from companion.registry import game
    from companion.session.schotten_totten import SchottenTottenSession

    with Store(tmp_path / "s.sqlite3") as store:
        game_id = store.new_game("schotten-totten", ["Ada", "Ben"], {})
        session = SchottenTottenSession(store, game_id, ["Ada", "Ben"], SchottenTottenConfig(), rng=random.Random(1))
        session.on_command(Command.parse("confirm"))
        for stone, card in enumerate((11, 21, 31, 41, 51, 61, 12, 22), start=1):
            session.on_command(Command.parse(f"set {stone} {card}"))
            session.on_command(Command.parse("confirm"))
        replay = ReplaySession(store, game("schotten-totten"), game_id)
        assert replay.total == 29 and replay.last == 9  # who starts (with the deal), then 8 plays
        assert [stop.text for stop in replay.stops[1:3]] == ["Ada starts", "Ada plays R1 at stone 1"]
        assert replay.turns == 8
        presses = 0
        while replay.at < replay.last:
            replay.on_command(Command(Button.BANK))
            presses += 1
        assert presses == 8 and replay.inner.state.turn == 9
        cant_stop = _finished_cant_stop_game(store)
        replay = ReplaySession(store, game("cant-stop"), cant_stop)
        replay.on_command(Command(Button.NEXT))
        replay.on_command(Command(Button.NEXT))  # the first roll
        assert replay.inner.confirmed is not None and list(replay.inner.state.dice) == replay.inner.confirmed.values
        replay.on_command(Command(Button.PASS))
        assert replay.at == replay.last and replay.shown == replay.total


def test_cant_stop_is_always_available():
    games = available_games()
    assert games["cant-stop"] is True and set(games) == {"cant-stop", "ludo", "schotten-totten", "donkey-race"}


@pytest.mark.parametrize("index, name", list(enumerate(names())))
def test_every_game_runs_in_the_menus_process_on_its_window_and_pins(paths, factory, index, name):
    runner = runner_for(paths, factory)
    window, inputs = runner.display, runner.inputs
    tap(factory, C, *[N] * index, C, C, C, C, C)  # New game, the game, 2 players, Player 1, Player 2, Start
    shown = []
    window.show = lambda view, draw, *mode: shown.append((view, runner.display, runner.inputs))
    result = runner.run(max_ticks=1)
    assert len(result.games) == 1
    with Store(paths.store_file) as store:
        assert store.game(result.games[0]).game == name
    game_shown = [(display, keys) for view, display, keys in shown if type(view).__name__ != "MenuView"]
    assert game_shown and all(display is window and keys is inputs for display, keys in game_shown)


def test_a_script_drives_the_same_input_path_and_the_menu_ends_with_it(paths, tmp_path):
    script = tmp_path / "menu.script"
    script.write_text("next\nconfirm  # scoreboard (NEXT skips the greyed 'Saved games (0)')\nundo\n")
    runner = MenuRunner(paths=paths, config=CONFIG, input_spec=f"script:{script}", headless=True, pin_factory=None,
                        camera_spec="auto", poweroff=lambda: None, game_ticks=1)
    runner.open_devices()
    shown = []
    runner.display.show = lambda view, draw, *mode: shown.append(view)
    result = runner.run(max_ticks=50)
    assert result.ticks == 3  # one command a poll; after the third the script is exhausted
    assert [v.title for v in shown] == ["Tabletop companion"] * 2 + ["Scoreboard"]
    assert [v.selected for v in shown[:2]] == [0, 2]


def test_holding_next_leaves_the_game_for_the_menu_with_the_game_saved(paths, factory):
    import time

    config = config_from_dict({"buttons": {"bounce_time": 0.0, "hold_time": 0.1}})
    runner = MenuRunner(paths=paths, config=config, input_spec="gpio", headless=True, pin_factory=factory,
                        camera_spec="auto", poweroff=lambda: None, game_ticks=50)
    runner.open_devices()
    tap(factory, C, C, C, C, C, C)  # New game, Can't Stop, 2 players, Player 1, Player 2, Start
    next_pin = factory.pin(DEFAULT_BUTTON_PINS[N])
    next_pin.drive_low()
    deadline = time.monotonic() + 3
    panel = runner.inputs.sources[0].panel  # gpio, then the window-only keyboard source
    while panel.queue.qsize() < 7 and time.monotonic() < deadline:
        time.sleep(0.01)
    next_pin.drive_high()
    shown = []
    runner.display.show = lambda view, draw, *mode: shown.append(view)
    result = runner.run(max_ticks=2)
    game_views = [v for v in shown if isinstance(v, ScreenView)]
    assert len(result.games) == 1 and len(game_views) == 1  # the hold ended the game at its first tick
    assert type(shown[-1]).__name__ == "MenuView" and shown[-1].title == "Tabletop companion"
    with Store(paths.store_file) as store:
        assert [g.id for g in store.unfinished_games()] == result.games  # saved, to resume


def _finished_cant_stop_game(store) -> int:
    """A whole seeded two-player Can't Stop game stored as the box stores one."""
    import random

    from companion.agents.cant_stop import AGENTS, _chance
    from companion.games import TERMINAL
    from companion.games.cant_stop import CantStopConfig, CantStopState, action_to_dict

    game_id = store.new_game("cant-stop", ["Ada", "Ben"], {"columns_to_win": 1})
    state, rng = CantStopState.new(2, CantStopConfig(columns_to_win=1)), random.Random(2)
    while state.current_player != TERMINAL:
        action = _chance(state, rng) if state.current_player < 0 else AGENTS["advisor"](state, rng)
        state = state.apply(action)
        store.append_event(game_id, "action", {**action_to_dict(action), "source": "camera"})
    store.finish_game(game_id, {"winner": ["Ada", "Ben"][state.winner]})
    return game_id


def test_history_replays_a_finished_game_step_by_step_then_its_summary(paths, tmp_path):
    """A replay steps one event (NEXT), jumps to the turn's end (BANK) and to the game's end (PASS), and says
    each event in the notice; past the end, the summary."""
    paths.state_dir.mkdir(parents=True)
    with Store(paths.store_file) as store:
        game_id = _finished_cant_stop_game(store)
        steps = len(store.events(game_id))
    script = tmp_path / "menu.script"
    presses = ["next", "next", "confirm", "confirm", "confirm"]  # History (past the greyed Saved games), the game, Replay
    presses += ["next", "next", "bank", "undo", "pass", "next"]  # who starts, a roll, the turn's end, back, the end
    presses += ["next", "confirm", "undo"]  # the summary's course page, leave, and a press in the menu
    script.write_text("\n".join(presses) + "\n")
    runner = MenuRunner(paths=paths, config=CONFIG, input_spec=f"script:{script}", headless=True, pin_factory=None,
                        camera_spec="auto", poweroff=lambda: None, game_ticks=None)
    runner.open_devices()
    shown = []
    runner.display.show = lambda view, draw, *mode: shown.append(view)
    runner.run(max_ticks=200)
    replay = [v for v in shown if hasattr(v, "prompt") and v.prompt.startswith("Replay:")]
    seen = []
    for view in replay:  # one view a press (the loop draws again only when something changed)
        if not seen or (view.prompt, view.message) != (seen[-1].prompt, seen[-1].message):
            seen.append(view)
    assert seen[0].prompt == f"Replay: step 0 of {steps}" and seen[0].message == ""  # the corner shows the turn
    assert seen[1].message in ("Ada starts", "Ben starts")
    assert seen[2].message.split()[1] == "rolls" and [d.value for d in seen[2].dice] != []
    assert "?" not in "".join(str(d.value) for d in seen[2].dice)
    assert seen[3].message.split()[1] in ("banks", "busts", "banks,")  # BANK: the end of the first turn
    assert seen[-1].prompt.startswith(f"Replay: step {steps} of {steps}") and "wins!" in seen[-1].message
    assert seen[-1].keys == (("NEXT", "summary"), ("UNDO", "step back"), ("CONFIRM", "leave"))
    assert seen[0].keys == (("NEXT", "next step"), ("BANK", "to the turn's end"), ("PASS", "to the end"),
                            ("CONFIRM", "leave"))
    summaries = [v for v in shown if type(v).__name__ == "SummaryView"]
    assert [v.page for v in summaries][:1] == [0] and summaries[-1].page == 1
    assert type(shown[-1]).__name__ == "MenuView"
    with Store(paths.store_file) as store:
        assert len(store.events(game_id)) == steps  # a replay changes nothing


@pytest.mark.parametrize("item", ["Replay", "Summary"])
def test_quit_on_history_ends_the_menu_not_just_the_replay(paths, factory, item):
    """Issue 37/42: a quit (Q, the window closed; SDL turns SIGTERM into one) on History's replay or summary
    ends the box; it used to go back to the menu, which ran on."""
    from companion.app.menu_model import MenuModel, pick_sequence

    paths.state_dir.mkdir(parents=True)
    with Store(paths.store_file) as store:
        done = store.new_game("cant-stop", ["Ada", "Ben"], {})
        store.finish_game(done, {"winner": "Ada"})
        model = MenuModel(StoreMenuData(store), available_games())
        presses = pick_sequence(model, "History (1)")
        for press in presses:
            model.handle(press)
        presses += pick_sequence(model, model.view().items[0].label)
        for press in presses[len(presses) - 1:]:
            model.handle(press)
        presses += pick_sequence(model, item)
    runner = runner_for(paths, factory)
    runner.pending.extend(presses + [Command(Button.QUIT)])
    runner.display.show = lambda view, draw, *mode: None
    result = runner.run(max_ticks=50)
    assert result.ticks == 1  # the menu ended with the quit, in its first tick; it used to run on to 50

"""``companion menu``: the appliance's entry point, what the systemd unit starts.

One window, one input and one set of pins for the whole run: the menu (:mod:`companion.app.menu_model`,
drawn by :mod:`companion.display.menu`) and every game it starts share them in this process, so the
GPIO pins are claimed once. A game runs through :func:`companion.app.play.run_game`, as ``companion
play`` runs it; a long press of NEXT (``menu``) in the game returns here with the game saved (it resumes
from "Saved games").

Shutting down runs ``systemctl poweroff`` (the install script lets the service user do that through
a polkit rule); tests pass their own ``poweroff``.
"""

from __future__ import annotations

import argparse
import logging
import os
import subprocess
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from companion import stop
from companion.app import rules
from companion.app.devices import PlayDevices, display_available
from companion.app.inputs import open_input
from companion.app.language import choose_language
from companion.app.loop import run_loop
from companion.app.menu_model import LookBack, MenuModel, ShowRules, Shutdown, StartGame
from companion.app.menu_store import StoreMenuData
from companion.app.notices import show_notices
from companion.app.play import run_game
from companion.app.replay import replay_game
from companion.app.rules import RulesSession
from companion.app.startup import load_box_config, open_box_store, store_notice
from companion.app.summary import show_summary
from companion.commands import Button, Command, as_taken
from companion.config import Config
from companion.display import Display
from companion.display import menu as menu_display
from companion.errors import ScriptEnded
from companion.i18n import _
from companion.paths import AppPaths, resolve
from companion.registry import GAMES, game
from companion.screens.notice import Notice
from companion.store import Store
from hardware import LedPanel, StatusPattern, make_pin_factory

log = logging.getLogger(__name__)

POWEROFF_COMMAND = ("systemctl", "poweroff")


def system_poweroff() -> None:
    """Ask systemd to power the Pi off (returns at once; the machine goes down shortly after).

    Raises RuntimeError with systemctl's message when it refuses (e.g. no polkit rule for this user).
    """
    done = subprocess.run(POWEROFF_COMMAND, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(POWEROFF_COMMAND)} failed ({done.returncode}): {done.stderr.strip()}")


def available_games() -> dict[str, bool]:
    """Game -> whether the menu offers it: every game of the registry (``companion.registry``)."""
    return {entry.name: True for entry in GAMES}


class GameInput:
    """The menu's input as a game sees it: commands the menu left over come first, and ``menu`` (the
    long press of NEXT) becomes ``quit``, which ends :func:`companion.app.loop.run_loop` with the game saved.
    :attr:`quit_requested` tells a real ``quit`` (window closed, Q) from that."""

    def __init__(self, inner: Any, pending: "deque[Command]"):
        self.inner = inner
        self.pending = pending
        self._quit = False

    @property
    def quit_requested(self) -> bool:
        """The players quit the whole program in the game (Q, the window closed), or a signal asked the box
        to stop (:mod:`companion.stop`): the menu ends too."""
        return self._quit or stop.requested()

    @quit_requested.setter
    def quit_requested(self, value: bool) -> None:
        self._quit = value

    @property
    def exhausted(self) -> bool:
        """True once nothing is pending and the inner input has ended."""
        return not self.pending and self.inner.exhausted

    def poll(self, script_allowed: bool = True) -> list[Command]:
        """Pending commands, then the inner input's, up to and including a ``menu`` (given as ``quit``);
        what came after it goes back to :attr:`pending` for the menu."""
        commands = list(self.pending)
        self.pending.clear()
        commands += self.inner.poll(script_allowed)
        out = []
        for command in commands:
            if command.button is Button.MENU:
                out.append(Command(Button.QUIT))
                self.pending.extend(commands[len(out):])  # the rest goes back to the menu
                return out
            if command.button is Button.QUIT:
                self._quit = True
            out.append(command)
        return out

    def close(self) -> None:
        """The menu closes the inner input itself."""


@dataclass
class MenuResult:
    """How ``run_menu`` ended: games started (store ids, in order), ticks of the menu, whether it asked
    for a shutdown."""

    games: list[int] = field(default_factory=list)
    ticks: int = 0
    shutdown: bool = False


class MenuRunner:
    """Runs the menus and the games they start. See :func:`run_menu` for the arguments."""

    def __init__(self, *, paths: AppPaths, config: Config, input_spec: str, headless: bool,
                 pin_factory: Any, camera_spec: str | None, poweroff: Callable[[], None],
                 game_ticks: int | None):
        self.paths, self.config = paths, config
        self.input_spec, self.headless = input_spec, headless
        self.pin_factory = pin_factory
        self.camera_spec = camera_spec or config.camera.spec
        self.poweroff = poweroff
        self.game_ticks = game_ticks
        self.pending: deque[Command] = deque()
        self.display: Any = None
        self.inputs: Any = None
        self.leds: Any = None
        self.result = MenuResult()
        self.notice = ""  # a startup problem to show on the menu screen (e.g. the config was ignored)

    # --- the window, inputs and LEDs --------------------------------------------------------------

    def open_devices(self) -> None:
        """Open the window, the inputs and the LEDs (the pin factory is made once, on first use).

        Not :class:`companion.app.devices.PlayDevices`: the menu keeps one pin factory for the whole run
        (the one given, e.g. gpiozero's ``MockFactory`` in tests, or one made here on first use), and the
        games it starts use its window, inputs and LEDs; each game's camera does go through
        ``PlayDevices`` (:meth:`_play`).
        """
        display = self.config.display
        self.display = Display(display.width, display.height, fullscreen=display.fullscreen, headless=self.headless)
        if "gpio" in self.input_spec.split("+") and self.pin_factory is None:
            self.pin_factory = make_pin_factory()
        self.inputs = open_input(self.input_spec, events=self.display.events, pins=self.config.buttons,
                                 pin_factory=self.pin_factory)
        if self.pin_factory is not None and "gpio" in self.input_spec.split("+"):
            self.leds = LedPanel.from_config(self.config.leds, pin_factory=self.pin_factory)

    def close_devices(self) -> None:
        """Close LEDs, inputs and window (pins freed); safe to call twice."""
        for name in ("leds", "inputs", "display"):
            device = getattr(self, name)
            setattr(self, name, None)
            if device is not None:
                device.close()

    # --- the loop ---------------------------------------------------------------------------------

    def run(self, max_ticks: int | None) -> MenuResult:
        """Open the devices (unless :meth:`open_devices` was called already), show the menus, close
        the devices; see :func:`run_menu`."""
        store, problem = open_box_store(self.paths)  # issue 9: damaged store moved aside, never fatal
        with store:
            model = MenuModel(StoreMenuData(store, self.paths.state_dir), available_games(), self.config.variants,
                              self.config.players.names)
            notices = [n for n in (Notice.CONFIG_IGNORED if self.notice else None, store_notice(store, problem)) if n]
            if self.display is None:
                self.open_devices()
            try:
                try:
                    shown = show_notices(notices, store, self.inputs, self.display, headless=self.headless,
                                         fps=self.config.session.fps, leds=self.leds)
                except ScriptEnded:
                    log.info("the input ended on a notice: leaving the menu")
                    return self.result
                if not shown.went_on:
                    log.info("quit on a notice")
                    return self.result
                return self._loop(store, model, max_ticks)
            finally:
                self.close_devices()

    def _loop(self, store: Store, model: MenuModel, max_ticks: int | None) -> MenuResult:
        period = 1.0 / self.config.session.fps
        while True:
            if stop.requested():  # SIGTERM, SIGINT: on the menu, or on the way back from any screen it opened
                log.info("quit from the menu (%s)", stop.signal_name() or "stop")
                return self.result
            started = time.monotonic()
            self.result.ticks += 1
            if self.leds is not None:
                self.leds.show_turn(None)
                self.leds.show_status(StatusPattern.STEADY)
            self.display.show(model.view(), menu_display.draw, "menu")
            self.pending.extend(self.inputs.poll())
            while self.pending and not stop.requested():
                command = self.pending.popleft()
                if command.button is Button.QUIT:
                    log.info("quit from the menu")
                    return self.result
                action = model.handle(as_taken(command))  # the menu gives no long press of BANK or PASS a meaning
                if isinstance(action, Shutdown) and self._shutdown(model):
                    return self.result
                if isinstance(action, StartGame):
                    if self._start(store, action, model):
                        return self.result  # the players quit the program from the game
                if isinstance(action, LookBack) and self._look_back(store, action, model):
                    return self.result  # quit (Q, the window closed, SIGTERM) from History or its summary
                if isinstance(action, ShowRules) and self._show_rules(store, action.game):
                    return self.result
            if max_ticks is not None and self.result.ticks >= max_ticks:
                return self.result
            if self.inputs.exhausted and not self.pending:
                log.info("the input has ended (script without keyboard or buttons): leaving the menu")
                return self.result
            if not self.headless:
                stop.sleep(period - (time.monotonic() - started))  # ends at once on a stop request

    def _shutdown(self, model: MenuModel) -> bool:
        """Power off; True when it went through, False (message on the screen) when it failed."""
        log.info("shutting down the Pi: %s", " ".join(POWEROFF_COMMAND))
        try:
            self.poweroff()
        except (OSError, RuntimeError) as error:
            log.error("shut down failed: %s", error)
            model.message = _("Shut down failed: {error}").format(error=error)
            return False
        self.result.shutdown = True
        return True

    def _start(self, store: Store, action: StartGame, model: MenuModel) -> bool:
        """Play the game ``action`` names; True when the players quit the whole program from it."""
        try:
            return self._play(store, action)
        except ScriptEnded:
            raise  # a headless script ran out inside the game: nothing can go on
        except Exception as error:  # a game that cannot start must not take the box down
            log.exception("the game could not be started")
            model.message = _("The game could not be started: {error}").format(error=error)
            return False

    def _show_rules(self, store: Store, game_name: str) -> bool:
        """How to play ``game_name``, on the menu's window, inputs and LEDs, until the players go back;
        True when they quit the whole program there."""
        game_input = GameInput(self.inputs, self.pending)
        try:
            run_loop(RulesSession(game_name), store, None, lambda frame: None, game_input, self.display,
                     screen=rules.SCREEN, draw=rules.DRAW, game=game_name, headless=self.headless,
                     fps=self.config.session.fps, leds=self.leds)
        except ScriptEnded:
            log.info("the script ended while the rules were shown")
        return game_input.quit_requested

    def _look_back(self, store: Store, action: LookBack, model: MenuModel) -> bool:
        """Replay a finished game, or show its summary, on the menu's window, inputs and LEDs; True when the
        players quit the whole program there."""
        game_input = GameInput(self.inputs, self.pending)
        try:
            if not action.replay:
                show_summary(store, action.game_id, game_input, self.display, headless=self.headless,
                             fps=self.config.session.fps, leds=self.leds)
            else:
                replay_game(store, game(store.game(action.game_id).game), action.game_id, game_input, self.display,
                            headless=self.headless, fps=self.config.session.fps, leds=self.leds)
        except Exception as error:  # a game that cannot be replayed must not take the box down
            log.exception("the game could not be replayed")
            model.message = _("The game could not be shown: {error}").format(error=error)
        return game_input.quit_requested

    def _play(self, store: Store, action: StartGame) -> bool:
        """Run the game in this process, on the menu's window, inputs and LEDs (``companion.app.play``);
        only its camera is opened for it, and closed however it ends."""
        entry = game(action.game)
        if action.game_id is None:
            game_id = store.new_game(entry.name, list(action.players), dict(action.variant))
            players, variant = list(action.players), dict(action.variant)
        else:
            saved = store.game(action.game_id)
            game_id, players, variant = saved.id, list(saved.players), dict(saved.variant)
        self.result.games.append(game_id)
        log.info("menu: %s game %d with %s", entry.name, game_id, ", ".join(players))
        game_input = GameInput(self.inputs, self.pending)
        with PlayDevices(self.config, headless=self.headless, state_dir=self.paths.state_dir) as game_devices:
            camera = game_devices.open_camera(self.camera_spec)
            run_game(entry, store, game_id, players, variant, config=self.config, state_dir=self.paths.state_dir,
                     camera=camera, inputs=game_input, display=self.display, leds=self.leds, headless=self.headless,
                     max_ticks=self.game_ticks)
        return game_input.quit_requested


def run_menu(*, paths: AppPaths, config: Config, input_spec: str = "keys+gpio", headless: bool = False,
             pin_factory: Any = None, camera_spec: str | None = None,
             poweroff: Callable[[], None] = system_poweroff, max_ticks: int | None = None,
             game_ticks: int | None = None, notice: str = "") -> MenuResult:
    """Show the menus until the players shut down or quit (or ``max_ticks`` menu ticks have passed).

    paths/config: where the store lives and the settings (window, pins, LEDs, camera spec, variants as
    the switches' starting values). input_spec: as ``companion play --input``. pin_factory: for
    ``gpio`` (default: ``hardware.buttons.make_pin_factory()``). camera_spec: overrides the config's.
    poweroff: called after the players confirmed "shut down" (default ``systemctl poweroff``).
    game_ticks: stop each game after that many ticks (tests). notice: a startup problem shown on the
    menu screen. An unusable store is moved aside or replaced by one in memory, with a message on the
    screen (``companion.app.startup``). Raises the store's and config's errors
    and ``PinFactoryError`` as they come; errors inside a game are shown in the menu instead.
    """
    runner = MenuRunner(paths=paths, config=config, input_spec=input_spec, headless=headless,
                        pin_factory=pin_factory, camera_spec=camera_spec, poweroff=poweroff, game_ticks=game_ticks)
    runner.notice = notice
    return runner.run(max_ticks)


def menu_command(args: argparse.Namespace, env: Any = None) -> int:
    """``companion menu``: resolve paths, load the config, run the menus. Exit status 0 (also after SIGTERM,
    :mod:`companion.stop`; after SIGINT ``KeyboardInterrupt`` is raised, once the devices are closed)."""
    paths = resolve(os.environ if env is None else env)
    config, notice = load_box_config(paths.config_file)  # issue 9: a bad config never stops the box
    log.info("state in %s, config from %s", paths.state_dir, config.source or "defaults")
    choose_language(getattr(args, "language", None), paths.state_dir, config)
    headless = args.headless
    if not headless and not display_available():
        log.info("no display found: running headless")
        headless = True
    with stop.on_signals():  # SIGTERM (systemctl stop) ends it with status 0; SIGINT raises KeyboardInterrupt: 130
        result = run_menu(paths=paths, config=config, input_spec=args.input, headless=headless,
                          camera_spec=args.camera, max_ticks=args.max_ticks, notice=notice or "")
    log.info("menu ended after %d ticks, %d game(s) started", result.ticks, len(result.games))
    return 0

"""The composition root: builds camera, reader, inputs, store, session and display, and runs the loop.

One loop, one thread (ARCHITECTURE.md): each tick reads a frame when the session looks for dice,
drains the inputs, and draws the session's view. Button callbacks only queue commands. A script input
is fed only while the box waits for the players, so that a script replays the same way at any speed;
keys and buttons are taken at any time.
"""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2

from companion.app.devices import PlayDevices
from companion.app.trace import EventTrace
from companion.commands import Button
from companion.config import Config
from companion.display.screen import Display
from companion.errors import FrameError, ScriptEnded
from companion.games.cant_stop.rules import CantStopConfig
from companion.i18n import _
from companion.paths import AppPaths, ensure_state_dir
from companion.session.base import GameSession, Waiting
from companion.session.cant_stop import GAME, CantStopSession, replay
from companion.store import Store
from hardware.leds import LedPanel, StatusPattern
from vision.camera.sources import FrameSource
from vision.dice.reader import read_dice, warm_up
from vision.observation import DiceObservation

log = logging.getLogger(__name__)


@dataclass
class RunResult:
    """How a run ended: the game's id in the store, its winner's name (None if unfinished), ticks run."""

    game_id: int
    winner: str | None
    ticks: int
    screenshots: int


DEFAULT_PLAYERS = ("Player 1", "Player 2")


def open_game(store: Store, game: str, players: list[str] | None, variant: dict,
              new: bool = False, *, check: Callable[[list[str], dict], Any] | None = None,
              variant_given: bool = False) -> tuple[int, list[str], dict]:
    """Resume the latest unfinished game of ``game`` (e.g. ``"cant-stop"``), or start one.

    A saved game is resumed unless ``new`` is set or ``players`` names other players than it has; a new
    game without named players gets :data:`DEFAULT_PLAYERS`. ``check(players, variant)`` builds the
    game's first state (the rules' player count and variant checks) before a new game is stored, so a
    bad ``--players`` or ``--variant`` stores nothing. ``variant_given``: the players asked for
    ``variant`` (``--variant``); resuming a saved game with other rules is then refused rather than
    silently ignored. Returns (game id, player names, variant). Raises ValueError (``VariantError``
    included) naming the problem.
    """
    if not new:
        game_id = store.latest_unfinished(game)
        if game_id is not None:
            saved = store.game(game_id)
            if players is None or list(players) == list(saved.players):
                if variant_given and dict(variant) != dict(saved.variant):
                    raise ValueError(_("the saved {game} game {id} is played with its own rules; add --new to "
                                       "start a game with this --variant").format(game=game, id=game_id))
                log.info("resuming saved %s game %s", game, game_id)
                return game_id, list(saved.players), dict(saved.variant)
    players = list(players or DEFAULT_PLAYERS)
    if check is not None:
        check(players, variant)
    return store.new_game(game, players, variant), players, variant


def run_cant_stop(*, paths: AppPaths, config: Config, camera: FrameSource | None, input_spec: str,
                  players: list[str] | None = None, variant: dict | None = None, headless: bool = False,
                  screenshots: Path | None = None, seed: int | None = None, new: bool = False,
                  max_ticks: int | None = None) -> RunResult:
    """Play (or resume) one Can't Stop game until it is finished or the players quit.

    Raises :class:`ScriptEnded` when a headless script runs out before the game ends, ``CorruptLog``
    when the saved game does not replay, and the store's/config's errors as they come. The store,
    display, inputs and LEDs are opened through :class:`companion.app.devices.PlayDevices` and closed in
    reverse order however the game ends; ``camera`` stays the caller's (None: no camera, every roll is
    entered by hand).
    """
    ensure_state_dir(paths)
    variant_given = variant is not None
    variant = dict(config.variant(GAME) if variant is None else variant)
    with PlayDevices(config, headless=headless) as devices:
        store = devices.open_store(paths.store_file, move_aside=True)  # a damaged file is moved aside, kept
        if devices.store_problem:
            log.error("%s", devices.store_problem)
        game_id, players, variant = open_game(
            store, GAME, players, variant, new, variant_given=variant_given,
            check=lambda names, rules: replay([], len(names), CantStopConfig.from_variant(rules)))
        session = CantStopSession(store, game_id, players, CantStopConfig.from_variant(variant),
                                  stable_frames=config.session.stable_frames, rng=random.Random(seed))
        session.message = devices.store_problem
        display = devices.open_display()
        inputs = devices.open_inputs(input_spec, leds=True)
        if screenshots:
            screenshots.mkdir(parents=True, exist_ok=True)
        reader = live_dice_reader(camera, config, paths.state_dir)
        return run_loop(session, store, camera, reader, inputs, display, game=GAME, screenshots=screenshots,
                        headless=headless, fps=config.session.fps, max_ticks=max_ticks, leds=devices.leds)


def live_dice_reader(camera: FrameSource | None, config: Config,
                     state_dir: Path) -> Callable[[Any], DiceObservation]:
    """The dice reader for ``camera``: :func:`read_dice_frame`, behind the settle tracker
    (``companion.readers.settle``, ``[session] still_seconds``) for a live camera, with the empty table of
    ``companion calibrate dice`` stored in ``state_dir`` when there is one."""
    from companion.readers.settle import dice_reader_for
    from vision.dice.calibration import load_calibration

    calibration = load_calibration(state_dir) if camera is not None and camera.live else None
    empty = calibration.empty_grey if calibration is not None else None
    warm_up()  # the reader's start-up now, not at the players' first roll
    return dice_reader_for(camera, read_dice_frame, config.session.still_seconds, empty_table=empty)


def read_dice_frame(frame_bgr) -> DiceObservation:
    """The dice reader as the loop's ``reader``: a frame it cannot take becomes an observation with a
    problem, so that one bad frame never stops the game (an unexpected reader failure is logged)."""
    shape = tuple(frame_bgr.shape[:2]) if hasattr(frame_bgr, "shape") else (0, 0)
    try:
        return read_dice(frame_bgr)
    except FrameError as error:
        return DiceObservation((), shape, problem=str(error))
    except (cv2.error, ArithmeticError, IndexError, ValueError) as error:
        log.exception("the dice reader failed on a frame")
        return DiceObservation((), shape, problem=_("the dice reader failed on this frame: {error}").format(
            error=str(error).splitlines()[0] if str(error) else type(error).__name__))


def run_loop(session: GameSession, store: Store, camera: FrameSource | None, reader: Callable[[Any], Any],
             inputs, display: Display, *, game: str, screenshots: Path | None = None, headless: bool = False,
             fps: float = 10.0, max_ticks: int | None = None, leds: LedPanel | None = None) -> RunResult:
    """Run ``session`` until it is finished, the players quit, or ``max_ticks`` ticks have passed.

    Each tick: when ``session.wants_frame``, one frame from ``camera`` goes through ``reader`` (a
    function of the frame returning the game's observation) to ``session.on_frame``; the view is drawn
    (and saved as ``screenshots/NNNN-MODE.png`` when its prompt or message changed); then the inputs'
    commands go to ``session.on_command`` (a script only while the session waits for the players).
    ``camera`` None means no camera: the session is told once per tick that no picture came.
    ``leds``: the seat LED of ``session.active_seat`` is lit; the status LED blinks slowly while the box
    waits for still dice, fast when ``session.attention`` asks the players to look, and is steady while
    it waits for a button.
    Headless runs do not wait between ticks; windowed runs tick at ``fps``.
    Raises :class:`ScriptEnded` when a headless script ends while the session still waits for players.
    """
    ticks = shots = 0
    last_prompt = None
    trace = EventTrace.from_env(store, session)  # issue 9: None unless COMPANION_TRACE_EVENTS=1
    wins, scored = _wins(store, game), False
    period = 1.0 / fps
    while not session.finished:
        started = time.monotonic()
        ticks += 1
        if session.wants_frame:
            frame = camera.read() if camera is not None else None
            if camera is None:
                session.on_camera_problem(_("none in use"))
            elif frame is None:
                session.on_camera_problem(_("no picture from {name}").format(name=camera.name))
            else:
                session.on_frame(frame, reader(frame))
        if leds is not None:
            _show_leds(leds, session)
        view = session.view(wins=wins)
        display.show(view)
        if trace is not None:
            trace.shown()
        if screenshots and (view.prompt, view.message) != last_prompt:
            shots += 1
            display.save_png(screenshots / f"{shots:04d}-{session.mode.value}.png")
        last_prompt = (view.prompt, view.message)
        for command in inputs.poll(script_allowed=session.waiting is Waiting.PLAYERS):
            if command.button is Button.QUIT:
                log.info("quit: the game is saved and resumes at the next start")
                return RunResult(session.game_id, None, ticks, shots)
            session.on_command(command)
        if session.winner_name is not None and not scored:
            wins, scored = _wins(store, game), True
        if inputs.exhausted and session.waiting is Waiting.PLAYERS and not session.finished and headless:
            raise ScriptEnded(_("the script ended while the game waited for: {prompt}").format(prompt=view.prompt))
        if max_ticks is not None and ticks >= max_ticks:
            break
        if not headless:
            time.sleep(max(0.0, period - (time.monotonic() - started)))
    return RunResult(session.game_id, session.winner_name, ticks, shots)


def _show_leds(leds: LedPanel, session: GameSession) -> None:
    leds.show_turn(session.active_seat)
    if session.attention:
        leds.show_status(StatusPattern.FAST_BLINK)
    elif session.waiting is Waiting.CAMERA:
        leds.show_status(StatusPattern.SLOW_BLINK)
    elif session.waiting is Waiting.PLAYERS:
        leds.show_status(StatusPattern.STEADY)
    else:
        leds.show_status(StatusPattern.OFF)


def _wins(store: Store, game: str) -> dict[str, int]:
    return {row.name: row.wins for row in store.scoreboard(game)}


def display_available(env=None) -> bool:
    """Whether a screen can be opened: an X or Wayland display, or an SDL driver chosen explicitly that
    shows something (the systemd unit sets ``SDL_VIDEODRIVER=kmsdrm`` for the Pi's console; ``dummy`` and
    ``offscreen``, :data:`companion.app.selftest.HEADLESS_DRIVERS`, show nothing: the run is then headless)."""
    import os

    from companion.app.selftest import HEADLESS_DRIVERS

    env = os.environ if env is None else env
    driver = env.get("SDL_VIDEODRIVER", "").strip().lower()
    if driver:
        return driver not in HEADLESS_DRIVERS
    return bool(env.get("DISPLAY") or env.get("WAYLAND_DISPLAY"))


DEMO_PLAYERS = ["Ada", "Ben"]
DEMO_SEED = 1


def play(*, players: list[str] | None, variant: dict | None, camera_spec: str | None, input_spec: str,
         headless: bool, screenshots: Path | None, new: bool = False, seed: int | None = None,
         env=None) -> int:
    """``companion play cant-stop``: load config and paths, open the camera, run the game. Exit status."""
    import os

    from companion.config import load_config
    from companion.paths import resolve

    paths = resolve(os.environ if env is None else env)
    config = load_config(paths.config_file)
    if not headless and not display_available():
        log.info("no display found: running headless")
        headless = True
    with PlayDevices(config, headless=headless) as devices:
        camera = devices.open_camera(camera_spec or config.camera.spec)
        result = run_cant_stop(paths=paths, config=config, camera=camera, input_spec=input_spec, players=players,
                               variant=variant, headless=headless, screenshots=screenshots, seed=seed, new=new)
    if result.winner:
        print(_("{name} wins.").format(name=result.winner))
    return 0


def demo(state_dir: Path, *, headless: bool, screenshots: Path | None) -> int:
    """``companion demo``: the bundled two-player game on real photos, with a fresh store in ``state_dir``."""
    from companion.app.demo import demo_camera, demo_script_path
    from companion.config import Config

    paths = AppPaths.from_dirs(state_dir, state_dir)
    if not headless and not display_available():
        log.info("no display found: running headless")
        headless = True
    with demo_camera() as camera:
        result = run_cant_stop(paths=paths, config=Config(), camera=camera,
                               input_spec=f"script:{demo_script_path()}", players=DEMO_PLAYERS, headless=headless,
                               screenshots=screenshots, seed=DEMO_SEED, new=True)
    print(_("Demo over: {name} wins after {ticks} frames.").format(name=result.winner, ticks=result.ticks))
    if screenshots:
        print(_("{n} screenshots in {dir}").format(n=result.screenshots, dir=screenshots))
    return 0 if result.winner else 1

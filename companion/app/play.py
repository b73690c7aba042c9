"""One game at the table, for every game of the registry: ``companion play``, the menu and the demo.

:func:`play` opens the devices (``companion.app.devices``: the store, moved aside when damaged, the
camera, the window, the inputs and the LEDs), decides whether a saved game is resumed
(:func:`open_game`), and runs the game with :func:`run_game`: the game's session, reader and screen,
found through its registry entry (``companion.registry``), in the one loop
(:func:`companion.app.loop.run_loop`). The menu calls :func:`run_game` itself, on its own window, inputs
and LEDs.
"""

from __future__ import annotations

import logging
import random
from dataclasses import replace
from pathlib import Path
from collections.abc import Callable
from typing import Any

from companion import stop
from companion.app.devices import PlayDevices
from companion.app.loop import RunResult, run_loop
from companion.app.notices import show_notices
from companion.app.summary import show_summary
from companion.config import Config
from companion.errors import CorruptLog, UserError
from companion.files import writable_folder
from companion.memory import give_back_free_memory
from companion.i18n import _
from companion.paths import AppPaths, ensure_state_dir
from companion.readers import ReaderSettings
from companion.registry import GameEntry
from companion.screens.notice import Notice
from companion.store import Store, StoreLock
from vision.camera import FrameSource

log = logging.getLogger(__name__)

DEFAULT_PLAYERS = ("Player 1", "Player 2")
"""The names of a new game's players when none are given."""


def open_game(store: Store, entry: GameEntry, players: list[str] | None, variant: dict, new: bool = False, *,
              variant_given: bool = False) -> tuple[int | None, list[str], dict]:
    """Which game to play: the latest unfinished game of ``entry`` to resume, or a new one (stores nothing).

    A saved game is resumed unless ``new`` is set or ``players`` names other players than it has; a new
    game without named players gets :data:`DEFAULT_PLAYERS`. A new game's players and variant are
    checked here (the registry's player counts, the engine's variant checks and its first state), so a
    bad ``--players`` or ``--variant`` stores nothing. ``variant_given``: the players asked for
    ``variant`` (``--variant``): it is checked even when a saved game is resumed, and resuming a saved
    game with other rules is refused rather than silently ignored. Returns (the saved game's id, or
    None for a new game; player names; variant). Raises ``VariantError`` or ``UserError`` naming the
    problem.
    """
    if variant_given:
        entry.config(variant)  # an unknown key or a bad value is named before the saved game
    if not new:
        game_id = store.latest_unfinished(entry.name)
        if game_id is not None:
            saved = store.game(game_id)
            if players is None or list(players) == list(saved.players):
                if variant_given and dict(variant) != dict(saved.variant):
                    raise UserError(_("the saved {game} game {id} is played with its own rules; add --new to "
                                      "start a game with this --variant").format(game=entry.name, id=game_id))
                log.info("resuming saved %s game %s", entry.name, game_id)
                return game_id, list(saved.players), dict(saved.variant)
    players = list(players or DEFAULT_PLAYERS)
    entry.check_players(len(players))
    entry.module("games").GAME(len(players), entry.config(variant)).new_initial_state()
    return None, players, dict(variant)


def resume_session(store: Store, game_id: int, build: Callable[[], Any]) -> tuple[Any, str]:
    """``build()`` the session of the saved game ``game_id`` (replaying its log, completing what a press
    left undone: the game's session does that, in one transaction here) and return ``(session, damage)``.

    A row that cannot be read (not UTF-8, not JSON) or replayed (not an action, or one the rules refuse:
    the session raises ``CorruptLog`` with its ``seq``) is set aside with the rows after it
    (:meth:`Store.set_aside_from`) and the game resumes from its last good event; ``damage`` is then the
    message naming the file, the game and what was kept (logged), else "". Raises ``CorruptLog`` when the
    log cannot be cut at a known event (a bug), ``StoreError`` when the store cannot be written.
    """
    damage = store.set_aside_unreadable(game_id)
    if damage:
        log.error("%s", damage)
    cut: set[int] = set()
    while True:
        try:
            with store.press():
                return build(), damage
        except CorruptLog as error:
            if error.seq is None or error.seq in cut:
                raise
            cut.add(error.seq)
            damage = store.set_aside_from(game_id, error.seq, f"does not replay ({error})")
            log.error("%s", damage)


def run_game(entry: GameEntry, store: Store, game_id: int, players: list[str], variant: dict, *, config: Config,
             state_dir: Path | None, camera: FrameSource | None, inputs: Any, display: Any, leds: Any = None,
             headless: bool = False, screenshots: Path | None = None, seed: int | None = None,
             max_ticks: int | None = None, notice: str = "", notices: tuple[Notice, ...] = ()) -> RunResult:
    """Play the stored game ``game_id`` of ``entry`` until it ends, the players quit or ``max_ticks``.

    Builds the game's session (``SESSION``, replaying the stored log: :func:`resume_session`), its reader on ``camera`` (None: everything is entered by hand) with the calibrations of
    ``state_dir`` loaded once, and runs the loop with the game's screen and drawing. ``notice``: a
    message shown in the first screen's notice band (no camera found). ``notices``: notice screens
    (``companion.screens.notice``) shown before the game, each until CONFIRM (a damaged store moved
    aside). An event row that cannot be read or replayed is set aside with those after it (logged) and a
    notice screen says so. ``seed`` seeds the box's draw of
    who starts. Once the game is over its summary is shown (:func:`companion.app.summary.show_summary`)
    until the players leave it. The devices stay the caller's. The game's advisor tables are built first
    (``companion.hints.<game>.prepare``); each hint is the whole search, no clock
    (:meth:`GameEntry.hint_budget`): the same position gets the same hint here, in History's replay and on
    any machine.
    """
    entry.module("hints").prepare(entry.config(variant))  # the advisor's tables, before the first hint

    def build_session():
        return entry.module("session").SESSION(store, game_id, players, entry.config(variant),
                                               stable_frames=config.session.stable_frames, rng=random.Random(seed),
                                               hint_budget=entry.hint_budget())

    session, damage = resume_session(store, game_id, build_session)
    if damage:
        notices = (*notices, Notice.GAME_CUT)
    shown = show_notices(list(notices), store, inputs, display, screenshots=screenshots, headless=headless,
                         fps=config.session.fps, leds=leds)
    if not shown.went_on:
        log.info("quit on a notice: the game is saved and resumes at the next start")
        return RunResult(game_id, None, 0, shown.screenshots, stopped=stop.requested())
    shots = shown.screenshots
    if notice:
        session.message = notice
    settings = ReaderSettings(state_dir=state_dir, still_seconds=config.session.still_seconds)
    reader = entry.module("readers").make_reader(camera, session, settings)
    give_back_free_memory()  # what learning the players' dice held, before the game's first frame
    if hasattr(camera, "watch"):  # a rendered table (the demo) plays at the table: it follows the session
        camera.watch(session)
    try:
        result = run_loop(session, store, camera, reader, inputs, display, screen=entry.module("screens"),
                          draw=entry.module("display").draw, game=entry.name, screenshots=screenshots,
                          headless=headless, fps=config.session.fps, max_ticks=max_ticks, leds=leds,
                          shots_before=shots)
    finally:
        keeper = getattr(session, "keeper", None)
        if keeper is not None:  # the confirmed rolls handed to it are written before the game is left
            keeper.close()
        del reader
        give_back_free_memory()  # the menu runs game after game in this process
    if session.finished and store.game(game_id).finished and not stop.requested():
        shots = show_summary(store, game_id, inputs, display, screenshots=screenshots, headless=headless,
                             fps=config.session.fps, leds=leds, shots_before=result.screenshots)
        result = replace(result, screenshots=shots)
    return result


def play(entry: GameEntry, *, paths: AppPaths, config: Config, input_spec: str, camera: str | FrameSource | None,
         players: list[str] | None = None, variant: dict | None = None, new: bool = False,
         headless: bool = False, screenshots: Path | None = None, seed: int | None = None,
         max_ticks: int | None = None, inputs: Any = None) -> RunResult:
    """Play (or resume) one game of ``entry``: open the devices, choose the game, run it, close them.

    camera: a camera spec (``auto``, ``device:0``, ``folder:DIR``, ``none``...; None: the config's), or
    a source already open (the demo's photos; it stays the caller's). variant: the ``--variant``
    settings, None for the config's ``[game]`` section. Everything given is checked before the store is
    opened (the variant, the players, the screenshots folder, the camera, the window and the inputs), so a bad
    argument stores nothing; only the store's lock is taken before them (``StoreBusy``: another box runs on
    it, and holds the screen too); a saved game is resumed or a new one stored only then (:func:`open_game`). Raises the devices',
    store's and rules' errors as they come (``companion.errors``) and ``ScriptEnded`` when a headless
    script runs out before the game ends. ``inputs``: an input source already open, used instead of
    ``input_spec`` (the players of the demo's rendered table, :mod:`companion.app.table_demo`). With a
    script among the inputs the hints have no deadline (:func:`run_game`: the script replays the same).
    SIGTERM and SIGINT end it on any screen, the game saved (:func:`companion.stop.on_signals`; after
    SIGINT it raises ``KeyboardInterrupt`` once the devices are closed).
    """
    variant_given = variant is not None
    variant = dict(config.variant(entry.name) if variant is None else variant)
    if variant_given:
        entry.config(variant)  # a bad --variant is named before anything is opened
    if players is not None:
        entry.check_players(len(players))
    spec = None if isinstance(camera, FrameSource) else (camera or config.camera.spec)
    if screenshots:
        writable_folder(screenshots, "--screenshots")
    ensure_state_dir(paths)
    # The store's lock before any device: a second box says it is one (the first holds the screen too).
    held = StoreLock(paths.store_file)
    try:
        with stop.on_signals(), PlayDevices(config, headless=headless, state_dir=paths.state_dir) as devices:
            source = camera if spec is None else devices.open_camera(spec)
            display = devices.open_display()
            inputs = inputs if inputs is not None else devices.open_inputs(input_spec, leds=True)
            store = devices.open_store(paths.store_file, move_aside=True, lock=held)  # a damaged file: moved aside
            if devices.store_problem:
                log.error("%s", devices.store_problem)
            game_id, players, variant = open_game(store, entry, players, variant, new, variant_given=variant_given)
            if game_id is None:
                game_id = store.new_game(entry.name, players, variant)
            return run_game(entry, store, game_id, players, variant, config=config, state_dir=paths.state_dir,
                            camera=source, inputs=inputs, display=display, leds=devices.leds, headless=headless,
                            screenshots=screenshots, seed=seed, max_ticks=max_ticks,
                            notice=devices.camera_notice,
                            notices=(Notice.STORE_MOVED,) if devices.store_problem else ())
    finally:
        held.release()  # idempotent: the store released it when the devices closed it

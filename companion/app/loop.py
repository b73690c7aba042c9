"""The one loop of the box: camera frames and button presses into a session, its view onto the screen.

One loop, one thread (ARCHITECTURE.md): each tick reads a frame when the session looks at the table,
drains the inputs, and draws the session's view. Button callbacks only queue commands. A script input
is fed only while the box waits for the players, so that a script replays the same way at any speed;
keys and buttons are taken at any time. Every game runs through :func:`run_loop` (built by
:func:`companion.app.play.run_game`).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

from companion import stop
from companion.app.rules import RulesSession
from companion.app.trace import EventTrace
from companion.commands import Button, as_taken
from companion.display import Display, Draw
from companion.display import rules as rules_display
from companion.errors import ScriptEnded
from companion.i18n import _
from companion.screens import rules as rules_screen
from companion.screens.hold import HOLD_SECONDS, EventHold
from companion.session import GameSession, Waiting
from companion.session.base import NO_CAMERA
from companion.store import Store
from hardware import LedPanel, StatusPattern
from vision.camera import FrameSource

log = logging.getLogger(__name__)


@dataclass
class RunResult:
    """How a run ended: the game's id in the store, its winner's name (None if unfinished), ticks run,
    screenshots written, the line ``companion play`` prints at the end ("" when unfinished), and whether
    a stop request (SIGTERM, SIGINT: :mod:`companion.stop`) ended it."""

    game_id: int
    winner: str | None
    ticks: int
    screenshots: int
    final: str = ""
    stopped: bool = False


HEADLESS_TICK_S = 0.5
"""The time a tick stands for in a headless run (seconds): about the time between two presses at a
table, so an event kept a few seconds (``companion.screens.hold``) is kept over a few presses."""


def run_loop(session: GameSession, store: Store, camera: FrameSource | None, reader: Callable[[Any], Any],
             inputs, display: Display, *, screen: ModuleType, draw: Draw, game: str,
             screenshots: Path | None = None, headless: bool = False, fps: float = 10.0,
             max_ticks: int | None = None, leds: LedPanel | None = None, shots_before: int = 0) -> RunResult:
    """Run ``session`` until it is finished, the players quit, or ``max_ticks`` ticks have passed.

    Each tick: when ``session.wants_frame``, one frame from ``camera`` goes through ``reader`` (a
    function of the frame returning the game's reading) to ``session.on_frame``; the view
    (``screen.build_view(session, wins)``, the game's ``companion.screens`` module) is drawn with
    ``draw`` (and saved as ``screenshots/NNNN-MODE.png`` when its prompt or message changed); then the
    inputs' commands go to ``session.on_command`` (a script only while the session waits for the
    players). ``camera`` None means no camera: the session is told once per tick that no picture came.
    ``leds``: the seat LED of ``session.active_seat`` is lit; the status LED blinks slowly while the box
    waits for the camera, fast when ``session.attention`` asks the players to look, and is steady while
    it waits for a button. Headless runs do not wait between ticks; windowed runs tick at ``fps``.
    A stop request (SIGTERM, SIGINT: :mod:`companion.stop`) ends it at the next tick, as a quit does
    (every accepted press is stored already), and the rules shown from the game with it.
    ``shots_before``: screenshots already in ``screenshots`` (numbering goes on after them).
    ``Button.RULES`` (a long press of UNDO) shows the game's rules (:class:`companion.app.rules.RulesSession`,
    in this same loop) and comes back to the session where it was. Raises
    :class:`~companion.errors.ScriptEnded` when a headless script ends while the session still waits for
    the players.
    """
    ticks, shots = 0, shots_before
    last_prompt = None
    trace = EventTrace.from_env(store, session)  # issue 9: None unless COMPANION_TRACE_EVENTS=1
    wins, scored = _wins(store, game), False
    period = 1.0 / fps
    # the last event of a turn stays a few seconds into the next (not in a replay: NEXT steps it on purpose)
    hold = EventHold(0.0 if getattr(session, "steps_history", False) else HOLD_SECONDS)
    while not session.finished:
        if stop.requested():
            log.info("quit (%s): the game is saved and resumes at the next start", stop.signal_name() or "stop")
            return RunResult(session.game_id, None, ticks, shots, stopped=True)
        started = time.monotonic()
        ticks += 1
        if session.wants_frame:
            frame = camera.read() if camera is not None else None
            if camera is None:
                session.on_camera_problem(_(NO_CAMERA))
            elif frame is None:
                session.on_camera_problem(_("No picture from {name}").format(name=camera.name))
            else:
                with store.press():
                    session.on_frame(frame, reader(frame))
        if leds is not None:
            show_leds(leds, session)
        if session.winner_name is not None and not scored:  # the winning event came by camera or by a press
            wins, scored = _wins(store, game), True
        # a headless run's clock is its ticks, each the time between two presses at a table: what it
        # shows does not depend on the machine's speed
        view = hold.apply(screen.build_view(session, wins), ticks * HEADLESS_TICK_S if headless else started)
        display.show(view, draw, session.mode.value)
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
            if command.button is Button.RULES and game and not isinstance(session, RulesSession):
                rules = RulesSession(game, session.game_id, session.active_seat)
                shots = run_loop(rules, store, None, lambda frame: None, inputs, display, screen=rules_screen,
                                 draw=rules_display.draw, game=game, screenshots=screenshots, headless=headless,
                                 fps=fps, leds=leds, shots_before=shots).screenshots
                if not rules.finished:  # the players quit from the rules: the whole run ends, the game saved
                    return RunResult(session.game_id, None, ticks, shots, stopped=stop.requested())
                continue
            with store.press():  # one press, one transaction (companion.store)
                session.on_command(as_taken(command, getattr(session, "takes_held", frozenset())))
        if stop.requested():
            continue  # the presses polled with it are taken (stored); the loop returns at the top
        if inputs.exhausted and session.waiting is Waiting.PLAYERS and not session.finished and headless:
            raise ScriptEnded(_("the script ended while the game waited for: {prompt}").format(prompt=view.prompt))
        if max_ticks is not None and ticks >= max_ticks:
            break
        if not headless:
            stop.sleep(period - (time.monotonic() - started))  # ends at once on a stop request
    return RunResult(session.game_id, session.winner_name, ticks, shots, screen.final_line(session))


def show_leds(leds: LedPanel, session: GameSession) -> None:
    """Light the seat LED of the player to act and set the status LED from what the session waits for."""
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

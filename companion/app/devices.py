"""The devices of one play loop, opened from the config and the command line, closed whatever happens.

Every game (``companion.app.play.play``) opens the same devices: the store
(SQLite event log), the camera, the display (Pygame window, or SDL's dummy driver when headless), the
inputs (keys, GPIO buttons, a script) and, where the game drives them, the LEDs. :class:`PlayDevices`
holds them: each ``open_*`` method opens one device and remembers it, and leaving the ``with`` block
closes every device opened so far in reverse order, on a normal end, on an error and on
``KeyboardInterrupt`` alike.

The caller chooses the order of opening (and so which error a user sees first when several things
are wrong); this module adds no message of its own. Errors of opening pass
through unchanged (``companion.errors.CameraError``, ``DisplayError`` for a display that cannot open,
``ValueError``/``ScriptError`` for an input spec, ``hardware.buttons.PinFactoryError``,
``companion.store.StoreError``), so the command line prints the same one line as before.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from companion.app.inputs import InputSource, open_input
from companion.config import Config
from companion.display import Display
from companion.errors import NoCameraFound
from companion.i18n import _
from companion.store import Store, StoreLock, open_or_move_aside
from hardware import LedPanel, is_raspberry_pi, make_pin_factory
from vision.camera import FrameSource, open_camera

log = logging.getLogger(__name__)

# The camera spec of a box without a camera (``companion play --camera none``).
NO_CAMERA = "none"

HEADLESS_DRIVERS = ("dummy", "offscreen")
"""SDL video drivers that draw into memory only: a window there is no screen."""


def display_available(env: Mapping[str, str] | None = None) -> bool:
    """Whether a screen can be opened: an X or Wayland display, or an SDL driver chosen explicitly that
    shows something (the systemd unit sets ``SDL_VIDEODRIVER=kmsdrm`` for the Pi's console; ``dummy`` and
    ``offscreen``, :data:`HEADLESS_DRIVERS`, show nothing: the run is then headless). ``env``: the
    environment (default ``os.environ``)."""
    env = os.environ if env is None else env
    driver = env.get("SDL_VIDEODRIVER", "").strip().lower()
    if driver:
        return driver not in HEADLESS_DRIVERS
    return bool(env.get("DISPLAY") or env.get("WAYLAND_DISPLAY"))


class PlayDevices:
    """The store, camera, display, inputs and LEDs of one play loop; a context manager.

    config: the box's :class:`~companion.config.Config` (display size and full screen, button and LED
    pins, frames per photo). headless: open the display on SDL's dummy driver (no window). state_dir:
    where the Pi camera's calibrated settings are (``companion calibrate camera``), None for none.

    Attributes, None until opened: ``store``, ``camera``, ``display``, ``inputs``, ``leds``;
    ``store_problem`` is "" or the message of a damaged store file that was moved aside.

    On leaving the ``with`` block (or calling :meth:`close`) the devices are closed in the reverse order
    of opening. A close that fails is logged and the remaining devices are still closed; the error of
    the block, if any, is the one that propagates, otherwise the first close error is raised once all
    are closed.
    """

    def __init__(self, config: Config, *, headless: bool = False, state_dir: Path | None = None):
        self.config = config
        self.headless = headless
        self.state_dir = state_dir
        self.store: Store | None = None
        self.store_problem = ""
        self.camera: FrameSource | None = None
        self.camera_notice = ""
        self.display: Display | None = None
        self.inputs: InputSource | None = None
        self.leds: LedPanel | None = None
        self._opened: list[tuple[str, Callable[[], Any]]] = []

    def __enter__(self) -> "PlayDevices":
        return self

    def __exit__(self, exc_type, exc, tb) -> bool:
        self._close_all(raise_errors=exc_type is None)
        return False

    @property
    def opened(self) -> tuple[str, ...]:
        """The names of the devices open now, in the order they were opened (``"store"``, ``"camera"``,
        ``"display"``, ``"inputs"``, ``"leds"``)."""
        return tuple(name for name, _close in self._opened)

    def open_store(self, path: str | Path, *, move_aside: bool = False, lock: StoreLock | None = None) -> Store:
        """Open the SQLite store at ``path``. With ``move_aside``, a damaged file is renamed and kept
        (``companion.store.open_or_move_aside``) and a fresh store is opened; the message saying so is
        put in ``store_problem``. ``lock``: the store's lock, taken already by the caller (else taken here
        with ``move_aside``); the store releases it when closed. Raises ``companion.store.StoreError`` for a
        store that cannot be used."""
        if move_aside:
            store, problem = open_or_move_aside(path, lock=lock if lock is not None else True)
            self.store_problem = problem or ""
        else:
            store = Store(path)
        self.store = store
        self._remember("store", store.close)
        return store

    def open_camera(self, spec: str) -> FrameSource | None:
        """Open the camera that ``spec`` names (``auto``, ``picamera``, ``device:N``, ``video:FILE``,
        ``folder:DIR``), each photo held for ``[session] frames_per_photo`` reads, and log its name;
        ``none`` (NO_CAMERA) opens nothing and gives None: the players enter what a camera would read; so
        does ``auto`` finding no camera, which also sets :attr:`camera_notice` for the screen. Raises
        ``companion.errors.CameraError`` with the reason (an unplugged camera, a missing folder)."""
        if spec == NO_CAMERA:
            log.info("camera: none (entered by hand)")
            return None
        try:
            camera = open_camera(spec, frames_per_photo=self.config.session.frames_per_photo, state_dir=self.state_dir)
        except NoCameraFound as error:  # auto: the players enter everything with the buttons, and are told so
            # Off the Pi no camera is what is expected: one line of information; on the Pi a warning.
            log.log(logging.WARNING if is_raspberry_pi() else logging.INFO,
                    "camera: %s; the players enter everything by hand", error)
            self.camera_notice = _("No camera found: enter with the buttons")
            return None
        log.info("camera: %s", camera.name)
        self.camera = camera
        self._remember("camera", camera.close)
        return camera

    def open_display(self) -> Display:
        """Open the window of ``[display]`` width x height pixels (or full screen), on SDL's dummy driver
        when headless. Raises ``companion.errors.DisplayError`` naming the SDL problem when no screen can
        be opened, e.g. ``"kmsdrm not available"``."""
        display = Display(self.config.display.width, self.config.display.height,
                          fullscreen=self.config.display.fullscreen, headless=self.headless)
        self.display = display
        self._remember("display", display.close)
        return display

    def open_inputs(self, spec: str, *, leds: bool = False) -> InputSource:
        """Open the inputs of ``spec`` (``keys``, ``gpio``, ``script:FILE``, joined with ``+``; the keys
        come from the display opened before, if any) on the ``[buttons]`` pins. When ``spec`` names
        ``gpio``, one pin factory (``hardware.buttons.make_pin_factory``) serves the buttons and, with
        ``leds``, the ``[leds]`` panel, which is then opened too. Raises ``ValueError`` for a bad spec,
        ``companion.app.inputs.ScriptError`` for an unreadable script, ``PinFactoryError`` for GPIO."""
        pin_factory = make_pin_factory() if "gpio" in spec.split("+") else None
        events = self.display.events if self.display is not None else None
        inputs = open_input(spec, events=events, pins=self.config.buttons, pin_factory=pin_factory)
        self.inputs = inputs
        self._remember("inputs", inputs.close)
        if leds and pin_factory is not None:
            panel = LedPanel.from_config(self.config.leds, pin_factory=pin_factory)
            self.leds = panel
            self._remember("leds", panel.close)
        return inputs

    def close(self) -> None:
        """Close every open device in the reverse order of opening (see the class docstring)."""
        self._close_all(raise_errors=True)

    def _remember(self, name: str, close: Callable[[], Any]) -> None:
        self._opened.append((name, close))

    def _close_all(self, *, raise_errors: bool) -> None:
        first: BaseException | None = None
        while self._opened:
            name, close = self._opened.pop()
            try:
                close()
            except Exception as error:  # one device failing to close must not keep the others open
                log.error("closing the %s failed: %s", name, error)
                first = first or error
        if first is not None and raise_errors:
            raise first

"""The box's settings: one TOML file read with ``tomllib``, merged over defaults and validated.

Every key is optional; a missing file means all defaults. Errors are :class:`ConfigError` (a
``ValueError``) whose message names the file, the ``[section] key`` and the allowed values, e.g.::

    /etc/companion/config.toml: [buttons] bank = 17: BCM pin 17 is already used by [buttons] confirm;
    every button and LED needs its own pin

Sections (all keys with their defaults in ``assets/config.example.toml``):

- ``[session]`` ``stable_frames`` (int >= 1): a reading is acted on only when it is the same over this
  many consecutive frames; ``still_seconds`` (float >= 0, seconds): and, with a live camera (Pi camera,
  device, video), read only after the dice have been still this long (``companion.readers.settle``; photo
  folders ignore it); ``fps`` (float > 0, frames per second): the main loop rate;
  ``frames_per_photo`` (int >= 1): how many frames a photo-folder image is held as a still scene.
- ``[hints]`` ``deadline_ms`` (float > 0, milliseconds): how long one hint may take on the development
  machine (default 20), the target the advisors' whole search keeps (``companion bench advisor``); no
  clock decides a hint, so a position gets the same hint on every machine and in History's replay
  (:mod:`companion.hints.base`); ``speed_factor`` (float > 0): how many times slower than the development
  machine this one runs the advisors (``companion selftest`` measures it; a Raspberry Pi 4 about 3-4): a
  hint takes about ``deadline_ms * speed_factor`` here at most.
- ``[display]`` ``width`` / ``height`` (pixels, 320-7680 / 200-4320: :data:`MIN_WINDOW`, :data:`MAX_WINDOW`;
  ignored when ``fullscreen``), ``fullscreen``
  (bool), ``language`` (``""`` follows ``LANGUAGE``/``LANG``; else a code such as ``"de"``, ``"pt_BR"``).
- ``[buttons]`` ``confirm``, ``bank``, ``pass``, ``next``, ``undo`` (BCM pin numbers 0-27),
  ``bounce_time`` (float >= 0, seconds; 0 disables debouncing), ``hold_time`` (float > bounce_time,
  seconds: how long ``next`` or ``undo`` is held to mean ``menu`` or ``rules``).
- ``[leds]`` ``seats`` (list of up to 4 BCM pins, seat order), ``status`` (BCM pin).
  All button and LED pins must be distinct.
- ``[camera]`` ``spec`` (``auto``, ``picamera``, ``device:N`` with N 0-99, ``video:FILE``, ``folder:DIR``,
  or ``none``; checked when the file is read, opened by ``vision.camera.open_camera``).
- ``[players]`` ``names`` (list of names, each 1 to ``MAX_NAME_LENGTH`` printable characters that the
  box's font draws, :func:`companion.names.name_problem`, each once): the names the menu offers first
  for each seat.
- ``[cant_stop]``, ``[ludo]``, ``[schotten_totten]``, ``[donkey_race]`` (one per game of
  ``companion.registry``, named by its key): the game's variant switches, the keys of its
  ``VARIANTS`` table with values as ``--variant`` takes them (TOML strings, numbers, booleans, lists),
  checked when the file is read and kept as given. Read them with ``config.variant("cant-stop")``.
"""

from __future__ import annotations

import json
import logging
import math
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

from companion.commands import Button
from companion.errors import ConfigError, VariantError
from companion.hints.base import DEFAULT_DEADLINE_MS
from companion.i18n import LANGUAGES, language_code
from companion.names import name_problem
from companion.registry import GAMES, MAX_NAME_LENGTH

logger = logging.getLogger(__name__)

Scalar = str | int | float | bool

BUTTON_KEYS: tuple[Button, ...] = (Button.CONFIRM, Button.BANK, Button.PASS, Button.NEXT, Button.UNDO)
"""The physical buttons that have a pin; the TOML key is the button's value (``confirm``...)."""

MAX_SEAT_LEDS = 4
_MAX_BCM = 27

MIN_WINDOW = (320, 200)
"""The smallest ``[display]`` width and height (pixels) taken: below it no screen's texts fit."""
MAX_WINDOW = (7680, 4320)
"""The largest ``[display]`` width and height (pixels) taken: an 8K screen. A window larger than the
screen it opens on is refused when it is opened (``companion.display.window.Display``), naming the keys."""


@dataclass(frozen=True)
class SessionConfig:
    """``[session]``: when a reading counts, and the loop rate (see the module docstring for units)."""

    stable_frames: int = 3
    still_seconds: float = 0.6
    fps: float = 10.0
    frames_per_photo: int = 4


@dataclass(frozen=True)
class HintsConfig:
    """``[hints]``: the search one hint may do, as milliseconds on the development machine, and this
    machine's speed factor (see the module docstring); :attr:`deadline` is about how long a hint takes here."""

    deadline_ms: float = DEFAULT_DEADLINE_MS
    speed_factor: float = 1.0

    @property
    def deadline(self) -> float:
        """About how long one hint's search takes on this machine, in milliseconds: ``deadline_ms * speed_factor``."""
        return self.deadline_ms * self.speed_factor


@dataclass(frozen=True)
class DisplayConfig:
    """``[display]``: window size in pixels, full screen, and language ("" = from the environment)."""

    width: int = 800
    height: int = 480
    fullscreen: bool = False
    language: str = ""


DEFAULT_BUTTON_PINS: Mapping[Button, int] = MappingProxyType(
    {Button.CONFIRM: 17, Button.BANK: 27, Button.PASS: 22, Button.NEXT: 23, Button.UNDO: 24}
)


@dataclass(frozen=True)
class ButtonsConfig:
    """``[buttons]``: BCM pin per physical button, debounce and hold times in seconds."""

    pins: Mapping[Button, int] = field(default_factory=lambda: DEFAULT_BUTTON_PINS)
    bounce_time: float = 0.05
    hold_time: float = 1.0


@dataclass(frozen=True)
class LedsConfig:
    """``[leds]``: one BCM pin per seat (seat order, at most 4) and the status LED's pin."""

    seats: tuple[int, ...] = (5, 6, 13, 19)
    status: int = 26


@dataclass(frozen=True)
class CameraConfig:
    """``[camera]``: the frame source spec, parsed by ``vision.camera.open_camera``."""

    spec: str = "auto"


@dataclass(frozen=True)
class PlayersConfig:
    """``[players]``: ``names``, the players' names the menu offers first (each 1 to
    ``MAX_NAME_LENGTH`` characters, each once)."""

    names: tuple[str, ...] = ()


@dataclass(frozen=True)
class Config:
    """All settings. ``source`` is the file they were read from (None: defaults only)."""

    session: SessionConfig = SessionConfig()
    hints: HintsConfig = HintsConfig()
    display: DisplayConfig = DisplayConfig()
    buttons: ButtonsConfig = ButtonsConfig()
    leds: LedsConfig = LedsConfig()
    camera: CameraConfig = CameraConfig()
    players: PlayersConfig = PlayersConfig()
    variants: Mapping[str, Mapping[str, Scalar]] = field(default_factory=lambda: MappingProxyType({}))
    source: Path | None = field(default=None, compare=False)

    def variant(self, game: str) -> dict[str, Scalar]:
        """The variant table for ``game`` (e.g. ``"cant-stop"``) as a new dict; empty when none is set."""
        return dict(self.variants.get(game, {}))


# --- value checks: each returns the converted value or raises _Bad(allowed values) -----------------


class _Bad(Exception):
    def __init__(self, allowed: str):
        super().__init__(allowed)
        self.allowed = allowed


def _int(minimum: int, maximum: int | None = None) -> Callable[[Any], int]:
    allowed = f"a whole number >= {minimum}" if maximum is None else f"a whole number {minimum}-{maximum}"

    def check(value: Any) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise _Bad(allowed)
        if value < minimum or (maximum is not None and value > maximum):
            raise _Bad(allowed)
        return value

    return check


def _float(minimum: float, *, strict: bool = False) -> Callable[[Any], float]:
    allowed = f"a number {'>' if strict else '>='} {minimum:g}"

    def check(value: Any) -> float:
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            raise _Bad(allowed)
        if value < minimum or (strict and value == minimum):
            raise _Bad(allowed)
        return float(value)

    return check


def _bool(value: Any) -> bool:
    if not isinstance(value, bool):
        raise _Bad("true or false")
    return value




def _language(value: Any) -> str:
    if not isinstance(value, str) or (value and language_code(value) is None):
        raise _Bad('"" (follow the environment) or a language the box speaks: ' + ", ".join(LANGUAGES))
    return value


CAMERA_SPECS = ("auto", "picamera", "none")
"""The camera specs without an argument; ``device:N``, ``video:FILE`` and ``folder:DIR`` take one."""

MAX_CAMERA_DEVICE = 99
"""The highest ``device:N`` (``vision.camera.MAX_DEVICE``: OpenCV reads 100 on as a backend's code)."""


def _camera_spec(value: Any) -> str:
    """A camera spec as ``vision.camera.check_camera_spec`` takes it (checked here without loading
    OpenCV; ``tests/test_config.py`` checks that both agree), or ``none``: nothing is opened yet."""
    allowed = (f'"auto", "picamera", "device:N" (N 0-{MAX_CAMERA_DEVICE}), "video:FILE", "folder:DIR" or "none" '
               "(every entry made with the buttons)")
    if not isinstance(value, str):
        raise _Bad(allowed)
    spec = value.strip()
    kind, _, arg = spec.partition(":")
    if spec in CAMERA_SPECS or (kind in ("video", "folder") and arg):
        return spec
    if kind == "device" and arg.isascii() and arg.isdigit() and int(arg) <= MAX_CAMERA_DEVICE:
        return spec
    raise _Bad(allowed)


_pin = _int(0, _MAX_BCM)


def _names(value: Any) -> tuple[str, ...]:
    allowed = (f'a list of names, each 1 to {MAX_NAME_LENGTH} characters (printable, that the box\'s font draws) and '
               'given once, such as ["Ada", "Ben"]')
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise _Bad(allowed)
    names = tuple(v.strip() for v in value)
    if len(set(names)) != len(names):
        raise _Bad(allowed)
    for name in names:
        problem = name_problem(name)
        if problem:
            raise _Bad(f"{allowed}; {_show(name)} has {problem}" if name else allowed)
    return names


def _pin_list(value: Any) -> tuple[int, ...]:
    allowed = f"a list of at most {MAX_SEAT_LEDS} BCM pin numbers 0-{_MAX_BCM}"
    if not isinstance(value, list) or len(value) > MAX_SEAT_LEDS:
        raise _Bad(allowed)
    try:
        return tuple(_pin(v) for v in value)
    except _Bad:
        raise _Bad(allowed) from None


_SECTIONS: dict[str, dict[str, Callable[[Any], Any]]] = {
    "session": {
        "stable_frames": _int(1),
        "still_seconds": _float(0.6),
        "fps": _float(0.0, strict=True),
        "frames_per_photo": _int(1),
    },
    "hints": {"deadline_ms": _float(0.0, strict=True), "speed_factor": _float(0.0, strict=True)},
    "display": {"width": _int(MIN_WINDOW[0], MAX_WINDOW[0]), "height": _int(MIN_WINDOW[1], MAX_WINDOW[1]),
                "fullscreen": _bool, "language": _language},
    "buttons": {
        **{b.value: _pin for b in BUTTON_KEYS},
        "bounce_time": _float(0.0),
        "hold_time": _float(0.0, strict=True),
    },
    "leds": {"seats": _pin_list, "status": _pin},
    "camera": {"spec": _camera_spec},
    "players": {"names": _names},
}


# --- loading ---------------------------------------------------------------------------------------


def load_config(path: Path | None, *, must_exist: bool = False) -> Config:
    """Read ``path`` (TOML) over the defaults and validate it.

    ``path`` None, or a file that does not exist, gives the defaults (unless ``must_exist``, for a
    file the user named explicitly). Raises :class:`ConfigError` naming the file for unreadable files,
    TOML syntax errors (with line and column), unknown sections or keys, values of the wrong type or
    out of range, and pins used twice.
    """
    if path is None:
        return Config()
    path = Path(path)
    try:
        with path.open("rb") as handle:
            data = tomllib.load(handle)
    except FileNotFoundError:
        if must_exist:
            raise ConfigError(f"{path}: config file not found") from None
        logger.debug("no config file at %s; using defaults", path)  # the usual case: nothing to say
        return Config(source=None)
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{path}: not valid TOML: {error}") from None
    except RecursionError:  # tomllib nests one call a level: a = [[[[... 200,000 deep
        raise ConfigError(f"{path}: not a config file (nested too deep); see assets/config.example.toml") from None
    except UnicodeDecodeError:
        raise ConfigError(f"{path}: not a config file (not UTF-8 text); see assets/config.example.toml") from None
    except OSError as error:
        raise ConfigError(f"{path}: cannot read the config file: {error.strerror or error}") from None
    return config_from_dict(data, source=path)


def config_from_dict(data: Mapping[str, Any], source: Path | None = None) -> Config:
    """Validate an already-parsed TOML document (a dict of section tables); see :func:`load_config`.

    ``source`` is only used to name the file in error messages.
    """
    where = str(source) if source is not None else "<config>"

    def fail(message: str) -> ConfigError:
        return ConfigError(f"{where}: {message}")

    known = [*_SECTIONS, *(entry.key for entry in GAMES)]
    for name, table in data.items():
        if name not in known:
            raise fail(f"unknown section or key {name!r}; known sections: {', '.join(f'[{k}]' for k in known)}")
        if not isinstance(table, dict):
            raise fail(f"{name!r} must be a table ([{name}]), not a single value")

    values: dict[str, dict[str, Any]] = {}
    for section, checks in _SECTIONS.items():
        table = data.get(section, {})
        values[section] = {}
        for key, value in table.items():
            if key not in checks:
                raise fail(f"unknown key [{section}] {key}; known keys: {', '.join(checks)}")
            try:
                values[section][key] = checks[key](value)
            except _Bad as bad:
                raise fail(f"[{section}] {key} = {_show(value)}: expected {bad.allowed}") from None

    buttons_in = values["buttons"]
    pins = {b: buttons_in.get(b.value, DEFAULT_BUTTON_PINS[b]) for b in BUTTON_KEYS}
    buttons = ButtonsConfig(
        pins=MappingProxyType(pins),
        bounce_time=buttons_in.get("bounce_time", ButtonsConfig.bounce_time),
        hold_time=buttons_in.get("hold_time", ButtonsConfig.hold_time),
    )
    if buttons.hold_time <= buttons.bounce_time:
        raise fail(
            f"[buttons] hold_time = {buttons.hold_time:g}: expected a number > bounce_time ({buttons.bounce_time:g})"
        )
    leds = LedsConfig(**values["leds"])
    _check_distinct_pins(buttons, leds, fail)

    variants: dict[str, Mapping[str, Scalar]] = {}
    for entry in GAMES:
        table = data.get(entry.key)
        if not table:  # absent or empty: the engine's defaults
            continue
        keys = {key.name for key in entry.variants}
        for key, value in table.items():
            if key not in keys:
                raise fail(f"[{entry.key}] {key} = {_show(value)}: unknown key; known keys: {', '.join(sorted(keys))}")
        try:
            entry.config(table)
        except VariantError as error:
            raise fail(f"[{entry.key}]: {error}") from None
        variants[entry.name] = MappingProxyType(dict(table))

    return Config(
        session=SessionConfig(**values["session"]),
        hints=HintsConfig(**values["hints"]),
        display=DisplayConfig(**values["display"]),
        buttons=buttons,
        leds=leds,
        camera=CameraConfig(**values["camera"]),
        players=PlayersConfig(**values["players"]),
        variants=MappingProxyType(variants),
        source=source,
    )


def _check_distinct_pins(buttons: ButtonsConfig, leds: LedsConfig, fail: Callable[[str], ConfigError]) -> None:
    used: dict[int, str] = {}
    named = [(f"[buttons] {b.value}", pin) for b, pin in buttons.pins.items()]
    named += [(f"[leds] seats[{i}]", pin) for i, pin in enumerate(leds.seats)]
    named.append(("[leds] status", leds.status))
    for name, pin in named:
        if pin in used:
            raise fail(
                f"{name} = {pin}: BCM pin {pin} is already used by {used[pin]}; "
                f"every button and LED needs its own pin (0-{_MAX_BCM})"
            )
        used[pin] = name


def _show(value: Any) -> str:
    """A TOML-ish rendering of a bad value for messages (true/false, quoted strings)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)  # a TOML basic string: quotes and control characters escaped
    return repr(value)

"""``companion selftest``: what works on this machine, checked part by part, and said truthfully.

Each check returns a dict with ``ok`` (bool), ``required`` (bool: the configuration or the
environment asks for this part, so its failure fails the self-test) and what it found; off the Pi the
fallbacks in use are named (``fallback``). The exit status is 0 only when every required check is ok.

What counts as *required*:

- camera: with the spec ``auto`` the Pi camera or an OpenCV device passes, and so does finding
  none (``fallback`` says so, ``source`` is None: the box takes the entries by hand and says so on the
  screen); a named spec (``picamera``, ``device:0``, ``folder:DIR``) must open that source.
- GPIO: when ``GPIOZERO_PIN_FACTORY`` is set (the systemd unit sets ``lgpio``), that factory and
  every configured pin must work; unset, the mock-pin fallback is reported and passes.
- display: when ``SDL_VIDEODRIVER`` is set or ``[display] fullscreen = true``, SDL must start a video
  driver; otherwise the headless fallback (SDL's dummy driver) is reported and passes.
- paths: the state directory must be writable (it is created if missing, as the app would); the
  config file must load when present (the config directory itself is read-only under systemd).
- store: when the store file exists, SQLite's ``PRAGMA integrity_check`` must say ``ok``, the schema
  must be the box's, and every saved game must read and replay (:func:`check_store`).
- dice reader: always required. Its settings and model files (``assets/dice_model``) must load
  (:func:`check_dice_reader`): one missing or unreadable is a broken install.
- hints: never required. How many times slower than the development machine this one runs the
  advisors (:func:`companion.hints.speed.speed_factor`), against ``[hints] speed_factor``: a warning when
  the configured factor is off by more than half, saying what to set (the box still answers within its
  deadline; it searches less, or waits longer, than it should).
"""

from __future__ import annotations

import json
import logging
import os
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from companion.app.devices import HEADLESS_DRIVERS
from companion.config import Config, load_config
from companion.errors import (CameraError, CompanionError, ConfigError, NoCameraFound, PinFactoryError,
    StateDirError, StoreError, UserError)
from companion.paths import AppPaths, ensure_state_dir, resolve
from companion.stats import game_summary
from companion.store import Store, file_problem
from hardware import make_pin_factory
from vision.camera import open_camera
from vision.dice import CALIBRATION_FILE, dice_left_on, load_calibration
from vision.dice.networks import DiceNetworks, model_dir
from vision.dice.params import PARAMS_FILE, load_params
from vision.errors import VisionError

log = logging.getLogger(__name__)

DEFAULT_FRAMES = 10


def _error_text(error: BaseException) -> str:
    return f"{type(error).__name__}: {error}"


def check_camera(spec: str, frames: int = DEFAULT_FRAMES, frames_per_photo: int = 4,
                 opener: Callable[..., Any] | None = None) -> dict[str, Any]:
    """Open the camera ``spec`` names and read ``frames`` (>= 2) frames.

    Returns ``{"ok", "required", "spec", "source", "fallback", "frame_size": [w, h], "frames", "fps",
    "error"}``; ``fps`` is frames per second measured from the second frame to the last (None when
    fewer than two frames came). With ``auto`` and no camera at all, ``source`` is None, ``fallback``
    true and the check passes (the box then takes entries by hand, and says so); a named spec that
    does not open fails.
    """
    opener = opener or open_camera
    result: dict[str, Any] = {"ok": False, "required": True, "spec": spec, "source": None, "fallback": False,
                              "frame_size": None, "frames": 0, "fps": None, "error": None}
    try:
        camera = opener(spec, frames_per_photo=frames_per_photo)
    except NoCameraFound as error:
        result.update(ok=True, required=False, fallback=True, error=_error_text(error))
        return result
    except (CameraError, OSError, ValueError) as error:
        result["error"] = _error_text(error)
        return result
    with camera:
        result["source"] = camera.name
        first = camera.read()
        if first is None:
            result["error"] = "the source gave no frame"
            return result
        height, width = first.shape[:2]
        result["frame_size"] = [int(width), int(height)]
        count, started = 1, time.perf_counter()
        for _ in range(max(1, frames - 1)):
            if camera.read() is None:
                break
            count += 1
        elapsed = time.perf_counter() - started
        result["frames"] = count
        result["fps"] = round((count - 1) / elapsed, 1) if count > 1 and elapsed > 0 else None
    result["ok"] = True
    return result


def check_gpio(config: Config, env: Mapping[str, str] = os.environ,
               factory_maker: Callable[[Mapping[str, str]], Any] | None = None) -> dict[str, Any]:
    """Start the pin factory as the app would and claim each configured pin once, one at a time.

    Returns ``{"ok", "required", "env", "pin_factory", "fallback", "error", "pins": [{"name", "kind",
    "pin", "ok", "error"}]}``; ``fallback`` is true for the mock factory chosen because lgpio did not
    work (no ``GPIOZERO_PIN_FACTORY``). Buttons are claimed as inputs with the pull-up, LEDs as outputs.
    """
    from gpiozero import LED
    from gpiozero import Button as GpioButton


    requested = env.get("GPIOZERO_PIN_FACTORY", "").strip().lower()
    result: dict[str, Any] = {"ok": False, "required": bool(requested) and requested != "mock",
                              "env": requested or None, "pin_factory": None, "fallback": False, "error": None,
                              "pins": []}
    try:
        factory = (factory_maker or make_pin_factory)(env)
    except PinFactoryError as error:
        result["error"] = str(error)
        return result
    name = type(factory).__name__
    result["pin_factory"] = name
    result["fallback"] = not requested and name.startswith("Mock")
    named = [(b.value, "button", pin) for b, pin in config.buttons.pins.items()]
    named += [(f"seat{i + 1}", "led", pin) for i, pin in enumerate(config.leds.seats)]
    named.append(("status", "led", config.leds.status))
    try:
        for label, kind, pin in named:
            entry: dict[str, Any] = {"name": label, "kind": kind, "pin": pin, "ok": True, "error": None}
            try:
                device = (GpioButton(pin, pull_up=True, pin_factory=factory) if kind == "button"
                          else LED(pin, pin_factory=factory))
                device.close()
            except Exception as error:  # gpiozero raises many kinds (GPIOPinInUse, PinInvalidPin, OSError)
                entry["ok"], entry["error"] = False, _error_text(error)
            result["pins"].append(entry)
    finally:
        close = getattr(factory, "close", None)
        if close is not None:
            close()
    result["ok"] = all(p["ok"] for p in result["pins"])
    return result


HARMLESS_SDL_LINES = {"wayland": ("XDG_RUNTIME_DIR is invalid or not set in the environment",)}
"""Video driver -> lines SDL's C code writes to standard error while it probes that driver, which say
nothing when that driver was not asked for: without ``SDL_VIDEODRIVER``, SDL tries Wayland first, and
off a desktop session (a console, SSH, systemd) Wayland's library prints the XDG_RUNTIME_DIR line before
SDL moves on to the next driver."""


@contextmanager
def filtered_native_stderr(requested: str | None = None) -> Iterator[None]:
    """Catch what is written to file descriptor 2 in the block (by C code such as SDL's, and by Python)
    and write it back afterwards without the :data:`HARMLESS_SDL_LINES` of the drivers other than
    ``requested`` (the ``SDL_VIDEODRIVER`` asked for, whose messages explain its failure and are kept).

    Every other line comes back unchanged and in order, also when the block raises; nothing is caught
    when standard error has no file descriptor.
    """
    harmless = tuple(line for driver, lines in HARMLESS_SDL_LINES.items() if driver != requested for line in lines)
    try:
        sys.stderr.flush()
        saved = os.dup(2)
    except (OSError, ValueError, AttributeError):
        yield
        return
    with tempfile.TemporaryFile() as caught:
        os.dup2(caught.fileno(), 2)
        try:
            yield
        finally:
            try:
                sys.stderr.flush()
            except (OSError, ValueError, AttributeError):
                pass
            os.dup2(saved, 2)
            os.close(saved)
            caught.seek(0)
            kept = [line for line in caught.read().splitlines(keepends=True)
                    if not any(text.encode() in line for text in harmless)]
            if kept:
                os.write(2, b"".join(kept))


def check_display(config: Config, env: Mapping[str, str] = os.environ) -> dict[str, Any]:
    """Start SDL's video subsystem as the app would (with ``env``'s ``SDL_VIDEODRIVER``) and report
    the driver it chose.

    Returns ``{"ok", "required", "requested", "driver", "screen", "fallback", "desktop_size": [w, h],
    "fullscreen", "error"}``. ``requested`` is ``SDL_VIDEODRIVER`` (None when unset); ``screen`` is
    false for SDL's memory-only drivers (dummy, offscreen), which are then named in ``fallback``
    unless they were asked for. A required display (driver requested, or full screen configured)
    passes only with the requested driver, or with a real screen. Nothing is drawn; the subsystem is
    shut down again. SDL's harmless probing messages are kept off standard error
    (:func:`filtered_native_stderr`); its other messages pass through.
    """
    import pygame

    requested = env.get("SDL_VIDEODRIVER") or None
    required = bool(requested) or config.display.fullscreen
    result: dict[str, Any] = {"ok": False, "required": required, "requested": requested, "driver": None,
                              "screen": False, "fallback": None, "desktop_size": None,
                              "fullscreen": config.display.fullscreen, "error": None}
    saved = os.environ.get("SDL_VIDEODRIVER")
    if requested:
        os.environ["SDL_VIDEODRIVER"] = requested
    else:
        os.environ.pop("SDL_VIDEODRIVER", None)
    try:
        with filtered_native_stderr(requested):
            pygame.display.init()
        driver = pygame.display.get_driver()
        sizes = pygame.display.get_desktop_sizes()
        result["driver"] = driver
        result["desktop_size"] = list(sizes[0]) if sizes else None
        result["screen"] = driver not in HEADLESS_DRIVERS
        if not result["screen"] and driver != requested:
            result["fallback"] = driver
        result["ok"] = result["screen"] or driver == requested or not required
        if not result["ok"]:
            result["error"] = f"SDL chose {driver}, which shows nothing on a screen"
    except pygame.error as error:
        result["error"] = str(error)
        if not required:
            result["fallback"] = "dummy"  # the app then runs headless (companion.app.loop.display_available)
            result["ok"] = True
    finally:
        pygame.display.quit()
        if saved is None:
            os.environ.pop("SDL_VIDEODRIVER", None)
        else:
            os.environ["SDL_VIDEODRIVER"] = saved
    return result


def _writable(directory: Path) -> bool:
    try:
        with tempfile.NamedTemporaryFile(dir=directory, prefix=".selftest-"):
            return True
    except OSError:
        return False


def check_paths(paths: AppPaths) -> dict[str, Any]:
    """The state and config locations: whether the state directory can be created and written, whether
    the config directory is writable (usually not, under systemd), and whether the config file loads.

    Returns ``{"ok", "required", "state_dir", "state_writable", "config_dir", "config_dir_writable",
    "config_file", "config_exists", "config_ok", "error"}``.
    """
    result: dict[str, Any] = {"ok": False, "required": True, "state_dir": str(paths.state_dir),
                              "state_writable": False, "config_dir": str(paths.config_dir),
                              "config_dir_writable": paths.config_dir.is_dir() and _writable(paths.config_dir),
                              "config_file": str(paths.config_file), "config_exists": paths.config_file.is_file(),
                              "config_ok": False, "error": None}
    try:
        ensure_state_dir(paths)
        result["state_writable"] = _writable(paths.state_dir)
    except StateDirError as error:
        result["error"] = str(error)
    try:
        load_config(paths.config_file)
        result["config_ok"] = True
    except ConfigError as error:
        result["error"] = str(error)
    result["ok"] = result["state_writable"] and result["config_ok"]
    return result


def check_store(paths: AppPaths) -> dict[str, Any]:
    """The store, when it exists (a missing store is made at first start): SQLite's integrity check, the
    schema (every table and column the box uses), and every saved game's row and event log replayed
    under its game's rules, as a resumed game, History and ``stats`` would.

    Returns ``{"ok", "required", "file", "exists", "integrity", "schema_version", "games", "damaged",
    "error"}``: ``games`` the saved games checked, ``damaged`` one line for each that cannot be read or
    replayed (the box resumes such a game from its last good event, and lists and History leave out a
    game whose row cannot be read; the line says which). ``ok`` when the integrity is ``ok`` and nothing
    is damaged.
    """
    file = paths.store_file
    result: dict[str, Any] = {"ok": False, "required": True, "file": str(file), "exists": file.is_file(),
                              "integrity": None, "schema_version": None, "games": 0, "damaged": [], "error": None}
    problem = file_problem(file)
    if problem:  # a directory where the file belongs, a first write cut short: the box moves it aside
        result["exists"] = True
        result["error"] = f"{problem}; the box moves it aside at its next start and starts a new store"
        return result
    if not result["exists"]:
        result["ok"] = True
        return result
    try:
        with Store(file) as store:
            result["integrity"] = store.integrity_check()
            result["schema_version"] = store.schema_version
            records = store.unfinished_games() + store.finished_games()
            result["games"] = len(records) + len(store.skipped)
            result["damaged"] = list(store.skipped.values())
            for record in sorted(records, key=lambda r: r.id):
                try:
                    game_summary(store, record.id)
                except CompanionError as error:  # a row that does not read or replay, a game of a newer box
                    text = str(error)
                    result["damaged"].append(text if text.startswith(str(file)) else f"{file}: game {record.id}: {text}")
    except StoreError as error:
        result["error"] = str(error)
        return result
    result["ok"] = result["integrity"] == "ok" and not result["damaged"]
    if result["damaged"]:
        result["error"] = (f"{len(result['damaged'])} saved game(s) cannot be read or replayed to the end (below): "
                           f"a game whose event cannot be replayed resumes from its last good event; one whose "
                           f"row cannot be read is left out; the rows stay in the file")
    return result


def check_dice_reader(folder: Path | None = None) -> dict[str, Any]:
    """The dice reader's settings and model files (``assets/dice_model``, or ``folder``), loaded afresh.

    Returns ``{"ok", "required": True, "folder", "error"}``; ``error`` is the one line that names the file
    that is missing or cannot be read (a broken install: reinstall the box), else None."""
    folder = Path(folder) if folder else model_dir()
    result: dict[str, Any] = {"ok": False, "required": True, "folder": str(folder), "error": None}
    try:
        DiceNetworks.load(load_params(folder / PARAMS_FILE), folder)
    except VisionError as error:
        result["error"] = str(error)
        return result
    result["ok"] = True
    return result


def check_dice_calibration(paths: AppPaths, frame_size: list[int] | None) -> dict[str, Any]:
    """The dice calibration of ``companion calibrate dice`` in the state directory, if any, and whether it
    was made for the camera's frames (``frame_size`` [w, h], None when the camera gave none), and the values
    of the dice the reader is sure it sees on the stored empty play area (a die left there during the
    calibration would never be read there). Not required (the reader works without one) and ``ok`` only when
    there is one that fits with no die on it: the report then says what to do.

    Returns ``{"ok", "required", "file", "exists", "frame_size": [w, h] or None, "fits", "dice_seen": [values],
    "error"}``.
    """
    import cv2


    file = paths.state_dir / CALIBRATION_FILE
    result: dict[str, Any] = {"ok": False, "required": False, "file": str(file), "exists": file.is_file(),
                              "frame_size": None, "fits": None, "dice_seen": [], "error": None}
    if not result["exists"]:
        return result
    calibration = load_calibration(paths.state_dir)
    if calibration is None:
        result["error"] = "unreadable: calibrate again"
        return result
    height, width = calibration.frame_shape
    result["frame_size"] = [int(width), int(height)]
    if frame_size is not None:
        result["fits"] = result["frame_size"] == list(frame_size)
    result["dice_seen"] = dice_left_on(cv2.cvtColor(calibration.background, cv2.COLOR_Lab2BGR))
    result["ok"] = result["fits"] is True and not result["dice_seen"]
    return result


SPEED_TOLERANCE = 1.5
"""``[hints] speed_factor`` is taken as right within this ratio of the measured factor (either way)."""


def check_hints(config: Config, measure: Callable[[], float] | None = None) -> dict[str, Any]:
    """How fast this machine runs the advisors: ``measure()`` (default
    :func:`companion.hints.speed.reference_ms`, about 0.1 s here and 0.5 s on a Pi 4, after the tables
    are built) against the development machine's time for the same work.

    Returns ``{"ok", "required", "reference_ms", "ms", "factor", "speed_factor", "deadline_ms", "load",
    "error"}``: ``factor`` the measured factor (2 decimals), ``speed_factor`` the configured one,
    ``deadline_ms`` the deadline a hint gets here (``[hints] deadline_ms`` x ``speed_factor``), ``load`` the
    1-minute load average while measured (other work makes the factor too high). ``ok`` when the
    configured factor is within :data:`SPEED_TOLERANCE` of the measured one; never required.
    """
    from companion.hints.speed import REFERENCE_MS, reference_ms

    result: dict[str, Any] = {"ok": False, "required": False, "reference_ms": REFERENCE_MS, "ms": None,
                              "factor": None, "speed_factor": config.hints.speed_factor,
                              "deadline_ms": round(config.hints.deadline, 1), "load": None, "error": None}
    try:
        result["load"] = round(os.getloadavg()[0], 2)
    except OSError:
        pass
    try:
        ms = (measure or reference_ms)()
    except Exception as error:  # a bug in the advisors must not stop the other checks
        log.exception("the advisors' speed could not be measured")
        result["error"] = _error_text(error)
        return result
    result["ms"] = round(ms, 1)
    result["factor"] = round(ms / REFERENCE_MS, 2)
    ratio = config.hints.speed_factor / (ms / REFERENCE_MS)
    result["ok"] = 1 / SPEED_TOLERANCE <= ratio <= SPEED_TOLERANCE
    return result


def run_selftest(env: Mapping[str, str] = os.environ, frames: int = DEFAULT_FRAMES,
                 camera_opener: Callable[..., Any] | None = None,
                 factory_maker: Callable[[Mapping[str, str]], Any] | None = None) -> dict[str, Any]:
    """All checks: ``{"ok", "failed": [names], "camera", "gpio", "display", "paths", "store",
    "dice_reader", "dice_calibration", "hints"}``.

    ``ok`` is true when every check with ``required`` true has ``ok`` true; ``failed`` names the ones
    that failed (required or not, the latter only for information). A bad config file fails ``paths``
    and the other checks then use the defaults.
    """
    paths = resolve(env)
    try:
        config = load_config(paths.config_file)
    except ConfigError:
        config = Config()
    camera = check_camera(config.camera.spec, frames, config.session.frames_per_photo, camera_opener)
    report: dict[str, Any] = {
        "camera": camera,
        "gpio": check_gpio(config, env, factory_maker),
        "display": check_display(config, env),
        "paths": check_paths(paths),
        "store": check_store(paths),
        "dice_reader": check_dice_reader(),
        "dice_calibration": check_dice_calibration(paths, camera["frame_size"]),
        "hints": check_hints(config),
    }
    failed = [name for name, part in report.items() if part["required"] and not part["ok"]]
    return {"ok": not failed, "failed": failed, **report}


def _summary(report: dict[str, Any]) -> list[str]:
    camera, gpio, display = report["camera"], report["gpio"], report["display"]
    paths, store, dice = report["paths"], report["store"], report["dice_calibration"]
    hints, reader = report["hints"], report["dice_reader"]

    def mark(part: dict[str, Any]) -> str:
        return "ok  " if part["ok"] else ("FAIL" if part["required"] else "warn")

    lines = [
        f"{mark(camera)} camera: {camera['source'] or ('none found, entries by hand' if camera['fallback'] else camera['spec'])}"
        + (f", {camera['frame_size'][0]}x{camera['frame_size'][1]}" if camera["frame_size"] else "")
        + (f", {camera['fps']} fps" if camera["fps"] else "")

        + (f" - {camera['error']}" if camera["error"] else ""),
        f"{mark(gpio)} gpio: {gpio['pin_factory'] or gpio['env']}" + (" (fallback: mock pins)" if gpio["fallback"] else "")
        + (f" - {gpio['error']}" if gpio["error"] else ""),
        *[f"       {p['kind']} {p['name']}: BCM {p['pin']} {'ok' if p['ok'] else p['error']}" for p in gpio["pins"]],
        f"{mark(display)} display: {display['driver'] or 'none'}"
        + (f" (fallback: {display['fallback']})" if display["fallback"] else "")
        + (f" - {display['error']}" if display["error"] else ""),
        f"{mark(paths)} state {paths['state_dir']} ({'writable' if paths['state_writable'] else 'NOT writable'}), "
        f"config {paths['config_file']} ({'present' if paths['config_exists'] else 'absent: defaults'})"
        + (f" - {paths['error']}" if paths["error"] else ""),
        f"{mark(store)} store {store['file']}: "
        + (f"integrity {store['integrity']}, {store['games']} saved games" if store["integrity"] else "")
        + (f" - {store['error']}" if store["error"] else "")
        + "".join(f"\n       {line}" for line in store["damaged"]) if store["exists"]
        else f"{mark(store)} store: not created yet",
        f"{mark(reader)} dice reader: {reader['folder']}" + (f" - {reader['error']}" if reader["error"] else ""),
        f"{mark(dice)} dice calibration: "
        + (f"{dice['file']} ({dice['frame_size'][0]}x{dice['frame_size'][1]})" if dice["frame_size"] else
           dice["error"] or "none (companion calibrate dice: the reader then ignores the table's print)")
        + (" - made for other frames than the camera's: calibrate again" if dice["fits"] is False else "")
        + (f" - dice on it ({' '.join(map(str, dice['dice_seen']))}): calibrate again with the play area clear"
           if dice["dice_seen"] else ""),
        f"{mark(hints)} hints: " + (f"not measured - {hints['error']}" if hints["error"] else
                                    f"{hints['factor']:g} x the development machine's time "
                                    f"({hints['ms']:g} ms against {hints['reference_ms']:g} ms"
                                    + (f", load {hints['load']:g}" if hints["load"] is not None else "") + "); "
                                    f"[hints] speed_factor = {hints['speed_factor']:g}: a hint searches up to "
                                    f"{hints['deadline_ms']:g} ms"
                                    + ("" if hints["ok"] else f" - set [hints] speed_factor = {hints['factor']:g}")),
        "self-test passed" if report["ok"] else f"self-test FAILED: {', '.join(report['failed'])}",
    ]
    return lines


def selftest_command(args: Any, env: Mapping[str, str] | None = None) -> int:
    """``companion selftest [--json] [--frames N]``: print the report; exit 0 when it passed, else 1."""
    if args.frames < 2:
        raise UserError(f"--frames must be at least 2, not {args.frames}")
    report = run_selftest(os.environ if env is None else env, frames=args.frames)
    if args.json:
        print(json.dumps(report))
    else:
        print("\n".join(_summary(report)))
    return 0 if report["ok"] else 1

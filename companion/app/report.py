"""``companion report``: one archive to attach to a bug report about a box that misbehaves.

The archive (``.tar.gz``, or ``.zip`` when the file name ends so; standard library only) holds:

- ``versions.txt``: the project, Python, the OS and each library the box uses, read with
  :mod:`importlib.metadata` (apt's OpenCV has no metadata: ``cv2.__version__``);
- ``selftest.txt`` and ``selftest.json``: ``companion selftest`` run in place (what failed, if it fails);
- ``config.toml``: the config file in use, when there is one;
- ``state-files.txt``: the names and sizes of the files in the state directory (names only);
- ``logs/``: the box's log files in the state directory (``errors.log``, the tracebacks of bugs; their
  last :data:`LOG_TAIL_BYTES`);
- ``journal.txt``: ``journalctl -u tabletop-companion -n 2000``, only where systemd runs.

Never the saved games: no store file (``*.sqlite3*``, its moved-aside copies) nor calibration goes in.
"""

from __future__ import annotations

import importlib
import importlib.metadata as metadata
import io
import json
import os
import platform
import shutil
import stat
import subprocess
import tarfile
import tempfile
import time
import traceback
import zipfile
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from companion.errors import UserError
from companion.paths import AppPaths, resolve

PROJECT = "tabletop-companion"
UNIT = "tabletop-companion.service"
JOURNAL_LINES = 2000
LOG_TAIL_BYTES = 256 * 1024
"""The most of each log file put in the archive (its end: the last errors)."""
SYSTEMD_RUN_DIR = Path("/run/systemd/system")
"""Present only where systemd is the running init (not in a chroot, a container or off Linux)."""

LIBRARIES: tuple[tuple[str, str, bool], ...] = (
    ("numpy", "numpy", False),
    ("opencv", "cv2", True),
    ("pygame", "pygame", False),
    ("gpiozero", "gpiozero", False),
    ("lgpio", "lgpio", False),
    ("picamera2", "picamera2", False),
    ("scipy", "scipy", False),
    ("babel", "babel", False),
    ("platformdirs", "platformdirs", False),
)
"""(name shown, import name, whether to import it when it has no metadata). OpenCV's metadata is that of
the pip wheel (opencv-python-headless and its kin); apt's python3-opencv has none, so ``cv2`` is asked."""
OPENCV_DISTRIBUTIONS = ("opencv-python-headless", "opencv-python", "opencv-contrib-python-headless",
                        "opencv-contrib-python")


def _version(*distributions: str) -> str | None:
    """The installed version of the first of ``distributions`` that has metadata, or None."""
    for name in distributions:
        try:
            return metadata.version(name)
        except metadata.PackageNotFoundError:
            continue
    return None


def os_name() -> str:
    """The OS: ``PRETTY_NAME`` of ``/etc/os-release`` when there is one, then the kernel and machine."""
    pretty = None
    try:
        for line in Path("/etc/os-release").read_text(encoding="utf-8").splitlines():
            if line.startswith("PRETTY_NAME="):
                pretty = line.split("=", 1)[1].strip().strip('"')
    except OSError:
        pass
    kernel = f"{platform.system()} {platform.release()} {platform.machine()}"
    return f"{pretty} ({kernel})" if pretty else kernel


def versions() -> dict[str, str | None]:
    """The project's, Python's, the OS's and each library's version (None: not installed).

    Read with :mod:`importlib.metadata` (apt's packages have it too); only OpenCV without metadata (apt's
    python3-opencv) is imported to ask ``cv2.__version__``. Never raises.
    """
    found: dict[str, str | None] = {PROJECT: _version(PROJECT), "python": platform.python_version(),
                                    "os": os_name()}
    for shown, module, may_import in LIBRARIES:
        names = OPENCV_DISTRIBUTIONS if module == "cv2" else (shown,)
        version = _version(*names)
        if version is None and may_import:
            try:
                version = str(getattr(importlib.import_module(module), "__version__", None) or "") or None
            except Exception:  # a broken library: the report says "absent" rather than fail
                version = None
        found[shown] = version
    return found


def versions_line() -> str:
    """:func:`versions` on one line (``systemd/install.sh`` prints it after installing)."""
    return ", ".join(f"{name} {version or 'absent'}" for name, version in versions().items() if name != "os")


def _run_selftest_text(env: Mapping[str, str]) -> tuple[str, str]:
    """``companion selftest``'s text and JSON, run in place (a crash in it is written instead)."""
    from companion.app.selftest import _summary, run_selftest

    try:
        result = run_selftest(env, frames=5)
    except Exception:  # the report is made for a box that misbehaves: keep going
        text = "the self-test crashed:\n" + traceback.format_exc()
        return text, json.dumps({"ok": False, "crashed": text})
    return "\n".join(_summary(result)) + "\n", json.dumps(result, indent=2, default=str) + "\n"


def _journal(run_dir: Path = SYSTEMD_RUN_DIR) -> str | None:
    """The service's last :data:`JOURNAL_LINES` journal lines, or None where systemd does not run."""
    if not run_dir.is_dir():
        return None
    journalctl = shutil.which("journalctl")
    if journalctl is None:
        return "journalctl is not installed\n"
    try:
        done = subprocess.run([journalctl, "-u", UNIT, "-n", str(JOURNAL_LINES), "--no-pager"],
                              capture_output=True, text=True, timeout=60, errors="replace")
    except (OSError, subprocess.TimeoutExpired) as error:
        return f"journalctl failed: {error}\n"
    return done.stdout + (f"\n(journalctl exit status {done.returncode}: {done.stderr.strip()})\n"
                          if done.returncode else "")


def _is_saved_games(path: Path) -> bool:
    """True for the store and every copy of it (moved aside, its -wal and -shm): never archived."""
    return ".sqlite" in path.name


def _state_listing(paths: AppPaths) -> str:
    """The state directory's files, one a line with its size (names only, nothing read)."""
    state = paths.state_dir
    if not state.is_dir():
        return f"{state}: absent\n"
    lines = [f"{state}:"]
    try:
        entries = sorted(state.rglob("*"))
    except OSError as error:
        return f"{state}: cannot be listed ({error.strerror or error})\n"
    for entry in entries:
        try:
            size = entry.stat().st_size if entry.is_file() else "folder"
        except OSError:
            size = "?"
        lines.append(f"  {entry.relative_to(state)}  {size}")
    return "\n".join(lines) + "\n"


def _log_files(paths: AppPaths) -> dict[str, bytes]:
    """The end (:data:`LOG_TAIL_BYTES`) of each ``*.log`` file in the state directory, by name: regular files
    only, opened without following a link (the report may run as root: a ``*.log`` link to another file
    must never bring that file into the archive), each link or other thing named as left out."""
    found: dict[str, bytes] = {}
    state = paths.state_dir
    if not state.is_dir():
        return found
    for log in sorted(state.glob("*.log")):
        if _is_saved_games(log):
            continue
        try:
            fd = os.open(log, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
        except OSError as error:
            why = "a link, left out" if log.is_symlink() else f"cannot be read: {error.strerror or error}"
            found[log.name] = f"{why}\n".encode()
            continue
        with os.fdopen(fd, "rb") as handle:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                found[log.name] = b"not a regular file, left out\n"
                continue
            try:
                size = handle.seek(0, os.SEEK_END)
                handle.seek(max(0, size - LOG_TAIL_BYTES))
                found[log.name] = handle.read(LOG_TAIL_BYTES)
            except OSError as error:
                found[log.name] = f"cannot be read: {error.strerror or error}\n".encode()
    return found


def collect(paths: AppPaths, env: Mapping[str, str],
            selftest: Callable[[Mapping[str, str]], tuple[str, str]] | None = None,
            run_dir: Path = SYSTEMD_RUN_DIR) -> dict[str, bytes]:
    """The archive's members, name -> content (see the module docstring). ``selftest`` returns the
    self-test's text and JSON (default: run it here); ``run_dir`` says whether systemd runs."""
    members: dict[str, bytes] = {}
    found = versions()
    members["versions.txt"] = "".join(f"{name}: {version or 'absent'}\n" for name, version in found.items()).encode()
    text, data = (selftest or _run_selftest_text)(env)
    members["selftest.txt"] = text.encode()
    members["selftest.json"] = data.encode()
    if paths.config_file.is_file():
        try:
            members["config.toml"] = paths.config_file.read_bytes()
        except OSError as error:
            members["config.toml"] = f"# {paths.config_file} cannot be read: {error.strerror or error}\n".encode()
    else:
        members["config.toml"] = f"# no config file at {paths.config_file}: the defaults apply\n".encode()
    members["state-files.txt"] = _state_listing(paths).encode()
    for name, content in _log_files(paths).items():
        members[f"logs/{name}"] = content
    journal = _journal(run_dir)
    if journal is not None:
        members["journal.txt"] = journal.encode()
    return members


def default_name(now: float | None = None) -> str:
    """``tabletop-companion-report-YYYYMMDD-HHMMSS.tar.gz`` (local time)."""
    return f"{PROJECT}-report-{time.strftime('%Y%m%d-%H%M%S', time.localtime(now))}.tar.gz"


def output_path(given: str | os.PathLike | None, cwd: Path | None = None, force: bool = False) -> Path:
    """Where the archive goes: ``given`` (a file, or an existing folder to put :func:`default_name` in),
    else the current folder when it is writable, else the temporary folder. Raises :class:`UserError`
    naming ``--output`` when the folder does not exist or cannot be written, or when the file is there
    already (a link too) unless ``force``."""
    if given is None:
        folder = Path.cwd() if cwd is None else cwd
        if not os.access(folder, os.W_OK | os.X_OK):
            folder = Path(os.environ.get("TMPDIR") or "/tmp")
        return folder / default_name()
    shown = _echo(given)
    path = Path(given).expanduser()
    if path.is_dir() and not path.is_symlink():
        path = path / default_name()
    folder = path.parent
    if not folder.is_dir():
        raise UserError(f"--output {shown}: the folder does not exist; give a file in an existing folder")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise UserError(f"--output {shown}: the folder cannot be written; give a file in a folder you can write")
    if (path.exists() or path.is_symlink()) and not force:
        raise UserError(f"--output {shown}: the file is there already; give another name, or add --force to "
                        f"replace it")
    return path


def _echo(given: str | os.PathLike) -> str:
    """A flag's value as an error line shows it: at most 80 characters."""
    text = os.fspath(given)
    return text if len(text) <= 80 else text[:77] + "..."


def write_archive(path: Path, members: Mapping[str, bytes]) -> Path:
    """Write ``members`` as a zip (``path`` ends in ``.zip``) or a gzipped tar (otherwise) under one folder
    named after the archive; returns ``path``. The archive is made 0600 (it holds the config and the
    logs) in a new file beside ``path`` and then put in its place, so an existing ``path`` (a link too)
    is replaced, never written through. Raises :class:`UserError` naming ``--output`` when it cannot be
    written there."""
    top = path.name.removesuffix(".zip").removesuffix(".gz").removesuffix(".tgz").removesuffix(".tar")
    temporary = None
    try:
        fd, temporary = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)  # mode 0600
        with os.fdopen(fd, "wb") as handle:
            if path.suffix == ".zip":
                with zipfile.ZipFile(handle, "w", compression=zipfile.ZIP_DEFLATED) as archive:
                    for name, content in members.items():
                        archive.writestr(f"{top}/{name}", content)
            else:
                with tarfile.open(fileobj=handle, mode="w:gz") as archive:
                    stamp = time.time()
                    for name, content in members.items():
                        info = tarfile.TarInfo(f"{top}/{name}")
                        info.size, info.mtime, info.mode = len(content), stamp, 0o600
                        archive.addfile(info, io.BytesIO(content))
        os.replace(temporary, path)
    except OSError as error:
        if temporary is not None:
            Path(temporary).unlink(missing_ok=True)
        raise UserError(f"--output {_echo(path)}: cannot be written ({error.strerror or error})") from None
    return path


def make_report(output: str | os.PathLike | None = None, env: Mapping[str, str] = os.environ,
                selftest: Callable[[Mapping[str, str]], tuple[str, str]] | None = None,
                run_dir: Path = SYSTEMD_RUN_DIR, force: bool = False) -> Path:
    """Collect the report for the box ``env`` points at and write it (see :func:`output_path`; ``force``:
    replace an existing file); returns the archive's path."""
    path = output_path(output, force=force)
    return write_archive(path, collect(resolve(env), env, selftest, run_dir))


def report_command(args: Any) -> int:
    """``companion report [--output FILE] [--force]``: write the archive and print its path."""
    print(make_report(args.output, force=getattr(args, "force", False)))
    return 0

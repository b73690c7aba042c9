"""SIGTERM and SIGINT end the box within 2 s on every screen, the game saved (issue 42).

One process-wide "stop requested" flag. :func:`on_signals` (a context manager around ``companion
play``, ``companion demo`` and ``companion menu``: :func:`companion.app.play.play`,
:func:`companion.app.menu.menu_command`) installs handlers for SIGTERM and SIGINT once; a signal sets the
flag, and every screen's loop (:func:`companion.app.loop.run_loop`: a game, its How to play, its summary,
the notices, History's replay; the menu's own loop, with its History list and Language screen) checks
:func:`requested` each tick and returns, and so does every caller, all the way out: nothing opens another
screen after it (no summary after a game, no menu after a replay). Every press the players made is in the
store already (a press is stored before the screen changes), so ending is saving; the devices are closed
as on a quit.

- **systemd** stops the service with SIGTERM (``systemctl stop``, a shutdown): the box ends with exit
  status 0, as after a quit, so the unit is not counted as failed.
- **SIGINT** (Ctrl-C) ends it the same way, then :func:`on_signals` raises ``KeyboardInterrupt``, which
  the command line turns into exit status 130, as for any command interrupted.
- SIGINT is taken even when the parent had it ignored (a script's background job): the box must end
  on both signals.

Before, SDL turned SIGTERM into a window-close event that only the loop polling the window saw, and
SIGINT raised ``KeyboardInterrupt`` wherever the main thread was. Our handlers are installed before the
window is opened, so SDL leaves them alone (it takes a signal only when its handler is the default).

**Blocking waits.** A Python signal handler runs only when the main thread is back in Python, which a
camera stuck in ``read`` (OpenCV, picamera2) or any other blocking call may never be. So the handlers
also write to a wakeup socket (``signal.set_wakeup_fd``), read by a watcher thread: it sets the flag at
once (waking the loops' sleeps, :func:`sleep`), and when the process has not ended :data:`GRACE_S`
seconds after the signal, it logs where the main thread was stuck and ends the process with
``os._exit`` and the same exit status (0 or 130). Nothing is lost by that: the store holds every
accepted press in its own committed transaction (SQLite rolls an unfinished one back at the next
start, as after a power cut; ``companion bench crash`` checks this with SIGKILL; the store's ``flock``
goes with the process).

**The way out.** Once the command has returned (the store closed, the devices closed, the demo's
temporary folder removed), ``companion.cli.main`` ends the process at once with
:func:`exit_now_if_signalled`: the interpreter's teardown of its modules (numpy, OpenCV, scipy, Pygame)
takes ~0.5 s on the development machine, more on a Pi, and would eat most of the 2 s.
"""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import socket
import sys
import threading
import traceback
from collections.abc import Iterator

log = logging.getLogger(__name__)

SIGNALS = (signal.SIGTERM, signal.SIGINT)
"""The signals that end the box."""

GRACE_S = 1.5
"""Seconds the box has to wind down after a signal before the watcher thread ends the process."""

EXIT_STATUS = {signal.SIGTERM: 0, signal.SIGINT: 130}
"""The exit status after each signal (docs/CLI.md): 0 as after a quit, 130 as for Ctrl-C anywhere."""

_event = threading.Event()  # set by the watcher thread (never by the handler: see _on_signal)
_signum: int | None = None  # the first signal received (None: no stop requested)
_depth = 0  # nesting of on_signals()
_received: int | None = None  # the first signal this process received (kept by reset(): exit_now_if_signalled)


def requested() -> bool:
    """True once a stop was requested (a signal, or :func:`request`): every screen's loop returns."""
    return _signum is not None or _event.is_set()


def signal_name() -> str:
    """The name of the signal that asked for the stop ("SIGTERM"), or "" for none."""
    return signal.Signals(_signum).name if _signum is not None else ""


def request(signum: int = signal.SIGTERM) -> None:
    """Ask for the stop as ``signum`` would (tests; the watcher thread)."""
    global _signum
    if _signum is None:
        _signum = int(signum)
    _event.set()


def reset() -> None:
    """Forget a stop request (tests, and :func:`on_signals` when its outermost use ends)."""
    global _signum
    _signum = None
    _event.clear()


def sleep(seconds: float) -> None:
    """Wait ``seconds`` (a loop's rest between ticks), or less: a stop request ends the wait at once."""
    if seconds > 0 and not requested():
        _event.wait(seconds)


def _on_signal(signum: int, frame: object) -> None:
    """The Python-level handler (main thread, between two bytecodes). It only records the signal: the
    main thread may hold the event's lock right now, so setting the event is the watcher thread's job."""
    global _signum, _received
    if _signum is None:
        _signum = signum
    if _received is None:
        _received = signum


def _flush() -> None:
    for handler in logging.getLogger().handlers:
        with contextlib.suppress(Exception):
            handler.flush()
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()


def exit_now_if_signalled(status: int) -> int:
    """``status``, or, when a signal ended the box in this process (its devices closed, its store
    closed: the command has returned), end the process now with it: the interpreter's teardown of its
    modules would take ~0.5 s here and more on a Pi, out of the 2 s (``companion.cli.main`` calls it)."""
    if _received is None:
        return status
    _flush()
    os._exit(status)


def default_signals() -> None:
    """SIGTERM and SIGINT as the system has them (ending the process): a forked pool worker's
    initializer. A worker that inherited this module's handler would only record the SIGTERM of its
    pool's ``terminate()`` while it waits for work, and the pool would wait for it for ever."""
    for signum in SIGNALS:
        signal.signal(signum, signal.SIG_DFL if signum == signal.SIGTERM else signal.default_int_handler)


def take_signals_early() -> None:
    """Record SIGTERM and SIGINT from now on, before the box's modules are imported (issue 52: a SIGTERM
    in the first second, while numpy, OpenCV and Pygame load, killed it with status 143): called by
    ``companion.cli.main`` first thing for ``play``, ``demo`` and ``menu``. :func:`on_signals` keeps a
    signal recorded here, so the first screen's loop returns at once, the store as it was, exit status 0
    (SIGTERM) or 130 (SIGINT). Outside the main thread it does nothing."""
    global _early
    if threading.current_thread() is not threading.main_thread():
        return
    for signum in SIGNALS:
        signal.signal(signum, _on_signal)
    _early = True


_early = False  # take_signals_early() ran: on_signals keeps what it recorded


class _Watcher:
    """The wakeup socket and the thread that reads it: the flag set at once, the process ended when it
    has not ended :data:`GRACE_S` seconds after the signal."""

    def __init__(self) -> None:
        self.receive, self.send = socket.socketpair()
        self.send.setblocking(False)
        self.thread = threading.Thread(target=self._run, name="companion-stop", daemon=True)

    def _run(self) -> None:
        armed = False
        while True:
            try:
                data = self.receive.recv(64)
            except OSError:
                data = b""
            if not data:  # the sending end is closed: on_signals has ended
                with contextlib.suppress(OSError):
                    self.receive.close()
                return
            for signum in data:
                if signum in (int(s) for s in SIGNALS) and not armed:
                    armed = True
                    _on_signal(signum, None)  # as the handler would (it may not have run yet)
                    _event.set()  # wakes the loops' sleeps
                    log.info("%s: the box ends (every accepted press is stored)", signal.Signals(signum).name)
                    threading.Thread(target=_deadline, args=(signum,), name="companion-stop-deadline",
                                     daemon=True).start()

    def close(self) -> None:
        """Close the sending end: the thread reads the signals still buffered, then ends (and closes its end)."""
        with contextlib.suppress(OSError):
            self.send.close()


def _deadline(signum: int) -> None:
    """After :data:`GRACE_S` seconds the process still runs: log where the main thread is, end it."""
    threading.Event().wait(GRACE_S)
    status = EXIT_STATUS.get(signal.Signals(signum), 0)
    frame = sys._current_frames().get(threading.main_thread().ident)
    where = "".join(traceback.format_stack(frame, limit=3)).strip().replace("\n", " | ") if frame else "?"
    log.error("%s: the box did not end within %.1f s (the main thread waits in: %s); ending it now, exit status %d",
              signal.Signals(signum).name, GRACE_S, where, status)
    _flush()
    os._exit(status)


@contextlib.contextmanager
def on_signals() -> Iterator[None]:
    """Within it, SIGTERM and SIGINT request the stop (module docstring); on leaving it, a SIGINT raises
    ``KeyboardInterrupt`` (exit status 130). Nested uses share the outermost one's handlers. Outside the
    main thread (where Python cannot take signals) it does nothing. Once a signal came, the watcher keeps
    watching after it ends: the process ends within :data:`GRACE_S` seconds of the signal, however slowly
    its devices close."""
    global _depth
    if _depth or threading.current_thread() is not threading.main_thread():
        _depth += 1
        try:
            yield
        finally:
            _depth -= 1
        return
    early = _signum if _early else None  # a signal taken before the box's modules were loaded
    reset()
    if early is not None:
        request(early)
    watcher = _Watcher()
    previous = {signum: signal.signal(signum, _on_signal) for signum in SIGNALS}
    old_fd = signal.set_wakeup_fd(watcher.send.fileno(), warn_on_full_buffer=False)
    watcher.thread.start()
    _depth += 1
    try:
        yield
    finally:
        _depth -= 1
        signum = _signum
        signal.set_wakeup_fd(old_fd)
        for sig, handler in previous.items():
            signal.signal(sig, handler if handler is not None else signal.SIG_DFL)
        watcher.close()  # its thread reads what is left, then ends; a signal's deadline thread keeps running
        reset()
    if signum == signal.SIGINT:
        raise KeyboardInterrupt

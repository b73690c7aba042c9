"""Where player commands come from: the keyboard, the GPIO buttons, a script file, or several at once.

Every source has the same small interface (:class:`InputSource`): ``poll()`` returns the commands that
arrived since the last call and never blocks; ``exhausted`` says a source will never give anything more
(only a script ends); ``close()`` frees what the source holds. The main loop polls once per frame.
``poll(script_allowed=False)`` pauses scripts for that poll (the app feeds a script only while the box
waits for the players, so a script replays the same way at any speed); keys and buttons always count.

Input specs (``--input``): ``keys``, ``gpio``, ``script:FILE``, several joined with ``+``
(``keys+gpio``, ``script:demo.script+keys``; so FILE cannot contain ``+``); see :func:`open_input`.

Script files (:class:`ScriptInput`): one command a line, as :meth:`Command.parse` reads it (the button
names ``confirm``, ``bank``, ``pass``, ``next``, ``undo``, ``menu``, and ``dice 3 4 3 4``,
``choose N``, ``set DIE VALUE``, ``add VALUE``, ``remove DIE``, ``up``, ``quit``). ``#`` starts a
comment; blank lines are ignored. ``wait N`` (N >= 0, default 1) makes the next N polls return nothing,
so frames can pass (e.g. for the dice to be read as stable) before the next command. Each poll delivers
at most one command; a paused poll (``script_allowed=False``) delivers nothing and does not count
toward a ``wait``.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, overload

import pygame

from companion.commands import Button, Command
from companion.config import ButtonsConfig
from companion.errors import ScriptError, UserError, echo
from companion.i18n import _
from hardware import ButtonPanel, make_pin_factory
from hardware.buttons import HOLDS

if TYPE_CHECKING:
    from companion.config import ButtonsConfig
    from hardware import ButtonPanel

logger = logging.getLogger(__name__)


class InputSource(Protocol):
    """What the main loop reads commands from."""

    @property
    def exhausted(self) -> bool:
        """True once the source will never give another command."""

    def poll(self, script_allowed: bool = True) -> list[Command]:
        """The commands that arrived since the last poll, oldest first (often none); never blocks.

        ``script_allowed`` False pauses script sources for this poll; other sources ignore it.
        """

    def close(self) -> None:
        """Free what the source holds (pins, files); safe to call twice."""


# --- scripts ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Step:
    """One script line: a ``command`` to deliver, or (``command`` None) a ``wait`` of that many polls."""

    line: int
    command: Command | None = None
    wait: int = 0


# (fewest, most) payload numbers per command; None: no upper limit.
_ARITY: dict[Button, tuple[int, int | None]] = {
    Button.DICE: (1, None),
    Button.CHOOSE: (1, 1),
    Button.SET: (2, 2),
    Button.ADD: (1, 1),
    Button.REMOVE: (1, 1),
}


def _check_arity(command: Command) -> None:
    low, high = _ARITY.get(command.button, (0, 0))
    count = len(command.args)
    if count < low or (high is not None and count > high):
        if high == 0:
            wanted = "no numbers"
        elif high is None:
            wanted = f"at least {low} number(s)"
        else:
            wanted = f"{low} number(s)" if low == high else f"{low}-{high} numbers"
        raise ValueError(f"{command.button.value!r} takes {wanted}, got {count}")
    if any(arg < 0 for arg in command.args):
        raise ValueError(f"numbers must not be negative: {command}")


def parse_script(text: str, source: str = "<script>") -> tuple[Step, ...]:
    """Parse a script's text (see the module docstring) into steps.

    ``source`` names the file in errors. Raises :class:`ScriptError` ``"SOURCE:LINE: ..."`` for an
    unknown command, non-integer or negative numbers, the wrong count of numbers for a command, or a
    bad ``wait``.
    """
    steps = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        words = line.split()
        try:
            if words[0].lower() == "wait":
                if len(words) > 2 or (len(words) == 2 and not words[1].isdigit()):
                    raise ValueError(f"'wait' takes one whole number of polls (>= 0), got {echo(line)}")
                steps.append(Step(number, wait=int(words[1]) if len(words) == 2 else 1))
                continue
            command = Command.parse(line)
            _check_arity(command)
        except ValueError as error:
            raise ScriptError(f"{source}:{number}: {error}") from None
        steps.append(Step(number, command=command))
    return tuple(steps)


class ScriptInput:
    """Commands read from a script file (format in the module docstring), one per poll.

    The whole file is read and checked when the object is made, so a bad line fails before the game
    starts: :class:`ScriptError` naming the file and line (or the file when it cannot be read).
    :attr:`last_line` is the line number of the last delivered command, for messages.
    """

    def __init__(self, path: Path | str):
        self.path = Path(path)
        try:
            text = self.path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            reason = getattr(error, "strerror", None) or str(error)  # "No such file or directory", no errno
            raise ScriptError(f"{self.path}: cannot read the script: {reason}") from None
        self.steps = parse_script(text, str(self.path))
        self._next = 0
        self._waiting = 0
        self.last_line: int | None = None
        self._ended = False

    @classmethod
    def from_text(cls, text: str, name: str = "<script>") -> "ScriptInput":
        """A script given as text (e.g. a bundled asset); ``name`` is used in errors."""
        self = cls.__new__(cls)
        self.path = Path(name)
        self.steps = parse_script(text, name)
        self._next, self._waiting, self.last_line, self._ended = 0, 0, None, False
        return self

    @property
    def exhausted(self) -> bool:
        """True once every command has been delivered and every wait has passed."""
        return self._next >= len(self.steps) and self._waiting == 0

    def poll(self, script_allowed: bool = True) -> list[Command]:
        """The next command, or nothing while a ``wait`` runs, while paused, or after the end. The poll
        that ends the script (its last command, or its last ``wait`` passed) logs it once."""
        commands = self._poll(script_allowed)
        if not self._ended and self.exhausted:
            self._ended = True
            if self.last_line is None:
                logger.info("script %s: ended (it holds no command)", self.path)
            else:
                logger.info("script %s: ended (its last command was line %s)", self.path, self.last_line)
        return commands

    def _poll(self, script_allowed: bool) -> list[Command]:
        if not script_allowed:
            return []
        if self._waiting:
            self._waiting -= 1
            return []
        while self._next < len(self.steps):
            step = self.steps[self._next]
            self._next += 1
            if step.command is not None:
                self.last_line = step.line
                return [step.command]
            if step.wait:
                self._waiting = step.wait - 1  # this poll is the first empty one
                return []
        return []

    def close(self) -> None:
        """Nothing to free (the file was read at start)."""


# --- keyboard --------------------------------------------------------------------------------------

# (pygame key names, label, meaning, button) in legend order; labels and meanings are translated when
# read. The digits are mapped separately (_key_map).
_KEY_TABLE: tuple[tuple[tuple[str, ...], Callable[[], str], Callable[[], str], Button], ...] = (
    (("K_SPACE", "K_RETURN", "K_KP_ENTER", "K_c"), lambda: _("Space / Enter / C"), lambda: _("confirm / roll"),
     Button.CONFIRM),
    (("K_b",), lambda: _("B"), lambda: _("bank (stop and keep)"), Button.BANK),
    (("K_p",), lambda: _("P"), lambda: _("pass"), Button.PASS),
    (("K_n", "K_TAB", "K_RIGHT"), lambda: _("N / Tab / Right"), lambda: _("next option"), Button.NEXT),
    (("K_u", "K_BACKSPACE"), lambda: _("U / Backspace"), lambda: _("undo"), Button.UNDO),
    (("K_UP",), lambda: _("Up"), lambda: _("selected die: value up"), Button.UP),
    ((), lambda: _("1-9"), lambda: _("choose option 1-9"), Button.CHOOSE),
    (("K_h",), lambda: _("H"), lambda: _("how to play"), Button.RULES),
    (("K_ESCAPE", "K_m"), lambda: _("Esc / M"), lambda: _("menu"), Button.MENU),
    (("K_q",), lambda: _("Q"), lambda: _("quit"), Button.QUIT),
)


class _Legend(Sequence[tuple[str, str]]):
    """(key, meaning) pairs, translated into the current language each time they are read."""

    def __len__(self) -> int:
        return len(_KEY_TABLE)

    @overload
    def __getitem__(self, index: int) -> tuple[str, str]: ...

    @overload
    def __getitem__(self, index: slice) -> list[tuple[str, str]]: ...

    def __getitem__(self, index: int | slice) -> Any:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        _keys, label, meaning, _button = _KEY_TABLE[index]
        return (label(), meaning())

    def __repr__(self) -> str:
        return f"KEY_LEGEND({list(self)!r})"


KEY_LEGEND: Sequence[tuple[str, str]] = _Legend()
"""The keyboard legend for the screen: (key, meaning) pairs, translated when read."""


def _key_map(pygame: Any) -> dict[int, Command]:
    mapping = {}
    for names, _label, _meaning, button in _KEY_TABLE:
        for name in names:
            mapping[getattr(pygame, name)] = Command(button)
    for digit in range(1, 10):
        mapping[getattr(pygame, f"K_{digit}")] = Command(Button.CHOOSE, (digit,))  # option N, as `choose N`
        mapping[getattr(pygame, f"K_KP{digit}")] = Command(Button.CHOOSE, (digit,))
    return mapping


class KeyboardInput:
    """Commands from pygame key presses (mapping in :data:`KEY_LEGEND`; digit d gives
    ``Command(CHOOSE, (d,))``, option d counted from 1 as scripts count); closing the window gives ``QUIT``.

    The display owns pygame's event queue. ``events``: a callable returning the pending pygame events
    (the display's ``events`` method); each poll calls it once. Events can also be handed over with
    :meth:`feed`. Events that mean nothing are dropped.

    ``keys`` False makes a window-only source: it drains the events (keeping the window responsive)
    and gives only ``QUIT`` when the window is closed; it counts as exhausted, since it adds no player
    input (:func:`open_input` adds one when a display is given but ``keys`` is not in the spec).

    The keys of NEXT, UNDO, BANK and PASS work as those buttons do (:data:`hardware.buttons.HOLDS`): a
    tap gives NEXT (UNDO, BANK, PASS) when the key is let go, a key held ``hold_time`` seconds (``[buttons]
    hold_time``) gives MENU (RULES, BANK_HELD, PASS_HELD) at once and nothing when let go. ``clock``:
    monotonic seconds (tests pass a fake).
    """

    def __init__(self, events: Callable[[], Iterable[Any]] | None = None, *, keys: bool = True,
                 hold_time: float = ButtonsConfig.hold_time, clock: Callable[[], float] = time.monotonic):
        self.hold_time = hold_time
        self._clock = clock
        self._down: dict[int, list] = {}  # key -> [pressed at, button, held given]

        self._pygame = pygame
        self._keys = _key_map(pygame) if keys else {}
        self._events = events
        self._pending: list[Command] = []
        self.exhausted = not keys

    def command_for(self, event: Any) -> Command | None:
        """The command one pygame event means, or None (a key with a long press acts when let go or held:
        :meth:`feed`)."""
        if event.type == self._pygame.QUIT:
            return Command(Button.QUIT)
        if event.type == self._pygame.KEYDOWN:
            command = self._keys.get(event.key)
            if command is not None and command.button in HOLDS:
                if event.key not in self._down:  # a key repeat while it is down is no new press
                    self._down[event.key] = [self._clock(), command.button, False]
                return None
            return command
        if event.type == self._pygame.KEYUP and event.key in self._down:
            _since, button, held = self._down.pop(event.key)
            return None if held else Command(button)
        if event.type == getattr(self._pygame, "WINDOWFOCUSLOST", -1):
            self._down.clear()  # its key-up may never come: no long press out of a lost window
        return None

    def feed(self, events: Iterable[Any]) -> None:
        """Take one frame's pygame events (the ones that mean nothing are ignored)."""
        for event in events:
            command = self.command_for(event)
            if command is not None:
                self._pending.append(command)

    def poll(self, script_allowed: bool = True) -> list[Command]:
        """The commands from the events fed or fetched since the last poll, and a long press held for
        ``hold_time`` by now."""
        if self._events is not None:
            self.feed(self._events())
        now = self._clock()
        for down in self._down.values():
            if not down[2] and now - down[0] >= self.hold_time:
                down[2] = True
                self._pending.append(Command(HOLDS[down[1]]))
        pending, self._pending = self._pending, []
        return pending

    def close(self) -> None:
        """Nothing to free (pygame belongs to the display)."""


# --- GPIO and combinations -------------------------------------------------------------------------


class GpioInput:
    """Commands from the GPIO buttons: drains a :class:`hardware.buttons.ButtonPanel`'s queue.

    ``owns_panel``: close the panel (freeing its pins) when this input is closed.
    """

    exhausted = False

    def __init__(self, panel: "ButtonPanel", *, owns_panel: bool = True):
        self.panel = panel
        self._owns = owns_panel

    def poll(self, script_allowed: bool = True) -> list[Command]:
        """Everything the buttons queued since the last poll."""
        return self.panel.drain()

    def close(self) -> None:
        """Close the panel if this input owns it."""
        if self._owns:
            self.panel.close()


class CombinedInput:
    """Several sources polled in order; exhausted when all of them are (so ``script+keys`` lets the
    keyboard take over after the script ends)."""

    def __init__(self, sources: Sequence[InputSource]):
        if not sources:
            raise ValueError("CombinedInput needs at least one source")
        self.sources = tuple(sources)

    @property
    def exhausted(self) -> bool:
        return all(source.exhausted for source in self.sources)

    def poll(self, script_allowed: bool = True) -> list[Command]:
        """The sources' commands, in source order."""
        return [command for source in self.sources for command in source.poll(script_allowed)]

    def close(self) -> None:
        """Close every source."""
        for source in self.sources:
            source.close()


INPUT_SPECS = ("keys", "gpio", "script:FILE")


def open_input(
    spec: str,
    *,
    events: Callable[[], Iterable[Any]] | None = None,
    pins: "ButtonsConfig | None" = None,
    pin_factory: Any = None,
) -> InputSource:
    """Open the input named by ``spec``: ``keys``, ``gpio``, ``script:FILE``, or several joined by ``+``.

    events: the display's pending-events callable, for ``keys`` (see :class:`KeyboardInput`); when it
    is given and ``keys`` is not in the spec, a window-only source is added so the window still closes
    (QUIT) and its events are drained. pins: the ``[buttons]`` config section (pin map, bounce_time,
    hold_time) for ``gpio``; defaults when None. pin_factory: for ``gpio`` (default:
    ``hardware.buttons.make_pin_factory()``). Returns a single source, or a :class:`CombinedInput` for
    several. Raises :class:`UserError` for an unknown or repeated part, :class:`ScriptError` for a bad script,
    and the pin errors of ``gpio``.
    """
    parts, kinds = _split_input_spec(spec)
    sources: list[InputSource] = []
    try:
        for part, kind in zip(parts, kinds, strict=True):
            sources.append(_open_one(part, kind, events, pins, pin_factory))
        if events is not None and "keys" not in kinds:
            sources.append(KeyboardInput(events, keys=False))
    except BaseException:
        for source in sources:
            source.close()
        raise
    logger.info("input: %s", spec)
    return sources[0] if len(sources) == 1 else CombinedInput(sources)


def _split_input_spec(spec: str) -> tuple[list[str], list[str]]:
    """The parts of ``spec`` and their kinds; :class:`UserError` for an unknown, empty or repeated part."""
    parts = [part.strip() for part in spec.split("+")]
    kinds = [part.split(":", 1)[0] for part in parts]
    for part, kind in zip(parts, kinds, strict=True):
        if kind == "script" and not part[len("script:"):].strip():
            raise UserError(f"--input {echo(spec)}: {echo(part)} needs a file: script:FILE")
        if part not in ("keys", "gpio") and kind != "script":
            raise UserError(f"--input {echo(spec)}: unknown input {echo(part)}; "
                            f"use {', '.join(INPUT_SPECS)}, joined with +")
    if len(set(kinds)) != len(kinds):
        raise UserError(f"--input {echo(spec)}: names the same kind twice")
    return parts, kinds


def check_input_spec(spec: str) -> None:
    """Check ``--input`` before anything else is opened: the parts (as :func:`open_input`) and each
    script's file, read and parsed. Raises :class:`UserError` or :class:`ScriptError` naming the flag,
    file or line; opens no device, so a mistake in the players' own input is the first thing said."""
    parts, kinds = _split_input_spec(spec)
    for part, kind in zip(parts, kinds, strict=True):
        if kind == "script":
            ScriptInput(part[len("script:"):].strip())


def _open_one(part: str, kind: str, events: Any, pins: Any, pin_factory: Any) -> InputSource:
    if kind == "keys":
        return KeyboardInput(events, hold_time=(pins or ButtonsConfig()).hold_time)
    if kind == "script":
        return ScriptInput(part[len("script:"):].strip())

    factory = pin_factory if pin_factory is not None else make_pin_factory()
    return GpioInput(ButtonPanel.from_config(pins or ButtonsConfig(), pin_factory=factory))

"""Turning what happens at the table into rule actions: the parts every game's session shares.

ARCHITECTURE.md, Session: a reading is acted on only when it is stable (the same over N frames) and the
players have confirmed it; every accepted event is appended to the SQLite event log before the screen
changes; the current state is the replay of the log, so a restart resumes the same game and undo drops
the last event. Game sessions (``companion.session.cant_stop``) build on the pieces here.
"""

from __future__ import annotations

import enum
from collections import deque
from typing import Any, Protocol

import cv2
import numpy as np

from companion.i18n import _, ngettext
from vision.observation import DiceObservation


class Waiting(enum.Enum):
    """What the box waits for; drives the status LED (slow blink: camera; steady: players)."""

    CAMERA = "camera"  # still dice under the camera
    PLAYERS = "players"  # a button press
    NOTHING = "nothing"  # the game is over


class GameSession(Protocol):
    """What the loop (``companion.app.loop.run_loop``) needs of a game's session.

    ``mode.value`` names the screen (used in screenshot file names); ``view(wins=...)`` returns a
    frame-ready view (Can't Stop's ``ScreenView`` or a type registered with
    ``companion.display.screen.register_renderer``); ``winner_name`` is None until someone has won.
    """

    game_id: int
    finished: bool

    @property
    def mode(self) -> enum.Enum: ...

    @property
    def waiting(self) -> Waiting: ...

    @property
    def wants_frame(self) -> bool: ...

    @property
    def winner_name(self) -> str | None: ...

    @property
    def active_seat(self) -> int | None:
        """The seat whose turn it is (lights its LED), or None."""
        ...

    @property
    def attention(self) -> bool:
        """True when the players must look at the screen: a reading or a command was not accepted."""
        ...

    def on_frame(self, frame_bgr: np.ndarray, observation: Any) -> None: ...

    def on_camera_problem(self, reason: str) -> None: ...

    def on_command(self, command: Any) -> None: ...

    def view(self, wins: dict[str, int] | None = None) -> Any: ...


class ReadingStabilizer:
    """Offers a reading once the same dice values were seen in ``stable_frames`` consecutive frames.

    Values are compared as sorted multisets so that the reading order of touching dice does not matter.
    ``stable_frames`` >= 1 (config ``session.stable_frames``); ``expected`` is the number of dice the game
    needs (4 for Can't Stop, A.2). ``feed`` returns the stable observation or None, and keeps a status
    line for the players ("3 dice seen", "hold still").
    """

    def __init__(self, stable_frames: int, expected: int):
        if stable_frames < 1:
            raise ValueError(f"stable_frames must be at least 1, not {stable_frames}")
        self.stable_frames = stable_frames
        self.expected = expected
        self._recent: deque[tuple[int, ...]] = deque(maxlen=stable_frames)
        self.status = ""
        self.stable_wrong_count = False
        """True while a stable reading shows some dice, but not ``expected`` of them: the players may
        take it and correct it (add the die the reader missed, remove one it invented)."""

    def reset(self) -> None:
        self._recent.clear()
        self.status = ""
        self.stable_wrong_count = False

    def feed(self, observation: DiceObservation) -> DiceObservation | None:
        self.stable_wrong_count = False
        if observation.problem:
            self._recent.clear()
            self.status = observation.problem
            return None
        key = tuple(sorted(observation.values))
        if self._recent and self._recent[-1] != key:
            self._recent.clear()
        self._recent.append(key)
        count = len(key)
        if count != self.expected:
            self.stable_wrong_count = count > 0 and len(self._recent) >= self.stable_frames
            self.status = (_("No dice seen") if count == 0 else
                           ngettext("{n} die seen, {want} needed", "{n} dice seen, {want} needed", count)
                           .format(n=count, want=self.expected))
            return None
        if len(self._recent) < self.stable_frames:
            self.status = _("Hold still…")
            return None
        self.status = ""
        return observation


class SceneChange:
    """Tells whether the table changed since a reading was accepted, so the same dice are not read twice.

    Compares a 96x96 grey thumbnail of each frame with the one at acceptance. The scene counts as changed
    once more than ``min_fraction`` of the thumbnail's pixels differ by more than ``min_diff`` grey
    levels (0-255): the dice were picked up, rolled or moved, or a hand passed. Defaults: 30 levels is
    far above sensor noise after averaging; 0.5 % of the area is less than one small die (a 40 px die
    in a 640 px photo covers about 0.4 % of it) moving to a new place, which changes twice its area.
    """

    THUMB = (96, 96)

    def __init__(self, min_diff: int = 30, min_fraction: float = 0.005):
        self.min_diff = min_diff
        self.min_fraction = min_fraction
        self._reference: np.ndarray | None = None

    @classmethod
    def _thumb(cls, frame_bgr: np.ndarray) -> np.ndarray:
        grey = cv2.cvtColor(frame_bgr, cv2.COLOR_BGR2GRAY) if frame_bgr.ndim == 3 else frame_bgr
        return cv2.resize(grey, cls.THUMB, interpolation=cv2.INTER_AREA).astype(np.int16)

    def remember(self, frame_bgr: np.ndarray | None) -> None:
        """Take ``frame_bgr`` as the accepted scene (None forgets it: any frame counts as new)."""
        self._reference = None if frame_bgr is None else self._thumb(frame_bgr)

    def changed(self, frame_bgr: np.ndarray) -> bool:
        """True when ``frame_bgr`` differs from the remembered scene (and then forgets it)."""
        if self._reference is None:
            return True
        moved = np.abs(self._thumb(frame_bgr) - self._reference) > self.min_diff
        if float(np.mean(moved)) > self.min_fraction:
            self._reference = None
            return True
        return False

"""Sessions: what happens at the table turned into rule actions, one state machine per game.

The parts every game's session shares are here: what the box waits for (:class:`Waiting`), the shape
the loop needs (:class:`GameSession`), the logged session whose state is the replay of its event log
(:class:`LoggedSession`, :func:`replay_log`), the one stabiliser (:class:`Stable`), scene changes
(:class:`SceneChange`), an event told for the players (:class:`Told`) and the readings each game takes
(:mod:`.readings`). Each game's session is ``companion.session.<game>`` (``SESSION``, ``replay_state``,
``describe`` and ``story``: its events in the game's words), found through ``companion.registry``.
"""

from companion.session.base import GameSession, SceneChange, Told, Waiting
from companion.session.log import LoggedSession, replay_log
from companion.session.readings import DonkeyRaceReading, LudoReading, SchottenTottenReading, SeenCard
from companion.session.stable import Stable

__all__ = ["Waiting", "GameSession", "SceneChange", "Told", "LoggedSession", "replay_log", "Stable", "LudoReading",
           "SeenCard", "SchottenTottenReading", "DonkeyRaceReading"]

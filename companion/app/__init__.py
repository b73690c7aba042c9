"""The app, assembled from the registry: one game at the table (:mod:`.play`), the one loop
(:mod:`.loop`), the devices (:mod:`.devices`, :mod:`.inputs`), the appliance's menu (:mod:`.menu`,
:mod:`.menu_model`, :mod:`.menu_store`), the demo (:mod:`.demo`), the self-test (:mod:`.selftest`),
the calibrations (:mod:`.calibrate`), a box that starts from broken files (:mod:`.startup`) and the
event trace of the crash bench (:mod:`.trace`).

``companion.app.play.play`` plays a game as ``companion play`` does; :func:`run_game` runs a stored game
on devices already open (the menu's).
"""

from companion.app.devices import NO_CAMERA, PlayDevices, display_available
from companion.app.loop import RunResult, run_loop
from companion.app.play import open_game, run_game

__all__ = ["run_game", "open_game", "run_loop", "RunResult", "PlayDevices", "display_available", "NO_CAMERA"]

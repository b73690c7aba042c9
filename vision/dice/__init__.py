"""The dice reader: ``read_dice(frame_bgr, calibration=None, method=DEFAULT_METHOD) -> DiceObservation``.

:mod:`.reader` (the front of the reader: frame checks, work image, reading order; v2, the classical
reader), :mod:`.learned` (v3, the product's: the learned detector :mod:`.detect` and face classifier
:mod:`.model`), :mod:`.segment` and :mod:`.pips` (candidates and pip counting), :mod:`.calibration` (the
empty table, stored in the state directory), :mod:`.settle` (moving, still or empty) and :mod:`.eval`
(the figures on a labelled set).
"""

from vision.dice.calibration import CALIBRATION_FILE, DiceCalibration, calibrate_dice, dice_left_on, load_calibration
from vision.dice.eval import evaluate, load_errata
from vision.dice.reader import DEFAULT_METHOD, METHODS, read_dice, warm_up
from vision.dice.settle import EMPTY, MOVING, STILL_SECONDS, SettleStatus, SettleTracker

__all__ = ["read_dice", "warm_up", "METHODS", "DEFAULT_METHOD", "DiceCalibration", "CALIBRATION_FILE",
           "calibrate_dice", "load_calibration", "dice_left_on", "SettleTracker", "SettleStatus", "EMPTY", "MOVING",
           "STILL_SECONDS", "evaluate", "load_errata"]

"""The dice reader: ``DiceReader(params, networks).read(frame_bgr, calibration=None) -> DiceObservation``
(:mod:`.reader`; :func:`read_dice` reads with the shipped one).

:mod:`.reader` (the recognizer and its stages), :mod:`.params` (its settings, one file), :mod:`.networks`
(its networks, loaded once), :mod:`.detect` (the die detector), :mod:`.pips` (the pip count),
:mod:`.calibration` (the empty table, stored in the state directory), :mod:`.settle` (moving, still or
empty) and :mod:`.eval` (the figures on a labelled set).
"""

from vision.dice.calibration import CALIBRATION_FILE, DiceCalibration, calibrate_dice, dice_left_on, load_calibration
from vision.dice.eval import evaluate, load_errata
from vision.dice.reader import DiceReader, read_dice, shipped_reader, warm_up
from vision.dice.settle import EMPTY, MOVING, STILL_SECONDS, SettleStatus, SettleTracker

__all__ = ["DiceReader", "read_dice", "shipped_reader", "warm_up", "DiceCalibration", "CALIBRATION_FILE",
           "calibrate_dice", "load_calibration", "dice_left_on", "SettleTracker", "SettleStatus", "EMPTY", "MOVING",
           "STILL_SECONDS", "evaluate", "load_errata"]

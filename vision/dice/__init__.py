"""The dice reader: ``DiceReader(params, networks).read(frame_bgr, calibration=None) -> DiceObservation``
(:mod:`.reader`; :func:`read_dice` reads with the shipped one).

:mod:`.reader` (the recognizer and its stages), :mod:`.params` (its settings, one file), :mod:`.networks`
(its networks, loaded once), :mod:`.detect` (the die detector), :mod:`.pips` (the pip count),
:mod:`.calibration` (the empty table, stored in the state directory), :mod:`.settle` (moving, still or
empty), :mod:`.eval` (the figures on a labelled set), :mod:`.learning` (the players' confirmed dice kept,
and the faces learned from them) and :mod:`.teach` (examples from confirmed rolls and labelled photos).
"""

from vision.dice.calibration import CALIBRATION_FILE, DiceCalibration, calibrate_dice, dice_left_on, load_calibration
from vision.dice.eval import evaluate, load_errata
from vision.dice.reader import DiceReader, read_dice, shipped_reader, warm_up
from vision.dice.learning import EXAMPLES_DIR, LEARNED_FILE, ExampleStore, LearnedFaces, examples_in, forget, load_learned
from vision.dice.settle import EMPTY, MOVING, STILL_SECONDS, SettleStatus, SettleTracker
from vision.dice.teach import examples_from_roll, keep_photos, learn_kept, learned_line, read_photo

__all__ = ["DiceReader", "read_dice", "shipped_reader", "warm_up", "DiceCalibration", "CALIBRATION_FILE",
           "calibrate_dice", "load_calibration", "dice_left_on", "SettleTracker", "SettleStatus", "EMPTY", "MOVING",
           "STILL_SECONDS", "evaluate", "load_errata", "ExampleStore", "LearnedFaces", "EXAMPLES_DIR", "LEARNED_FILE",
           "examples_in", "forget", "load_learned", "examples_from_roll", "keep_photos", "learn_kept", "learned_line",
           "read_photo"]

"""Camera sources and OpenCV readers. Frames are BGR ``uint8`` arrays named ``frame_bgr``.

The runtime readers, each behind its package's front door: :mod:`vision.camera` (``open_camera``),
:mod:`vision.dice` (``read_dice``), :mod:`vision.board` (``read_board``) and :mod:`vision.cards`
(``read_schotten_totten``, ``read_donkey_race``); what they saw is :mod:`vision.observation`, and
:mod:`vision.frames` checks frames and image files the same way for all. :mod:`vision.training` holds
the training and development-only measures (in the repository, not in the wheel). Vision imports
nothing of the app or the command line.
"""

__all__ = ["camera", "dice", "board", "cards", "observation", "frames"]

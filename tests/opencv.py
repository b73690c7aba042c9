"""Marks for tests whose expected figures were measured with the OpenCV of the test extra (5.0).

The box works from OpenCV 4.6 (Debian Bookworm's apt, ``systemd/check-install.sh --tests``), but 4.x
draws, resamples and thresholds slightly differently: a rendered scene or a reader's exact count moves.
Those exact figures are checked on 5.0 only; what must hold everywhere (no wrong reading offered as
sure) is asserted without this mark.
"""

import cv2
import pytest

OPENCV_MAJOR = int(cv2.__version__.split(".")[0])

figures_of_opencv5 = pytest.mark.skipif(
    OPENCV_MAJOR < 5, reason=f"exact figures measured with OpenCV 5.0 (pyproject's test extra); this is {cv2.__version__}")

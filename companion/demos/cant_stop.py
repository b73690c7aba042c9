"""Can't Stop's demos: the variant of its by-hand demo, and its camera demo on the bundled real photos.

``companion demo --game cant-stop`` (``companion.app.demo``) finds them here through the registry: every
game has a ``demos`` module (``BY_HAND_VARIANT``, ``CAMERA_DEMO``, ``TABLE_VARIANT``, ``Table``). Can't
Stop's camera demo is the one on real photographs: the bundled photos of ``assets/dice_photos`` in the
order of ``assets/demo/cant_stop_playlist.txt``, with the players' presses of
``assets/demo/cant_stop.script`` (``companion.app.demo``).
"""

from __future__ import annotations

BY_HAND_VARIANT: dict[str, str] = {}
"""The default rules."""

CAMERA_DEMO = "photos"
"""The camera demo reads the bundled real photos of dice (no rendered table)."""

TABLE_VARIANT: dict[str, str] = {}
"""The default rules."""

Table = None
"""No rendered table: the photos are real."""

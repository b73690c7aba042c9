"""Screens, pure: a session turned into a frozen view with its texts translated, one module per game.

``companion.screens.<game>.build_view(session, wins)`` and ``final_line(session)`` (found through
``companion.registry``); :mod:`.menu` holds the menu's views and :mod:`.palette` the look every game
shares (player colours and token shapes that colour-blind players can tell apart). The drawing of the
views is ``companion.display``.
"""

from companion.screens import palette

__all__ = ["palette"]

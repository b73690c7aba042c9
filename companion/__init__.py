"""Tabletop companion: rules engines, session, hints, store, display and command line.

The box watches a real game table; see ``../shared/docs/ARCHITECTURE.md`` for the data flow.
"""

__version__ = "0.1.0"

import os as _os

_os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")  # keep pygame's banner out of command output

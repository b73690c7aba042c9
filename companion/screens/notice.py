"""The screens that say what went wrong with a file, in plain words, before the box goes on: a store of
saved games that could not be read (moved aside and kept), a box that cannot save games now, a settings
file that was ignored, a saved game that goes on from its last good move (ARCHITECTURE.md "The screen":
every notice of a damaged, unreadable or moved-aside store or config is a screen of its own).

Each screen says what happened, what was kept, and what to do; CONFIRM goes on. The file names, paths
and the technical reason go to the log (``journalctl -u tabletop-companion``), never on the screen.
Pure: frozen views with translated text; ``companion.display.notice`` draws them.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from companion.commands import Button
from companion.i18n import N_, _
from companion.screens.common import key_legend


class Notice(enum.Enum):
    """The kinds of notice (see the module docstring)."""

    STORE_MOVED = "store_moved"
    STORE_UNSAVED = "store_unsaved"
    CONFIG_IGNORED = "config_ignored"
    GAME_CUT = "game_cut"


TEXTS: dict[Notice, tuple[str, str, str, str]] = {
    Notice.STORE_MOVED: (
        N_("The saved games could not be read"),
        N_("The file that holds the saved games and the scoreboard is damaged or from another program."),
        N_("It was kept, renamed, beside a new empty one: nothing was deleted."),
        N_("Play on: new games are saved as usual. To get the old games back, whoever looks after the box "
           "can restore a backup; the details are in the box's log.")),
    Notice.STORE_UNSAVED: (
        N_("Games cannot be saved now"),
        N_("The box cannot write its folder of saved games: the card may be full or read-only."),
        N_("The saved games already there were left as they are."),
        N_("Play on, but this session's games will not be kept. Whoever looks after the box should free space "
           "on the card or fix the folder; the details are in the box's log.")),
    Notice.CONFIG_IGNORED: (
        N_("The settings file was not used"),
        N_("The box's settings file has a mistake, so the box runs with its standard settings."),
        N_("The file itself was left as it is."),
        N_("Play on. Whoever looks after the box should correct the file and restart the box; the log names "
           "the line to fix.")),
    Notice.GAME_CUT: (
        N_("Part of this saved game could not be read"),
        N_("The last moves of the saved game were damaged, for example by a power cut while they were saved."),
        N_("The game goes on from its last good move; the damaged part was kept in the store."),
        N_("Check that the board on the table matches the screen, enter again what is missing, and play on.")),
}
"""Each notice's heading, what happened, what was kept, and what to do, untranslated."""


@dataclass(frozen=True)
class NoticeView:
    """One notice screen: ``title`` (which notice of how many), ``heading``, the ``paragraphs`` (what
    happened, what was kept, what to do), the ``prompt`` (empty: the heading says it), ``message``
    (always "") and the key chips ``keys``."""

    title: str
    heading: str
    paragraphs: tuple[str, ...]
    prompt: str
    message: str
    keys: tuple[tuple[str, str], ...]


def build_view(session, wins: dict[str, int] | None = None) -> NoticeView:
    """The notice ``session.notices[session.index]`` (a :class:`Notice`)."""
    notice = session.notices[session.index]
    heading, *paragraphs = (_(part) for part in TEXTS[notice])
    count = len(session.notices)
    title = _("Notice {k} of {n}").format(k=session.index + 1, n=count) if count > 1 else _("Notice")
    keys = key_legend(((Button.CONFIRM, N_("go on")),))
    return NoticeView(title, heading, tuple(paragraphs), "", "", keys)


def final_line(session) -> str:
    """A notice adds no line to ``companion play``'s output."""
    return ""

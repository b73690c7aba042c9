"""What the Can't Stop screen shows: frozen view values, and :func:`build_view` from a session.

The views are plain values: the display (``companion.display.cant_stop``) draws them and never touches
the game state or the session, and render tests can build views by hand. All strings in a view are
already translated (``companion.i18n._``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from companion.commands import Button
from companion.games.cant_stop import COLUMNS, Choose, Phase
from companion.i18n import N_, _, percent
from companion.screens.common import Keys, key_legend, name_to_act, start_prompt
from companion.session.base import without_camera
from companion.session.cant_stop import CantStopSession, Mode, RollCheck


@dataclass(frozen=True)
class PlayerView:
    """One seat: name, palette index (0-3, see ``companion.screens.palette``), and scoreboard figures."""

    name: str
    colour: int
    claimed: int = 0  # columns claimed in this game
    wins: int = 0  # games won before (scoreboard)


@dataclass(frozen=True)
class DieView:
    """One die as read: value 1-6 (0 = not yet known), pixel box in the photo, flags for drawing."""

    value: int
    box: tuple[int, int, int, int] | None  # None for a die entered by hand
    flagged: bool = False
    selected: bool = False
    slot: bool = False  # not a die: the empty place where BANK adds the next one (selected)


@dataclass(frozen=True)
class OptionView:
    """One legal choice: a label ("6 + 8") and what it does on the board ("runner 6 to 3, 8 to 1")."""

    label: str
    effect: str
    selected: bool = False


@dataclass(frozen=True)
class CantStopBoardView:
    """The Can't Stop board (cant-stop.md A.2).

    heights: column -> number of spaces (2..12).
    markers: seat -> {column: height of that seat's marker, 1 = bottom space}.
    runners: column -> height of the active player's runner this turn.
    claimed: column -> seat that claimed it.
    """

    heights: dict[int, int]
    markers: dict[int, dict[int, int]]
    runners: dict[int, int]
    claimed: dict[int, int]


@dataclass(frozen=True)
class ScreenView:
    """Everything on one screen.

    prompt: the one line saying what the box waits for. status: a short line such as "3 dice seen".
    frame_bgr: the photo of the roll (H x W x 3 uint8) or None; dice: the dice drawn on it.
    bust_probability: the exact chance (0-1) that the next roll busts, or None when not relevant.
    hint: the advisor's recommendation in one line, or "". keys: (key, meaning) pairs for the legend.
    winner: the winner's seat when the game is over.
    """

    title: str
    players: tuple[PlayerView, ...]
    active: int | None
    board: CantStopBoardView
    prompt: str
    status: str = ""
    frame_bgr: np.ndarray | None = None
    dice: tuple[DieView, ...] = ()
    options: tuple[OptionView, ...] = ()
    bust_probability: float | None = None
    hint: str = ""
    keys: tuple[tuple[str, str], ...] = ()
    winner: int | None = None
    message: str = ""  # an event just accepted ("Anna busts", "Ben claims column 7")
    extra: dict = field(default_factory=dict)


def _dice_views(check: RollCheck, confirmed: bool = False) -> tuple[DieView, ...]:
    """The dice of ``check`` on its photo: each value at the box the reader saw it in (none for a die
    entered by hand), flagged while the reader doubts a die the players did not change; ``confirmed``:
    the players accepted the roll, nothing is flagged or selected any more."""
    observed = check.observation.dice if check.observation else ()
    views = []
    for i, value in enumerate(check.values):
        reading = observed[i] if i < len(observed) else None
        changed = reading is None or reading.value != value
        views.append(DieView(value, None if reading is None else reading.box,
                             flagged=not confirmed and bool(reading and reading.flagged and not changed),
                             selected=not confirmed and check.selected == i))
    if not confirmed and check.selected == len(check.values) and check.observation is None:
        views.append(DieView(0, None, selected=True, slot=True))  # by hand: where BANK adds a die
    return tuple(views)


def build_view(session: CantStopSession, wins: dict[str, int] | None = None) -> ScreenView:
    """The screen of ``session`` for the current moment (all strings translated); ``wins``: the
    scoreboard's games won by name."""
    state, mode = session.state, session.mode
    wins = wins or {}
    players = tuple(PlayerView(name, seat, state.columns_claimed(seat), wins.get(name, 0))
                    for seat, name in enumerate(session.players))
    active = None if state.active < 0 else state.active
    if mode is Mode.START:
        active = session.start_seat
    board = CantStopBoardView(
        heights={c: state.height(c) for c in COLUMNS},
        markers={seat: state.marker_map(seat) for seat in range(len(session.players))},
        runners=state.runner_map(), claimed=state.claimed_map())
    frame, dice = None, ()
    if session.confirmed is not None:
        frame, dice = session.confirmed.frame_bgr, _dice_views(session.confirmed, confirmed=True)
    options: tuple[OptionView, ...] = ()
    bust = None
    hint = session.hint()
    if mode is Mode.CHECK:
        assert session.check is not None
        frame, dice = session.check.frame_bgr, _dice_views(session.check)
    elif mode is Mode.WATCH:
        frame, dice = session.frame, ()
        if session.observation is not None:
            dice = tuple(DieView(d.value, d.box, d.flagged) for d in session.observation.dice)
    elif mode is Mode.CHOOSE:
        options = tuple(_option_view(session, o, i == session.option) for i, o in enumerate(state.legal_actions()))
    elif mode is Mode.DECIDE:
        bust = session.bust(state)
    return ScreenView(
        title=_("Can't Stop"), players=players, active=active, board=board, prompt=_prompt(session),
        status=_status(session), frame_bgr=frame, dice=dice, options=options, bust_probability=bust,
        hint=hint.reason if hint else "", keys=_keys(session), winner=state.winner, message=session.message)


def _option_view(session: CantStopSession, option: Choose, selected: bool) -> OptionView:
    state = session.state
    moves = []
    for column in dict.fromkeys(option.totals):
        height = state.choice_result(option)[column]
        moves.append(_("{col} to {h}/{top}").format(col=column, h=height, top=state.height(column)))
    after = state.apply(option)
    effect = ", ".join(moves)
    if after.phase is Phase.DECIDE:  # the bust chance first, so a narrow screen cuts the heights
        effect = _("bust {p}").format(p=percent(session.bust(after))) + " · " + effect
    return OptionView(" + ".join(map(str, option.totals)), effect, selected)


def _prompt(session: CantStopSession) -> str:
    mode = session.mode
    name = name_to_act(session)
    if mode is Mode.START:
        return start_prompt(session.players, session.start_seat)
    if mode is Mode.WATCH:
        if without_camera(session):
            return _("{name}: enter your roll: BANK counts a die up, NEXT goes to the next die").format(name=name)
        if session.camera_problem:
            return _("{problem}: NEXT to enter the roll with the buttons").format(problem=session.camera_problem)
        if session.stabilizer.stable_wrong_count:
            return _("{name}: {status}. NEXT to correct the reading").format(
                name=name, status=session.stabilizer.status)
        return _("{name}: roll the four dice").format(name=name)
    if mode is Mode.CHECK:
        return _("{name}: is this your roll? CONFIRM, or correct it").format(name=name)
    if mode is Mode.CHOOSE:
        return _("{name}: choose a pairing").format(name=name)
    if mode is Mode.DECIDE:
        return _("{name}: roll again or bank?").format(name=name)
    winner = session.state.winner
    return _("{name} wins! CONFIRM to finish").format(name=session.players[winner] if winner is not None else "")


def _status(session: CantStopSession) -> str:
    if session.mode is Mode.WATCH:
        return session.camera_problem or session.stabilizer.status
    if session.mode is Mode.CHECK and session.check and session.check.observation and session.check.observation.any_flagged:
        if any(d.cocked for d in session.check.observation.dice):
            return _("A die is leaning: lay it flat or roll it again, then check the dice")
        return _("Dice marked ? are uncertain: check them")
    return ""


_KEYS: dict[Mode, Keys] = {
    Mode.START: ((Button.CONFIRM, N_("start")), (Button.NEXT, N_("other player"))),
    Mode.WATCH: ((Button.NEXT, N_("enter by hand")), (Button.UNDO, N_("undo"))),
    Mode.CHECK: ((Button.CONFIRM, N_("accept")), (Button.NEXT, N_("select die")), (Button.BANK, N_("+1 / add")),
                 (Button.PASS, N_("remove")), (Button.UNDO, N_("read again"))),
    Mode.CHOOSE: ((Button.CONFIRM, N_("use pairing")), (Button.NEXT, N_("next pairing")), (Button.UNDO, N_("undo"))),
    Mode.DECIDE: ((Button.CONFIRM, N_("roll again")), (Button.BANK, N_("bank")), (Button.UNDO, N_("undo"))),
    Mode.OVER: ((Button.CONFIRM, N_("finish")),),
}


_BY_HAND_CHECK: Keys = ((Button.CONFIRM, N_("accept")), (Button.NEXT, N_("next die")),
                        (Button.BANK, N_("+1 / add")), (Button.PASS, N_("remove")), (Button.UNDO, N_("cancel")))
"""The check screen's keys when the roll is entered by hand (no camera to read it again)."""


def _keys(session: CantStopSession) -> tuple[tuple[str, str], ...]:
    if session.mode is Mode.CHECK and session.camera_problem:
        return key_legend(_BY_HAND_CHECK)
    if session.mode is Mode.WATCH and session.camera_problem:
        return key_legend(((Button.BANK, N_("enter a die")), (Button.UNDO, N_("undo"))))
    return key_legend(_KEYS[session.mode])


def final_line(session: CantStopSession) -> str:
    """The line ``companion play`` prints when the game ends: who won ("" while it runs)."""
    return _("{name} wins.").format(name=session.winner_name) if session.winner_name else ""

"""What the Can't Stop screen shows: frozen view values, and :func:`build_view` from a session.

The views are plain values: the display (``companion.display.cant_stop``) draws them and never touches
the game state or the session, and render tests can build views by hand. All strings in a view are
already translated (``companion.i18n._``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from companion.commands import Button
from companion.games.cant_stop import COLUMNS, Choose, Phase
from companion.games.cant_stop.check import RUNNER
from companion.i18n import N_, Np_, _, percent
from companion.screens.common import (HOLD_FOR_RULES, Chrome, ChromeFields, Keys, SeatChip, Tone, key_legend,
    name_to_act, start_prompt)
from companion.session.base import without_camera
from companion.session.cant_stop import DICE, CantStopSession, Mode, RollCheck


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
class ScreenView(ChromeFields):
    """Everything on one screen: the shared frame (``chrome``: header, player strip with each player's
    columns, key chips, notice band) and the body.

    status: a short line about what the camera sees ("3 dice seen"), shown in the side panel.
    frame_bgr: the photo of the roll (H x W x 3 uint8) or None; dice: the dice drawn on it.
    options: the legal pairings (CHOOSE). bust_probability: the exact chance (0-1) that the next roll
    busts, or None when not relevant. hint: the advisor's recommendation in one line, or "". winner: the
    winner's seat when the game is over. browse: NEXT shows the pairings that do not fit (a live game);
    False in History's replay, where NEXT steps the replay on.
    """

    chrome: Chrome
    board: CantStopBoardView
    status: str = ""
    frame_bgr: np.ndarray | None = None
    dice: tuple[DieView, ...] = ()
    options: tuple[OptionView, ...] = ()
    bust_probability: float | None = None
    hint: str = ""
    winner: int | None = None
    browse: bool = True


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
    to_win = session.config.columns_to_win
    seats = tuple(SeatChip(name, seat, _("columns {n}/{k}").format(n=state.columns_claimed(seat), k=to_win),
                           wins.get(name, 0)) for seat, name in enumerate(session.players))
    active = None if state.active < 0 else state.active
    if mode is Mode.START:
        active = session.start_seat
    board = CantStopBoardView(
        heights={c: state.height(c) for c in COLUMNS},
        markers={seat: state.marker_map(seat) for seat in range(len(session.players))},
        runners=state.runner_map(), claimed=state.claimed_map())
    frame, dice = None, ()
    if session.confirmed is not None:  # the roll being played: its values, as faces (the photo was checked)
        dice = tuple(DieView(d.value, None) for d in _dice_views(session.confirmed, confirmed=True))
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
    status = _status(session)
    notice, tone = session.message, Tone.REFUSED if session.refused else Tone.EVENT
    if session.board_differences and mode is Mode.WATCH and not session.refused:  # the board and the record
        notice, tone = board_words(session), Tone.WARNING
    if not notice and mode is Mode.CHECK and status:
        notice, tone, status = status, Tone.WARNING, ""  # uncertain dice: the players must look
    winner = state.winner
    if winner is not None:  # how it was won, as History's replay tells it
        notice, tone = session.ending or _("{name} wins!").format(name=session.players[winner]), Tone.WIN
    chrome = Chrome(_("Can't Stop"), seats, active, _prompt(session), _keys(session), notice, tone,
                    _("Turn {n}").format(n=state.turn) if state.turn > 0 else "", winner, band_space=True,
                    short_standings=True)
    return ScreenView(chrome=chrome, board=board, status=status, frame_bgr=frame, dice=dice, options=options,
                      bust_probability=bust, hint=hint.reason if hint else "", winner=state.winner)


def board_words(session: CantStopSession) -> str:
    """The differences between the board read and the record, in the players' words, joined by " · "
    ("Runner on 7 should stand on space 4: it is on 5 · Ada's marker on 9 is missing: it belongs on
    space 3")."""
    said = []
    for diff in session.board_differences:
        values = {"column": diff.column, "should": diff.should, "seen": diff.seen}
        if diff.seat == RUNNER:
            words = {"missing": _("Runner on {column} is missing: it belongs on space {should}"),
                     "extra": _("Take the runner off {column} (space {seen})"),
                     "misplaced": _("Runner on {column} should stand on space {should}: it is on {seen}")}
        else:
            values["name"] = session.players[diff.seat]
            words = {"missing": _("{name}'s marker on {column} is missing: it belongs on space {should}"),
                     "extra": _("{name} has no marker on {column}: take it off space {seen}"),
                     "misplaced": _("{name}'s marker on {column} should stand on space {should}: it is on "
                                    "{seen}")}
        said.append(words[diff.kind].format(**values))
    return " \u00b7 ".join(said)


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
            return _("{name}: enter your roll").format(name=name)
        if session.camera_problem:
            return _("{name}: enter your roll by hand ({problem})").format(name=name, problem=session.camera_problem)
        if session.stabilizer.stable_wrong_count:
            return _("{name}: {status}").format(name=name, status=session.stabilizer.status)
        return _("{name}: roll the four dice").format(name=name)
    if mode is Mode.CHECK:
        if session.check is not None and session.check.observation is None:
            return _("{name}: enter your roll").format(name=name)
        return _("{name}: is this your roll?").format(name=name)
    if mode is Mode.CHOOSE:
        return _("{name}: choose a pairing").format(name=name)
    if mode is Mode.DECIDE:
        return _("{name}: roll again or bank?").format(name=name)
    winner = session.state.winner
    return _("{name} wins!").format(name=session.players[winner] if winner is not None else "")


def _status(session: CantStopSession) -> str:
    if session.mode is Mode.WATCH:
        return session.camera_problem or session.stabilizer.status
    if session.mode is Mode.CHECK and session.check and session.check.observation and session.check.observation.any_flagged:
        if any(d.cocked for d in session.check.observation.dice):
            return _("A die is leaning: lay it flat or roll it again, then check the dice")
        return _("Dice marked ? are uncertain: check them")
    return ""


_KEYS: dict[Mode, Keys] = {
    Mode.START: ((Button.CONFIRM, N_("start")), (Button.NEXT, N_("other player")), HOLD_FOR_RULES),
    Mode.WATCH: ((Button.NEXT, N_("enter by hand")), (Button.UNDO, N_("undo"))),
    Mode.CHOOSE: ((Button.CONFIRM, N_("use pairing")), (Button.NEXT, N_("next pairing")), (Button.UNDO, N_("undo"))),
    Mode.DECIDE: ((Button.CONFIRM, N_("roll again")), (Button.BANK, N_("bank")), (Button.UNDO, N_("undo"))),
    Mode.OVER: ((Button.CONFIRM, N_("finish")),),
}


def _check_keys(session: CantStopSession) -> Keys:
    """The keys of a roll read or entered (one scheme for both, session ``CHECK``): CONFIRM once it has
    four dice (A.2); NEXT the next die, or a new one after the last while fewer than four; BANK / PASS
    the selected die +1 / -1; UNDO reads again (camera), cancels the entry (a camera with a problem) or
    takes back the last event (no camera: the entry opens again by itself)."""
    check = session.check
    assert check is not None
    keys: list[tuple[Button, str]] = []
    if len(check.values) == DICE:
        keys.append((Button.CONFIRM, Np_("dice check", "accept")))  # German "fertig": the row's five chips fit
    adds = check.selected is not None and check.selected + 1 >= len(check.values) and len(check.values) < DICE
    keys.append((Button.NEXT, N_("new die") if adds else N_("next die")))
    if check.selected is not None:
        keys += [(Button.BANK, N_("+1")), (Button.PASS, N_("-1"))]
    if without_camera(session):
        keys.append((Button.UNDO, N_("undo")))
    else:
        keys.append((Button.UNDO, N_("cancel") if check.observation is None else N_("read again")))
    return tuple(keys)


def _keys(session: CantStopSession) -> tuple[tuple[str, str], ...]:
    if session.mode is Mode.CHECK:
        return key_legend(_check_keys(session))
    if session.mode is Mode.WATCH and session.stabilizer.stable_wrong_count and not session.camera_problem:
        return key_legend(((Button.NEXT, N_("correct the dice")), (Button.UNDO, N_("undo"))))
    if session.mode is Mode.WATCH and session.board_differences:  # or set the board as the record has it
        return key_legend(((Button.CONFIRM, N_("keep the record")), *_KEYS[Mode.WATCH]))
    return key_legend(_KEYS[session.mode])


def final_line(session: CantStopSession) -> str:
    """The line ``companion play`` prints when the game ends: who won ("" while it runs)."""
    return _("{name} wins.").format(name=session.winner_name) if session.winner_name else ""


HOW_TO_PLAY: tuple[tuple[str, str], ...] = (
    (N_("The goal"),
     N_("Be the first to claim three columns. The columns are numbered 2 to 12 and are as long as that "
        "sum is likely with two dice: column 7 is the longest, 2 and 12 the shortest.")),
    (N_("Your turn"),
     N_("Roll the four dice and split them into two pairs. Move a runner up the column of each pair's "
        "sum. You have three runners a turn; once they are placed, only their columns can move.")),
    (N_("Roll again or stop"),
     N_("After each roll, roll again or stop. When you stop, your markers take the runners' places and "
        "the progress is yours. If a roll gives no sum you can use, you go bust: the runners leave and "
        "this turn's progress is lost.")),
    (N_("Claiming a column"),
     N_("A column is yours when you stop at its top. Everyone else's markers leave it, and no one may "
        "use it any more. The box shows each pairing, the chance to go bust and a hint; its win chances are "
        "against an equal player, one who plays as well as the hints.")),
    (N_("The screen"),
     N_("At the top: whose turn it is and what the box waits for. At the bottom: each player's "
        "columns and ★ games won, then what each button does now. Above them, a band says what "
        "just happened.")),
    (N_("Entering the dice"),
     N_("By hand, a roll starts at 1 3 4 6: change the dice that differ from yours, in any order. BANK +1, "
        "PASS -1 on the marked die (6 goes round to 1), NEXT the next die, CONFIRM enters the roll. UNDO "
        "reads again, or takes back a step.")),
)
"""How to play Can't Stop on the box: its pages, (heading, text), marked for translation, written from
``../shared/rules/cant-stop.md`` in our own words with the box's default rules (``companion.screens.rules``
shows them, with the keyboard's page last)."""

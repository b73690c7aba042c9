"""What the Ludo screen shows: frozen view values, built from a session by :func:`build_view` and drawn
by ``companion.display.ludo``. All strings in a view are already translated."""

from __future__ import annotations

from dataclasses import dataclass

from companion.commands import Button
from companion.hints.ludo.words import pawn_phrase
from companion.i18n import N_, _
from companion.screens.common import (HOLD_FOR_RULES, Chrome, ChromeFields, Keys, SeatChip, Tone, key_legend,
    name_to_act, start_prompt)
from companion.screens.palette import LUDO_COLOURS
from companion.session.base import without_camera
from companion.session.ludo import LudoSession, Mode


BOARD_SHARE = 0.52
"""The most of the body's width Ludo's square board takes (the moves and the hint beside it need the rest at
800 x 480); it is as tall as the body and the notice band's space together (``Chrome.board_share``)."""


@dataclass(frozen=True)
class PawnView:
    """One pawn: its colour and relative position (YARD = -1; ludo.md B.2 / B.2b)."""

    colour: str
    rel: int


@dataclass(frozen=True)
class MoveView:
    """One legal move, drawn as an arrow: colour, from (relative, -1 = yard), to, die used, whether it is
    the selected one (the advisor's unless changed), and its list text."""

    colour: str
    frm: int
    to: int
    die: int
    selected: bool
    text: str


@dataclass(frozen=True)
class LudoView(ChromeFields):
    """The whole Ludo screen: the shared frame (``chrome``: header, player strip with each player's pawns
    home or place, key chips, notice band) and the board's body. board: geometry name. pawns: every
    pawn. moves: the legal moves (MOVE). die: the roll shown (the one being entered by hand, or the roll
    being moved), None when none. pool: dice waiting for a move. sixes_in_row: the six counter (B.4.2).
    roll_note: the turn's situation ("try 2 of 3 for a 6", "bonus roll", "then a bonus roll"; B.2b, B.4.4,
    B.7), "" for none. hint: the advisor's line or "". misplaced: (colour, seen,
    should) pawns to correct (relative positions, -1 = yard, None = unknown). winner: the winner's name
    once over. mode: the session mode's value. stars_safe: the board's star squares are safe in this
    game (``safe_squares`` = ``starts_and_stars``, B.7): only then are they drawn."""

    chrome: Chrome
    board: str
    pawns: tuple[PawnView, ...]
    moves: tuple[MoveView, ...]
    die: int | None
    pool: tuple[int, ...]
    sixes_in_row: int
    roll_note: str
    hint: str
    misplaced: tuple[tuple[str, int | None, int | None], ...]
    winner: str | None
    mode: str
    stars_safe: bool = True


def build_view(session: LudoSession, wins: dict[str, int] | None = None) -> LudoView:
    """The screen of ``session`` for the current moment (all strings translated); ``wins``: the
    scoreboard's games won by name."""
    state, mode = session.state, session.mode
    wins = wins or {}
    pawns = tuple(PawnView(state.colours[s], rel) for s in range(state.num_players) for rel in state.pawns[s])
    moves: tuple[MoveView, ...] = ()
    hint = session.hint()
    if mode is Mode.MOVE:
        moves = tuple(MoveView(state.colours[state.active], i.move.frm, i.to, i.move.die, i == _selected_info(session),
                               _option_text(n, i, state))
                      for n, i in enumerate(state.move_infos(), start=1))
    placings = {s: k + 1 for k, s in enumerate(state.placings)}
    seats = []
    for s, name in enumerate(session.players):
        home = sum(1 for p in state.pawns[s] if state.is_finished_position(p))
        standing = (_("place {k}").format(k=placings[s]) if s in placings else
                    _("{n}/4 home").format(n=home))
        seats.append(SeatChip(name, s, standing, wins.get(name, 0), LUDO_COLOURS[state.colours[s]]))
    active = session.start_seat if mode is Mode.START else (None if state.active < 0 else state.active)
    notice, tone = session.message, (Tone.REFUSED if session.refused else Tone.EVENT)
    if session.problems:
        notice, tone = " ".join(session.problems), Tone.WARNING
    winner = state.placings[0] if session.winner_name is not None and state.placings else None
    if winner is not None:  # how it was won, as History's replay tells it (not a later player's place)
        ending = session.ending
        notice = ending if session.players[winner] in ending else _("{name} wins!").format(name=session.players[winner])
        tone = Tone.WIN
    chrome = Chrome(_("Ludo"), tuple(seats), active, _prompt(session), _keys(session), notice, tone,
                    # the turn, as Can't Stop's corner counts it (the board's name told players nothing)
                    _("Turn {n}").format(n=state.turn) if state.turn > 0 else "", winner, band_space=True,
                    board_share=BOARD_SHARE)
    return LudoView(
        chrome=chrome, board=state.config.board, pawns=pawns, moves=moves, die=_die_shown(session), pool=state.pool,
        sixes_in_row=state.sixes_in_row, roll_note=session.roll_note, hint=hint.reason if hint else "",
        misplaced=tuple((m.colour, m.seen, m.should) for m in session.misplaced),
        winner=None if session.winner_name is None else session.winner_name, mode=mode.value,
        stars_safe=state.config.safe_squares == "starts_and_stars")


def board_view(board: str, pawns: tuple[PawnView, ...]) -> LudoView:
    """A view of ``board`` with only ``pawns`` on it and an empty frame (for drawing the board alone:
    rendered frames of a game, tests)."""
    return LudoView(Chrome("", (), None, ""), board, pawns, (), None, (), 0, "", "", (), None, "roll")


_KEYS: dict[Mode, Keys] = {
    Mode.START: ((Button.CONFIRM, N_("start")), (Button.NEXT, N_("other player")), HOLD_FOR_RULES),
    Mode.ROLL: ((Button.BANK, N_("enter from 1")), (Button.PASS, N_("enter from 6")), (Button.UNDO, N_("undo"))),
    Mode.MOVE: ((Button.CONFIRM, N_("move")), (Button.NEXT, N_("next move")), (Button.UNDO, N_("undo"))),
    Mode.OVER: ((Button.CONFIRM, N_("finish")),),
}

_ENTRY_KEYS: Keys = ((Button.CONFIRM, N_("enter")), (Button.BANK, N_("+1")), (Button.PASS, N_("-1")))
"""A die being entered by hand (or a reading taken back being corrected): BANK / PASS step it round
1-6, CONFIRM enters it; UNDO follows (:func:`_keys`)."""


def _keys(session: LudoSession) -> tuple[tuple[str, str], ...]:
    """What each button does now: the die entry's keys while a die is entered (UNDO takes back the last
    event with no camera, where the entry is always open, else it cancels the entry); CONFIRM alone
    while the board differs from the saved game; no NEXT when there is one legal move only."""
    mode = session.mode
    if mode is Mode.ROLL and session.die_entry is not None:
        undo = N_("undo") if without_camera(session) else N_("cancel")
        return key_legend(_ENTRY_KEYS + ((Button.UNDO, undo),))
    if mode is Mode.ROLL and not session.board_checked and session.misplaced:
        return key_legend(((Button.CONFIRM, N_("keep the saved game")),))
    if mode is Mode.MOVE and len(session.state.legal_actions()) == 1:
        return key_legend(tuple(k for k in _KEYS[mode] if k[0] is not Button.NEXT))
    return key_legend(_KEYS[mode])


def _die_shown(session: LudoSession) -> int | None:
    """The die on the screen: the one being entered by hand, else the roll being moved; none while the
    next player is to roll (the last player's roll is not theirs)."""
    if session.die_entry is not None:
        return session.die_entry
    return None if session.mode is Mode.ROLL else session.state.last_roll


def _selected_info(session: LudoSession):
    infos = session.state.move_infos()
    return infos[session.option] if 0 <= session.option < len(infos) else None


def _option_text(n: int, info, state) -> str:
    text = f"{n}. {pawn_phrase(state, info.move.frm)}"
    if info.captures:
        text += ": " + _("captures")
    elif info.finishes:
        text += ": " + _("home")
    return text


def _prompt(session: LudoSession) -> str:
    mode = session.mode
    name = name_to_act(session)
    if mode is Mode.START:
        return start_prompt(session.players, session.start_seat)
    no_camera = without_camera(session)
    if mode is Mode.ROLL:
        if session.die_entry is not None or no_camera:
            return _("{name}: enter your roll").format(name=name)
        if session.camera_problem:
            return _("{name}: enter your roll by hand ({problem})").format(name=name, problem=session.camera_problem)
        if not session.board_checked and session.misplaced:
            return _("The board differs from the saved game: set the ringed pawns right")
        if not session.board_checked and session.state.turn <= 1 and not session.state.last_roll:
            return _("Checking the board: every pawn in its yard?")  # a new game: nothing saved to compare
        if not session.board_checked:
            return _("Checking the board against the saved game")
        return _("{name}: roll the die").format(name=name)
    if mode is Mode.MOVE:
        prompt = _("{name} rolled {die}: choose a move").format(name=name, die="/".join(map(str, session.state.pool)))
        if session.camera_problem and not no_camera:
            prompt += " " + _("(board: {problem})").format(problem=session.camera_problem)
        return prompt
    return _("Game over")


def final_line(session: LudoSession) -> str:
    """The line ``companion play`` prints when the game ends: who won ("" while it runs)."""
    return _("{name} wins.").format(name=session.winner_name) if session.winner_name else ""


HOW_TO_PLAY: tuple[tuple[str, str], ...] = (
    (N_("The goal"),
     N_("Bring your four pawns from your yard all the way round the board and into your home. The first "
        "player with every pawn home wins; the others play on for the places.")),
    (N_("Rolling"),
     N_("Roll the die and move one pawn that many squares. A 6 brings a pawn out of the yard onto your "
        "start square and gives you another roll. Three sixes in a row end your turn.")),
    (N_("Capturing"),
     N_("If your pawn lands on a square with an opponent's pawn, that pawn goes back to its yard. "
        "Your home column is yours alone: no one else can enter it.")),
    (N_("Reaching home"),
     N_("A pawn needs the exact number to reach the end of its home column. The box reads the die and "
        "the board, checks every move and shows the legal moves and a hint.")),
    (N_("The screen"),
     N_("Arrows show the legal moves: the white one is chosen. A number on a pawn: that many "
        "pawns stand there. A star: a safe square when stars are safe. Beside the die: a try for "
        "a 6 or a bonus roll.")),
    (N_("Entering the die"),
     N_("With no camera the die starts at 1: BANK +1, PASS -1, round from 6 to 1 (a 6 is one PASS); "
        "CONFIRM enters it. NEXT picks a move, CONFIRM plays it. UNDO takes back the last step: a die "
        "taken back, or one the camera misread, comes back to be corrected.")),
)
"""How to play Ludo on the box: its pages, (heading, text), marked for translation, written from
``../shared/rules/ludo.md`` in our own words with the box's default rules (``companion.screens.rules``
shows them, with the keyboard's page last)."""

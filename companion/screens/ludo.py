"""What the Ludo screen shows: frozen view values, built from a session by :func:`build_view` and drawn
by ``companion.display.ludo``. All strings in a view are already translated."""

from __future__ import annotations

from dataclasses import dataclass

from companion.commands import Button
from companion.hints.ludo.words import pawn_phrase
from companion.i18n import N_, _
from companion.screens.common import Keys, key_legend, name_to_act, start_prompt
from companion.session.base import without_camera
from companion.session.ludo import LudoSession, Mode


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
class PlayerLine:
    """A player's line: name, colour, place once finished (1-4) or None, games won, pawns home."""

    name: str
    colour: str
    place: int | None
    wins: int
    home: int


@dataclass(frozen=True)
class LudoView:
    """The whole Ludo screen. board: geometry name. active: seat to act (None: nobody). die: last roll or
    None. pool: dice waiting for a move. sixes_in_row: the six counter (B.4.2). bonus_rolls: extra rolls
    owed (B.4.4, B.7). problems: lines about a wrong board. misplaced: (colour, seen, should) pawns to
    correct (relative positions, -1 = yard, None = unknown). winner: the winner's name once over.
    mode: the session mode's value."""

    title: str
    board: str
    players: tuple[PlayerLine, ...]
    active: int | None
    pawns: tuple[PawnView, ...]
    moves: tuple[MoveView, ...]
    die: int | None
    pool: tuple[int, ...]
    sixes_in_row: int
    bonus_rolls: int
    prompt: str
    message: str
    hint: str
    problems: tuple[str, ...]
    misplaced: tuple[tuple[str, int | None, int | None], ...]
    winner: str | None
    mode: str
    keys: tuple[tuple[str, str], ...] = ()


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
    players = tuple(PlayerLine(name, state.colours[s], placings.get(s), wins.get(name, 0),
                               sum(1 for p in state.pawns[s] if state.is_finished_position(p)))
                    for s, name in enumerate(session.players))
    active = session.start_seat if mode is Mode.START else (None if state.active < 0 else state.active)
    return LudoView(
        title=_("Ludo"), board=state.config.board, players=players, active=active, pawns=pawns, moves=moves,
        die=_die_shown(session), pool=state.pool, sixes_in_row=state.sixes_in_row, bonus_rolls=state.extra_rolls,
        prompt=_prompt(session), message=session.message, hint=hint.reason if hint else "",
        problems=session.problems, misplaced=tuple((m.colour, m.seen, m.should) for m in session.misplaced),
        winner=None if session.winner_name is None else session.winner_name, mode=mode.value,
        keys=key_legend(_KEYS[mode]))


_KEYS: dict[Mode, Keys] = {
    Mode.START: ((Button.CONFIRM, N_("start")), (Button.NEXT, N_("other player"))),
    Mode.ROLL: ((Button.BANK, N_("enter the die")), (Button.CONFIRM, N_("enter")), (Button.UNDO, N_("undo"))),
    Mode.MOVE: ((Button.CONFIRM, N_("move")), (Button.NEXT, N_("next move")), (Button.UNDO, N_("undo"))),
    Mode.OVER: ((Button.CONFIRM, N_("finish")),),
}


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
        if session.die_entry is not None:
            return _("{name}: the die shows {value}? BANK for one more, CONFIRM to enter it").format(
                name=name, value=session.die_entry)
        if no_camera:
            return _("{name}: BANK to enter the die you rolled").format(name=name)
        if session.camera_problem:
            return _("{name}: BANK to enter the die you rolled ({problem})").format(name=name,
                                                                                  problem=session.camera_problem)
        if not session.board_checked and session.misplaced:
            return _("The board differs from the saved game: set the ringed pawns right, or CONFIRM to go on "
                     "with the saved game")
        if not session.board_checked:
            return _("Checking the board against the saved game")
        return _("{name}: roll the die").format(name=name)
    if mode is Mode.MOVE:
        prompt = _("{name} rolled {die}: pick a pawn to move (CONFIRM plays the selected move)").format(
            name=name, die="/".join(map(str, session.state.pool)))
        if session.camera_problem and not no_camera:
            prompt += " " + _("(board: {problem})").format(problem=session.camera_problem)
        return prompt
    return _("Game over. CONFIRM to finish")


def final_line(session: LudoSession) -> str:
    """The line ``companion play`` prints when the game ends: who won ("" while it runs)."""
    return _("{name} wins.").format(name=session.winner_name) if session.winner_name else ""

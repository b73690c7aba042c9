"""The Ludo session: die and board readings and button presses in, engine actions and a screen out.

Flow (ludo.md B.3-B.6), one :class:`Mode` at a time:

- ``START``: the box proposes who starts (drawn at random, as fair as the roll-off of B.3); ``next``
  picks another player, ``confirm`` accepts, ``choose K`` starts with player K (1-based, seating order).
- ``ROLL``: waiting for the die. A reading of exactly one die, the same over ``stable_frames`` frames
  and from a scene that changed since the last accepted roll, is taken as the roll. With the buttons:
  ``bank`` +1 and ``pass`` -1 step a die entered by hand (round from 6 to 1 and back; the first press
  opens the entry at 1 or 6), ``confirm`` enters it, ``undo`` drops it (scripts may also ``dice V``);
  while a die is entered by hand the camera's die is not taken. With no camera at all
  (:data:`companion.session.base.NO_CAMERA`) the entry is open by itself, at 1, and ``undo`` takes back
  the last event. A roll without a legal move is lost at once (B.4.3) and the screen says so. After
  ``undo`` of a roll the die still lying there is not read again (an undone misreading would only come
  back): the entry opens at the value taken back, to be stepped to the right one, or roll again.
  The scene compared is the die reader's view (the board blanked out) when the reader gives one, so a
  pawn moved next to a die still lying there does not make that die a new roll.
- ``MOVE``: the legal moves are listed (arrows on the board), the advisor's one selected. The player
  moves the pawn by hand; every board reading stable over ``stable_frames`` frames and not yet judged
  is checked against the state (:func:`companion.games.ludo.check.check_move`): the board as before
  means still waiting; a legal move is recorded; a captured pawn still on the track, or a change no
  legal move explains, is shown (which pawn, where it belongs) and nothing is recorded until the board
  is right. A reading the adapter cannot use (a hand over a yard or squares: unknown, not empty) is
  waited out and said in the prompt. By hand:
  ``next`` selects another move, ``confirm`` plays the selected one, ``choose K`` plays move K (1-based,
  as listed).
- ``OVER``: the placings; ``confirm`` ends the session.

When a game starts or resumes with a camera, the board is read first (a stable reading) and compared
with the saved game (:func:`companion.games.ludo.board_differences`): when they agree play goes on; when
they differ the screen marks the pawns that are not where the saved game has them, and the players
either put them right (the check goes on reading) or press ``confirm``: the saved game is right and they
will set the board by it. No die is taken before the board is checked.

Script commands (``--input script:FILE``, one a line, ``#`` comments; :mod:`companion.app.inputs`):
``confirm``, ``next``, ``dice V``, ``choose K``, ``undo``, ``quit``, ``wait N``.

Every accepted action is appended to the store's event log before the session's state changes; the
state is the replay of the log (a restart resumes exactly), and ``undo`` drops the last event.
"""

from __future__ import annotations

import enum
import logging
import random

import numpy as np

from companion.commands import Button, Command
from companion.errors import IllegalMove
from companion.games.ludo import (CAPTURE_PENDING, ILLEGAL, MOVED, YARD, Action, LudoConfig, LudoState, Move, Phase,
    Roll, StartWith, action_from_dict, action_to_dict, board_differences, check_move)
from companion.hints import Budget
from companion.hints.ludo import advise
from companion.hints.ludo.words import pawn_phrase
from companion.i18n import _, ngettext, ordinal, sentence
from companion.session.base import Presses, SceneChange, Told, Waiting, seat_to_act, told_ending, without_camera
from companion.session.log import LoggedSession, Step, replay_log
from companion.session.readings import LudoReading
from companion.session.stable import Stable

log = logging.getLogger(__name__)


CHECK_PATIENCE = 4
"""Frames (times ``stable_frames``) the start or resume check waits for a readable board."""


class Mode(enum.Enum):
    """What the session waits for (see the module docstring)."""

    START = "start"
    ROLL = "roll"
    MOVE = "move"
    OVER = "over"


def colours_for(players: int) -> tuple[str, ...]:
    """The colours of ``players`` seats (B.3: two players take opposite colours)."""
    return LudoState.new(players).colours


def replay_state(events, players: int, config: LudoConfig, step: Step | None = None) -> LudoState:
    """The state after the logged ``action`` events (``step``: see :data:`companion.session.log.Step`);
    raises :class:`CorruptLog` when one does not apply."""
    return replay_log(LudoState.new(colours_for(players), config.resolved()), events,
                      lambda payload: [action_from_dict(payload)], kind="action", step=step)


def _third_six_text(name: str, before: LudoState, after: LudoState) -> str:
    """B.4.2 and the B.7 ``triple_six_penalty`` said for the players."""
    penalty = before.config.triple_six_penalty
    if penalty == "undo_turn" and after.pawns != before.pawns:
        return _("{name} rolls a third 6 in a row: this turn's moves are taken back and the turn passes").format(
            name=name)
    if penalty == "last_moved_to_yard" and after.pawns != before.pawns:
        return _("{name} rolls a third 6 in a row: the pawn moved last goes back to the yard and the turn "
                 "passes").format(name=name)
    return _("{name} rolls a third 6 in a row: no move, the turn passes").format(name=name)


def _roll_text(name: str, value: int, before: LudoState, after: LudoState, routine: bool) -> str:
    if after.last_event == "third_six":
        return _third_six_text(name, before, after)
    again = after.phase is Phase.ROLL and after.active == before.active
    if after.last_event == "no_move":  # B.4.3: the roll is lost
        if again and after.bonus_roll:
            return _("{name} rolls {value}: no pawn can move; roll again").format(name=name, value=value)
        tries = after.entry_try() if again else None
        if tries:  # B.2b entry_attempts_when_all_in_yard
            return _("{name} rolls {value}: no pawn can move; try {k} of {n} for a 6").format(
                name=name, value=value, k=tries[0], n=tries[1])
        return _("{name} rolls {value}: no pawn can move").format(name=name, value=value)
    if again:  # B.7 split_six_moves: the six is kept, the die is rolled again at once
        return _("{name} rolls a 6: roll again, then move").format(name=name)
    if after.six_bonus:  # B.4.4: a six's bonus roll follows the move
        return _("{name} rolls a 6: move, then roll again").format(name=name)
    return _("{name} rolls {value}").format(name=name, value=value) if routine else ""


def describe(players: list[str], before: LudoState, action: Action, after: LudoState, routine: bool = True) -> str:
    """The event ``action`` took ``before`` to ``after``, said for the players (translated), "" for none.

    ``players``: names in seating order. Said: who starts (B.3); a six and its bonus roll (B.4.4), a third
    six (B.4.2, with the B.7 penalty), a roll with no legal move and what follows it (another roll, or
    try k of n for a 6, B.2b, B.4.3); a capture: who captured whom and that the captured pawn goes back
    to its yard (B.5); a pawn home, a place, the winner (B.6); a bonus roll after a move. ``routine``:
    also an ordinary roll ("Ada rolls 4") and move ("Ada moves the leading pawn 4 squares"), which the
    screen shows anyway (the History replay and UNDO say them; the notice during play does not).
    """
    if isinstance(action, StartWith):
        return _("{name} starts").format(name=players[action.seat])
    seat = before.active
    name = players[seat]
    if isinstance(action, Roll):
        return _roll_text(name, action.value, before, after, routine)
    if not isinstance(action, Move):
        return ""
    info = next((i for i in before.move_infos() if i.move == action), None)
    pawn = pawn_phrase(before, action.frm, seat)
    parts = []
    if len(after.placings) > len(before.placings):  # B.6: all four pawns home
        if after.phase is Phase.OVER and after.placings[0] == seat:
            parts.append(_("{name} has all pawns home and wins!").format(name=name))
        elif after.phase is Phase.OVER:
            parts.append(_("{name} has all pawns home: {place} place; {winner} wins the game").format(
                name=name, place=ordinal(len(before.placings) + 1), winner=players[after.placings[0]]))
        else:
            parts.append(_("{name} has all pawns home: {place} place").format(
                name=name, place=ordinal(len(after.placings))))
    elif info is not None and info.captures:  # B.5: captured pawns go back to their yards
        for victim, count in info.captures:
            parts.append(ngettext("{name} captures {victim}'s pawn: back to the {colour} yard",
                                  "{name} captures {n} of {victim}'s pawns: back to the {colour} yard", count).format(
                name=name, victim=players[victim], n=count, colour=_(before.colours[victim])))
    elif info is not None and info.finishes:
        parts.append(_("{name} brings {pawn} home").format(name=name, pawn=pawn))
    elif routine and action.frm == YARD:
        parts.append(_("{name} brings a pawn out onto the start square").format(name=name))
    elif routine:
        parts.append(ngettext("{name} moves {pawn} {n} square", "{name} moves {pawn} {n} squares", action.die).format(
            name=name, pawn=pawn, n=action.die))
    if after.phase is Phase.ROLL and after.active == seat and after.bonus_roll:
        parts.append(_("{name} rolls again").format(name=name))  # B.4.4 / B.7 bonus roll
    return "; ".join(parts)


def describe_event(players: list[str], event, before: LudoState, after: LudoState) -> str:
    """:func:`describe` of one stored event (an ``action`` event's payload), "" for a note or a payload that
    holds no action."""
    if getattr(event, "kind", "action") != "action":
        return ""
    try:
        action = action_from_dict(event.payload)
    except (ValueError, KeyError, TypeError):
        return ""
    return describe(players, before, action, after)


CORNER_TURN = True
"""The screen's corner shows the turn (History's replay then names none in its prompt)."""


def story(events, players: list[str], config) -> list[Told]:
    """The stored ``events`` of one game told for the players, one :class:`Told` an event replayed in order
    (:func:`describe_event`; a turn ends when the turn passes or the game is over, the choice of who starts
    ends none). Raises
    :class:`CorruptLog` as :func:`replay_state`."""
    told: list[Told] = []

    def step(event, before, after):
        ended = (after.turn != before.turn and before.turn >= 1) or (
            after.phase is Phase.OVER and before.phase is not Phase.OVER)
        told.append(Told(event.seq, describe_event(players, event, before, after), ended))

    replay_state(events, len(players), config, step=step)
    return told

class LudoSession(LoggedSession):
    """One Ludo game at the table (see the module docstring); implements ``companion.session.base.GameSession``.

    store: a :class:`companion.store.Store`; game_id: the stored game; players: names in seating order
    (2-4; seat i plays ``colours_for(len(players))[i]``); config: the variant; stable_frames: readings
    that must agree before one is acted on (>= 1); rng: draws the proposed first player; hint_budget: the
    advisor's search budget (None: the whole search, which the box asks for).
    """

    @property
    def ending(self) -> str:
        """How the game ended, as History's replay tells its last event (:func:`told_ending`); the screen's
        WIN notice says it."""
        return told_ending(self, story)

    def __init__(self, store, game_id: int, players: list[str], config: LudoConfig | None = None,
                 stable_frames: int = 3, rng: random.Random | None = None, hint_budget: Budget | None = None):
        self.hint_budget = hint_budget
        """The advisor's search budget (the box's deadline; None: the default node budget, no deadline)."""
        if not 2 <= len(players) <= 4:
            raise ValueError(f"Ludo takes 2 to 4 players, not {len(players)}")
        super().__init__(store, game_id, players, (config or LudoConfig()).resolved())
        self.rng = rng or random.Random()
        self.stable_frames = max(1, stable_frames)
        self.problems: tuple[str, ...] = ()
        self.misplaced: tuple = ()
        self.option = 0
        self.die_entry: int | None = None
        """A die entered with the buttons (BANK steps it 1-6), not yet confirmed."""
        self.start_seat = self.rng.randrange(len(self.players))
        self.camera_problem = ""
        self._die_seen = 0
        self._die_stable = Stable(self.stable_frames)
        self._board_stable = Stable(self.stable_frames)
        self._board_seen: tuple | None = None
        self.scene = SceneChange()
        self._last_frame: np.ndarray | None = None
        self._hints: dict = {}
        self.board_checked = False
        """Whether the board on the table was compared with the saved game (start or resume)."""
        self._check_stable = Stable(self.stable_frames)
        self._unreadable = 0
        self._enter_phase()
        if self.state.phase is Phase.OVER:
            self._record_result()

    # -- what the loop asks -----------------------------------------------------------------------------

    @property
    def mode(self) -> Mode:
        return {Phase.FIRST_PLAYER: Mode.START, Phase.ROLL: Mode.ROLL, Phase.MOVE: Mode.MOVE,
                Phase.OVER: Mode.OVER}[self.state.phase]

    @property
    def winner_name(self) -> str | None:
        outcome = self.state.outcome()
        return None if outcome is None or outcome.winner is None else self.players[outcome.winner]

    @property
    def active_seat(self) -> int | None:
        """The seat to act (during START: the proposed first player), None once the game is over."""
        return seat_to_act(self.state, self.start_seat, self.mode is Mode.START)

    @property
    def attention(self) -> bool:
        """A refused command, or a board that shows a wrong or unfinished move."""
        return self._refused or bool(self.problems)

    @property
    def waiting(self) -> Waiting:
        """CAMERA while a die is in view but not yet still; PLAYERS otherwise (a die may be entered by
        hand when none is seen); NOTHING once the session is finished."""
        if self.finished:
            return Waiting.NOTHING
        if self.mode is Mode.ROLL and self._die_seen and not self.camera_problem:
            return Waiting.CAMERA
        return Waiting.PLAYERS

    @property
    def wants_frame(self) -> bool:
        """The die is read in ROLL, the board in MOVE (and first, at a start or resume, the board)."""
        return self.mode in (Mode.ROLL, Mode.MOVE)

    @property
    def reads_board(self) -> bool:
        """Whether the reader should read the board now (MOVE, or the check at a start or resume)."""
        return self.mode is Mode.MOVE or (self.mode is Mode.ROLL and not self.board_checked)

    # -- inputs ----------------------------------------------------------------------------------------

    def on_camera_problem(self, reason: str) -> None:
        """No picture (``reason``): nothing to compare the board with; with no camera at all the die is
        entered by hand, the entry open by itself."""
        self.camera_problem = reason
        self.board_checked = True  # no picture: nothing to compare the saved game with
        self._open_by_hand()

    def _open_by_hand(self) -> None:
        """With no camera at all, while a roll is due and no die is being entered: the entry, at 1."""
        if self.die_entry is None and self.state.phase is Phase.ROLL and without_camera(self):
            self.die_entry = 1

    def on_frame(self, frame_bgr: np.ndarray | None, reading: LudoReading) -> None:
        """Take one reading (:class:`companion.session.readings.LudoReading`; see the module docstring)."""
        self._last_frame = reading.die_view if reading.die_view is not None else frame_bgr
        self.camera_problem = reading.problem if reading.problem and reading.pawns is None and reading.die is None else ""
        if self.mode is Mode.ROLL and not self.board_checked:
            self._check_board(reading.pawns)
        elif self.mode is Mode.ROLL:
            self._die_seen = reading.dice_seen
            if reading.die is None or reading.dice_seen != 1 or self.die_entry is not None:
                self._die_stable.reset()
                return
            if self._last_frame is not None and not self.scene.changed(self._last_frame):
                return  # the same still scene as at the last accepted roll
            if self._die_stable.feed(reading.die):
                self._accept(Roll(reading.die), source="camera")
        elif self.mode is Mode.MOVE and reading.pawns is not None:
            self._on_board(reading.pawns)

    def _check_board(self, pawns) -> None:
        """The start or resume check: a stable board reading against the saved game. A board that cannot
        be read for :data:`CHECK_PATIENCE` times ``stable_frames`` frames is not waited for (the die is
        then read, and every move is checked as usual)."""
        if pawns is None:
            self._unreadable += 1
            if self._unreadable >= CHECK_PATIENCE * self.stable_frames:
                self.board_checked = True
                log.info("the board could not be read to compare it with the saved game")
            return
        key = tuple(tuple(sorted(p)) for p in pawns)
        if not self._check_stable.feed(key):
            return
        self.misplaced = board_differences(self.state, key)
        if not self.misplaced:
            self.board_checked, self.problems = True, ()
            log.info("the board agrees with the saved game")
        else:
            self.problems = (_("Pink rings: pawns that are not where the saved game has them; blue rings: "
                               "where they belong"),)

    def _on_board(self, pawns: tuple[tuple[int, ...], ...]) -> None:
        key = tuple(tuple(sorted(p)) for p in pawns)
        if not self._board_stable.feed(key) or key == self._board_seen:
            return
        self._board_seen = key
        result = check_move(self.state, key)
        if result.status == MOVED:
            self.problems, self.misplaced = (), ()
            self._accept(result.move, source="board")
        elif result.status in (CAPTURE_PENDING, ILLEGAL):
            self.problems, self.misplaced = result.problems, result.misplaced
        else:
            self.problems, self.misplaced = (), ()

    def on_command(self, command: Command) -> None:
        self._refused = False
        try:
            self._command(command)
        except IllegalMove as error:
            self._refused = True
            self.message = sentence(_(error.reason))  # the rule's section stays in the log
            log.info("refused: %s", error)

    def _command(self, command: Command) -> None:
        button, mode = command.button, self.mode
        if not self.board_checked and self.misplaced and button is Button.CONFIRM:
            self.board_checked, self.problems, self.misplaced = True, (), ()  # the saved game is right
            log.info("the players keep the saved game; they set the board by it")
            return
        if button is Button.UNDO and self.die_entry is not None and not without_camera(self):
            self.die_entry, self.message = None, ""  # back to the camera
            return
        if button is Button.UNDO:
            self._undo()
            return
        if mode is Mode.START:
            if button is Button.NEXT:
                self.start_seat = (self.start_seat + 1) % len(self.players)
            elif button is Button.CONFIRM:
                self._accept(StartWith(self.start_seat))
            elif button is Button.CHOOSE and command.args:
                k = command.args[0]
                if not 1 <= k <= len(self.players):
                    raise IllegalMove(_("choose 1 to {n}, not {k}").format(n=len(self.players), k=k), "input")
                self.start_seat = k - 1
                self._accept(StartWith(k - 1))
            return
        if mode is Mode.ROLL:
            if button is Button.DICE:
                if len(command.args) != 1 or not 1 <= command.args[0] <= 6:
                    raise IllegalMove(_("enter one die, 1 to 6"), "ludo.md B.4.1")
                self._accept(Roll(command.args[0]), source="hand")
            elif button in (Button.BANK, Button.PASS):
                self.die_entry, self.message = step_entry(self.die_entry, 1 if button is Button.BANK else -1), ""
            elif button is Button.CONFIRM and self.die_entry is not None:
                value, self.die_entry = self.die_entry, None
                self._accept(Roll(value), source="hand")
            elif button is Button.CONFIRM or button is Button.NEXT:
                self.message = _("Roll the die, or BANK to enter it by hand")
            return
        if mode is Mode.MOVE:
            options = self.state.legal_actions()
            if button is Button.NEXT:
                self.option = (self.option + 1) % len(options)
            elif button is Button.CONFIRM:
                self._accept(options[self.option], source="hand")
            elif button is Button.CHOOSE and command.args:
                k = command.args[0]
                if not 1 <= k <= len(options):
                    raise IllegalMove(_("choose 1 to {n}, not {k}").format(n=len(options), k=k), "input")
                self._accept(options[k - 1], source="hand")
            return
        if mode is Mode.OVER and button is Button.CONFIRM:
            self.finished = True

    # -- accepting and undoing ---------------------------------------------------------------------------

    def _accept(self, action: Action, **details) -> None:
        self._accept_actions([action], "action", {**action_to_dict(action), **details})

    def accepted(self, before: LudoState, action: Action, after: LudoState) -> None:
        if not isinstance(action, StartWith):
            self.board_checked = True  # the players played on: the check of the start or resume is over
        if isinstance(action, Roll):
            self.scene.remember(self._last_frame)  # the same still die is not read twice
        self.message = self._describe(before, action, after)
        self._enter_phase()

    def replay(self, events) -> LudoState:
        return replay_state(events, len(self.players), self.config)

    def after_undo(self) -> None:
        # the still scene on the table is not read again: an undone misread die would only come back
        self.scene.remember(self._last_frame)
        self._enter_phase()

    def _undo(self) -> None:
        """Take back the last event; a roll taken back (the only event taken while a roll is due) opens
        the entry at its value, the likeliest start for the right one (a misread or mis-entered die)."""
        undone = self.state
        self.undo()
        if self.state is not undone and self.state.phase is Phase.ROLL and undone.last_roll is not None:
            self.die_entry = undone.last_roll

    def _enter_phase(self) -> None:
        self.die_entry = None
        self._open_by_hand()
        self.option = 0
        self._die_stable.reset()
        self._board_stable.reset()
        self._board_seen = None
        self.problems, self.misplaced = (), ()
        if self.state.phase is Phase.MOVE:
            options = self.state.legal_actions()
            hint = self.hint()
            self.option = options.index(hint.action) if hint and hint.action in options else 0

    def result_details(self, outcome) -> dict:
        return {"finished_pawns": {self.players[s]: outcome.scores[s] for s in range(len(self.players))},
                "turns": self.state.turn}

    def _describe(self, before: LudoState, action: Action, after: LudoState) -> str:
        return describe(self.players, before, action, after, routine=False)

    def describe_event(self, event, before: LudoState, after: LudoState) -> str:
        return describe_event(self.players, event, before, after)

    # -- what the screen says of the turn ----------------------------------------------------------------

    @property
    def entry_try(self) -> tuple[int, int] | None:
        """``(k, n)`` while the roll now due is try ``k`` of ``n`` for a 6 (ludo.md B.2b, mensch40: a player
        none of whose pawns can move rolls up to three times), else None
        (:meth:`companion.games.ludo.LudoState.entry_try`)."""
        return self.state.entry_try()

    @property
    def bonus_rolls_pending(self) -> int:
        """Bonus rolls the player to act is owed this turn, 0-3: the roll now due when it is a bonus roll,
        or the six's bonus that follows the move (B.4.4, B.7;
        :attr:`companion.games.ludo.LudoState.bonus_rolls_pending`; the state's ``extra_rolls`` counts only
        those after the next one, so it reads 0 while a six's bonus waits)."""
        return self.state.bonus_rolls_pending

    @property
    def roll_note(self) -> str:
        """The turn's situation in a few words for the screen (translated), "" for none: "try 2 of 3 for a
        6" (:attr:`entry_try`), "bonus roll" (ROLL: the roll now due is one), "then a bonus roll" (MOVE:
        the six's bonus follows the move), with a count when more than one is owed."""
        tries = self.entry_try
        if tries:
            return _("try {k} of {n} for a 6").format(k=tries[0], n=tries[1])
        pending = self.bonus_rolls_pending
        if not pending:
            return ""
        if self.state.phase is Phase.ROLL and pending == 1:
            return _("bonus roll")
        if self.state.phase is Phase.ROLL:
            return ngettext("bonus roll, {n} more to come", "bonus roll, {n} more to come", pending - 1).format(
                n=pending - 1)
        return ngettext("then a bonus roll", "then {n} bonus rolls", pending).format(n=pending)

    # -- hint and view ----------------------------------------------------------------------------------

    def hint(self):
        """The advisor's hint for the active player in MOVE, else None: searched once per state within
        :attr:`hint_budget` and kept (drawing the screen again does not search again)."""
        if self.state.phase is not Phase.MOVE:
            return None
        key = (self.state.pawns, self.state.pool, self.state.active)
        if key not in self._hints:
            self._hints[key] = advise(self.state, self.state.active, self.hint_budget)
        return self._hints[key]


SESSION = LudoSession
"""The session class of this game (``companion.registry``)."""


def step_entry(value: int | None, step: int) -> int:
    """The die entered by hand after BANK (``step`` 1) or PASS (-1): one pip up or down, round from 6 to
    1 and back (B.4.1: a die shows 1-6); a first press opens the entry (``value`` None) at 1 or 6."""
    if value is None:
        return 1 if step > 0 else 6
    return (value - 1 + step) % 6 + 1


def press_for(session: LudoSession, action: Action) -> list[Command]:
    """The button presses (CONFIRM, BANK, PASS, NEXT only) that make ``session`` take ``action``, applied
    to it as they are made (by-hand demo scripts): the die stepped with BANK (+1) or PASS (-1), whichever
    is fewer (a closed entry opens at 1 or 6), and CONFIRM; a move picked with NEXT among the legal ones
    and CONFIRM. Raises ``ValueError`` when the presses do not get there."""
    presses = Presses(session)
    press = presses.press

    if isinstance(action, StartWith):
        presses.start_with(action.seat)
    elif isinstance(action, Roll):
        if session.die_entry is None:
            press(Button.BANK if (action.value - 1) % 6 <= (6 - action.value) % 6 else Button.PASS)
        up = (action.value - session.die_entry) % 6
        for _step in range(up if up <= 3 else 6 - up):
            press(Button.BANK if up <= 3 else Button.PASS)
        press(Button.CONFIRM)
    else:
        options = session.state.legal_actions()
        while options[session.option] != action and len(presses) < len(options):
            press(Button.NEXT)
        press(Button.CONFIRM)
    return presses.made(action)

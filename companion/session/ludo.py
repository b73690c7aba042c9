"""The Ludo session: die and board readings and button presses in, engine actions and a screen out.

Flow (ludo.md B.3-B.6), one :class:`Mode` at a time:

- ``START``: the box proposes who starts (drawn at random, as fair as the roll-off of B.3); ``next``
  picks another player, ``confirm`` accepts, ``choose K`` starts with player K (1-based, seating order).
- ``ROLL``: waiting for the die. A reading of exactly one die, the same over ``stable_frames`` frames
  and from a scene that changed since the last accepted roll, is taken as the roll. With the buttons:
  ``bank`` enters a die by hand and steps it 1-6, ``confirm`` enters it, ``undo`` drops it (scripts may
  also ``dice V``); while a die is entered by hand the camera's die is not taken. A roll without a
  legal move is lost at once (B.4.3) and the screen says so. After ``undo`` the die still lying there
  is not read again (an undone misreading would only come back): roll again or enter it by hand.
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
from companion.hints.ludo import advise
from companion.i18n import _
from companion.session.base import Presses, SceneChange, Waiting, seat_to_act
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


class LudoSession(LoggedSession):
    """One Ludo game at the table (see the module docstring); implements ``companion.session.base.GameSession``.

    store: a :class:`companion.store.Store`; game_id: the stored game; players: names in seating order
    (2-4; seat i plays ``colours_for(len(players))[i]``); config: the variant; stable_frames: readings
    that must agree before one is acted on (>= 1); rng: draws the proposed first player.
    """

    def __init__(self, store, game_id: int, players: list[str], config: LudoConfig | None = None,
                 stable_frames: int = 3, rng: random.Random | None = None):
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
        self.camera_problem = reason
        self.board_checked = True  # no picture: nothing to compare the saved game with

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
            self.message = _(error.reason)  # the rule's section stays in the log
            log.info("refused: %s", error)

    def _command(self, command: Command) -> None:
        button, mode = command.button, self.mode
        if not self.board_checked and self.misplaced and button is Button.CONFIRM:
            self.board_checked, self.problems, self.misplaced = True, (), ()  # the saved game is right
            log.info("the players keep the saved game; they set the board by it")
            return
        if button is Button.UNDO and self.die_entry is not None:
            self.die_entry, self.message = None, ""
            return
        if button is Button.UNDO:
            self.undo()
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
            elif button is Button.BANK:
                self.die_entry = 1 if self.die_entry is None else self.die_entry % 6 + 1
                self.message = _("By hand: {value}. CONFIRM to enter it").format(value=self.die_entry)
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

    def _enter_phase(self) -> None:
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
        if isinstance(action, StartWith):
            return _("{name} starts").format(name=self.players[action.seat])
        name = self.players[before.active]
        if after.phase is Phase.OVER:
            return _("{name} wins!").format(name=self.players[after.placings[0]])
        if isinstance(action, Roll):
            if after.last_event == "third_six":
                return _("{name}: third six in a row, the turn ends").format(name=name)
            if after.last_event == "no_move":
                return _("{name} rolled {v}: no legal move").format(name=name, v=action.value)
            return ""
        if isinstance(action, Move) and len(after.placings) > len(before.placings):
            return _("{name} has all pawns home: place {k}").format(name=name, k=len(after.placings))
        if isinstance(action, Move):
            captured = [before.colours[s] for s in range(before.num_players)
                        if after.pawns[s].count(YARD) > before.pawns[s].count(YARD) and s != before.active]
            if captured:  # B.5: the captured pawns go back to their yards; the players move them by hand
                return _("Captured: put the {colours} pawn back in its yard").format(
                    colours=", ".join(_(c) for c in captured))
        return ""

    # -- hint and view ----------------------------------------------------------------------------------

    def hint(self):
        """The advisor's hint for the active player in MOVE, else None (cached per state)."""
        if self.state.phase is not Phase.MOVE:
            return None
        key = (self.state.pawns, self.state.pool, self.state.active)
        if key not in self._hints:
            self._hints[key] = advise(self.state, self.state.active)
        return self._hints[key]


SESSION = LudoSession
"""The session class of this game (``companion.registry``)."""


def press_for(session: LudoSession, action: Action) -> list[Command]:
    """The button presses (CONFIRM, BANK, NEXT only) that make ``session`` take ``action``, applied to it
    as they are made (by-hand demo scripts): the die entered with BANK (1-6) and CONFIRM, a move picked
    with NEXT among the legal ones and CONFIRM. Raises ``ValueError`` when the presses do not get there."""
    presses = Presses(session)
    press = presses.press

    if isinstance(action, StartWith):
        presses.start_with(action.seat)
    elif isinstance(action, Roll):
        for _ in range(action.value):
            press(Button.BANK)
        press(Button.CONFIRM)
    else:
        options = session.state.legal_actions()
        while options[session.option] != action and len(presses) < len(options):
            press(Button.NEXT)
        press(Button.CONFIRM)
    return presses.made(action)

"""The Can't Stop session: camera readings and button presses in, engine actions and screens out.

Flow (cant-stop.md A.3-A.5), one :class:`Mode` at a time:

- ``START``: the box proposes who starts (drawn at random, as fair as the roll-off of A.3); ``next``
  picks another player, ``confirm`` accepts.
- ``WATCH``: waiting for four still dice. A reading stable over ``stable_frames`` frames, from a scene
  that changed since the last accepted roll, moves to ``CHECK``. A stable reading of too few or too
  many dice waits for the players: ``next`` takes it into ``CHECK`` to be corrected, made four dice
  (A.2): a missing die is added at the last die's value, and of too many dice the four the reader is
  surest of are kept. Without a picture, ``next`` enters a roll by hand. With no camera at all
  (:data:`companion.session.base.NO_CAMERA`) there is no ``WATCH``: the entry opens by itself.
- ``CHECK``: the roll, read or entered, is shown with one die selected; players ``confirm`` it (four
  dice) or correct it with the same presses as an entry by hand: ``bank`` +1 and ``pass`` -1 on the
  selected die (round from 6 to 1 and back), ``next`` the next die (past the last, while fewer than
  four: a new die at the selected die's value). An entry by hand starts with one die at 1. ``undo``
  drops the reading and reads again; with no camera ``undo`` takes back the last event, and a roll
  taken back opens again as it was entered.
- ``CHOOSE``: the legal pairings (A.6), the advisor's one selected; ``next`` / ``confirm``.
- ``DECIDE``: ``confirm`` rolls again, ``bank`` banks (A.5.4-5).
- ``OVER``: the winner; ``confirm`` ends the session.

Every accepted action is appended to the store's event log before the session's state changes; the
state is the replay of the log (so a restart resumes exactly), and ``undo`` drops the last event.

The board (issue 50, where the game's ``board_layout`` is set): after every bank and every bust, and when
a game resumes, the session compares the board the camera reads with the record
(:func:`companion.games.cant_stop.check.board_differences`) until a stable reading agrees, the next roll
is taken, the players keep the record with ``confirm``, or the board cannot be read for a while
(:data:`BOARD_PATIENCE`). A difference is shown in words
(:attr:`CantStopSession.board_differences`), never written into the record; a hand over the board or a
piece between spaces is no reading, and the box waits.
"""

from __future__ import annotations

import enum
import itertools
import logging
import random
from dataclasses import dataclass, field, replace

import numpy as np

from companion.commands import Button, Command
from companion.errors import IllegalMove
from companion.games.cant_stop import (COLUMNS, Action, Bank, CantStopConfig, CantStopState, Choose, Phase, Roll,
    RollAgain, StartWith, action_from_dict, action_to_dict, bust_probability)
from companion.games.cant_stop.check import BoardDifference, board_differences
from companion.hints import Budget
from companion.hints.cant_stop import advise
from companion.i18n import _, listing, ngettext, sentence
from companion.session.base import Presses, SceneChange, Told, Waiting, seat_to_act, told_ending, without_camera
from companion.session.log import LoggedSession, Step, replay_log
from companion.session.readings import CantStopReading
from companion.session.stable import Stable
from vision.observation import DiceObservation

log = logging.getLogger(__name__)

DICE = 4  # cant-stop.md A.2

ENTRY_START = (1, 3, 4, 6)
"""The four dice a roll entered by hand starts at: every value 1-6 is one of them or one BANK / PASS press
from one (round from 6 to 1), and the order of the dice does not matter (A.5.2). Over the 1,296 rolls
this takes 5.9 presses a roll on average, CONFIRM included, where one die at 1 with each new die at the
one before took 7.5 (every roll entered by :func:`press_for` in ``tests/session/test_cant_stop.py``)."""
BOARD_PATIENCE = 8
"""Frames (times ``stable_frames``) the board check waits for a readable board before it gives up for
this turn: the board reader takes some 100 ms a frame here (three or four times that on the Pi), so a
board the camera cannot read (not in view, no layout that matches) does not slow the dice for long."""
ENTRY_EDITS = frozenset({Button.NEXT, Button.BANK, Button.UP, Button.PASS, Button.SET, Button.ADD, Button.REMOVE})
"""The presses that change a roll being entered or corrected (:attr:`RollCheck.steps` keeps what each
changed)."""


class Mode(enum.Enum):
    """What the session waits for (see the module docstring)."""

    START = "start"
    WATCH = "watch"
    CHECK = "check"
    CHOOSE = "choose"
    DECIDE = "decide"
    OVER = "over"


@dataclass
class RollCheck:
    """The reading being checked: values (editable), the observation it came from, the selection.

    selected: None, a die index, or ``len(values)`` for the "add a die" slot. guessed: indices of the
    values whose die is a guess (a whole roll entered over the reading changed several dice; a die removed
    shifted the others): not kept to learn from. steps: (values, selected) before each change made to
    it, newest last: with no camera, UNDO takes back the last press of the entry before any event.
    """

    values: list[int]
    observation: DiceObservation | None
    frame_bgr: np.ndarray | None
    read: tuple[int, ...] | None
    selected: int | None = None
    guessed: set[int] = field(default_factory=set)
    steps: list[tuple[list[int], int | None]] = field(default_factory=list)

    def confirmed_dice(self) -> tuple[list, list[int]]:
        """The read dice (DieReading) and the values the players confirmed for them, where the pairing is
        sure: dice the players added have no box, a guessed pairing is left out."""
        if self.observation is None:
            return [], []
        pairs = [(d, v) for i, (d, v) in enumerate(zip(self.observation.dice, self.values)) if i not in self.guessed]
        return [d for d, _ in pairs], [v for _, v in pairs]


def _onto_boxes(values: list[int], read: tuple[int, ...]) -> list[int]:
    """Order ``values`` so that each one the reader also saw stands at that die's place (and box).

    The players' values that match a read die go to its index; the others fill the remaining places
    in order, then any extra ones follow (dice the reader missed have no box).
    """
    placed: list[int | None] = [None] * len(read)
    rest = list(values)
    for i, seen in enumerate(read):
        if seen in rest:
            rest.remove(seen)
            placed[i] = seen
    for i in range(len(placed)):
        if placed[i] is None and rest:
            placed[i] = rest.pop(0)
    return [v for v in placed if v is not None] + rest


def step_die(value: int, step: int) -> int:
    """A die's ``value`` (1-6, A.2) stepped by ``step`` pips, round from 6 to 1 and back: BANK +1, PASS -1."""
    return (value - 1 + step) % 6 + 1


def _next_die(check: RollCheck) -> None:
    """NEXT on a roll being checked or entered: the next die is selected; past the last one, while the
    roll has fewer than four dice (A.2), a new die at the selected die's value (the likeliest start of
    the next die when the dice are entered in order), else the first die again."""
    count = len(check.values)
    if check.selected is None:
        check.selected = 0 if count else None
    elif check.selected + 1 < count:
        check.selected += 1
    elif count < DICE:
        check.values.append(check.values[check.selected] if check.selected < count else 1)
        check.selected = count
    else:
        check.selected = 0
    if check.selected is None:  # no die at all (all removed from the keyboard): a new one at 1
        check.values.append(1)
        check.selected = 0


def _four_dice(seen: DiceObservation, frame_bgr: np.ndarray | None) -> RollCheck:
    """A reading of the wrong number of dice made a check of four (A.2) for the players to correct: a
    missing die is added at the last read die's value (selected, to be stepped); of too many dice, the
    four the reader is surest of are kept in their reading order, the first flagged one selected. The
    check's observation and ``read`` hold the dice kept, so each value stays on its die's box."""
    dice = seen.dice
    if len(dice) > DICE:
        keep = sorted(sorted(range(len(dice)), key=lambda i: (dice[i].flagged, -dice[i].confidence))[:DICE])
        seen = replace(seen, dice=tuple(dice[i] for i in keep))
    values = list(seen.values)
    selected = next((i for i, d in enumerate(seen.dice) if d.flagged), 0)
    if len(values) < DICE:
        selected = len(values)
        values += [values[-1]] * (DICE - len(values))
    return RollCheck(values, seen, frame_bgr, seen.values, selected)


class ReadingStabilizer:
    """Offers a reading once the same dice values were seen in ``stable_frames`` consecutive frames.

    Values are compared as sorted multisets so that the reading order of touching dice does not matter.
    ``stable_frames`` >= 1 (config ``session.stable_frames``, counted by :class:`Stable`); ``expected`` is
    the number of dice the game
    needs (4 for Can't Stop, A.2). ``feed`` returns the stable observation or None, and keeps a status
    line for the players ("3 dice seen", "hold still").
    """

    def __init__(self, stable_frames: int, expected: int):
        self._stable = Stable(stable_frames)
        self.stable_frames = stable_frames
        self.expected = expected
        self.status = ""
        self.stable_wrong_count = False
        """True while a stable reading shows some dice, but not ``expected`` of them: the players may
        take it and correct it (add the die the reader missed, remove one it invented)."""

    def reset(self) -> None:
        self._stable.reset()
        self.status = ""
        self.stable_wrong_count = False

    def feed(self, observation: DiceObservation) -> DiceObservation | None:
        self.stable_wrong_count = False
        if observation.problem:
            self._stable.reset()
            self.status = observation.problem
            return None
        key = tuple(sorted(observation.values))
        held = self._stable.feed(key)
        count = len(key)
        if count != self.expected:
            self.stable_wrong_count = count > 0 and held
            self.status = (_("No dice seen") if count == 0 else
                           ngettext("{n} die seen, {want} needed", "{n} dice seen, {want} needed", count)
                           .format(n=count, want=self.expected))
            return None
        if not held:
            self.status = _("Hold still…")
            return None
        self.status = ""
        return observation


def replay_state(events, players: int, config: CantStopConfig, step: Step | None = None) -> CantStopState:
    """The state after the logged actions (``step``: see :data:`companion.session.log.Step`); raises
    :class:`CorruptLog` when one does not apply."""
    return replay_log(CantStopState.new(players, config), events, lambda payload: [action_from_dict(payload)],
                      step=step)


def _dice_text(dice) -> str:
    return " ".join(map(str, dice))


def describe(players: list[str], before: CantStopState, action: Action, after: CantStopState,
             routine: bool = True) -> str:
    """The event ``action`` took ``before`` to ``after``, said for the players (translated), "" for none.

    ``players``: names in seating order. Every action gets a line: who starts; a roll ("Ada rolls 3 4 5
    6") or a bust with the dice and the runners lost ("Ada busts with 1 1 2 2: the runners on 6, 8 and
    11 go back", A.5.3); the pairing used (A.6); rolling again; a bank with the columns claimed and the
    markers that come off them (A.5.5, A.7); a win (A.4). Used for the session's notice, for what UNDO
    took back and for the History replay. ``routine``: also a roll that does not bust, a pairing and
    rolling again, which the screen shows anyway (the replay and UNDO say them; the notice during play
    says only who starts, a bust, a bank and a win).
    """
    name = players[before.active] if before.active >= 0 else ""
    if isinstance(action, StartWith):
        return _("{name} starts").format(name=players[action.seat])
    if isinstance(action, Roll):
        if after.last_bust:  # A.5.3: no pairing can be used (set only by a roll that busts)
            lost = sorted(before.runner_map())
            if not lost:
                return _("{name} busts with {dice}: no column can be used").format(
                    name=name, dice=_dice_text(action.dice))
            return ngettext("{name} busts with {dice}: the runner on {columns} goes back",
                            "{name} busts with {dice}: the runners on {columns} go back", len(lost)).format(
                name=name, dice=_dice_text(action.dice), columns=listing(lost))
        return _("{name} rolls {dice}").format(name=name, dice=_dice_text(action.dice)) if routine else ""
    if isinstance(action, RollAgain):
        return _("{name} rolls again").format(name=name) if routine else ""
    if isinstance(action, Choose) and after.phase is Phase.DECIDE and not routine:
        return ""
    if isinstance(action, Choose) and after.phase is Phase.DECIDE:
        totals = action.totals
        if len(totals) == 2 and totals[0] == totals[1]:
            return _("{name} climbs column {column} twice").format(name=name, column=totals[0])
        return ngettext("{name} climbs column {columns}", "{name} climbs columns {columns}", len(set(totals))).format(
            name=name, columns=listing(totals))
    if isinstance(action, (Bank, Choose)):  # a bank, or a pairing that banked at once (A.8 auto_stop_on_win)
        new = [c for c in COLUMNS if after.owner(c) == before.active and before.owner(c) is None]
        removed = {s: sum(1 for c in new if before.marker(s, c) and not after.marker(s, c))
                   for s in range(before.num_players) if s != before.active}
        cleared = [players[s] for s, n in removed.items() if n]
        if after.phase is Phase.OVER:
            text = ngettext("{name} banks, claims column {columns} and wins!",
                            "{name} banks, claims columns {columns} and wins!", len(new)).format(
                name=name, columns=listing(new)) if new else _("{name} wins!").format(name=name)
        elif new:
            text = ngettext("{name} banks and claims column {columns}", "{name} banks and claims columns {columns}",
                            len(new)).format(name=name, columns=listing(new))
        else:
            return _("{name} banks").format(name=name)
        if cleared:  # A.7: the other players' markers in a claimed column are removed
            text += " " + ngettext("({names}: your marker there comes off)", "({names}: your markers there come off)",
                                   sum(removed.values())).format(names=listing(cleared))
        return text
    return ""


def describe_event(players: list[str], event, before: CantStopState, after: CantStopState) -> str:
    """:func:`describe` of one stored event (``event.payload``: the action's JSON), "" when it holds none."""
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

class CantStopSession(LoggedSession):
    """One Can't Stop game at the table, backed by an event log in ``store``.

    players: names in seating order (1-4). stable_frames: frames a reading must hold (>= 1).
    rng: draws the proposed first player (seeded in demos and tests). hint_budget: the advisor's search
    budget (None: the whole search, which the box asks for: the same position gets the same hint live, in
    History's replay, in the demos and the tests).
    Raises :class:`CorruptLog` when the stored events do not replay.
    """

    @property
    def ending(self) -> str:
        """How the game ended, as History's replay tells its last event (:func:`told_ending`); the screen's
        WIN notice says it."""
        return told_ending(self, story)

    def __init__(self, store, game_id: int, players: list[str], config: CantStopConfig | None = None,
                 stable_frames: int = 3, rng: random.Random | None = None, hint_budget: Budget | None = None):
        self.hint_budget = hint_budget
        super().__init__(store, game_id, players, config or CantStopConfig())
        self.rng = rng or random.Random()
        self.stabilizer = ReadingStabilizer(stable_frames, DICE)
        self.scene = SceneChange()
        self.check: RollCheck | None = None
        self.option = 0
        self.start_seat = self.rng.randrange(len(self.players))
        self.frame: np.ndarray | None = None
        self.observation: DiceObservation | None = None
        self.confirmed: RollCheck | None = None
        """The last roll the players confirmed, as it was checked (the screen keeps showing it)."""
        self.camera_problem = ""
        self.keeper = None
        """Where confirmed camera rolls are kept to learn from (``companion.readers.dice.RollKeeper``), or None."""
        self._kept_last = False
        self._hints: dict[CantStopState, object] = {}
        self._busts: dict[CantStopState, float] = {}
        self.board_pending = self.state.turn > 0 and self.state.phase is Phase.ROLL  # a game resumes
        """The board is to be compared with the record (after a bank or a bust, on resuming: module
        docstring); only where ``config.board_layout`` is set."""
        self.board_differences: tuple[BoardDifference, ...] = ()
        """What the last stable board reading showed that the record does not have (empty: agrees)."""
        self._board_stable = Stable(stable_frames)
        self._board_unread = 0
        self.board_looks = 0
        """How many stable board readings have been compared with the record (the board demo's clock)."""
        self._enter_phase()
        self._restore_roll()
        if self.state.phase is Phase.OVER:
            self._record_result()

    # -- what the loop asks -----------------------------------------------------------------------------

    @property
    def mode(self) -> Mode:
        phase = self.state.phase
        if phase is Phase.FIRST_PLAYER:
            return Mode.START
        if phase is Phase.ROLL:
            return Mode.CHECK if self.check else Mode.WATCH
        return {Phase.CHOOSE: Mode.CHOOSE, Phase.DECIDE: Mode.DECIDE, Phase.OVER: Mode.OVER}[phase]

    @property
    def winner_name(self) -> str | None:
        """The winner's name once the game is over, else None."""
        return None if self.state.winner is None else self.players[self.state.winner]

    @property
    def active_seat(self) -> int | None:
        """The seat to act (during START: the proposed first player), None once the game is over."""
        return seat_to_act(self.state, self.start_seat, self.mode is Mode.START)

    @property
    def attention(self) -> bool:
        """A reading with a die too few or too many, a board that differs from the record, or a refused
        command (its reason is on screen)."""
        return (self.mode is Mode.WATCH and (self.stabilizer.stable_wrong_count or bool(self.board_differences))) \
            or self._refused

    @property
    def waiting(self) -> Waiting:
        """Whether the box waits for the camera, for the players, or for nothing (game over)."""
        if self.finished:
            return Waiting.NOTHING
        if self.mode is Mode.WATCH and not self.camera_problem and not self.stabilizer.stable_wrong_count:
            return Waiting.CAMERA
        return Waiting.PLAYERS

    @property
    def wants_frame(self) -> bool:
        """True while the session looks for dice (the loop then reads and passes frames)."""
        return self.mode is Mode.WATCH

    @property
    def wants_board(self) -> bool:
        """True while the board is to be compared with the record (the reader then reads it too)."""
        return self.board_pending and self.config.board_layout != "none" and self.mode is Mode.WATCH

    # -- inputs ----------------------------------------------------------------------------------------------

    def on_frame(self, frame_bgr: np.ndarray, observation: DiceObservation | CantStopReading) -> None:
        """One camera frame and what the dice reader saw in it (with the board: a :class:`CantStopReading`)."""
        if isinstance(observation, CantStopReading):
            self._on_board(observation)
            observation = observation.dice
        self.camera_problem = ""
        self.frame, self.observation = frame_bgr, observation
        if self.mode is not Mode.WATCH:
            return
        if not self.scene.changed(frame_bgr):
            self.stabilizer.status = _("Roll the dice")
            return
        stable = self.stabilizer.feed(observation)
        if stable is not None:
            first_flagged = next((i for i, d in enumerate(stable.dice) if d.flagged), 0)
            self.check = RollCheck(list(stable.values), stable, frame_bgr, stable.values, first_flagged)
            self.message = ""

    def _on_board(self, reading: CantStopReading) -> None:
        """A board reading while :attr:`wants_board`: once stable over ``stable_frames`` frames, compared
        with the record; agreement ends the check, a difference is shown until the board is fixed (the
        next stable reading agrees) or the players keep the record (``confirm``)."""
        if not self.wants_board:
            return
        if reading.markers is None or reading.runners is None:
            self._board_stable.reset()  # a hand over the board, a piece between spaces: wait
            self._board_unread += 1
            if self._board_unread >= BOARD_PATIENCE * self._board_stable.frames and not self.board_differences:
                self.board_pending = False
                log.info("the board could not be read to compare it with the record: %s", reading.board_problem)
            return
        self._board_unread = 0
        key = (tuple(sorted((s, tuple(sorted(m.items()))) for s, m in reading.markers.items())),
               tuple(sorted(reading.runners.items())))
        if not self._board_stable.feed(key):
            return
        self.board_differences = board_differences(self.state, reading.markers, reading.runners)
        self.board_looks += 1
        if not self.board_differences:
            self.board_pending = False
            log.info("the board agrees with the record")
        else:
            log.info("the board differs from the record: %s", "; ".join(map(str, self.board_differences)))

    def keep_record(self) -> None:
        """The players keep the record over the board read (``confirm`` while a difference shows)."""
        log.info("the players keep the record; the board read showed %s", "; ".join(map(str, self.board_differences)))
        self.board_pending, self.board_differences = False, ()
        self._board_stable.reset()

    def on_camera_problem(self, reason: str) -> None:
        """The camera gave no frame (unplugged, ended): players enter the roll by hand. With no camera at
        all (:func:`companion.session.base.without_camera`) the entry opens by itself."""
        self.camera_problem = reason
        self._open_by_hand()

    def _open_by_hand(self, dice: tuple[int, ...] = ()) -> None:
        """With no camera at all, while a roll is due and none is being entered: open the entry, with
        ``dice`` (a roll taken back, as it was entered; the first die selected) or :data:`ENTRY_START`."""
        if self.check is None and self.state.phase is Phase.ROLL and without_camera(self):
            self.check = RollCheck(list(dice or ENTRY_START), None, None, None, selected=0)

    def on_command(self, command: Command) -> None:
        """Apply one player command; an illegal one only sets :attr:`message` and changes nothing."""
        handler = {
            Mode.START: self._on_start, Mode.WATCH: self._on_watch, Mode.CHECK: self._on_check,
            Mode.CHOOSE: self._on_choose, Mode.DECIDE: self._on_decide, Mode.OVER: self._on_over,
        }[self.mode]
        self._refused = False
        if command.button is Button.UNDO and (self.mode is not Mode.CHECK or without_camera(self)):
            if self.mode is Mode.CHECK and self.check is not None and self.check.steps:
                self.check.values, self.check.selected = self.check.steps.pop()  # the entry's last press
            else:
                self._undo()
            return
        if command.button is Button.DICE:
            self._enter_by_hand(command.args)
            return
        if command.button is Button.CONFIRM and self.board_differences and self.mode is Mode.WATCH:
            self.keep_record()
            return
        try:
            handler(command)
        except IllegalMove as error:
            self.message = sentence(_(error.reason))  # the rule's section stays in the log
            log.info("refused: %s", error)
            self._refused = True

    # -- mode handlers -----------------------------------------------------------------------------------

    def _on_start(self, command: Command) -> None:
        if command.button is Button.NEXT:
            self.start_seat = (self.start_seat + 1) % len(self.players)
        elif command.button is Button.CHOOSE and command.args:
            self.start_seat = self._index(command.args[0], len(self.players))
        elif command.button is Button.CONFIRM:
            self._accept(StartWith(self.start_seat))

    def _undo(self) -> None:
        """UNDO outside a reading being checked (and with no camera, in an entry with no change to take
        back: :attr:`RollCheck.steps`): take back the last event.
        With no camera, a roll taken back opens again as it was entered (the likeliest correction)."""
        undone = self.state
        self.undo()
        if self.state is not undone and self.state.phase is Phase.ROLL:  # only a roll leaves ROLL: one was undone
            self.check = None
            self._open_by_hand(undone.dice)

    def _on_watch(self, command: Command) -> None:
        if command.button is not Button.NEXT:
            return
        seen = self.observation if self.observation is not None and not self.camera_problem else None
        if seen is not None and seen.dice and len(seen.dice) <= DICE + 2:
            self.check = _four_dice(seen, self.frame)  # correct what the camera sees now
        else:
            self.check = RollCheck(list(ENTRY_START), None, None, None, selected=0)  # a roll entered by hand

    def _on_check(self, command: Command) -> None:
        check = self.check
        assert check is not None
        button, args = command.button, command.args
        self.message = ""  # a refusal ("A roll needs 4 dice") is about the reading as it was
        if button in ENTRY_EDITS:
            check.steps.append((list(check.values), check.selected))
        if button is Button.CONFIRM:
            if len(check.values) != DICE:
                self.message = _("A roll needs {want} dice, not {n}").format(want=DICE, n=len(check.values))
                return
            details = {"read": list(check.read) if check.read is not None else None,
                       "source": "camera" if check.observation is not None else "hand"}
            self._accept(Roll(tuple(check.values)), **details)  # type: ignore[arg-type]
        elif button is Button.NEXT:
            _next_die(check)
        elif button in (Button.BANK, Button.UP):
            self._step_selected(check, 1)
        elif button is Button.PASS:
            self._step_selected(check, -1)
        elif button is Button.SET and len(args) == 2:
            i = self._index(args[0], len(check.values))
            check.values[i] = self._die_value(args[1])
            check.selected = i
        elif button is Button.ADD and len(args) == 1:
            check.values.append(self._die_value(args[0]))
            check.selected = len(check.values) - 1
        elif button is Button.REMOVE and len(args) == 1:
            del check.values[self._index(args[0], len(check.values))]
            check.selected = None
            check.guessed = set(range(len(check.values)))  # the dice after it shifted off their boxes
        elif button is Button.UNDO:
            self.check = None
            self.scene.remember(None)  # read the same dice again
            self.stabilizer.reset()

    def _step_selected(self, check: RollCheck, step: int) -> None:
        """BANK (``step`` 1) / PASS (-1): the selected die one pip up / down, round from 6 to 1 and back
        (A.2: a die shows 1-6); on the "add a die" slot (keyboard corrections only) a die at 1 or 6."""
        if check.selected is None:
            self.message = _("Select a die with NEXT first")
        elif check.selected < len(check.values):
            check.values[check.selected] = step_die(check.values[check.selected], step)
        else:
            check.values.append(1 if step > 0 else 6)

    def _on_choose(self, command: Command) -> None:
        options = self.state.legal_actions()
        if command.button is Button.NEXT:
            self.option = (self.option + 1) % len(options)
        elif command.button is Button.CHOOSE and command.args:
            self._accept(options[self._index(command.args[0], len(options))])
        elif command.button is Button.CONFIRM:
            self._accept(options[self.option])

    def _on_decide(self, command: Command) -> None:
        if command.button is Button.CONFIRM:
            self._accept(RollAgain())
        elif command.button is Button.BANK:
            self._accept(Bank())

    def _on_over(self, command: Command) -> None:
        if command.button in (Button.CONFIRM, Button.MENU, Button.QUIT):
            self.finished = True

    def _enter_by_hand(self, values: tuple[int, ...]) -> None:
        if self.mode not in (Mode.WATCH, Mode.CHECK):
            self.message = _("No roll is expected now")
            return
        try:
            dice = [self._die_value(v) for v in values]
        except IllegalMove as error:
            self.message = sentence(_(error.reason))  # the rule's section stays in the log
            log.info("refused: %s", error)
            return
        if self.check is not None:  # a correction of the whole reading: keep what the camera read
            read = self.check.read or ()
            self.check.values, self.check.selected = _onto_boxes(dice, read), None
            changed = {i for i, v in enumerate(self.check.values) if i >= len(read) or read[i] != v}
            if len(changed) > 1:  # which changed value is which die's is the order typed, a guess
                self.check.guessed |= changed
        else:
            self.check = RollCheck(dice, None, None, None, selected=None)

    @staticmethod
    def _index(one_based: int, count: int) -> int:
        if not 1 <= one_based <= count:
            raise IllegalMove(_("choose 1 to {n}, not {k}").format(n=count, k=one_based), "input")
        return one_based - 1

    @staticmethod
    def _die_value(value: int) -> int:
        if not 1 <= value <= 6:
            raise IllegalMove(_("a die shows 1 to 6, not {v}").format(v=value), "cant-stop.md A.2")
        return value

    # -- accepting and undoing ---------------------------------------------------------------------------

    def _accept(self, action: Action, **details) -> None:
        self._accept_actions([action], "action", {**action_to_dict(action), **details})

    def accepted(self, before: CantStopState, action: Action, after: CantStopState) -> None:
        self._kept_last = False
        # a bank or a bust ends the turn: look at the board; a roll taken goes on without it
        self.board_pending = after.turn != before.turn and after.phase is Phase.ROLL
        self.board_differences = ()
        self._board_stable.reset()
        self._board_unread = 0
        if isinstance(action, Roll):
            self._keep(self.check)
            self.confirmed = self.check
            self.scene.remember(self.check.frame_bgr if self.check else None)
            self.stabilizer.reset()
        self.message = self._describe(before, action, after)
        self._enter_phase()

    def replay(self, events) -> CantStopState:
        return replay_state(events, len(self.players), self.config)

    def _keep(self, check: RollCheck | None) -> None:
        """Hand a confirmed camera roll to :attr:`keeper` (issue 39): its dice with the values confirmed."""
        if self.keeper is None or check is None or check.frame_bgr is None:
            return
        dice, values = check.confirmed_dice()
        if dice:
            self.keeper.keep(check.frame_bgr, dice, values)
            self._kept_last = True

    def after_undo(self) -> None:
        self.board_pending, self.board_differences = False, ()
        if self._kept_last and self.keeper is not None:  # the roll undone was kept: its values may be wrong
            self.keeper.take_back()
        self._kept_last = False
        self.scene.remember(None)
        self.stabilizer.reset()
        self._enter_phase()
        self._restore_roll()

    def _restore_roll(self) -> None:
        """Take the state's last roll (its dice in the order confirmed, A.5.1) as :attr:`confirmed` when the
        roll remembered is not that one: after a restart, an undo, or in the History replay, which builds
        the session from the log (the photo and the camera's reading are not stored)."""
        dice = list(self.state.dice)
        if dice and (self.confirmed is None or self.confirmed.values != dice):
            self.confirmed = RollCheck(dice, None, None, None)

    def _enter_phase(self) -> None:
        self.check = None
        self.option = 0
        self._open_by_hand()
        if self.state.phase is Phase.CHOOSE:
            options = self.state.legal_actions()
            recommended = self.hint().action if self.hint() else None
            self.option = options.index(recommended) if recommended in options else 0

    def result_details(self, outcome) -> dict:
        return {"columns": {self.players[s]: outcome.scores[s] for s in range(len(self.players))},
                "turns": self.state.turn}

    def _describe(self, before: CantStopState, action: Action, after: CantStopState) -> str:
        return describe(self.players, before, action, after, routine=False)

    def describe_event(self, event, before: CantStopState, after: CantStopState) -> str:
        return describe_event(self.players, event, before, after)

    # -- hint and view ----------------------------------------------------------------------------------

    def hint(self):
        """The advisor's hint for the active player, or None outside CHOOSE/DECIDE: searched once per
        state within :attr:`hint_budget` and kept (drawing the screen again does not search again)."""
        if self.state.phase not in (Phase.CHOOSE, Phase.DECIDE):
            return None
        if self.state not in self._hints:
            self._hints[self.state] = advise(self.state, self.state.active, self.hint_budget)
        return self._hints[self.state]

    def bust(self, state: CantStopState) -> float:
        """The exact next-roll bust chance of ``state``, computed once per state (the view is drawn
        every frame)."""
        if state not in self._busts:
            self._busts[state] = float(bust_probability(state))
        return self._busts[state]


SESSION = CantStopSession
"""The session class of this game (``companion.registry``)."""


def _pips(a: int, b: int) -> int:
    """BANK or PASS presses from a die showing ``a`` to ``b`` (round from 6 to 1: at most 3)."""
    return min((b - a) % 6, (a - b) % 6)


def _entry_order(values: list[int], dice: tuple[int, ...], start: int = 0) -> tuple[int, tuple[int, ...]]:
    """``dice`` in the order that steps the entry's ``values`` (the die ``start`` selected) to them with
    the fewest presses, and those presses: BANK or PASS on each die to change, and NEXT from die to die
    (round the dice shown); a die beyond ``values`` starts at the value of the die before it. The first
    such order."""
    shown = len(values)

    def cost(order: tuple[int, ...]) -> int:
        steps = sum(_pips(values[k] if k < shown else order[k - 1], v) for k, v in enumerate(order))
        changed = [(k - start) % shown for k in range(min(shown, len(order))) if values[k] != order[k]]
        moves = len(order) - 1 if len(order) > shown else max(changed, default=0)
        return steps + moves
    return min((cost(order), order) for order in itertools.permutations(dice))


def entry_presses(dice: tuple[int, ...], shown: tuple[int, ...] = ENTRY_START) -> int:
    """The presses that enter the roll ``dice`` (four values 1-6, A.2) from the entry by hand as it
    opens (``shown``, the first die selected), CONFIRM included: what :func:`press_for` presses."""
    return _entry_order(list(shown), dice)[0] + 1


def press_for(session: CantStopSession, action: Action) -> list[Command]:
    """The button presses (CONFIRM, BANK, PASS, NEXT, UNDO only) that make ``session`` take ``action``,
    applied to it as they are made; for a by-hand demo script and the count of presses a turn takes.
    A roll is entered (or a reading corrected) die by die, each of the roll's dice matched to a die shown
    so that the presses are fewest (the order does not matter, A.5.2): NEXT opens the entry when it is
    not open (a camera that sees no dice) and goes on to the next die (a new one starts at the die
    before's value), BANK (+1) or PASS (-1), whichever is fewer, steps the die to its value; CONFIRM.
    Raises ``ValueError`` when the presses do not get there."""
    presses = Presses(session)
    press = presses.press

    if isinstance(action, StartWith):
        presses.start_with(action.seat)
    elif isinstance(action, Roll):
        if session.check is None:
            press(Button.NEXT)
        check = session.check
        start = check.selected or 0 if check else 0
        order = _entry_order(check.values if check else list(ENTRY_START), action.dice, start)[1]
        shown = len(check.values) if check else 0
        # the dice shown that need a change, from the selected one on (NEXT goes round four dice), then new ones
        todo = [k for k in sorted(range(shown), key=lambda k: (k - start) % shown) if check.values[k] != order[k]]
        for k in todo + list(range(shown, len(order))):
            while session.check is not None and session.check.selected != k and len(presses) < 40:
                press(Button.NEXT)
            if session.check is None:
                break
            up = (order[k] - session.check.values[k]) % 6
            for _step in range(up if up <= 3 else 6 - up):
                press(Button.BANK if up <= 3 else Button.PASS)
        press(Button.CONFIRM)
    elif isinstance(action, Choose):
        options = session.state.legal_actions()
        while options[session.option] != action and len(presses) < len(options):
            press(Button.NEXT)
        press(Button.CONFIRM)
    else:
        press(Button.BANK if isinstance(action, Bank) else Button.CONFIRM)
    return presses.made(action)

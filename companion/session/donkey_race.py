"""The donkey card race at the table: card readings and buttons in, engine actions and screens out.

The session holds the **table-side** state (donkey-race.md; ARCHITECTURE.md hidden information): the
box never sees a hand, so every draw is a card of unknown identity and every play is checked against
the cards that can still be in that hand. Flow, one :class:`Mode` at a time:

- ``DEAL``: "shuffle, deal 3 cards each" (D.3.2); ``confirm`` records the deal.
- ``FIRST``: who leads the first round (D.3.3): the camera proposes the player whose sector shows the
  donkey card; else ``next`` / ``choose K`` pick the player (the youngest, D.7.4); ``bank`` toggles
  "shows the donkey card"; ``confirm`` accepts.
- ``PLAY``: the seat to act lays its set in its sector and presses ``confirm`` (the camera's new
  cards in that sector are the play), or ``pass`` (the PASS button) where passing is allowed
  (:meth:`DonkeyRaceSession.may_pass`: never the leader, D.4.1; a refused PASS says why). With the
  buttons alone a play is entered by hand: it opens at the lowest play allowed now (the likeliest:
  the advisor leads low and raises minimally), as many cards as the round asks; ``bank`` steps its
  value up, round the values that may be played now; the leader, who may not pass (D.4.1), steps it
  down with ``pass`` (as in the other games) and the number of cards (1-3) with ``next``; a
  follower steps it down with ``next`` (``pass`` passes); from the lowest, one press down is the
  highest (:meth:`DonkeyRaceSession.down_button`); a long press of ``bank`` leaps :data:`LEAP` values
  up, of the leader's ``pass`` :data:`LEAP` down; ``undo`` drops the entry. With no camera at all
  (:data:`companion.session.base.NO_CAMERA`) the entry is open by itself, and ``undo`` takes back the
  last step (a play taken back opens again as it was).
  Scripts may also ``dice V [V ...]`` (card values; the donkey is its value, 0 by default; a joker is
  :data:`companion.games.donkey_race.record.JOKER_ENTRY`).
- ``REFILL``: the round's result: points, which token moves how far; "clear the sectors onto the
  discard pile, everyone draws back to 3 cards" (D.4.4-6); ``confirm``.
- ``RESHUFFLE``: "the draw pile is empty: shuffle the discards into a new draw pile" (D.4.7);
  ``confirm``.
- ``OVER``: the winner (D.6); ``confirm`` ends the session.

``undo`` drops a play entered by hand, else the last accepted step, in every mode but OVER. Every accepted
step is appended to the store's event log (``{"actions": [...]}``) before the state changes; the state is
the replay of the log.
"""

from __future__ import annotations

import enum
import logging
import random
from collections import Counter

import numpy as np

from companion.commands import Button, Command, as_taken
from companion.errors import IllegalMove
from companion.games.donkey_race import (DONKEY, JOKER, UNKNOWN, Action, DonkeyRaceConfig, DonkeyRaceState, Draw,
    FirstLeader, Pass, Phase, Play, Reshuffle, action_from_dict, action_to_dict, set_value,
    step_actions)
from companion.games.donkey_race.record import codes_from_entry
from companion.hints import Budget, Hint
from companion.hints.donkey_race import advise, card_label
from companion.i18n import _, listing, ngettext, sentence
from companion.session.base import Presses, Told, Waiting, without_camera
from companion.session.log import LoggedSession, Step, replay_log
from companion.session.readings import DonkeyRaceReading
from companion.session.stable import Stable

log = logging.getLogger(__name__)

LEAP = 4
"""The values a long press of BANK (up) or the leader's PASS (down) steps a play entered by hand: with
steps of 1 both ways and leaps of 4 up (and down, for the leader), any of the at most 14 values a play may
take (the donkey's 0 or 1-13, a lone joker) is at most 4 presses from where the entry opens, the presses
choosing how many cards aside; at most 3 in a round of up to 13 values."""

class Mode(enum.Enum):
    """What the session waits for (module docstring)."""

    DEAL = "deal"
    FIRST = "first"
    PLAY = "play"
    REFILL = "refill"
    RESHUFFLE = "reshuffle"
    OVER = "over"


def replay_state(events, players: int, config: DonkeyRaceConfig, step: Step | None = None) -> DonkeyRaceState:
    """The table-side state after the logged steps (``step``: see :data:`companion.session.log.Step`);
    :class:`CorruptLog` when one does not apply."""
    return replay_log(DonkeyRaceState.new(players, config, hidden=True), events,
                      step_actions, step=step)


def describe_set(cards: tuple[int, ...]) -> str:
    """``"7"``, ``"2 × 7"``, ``"donkey"``, ``"7 joker"``: the cards of a set for the screen, in the players'
    words (:func:`card_label`); cards of one kind as their number times the card."""
    if len(cards) > 1 and len(set(cards)) == 1:
        return f"{len(cards)} \u00d7 {card_label(cards[0])}"
    return " ".join(card_label(c) for c in cards)


def _round_text(players: list[str], after: DonkeyRaceState) -> str:
    """The round just scored (D.4.5): each player's points, which tokens move how far (points and spaces
    move together, D.2), who took a donkey round's cards (D.5 ``kramer_round``) and, once over, the winner
    (D.6)."""
    summary = after.last_round
    gains = summary.get("gains", [])
    points = [ngettext("{name} {n} point", "{name} {n} points", g).format(name=players[s], n=g)
              for s, g in enumerate(gains)]
    text = _("Round {round} over: {points}").format(round=summary.get("round", 0), points=listing(points))
    tokens = [ngettext("{name}'s token {n} space", "{name}'s token {n} spaces", g).format(name=players[s], n=g)
              for s, g in enumerate(gains) if g]
    if tokens:
        text += "; " + _("move {tokens}").format(tokens=listing(tokens))
    taker = summary.get("taken_by", -1)
    if taker is not None and taker >= 0:
        text += "; " + _("{name} takes the round's cards into hand").format(name=players[taker])
    if after.phase is Phase.OVER:
        text += "; " + winner_text(players, after)
    return text


def winner_text(players: list[str], state: DonkeyRaceState) -> str:
    """Who won the race over (D.6) and with how many points: "Ada wins the race with 12 points", or the
    players who share the win."""
    winners = state.winners
    best = max(state.points) if state.points else 0
    if len(winners) == 1:
        return ngettext("{name} wins the race with {n} point", "{name} wins the race with {n} points",
                        best).format(name=players[winners[0]], n=best)
    return ngettext("{names} share the win with {n} point", "{names} share the win with {n} points",
                    best).format(names=listing(players[w] for w in winners), n=best)


def describe(players: list[str], before: DonkeyRaceState, action: Action, after: DonkeyRaceState,
             routine: bool = True, round_told: bool = False) -> str:
    """The event that took ``before`` to ``after`` with ``action`` its last action, said for the players
    (translated), "" for none.

    ``players``: names in seating order. Said: who leads the first round (D.3.3); a play ("Ada plays 7 7")
    and a pass (D.4.1-3); a round's end with each player's points and the tokens that move (D.4.5), the
    winner (D.6); a new draw pile (D.4.7). ``routine``: also the deal and the refill, which the screen
    asks for anyway. ``round_told``: the screen shows the round's points and moves itself (the live
    round end), so the event is the last play or pass alone; History's log tells the round whole.
    """
    round_over = after.round_no != before.round_no and before.round_no > 0 and bool(after.last_round)
    over = after.phase is Phase.OVER and before.phase is not Phase.OVER
    if isinstance(action, FirstLeader):
        text = _("{name} leads the first round").format(name=players[action.seat])
        if after.removed and not action.donkey:  # D.5 start_marker_only, nobody held the donkey
            text += "; " + _("take the donkey card out of the draw pile")
        return text
    if isinstance(action, Play):
        text = _("{name} plays {cards}").format(name=players[before.active], cards=describe_set(action.cards))
    elif isinstance(action, Pass):
        text = _("{name} passes").format(name=players[before.active])
    elif isinstance(action, Reshuffle) or (isinstance(action, Draw) and before.reshuffles != after.reshuffles):
        return _("New draw pile from the discards")
    elif isinstance(action, Draw) and routine:
        return _("The cards are dealt") if before.round_no == 0 else _("The players draw their cards")
    else:
        return ""
    if (round_over or over) and not round_told:
        text += ". " + _round_text(players, after)
    return text


def describe_event(players: list[str], event, before: DonkeyRaceState, after: DonkeyRaceState) -> str:
    """:func:`describe` of one stored step (``{"actions": [...]}``, told by its last action), "" for a payload
    that holds none."""
    try:
        actions = step_actions(event.payload)
    except (ValueError, KeyError, TypeError):
        return ""
    return describe(players, before, actions[-1], after) if actions else ""


STORY_TURN = "round"
CORNER_TURN = True
"""The screen's corner shows the round (History's replay then names none in its prompt)."""
"""What one turn of this game's story is called (``companion.app.replay``): a round (D.4), not a player's
play."""


def story(events, players: list[str], config: DonkeyRaceConfig) -> list[Told]:
    """The stored steps of one race told for the players, one :class:`Told` a step replayed in order
    (:func:`describe_event`; here a "turn" is a round: it ends when a round is scored). Raises
    :class:`CorruptLog` as :func:`replay_state`."""
    told: list[Told] = []

    def step(event, before, after):
        ended = (after.round_no != before.round_no and before.round_no > 0) or (
            after.phase is Phase.OVER and before.phase is not Phase.OVER)
        told.append(Told(event.seq, describe_event(players, event, before, after), ended))

    replay_state(events, len(players), config, step=step)
    return told


class DonkeyRaceSession(LoggedSession):
    """One donkey card race at the table, backed by an event log in ``store``.

    players: 2-4 names in seating order (seat k plays in the reader's sector k). stable_frames: frames
    a card reading must hold before it is offered (>= 1). rng: taken for the sessions' one shape and not
    used: who leads first is shown by the donkey card, or chosen by the players (D.3.3). hint_budget:
    the advisor's budget (the box's deadline; the donkey race's rule never needs it). Raises
    :class:`CorruptLog` when the stored events do not replay.
    """

    @property
    def ending(self) -> str:
        """How the race was won, for the screen's WIN notice: the winner and the points (D.6), the end of
        what History's replay tells of the last round, whose points and moves the
        last screen lists itself; "" before the end."""
        state = self.state
        return winner_text(self.players, state) if state.phase is Phase.OVER else ""

    takes_held = frozenset({Button.BANK_HELD, Button.PASS_HELD})
    """The long presses this session gives a meaning: a leap of :data:`LEAP` values in a play entered by
    hand (BANK up; PASS down where PASS steps down); anywhere else they are the plain press."""

    def __init__(self, store, game_id: int, players: list[str], config: DonkeyRaceConfig | None = None,
                 stable_frames: int = 3, rng: random.Random | None = None, hint_budget: Budget | None = None):
        super().__init__(store, game_id, players, config or DonkeyRaceConfig())
        self.hint_budget = hint_budget
        self._hints: dict[DonkeyRaceState, Hint] = {}
        self.stable_frames = stable_frames
        self._first_seat = 0
        self._first_donkey = False
        self._entry: tuple[int, ...] | None = None
        self._stable = Stable(stable_frames)
        self._reading: DonkeyRaceReading | None = None
        self.camera_problem = ""
        if self.state.phase is Phase.OVER:
            self._record_result()

    # -- what the loop asks -----------------------------------------------------------------------------

    @property
    def mode(self) -> Mode:
        phase = self.state.phase
        if phase is Phase.DRAW:
            return Mode.DEAL if self.state.round_no == 0 else Mode.REFILL
        return {Phase.FIRST_LEADER: Mode.FIRST, Phase.PLAY: Mode.PLAY, Phase.RESHUFFLE: Mode.RESHUFFLE,
                Phase.OVER: Mode.OVER}[phase]

    def hint(self) -> Hint | None:
        """The advisor's hint for the seat to act while a round is played (PLAY), else None; from the
        table only (the hands are unknown: the general advice for the spot). Worked out once per state
        and kept (drawing the screen again does not ask again)."""
        if self.state.phase is not Phase.PLAY:
            return None
        if self.state not in self._hints:
            self._hints[self.state] = advise(self.state, self.state.active, self.hint_budget)
        return self._hints[self.state]

    @property
    def winner_name(self) -> str | None:
        """The winner's name once the game is over with one winner, else None (a shared win: D.6)."""
        winners = self.state.winners
        return self.players[winners[0]] if self.state.phase is Phase.OVER and len(winners) == 1 else None

    @property
    def active_seat(self) -> int | None:
        """The seat to act (FIRST: the proposed leader); None between rounds and once over."""
        if self.mode is Mode.FIRST:
            return self._first_seat
        return self.state.active if self.mode is Mode.PLAY else None

    @property
    def attention(self) -> bool:
        """A refused command (its reason is on screen)."""
        return self._refused

    @property
    def waiting(self) -> Waiting:
        """The box always waits for a button here: a play is confirmed, never taken on its own."""
        return Waiting.NOTHING if self.finished else Waiting.PLAYERS

    @property
    def wants_frame(self) -> bool:
        """True while the session looks at the sectors (first leader, plays)."""
        return self.mode in (Mode.FIRST, Mode.PLAY)

    # -- inputs ----------------------------------------------------------------------------------------------

    def on_frame(self, frame_bgr: np.ndarray, reading: DonkeyRaceReading) -> None:
        """One camera frame and what :func:`read_table` saw in it (held once stable)."""
        self.camera_problem = reading.problem or ""
        if reading.problem:  # refused whole: nothing of it is offered
            self._stable.reset()
            self._reading = None
            return
        if self._stable.feed((reading.sectors, reading.donkey_seat)):
            changed = self._reading is None or self._reading.donkey_seat != reading.donkey_seat
            self._reading = reading
            if self.mode is Mode.FIRST and changed and reading.donkey_seat is not None:
                self._first_seat, self._first_donkey = reading.donkey_seat, True

    def on_camera_problem(self, reason: str) -> None:
        """No frame came: plays are entered by hand (with no camera at all the entry opens by itself)."""
        self.camera_problem = reason
        self._open_by_hand()

    def _open_by_hand(self, cards: tuple[int, ...] = ()) -> None:
        """With no camera at all, while a play is due and none is entered: the entry, at ``cards`` (a play
        taken back) or the lowest play allowed now (:meth:`_open_entry`)."""
        if self._entry is None and self.mode is Mode.PLAY and without_camera(self):
            if cards:
                self._entry = cards
            else:
                message = self.message
                self._open_entry()
                self.message = message  # the event just said stays until the next press

    def may_pass(self) -> bool:
        """Whether the player to act may pass now (D.4.2, D.7.5): never the leader (D.4.1: the leader must
        lead, unless ``leader_may_pass``), nobody in a donkey round (D.5), nor a player who can raise under
        ``must_raise_if_able``. False outside ``PLAY``."""
        return self.mode is Mode.PLAY and Pass() in self.state.legal_actions()

    def on_command(self, command: Command) -> None:
        """Apply one command; a refused one only sets :attr:`message` and changes nothing."""
        self._refused = False
        if self.mode is not Mode.PLAY or (command.button is Button.PASS_HELD and self.down_button() is not Button.PASS):
            command = as_taken(command)  # a long press is a leap only in the value entry
        button = command.button
        if button is Button.UNDO and self._entry is not None and not without_camera(self):
            self._entry = None
            self.message = ""
            return
        if button is Button.UNDO:
            self._undo()
            return
        try:
            if self.mode is Mode.DEAL and button is Button.CONFIRM:
                self._accept_draws(note="deal")
            elif self.mode is Mode.FIRST:
                self._on_first(command)
            elif self.mode is Mode.PLAY:
                self._on_play(command)
            elif self.mode is Mode.REFILL and button is Button.CONFIRM:
                self._accept_draws(note="refill")
            elif self.mode is Mode.RESHUFFLE and button is Button.CONFIRM:
                self._accept_draws(first=(Reshuffle(),), note="reshuffle")
            elif self.mode is Mode.OVER and button in (Button.CONFIRM, Button.MENU):
                self.finished = True
        except IllegalMove as error:
            self.message = sentence(_(error.reason))  # the rule's section stays in the log
            log.info("refused: %s", error)
            self._refused = True

    def _on_first(self, command: Command) -> None:
        n = len(self.players)
        if command.button is Button.NEXT:
            self._first_seat, self._first_donkey = (self._first_seat + 1) % n, False
        elif command.button is Button.CHOOSE and command.args:
            if not 1 <= command.args[0] <= n:
                raise IllegalMove(_("choose 1 to {n}, not {k}").format(n=n, k=command.args[0]), "input")
            self._first_seat, self._first_donkey = command.args[0] - 1, False
        elif command.button is Button.BANK and self.config.donkey:
            self._first_donkey = not self._first_donkey
        elif command.button is Button.CONFIRM:
            self._accept([FirstLeader(self._first_seat, self._first_donkey)])

    def _on_play(self, command: Command) -> None:
        button = command.button
        if button is self.down_button() and button is Button.PASS:
            self._step_value(-1)
        elif button is Button.PASS_HELD:  # the leader's PASS steps down (down_button): a leap down
            self._step_value(-LEAP)
        elif button is Button.BANK_HELD:
            self._step_value(+LEAP)
        elif button is Button.PASS:
            self._accept([Pass()])
        elif button is Button.DICE:
            if not command.args:
                raise IllegalMove(_("No card entered"), "input")
            self._entry = codes_from_entry(command.args, self.config)
            self.message = _("Entered by hand: {cards}. CONFIRM to play them").format(cards=describe_set(self._entry))
        elif button is Button.BANK:
            self._step_value(+1)
        elif button is Button.NEXT and self.count_button() is Button.NEXT:
            self._step_count()
        elif button is Button.NEXT:
            self._step_value(-1)  # a follower: NEXT is the way down
        elif button is Button.CONFIRM:
            cards, source = self.proposed_play()
            if not cards and self.camera_problem:
                raise IllegalMove(_("Nothing entered: BANK to enter your cards, or PASS") if self.may_pass()
                                  else _("Nothing entered: BANK to enter your cards"), "donkey-race.md D.4")
            if not cards:
                raise IllegalMove(_("No new card in the sector: lay your cards, or PASS") if self.may_pass()
                                  else _("No new card in the sector: lay your cards"), "donkey-race.md D.4")
            if UNKNOWN in cards:
                raise IllegalMove(_("A card could not be read: enter the play by hand"), "donkey-race.md D.4")
            self._accept([Play(cards)], source=source)

    def count_button(self) -> Button | None:
        """The button that steps the number of cards of a play entered by hand: NEXT, for the leader only
        (D.4.1: the count is fixed for the followers); None when following."""
        if self.mode is not Mode.PLAY or self.state.plays or self.state.donkey_round:
            return None
        return Button.NEXT

    def down_button(self) -> Button | None:
        """The button that steps the value of a play entered by hand down: PASS for the leader, who may
        not pass (D.4.1), as in the other games (PASS -1); NEXT for a follower, whose PASS passes and
        whose number of cards is fixed; None for a leader who may pass (``leader_may_pass``): the value
        then steps up only."""
        if self.mode is not Mode.PLAY:
            return None
        if self.count_button() is None:
            return Button.NEXT
        return None if self.may_pass() else Button.PASS

    def entry_plays(self, count: int | None = None) -> list[tuple[int, ...]]:
        """The plays (of ``count`` cards; None: any number) the player to act may make now that the
        buttons can enter, as card codes, lowest value first, then fewest cards (D.4.1-2, D.5: of the
        engine's legal plays at the table, the cards not yet seen elsewhere; jokers are left to scripts)."""
        donkey_round = self.state.donkey_round
        plays = {tuple(a.cards) for a in self.state.legal_actions()
                 if isinstance(a, Play) and count in (None, len(a.cards)) and JOKER not in a.cards
                 and UNKNOWN not in a.cards and (DONKEY not in a.cards or self.config.donkey)}
        return sorted(plays, key=lambda cards: (set_value(cards, self.config, donkey_round), len(cards), cards))

    def lowest_play(self) -> tuple[int, ...] | None:
        """The lowest play the player to act may make now, as card codes (:meth:`entry_plays`): the lowest
        value, then the fewest cards. None when no play is legal (the player can only pass)."""
        plays = self.entry_plays()
        return plays[0] if plays else None

    def _step_value(self, step: int) -> None:
        """Open a play entered by hand at the lowest play allowed now, or step its value by ``step`` (+1
        BANK, -1 :meth:`down_button`) round the values that may be played now with as many cards."""
        if not self._entry:
            self._open_entry()
            if self._entry and step < 0:
                self._step_value(step)  # the first press down: from the lowest play round to the highest
            return
        plays = self.entry_plays(len(self._entry))
        if self._entry in plays:
            self._entry = plays[(plays.index(self._entry) + step) % len(plays)]
        elif plays:
            self._entry = plays[0]
        self.message = ""  # the entry is on the screen (the proposal), the keys say what each press does

    def _step_count(self) -> None:
        """The leader's play entered by hand: one card more (after three, one), at the same value where
        that many can be played, else the next higher value that can, else the lowest."""
        if not self._entry:
            self._open_entry()
        if not self._entry:
            return
        try:  # an entry typed from the keyboard may hold a joker, or no one value
            value = set_value(self._entry, self.config, self.state.donkey_round)
        except ValueError:
            value = -1
        count = len(self._entry)
        for _ in range(3):
            count = count % min(3, self.config.hand_size) + 1
            plays = self.entry_plays(count)
            if plays:
                same = [p for p in plays if set_value(p, self.config, self.state.donkey_round) >= value]
                self._entry = (same or plays)[0]
                break
        self.message = ""

    def _open_entry(self) -> None:
        """Open a play entered by hand at the lowest play allowed now; with none (a card too few, nothing
        higher) the message says to pass."""
        start = self.lowest_play()
        self._entry = start
        self.message = "" if start is not None else _("Nothing can be played now: PASS")

    def proposed_play(self) -> tuple[tuple[int, ...], str]:
        """The play CONFIRM would make: the hand entry, else the new cards in the active sector."""
        if self._entry is not None:
            return self._entry, "hand"
        if self._reading is None or self.mode is not Mode.PLAY:
            return (), "camera"
        seat = self.state.active
        new = Counter(self._reading.sectors[seat]) - Counter(self.state.sector(seat))
        return tuple(sorted(new.elements())), "camera"

    def out_of_turn(self) -> str:
        """A warning when the camera sees new cards in the sector of a player who is not to act."""
        if self._reading is None or self.mode is not Mode.PLAY:
            return ""
        for seat, seen in enumerate(self._reading.sectors):
            if seat != self.state.active and Counter(seen) - Counter(self.state.sector(seat)):
                return _("{name}: it is not your turn, {active} acts now").format(
                    name=self.players[seat], active=self.players[self.state.active])
        return ""

    # -- accepting and undoing ---------------------------------------------------------------------------

    def _accept(self, actions: list[Action], **details) -> None:
        self._accept_actions(actions, "step", {"actions": [action_to_dict(a) for a in actions], **details})

    def accepted(self, before: DonkeyRaceState, action: Action, after: DonkeyRaceState) -> None:
        self._entry = None
        self.message = self._describe(before, action, after)
        self._open_by_hand()

    def _accept_draws(self, first: tuple[Action, ...] = (), note: str = "") -> None:
        """Apply ``first`` and then every queued draw (unknown cards) until a reshuffle or the next round."""
        actions = list(first)
        state = self.state
        for action in first:
            state = state.apply(action)
        while state.phase is Phase.DRAW:
            actions.append(Draw(UNKNOWN))
            state = state.apply(Draw(UNKNOWN))
        self._accept(actions, note=note)

    def replay(self, events) -> DonkeyRaceState:
        return replay_state(events, len(self.players), self.config)

    def after_undo(self) -> None:
        self._entry = None
        self._open_by_hand()

    def _undo(self) -> None:
        """Take back the last step; with no camera a play taken back opens again as it was entered."""
        events = self.store.events(self.game_id) if without_camera(self) else []
        actions = events[-1].payload.get("actions", []) if events else []
        self.undo()
        if actions and actions[0].get("type") == "play" and self.mode is Mode.PLAY:
            played = action_from_dict(actions[0])
            self._entry = None
            self._open_by_hand(tuple(played.cards))

    def result_details(self, outcome) -> dict:
        return {"winners": [self.players[s] for s in self.state.winners],
                "points": {self.players[s]: outcome.scores[s] for s in range(len(self.players))},
                "rounds": self.state.round_no}

    def _describe(self, before: DonkeyRaceState, action: Action, after: DonkeyRaceState) -> str:
        # the round end's screen lists each player's points and moves, the game's end its winner: said once
        return describe(self.players, before, action, after, routine=False, round_told=True)

    def describe_event(self, event, before: DonkeyRaceState, after: DonkeyRaceState) -> str:
        return describe_event(self.players, event, before, after)


SESSION = DonkeyRaceSession
"""The session class of this game (``companion.registry``)."""


def value_presses(n: int, start: int, goal: int, down: Button | None) -> list[Button]:
    """The fewest presses from the ``start``-th to the ``goal``-th of ``n`` values round a ring (0-based):
    BANK +1, ``BANK_HELD`` +:data:`LEAP`, ``down`` (:meth:`DonkeyRaceSession.down_button`, None: none) -1,
    ``PASS_HELD`` -:data:`LEAP` where ``down`` is PASS. A breadth-first search over the ``n`` values."""
    steps = [(Button.BANK, 1), (Button.BANK_HELD, LEAP)]
    if down is not None:
        steps.append((down, -1))
    if down is Button.PASS:
        steps.append((Button.PASS_HELD, -LEAP))
    paths: dict[int, list[Button]] = {start % n: []}
    frontier = [start % n]
    while frontier and goal % n not in paths:
        reached = []
        for at in frontier:
            for button, step in steps:
                to = (at + step) % n
                if to not in paths:
                    paths[to] = [*paths[at], button]
                    reached.append(to)
        frontier = reached
    return paths[goal % n]


def press_for(session: DonkeyRaceSession, action: Action) -> list[Command]:
    """The button presses (CONFIRM, BANK, PASS, NEXT and the long presses of BANK and PASS) that make
    ``session`` take ``action``, applied to it as they are made (by-hand demo scripts): the deal, a refill
    and a reshuffle with one CONFIRM (the session records every draw of it at once, so the draws after it
    take none); the first leader with NEXT (BANK: shows the donkey card); a play entered with the
    leader's NEXT for the number of cards first, then the fewest steps and leaps of the value
    (:func:`value_presses`), then CONFIRM, BANK opening the entry first unless it is open (with no camera
    it opens by itself); PASS passes. Raises ``ValueError`` when the presses do not get there."""
    presses = Presses(session)
    press = presses.press

    if isinstance(action, (Draw, Reshuffle)):
        if session.mode in (Mode.DEAL, Mode.REFILL, Mode.RESHUFFLE):  # one CONFIRM records the whole deal,
            press(Button.CONFIRM)  # refill or reshuffle: the draws after it take no press
    elif isinstance(action, FirstLeader):
        while session._first_seat != action.seat and len(presses) < len(session.players):
            press(Button.NEXT)
        if action.donkey:
            press(Button.BANK)
        press(Button.CONFIRM)
    elif isinstance(action, Play):
        if session._entry is None:
            press(Button.BANK)
        want = tuple(sorted(action.cards))
        while session._entry and len(session._entry) != len(want) and session.count_button() and len(presses) < 8:
            press(session.count_button())
        plays = session.entry_plays(len(want))
        if session._entry in plays and want in plays:
            for button in value_presses(len(plays), plays.index(session._entry), plays.index(want),
                                        session.down_button()):
                press(button)
        press(Button.CONFIRM)
    elif isinstance(action, Pass):
        press(Button.PASS)
    else:
        raise ValueError(f"no presses make {action!r}")
    return presses.made(action)

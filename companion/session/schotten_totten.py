"""The Schotten Totten / Battle Line session: card readings and button presses in, engine actions and
screens out, over a match of several games (schotten-totten.md C.8).

The box sees only the table (ARCHITECTURE.md, hidden information): its state is table-side, every
drawn card is ``Draw(None)`` and applied by the session itself (the player draws at the table), and a
played card must be one not yet seen. Modes:

- ``START``: the proposed starting player (game 1: drawn at random; later games: the previous
  winner, the Battle Line rule of C.8); ``next`` another player, ``confirm`` accepts (the deal follows).
- ``WATCH``: waiting for the active player's card. From the camera, a reading with exactly one card
  not yet on the table, at the active side of an open stone, stable over ``stable_frames`` frames,
  is proposed (``CHECK``, at its card). With the buttons: ``bank`` enters a card by hand (``CHECK``,
  at its stone). With no camera at all (:data:`companion.session.base.NO_CAMERA`) that entry is open
  by itself whenever the player can play. Scripts may also ``set STONE CARD`` (STONE 1-9; CARD the
  colour digit 1-6 for R O Y G B P followed by the value: ``15`` is R5, ``410`` is G10). ``pass``
  when no card can be played (C.4); ``choose N`` asks whether stone N can be claimed now.
- ``CHECK``: the card played, read or entered, in two steps with the same presses for both
  (:attr:`SchottenTottenSession.placing`). Its stone: ``next`` / ``pass`` the next / previous stone
  with room for the player (round the row), ``confirm`` keeps it; an entry by hand starts at the
  first such stone, its card following the stone (:func:`likely_card`: the next card of the player's
  formation there, or a middle red) until the card is changed. Its card: ``bank`` / ``pass`` the value
  +1 / -1 and ``next`` the next colour, only cards not yet on the table (C.2); ``confirm`` plays it,
  ``undo`` goes back to the stone. ``undo`` at the stone drops the entry (the camera reads again), or
  with no camera takes back the last play, which opens again at its card to be corrected.
- ``CLAIM``: stones the player may claim (C.6); ``next`` / ``pass`` select the next / previous stone
  with 3 of the player's cards, ``confirm`` claims it (refused with the reason: for a proof, a
  completion of the opponent's side that would beat it), ``choose N`` claims stone N, ``bank`` ends
  the claims (done). Each button means one thing through the game: CONFIRM yes, NEXT the next stone,
  colour or player, PASS one back (a stone, a value) or a pass, BANK +1 or done, UNDO back.
- ``OVER``: the game's result and the match score; ``confirm`` starts the next game of the match, or
  ends the session after ``match_length`` games.

Every accepted action is appended to the store's event log before the state changes; the match is the
replay of the log (``{"type": "next_game"}`` separates games), so a restart resumes it and ``undo``
drops the last player action (with the automatic draws that followed it).
"""

from __future__ import annotations

import enum
import logging
import random
from dataclasses import dataclass

from companion.commands import Button, Command
from companion.errors import CorruptLog, IllegalMove
from companion.games.schotten_totten import (ADJACENT_TO_WIN, COLOURS, NUM_STONES, TOTAL_TO_WIN, Action, Card, Claim,
    Draw, EndClaims, Pass, Phase, Play, SchottenTottenConfig, SchottenTottenState, StartWith, action_from_dict,
    action_to_dict, formation_key)
from companion.hints import Budget
from companion.hints.schotten_totten import Alerts, formation_label, public_alerts, verdict_text
from companion.i18n import _, sentence
from companion.session.base import Presses, Told, Waiting, seat_to_act, told_ending, without_camera
from companion.session.log import Step
from companion.session.readings import SchottenTottenReading
from companion.session.stable import Stable

log = logging.getLogger(__name__)


class Mode(enum.Enum):
    """What the session waits for (see the module docstring)."""

    START = "start"
    WATCH = "watch"
    CHECK = "check"
    CLAIM = "claim"
    OVER = "over"


@dataclass(frozen=True)
class Match:
    """The replayed match: finished games' match points per seat (C.8) and winners, the running game."""

    points: tuple[int, int]
    winners: tuple[int | None, ...]
    state: SchottenTottenState


def replay_match(events, config: SchottenTottenConfig, step: Step | None = None) -> Match:
    """Replay the logged events into a :class:`Match` (``step``: see :data:`companion.session.log.Step`; at
    a ``next_game`` event ``after`` is the next game's first state); raises :class:`CorruptLog` when one
    does not apply."""
    state = SchottenTottenState.new(config)
    points = [0, 0]
    winners: list[int | None] = []
    for event in events:
        before = state
        try:
            if not isinstance(event.payload, dict):
                raise ValueError(f"not an action: {event.payload!r:.40}")
            if event.payload.get("type") == "next_game":
                outcome = state.outcome()
                if outcome is None:
                    raise ValueError("next game before the game ended")
                points = [points[s] + outcome.scores[s] for s in (0, 1)]
                winners.append(outcome.winner)
                state = SchottenTottenState.new(config)
            else:
                state = state.apply(action_from_dict(event.payload, config.max_value))
        except (IllegalMove, ValueError, KeyError, TypeError, AttributeError) as error:
            raise CorruptLog(f"event {event.seq} of the saved match does not apply: {error}", event.seq) from None
        if step is not None:
            step(event, before, state)
    return Match((points[0], points[1]), tuple(winners), state)


def replay_state(events, players: int, config: SchottenTottenConfig, step: Step | None = None) -> SchottenTottenState:
    """The state of the match's running game after ``events`` (``players`` is always 2, C.1; ``step`` as
    :func:`replay_match`); raises :class:`CorruptLog` when one does not apply."""
    return replay_match(events, config, step).state

def new_card(state: SchottenTottenState, reading: SchottenTottenReading) -> tuple[Card, int] | None:
    """The play the reading shows: exactly one readable, unflagged card not yet on the table, at the
    active seat's side of a stone where it may play (C.4), and every card already played seen where it
    lies (a card missed, read as another or moved makes the reading disagree with the game: it is not
    offered, schotten-totten.md C.2-C.4); else None."""
    table = set(state.table_cards())
    new = [c for c in reading.cards if c.card is None or c.card not in table]
    if len(new) != 1 or new[0].flagged:
        return None
    read_at = {(c.stone, c.seat, c.card) for c in reading.cards}
    if any((index, seat, card) not in read_at for index, stone in enumerate(state.stones)
           for seat, cards in enumerate(stone.cards) for card in cards):
        return None
    seen = new[0]
    if seen.card is None or seen.seat != state.active or not state.stones[seen.stone].has_room(seen.seat):
        return None
    return seen.card, seen.stone


def card_from_number(number: int, max_value: int = 10) -> Card:
    """Hand entry code (scripts, keyboard): the colour digit 1-6 (R O Y G B P) then the value, e.g.
    15 -> R5, 410 -> G10. Raises :class:`IllegalMove` for another number."""
    text = str(number)
    if len(text) < 2 or not "1" <= text[0] <= "6" or not 1 <= int(text[1:]) <= max_value:
        raise IllegalMove(_("card {n}: a colour digit 1-6 (R O Y G B P) then a value 1-{v}, like 15 for R5").format(
            n=number, v=max_value), "input")
    return Card(int(text[0]) - 1, int(text[1:]))


def _claim_text(players: list[str], before: SchottenTottenState, stone: int) -> str:
    """A claim (C.6) with what decided it: the stronger formation (C.5), the tie won by completing first
    (C.5), or the proof that the opponent's side can no longer beat it (C.6)."""
    seat = before.active
    name, other = players[seat], players[1 - seat]
    cards = before.stones[stone].cards
    game = before.config.game
    mine = formation_key(cards[seat])
    label = formation_label(mine, game)
    if len(cards[1 - seat]) < len(cards[seat]):  # C.6 proof: no completion of the other side beats it
        return _("{name} claims stone {n}: {other} can no longer beat {mine} there").format(
            name=name, n=stone + 1, other=other, mine=label)
    theirs = formation_key(cards[1 - seat])
    if mine > theirs:
        return _("{name} claims stone {n}: {mine} beats {theirs}").format(
            name=name, n=stone + 1, mine=label, theirs=formation_label(theirs, game))
    return _("{name} claims stone {n}: {mine} against {theirs}, completed first").format(
        name=name, n=stone + 1, mine=label, theirs=formation_label(theirs, game))


def _end_text(players: list[str], after: SchottenTottenState, game: int, points: tuple[int, int] | None) -> str:
    """The end of a game (C.7, C.11) and, once ``points`` (the match points, C.8) are given, of the match."""
    total = after.config.match_length
    winner = after.winner
    if after.ended == "stall":  # C.11: nobody can play or claim
        text = (_("No one can play or claim: the game is a draw") if winner is None else
                _("No one can play or claim: {name} wins with more stones").format(name=players[winner]))
    elif total > 1:
        text = (_("{name} wins game {k} of {total} with {n} stones side by side") if after.ended == "breakthrough"
                else _("{name} wins game {k} of {total} with {n} stones")).format(
            name=players[winner], k=game, total=total,
            n=ADJACENT_TO_WIN if after.ended == "breakthrough" else TOTAL_TO_WIN)
    else:
        text = (_("{name} wins the game with {n} stones side by side") if after.ended == "breakthrough"
                else _("{name} wins the game with {n} stones")).format(
            name=players[winner], n=ADJACENT_TO_WIN if after.ended == "breakthrough" else TOTAL_TO_WIN)
    if points is not None and total > 1:
        a, b = points
        if a == b:
            text += "; " + _("the match is a draw, {a} to {b} points").format(a=a, b=b)
        else:
            best = 0 if a > b else 1
            text += "; " + _("{name} wins the match, {a} to {b} points").format(
                name=players[best], a=max(a, b), b=min(a, b))
    return text


def describe(players: list[str], before: SchottenTottenState, action: Action, after: SchottenTottenState,
             routine: bool = True, game: int = 1, points: tuple[int, int] | None = None) -> str:
    """The event ``action`` took ``before`` to ``after`` (``after`` may include the draws that followed),
    said for the players (translated), "" for none.

    ``players``: the two names, seat 0 first. Said: who starts (C.3); a play ("Ben plays R5 at stone 3",
    C.4); a pass; a claim with what decided it (C.5, C.6); the end of the game, how it was won (C.7) and
    which game of the match it was (``game``, 1-based); once ``points`` (the match points after this game,
    C.8) are given, the match's result. ``routine``: also the end of the claims, which the screen shows
    anyway. A draw says nothing unless the game ends with it (C.11).
    """
    name = players[before.active] if before.active >= 0 else ""
    if isinstance(action, StartWith):
        text = _("{name} starts").format(name=players[action.seat])
    elif isinstance(action, Play):
        text = _("{name} plays {card} at stone {n}").format(name=name, card=action.card.name, n=action.stone + 1)
    elif isinstance(action, Pass):
        text = _("{name} cannot play and passes").format(name=name)
    elif isinstance(action, Claim):
        text = _claim_text(players, before, action.stone)
    elif isinstance(action, EndClaims) and routine:
        text = _("{name} claims no more stones").format(name=name)
    else:
        text = ""
    if after.phase is Phase.OVER and before.phase is not Phase.OVER:
        end = _end_text(players, after, game, points)
        text = f"{text}; {end}" if text else end
    return text


def describe_event(players: list[str], event, before: SchottenTottenState, after: SchottenTottenState,
                   game: int = 1, points: tuple[int, int] | None = None) -> str:
    """:func:`describe` of one stored event; a ``next_game`` event says which game of the match begins
    (``game``: its number); "" for a payload that holds no action."""
    if event.payload.get("type") == "next_game":
        return _("Game {n} of {total}").format(n=game, total=before.config.match_length)
    try:
        action = action_from_dict(event.payload, before.config.max_value)
    except (ValueError, KeyError, TypeError):
        return ""
    return describe(players, before, action, after, game=game, points=points)


def story(events, players: list[str], config: SchottenTottenConfig) -> list[Told]:
    """The stored ``events`` of one match told for the players, one :class:`Told` an event replayed in
    order (:func:`describe_event`, with each game's number and, at the match's end, its points; a turn
    ends when the turn passes, a game ends or the next begins, the deal ends none). Raises
    :class:`CorruptLog` as :func:`replay_match`."""
    told: list[Told] = []
    game, points = 1, (0, 0)

    def step(event, before, after):
        nonlocal game, points
        final = None
        if event.payload.get("type") == "next_game":
            game += 1
        elif after.phase is Phase.OVER and before.phase is not Phase.OVER:
            scores = after.outcome().scores
            points = (points[0] + scores[0], points[1] + scores[1])
            final = points if game >= config.match_length else None
        ended = ((after.turn != before.turn and before.turn >= 1) or event.payload.get("type") == "next_game"
                 or (after.phase is Phase.OVER and before.phase is not Phase.OVER))
        told.append(Told(event.seq, describe_event(players, event, before, after, game, final), ended))

    replay_match(events, config, step=step)
    return told


class SchottenTottenSession:
    """One Schotten Totten / Battle Line match at the table, backed by an event log in ``store``.

    players: two names, seat 0 (side ``a``) then seat 1 (side ``b``). stable_frames: frames a card
    reading must hold (>= 1). rng: draws the proposed first player of the first game. hint_budget: the
    advisors' budget (the box's deadline); the shared screen's alerts are exact and need none.
    Raises :class:`CorruptLog` when the stored events do not replay.
    """

    @property
    def ending(self) -> str:
        """How the game ended, for the screen's WIN notice: who won it and how (C.7, C.11: "Ada wins the
        game with 3 stones side by side"), the end of what History's replay tells of its last claim
        (:func:`told_ending` before the end)."""
        if self.state.phase is Phase.OVER:
            return _end_text(self.players, self.state, max(1, self.games_played), None)
        return told_ending(self, story)

    def __init__(self, store, game_id: int, players: list[str], config: SchottenTottenConfig | None = None,
                 stable_frames: int = 3, rng: random.Random | None = None, hint_budget: Budget | None = None):
        if len(players) != 2:
            raise ValueError(f"Schotten Totten is for two players, not {len(players)} (C.1)")
        self.hint_budget = hint_budget
        self._hints: dict[SchottenTottenState, Alerts] = {}
        self.store = store
        self.game_id = game_id
        self.players = list(players)
        self.config = config or SchottenTottenConfig()
        self.stable_frames = stable_frames
        self.rng = rng or random.Random()
        self.match = replay_match(store.events(game_id), self.config)
        self.message = ""
        self.finished = False
        self._refused = False
        self.proposal: tuple[Card, int] | None = None
        self.placing = False
        """While a card is checked or entered (``CHECK``): True while its stone is chosen, False while
        its card is."""
        self._card_set = False  # the card was read or changed: it no longer follows the stone
        self._stable = Stable(stable_frames)
        self._reading: SchottenTottenReading | None = None
        self.camera_problem = ""
        self.selected = 0
        self.start_seat = self._proposed_starter()
        self._automatic()  # a log cut by a power cut before a press's draws were stored (older boxes)
        self._enter_mode()

    @property
    def state(self) -> SchottenTottenState:
        return self.match.state

    def hint(self) -> Alerts | None:
        """The shared screen's alerts (:func:`companion.hints.schotten_totten.public_alerts`, from the
        table only) while a seat is to act, None before the start and once the game is over; worked out
        once per state and kept (drawing the screen again does not work them out again)."""
        if self.state.active < 0 or self.mode in (Mode.OVER, Mode.START):
            return None
        if self.state not in self._hints:
            self._hints[self.state] = public_alerts(self.state)
        return self._hints[self.state]

    # -- what the loop asks -----------------------------------------------------------------------------

    @property
    def mode(self) -> Mode:
        phase = self.state.phase
        if phase is Phase.START:
            return Mode.START
        if phase is Phase.OVER:
            return Mode.OVER
        if phase is Phase.CLAIM:
            return Mode.CLAIM
        return Mode.CHECK if self.proposal else Mode.WATCH

    @property
    def games_played(self) -> int:
        """Finished games of the match, the running one included once it is over."""
        return len(self.match.winners) + (1 if self.state.phase is Phase.OVER else 0)

    @property
    def match_points(self) -> tuple[int, int]:
        """Match points per seat (C.8), the running game included once it is over."""
        outcome = self.state.outcome()
        if outcome is None:
            return self.match.points
        return (self.match.points[0] + outcome.scores[0], self.match.points[1] + outcome.scores[1])

    @property
    def match_over(self) -> bool:
        return self.state.phase is Phase.OVER and self.games_played >= self.config.match_length

    @property
    def winner_name(self) -> str | None:
        """The match winner's name once the match is over (None while running or for a tie)."""
        if not self.match_over:
            return None
        a, b = self.match_points
        return None if a == b else self.players[0 if a > b else 1]

    @property
    def active_seat(self) -> int | None:
        """The seat to act (during START: the proposed first player), None once the game is over."""
        return seat_to_act(self.state, self.start_seat, self.mode is Mode.START)

    @property
    def refused(self) -> bool:
        """True when the last command was refused (its reason is the message)."""
        return self._refused

    @property
    def attention(self) -> bool:
        return self._refused

    @property
    def waiting(self) -> Waiting:
        if self.finished:
            return Waiting.NOTHING
        if self.mode is Mode.WATCH and not self.camera_problem:
            return Waiting.CAMERA
        return Waiting.PLAYERS

    @property
    def wants_frame(self) -> bool:
        return self.mode is Mode.WATCH

    # -- inputs ----------------------------------------------------------------------------------------

    def on_frame(self, frame_bgr, reading: SchottenTottenReading) -> None:
        """One frame and its card reading (``companion.readers.schotten_totten`` makes it)."""
        self.camera_problem = reading.problem or ""
        self._reading = reading
        if self.mode is not Mode.WATCH:
            return
        candidate = None if reading.problem else new_card(self.state, reading)  # a problem refuses it whole
        if self._stable.feed(candidate) and candidate is not None:
            self.proposal, self.placing, self._card_set = candidate, False, True
            self._stable.reset()

    def on_camera_problem(self, reason: str) -> None:
        """No picture (``reason``); with no camera at all the card entry opens by itself."""
        self.camera_problem = reason
        self._open_by_hand()

    def on_command(self, command: Command) -> None:
        """Apply one player command; an illegal one only sets :attr:`message` (with the reason, which
        the next command clears)."""
        if self._refused:
            self.message = ""
        self._refused = False
        button = command.button
        try:
            if button is Button.UNDO and (self.mode is not Mode.CHECK or (self.placing and without_camera(self))):
                self._undo()
            elif self.mode is Mode.START:
                self._on_start(command)
            elif self.mode in (Mode.WATCH, Mode.CHECK):
                self._on_play(command)
            elif self.mode is Mode.CLAIM:
                self._on_claim(command)
            else:
                self._on_over(command)
        except IllegalMove as error:
            self.message = sentence(_(error.reason))  # the rule's section stays in the log
            log.info("refused: %s", error)
            self._refused = True

    def _on_start(self, command: Command) -> None:
        if command.button is Button.NEXT:
            self.start_seat = 1 - self.start_seat
        elif command.button is Button.CONFIRM:
            self._accept(StartWith(self.start_seat))

    def _on_play(self, command: Command) -> None:
        button, args = command.button, command.args
        if button is Button.SET and len(args) == 2:
            stone = self._stone(args[0])
            self.proposal = (card_from_number(args[1], self.config.max_value), stone)
            self.placing, self._card_set = False, True
        elif button is Button.CHOOSE and args:
            self._ask_claim(args[0])
        elif self.proposal is None:
            if button is Button.BANK:
                self._open_entry()
            elif button is Button.PASS:
                self._accept(Pass())
        elif self.placing:
            if button in (Button.NEXT, Button.PASS):  # NEXT the next stone, PASS one back: as at a claim
                self._move_stone(1 if button is Button.NEXT else -1)
            elif button is Button.CONFIRM:
                self.placing = False
            elif button is Button.UNDO:  # with a camera: drop the entry, read again
                self.proposal = None
                self._stable.reset()
        else:
            card, stone = self.proposal
            seen, top = set(self.state.table_cards()), self.config.max_value
            if button is Button.CONFIRM:
                self.proposal = None
                self._accept(Play(card, stone))
            elif button in (Button.BANK, Button.PASS, Button.NEXT):
                self.proposal = (step_value(card, seen, 1 if button is Button.BANK else -1, top)
                                 if button is not Button.NEXT else step_colour(card, seen, top), stone)
                self._card_set = True
            elif button is Button.UNDO:
                self.placing = True

    def _ask_claim(self, one_based: int) -> None:
        """``choose N`` before the play: whether stone N can be claimed now (it can only after the play)."""
        verdict = self.state.claim_verdict(self._stone(one_based), self.state.active)
        if verdict.claimable:
            self.message = _("Stone {n} can be claimed after your play").format(n=one_based)  # C.4
            return
        raise IllegalMove(_("Stone {n}: {why}").format(n=one_based, why=verdict_text(verdict, self.config.game)),
                          verdict.rule)

    def _open_stones(self) -> list[int]:
        seat = self.state.active
        return [i for i, stone in enumerate(self.state.stones) if stone.has_room(seat)]

    def _open_entry(self) -> None:
        """A card entered by hand: its stone first, at the first stone with room for the player (C.4),
        its card the likeliest there (:func:`likely_card`). Raises :class:`IllegalMove` when no stone has
        room (the player passes)."""
        stones = self._open_stones()
        if not stones:
            raise IllegalMove(_("No stone has room for your card: PASS"), "schotten-totten.md C.4")
        self.proposal = (likely_card(self.state, stones[0], self.state.active), stones[0])
        self.placing, self._card_set = True, False

    def _open_by_hand(self) -> None:
        """With no camera at all, while the player to act can play (C.4) and nothing is entered: the entry."""
        if (self.proposal is None and self.state.phase is Phase.PLAY and without_camera(self)
                and self.state.can_play(self.state.active)):
            self._open_entry()

    def _move_stone(self, step: int) -> None:
        """The entry's stone to the next (``step`` 1) or previous (-1) stone with room for the player,
        round the row; a card not yet read or changed follows it (:func:`likely_card`)."""
        assert self.proposal is not None
        card, stone = self.proposal
        stones = self._open_stones() or [stone]
        stone = stones[(stones.index(stone) + step) % len(stones)] if stone in stones else stones[0]
        self.proposal = (card if self._card_set else likely_card(self.state, stone, self.state.active), stone)

    def _undo(self) -> None:
        """Take back the last player action; a play taken back opens again at its card and stone (the
        likeliest correction of a card misread or mis-entered), to be corrected with the same presses."""
        undone = self.state
        self.undo()
        if self.state is undone or self.state.phase is not Phase.PLAY:
            return
        seat = self.state.active
        for index, (now, then) in enumerate(zip(self.state.stones, undone.stones)):
            if len(then.cards[seat]) > len(now.cards[seat]):
                self.proposal, self.placing, self._card_set = (then.cards[seat][-1], index), False, True

    def claim_options(self) -> list[int]:
        """The stones NEXT selects at the claim step: unclaimed, with 3 of the active player's cards (C.6),
        claimable or not (CONFIRM then says why not); ascending, indices 0-8."""
        seat = self.state.active
        return [i for i, s in enumerate(self.state.stones) if s.owner is None and len(s.cards[seat]) == 3]

    def _on_claim(self, command: Command) -> None:
        button, args = command.button, command.args
        options = self.claim_options()
        if button is Button.NEXT and options:
            later = [i for i in options if i > self.selected]
            self.selected = later[0] if later else options[0]
        elif button is Button.PASS and options:  # one back, as PASS steps back a stone or a value
            earlier = [i for i in options if i < self.selected]
            self.selected = earlier[-1] if earlier else options[-1]
        elif button is Button.CONFIRM:
            self._claim(self.selected)
        elif button is Button.CHOOSE and args:
            self._claim(self._stone(args[0]))
        elif button is Button.BANK:  # done claiming: like banking, the player keeps what is claimed
            self._accept(EndClaims())

    def _claim(self, stone: int) -> None:
        verdict = self.state.claim_verdict(stone, self.state.active)
        if not verdict.claimable:
            raise IllegalMove(_("Stone {n} cannot be claimed: {why}").format(
                n=stone + 1, why=verdict_text(verdict, self.config.game)), verdict.rule)
        self._accept(Claim(stone))

    def _on_over(self, command: Command) -> None:
        if command.button not in (Button.CONFIRM, Button.MENU, Button.QUIT):
            return
        if self.match_over or command.button is not Button.CONFIRM:
            self.finished = True
            return
        self.store.append_event(self.game_id, "action", {"type": "next_game"})
        self.match = replay_match(self.store.events(self.game_id), self.config)
        self.start_seat = self._proposed_starter()
        self.message = _("Game {n} of {total}").format(n=len(self.match.winners) + 1, total=self.config.match_length)
        self._enter_mode()

    @staticmethod
    def _stone(one_based: int) -> int:
        if not 1 <= one_based <= NUM_STONES:
            raise IllegalMove(_("stones are 1 to 9, not {n}").format(n=one_based), "schotten-totten.md C.2")
        return one_based - 1

    # -- accepting and undoing ---------------------------------------------------------------------------

    def _accept(self, action: Action) -> None:
        before = self.state
        after = before.apply(action)  # raises IllegalMove before anything is stored
        self.store.append_event(self.game_id, "action", action_to_dict(action))
        self.match = Match(self.match.points, self.match.winners, after)
        self._automatic()
        self.message = self._describe(before, action, self.state)
        self._enter_mode()

    def _automatic(self) -> None:
        """Apply the draws the box cannot see (the deal and each turn's draw: ``Draw(None)``, C.3/C.4)."""
        while self.state.phase in (Phase.DEAL, Phase.DRAW):
            action = Draw(None)
            self.store.append_event(self.game_id, "action", action_to_dict(action))
            self.match = Match(self.match.points, self.match.winners, self.state.apply(action))

    def undo(self) -> None:
        """Drop the last player action (with the automatic draws after it) and replay."""
        if self.match_over:
            self.message = _("The match is over and saved; it cannot be undone")
            return
        dropped = None
        undone = self.state
        while True:
            event = self.store.drop_last_event(self.game_id)
            if event is None or event.payload.get("type") != "draw":
                dropped = event
                break
        self.match = replay_match(self.store.events(self.game_id), self.config)
        self.proposal = None
        starting = dropped is not None and dropped.payload.get("type") == "next_game"
        what = "" if dropped is None else describe_event(self.players, dropped, self.state, undone,
                                                           game=len(self.match.winners) + (2 if starting else 1))
        self.message = (_("Nothing to undo") if dropped is None else
                        _("Taken back: {event}").format(event=what) if what else _("Undone"))
        self._enter_mode()

    def _enter_mode(self) -> None:
        self._stable.reset()
        if self.state.phase is Phase.CLAIM:
            claims = self.state.claimable_stones(self.state.active)
            self.selected = claims[0] if claims else 0
        self._open_by_hand()
        if self.state.phase is Phase.OVER and self.match_over:
            self._record_result()

    def _record_result(self) -> None:
        if self.store.game(self.game_id).finished:
            return
        a, b = self.match_points
        winner = None if a == b else (0 if a > b else 1)
        self.store.finish_game(self.game_id, {
            "winner": None if winner is None else self.players[winner],
            "points": {self.players[0]: a, self.players[1]: b},
            "games": [None if w is None else self.players[w] for w in self.match.winners + (self.state.winner,)]})

    def _proposed_starter(self) -> int:
        if self.match.winners and self.match.winners[-1] is not None:
            return self.match.winners[-1]  # C.8 (Battle Line): the winner of a game starts the next
        return self.rng.randrange(2)

    def _describe(self, before: SchottenTottenState, action: Action, after: SchottenTottenState) -> str:
        return describe(self.players, before, action, after, routine=False, game=len(self.match.winners) + 1,
                        points=self.match_points if self.match_over else None)

    # -- view --------------------------------------------------------------------------------------------


def step_value(card: Card, seen: set[Card], step: int, top: int) -> Card:
    """``card`` with its value ``step`` (BANK +1, PASS -1) on in its colour, round from ``top`` (9, or 10
    for Battle Line) to 1 and back, skipping the cards in ``seen`` (on the table, C.2); ``card`` itself
    when its colour has no other card left."""
    number = card.value
    for _step in range(top - 1):
        number = (number - 1 + step) % top + 1
        if Card(card.colour, number) not in seen:
            return Card(card.colour, number)
    return card


def step_colour(card: Card, seen: set[Card], top: int) -> Card:
    """``card`` in the next colour (R O Y G B P, round) that has a card not in ``seen`` (C.2): of the same
    value when that card is not on the table, else of the nearest value that is (the higher one of two);
    ``card`` itself when no other colour has a card left."""
    for shift in range(1, len(COLOURS)):
        colour = (card.colour + shift) % len(COLOURS)
        values = [v for v in range(1, top + 1) if Card(colour, v) not in seen]
        if values:
            return Card(colour, min(values, key=lambda v: (abs(v - card.value), -v)))
    return card


def likely_card(state: SchottenTottenState, stone: int, seat: int) -> Card:
    """The card ``seat`` most likely plays at ``stone`` (an entry by hand starts there, C.5 formations):
    beside a pair of equal values, that value in another colour (three of a kind); beside other cards of
    its own, the next value of the colour of its last card there (a colour run: one above the highest,
    one below the lowest, then two); on an empty side, the middle value in red. Always a card not on the
    table (C.2): else the nearest value of that colour, or another colour."""
    seen, top = set(state.table_cards()), state.config.max_value
    own = state.stones[stone].cards[seat]
    values = sorted(c.value for c in own)
    if len(own) >= 2 and values[0] == values[-1]:
        return step_colour(own[-1], seen, top)
    if own:
        colour = own[-1].colour
        for value in (values[-1] + 1, values[0] - 1, values[-1] + 2, values[0] - 2):
            if 1 <= value <= top and Card(colour, value) not in seen:
                return Card(colour, value)
        start = own[-1]
    else:
        start = Card(0, (top + 1) // 2)
    if start not in seen:
        return start
    other = step_value(start, seen, 1, top)
    return other if other not in seen else step_colour(start, seen, top)


def _card_presses(start: Card, target: Card, seen: set[Card], top: int) -> list[Button]:
    """The fewest BANK (+1) / PASS (-1) / NEXT (colour) presses that step ``start`` to ``target`` (breadth
    first over the cards not in ``seen``); ``ValueError`` when none do (``target`` is on the table)."""
    moves = {Button.BANK: lambda c: step_value(c, seen, 1, top), Button.PASS: lambda c: step_value(c, seen, -1, top),
             Button.NEXT: lambda c: step_colour(c, seen, top)}
    paths: dict[Card, list[Button]] = {start: []}
    frontier = [start]
    while frontier and target not in paths:
        following = []
        for card in frontier:
            for button, move in moves.items():
                step = move(card)
                if step not in paths:
                    paths[step] = paths[card] + [button]
                    following.append(step)
        frontier = following
    if target not in paths:
        raise ValueError(f"no presses step {start} to {target}")
    return paths[target]


SESSION = SchottenTottenSession
"""The session class of this game (``companion.registry``)."""


def _round_the_row(stones: list[int], at: int, to: int) -> list[Button]:
    """The fewest NEXT (the next of ``stones``) or PASS (the one before) presses from stone ``at`` to stone
    ``to``, round the row; both must be in ``stones``."""
    ahead = (stones.index(to) - stones.index(at)) % len(stones)
    back = len(stones) - ahead
    return [Button.NEXT] * ahead if ahead <= back else [Button.PASS] * back


def press_for(session: SchottenTottenSession, action: Action) -> list[Command]:
    """The button presses (CONFIRM, BANK, PASS, NEXT, UNDO only) that make ``session`` take ``action``,
    applied to it as they are made (by-hand demo scripts, and the camera demo's corrections): a card
    entered by hand opens with BANK (by itself with no camera), a card read at the wrong stone goes back
    to its stone with UNDO; the stone stepped with NEXT / PASS (whichever way is shorter) and kept with
    CONFIRM; the card stepped with the fewest BANK (+1) / PASS (-1) / NEXT (colour) and played with
    CONFIRM. A claim's stone picked with NEXT / PASS and CONFIRM; BANK ends the claims, PASS passes.
    Draws need no press. Raises ``ValueError`` when the presses do not get there."""
    presses = Presses(session)
    press = presses.press

    if isinstance(action, StartWith):
        presses.start_with(action.seat)
    elif isinstance(action, Play):
        if session.proposal is None:
            press(Button.BANK)
        if session.proposal is not None and not session.placing and session.proposal[1] != action.stone:
            press(Button.UNDO)
        if session.proposal is not None and session.placing:
            stones = session._open_stones()
            if action.stone not in stones or session.proposal[1] not in stones:
                raise ValueError(f"no presses put {action!r} at a stone with room")
            for button in _round_the_row(stones, session.proposal[1], action.stone):
                press(button)
            press(Button.CONFIRM)
        if session.proposal is None:
            raise ValueError(f"the presses for {action!r} were refused: {session.message}")
        seen = set(session.state.table_cards())
        for button in _card_presses(session.proposal[0], action.card, seen, session.config.max_value):
            press(button)
        press(Button.CONFIRM)
    elif isinstance(action, Claim):
        options = session.claim_options()
        if session.selected in options and action.stone in options:
            for button in _round_the_row(options, session.selected, action.stone):
                press(button)
        press(Button.CONFIRM)
    elif isinstance(action, EndClaims):
        press(Button.BANK)
    elif isinstance(action, Pass):
        press(Button.PASS)
    elif not isinstance(action, Draw):
        raise ValueError(f"no presses make {action!r}")
    return presses.made(action)

"""Ludo and "Mensch ärgere Dich nicht": the pure rules engine (``../shared/rules/ludo.md``).

Vocabulary: a **pawn** (token) sits in its colour's **yard**, on the shared **track**, in its **home**
(home column on ``ludo52``, home squares on ``mensch40``) or on the **finish** (``ludo52`` only). Pawn
positions are RELATIVE per colour (B.2, B.2b): :data:`YARD` (-1), ``0`` = own start square, up to
``track_positions - 1`` on the track (50 / 39), then the home squares (51..55 / 40..43), then the finish
(56, ``ludo52``). The board geometry (``companion.games.ludo.board``) maps them to grid cells.

Seats and colours: a game seats 2-4 of the colours red, green, yellow, blue; seat ``i`` plays
``colours[i]`` and play goes clockwise in that order (B.3, B.6). An unused colour's start square is an
ordinary square, except that the ``safe_squares`` CONFIG marks squares of the printed board, used or not
(B.8 for the first point; the second is this engine's DEFAULT).

Turn flow as states::

    FIRST_PLAYER (chance: who starts, B.3)
    ROLL (chance: one die) -> MOVE (player: a pawn move)  -> ROLL (bonus roll, B.4.4 / B.7) | next seat's ROLL
        \\-> no legal move: the roll is lost (B.4.3)         \\-> third six: penalty, next seat (B.4.2)

With ``split_six_moves`` (B.7) a (first or second) six is kept in the **pool** and the die is rolled
again at once; when a non-six comes the player spends the pooled values one at a time, in any order,
on any pawns; values no pawn can use are lost. Without it the pool holds only the current roll.

Decisions of this engine where the rules file leaves a gap (each documented where it is applied):
mensch40 home squares hold one pawn each; a bounce that would leave the home area or end where it
began is illegal; a
``block`` (two own pawns on a track square) cannot be passed or landed on by any pawn, its own colour's
included, and is never captured; ``must_capture`` is applied before ``must_clear_start``; the
``last_moved_to_yard`` penalty spares a pawn that has left the track; with ``play_for_places = false``
the players not finished are placed by their pawns' total progress (ties: seating order).
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction

from companion.errors import IllegalMove
from companion.games.base import CHANCE, TERMINAL, Outcome
from companion.games.ludo.actions import YARD, Action, Move, MoveInfo, Roll, StartWith, action_from_dict, action_to_dict
from companion.games.ludo.board import COLOURS, BoardGeometry, load_board
from companion.games.ludo.config import LudoConfig
from companion.games.ludo.moves import try_move
from companion.i18n import N_

__all__ = ["YARD", "PAWNS", "Action", "Move", "MoveInfo", "Roll", "StartWith", "action_from_dict", "action_to_dict",
           "Phase", "LudoState", "LudoGame"]

PAWNS = 4  # B.1: each player has 4 tokens


class Phase(enum.Enum):
    """Where the game stands (see the module docstring)."""

    FIRST_PLAYER = "first_player"
    ROLL = "roll"
    MOVE = "move"
    OVER = "over"


# ----------------------------------------------------------------------------------------------------
# State


@dataclass(frozen=True)
class LudoState:
    """One immutable position of a Ludo game.

    colours: the colours in play, seat order = clockwise (B.3). pawns[seat]: that seat's 4 relative
    positions, sorted (YARD = -1 first). active: seat whose turn it is (-1 before the first).
    pool: die values rolled and not yet used (B.4, B.7 split_six_moves). sixes_in_row: sixes rolled
    this turn in a row before the next roll (B.4.2). extra_rolls: bonus rolls owed (B.4.4, B.7).
    six_bonus: the roll in the pool is a (first/second) six whose bonus is still to be granted.
    bonus_roll: the roll now due (ROLL) is a bonus roll of this turn (B.4.4 after a six; B.7 bonus_on_capture,
    bonus_on_finish, split_six_moves), not the turn's first roll nor another try for a 6 (B.2b).
    rolls_this_turn: for entry_attempts_when_all_in_yard (B.2b). last_moved: relative position the last
    pawn moved this turn landed on, or None. turn_start: all pawns when this turn began (undo_turn,
    B.7). placings: seats finished, in order (B.6). turn: 1-based count of turns begun. last_roll: the
    latest die (display). last_event: ``""``, ``"third_six"``, ``"no_move"`` (display, B.4).
    """

    config: LudoConfig
    colours: tuple[str, ...]
    pawns: tuple[tuple[int, ...], ...]
    phase: Phase = Phase.FIRST_PLAYER
    active: int = -1
    pool: tuple[int, ...] = ()
    sixes_in_row: int = 0
    extra_rolls: int = 0
    six_bonus: bool = False
    bonus_roll: bool = False
    rolls_this_turn: int = 0
    last_moved: int | None = None
    turn_start: tuple[tuple[int, ...], ...] = ()
    placings: tuple[int, ...] = ()
    turn: int = 0
    last_roll: int | None = None
    last_event: str = ""
    geometry: BoardGeometry = field(default=None, compare=False, repr=False)  # type: ignore[assignment]

    def __post_init__(self) -> None:
        if self.geometry is None:
            object.__setattr__(self, "geometry", load_board(self.config.board))

    # -- construction -------------------------------------------------------------------------------

    @classmethod
    def new(cls, colours: tuple[str, ...] | int = 4, config: LudoConfig | None = None) -> "LudoState":
        """All pawns in their yards, waiting for the first-player chance outcome (B.3).

        colours: 2-4 distinct colours (put in the board's clockwise order, ``BoardGeometry.clockwise``), or
        a player count (2: red and yellow, opposite as B.3 advises; 3: the first three clockwise from red,
        red, green, yellow, or on ``dga56`` red, blue, yellow; 4: all). Raises ValueError otherwise.
        """
        config = (config or LudoConfig()).resolved()
        clockwise = load_board(config.board).clockwise
        if isinstance(colours, int):
            if colours not in (2, 3, 4):
                raise ValueError(f"Ludo takes 2 to 4 players, not {colours}")
            colours = {2: clockwise[0::2], 3: clockwise[:3], 4: clockwise}[colours]
        if not 2 <= len(colours) <= 4 or len(set(colours)) != len(colours) or not set(colours) <= set(COLOURS):
            raise ValueError(f"Ludo takes 2 to 4 distinct colours of {', '.join(COLOURS)}, not {list(colours)}")
        ordered = tuple(c for c in clockwise if c in colours)
        pawns = tuple((YARD,) * PAWNS for _ in ordered)
        return cls(config=config, colours=ordered, pawns=pawns, turn_start=pawns)

    def _with(self, **changes) -> "LudoState":
        """A copy with ``changes`` (a fast :func:`dataclasses.replace`: the fields are already valid)."""
        new = object.__new__(LudoState)
        d = dict(self.__dict__)
        d.pop("_infos", None)
        d.update(changes)
        new.__dict__.update(d)
        return new

    # -- queries ------------------------------------------------------------------------------------

    @property
    def num_players(self) -> int:
        return len(self.colours)

    @property
    def current_player(self) -> int:
        """The seat to act, :data:`CHANCE` in FIRST_PLAYER/ROLL, :data:`TERMINAL` once over."""
        if self.phase is Phase.MOVE:
            return self.active
        if self.phase is Phase.OVER:
            return TERMINAL
        return CHANCE

    def is_finished(self, seat: int) -> bool:
        """All 4 pawns at the journey's end (B.6): the finish (ludo52) or the home squares (mensch40)."""
        geo = self.geometry
        end = geo.track_positions + geo.home_length if geo.has_finish else geo.track_positions
        return all(p >= end for p in self.pawns[seat])

    def is_finished_position(self, rel: int) -> bool:
        """Whether a pawn at ``rel`` has ended its journey: the finish (ludo52) or a home square (mensch40)."""
        geo = self.geometry
        return rel == geo.last_relative if geo.has_finish else rel >= geo.track_positions

    def start_offset(self, seat: int) -> int:
        return self.geometry.colours[self.colours[seat]].start_offset

    def absolute(self, seat: int, rel: int) -> int | None:
        """Absolute track index of a seat's relative position, None off the track (B.2)."""
        if 0 <= rel < self.geometry.track_positions:
            return (self.start_offset(seat) + rel) % self.geometry.track_length
        return None

    def occupancy(self) -> dict[int, dict[int, int]]:
        """Absolute track index -> {seat: pawns of that seat there} (track squares only)."""
        occ: dict[int, dict[int, int]] = {}
        n, tp = self.geometry.track_length, self.geometry.track_positions
        for seat, pawns in enumerate(self.pawns):
            off = self.start_offset(seat)
            for p in pawns:
                if 0 <= p < tp:
                    a = (off + p) % n
                    d = occ.setdefault(a, {})
                    d[seat] = d.get(seat, 0) + 1
        return occ

    def safe_indices(self) -> frozenset[int]:
        """Absolute safe track indices under the ``safe_squares`` CONFIG (B.2, B.7)."""
        return _safe(self.geometry, self.config.safe_squares)

    def is_protected(self, seat: int, absolute: int) -> bool:
        """Whether ``seat``'s single pawn on ``absolute`` cannot be captured there: a safe square, or its
        own start square with ``capture_on_opponent_start = false`` (B.7)."""
        if absolute in self.safe_indices():
            return True
        return not self.config.capture_on_opponent_start and absolute == self.start_offset(seat)

    def move_infos(self, seat: int | None = None, pool: tuple[int, ...] | None = None) -> tuple[MoveInfo, ...]:
        """Every legal move of ``seat`` (default: the active seat) with the pooled values ``pool``
        (default: this state's pool), after the must-rules (B.2b must_capture, then must_clear_start).

        Legality (B.4.3, B.5): forward along the own path; exact finish unless ``overshoot = bounce``;
        no landing on an own pawn unless ``own_stacking`` allows it; blocks neither passed nor landed on;
        opponents on the destination are captured unless protected; entering only with ``entry_rolls``.
        """
        if seat is None and pool is None:
            cached = self.__dict__.get("_infos")
            if cached is None:
                cached = self._move_infos(self.active, self.pool)
                self.__dict__["_infos"] = cached
            return cached
        return self._move_infos(self.active if seat is None else seat, self.pool if pool is None else pool)

    def _move_infos(self, seat: int, pool: tuple[int, ...]) -> tuple[MoveInfo, ...]:
        occ = self.occupancy()
        infos: list[MoveInfo] = []
        seen: set[tuple[int, int]] = set()
        for die in sorted(set(pool)):
            for frm in sorted(set(self.pawns[seat])):
                if (frm, die) in seen:
                    continue
                seen.add((frm, die))
                info = try_move(self, seat, frm, die, occ)
                if info is not None:
                    infos.append(info)
        cfg = self.config
        if cfg.must_capture and any(i.captures for i in infos):
            infos = [i for i in infos if i.captures]
        if cfg.must_clear_start and 0 in self.pawns[seat] and YARD in self.pawns[seat]:
            clearing = [i for i in infos if i.move.frm == 0]
            if clearing:
                infos = clearing
        return tuple(infos)

    def legal_actions(self) -> tuple[Action, ...]:
        """Moves in MOVE (never empty: a roll without a legal move is lost at once, B.4.3); nothing else."""
        if self.phase is Phase.MOVE:
            return tuple(i.move for i in self.move_infos())
        return ()

    def chance_outcomes(self) -> tuple[tuple[Action, Fraction], ...]:
        """FIRST_PLAYER: each seat 1/n (highest roll, re-roll ties, B.3). ROLL: each face 1/6 (fair die)."""
        if self.phase is Phase.FIRST_PLAYER:
            return tuple((StartWith(s), Fraction(1, self.num_players)) for s in range(self.num_players))
        if self.phase is Phase.ROLL:
            return tuple((Roll(v), Fraction(1, 6)) for v in range(1, 7))
        return ()

    def is_third_six(self, value: int) -> bool:
        """Whether rolling ``value`` now would be the third six in a row (B.4.2)."""
        return value == 6 and self.sixes_in_row >= 2

    @property
    def bonus_rolls_pending(self) -> int:
        """Bonus rolls the player to act is owed this turn (0 to 3): in ROLL the roll now due counts when it is
        a bonus roll (:attr:`bonus_roll`), with any owed after it; in MOVE the six's bonus that follows the
        move (B.4.4; B.7 ``six_bonus_if_unused``) and any owed after it; a capture or a finish the move
        makes may add one (B.7 ``bonus_on_capture``, ``bonus_on_finish``). 0 in other phases.
        (``extra_rolls`` alone counts only the rolls owed after the next one: 0 while a six's bonus waits.)"""
        if self.phase is Phase.ROLL:
            return int(self.bonus_roll) + self.extra_rolls
        if self.phase is Phase.MOVE:
            return int(self.six_bonus) + self.extra_rolls
        return 0

    def entry_try(self) -> tuple[int, int] | None:
        """``(k, n)``: the roll now due is try ``k`` of ``n`` for a 6 (ludo.md B.2b
        ``entry_attempts_when_all_in_yard``: a player none of whose pawns could move with any roll, all in
        the yard or packed at the far end of the home squares, rolls up to ``n`` times), e.g. ``(2, 3)`` on
        ``mensch40``; None when the rule gives no tries now (ROLL only; a pawn that can move means one roll
        as usual; a bonus roll is no try; a rule of one attempt)."""
        attempts = self.config.entry_attempts_when_all_in_yard or 1
        if self.phase is not Phase.ROLL or self.bonus_roll or attempts <= 1 or self.rolls_this_turn >= attempts:
            return None
        if not self.stuck_outside_yard():
            return None
        return self.rolls_this_turn + 1, attempts

    def outcome(self) -> Outcome | None:
        """None while running; else placings first to last (B.6), winner = first, scores = pawns finished."""
        if self.phase is not Phase.OVER:
            return None
        geo = self.geometry
        end = geo.track_positions + geo.home_length if geo.has_finish else geo.track_positions
        scores = tuple(sum(1 for p in pawns if p >= end) for pawns in self.pawns)
        return Outcome(self.placings[0] if self.placings else None, self.placings, scores)

    # -- transitions --------------------------------------------------------------------------------

    def apply(self, action: Action) -> "LudoState":
        """The state after ``action``; raises :class:`IllegalMove` naming the rule broken."""
        if isinstance(action, StartWith):
            if self.phase is not Phase.FIRST_PLAYER:
                raise IllegalMove(N_("the first player is already decided"), "ludo.md B.3")
            if not 0 <= action.seat < self.num_players:
                raise IllegalMove(f"no seat {action.seat}", "ludo.md B.3")
            return self._begin_turn(action.seat, turn=1)
        if isinstance(action, Roll):
            if self.phase is not Phase.ROLL:
                raise IllegalMove(N_("the die is not to be rolled now"), "ludo.md B.4.1")
            if not 1 <= action.value <= 6:
                raise IllegalMove(f"a die shows 1 to 6, not {action.value}", "ludo.md B.4.1")
            return self._roll(action.value)
        if isinstance(action, Move):
            if self.phase is not Phase.MOVE:
                raise IllegalMove(N_("no move is due now"), "ludo.md B.4.3")
            for info in self.move_infos():
                if info.move == action:
                    return self._move(info)
            raise IllegalMove(f"no legal move from {action.frm} with {action.die}", "ludo.md B.5")
        raise TypeError(f"not a Ludo action: {action!r}")

    def _begin_turn(self, seat: int, turn: int) -> "LudoState":
        return self._with(phase=Phase.ROLL, active=seat, pool=(), sixes_in_row=0, extra_rolls=0,
                       six_bonus=False, bonus_roll=False, rolls_this_turn=0, last_moved=None, turn_start=self.pawns,
                       turn=turn)

    def _roll(self, value: int) -> "LudoState":
        cfg = self.config
        state = self._with(last_roll=value, rolls_this_turn=self.rolls_this_turn + 1, last_event="", bonus_roll=False)
        if self.is_third_six(value):
            return state._third_six()
        six = value == 6
        sixes = self.sixes_in_row + 1 if six else 0
        if cfg.split_six_moves and six:
            # B.7 split_six_moves: keep the six, roll again at once
            return state._with(pool=self.pool + (6,), sixes_in_row=sixes, bonus_roll=True)
        state = state._with(pool=self.pool + (value,), sixes_in_row=sixes,
                        six_bonus=six and not cfg.split_six_moves)
        return state._settle(moved=False)

    def _third_six(self) -> "LudoState":
        """B.4.2: the third six moves nothing and ends the turn; B.7 triple_six_penalty."""
        penalty = self.config.triple_six_penalty
        pawns = self.pawns
        if penalty == "undo_turn":
            pawns = self.turn_start
        elif penalty == "last_moved_to_yard" and self.last_moved is not None:
            lm = self.last_moved
            if 0 <= lm < self.geometry.track_positions and lm in pawns[self.active]:
                mine = list(pawns[self.active])
                mine.remove(lm)
                mine.append(YARD)
                pawns = _set(pawns, self.active, tuple(sorted(mine)))
        state = self._with(pawns=pawns, pool=(), six_bonus=False, extra_rolls=0, last_event="third_six")
        return state._next_turn()

    def _settle(self, moved: bool) -> "LudoState":
        """After a roll or a move: wait for a move if one is possible, else the pool is lost and the turn
        goes on with a bonus roll or passes (B.4.3-B.4.5)."""
        if self.pool and self.move_infos():
            return self._with(phase=Phase.MOVE)
        cfg = self.config
        extra = self.extra_rolls
        lost = bool(self.pool)
        if self.six_bonus and (moved or cfg.six_bonus_if_unused):
            extra += 1  # B.4.4 bonus roll after a six (B.7 six_bonus_if_unused)
        state = self._with(pool=(), six_bonus=False, last_event="no_move" if lost and not moved else self.last_event)
        if extra > 0:
            return state._with(phase=Phase.ROLL, extra_rolls=extra - 1, bonus_roll=True)
        state = state._with(bonus_roll=False)
        if (not moved and self.rolls_this_turn < cfg.entry_attempts_when_all_in_yard  # type: ignore[operator]
                and self.stuck_outside_yard()):
            return state._with(phase=Phase.ROLL)  # B.2b entry_attempts_when_all_in_yard
        return state._next_turn()

    def stuck_outside_yard(self, seat: int | None = None) -> bool:
        """Whether no pawn of ``seat`` (default: the active seat) outside its yard could move with any roll
        1-6: all in the yard, or the rest packed at the far end of the home squares (ludo.md B.2b
        ``entry_attempts_when_all_in_yard``: only such a player gets the extra tries for a 6)."""
        seat = self.active if seat is None else seat
        return not any(info.move.frm != YARD for value in range(1, 7)
                       for info in self._move_infos(seat, (value,)))

    def pawns_after(self, info: MoveInfo, seat: int | None = None) -> tuple[tuple[int, ...], ...]:
        """Every seat's pawns (relative positions, each seat's sorted) after ``seat`` (default: the seat
        to act) plays the legal move ``info``; captured pawns are back in their yards (B.5)."""
        seat = self.active if seat is None else seat
        pawns = list(self.pawns)
        mine = list(pawns[seat])
        mine.remove(info.move.frm)
        mine.append(info.to)
        pawns[seat] = tuple(sorted(mine))
        if info.captures:
            a = self.absolute(seat, info.to)
            for other, _count in info.captures:
                pawns[other] = tuple(sorted(YARD if self.absolute(other, p) == a else p for p in pawns[other]))
        return tuple(pawns)

    def _move(self, info: MoveInfo) -> "LudoState":
        seat, cfg = self.active, self.config
        pawns = self.pawns_after(info)
        pool = list(self.pool)
        pool.remove(info.move.die)
        extra = self.extra_rolls
        if info.captures and cfg.bonus_on_capture:
            extra += 1  # B.7 bonus_on_capture
        if info.finishes and cfg.bonus_on_finish:
            extra += 1  # B.7 bonus_on_finish
        state = self._with(pawns=pawns, pool=tuple(pool), extra_rolls=extra, last_moved=info.to,
                        last_event="")
        if state.is_finished(seat):
            return state._place(seat)
        return state._settle(moved=True)

    def _place(self, seat: int) -> "LudoState":
        """B.6: the seat takes the next free place and leaves the game; the last one takes the last place."""
        placings = self.placings + (seat,)
        left = [s for s in range(self.num_players) if s not in placings]
        if not self.config.play_for_places:
            left.sort(key=lambda s: -sum(p + 1 for p in self.pawns[s]))  # engine DEFAULT: by progress
            return self._with(placings=placings + tuple(left), phase=Phase.OVER, pool=(), extra_rolls=0)
        if len(left) <= 1:
            return self._with(placings=placings + tuple(left), phase=Phase.OVER, pool=(), extra_rolls=0)
        return self._with(placings=placings, pool=(), extra_rolls=0, six_bonus=False)._next_turn()

    def _next_turn(self) -> "LudoState":
        """B.4.5 / B.6: the turn passes clockwise to the next seat not yet placed."""
        seat = self.active
        for _ in range(self.num_players):
            seat = (seat + 1) % self.num_players
            if seat not in self.placings:
                break
        return self._with(six_bonus=False, extra_rolls=0)._begin_turn(seat, self.turn + 1)

    # -- JSON -----------------------------------------------------------------------------------------

    def to_dict(self) -> dict:
        """A JSON-ready dict; :meth:`from_dict` inverts it exactly."""
        return {"game": "ludo", "config": self.config.to_dict(), "colours": list(self.colours),
                "pawns": [list(p) for p in self.pawns], "phase": self.phase.value, "active": self.active,
                "pool": list(self.pool), "sixes_in_row": self.sixes_in_row, "extra_rolls": self.extra_rolls,
                "six_bonus": self.six_bonus, "bonus_roll": self.bonus_roll, "rolls_this_turn": self.rolls_this_turn,
                "last_moved": self.last_moved, "turn_start": [list(p) for p in self.turn_start],
                "placings": list(self.placings), "turn": self.turn, "last_roll": self.last_roll,
                "last_event": self.last_event}

    @classmethod
    def from_dict(cls, data: Mapping) -> "LudoState":
        """Rebuild a state from :meth:`to_dict`; raises ``ValueError`` on a malformed dict."""
        try:
            c = dict(data["config"])
            c["entry_rolls"] = tuple(c["entry_rolls"])
            return cls(config=LudoConfig(**c), colours=tuple(data["colours"]),
                       pawns=tuple(tuple(int(x) for x in p) for p in data["pawns"]), phase=Phase(data["phase"]),
                       active=int(data["active"]), pool=tuple(int(v) for v in data["pool"]),
                       sixes_in_row=int(data["sixes_in_row"]), extra_rolls=int(data["extra_rolls"]),
                       six_bonus=bool(data["six_bonus"]), bonus_roll=bool(data.get("bonus_roll", False)),
                       rolls_this_turn=int(data["rolls_this_turn"]),
                       last_moved=data["last_moved"],
                       turn_start=tuple(tuple(int(x) for x in p) for p in data["turn_start"]),
                       placings=tuple(int(s) for s in data["placings"]), turn=int(data["turn"]),
                       last_roll=data["last_roll"], last_event=str(data["last_event"]))
        except (KeyError, TypeError) as error:
            raise ValueError(f"not a Ludo state: {error}") from None


_SAFE_CACHE: dict[tuple[str, str], frozenset[int]] = {}


def _safe(geo: BoardGeometry, rule: str) -> frozenset[int]:
    key = (geo.name, rule)
    if key not in _SAFE_CACHE:
        _SAFE_CACHE[key] = frozenset(geo.safe_squares[rule])
    return _SAFE_CACHE[key]


def _set(pawns: tuple[tuple[int, ...], ...], seat: int, mine: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    out = list(pawns)
    out[seat] = mine
    return tuple(out)


@dataclass(frozen=True)
class LudoGame:
    """The static rules of one Ludo game (OpenSpiel's ``Game``): the player count (2-4: the colours of
    B.3, or the colours themselves) and the variant (B.7)."""

    num_players: int | tuple[str, ...] = 4
    config: LudoConfig = field(default_factory=LudoConfig)

    def new_initial_state(self) -> LudoState:
        """All pawns in their yards (B.3); raises ``ValueError`` for a player count other than 2-4."""
        return LudoState.new(self.num_players, self.config)

"""The Ludo advisor: which pawn to move, and why (issue 4; rules ``ludo.md``).

``advise(state, seat)`` ranks every legal move of the seat to act by the value of the position it
leaves, from public information only (the whole board is public). It looks at the opponents' next rolls
only through the **danger** of each own pawn: the chance that some opponent pawn reaches it.

Value model (units: "steps"; one step = one square of progress; weights in :class:`Weights`, one set
per rule set: :data:`BASE_WEIGHTS` without safe squares, :data:`SAFE_WEIGHTS` with them):

- A pawn is worth ``pawn_in_play`` once out of the yard plus its progress ``rel**p / last**(p-1)`` (B.2
  relative position, ``p = progress_power``: above 1 a step near home is worth more than one near the
  start, so the advisor brings its leading pawn home, where it is safe), plus ``home_bonus`` once in its
  private home (B.5: never captured), plus ``finish_bonus`` when its journey is over.
- **Danger** of an own pawn on an unprotected track square (B.5, B.7), :mod:`companion.hints.ludo.danger`,
  in one of two models (``danger_model``). ``count``: each opponent pawn 1-6 squares behind it along that
  opponent's path adds 1/6 (7-12 behind: ``far_danger``), an opponent with pawns in its yard adds the
  chance of an entry roll on its own start square (B.5 entering captures); capped at 1. ``exact``: per
  opponent, the chance that its next turn can land there (a direct roll, an entry, or a six followed by
  the bonus roll, B.4.4), combined over the opponents as independent events. Protected squares (safe
  squares, own start with ``capture_on_opponent_start = false``, a block) carry no danger.
- **Exact finish plateau** (``plateau``, ``ludo52``): with the exact-finish rule (B.5) a lone pawn 1-6
  steps from the finish needs 6 rolls on average wherever it stands (it waits for one exact roll), so
  progress counts only up to ``plateau`` steps before the finish; a roll spent walking up the home
  column gains nothing, and the advisor spends it on a pawn still on the track instead.
- Position value = own pawns' value x (1 - ``danger`` x their danger) - ``opponent`` x the opponents'
  pawn values (a capture sends an opponent's progress back to zero) + ``spread`` per own pawn on the
  track + ``safe_bonus`` per own pawn on a protected track square.

Tuning (against three random players, ``companion simulate ludo``, 600-1000 games a setting, about
+-1.6 points of noise). No safe squares: a linear progress term won 43 %, the squared one 53-55 %;
pawn_in_play 8-22, danger 0.6-2.0, opponent 0.1-0.7 and spread 0-8 were scanned; BASE_WEIGHTS won
about 55 %. With ``safe_squares=starts_and_stars`` the same weights won 60-62 %; a lower progress power
with a heavier danger weight (1.2 and 2.5-3.5 won 64-65 %, 1.0 won 57 %) and a safe-square bonus of 4
(65-66 %), then more weight on pawns out (spread 6-8) and on captures (opponent 0.55-0.75) gave about
65.5 % (65.6 % on 4000 games of seed 1). The exact danger model and the finish plateau then gave
67.3 % (4000 games, seeds 6-9; with danger 4.0: 65.9 % with the plateau, 65.3 % without) and made
SAFE_WEIGHTS.
Under the default rules neither helped within the noise (+-0.8 points at 4000 games): the exact model
won 53.9 % (2000 games, seeds 2-5; with the plateau 53.9 % on seeds 6-9), the count model 55.8 %
(seeds 2-5), the plateau with the count model 55.3 % against 54.8 % without it (seeds 10-13) and 54.6 %
on seeds 6-9; BASE_WEIGHTS stay as they were (55.4 % on seed 1, 54.3 % on seed 2). The safe-square
weights win only 51 % without safe squares, hence two sets. Tried without gain: a bonus for threatening
opponent pawns, a lower danger weight before a bonus roll, extra weight on the leading opponent, a
linear capture loss, a one-roll own look-ahead, and a linear value fitted to game outcomes by logistic
regression on 0.5 million positions (63.6 % with starts_and_stars, 1600 games).

The reason line names the move's main effect in this order: capture, escape a threat, safe square, enter,
reach home, progress (the order of issue 4); a move the ``must_clear_start`` rule forces (B.2b) says that
instead, in the players' words (issue 37).
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.games.ludo import YARD, LudoConfig, LudoState, MoveInfo, Phase, Roll, StartWith
from companion.hints.base import Budget, Hint, Meter
from companion.hints.ludo.danger import hit_chance, threat_count
from companion.hints.ludo.words import pawn_phrase
from companion.i18n import Np_, _, pgettext, sentence


@dataclass(frozen=True)
class Weights:
    """The advisor's value weights (units: steps; see the module docstring).

    pawn_in_play: value of a pawn out of the yard (the wait for a 6 to enter, B.4.3). home_bonus: extra
    value in the private home (B.5). finish_bonus: extra value when the journey is over (B.6). danger:
    weight of a pawn's capture chance before the next turn, times its value (above 1: a capture also costs
    the tempo of re-entering). opponent: weight of each opponent pawn's value (a capture sends it back).
    spread: bonus per own pawn on the track (more choice for later rolls). far_danger: chance counted for
    an opponent pawn 7-12 squares behind (``count`` model only). safe_bonus: bonus per own pawn on a
    protected track square (safety lasts beyond the next round, B.7). progress_power: exponent of the
    progress term (above 1 favours pawns near home). plateau: steps before the finish (0-6) over which
    progress stops counting on a board with a finish (B.5 exact finish), 0 = off. danger_model:
    ``"count"`` or ``"exact"`` (module docstring).
    """

    pawn_in_play: float = 11.0
    home_bonus: float = 8.0
    finish_bonus: float = 6.0
    danger: float = 1.4
    opponent: float = 0.35
    spread: float = 4.0
    far_danger: float = 1 / 36
    safe_bonus: float = 0.0
    progress_power: float = 2.0
    plateau: int = 0
    danger_model: str = "count"


BASE_WEIGHTS = Weights()
"""Weights without safe squares (``safe_squares = none``, the DEFAULT): rush the leading pawn home."""

SAFE_WEIGHTS = Weights(danger=3.0, safe_bonus=4.0, progress_power=1.2, spread=8.0, opponent=0.75,
                       plateau=6, danger_model="exact")
"""Weights when safe squares exist (``starts`` / ``starts_and_stars``, B.7): hop between safe squares."""


def weights_for(state: LudoState) -> Weights:
    """The weights for the rule set of ``state``: :data:`SAFE_WEIGHTS` with safe squares, else
    :data:`BASE_WEIGHTS`."""
    return BASE_WEIGHTS if state.config.safe_squares == "none" else SAFE_WEIGHTS


def pawn_value(state: LudoState, rel: int, w: Weights | None = None) -> float:
    """Value of one pawn at relative position ``rel`` (see the module docstring), in steps."""
    if rel == YARD:
        return 0.0
    w = w or weights_for(state)
    geo = state.geometry
    last = geo.last_relative
    steps = rel
    if w.plateau and geo.has_finish and rel < last:
        steps = min(rel, last - w.plateau)  # exact finish (B.5): one exact roll away either way
    value = w.pawn_in_play + (steps ** w.progress_power) * (last ** (1 - w.progress_power))
    if rel >= geo.track_positions:
        value += w.home_bonus
        if state.is_finished_position(rel):
            value += w.finish_bonus
    return value


def danger(state: LudoState, pawns: tuple[tuple[int, ...], ...], seat: int, rel: int,
           occ: dict[int, dict[int, int]], w: Weights | None = None) -> float:
    """Danger (0-1) of ``seat``'s pawn at ``rel`` before ``seat`` moves again, in the weights'
    ``danger_model``: :func:`companion.hints.ludo.danger.hit_chance` (``exact``) or
    :func:`companion.hints.ludo.danger.threat_count` (``count``). occ: absolute occupancy of ``pawns``."""
    w = w or weights_for(state)
    if w.danger_model == "exact":
        return hit_chance(state, pawns, seat, rel, occ)
    return threat_count(state, pawns, seat, rel, occ, w.far_danger)


def _occupancy(state: LudoState, pawns: tuple[tuple[int, ...], ...]) -> dict[int, dict[int, int]]:
    occ: dict[int, dict[int, int]] = {}
    n, tp = state.geometry.track_length, state.geometry.track_positions
    for s, ps in enumerate(pawns):
        off = state.start_offset(s)
        for p in ps:
            if 0 <= p < tp:
                d = occ.setdefault((off + p) % n, {})
                d[s] = d.get(s, 0) + 1
    return occ


def position_value(state: LudoState, pawns: tuple[tuple[int, ...], ...], seat: int,
                   w: Weights | None = None) -> tuple[float, float]:
    """(value, summed danger of the own pawns) of ``pawns`` for ``seat`` (module docstring)."""
    w = w or weights_for(state)
    occ = _occupancy(state, pawns)
    tp = state.geometry.track_positions
    own = 0.0
    total_danger = 0.0
    for rel in pawns[seat]:
        v = pawn_value(state, rel, w)
        dz = danger(state, pawns, seat, rel, occ, w)
        total_danger += dz
        own += v * (1 - w.danger * dz)
        if 0 <= rel < tp:
            own += w.spread
            if w.safe_bonus and state.is_protected(seat, (state.start_offset(seat) + rel) % state.geometry.track_length):
                own += w.safe_bonus
    opp = sum(pawn_value(state, rel, w) for s, ps in enumerate(pawns) if s != seat for rel in ps)
    return own - w.opponent * opp, total_danger


NODES = 16
"""The default node budget of one decision (:class:`companion.hints.base.Budget`): moves valued. More
than a roll ever offers (one move a pawn, four pawns), so a hint within it values every move."""


def prepare(config: LudoConfig | None = None) -> None:
    """Build the advisor's tables before the first hint: none (it keeps no tables; every value is worked
    out from the board, in well under a millisecond); a warm-up hint on a first six. For the box's one
    call per game start."""
    state = LudoState.new(2, config or LudoConfig()).apply(StartWith(0)).apply(Roll(6))
    if state.phase is Phase.MOVE:
        advise(state, state.active)


def rank(state: LudoState, seat: int, w: Weights | None = None,
         meter: Meter | None = None) -> list[tuple[MoveInfo, float, float]]:
    """Every legal move of ``seat`` with (value, danger after), best first (ties: engine order).

    ``meter``: the decision's budget (None: every move); the first move is always valued, each other one
    is a node. Moves the budget leaves unvalued follow the valued ones, in the engine's order, with the
    value and danger ``-inf`` and ``nan``."""
    w = w or weights_for(state)
    scored = []
    for info in state.move_infos(seat):
        if scored and meter is not None and not meter.take(1):
            scored.append((info, float("-inf"), float("nan")))
            continue
        value, dz = position_value(state, state.pawns_after(info, seat), seat, w)
        scored.append((info, value, dz))
    scored.sort(key=lambda t: -t[1])
    return scored


def advise(state: LudoState, seat: int, budget: Budget | None = None) -> Hint:
    """The recommended move for ``seat`` in ``state`` (MOVE phase), with a one-line reason and numbers.

    Raises ``ValueError`` when ``seat`` has no move to make now (not its turn, a chance node, game over).
    Pure: the same state and budget always get the same advice (without a deadline).

    ``budget`` (:class:`companion.hints.base.Budget`; None: :data:`NODES`, no deadline): a node is a move
    valued after the first (about 0.03 ms each on the development machine); a move left unvalued by the
    budget or the deadline is not recommended. Within :data:`NODES` every move is valued.

    The hint's ``action`` is a :class:`Move`; ``kind`` is ``clear_start`` (the move is forced by
    ``must_clear_start``, B.2b: the reason says so), ``capture``, ``escape``, ``safe``, ``enter``, ``home`` or
    ``progress`` (the reason's category); ``numbers``: ``to`` (the destination, relative),
    ``value`` (the position value after the move, steps), ``danger`` (the own pawns' dangers after the
    move, each 0-1, summed: 0-4), ``danger_before`` (the same before), ``captures`` (pawns captured);
    ``ranking``: every legal move with its value, best first.
    """
    if state.phase is not Phase.MOVE or state.active != seat:
        raise ValueError(f"seat {seat} has no move to make now (phase {state.phase.value}, "
                         f"seat to act {state.current_player})")
    meter = Meter(budget, NODES)
    ranked = rank(state, seat, meter=meter)
    best, value, dz = ranked[0]
    _, dz_before = position_value(state, state.pawns, seat)
    occ = state.occupancy()
    kind, reason = _reason(state, seat, best, occ)
    numbers = {"value": value, "danger": dz, "danger_before": dz_before,
               "captures": float(sum(c for _, c in best.captures))}
    return Hint(best.move, reason, {**numbers, "to": float(best.to)}, kind=kind,
                ranking=tuple((i.move, v) for i, v, _ in ranked), nodes=meter.spent, cut=meter.cut)


def clears_start(state: LudoState, seat: int) -> bool:
    """Whether ``seat``'s legal moves are only those that move its pawn off its start square because the
    ``must_clear_start`` rule forces it (ludo.md B.2b: while a pawn of one's own stands on the start square
    and others wait in the yard, that pawn must move away first when it can)."""
    mine = state.pawns[seat]
    if not state.config.must_clear_start or 0 not in mine or YARD not in mine:
        return False
    infos = state.move_infos(seat)
    return bool(infos) and all(i.move.frm == 0 for i in infos)


CAPTURED = {"red": Np_("captured", "a red pawn"), "green": Np_("captured", "a green pawn"),
            "yellow": Np_("captured", "a yellow pawn"), "blue": Np_("captured", "a blue pawn")}
"""A pawn of each colour as the object of "captures" ("captures a yellow pawn"; Russian "жёлтую фишку":
the pawn's case and gender), untranslated; listed one by one so the catalogues hold them."""


def captured_names(state: LudoState, info: MoveInfo) -> str:
    """The colours of the pawns ``info`` captures (:data:`CAPTURED`), joined by commas."""
    return ", ".join(pgettext(*CAPTURED[state.colours[s]]) if state.colours[s] in CAPTURED else _(state.colours[s])
                     for s, _c in info.captures)


def _reason(state: LudoState, seat: int, info: MoveInfo, occ: dict[int, dict[int, int]]) -> tuple[str, str]:
    """(kind, the reason in plain words); the pawn is named as players say it (:mod:`.words`)."""
    frm, to = info.move.frm, info.to
    pawn = pawn_phrase(state, frm, seat)
    if clears_start(state, seat):  # ludo.md B.2b must_clear_start: the rule, not a choice, picks the pawn
        if info.captures:
            names = captured_names(state, info)
            return "clear_start", _("Your start square must be cleared while pawns wait in the yard, so the pawn "
                                    "on it moves on and captures {names}.").format(names=names)
        return "clear_start", _("Your start square must be cleared while pawns wait in the yard, so the pawn on "
                                "it moves on.")
    if info.captures:
        names = captured_names(state, info)
        return "capture", sentence(_("{pawn} captures {names}.").format(pawn=pawn, names=names))
    threat = danger(state, state.pawns, seat, frm, occ) if frm != YARD else 0.0
    if threat > 0:
        after = state.pawns_after(info, seat)
        if danger(state, after, seat, to, _occupancy(state, after)) <= threat / 2:
            return "escape", sentence(_("{pawn} escapes a threat.").format(pawn=pawn))
    a = state.absolute(seat, to)
    if a is not None and a in state.safe_indices():
        return "safe", sentence(_("{pawn} moves onto a safe square.").format(pawn=pawn))
    if info.enters:
        return "enter", _("Bring a pawn out onto the start square.")
    if to >= state.geometry.track_positions and (frm < state.geometry.track_positions or info.finishes):
        return "home", sentence(_("{pawn} moves into home.").format(pawn=pawn))
    return "progress", sentence(_("{pawn} makes the best progress.").format(pawn=pawn))

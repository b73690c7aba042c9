"""A seeded game played by hand, action by action, and the presses that follow any stored log of it.

The power-cut benches (:mod:`.crash`, :mod:`.power_cut`) must tell a restarted ``companion play GAME``
what the players press next. A script of random commands cannot say that, so both play a whole game
the way the by-hand demos are made (:mod:`companion.app.by_hand`): the advisor in every seat on a
full-information engine state, each action turned into the buttons that make the box's own session take
it (the game's ``press_for``). :func:`make_plan` keeps it action by action: each :class:`Chunk` is one
action, its presses and the number of events in the log once they were made. An automatic step costs
no press of its own: Schotten Totten's draw is stored by the press that played the card before it (its
chunk adds two events, the draw's chunk none), the donkey race's deal or refill is one ``step`` event
stored by one CONFIRM (the following draws' chunks add none).

What follows a cut (:func:`following`) is worked out on the resumed session itself, as the players would
see it: a copy of the store left by the kill is opened in a scratch folder (the child's own store is
never touched), the session is rebuilt there as ``companion play`` rebuilds it
(:func:`companion.app.play.resume_session`: rows that do not replay set aside, automatic steps the log
stops before completed), and the next actions are the chunks that begin at or after the events it now
holds. Their presses are made on that session with ``press_for`` (the screen's selections after a
restart are not those of the uninterrupted run, so the reference run's presses could enter other
values). When the resumed session refuses them, ``refused`` says why and the reference presses of the
remaining chunks stand in, so that the child shows the refusal too.
"""

from __future__ import annotations

import json
import random
import shutil
import sqlite3
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.app.by_hand import DEMO_PLAYERS, DEMO_SEED, by_hand_variant, table_chance
from companion.app.summary import SummarySession
from companion.commands import Button, Command
from companion.games import CHANCE, TERMINAL
from companion.i18n import _
from companion.paths import STORE_FILE_NAME
from companion.registry import game as game_entry
from companion.session.base import NO_CAMERA
from companion.stats import game_summary
from companion.store import Store

SESSION_SEED = DEMO_SEED
"""The box's seed (``companion play --seed``: who it proposes to start), as in the by-hand demos."""


@dataclass
class Chunk:
    """One action of the game: the presses (button names) that make the session take it, and the number
    of events in the log once they were made."""

    action: Any
    presses: list[str]
    events: int


@dataclass
class Plan:
    """A whole seeded game of ``game`` entered by hand (module docstring)."""

    game: str
    seed: int
    players: list[str]
    variant: dict[str, str]
    chunks: list[Chunk]
    tail: list[str]
    """The presses after the last action: the winner's screen and the summary's pages."""
    log: list[tuple[str, Any]]
    """The events of the whole game as (kind, payload)."""

    def argv(self) -> list[str]:
        """``companion`` arguments of a child that plays (or resumes) this game, without ``--input``."""
        argv = ["play", self.game, "--headless", "--camera", "none", "--players", ",".join(self.players),
                "--seed", str(SESSION_SEED)]
        for key, value in sorted(self.variant.items()):
            argv += ["--variant", f"{key}={value}"]
        return argv

    def presses(self, first: int = 0, last: int | None = None, tail: bool = True) -> list[str]:
        """The reference presses of chunks ``first`` to ``last`` (excluded; None: to the end), then the
        tail when ``tail``."""
        presses = [p for chunk in self.chunks[first:last] for p in chunk.presses]
        return presses + (self.tail if tail and last is None else [])

    def events_before(self, index: int) -> int:
        """Events in the log before chunk ``index``."""
        return self.chunks[index - 1].events if index > 0 else 0

    def next_chunk(self, events: int) -> int:
        """The first chunk that begins with at least ``events`` events in the log (``len(chunks)``: none)."""
        return next((i for i in range(len(self.chunks)) if self.events_before(i) >= events), len(self.chunks))

    def boundary(self, events: int) -> bool:
        """Whether a log of ``events`` events ends where an action's presses end (or at the start)."""
        return events == 0 or any(chunk.events == events for chunk in self.chunks)


def _new_session(entry, store: Store, game_id: int, players: list[str], variant: dict):
    session = entry.module("session").SESSION(store, game_id, list(players), entry.config(variant),
                                              rng=random.Random(SESSION_SEED))
    session.on_camera_problem(_(NO_CAMERA))  # as the play loop says when there is no camera
    return session


def _tail(session, store: Store, game_id: int) -> list[str]:
    """The winner's screen (CONFIRM until the session is finished) and the summary's pages, pressed."""
    presses: list[str] = []
    while not session.finished and len(presses) < 10:
        presses.append(Button.CONFIRM.value)
        session.on_command(Command(Button.CONFIRM))
    summary = SummarySession(game_summary(store, game_id), game_id)
    return presses + [Button.NEXT.value] * (summary.pages - 1) + [Button.CONFIRM.value]


def make_plan(name: str, seed: int, presses: int | None = None) -> Plan:
    """The game of ``name`` seeded by ``seed``, entered by hand (as :func:`companion.app.by_hand.by_hand_lines`
    makes it, action by action). ``presses``: stop at the end of the first action with presses begun once
    that many were made (the game's beginning and the action after it; no tail). Raises ``ValueError``
    when a session refuses the presses made for an action."""
    entry = game_entry(name)
    variant = by_hand_variant(name)
    config = entry.config(variant)
    sessions, agents = entry.module("session"), entry.module("agents")
    advisor = agents.AGENTS["advisor"]
    rng = random.Random(seed)
    chunks: list[Chunk] = []
    count = 0
    with tempfile.TemporaryDirectory() as folder, Store(Path(folder) / "plan.sqlite3") as store:
        game_id = store.new_game(name, list(DEMO_PLAYERS), variant)
        session = _new_session(entry, store, game_id, list(DEMO_PLAYERS), variant)
        sim = entry.module("games").GAME(len(DEMO_PLAYERS), config).new_initial_state()
        while sim.current_player != TERMINAL:
            if sim.current_player == CHANCE:
                action = table_chance(session, sim, agents.chance, rng)
            else:
                action = advisor(sim, rng)
            sim = sim.apply(action)
            made = sessions.press_for(session, action)
            chunks.append(Chunk(action, [c.button.value for c in made], len(store.events(game_id))))
            count += len(made)
            if presses is not None and made and count - len(made) >= presses:
                break
        tail = _tail(session, store, game_id) if sim.current_player == TERMINAL else []
        log = [(e.kind, e.payload) for e in store.events(game_id)]
    return Plan(name, seed, list(DEMO_PLAYERS), variant, chunks, tail, log)


@dataclass
class Following:
    """What follows a cut: the events the resumed session holds, the first chunk still to play, the
    presses (button names) that play it and the rest (``actions`` chunks, or to the end with the tail),
    and why the resumed session refused them ("" when it took them). ``finished``: the stored game is
    over (nothing follows)."""

    events: int = 0
    index: int = 0
    through: int = 0
    """The events the log holds once ``presses`` are taken, as in the uninterrupted run."""
    presses: list[str] = field(default_factory=list)
    refused: str = ""
    finished: bool = False


def _stored_games(path: Path, game: str) -> list[tuple[int, bool]]:
    """(id, finished) of the games of ``game`` in the store at ``path``, read with plain SQLite."""
    if not path.exists():
        return []
    db = sqlite3.connect(path)
    try:
        return [(row[0], bool(row[1])) for row in
                db.execute("SELECT id, finished FROM games WHERE game = ? ORDER BY id", (game,))]
    except sqlite3.DatabaseError:
        return []  # not made yet (no table) or damaged: the child starts a new game
    finally:
        db.close()


def following(plan: Plan, state_dir: Path, actions: int | None = None) -> Following:
    """The presses that follow the store the kill left in ``state_dir`` (module docstring): ``actions``
    chunks with presses from the first one not stored (None: all, then the tail)."""
    from companion.app.play import resume_session  # the play loop's own rebuilding of a saved game

    entry = game_entry(plan.game)
    source = state_dir / STORE_FILE_NAME
    games = _stored_games(source, plan.game)
    unfinished = [gid for gid, done in games if not done]
    if games and not unfinished:
        return Following(events=len(plan.log), index=len(plan.chunks), through=len(plan.log), finished=True)
    scratch = Path(tempfile.mkdtemp(prefix="following-"))
    try:
        copy = scratch / STORE_FILE_NAME
        if unfinished:
            for suffix in ("", "-wal"):
                if Path(f"{source}{suffix}").exists():
                    shutil.copyfile(f"{source}{suffix}", f"{copy}{suffix}")
        with Store(copy) as store:
            game_id = unfinished[-1] if unfinished else store.new_game(plan.game, plan.players, plan.variant)
            session, _damage = resume_session(
                store, game_id, lambda: _new_session(entry, store, game_id, plan.players, plan.variant))
            events = len(store.events(game_id))
            index = plan.next_chunk(events)
            result = Following(events=events, index=index, through=events)
            made_actions = 0
            for i in range(index, len(plan.chunks)):
                if actions is not None and made_actions >= actions:
                    return result
                result.through = max(result.through, plan.chunks[i].events)
                try:
                    made = entry.module("session").press_for(session, plan.chunks[i].action)
                except ValueError as error:
                    result.refused = str(error)
                    last = None if actions is None else i + actions - made_actions
                    result.presses += plan.presses(i, last)
                    result.through = plan.chunks[-1 if last is None else min(last, len(plan.chunks)) - 1].events
                    return result
                result.presses += [c.button.value for c in made]
                made_actions += bool(made)
            if actions is None:
                result.presses += _tail(session, store, game_id)
            return result
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def write_script(path: Path, presses: list[str], quit: bool = False) -> Path:
    """Write ``presses`` (then ``quit`` when asked) as a script file; returns ``path``."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join([*presses, *(["quit"] if quit else [])]) + "\n", encoding="utf-8")
    return path


def stored_game(state_dir: Path, game: str) -> dict[str, Any]:
    """The store of ``state_dir`` read with plain SQLite: ``games`` (rows of ``game``), and of the first:
    ``log`` ((kind, payload) list), ``result`` (JSON or None); ``scoreboard`` (rows of ``game``)."""
    path = state_dir / STORE_FILE_NAME
    found: dict[str, Any] = {"games": 0, "log": [], "result": None, "scoreboard": []}
    if not path.exists():
        return found
    db = sqlite3.connect(path)
    try:
        rows = db.execute("SELECT id, result FROM games WHERE game = ? ORDER BY id", (game,)).fetchall()
        found["games"] = len(rows)
        if rows:
            found["result"] = json.loads(rows[0][1]) if rows[0][1] else None
            found["log"] = [(kind, json.loads(payload)) for kind, payload in db.execute(
                "SELECT kind, payload FROM events WHERE game_id = ? ORDER BY seq", (rows[0][0],))]
        found["scoreboard"] = [tuple(r) for r in db.execute(
            "SELECT name, games, wins FROM scores WHERE game = ? ORDER BY name", (game,))]
    except sqlite3.DatabaseError:
        pass
    finally:
        db.close()
    return found

"""The games of the box, one :class:`GameEntry` each: the one list every part of the app reads.

The command line's game choices, the menu, ``companion simulate``, the benchmarks, the readers' game
choices, the scoreboard's titles and the config file's sections all come from :data:`GAMES`, after
mopidy's extensions and OpenSpiel's game registry. An entry holds what is cheap to know (names, title,
player counts, what the camera reads); everything else is found by convention: each layer has one
module per game under the same name, ``companion.<layer>.<key>``, loaded only when it is used
(:meth:`GameEntry.module`), so that ``companion demo`` loads Can't Stop alone.

What each layer's module of a game provides (``tests/test_registry.py`` checks every entry):

==========  ===================================================================================
layer       names
==========  ===================================================================================
games       ``VARIANTS`` (its :class:`~companion.games.variants.VariantKey` table), ``CONFIG`` (the
            config class, ``CONFIG.from_variant(settings)``), ``GAME`` (the static rules, OpenSpiel's
            shape: ``GAME(num_players, config).new_initial_state()``)
hints       ``advise(state, seat, budget=None) -> Hint``, ``prepare(config)`` (its tables, at game start),
            ``NODES`` (the node budget of its whole search)
agents      ``AGENTS`` (name -> agent, ``advisor`` among them), ``BENCH_OPPONENTS``,
            ``simulate(agents, games, seed, variant, table=None) -> dict``
session     ``SESSION`` (the session class: ``SESSION(store, game_id, players, config, *,
            stable_frames, rng)``), ``replay_state(events, players, config)``
stats       ``summarise(events, players, config) -> GameSummary`` (after the game: its course and luck)
readers     ``make_reader(camera, session, settings) -> reader`` (camera frame -> the session's reading)
screens     ``build_view(session, wins) -> view``, ``final_line(session) -> str``, ``HOW_TO_PLAY`` (the How
            to play pages: (heading, text) pairs, marked for translation)
display     ``draw(surface, view)``
demos       ``BY_HAND_VARIANT``, ``CAMERA_DEMO`` (``"photos"``, ``"table"`` or ``""``), ``TABLE_VARIANT``,
            ``Table`` (the rendered table of a camera demo, or None)
bench       ``fuzz_engine() -> FuzzEngine``, ``crash_workload(folder, script_lines) -> Workload``
cli         ``add_commands(subparsers)``: the game's own subcommand (``companion <name> ...``)
==========  ===================================================================================

Adding a fifth game is one entry here plus those modules (docs/ARCHITECTURE.md has the checklist).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from companion.errors import UserError
from companion.i18n import _

__all__ = ["GameEntry", "GAMES", "LAYERS", "READS", "game", "names", "game_title", "menu_switches", "check_saved_game"]

LAYERS = ("games", "hints", "agents", "session", "stats", "readers", "screens", "display", "demos", "bench", "cli")
"""The layers with one module per game (see the module docstring)."""

READS = ("dice", "board", "cards")
"""What a camera can read in a game."""


MAX_NAME_LENGTH = 12
"""The longest player name, in characters: what every screen fits at 800x480 beside a score
(``tests/screens/test_fit.py`` renders names this long)."""


@dataclass(frozen=True)
class GameEntry:
    """One game.

    name: as the command line, the store and the scoreboard write it (``"cant-stop"``). key: the module
    name in every layer and the config file's section (``cant_stop``, ``[cant_stop]``). title: the
    game's name on the screen, translated when called. players: (fewest, most) players. reads: what the
    camera reads in this game, of :data:`READS`. rules: the rules file in ``../shared/rules/``.
    """

    name: str
    key: str
    title: Callable[[], str]
    players: tuple[int, int]
    reads: tuple[str, ...]
    rules: str

    def module(self, layer: str) -> ModuleType:
        """This game's module of ``layer`` (one of :data:`LAYERS`), imported on first use."""
        if layer not in LAYERS:
            raise ValueError(f"no layer {layer!r}; layers: {', '.join(LAYERS)}")
        return importlib.import_module(f"companion.{layer}.{self.key}")

    @property
    def variants(self) -> tuple[Any, ...]:
        """The game's variant keys (``VariantKey``), in the rules file's order."""
        return self.module("games").VARIANTS

    def config(self, variant: Mapping[str, object] | None = None) -> Any:
        """The game's rules config for ``KEY=VALUE`` settings; raises ``VariantError`` naming the key."""
        return self.module("games").CONFIG.from_variant(variant or {})

    def hint_budget(self) -> Any:
        """The box's budget for one hint of this game (``companion.hints.Budget``): the whole search (its
        hints module's ``NODES``), no clock: what a live game and History's replay both search with, so a
        position gets the same hint in both and on every machine (``companion.hints.base``)."""
        from companion.hints import Budget

        return Budget(nodes=self.module("hints").NODES)

    def check_players(self, count: int) -> None:
        """Raise :class:`UserError` unless ``count`` players can play this game."""
        low, high = self.players
        if not low <= count <= high:
            takes = str(low) if low == high else _("{low} to {high}").format(low=low, high=high)
            raise UserError(_("{game} takes {n} players, not {count}").format(game=self.title(), n=takes,
                                                                              count=count))

    def to_dict(self) -> dict:
        """The entry as ``companion games --json`` prints it (docs/CLI.md)."""
        return {"name": self.name, "title": self.title(), "players": {"min": self.players[0], "max": self.players[1]},
                "variants": {key.name: key.to_dict() for key in self.variants}, "reads": list(self.reads)}


GAMES: tuple[GameEntry, ...] = (
    GameEntry("cant-stop", "cant_stop", lambda: _("Can't Stop"), (1, 4), ("dice",), "cant-stop.md"),
    GameEntry("ludo", "ludo", lambda: _("Ludo"), (2, 4), ("dice", "board"), "ludo.md"),
    GameEntry("schotten-totten", "schotten_totten", lambda: _("Schotten Totten"), (2, 2), ("cards",),
              "schotten-totten.md"),
    GameEntry("donkey-race", "donkey_race", lambda: _("Donkey race"), (2, 4), ("cards",), "donkey-race.md"),
)
"""Every game of the box, in the menu's order."""


def names(reads: str | None = None) -> tuple[str, ...]:
    """The games' names, in order; with ``reads``, only those whose camera reads that."""
    return tuple(entry.name for entry in GAMES if reads is None or reads in entry.reads)


def game(name: str) -> GameEntry:
    """The entry called ``name``; :class:`UserError` listing the games for another name."""
    for entry in GAMES:
        if entry.name == name:
            return entry
    raise UserError(f"unknown game {name!r}; games: {', '.join(names())}")


def check_saved_game(name: str, players: tuple[str, ...] | list[str], variant: Mapping[str, object]) -> None:
    """Whether a saved game read from the store is one this box can play: ``name`` one of the games,
    ``players`` distinct names (non-empty printable text) as many as the game takes, ``variant`` its
    rules (the game's own checks). Raises ValueError saying what does not fit (the store then leaves the
    game out: ``companion.store.Store.skipped``)."""
    entry = next((e for e in GAMES if e.name == name), None)
    if entry is None:
        raise ValueError(f"game {name!r:.40} is not one of {', '.join(names())}")
    low, high = entry.players
    if not low <= len(players) <= high:
        raise ValueError(f"{len(players)} players for {name}, which takes {low} to {high}")
    if any(not n.strip() or not n.isprintable() for n in players) or len(set(players)) != len(players):
        raise ValueError("players are not distinct printable names")
    try:
        entry.config(variant)
    except (UserError, ValueError, TypeError) as error:
        raise ValueError(f"variant: {error}") from None


def game_title(name: str) -> str:
    """The title on the screen of the game called ``name`` (the name itself for a game the box does not
    know, e.g. one of a newer store)."""
    return next((entry.title() for entry in GAMES if entry.name == name), name)


def menu_switches(name: str) -> tuple[Any, ...]:
    """The variant keys of the game called ``name`` that the menu offers (a key with ``menu`` values)."""
    return tuple(key for key in game(name).variants if key.menu)

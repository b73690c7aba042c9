"""The appliance's menus as a pure state machine driven by the five buttons (no pygame, no pins).

Buttons (ARCHITECTURE.md, Hardware; hardware/buttons.py): NEXT moves the highlight to the next item
and PASS to the one before (wrapping, passing over greyed items: letters are spelled both ways), CONFIRM
picks the highlighted item, UNDO and MENU (a long press of NEXT) go back one screen. BANK means nothing
here. The keyboard's ``choose N`` picks item N directly, and QUIT
is the runner's business. So every screen is reachable with NEXT, CONFIRM and UNDO alone.

Screens, from the main menu::

    main ── new game ── game ── players (count; skipped when the game takes one) ── name of seat 1..n
        │                                         (a listed name, or spelled letter by letter) ── variants ── start
        ├── saved games ── one game ── resume / delete (asks again) / back
        ├── scoreboard
        ├── history ── one finished game ── replay / summary / back
        ├── the dice (a bar chart of the faces the camera read, and the fairness verdict)
        ├── how to play ── game ── its rules, page by page
        ├── language ── each language named in itself
        └── shut down (asks again)

:meth:`MenuModel.handle` returns an :class:`Action` when the menu is done with its part: start a new
game or resume a saved one (:class:`StartGame`), replay a finished one or show its summary
(:class:`LookBack`), show a game's rules (:class:`ShowRules`), or power off (:class:`Shutdown`). The
language screen switches the language through :meth:`MenuData.choose_language`. What the menu
reads and changes in the store goes through a :class:`MenuData` (tests pass a fake).
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from companion.app.prints import printable
from companion.commands import Button, Command
from companion.errors import UserError
from companion.i18n import LANGUAGES, N_, Nn_, Np_, _, alphabet, current_language, listing, moment, ngettext
from companion.names import seat_name
from companion.registry import GAMES, MAX_NAME_LENGTH, game_title, menu_switches
from companion.screens.common import key_legend
from companion.screens.menu import BarsView, MenuItem, MenuView


class Screen(enum.Enum):
    """Which menu is shown."""

    MAIN = "main"
    GAME = "game"
    PLAYER_COUNT = "player_count"
    PLAYER_NAME = "player_name"
    SPELL = "spell"
    VARIANTS = "variants"
    SAVED = "saved"
    SAVED_GAME = "saved_game"
    DELETE_CONFIRM = "delete_confirm"
    SCOREBOARD = "scoreboard"
    HISTORY = "history"
    HISTORY_GAME = "history_game"
    DICE = "dice"
    RULES = "rules"
    LANGUAGE = "language"
    SHUTDOWN_CONFIRM = "shutdown_confirm"


@dataclass(frozen=True)
class SavedGame:
    """An unfinished game in the store: its id, game name, players in seat order, start time (ISO), the
    turns played so far (``unit`` names them: ``"turn"``, or ``"round"`` in the donkey race; None when its
    log does not replay), and its stored variant settings (the menu names its board and every switch
    that differs from the rules' default, :func:`variant_text`)."""

    id: int
    game: str
    players: tuple[str, ...]
    created: str
    turns: int | None = 0
    variant: Mapping[str, Any] = field(default_factory=dict, hash=False)
    unit: str = "turn"


@dataclass(frozen=True)
class FinishedGame:
    """A finished game in the store: id, game name, players in seat order, start time (ISO), winner's name
    (None for a draw or a shared win)."""

    id: int
    game: str
    players: tuple[str, ...]
    created: str
    winner: str | None


class MenuData(Protocol):
    """What the menu reads from and changes in the store."""

    def saved_games(self) -> list[SavedGame]:
        """Unfinished games, oldest first."""

    def known_names(self) -> list[str]:
        """Names on the scoreboard, most wins first (offered as player names)."""

    def scoreboard_lines(self) -> list[str]:
        """The scoreboard as display lines (already translated)."""

    def delete_game(self, game_id: int) -> None:
        """Delete an unfinished game and its event log."""

    def finished_games(self) -> list[FinishedGame]:
        """Finished games, newest first."""

    def choose_language(self, code: str) -> str:
        """Speak ``code`` (one of ``companion.i18n.LANGUAGES``) from now on and keep the choice; returns a
        message for the screen ("" when all went well)."""

    def dice(self) -> Mapping[str, Any]:
        """The dice the camera read over every saved game: ``{"faces": [n1..n6], "verdict": str, ...}``
        (``companion.stats.store_figures``'s ``dice``)."""

    def unreadable(self) -> int:
        """Saved games left out of the lists because their row cannot be read (0: none; the log names
        each, ``companion.store.Store.skipped``)."""

    def save_prints(self, game: str, variant: Mapping[str, Any]) -> str:
        """Write the printable board of ``game`` with ``variant`` (``companion.app.prints``); returns the
        message for the screen: where the files went, or what went wrong."""


@dataclass(frozen=True)
class StartGame:
    """Play ``game``: a new one with ``players`` and ``variant`` (``game_id`` None), or resume the saved
    game ``game_id`` (players and variant are then the saved ones)."""

    game: str
    players: tuple[str, ...]
    variant: Mapping[str, Any]
    game_id: int | None = None


@dataclass(frozen=True)
class Shutdown:
    """Power the Pi off (the players confirmed twice)."""


@dataclass(frozen=True)
class LookBack:
    """Look at the finished game ``game_id`` again: step through it on its board, its summary at the end
    (``replay``), or only its after-game summary."""

    game_id: int
    replay: bool


@dataclass(frozen=True)
class ShowRules:
    """Show how to play ``game`` (a registry name)."""

    game: str


Action = StartGame | Shutdown | LookBack | ShowRules


@dataclass
class _Draft:
    """The new game being set up."""

    game: str = "cant-stop"
    count: int = 2
    names: list[str] = field(default_factory=list)
    variant: dict[str, Any] = field(default_factory=dict)
    spelled: str = ""


class MenuModel:
    """The menus' state. ``data``: the store behind the menu. ``available``: game name -> whether it
    can be played now (games missing from it are listed as not available). ``variants``: game ->
    the config's variant settings, the starting values of the switches. ``names``: the config's
    ``[players] names``, offered first for every seat (then the scoreboard's names, then "Spell a name").

    :meth:`handle` takes one :class:`Command` and returns an :class:`Action` or None; :meth:`view`
    says what to draw. The model never raises for a button press.
    """

    def __init__(self, data: MenuData, available: Mapping[str, bool],
                 variants: Mapping[str, Mapping[str, Any]] | None = None, names: tuple[str, ...] = ()):
        self.data = data
        self.names = tuple(names)
        self.available = dict(available)
        self.variants = {game: dict(v) for game, v in (variants or {}).items()}
        self.screen = Screen.MAIN
        self.selected = 0
        self.message = ""
        self._stack: list[tuple[Screen, int]] = []
        self._draft = _Draft()
        self._saved: list[SavedGame] = []
        self._saved_choice: SavedGame | None = None
        self._finished: list[FinishedGame] = []
        self._finished_choice: FinishedGame | None = None
        self._dice: dict[str, Any] = {"faces": [0] * 6, "verdict": ""}

    # --- navigation -------------------------------------------------------------------------------

    def _go(self, screen: Screen, selected: int = 0) -> None:
        self._stack.append((self.screen, self.selected))
        self.screen, self.selected = screen, selected

    def _back(self) -> None:
        if self.screen is Screen.SPELL and self._draft.spelled:
            self._draft.spelled = self._draft.spelled[:-1]  # UNDO rubs out the last letter
            return
        if self.screen is Screen.PLAYER_NAME and self._draft.names:
            self._draft.names.pop()  # back to the previous seat's name
            self.selected = 0
            return
        if self._stack:
            self.screen, self.selected = self._stack.pop()

    def _home(self) -> None:
        self._stack.clear()
        self.screen, self.selected = Screen.MAIN, 0

    def handle(self, command: Command) -> Action | None:
        """Apply one button press (see the module docstring); return what to do now, if anything."""
        self.message = ""
        items = self._items()
        if command.button in (Button.NEXT, Button.PASS):  # the next (PASS: previous) item that can be picked
            step = 1 if command.button is Button.NEXT else -1  # ("Saved games (0)" is skipped)
            count = max(1, len(items))
            self.selected = next(((self.selected + step * k) % count for k in range(1, count + 1)
                                  if not items or items[(self.selected + step * k) % count].enabled),
                                 (self.selected + step) % count)
        elif command.button in (Button.UNDO, Button.MENU):
            self._back()
        elif command.button is Button.CHOOSE and command.args and 1 <= command.args[0] <= len(items):
            self.selected = command.args[0] - 1  # item N, counted from 1 as scripts and the digit keys count
            return self._pick(items)
        elif command.button is Button.CONFIRM and items:
            return self._pick(items)
        return None

    # --- the screens ------------------------------------------------------------------------------

    def _games(self) -> list[str]:
        return [entry.name for entry in GAMES]

    def _name_choices(self) -> list[str]:
        """Seat N's names: "Player N", the config's names, the scoreboard's, never one already taken (so
        seats keep their order: seat 2 is never offered "Player 1")."""
        seat = len(self._draft.names)
        taken = set(self._draft.names)
        unique: list[str] = []
        for name in [seat_name(seat), *self.names, *self.data.known_names()]:
            if name not in taken and name not in unique:
                unique.append(name)
        return unique

    def _letters(self) -> list[str]:
        return list(alphabet(current_language()))

    def _counts(self) -> list[int]:
        low, high = next(entry.players for entry in GAMES if entry.name == self._draft.game)
        return list(range(low, high + 1))

    def _items(self) -> list[MenuItem]:
        screen = self.screen
        if screen is Screen.MAIN:
            saved = len(self.data.saved_games())
            finished = len(self.data.finished_games())
            return [MenuItem(_("New game")), MenuItem(_("Saved games ({n})").format(n=saved), saved > 0),
                    MenuItem(_("Scoreboard")), MenuItem(_("History ({n})").format(n=finished), finished > 0),
                    MenuItem(_("The dice")), MenuItem(_("How to play")),
                    MenuItem(_("Language: {name}").format(name=LANGUAGES[current_language()])), MenuItem(_("Shut down"))]
        if screen is Screen.RULES:
            return [MenuItem(game_title(g)) for g in self._games()]
        if screen is Screen.LANGUAGE:
            return [MenuItem(name + ("  ✓" if code == current_language() else "")) for code, name in LANGUAGES.items()]
        if screen is Screen.GAME:
            return [MenuItem(game_title(g) if self.available.get(g) else
                             _("{game} (not available yet)").format(game=game_title(g)), bool(self.available.get(g)))
                    for g in self._games()]
        if screen is Screen.PLAYER_COUNT:
            return [MenuItem(_("{n} players").format(n=n) if n > 1 else _("1 player (solo)")) for n in self._counts()]
        if screen is Screen.PLAYER_NAME:
            return [MenuItem(name) for name in self._name_choices()] + [MenuItem(_("Spell a name"))]
        if screen is Screen.SPELL:
            spelled = self._draft.spelled.strip()
            done = [MenuItem(_("Done: {name}").format(name=spelled), bool(spelled) and spelled not in self._draft.names)]
            room = len(self._draft.spelled) < MAX_NAME_LENGTH
            capital = not self._draft.spelled or self._draft.spelled.endswith(" ")  # "Ada Lovelace"
            letters = [MenuItem(c if capital else c.lower(), room) for c in self._letters()]
            return done + letters + [MenuItem(_("space"), room and not capital)]
        if screen is Screen.VARIANTS:
            items = [MenuItem(_("Start the game"))]
            items += [MenuItem(f"{_(key.label)}: {_show(key, self._draft.variant.get(key.name, key.menu[0]))}")
                      for key in menu_switches(self._draft.game)]
            if printable(self._draft.game, self._draft.variant):
                items.append(MenuItem(_("Save the board to print")))
            return items
        if screen is Screen.SAVED:
            return [MenuItem(_saved_line(g)) for g in self._saved]
        if screen is Screen.SAVED_GAME:
            return [MenuItem(_("Resume")), MenuItem(_("Delete")), MenuItem(_("Back"))]
        if screen is Screen.DELETE_CONFIRM:
            return [MenuItem(_("No, keep it")), MenuItem(_("Yes, delete it"))]
        if screen in (Screen.SCOREBOARD, Screen.DICE):
            return [MenuItem(_("Back"))]
        if screen is Screen.HISTORY:
            return [MenuItem(_history_line(g)) for g in self._finished]
        if screen is Screen.HISTORY_GAME:
            return [MenuItem(_("Replay")), MenuItem(_("Summary")), MenuItem(_("Back"))]
        return [MenuItem(_("No, go back")), MenuItem(_("Yes, shut down"))]  # SHUTDOWN_CONFIRM

    def _pick(self, items: list[MenuItem]) -> Action | None:
        index = self.selected % len(items)
        if not items[index].enabled:
            self.message = _("Not available")
            return None
        screen = self.screen
        if screen is Screen.MAIN:
            if index == 0:
                self._draft = _Draft()
                playable = [g for g in self._games() if self.available.get(g)]
                self._go(Screen.GAME, self._games().index(playable[0]) if playable else 0)
            elif index == 1:
                self._saved = self.data.saved_games()
                self._go(Screen.SAVED)
            elif index == 2:
                self._go(Screen.SCOREBOARD)
            elif index == 3:
                self._finished = self.data.finished_games()
                self._go(Screen.HISTORY)
            elif index == 4:
                self._dice = dict(self.data.dice())
                self._go(Screen.DICE)
            elif index == 5:
                self._go(Screen.RULES)
            elif index == 6:
                self._go(Screen.LANGUAGE, list(LANGUAGES).index(current_language()))
            else:
                self._go(Screen.SHUTDOWN_CONFIRM)
        elif screen is Screen.GAME:
            game = self._games()[index]
            self._draft = _Draft(game=game, variant=dict(self.variants.get(game, {})))
            counts = self._counts()
            if len(counts) == 1:  # no question to ask (Schotten Totten: always two)
                self._draft.count = counts[0]
                self._go(Screen.PLAYER_NAME)
            else:
                self._go(Screen.PLAYER_COUNT, counts.index(2) if 2 in counts else 0)
        elif screen is Screen.PLAYER_COUNT:
            self._draft.count = self._counts()[index]
            self._draft.names = []
            self._go(Screen.PLAYER_NAME)
        elif screen is Screen.PLAYER_NAME:
            if index == len(items) - 1:
                self._draft.spelled = ""
                self._go(Screen.SPELL, 1)
            else:
                self._name_chosen(items[index].label)
        elif screen is Screen.SPELL:
            if index == 0:
                self._stack.pop()  # back on the names screen's place in the stack
                self.screen = Screen.PLAYER_NAME
                self._name_chosen(self._draft.spelled.strip())
            else:
                self._draft.spelled += " " if index == len(items) - 1 else items[index].label
        elif screen is Screen.VARIANTS:
            if index == 0:
                draft = self._draft
                action = StartGame(draft.game, tuple(draft.names), dict(draft.variant))
                self._home()
                return action
            if index > len(menu_switches(self._draft.game)):  # "Save the board to print", after the switches
                self.message = self.data.save_prints(self._draft.game, dict(self._draft.variant))
                return None
            key = menu_switches(self._draft.game)[index - 1]
            current = self._draft.variant.get(key.name, key.menu[0])
            position = key.menu.index(current) if current in key.menu else -1
            self._draft.variant[key.name] = key.menu[(position + 1) % len(key.menu)]
        elif screen is Screen.SAVED:
            self._saved_choice = self._saved[index]
            self._go(Screen.SAVED_GAME)
        elif screen is Screen.SAVED_GAME:
            return self._pick_saved(index)
        elif screen is Screen.DELETE_CONFIRM:
            if index == 1 and self._saved_choice is not None:
                self.data.delete_game(self._saved_choice.id)
                self._saved = self.data.saved_games()
                self._home()
                self.message = _("Saved game deleted")
                if self._saved:
                    self._go(Screen.SAVED)
            else:
                self._back()
        elif screen in (Screen.SCOREBOARD, Screen.DICE):
            self._back()
        elif screen is Screen.RULES:
            return ShowRules(self._games()[index])
        elif screen is Screen.LANGUAGE:
            self._back()
            self.message = self.data.choose_language(list(LANGUAGES)[index])
        elif screen is Screen.HISTORY:
            self._finished_choice = self._finished[index]
            self._go(Screen.HISTORY_GAME)
        elif screen is Screen.HISTORY_GAME:
            chosen = self._finished_choice
            if index == 2 or chosen is None:
                self._back()
            else:  # a replay needs no camera: every game's can be watched
                return LookBack(chosen.id, replay=index == 0)
        elif screen is Screen.SHUTDOWN_CONFIRM:
            if index == 1:
                return Shutdown()
            self._back()
        return None

    def _name_chosen(self, name: str) -> None:
        self._draft.names.append(name)
        self.selected = 0
        if len(self._draft.names) == self._draft.count:
            self._go(Screen.VARIANTS)

    def _pick_saved(self, index: int) -> Action | None:
        chosen = self._saved_choice
        if chosen is None:
            return None
        if index == 0:
            if not self.available.get(chosen.game):
                self.message = _("Not available")
                return None
            self._home()
            return StartGame(chosen.game, chosen.players, {}, game_id=chosen.id)
        if index == 1:
            self._go(Screen.DELETE_CONFIRM)
        else:
            self._back()
        return None

    # --- drawing ----------------------------------------------------------------------------------

    def _unreadable_lines(self) -> tuple[str, ...]:
        return _unreadable_text(self.data.unreadable())

    def view(self) -> MenuView:
        """What to draw now."""
        items = self._items()
        selected = self.selected % len(items) if items else 0
        screen, draft = self.screen, self._draft
        lines: tuple[str, ...] = ()
        chart = None
        if screen is Screen.MAIN:
            title = _("Tabletop companion")
        elif screen is Screen.GAME:
            title = _("Choose a game")
        elif screen is Screen.PLAYER_COUNT:
            title = _("{game}: how many players?").format(game=game_title(draft.game))
        elif screen is Screen.PLAYER_NAME:
            title = _("Name of player {n}").format(n=len(draft.names) + 1)
            lines = tuple(f"{seat + 1}. {name}" for seat, name in enumerate(draft.names))
        elif screen is Screen.SPELL:
            title = _("Name of player {n}").format(n=len(draft.names) + 1) + ": " + draft.spelled + "_"
            lines = (_("CONFIRM adds the letter, UNDO rubs one out"),)
        elif screen is Screen.VARIANTS:
            title = _("{game}: rules").format(game=game_title(draft.game))
            lines = (", ".join(draft.names),)
        elif screen is Screen.SAVED:
            title = _("Saved games")
            lines = self._unreadable_lines()
        elif screen in (Screen.SAVED_GAME, Screen.DELETE_CONFIRM):
            chosen = self._saved_choice
            title = _("Delete this game?") if screen is Screen.DELETE_CONFIRM else _("Saved game")
            if chosen is not None:
                lines = (_titled(chosen.game, chosen.variant), ", ".join(chosen.players),
                         _turns_text(chosen) + f" ({moment(chosen.created)})")
        elif screen is Screen.SCOREBOARD:
            title = _("Scoreboard")
            lines = tuple(self.data.scoreboard_lines()) or (_("No finished games yet"),)
        elif screen is Screen.HISTORY:
            title = _("History: finished games")
            lines = self._unreadable_lines()
        elif screen is Screen.HISTORY_GAME:
            title = _("Finished game")
            chosen = self._finished_choice
            if chosen is not None:
                lines = (_history_line(chosen), ", ".join(chosen.players))
        elif screen is Screen.RULES:
            title = _("How to play")
        elif screen is Screen.LANGUAGE:
            title = _("Language")
        elif screen is Screen.DICE:
            title = _("The dice")
            dice = self._dice
            lines = (str(dice["verdict"]),)
            chart = BarsView(tuple(int(n) for n in dice["faces"]), tuple(str(f) for f in range(1, 7)),
                             _("dice read by the camera"), sum(dice["faces"]) / 6 if sum(dice["faces"]) else None)
        else:
            title = _("Shut down the box?")
            lines = (_("Wait until the green light stops blinking before you unplug it."),)
        # the menu's own words: its NEXT moves the highlight (no move of a game), its UNDO goes up a menu
        keys = key_legend(((Button.NEXT, Np_("menu key", "move")), (Button.PASS, Np_("menu key", "previous")),
                           (Button.CONFIRM, N_("choose")), (Button.UNDO, Np_("menu key", "back"))))
        return MenuView(title, tuple(items), selected, lines, self.message, keys, chart)


def _unreadable_text(count: int) -> tuple[str, ...]:
    """The line that names the saved games left out (none when ``count`` is 0), translated."""
    if not count:
        return ()
    return (ngettext("{n} saved game could not be read and is left out",
                     "{n} saved games could not be read and are left out", count).format(n=count),)


def _short_players(players: tuple[str, ...]) -> str:
    """"Ada, Ben" or, past two players, "Ada, Ben +2" (a saved game's line keeps room for its progress)."""
    shown = ", ".join(players[:2])
    return shown if len(players) <= 2 else f"{shown} +{len(players) - 2}"


def _history_line(game: FinishedGame) -> str:
    """``Can't Stop, 12/1/26, 9:40 PM: Ada won against Ben and Cy``: the game, its date, its players and
    its winner (``no single winner`` for a draw or a shared win; a solo game names its player alone)."""
    when, title = moment(game.created), game_title(game.game)
    others = [name for name in game.players if name != game.winner]
    if game.winner and others:
        return _("{game}, {when}: {winner} won against {others}").format(game=title, when=when, winner=game.winner,
                                                                         others=listing(others))
    if game.winner:
        return _("{game}, {when}: {winner} won").format(game=title, when=when, winner=game.winner)
    return _("{game}, {when}: {players}, no single winner").format(game=title, when=when,
                                                                   players=listing(game.players))


TURN_WORDS = {"turn": Nn_("{n} turn", "{n} turns"), "round": Nn_("{n} round", "{n} rounds")}
"""How a saved game's progress is counted, by its unit of play (:attr:`SavedGame.unit`)."""


def _turns_text(game: SavedGame) -> str:
    """``12 turns`` (``3 rounds`` in the donkey race); "" when the log did not replay."""
    if game.turns is None:
        return ""
    return ngettext(*TURN_WORDS.get(game.unit, TURN_WORDS["turn"]), game.turns).format(n=game.turns)


def variant_text(game: str, variant: Mapping[str, Any]) -> str:
    """The stored ``variant`` of a ``game`` (a registry name) in the menu's words: its board, always
    (``Ludo, 52 squares``: the players set the table by it, and two games on different boards must be
    told apart), and each other menu switch whose value differs from the rules' default (``Safe squares:
    start squares``); "" when there is nothing to name (a game the box does not know names nothing)."""
    try:
        keys = menu_switches(game)
    except UserError:
        return ""
    parts = []
    for key in keys:
        value = variant.get(key.name, key.default)
        if key.name == "board":
            parts.append(_show(key, value))
        elif value != key.default and not (key.default is None and value == key.menu[0]):
            parts.append(f"{_(key.label)}: {_show(key, value)}")
    return ", ".join(parts)


def _titled(game: str, variant: Mapping[str, Any]) -> str:
    """The game's title with :func:`variant_text` when there is one: ``Ludo (Mensch ärgere Dich nicht, 40
    squares)``."""
    named = variant_text(game, variant)
    return _("{game} ({variant})").format(game=game_title(game), variant=named) if named else game_title(game)


def _saved_line(game: SavedGame) -> str:
    """``Ludo (Ludo, 56 squares): Ada, Ben, 12 turns (12/1/26, 9:40 PM)``."""
    progress = _turns_text(game)
    players = _short_players(game.players) + (", " + progress if progress else "")
    return _("{game}: {players} ({when})").format(game=_titled(game.game, game.variant), players=players,
                                                    when=moment(game.created))


def _show(key, value: Any) -> str:
    """A switch's value as shown on the screen: its menu label (translated), on/off, or the value."""
    label = key.menu_label(value)
    if label is not None:
        return _(label)
    if isinstance(value, bool):
        return _("on") if value else _("off")
    return str(value).replace("_", " ")


def pick_sequence(model: MenuModel, label: str) -> list[Command]:
    """The NEXT presses and the CONFIRM that pick the item labelled ``label`` on the current screen
    (for scripts and tests). Raises ValueError when no item has that label."""
    items = model._items()
    labels = [item.label for item in items]
    if label not in labels:
        raise ValueError(f"no item {label!r} on {model.screen.value}; items: {labels}")
    target = labels.index(label)
    if target == model.selected % len(items):
        return [Command(Button.CONFIRM)]
    if not items[target].enabled:  # NEXT never lands on it: as a digit key picks it
        return [Command(Button.CHOOSE, (target + 1,))]
    steps = sum(1 for k in range(1, (target - model.selected) % len(items) + 1)
                if items[(model.selected + k) % len(items)].enabled)
    return [Command(Button.NEXT)] * steps + [Command(Button.CONFIRM)]

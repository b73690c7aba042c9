"""The bundled demos: a whole two-player Can't Stop game on real photos of four dice, a whole game of
Ludo and of each card game on rendered frames of the table (:mod:`companion.app.table_demo`), and a
whole game of every game entered with the buttons alone (``--camera none``: :mod:`companion.app.by_hand`).

The photos are the BSD-licensed ``byler_d6`` pictures in ``assets/dice_photos/`` (see the LICENSE
there). ``assets/demo/cant_stop_playlist.txt`` orders them as the rolls of the game (a photo stands for
``frames_per_photo`` camera frames), and ``assets/demo/cant_stop.script`` holds the players' button
presses, including the corrections of the dice the reader gets wrong.

Both files are made by ``python -m companion.app.demo --write``: it plays the game through the real
session and reader, takes the advisor's hint at every choice, and, where a reading differs from the
photo's label, corrects it with the buttons as players would (NEXT to select a die, BANK to step its
value, PASS to remove it). Run it again whenever the reader changes, and commit both files.
"""

from __future__ import annotations

import argparse
import copy
import csv
import logging
import random
import sys
import tempfile
from dataclasses import replace
from importlib import resources
from pathlib import Path

from companion.app.by_hand import DEMO_PLAYERS, DEMO_SEED, by_hand_variant, script_path
from companion.app.devices import NO_CAMERA, display_available
from companion.app.play import play
from companion.app.table_demo import NoStore, RenderedTable
from companion.commands import Button, Command
from companion.config import Config
from companion.errors import UserError
from companion.games.cant_stop import Bank, Roll
from companion.i18n import _, ngettext, speaking
from companion.paths import AppPaths
from companion.registry import game
from companion.session import Waiting
from companion.session.cant_stop import CantStopSession, Mode, press_for
from companion.store import Store
from vision.camera import PhotoListSource
from vision.dice import read_dice

log = logging.getLogger(__name__)


PLAYLIST = "cant_stop_playlist.txt"
SCRIPT = "cant_stop.script"
PLAYLIST_LENGTH = 400  # rolls; a two-player game with the advisor takes about 60-120


def _demo_dir() -> Path:
    return Path(str(resources.files("assets") / "demo"))


def photos_dir() -> Path:
    """The bundled real dice photos (assets/dice_photos)."""
    return Path(str(resources.files("assets") / "dice_photos"))


def demo_script_path() -> Path:
    return _demo_dir() / SCRIPT


def demo_playlist() -> list[Path]:
    """The photo of each roll, in order."""
    names = [line.strip() for line in (_demo_dir() / PLAYLIST).read_text(encoding="utf-8").splitlines()
             if line.strip() and not line.startswith("#")]
    return [photos_dir() / name for name in names]


def demo_camera(frames_per_photo: int = 4) -> PhotoListSource:
    """A frame source over the demo's playlist (each photo held for ``frames_per_photo`` frames)."""
    return PhotoListSource(demo_playlist(), frames_per_photo=frames_per_photo, name="demo photos")


def run_demo(state_dir: Path, *, headless: bool, screenshots: Path | None, store_file: Path | None = None,
             game_name: str = "cant-stop", by_hand: bool = False, console_language: str | None = None) -> int:
    """``companion demo``: a bundled two-player game of ``game_name`` with a fresh store in ``state_dir``
    (or the store ``store_file``, made if missing, which then keeps the game): on the real dice photos
    (Can't Stop), on frames of the table rendered as the players play (Ludo and the card games,
    :mod:`companion.app.table_demo`; then also prints how the readings were taken), or with every entry
    made with the buttons (``by_hand``: no camera, the presses of ``assets/demo/GAME-by-hand.script``);
    which camera demo a game has, and each demo's variant, its ``companion.demos`` module says (a game
    with none is refused with :class:`UserError`, naming ``--camera none``).
    Prints "Demo over: NAME wins after N frames." (by hand: "... N button presses.") in ``console_language``
    (a code; None: the screens' language, the one in use) and returns the exit status (0 once someone
    won, or when SIGTERM stopped it: :mod:`companion.stop`)."""
    paths = AppPaths.from_dirs(state_dir, state_dir)
    if store_file is not None:
        paths = replace(paths, store_file=Path(store_file).expanduser().absolute())
    entry = game(game_name)
    demos = entry.module("demos")
    if not headless and not display_available():
        log.info("no display found: running headless")
        headless = True
    if by_hand:
        script = script_path(entry.name)
        result = play(entry, paths=paths, config=Config(), camera=NO_CAMERA, input_spec=f"script:{script}",
                      players=list(DEMO_PLAYERS), variant=by_hand_variant(entry.name), headless=headless,
                      screenshots=screenshots, seed=DEMO_SEED, new=True)
        if result.stopped:
            return 0  # SIGTERM (companion.stop): no "Demo over", the game kept in --store
        presses = sum(1 for line in script.read_text(encoding="utf-8").splitlines()
                      if line.strip() and not line.startswith("#"))
        with speaking(console_language):
            print(ngettext("Demo over: {name} wins after {n} button press.", "Demo over: {name} wins after {n} button "
                           "presses.", presses).format(name=result.winner, n=presses))
    elif demos.CAMERA_DEMO == "table":
        variant = dict(demos.TABLE_VARIANT)
        with RenderedTable(entry, entry.config(variant), len(DEMO_PLAYERS), DEMO_SEED) as table:
            result = play(entry, paths=paths, config=Config(), camera=table, input_spec="", inputs=table,
                          players=list(DEMO_PLAYERS), variant=variant, headless=headless, screenshots=screenshots,
                          seed=DEMO_SEED, new=True)
        if result.stopped:
            return 0
        with speaking(console_language):
            print(_("Demo over: {name} wins after {ticks} frames.").format(name=result.winner, ticks=result.ticks))
            counts = table.counts
            print(_("Readings: {read} taken from the camera with no press, {confirmed} read by the camera and "
                    "confirmed with CONFIRM, {by_hand} entered with the buttons, {corrected} undone and entered with "
                    "the buttons").format(
                        read=counts["read"], confirmed=counts["confirmed"], by_hand=counts["by_hand"],
                        corrected=counts["corrected"]))
    elif demos.CAMERA_DEMO == "photos":
        with demo_camera() as camera:
            result = play(entry, paths=paths, config=Config(), camera=camera,
                          input_spec=f"script:{demo_script_path()}", players=list(DEMO_PLAYERS),
                          headless=headless, screenshots=screenshots, seed=DEMO_SEED, new=True)
        if result.stopped:
            return 0
        with speaking(console_language):
            print(_("Demo over: {name} wins after {ticks} frames.").format(name=result.winner, ticks=result.ticks))
    else:
        raise UserError(f"--game {entry.name}: this game has no camera demo; play it with the buttons alone: "
                        f"companion demo --game {entry.name} --camera none")
    if screenshots:
        with speaking(console_language):
            print(_("{n} screenshots in {dir}").format(n=result.screenshots, dir=screenshots))
    return 0 if result.winner else 1


def photo_labels() -> dict[str, tuple[int, ...]]:
    """{photo file name: sorted true dice values} from assets/dice_photos/labels.csv."""
    with (photos_dir() / "labels.csv").open(encoding="utf-8", newline="") as handle:
        return {Path(row["file"]).name: tuple(sorted(int(v) for v in row["dice_values"].split()))
                for row in csv.DictReader(handle)}


def make_playlist(names: list[str], length: int, seed: int) -> list[str]:
    """``length`` photo names: shuffled rounds of all ``names``, never the same photo twice in a row."""
    rng = random.Random(seed)
    playlist: list[str] = []
    while len(playlist) < length:
        batch = names[:]
        rng.shuffle(batch)
        if playlist and batch[0] == playlist[-1]:
            batch.append(batch.pop(0))
        playlist.extend(batch)
    return playlist[:length]


def correction_presses(session, truth: tuple[int, ...]) -> list[Command]:
    """Button presses that turn the session's reading into the four dice ``truth`` (then CONFIRM): the
    presses of an entry by hand (:func:`companion.session.cant_stop.press_for`: NEXT to a wrong die, BANK
    +1 or PASS -1 to its value). A reading of too few or too many dice is already four dice in the check.

    Presses are applied to ``session`` as they are chosen, so each one is exactly what players would do
    with the reading on the screen. Raises ``ValueError`` when the session refuses them.
    """
    return press_for(session, Roll(tuple(truth)))  # type: ignore[arg-type]


def _plan(session, truth: tuple[int, ...], lines: list[str], photo: str) -> list[Command]:
    """The players' next presses for the session's mode; corrections are worked out on a copy."""
    mode = session.mode
    if mode is Mode.WATCH:  # a stable reading with a die too few or too many: take it to correct it
        return [Command(Button.NEXT)]
    if mode is Mode.CHECK:
        trial = copy.copy(session)
        trial.check = copy.deepcopy(session.check)
        trial.scene, trial.stabilizer = copy.deepcopy(session.scene), copy.deepcopy(session.stabilizer)
        trial.store = NoStore()
        presses = correction_presses(trial, truth)
        if len(presses) > 1:
            read = " ".join(map(str, session.check.values))
            lines.append(f"# {photo}: the reader saw {read or 'nothing'}; the players correct it to "
                         f"{' '.join(map(str, truth))}")
        return presses
    if mode is Mode.DECIDE:
        return [Command(Button.BANK if isinstance(session.hint().action, Bank) else Button.CONFIRM)]
    return [Command(Button.CONFIRM)]  # START: the drawn player; CHOOSE: the hint; OVER: finish


def write_demo(seed: int = 1) -> tuple[int, str]:
    """Play the demo game through the real session and write the playlist and the script.

    Returns (number of script lines, winner). The session's own first-player draw uses the demo seed.
    """
    labels = photo_labels()
    names = make_playlist(sorted(labels), PLAYLIST_LENGTH, seed)
    config = Config()
    lines: list[str] = [f"# The demo game: {' vs '.join(DEMO_PLAYERS)}; made by python -m companion.app.demo --write"]
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(Path(tmp) / "demo.sqlite3")
        game_id = store.new_game("cant-stop", DEMO_PLAYERS, {})
        session = CantStopSession(store, game_id, DEMO_PLAYERS, stable_frames=config.session.stable_frames,
                                  rng=random.Random(DEMO_SEED))
        camera = PhotoListSource([photos_dir() / n for n in names], frames_per_photo=config.session.frames_per_photo)
        planned: list[Command] = []
        while not session.finished:  # tick by tick, exactly as companion.app.loop.run_loop
            if session.wants_frame:
                frame = camera.read()
                if frame is None:
                    raise RuntimeError("the playlist ran out before the game ended")
                session.on_frame(frame, read_dice(frame))
            if session.waiting is not Waiting.PLAYERS:
                continue
            if not planned:
                photo = camera.current_path.name if camera.current_path else ""
                planned = _plan(session, labels.get(photo, ()), lines, photo)
            command = planned.pop(0)
            session.on_command(command)
            lines.append(str(command))
        winner = DEMO_PLAYERS[session.state.winner]
        store.close()
    lines += SUMMARY_PRESSES
    used = camera.photos_used
    demo_dir = Path(__file__).resolve().parents[2] / "assets" / "demo"
    demo_dir.mkdir(parents=True, exist_ok=True)
    (demo_dir / PLAYLIST).write_text("\n".join(names[:used]) + "\n", encoding="utf-8")
    (demo_dir / SCRIPT).write_text("\n".join(lines) + "\n", encoding="utf-8")
    return len(lines), winner


SUMMARY_PRESSES = ["# the summary after the game: the results, the players' luck, the course, then leave", "next",
                   "next", "confirm"]
"""What the demo presses on the after-game summary (``companion.app.summary``)."""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="regenerate assets/demo from the current reader")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    if not args.write:
        parser.print_help()
        return 0
    count, winner = write_demo(args.seed)
    print(f"wrote {count} script lines; {winner} wins")
    return 0


if __name__ == "__main__":
    sys.exit(main())

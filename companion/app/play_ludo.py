"""``companion play ludo``: camera, board and die readers, inputs, store, the Ludo session and its screen.

The loop is the shared ``companion.app.loop.run_loop``; this module builds the Ludo pieces. The frame reader
(:class:`LudoFrameReader`) reads the die (``vision.dice.reader.read_dice``) in ROLL and the board
(``vision.board.reader.read_board``, through the adapter ``companion.readers.ludo_reading``) in MOVE; a
reading is cached per still scene, so a photo held for many frames is read once.

The die is read with the board blanked out (``vision.board.reader.mask_board``): pawns and printed circles
look like dice to the dice reader, so a die is read on the table beside the board, not on it. Each new
scene's board is read for that (a bumped board moves its outline); when the board is not found the last
outline found is used.
"""

from __future__ import annotations

import hashlib
import logging
import os
import random
from pathlib import Path

import numpy as np

from companion.games.ludo.board import load_board
from companion.games.ludo.config import LudoConfig
from companion.i18n import _
from companion.readers.ludo_reading import LudoReading, pawns_from_board

log = logging.getLogger(__name__)


class LudoFrameReader:
    """``reader(frame_bgr) -> LudoReading`` for the loop: the die and the board of one frame.

    board: geometry name; colours: the colours in play (seat order); stacks: count two pawns of one
    colour on a square (set when the variant's ``own_stacking`` is not ``forbidden``, ludo.md B.5 / B.7);
    session: the session, asked which part to read (``mode``: ``roll`` reads the die, ``move`` the
    board). Reader failures become a reading with ``problem`` set, never an exception.
    """

    def __init__(self, board: str, colours: tuple[str, ...], stacks: bool = False):
        self.geometry = load_board(board)
        self.colours = colours
        self.stacks = stacks
        self.session = None
        self._cache: dict[tuple[str, bytes], LudoReading] = {}
        self._calibration = None

    def __call__(self, frame_bgr: np.ndarray) -> LudoReading:
        part = "move" if self.session is not None and self.session.mode.value == "move" else "roll"
        key = (part, hashlib.sha1(np.ascontiguousarray(frame_bgr[::8, ::8]).tobytes()).digest())
        if key not in self._cache:
            if len(self._cache) > 64:
                self._cache.clear()
            self._cache[key] = self._read_board(frame_bgr) if part == "move" else self._read_die(frame_bgr)
        return self._cache[key]

    def _read_die(self, frame_bgr: np.ndarray) -> LudoReading:
        try:
            from vision.board.reader import mask_board, read_board
            from vision.dice.reader import read_dice

            board = read_board(frame_bgr, self.geometry, self._calibration)
            if board.found:
                self._calibration = board
            table = frame_bgr if self._calibration is None else mask_board(frame_bgr, self._calibration, self.geometry)
            obs = read_dice(table)
        except Exception as error:  # a reader failure must not stop the game: hand entry still works
            return LudoReading(problem=f"die reader: {error}")
        values = obs.values
        die = values[0] if len(values) == 1 and not obs.any_flagged else None
        return LudoReading(die=die, dice_seen=len(values), problem=obs.problem or "", die_view=table)

    def _read_board(self, frame_bgr: np.ndarray) -> LudoReading:
        try:
            from vision.board.reader import read_board

            obs = read_board(frame_bgr, self.geometry, self._calibration, stacks=self.stacks)
        except Exception as error:
            return LudoReading(problem=f"board reader: {error}")
        if obs.found:
            self._calibration = obs
        pawns, problem = pawns_from_board(obs, self.geometry, self.colours)
        return LudoReading(pawns=pawns, problem=problem)


def play(args) -> int:
    """``companion play ludo`` (args: the ``play`` namespace of companion.cli.play). Exit status 0."""
    from companion.app.devices import NO_CAMERA, PlayDevices
    from companion.app.loop import display_available, open_game, run_loop
    from companion.cli.play import parse_variant
    from companion.config import load_config
    from companion.display.ludo import draw_ludo  # noqa: F401  (registers the renderer)
    from companion.errors import UserError
    from companion.paths import ensure_state_dir, resolve
    from companion.session.ludo import GAME, LudoSession, colours_for, replay

    paths = resolve(os.environ)
    config = load_config(paths.config_file)
    if (args.camera or config.camera.spec) == NO_CAMERA:
        raise UserError(_("Ludo needs a camera: the box reads the board and the die (--camera none is for "
                          "Can't Stop and the card games)"))
    headless = args.headless or not display_available()
    players = [p.strip() for p in args.players.split(",")] if args.players else None
    variant = parse_variant(args.variant) or dict(config.variant(GAME))
    ensure_state_dir(paths)
    with PlayDevices(config, headless=headless) as devices:
        store = devices.open_store(paths.store_file)
        game_id, players, variant = open_game(
            store, GAME, players, variant, args.new, variant_given=bool(args.variant),
            check=lambda names, rules: replay([], len(names), LudoConfig.from_variant(rules)))
        session = LudoSession(store, game_id, players, LudoConfig.from_variant(variant),
                              stable_frames=config.session.stable_frames, rng=random.Random(args.seed))
        reader = LudoFrameReader(session.config.board, colours_for(len(players)),
                                 stacks=session.config.own_stacking != "forbidden")
        reader.session = session
        display = devices.open_display()
        inputs = devices.open_inputs(args.input, leds=True)
        screenshots: Path | None = args.screenshots
        if screenshots:
            screenshots.mkdir(parents=True, exist_ok=True)
        camera = devices.open_camera(args.camera or config.camera.spec)
        result = run_loop(session, store, camera, reader, inputs, display, game=GAME, screenshots=screenshots,
                          headless=headless, fps=config.session.fps, leds=devices.leds)
    if result.winner:
        print(_("{name} wins.").format(name=result.winner))
    return 0

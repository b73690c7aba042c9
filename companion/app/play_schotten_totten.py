"""``companion play schotten-totten``: a Schotten Totten / Battle Line match at the table.

``play(args)`` takes the namespace of ``companion play`` (game, players, variant, camera, input,
headless, screenshots, new, seed). Variant keys: those of :class:`SchottenTottenConfig` (``game`` or
``variant`` = ``schotten-totten`` | ``battle-line``, ``claim_timing``, ``stall_resolution``,
``match_length``, ``hand_size``), e.g. ``--variant game=battle-line --variant match_length=1``.

Camera: ``--camera none`` plays without a camera (every card is entered with ``set STONE CARD``, see
:mod:`companion.session.schotten_totten`); any other spec (``folder:DIR`` of photos, ``device:N``,
``auto``...) feeds frames to the card reader (``vision.cards.schotten_totten``) through the one adapter
:func:`companion.readers.schotten_totten.read_table`. Without ``--camera`` the config's camera
is used. The stones' places come from ``STATE_DIR/schotten-totten-stones.json`` when that file exists
(``{"stones": [[x, y], ... nine, left to right], "palette": {...}}``, as
``vision.cards.schotten_totten.StCalibration.from_json`` reads it); otherwise the reader assumes the
nine stones evenly spaced along the frame's horizontal middle.

Script (``--input script:FILE``): one command a line (companion/app/inputs.py), for example::

    confirm          # the proposed player starts; the deal follows
    set 5 17         # stone 5, R7 (colour digit 1 = R, value 7)
    confirm          # yes, that card
    choose 5         # claim stone 5 (in the claim step), or ask why not (before it)
    pass             # end the claims / pass when no card can be played
    confirm          # at the end of a game: the next game of the match, or finish
"""

from __future__ import annotations

import logging
import os
import random

from companion.i18n import _

log = logging.getLogger(__name__)


CALIBRATION_FILE = "schotten-totten-stones.json"
"""Stone calibration of the card reader, in the state directory (optional)."""


def _reader(path, read_table):
    """The loop's reader: :func:`read_table` with the calibration at ``path`` when it exists.
    Raises ``ValueError`` naming the file when it cannot be parsed."""
    if not path.is_file():
        return read_table
    from vision.cards.schotten_totten import StCalibration

    try:
        calibration = StCalibration.from_json(path.read_text(encoding="utf-8"))
    except (ValueError, KeyError, TypeError) as error:
        raise ValueError(f"{path}: not a stone calibration: {error}") from None
    return lambda frame_bgr: read_table(frame_bgr, calibration)


def play(args) -> int:
    """Run (or resume) a match; returns the exit status (0 when it ended or the players quit).

    Raises ``ValueError``/``UserError`` for bad players or variants, and the camera's, store's and
    script's errors as they come (the command line prints them as one line).
    """
    import companion.display.schotten_totten  # noqa: F401 (registers the renderer)
    from companion.app.devices import PlayDevices
    from companion.app.loop import display_available, open_game, run_loop
    from companion.cli.play import parse_variant
    from companion.config import load_config
    from companion.errors import UserError
    from companion.games.schotten_totten.rules import SchottenTottenConfig
    from companion.paths import ensure_state_dir, resolve
    from companion.readers.schotten_totten import read_table
    from companion.session.schotten_totten import GAME, SchottenTottenSession, replay

    players = [p.strip() for p in args.players.split(",")] if args.players else None
    if players is not None and len(players) != 2:
        raise UserError(_("Schotten Totten is for two players, not {n}").format(n=len(players)))
    paths = resolve(os.environ)
    config = load_config(paths.config_file)
    ensure_state_dir(paths)
    variant = parse_variant(args.variant) or config.variant(GAME)
    headless = args.headless or not display_available()
    spec = args.camera or config.camera.spec
    with PlayDevices(config, headless=headless) as devices:
        camera = devices.open_camera(spec)
        store = devices.open_store(paths.store_file)
        game_id, players, variant = open_game(
            store, GAME, players, dict(variant), args.new, variant_given=bool(args.variant),
            check=lambda names, rules: replay([], SchottenTottenConfig.from_variant(rules)))
        session = SchottenTottenSession(store, game_id, players, SchottenTottenConfig.from_variant(variant),
                                        stable_frames=config.session.stable_frames,
                                        rng=random.Random(args.seed))
        display = devices.open_display()
        inputs = devices.open_inputs(args.input)
        if args.screenshots:
            args.screenshots.mkdir(parents=True, exist_ok=True)
        reader = _reader(paths.state_dir / CALIBRATION_FILE, read_table)
        result = run_loop(session, store, camera, reader, inputs, display, game=GAME,
                          screenshots=args.screenshots, headless=headless, fps=config.session.fps)
    if result.winner:
        print(_("{name} wins the match.").format(name=result.winner))
    return 0

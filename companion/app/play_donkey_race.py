"""``companion play donkey-race``: the composition root of the donkey race at the table.

Builds paths, config, store, camera (optional: without one, plays are entered by hand with
``dice V [V ...]``), inputs, the :class:`~companion.session.donkey_race.DonkeyRaceSession` and the
display, and runs the shared loop (:func:`companion.app.loop.run_loop`). Script commands for this game:
``confirm``, ``next``, ``bank``, ``pass``, ``undo``, ``choose K`` (1-based seat, first leader) and
``dice V [V ...]`` (a play entered by hand: card values, the donkey as its value, a joker as 100);
see :mod:`companion.session.donkey_race` for what each does in each mode.
"""

from __future__ import annotations

import logging
import os
from functools import partial
from pathlib import Path

from companion.errors import UserError
from companion.i18n import _

log = logging.getLogger(__name__)

def play(args, env=None) -> int:
    """Run one donkey race from the ``companion play`` namespace; exit status 0 (the game is saved
    when the players quit). Raises :class:`UserError` for a bad player list or variant."""
    import companion.display.donkey_race  # noqa: F401  (registers the renderer)
    from companion.app.devices import PlayDevices
    from companion.app.loop import display_available, open_game, run_loop
    from companion.cli.play import parse_variant
    from companion.config import load_config
    from companion.errors import CameraError, VariantError
    from companion.games.donkey_race.rules import DonkeyRaceConfig
    from companion.paths import ensure_state_dir, resolve
    from companion.session.donkey_race import GAME, DonkeyRaceSession, read_table, replay

    paths = resolve(os.environ if env is None else env)
    config = load_config(paths.config_file)
    players = [p.strip() for p in args.players.split(",")] if args.players else None
    if players is not None and not 2 <= len(players) <= 4:
        raise UserError(_("the donkey race takes 2 to 4 players, not {n}").format(n=len(players)))
    variant = parse_variant(args.variant) or dict(config.variant(GAME))
    headless = args.headless or not display_available()
    ensure_state_dir(paths)
    with PlayDevices(config, headless=headless) as devices:
        store = devices.open_store(paths.store_file)
        try:
            game_id, players, variant = open_game(
                store, GAME, players, variant, args.new, variant_given=bool(args.variant),
                check=lambda names, rules: replay([], len(names), DonkeyRaceConfig.from_variant(rules)))
            rules = DonkeyRaceConfig.from_variant(variant)
        except VariantError as error:
            raise UserError(str(error)) from None
        session = DonkeyRaceSession(store, game_id, players, rules, stable_frames=config.session.stable_frames)
        try:
            camera = devices.open_camera(args.camera or config.camera.spec)
        except CameraError as error:
            camera = None
            log.warning("no camera (%s): enter plays by hand", error)
        display = devices.open_display()
        inputs = devices.open_inputs(args.input)
        screenshots: Path | None = args.screenshots
        if screenshots:
            screenshots.mkdir(parents=True, exist_ok=True)
        reader = partial(read_table, players=len(players), config=rules)
        result = run_loop(session, store, camera, reader, inputs, display, game=GAME, screenshots=screenshots,
                          headless=headless, fps=config.session.fps)
    if result.winner:
        print(_("{name} wins.").format(name=result.winner))
    elif session.finished:
        print(_("Shared win: {names}").format(names=", ".join(players[s] for s in session.state.winners)))
    return 0

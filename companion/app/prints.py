"""The printable board from the menu: where the box writes it and what it writes.

The box has no printer. From the game's rules screen in the menu ("Save the board to print") it writes
the board the camera checks as one-page PDFs for A4 and A3 (``vision.board.cant_stop.printed``, the same
files as ``companion board print``) onto a USB stick when one is plugged in, so that the players carry it
to a printer, else into the state directory's ``prints`` folder (reachable over the network or by
``companion report``).

Only Can't Stop has a printed board of the box's own: its ``board_layout`` variant (``none``, ``companion``,
``mountain``, ``diamond``; ``none`` reads no board, so nothing is offered).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

PAPERS = ("a4", "a3")
"""Both sizes are written: which one the players' printer takes is not the box's to know."""

MEDIA_ROOTS = (Path("/media"), Path("/run/media"))
"""Where Raspberry Pi OS (udisks2) mounts a USB stick: ``/media/USER/LABEL``, ``/run/media/USER/LABEL``."""


def printable(game: str, variant: Mapping[str, object]) -> bool:
    """Whether ``game`` with ``variant`` has a board the box can print (Can't Stop with a layout set)."""
    return game == "cant-stop" and variant.get("board_layout", "none") not in (None, "none")


def removable_folder(roots: tuple[Path, ...] = MEDIA_ROOTS) -> Path | None:
    """The first mounted drive under ``roots`` (two levels: ``ROOT/USER/LABEL`` or ``ROOT/LABEL``) that
    this process can write, in name order; None when there is none."""
    for root in roots:
        try:
            users = sorted(p for p in root.iterdir() if p.is_dir())
        except OSError:
            continue
        for candidate in users:
            try:
                inner = sorted(p for p in candidate.iterdir() if p.is_dir())
            except OSError:
                inner = []
            for folder in [*inner, candidate]:
                if os.path.ismount(folder) and os.access(folder, os.W_OK):
                    return folder
    return None


def save_board_prints(game: str, variant: Mapping[str, object], state_dir: Path,
                      roots: tuple[Path, ...] = MEDIA_ROOTS) -> list[Path]:
    """Write the board of ``game``/``variant`` for each paper of :data:`PAPERS` as
    ``cant-stop-LAYOUT-PAPER.pdf`` into :func:`removable_folder` or ``state_dir/prints`` (created).

    Returns the files written. Raises ValueError when the variant has no printable board (see
    :func:`printable`), OSError when the folder cannot be written (nothing half-written is left: each file
    is written atomically)."""
    if not printable(game, variant):
        raise ValueError(f"{game}: no printable board for this variant")
    from vision.board.cant_stop import layout_named  # the renderer: loaded only when a board is printed
    from vision.board.cant_stop.printed import write_print

    layout = str(variant["board_layout"])
    folder = removable_folder(roots)
    if folder is None:
        folder = Path(state_dir) / "prints"
        folder.mkdir(parents=True, exist_ok=True)
    written = []
    for paper in PAPERS:
        path = folder / f"{game}-{layout}-{paper}.pdf"
        write_print(path, layout_named(layout), paper)
        written.append(path)
    return written

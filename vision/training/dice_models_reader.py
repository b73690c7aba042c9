"""A candidate model folder inside the box's reader, measured against the shipped one in one run
(development only).

``python -m vision.training.dice_models_reader MODELS SET... [--errata CSV] [--json]``

``MODELS``: a copy of ``assets/dice_model`` in which a network was retrained and the reader's graphs joined
again (``python -m vision.training.merge_dice_networks --models MODELS``), e.g. a gate trained with
``train_dice_gate --hard``. Its settings (``params.json``) and networks make the candidate reader; the
shipped reader (:func:`vision.dice.reader.shipped_reader`) is read beside it on the same sets. Prints, for
each SET (a folder with ``labels.csv``, :func:`vision.dice.eval.evaluate`), one line a reader (``shipped``,
``candidate``) of :data:`vision.training.dice_readers.COMPARED`; ``--json``: one object a set.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from vision.dice.eval import load_errata
from vision.dice.networks import DiceNetworks
from vision.dice.params import PARAMS_FILE, load_params
from vision.dice.reader import DiceReader, shipped_reader
from vision.training.dice_readers import compare


def folder_reader(folder: str | Path) -> DiceReader:
    """The reader of the settings and networks in ``folder`` (as :func:`shipped_reader` reads its own).
    Raises what :func:`load_params` and :meth:`DiceNetworks.load` raise for a missing or broken file."""
    params = load_params(Path(folder) / PARAMS_FILE)
    return DiceReader(params, DiceNetworks.load(params, folder))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m vision.training.dice_models_reader",
                                     description=__doc__.split("\n")[0])
    parser.add_argument("models", help="the candidate model folder")
    parser.add_argument("sets", nargs="+")
    parser.add_argument("--errata", help="label errata CSV (byler_d6's)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    errata = load_errata(args.errata) if args.errata else None
    compare({"shipped": shipped_reader(), "candidate": folder_reader(args.models)}, args.sets, errata, args.json)
    return 0


if __name__ == "__main__":
    sys.exit(main())

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

import sys
from pathlib import Path

from vision.dice.networks import DiceNetworks
from vision.dice.params import PARAMS_FILE, load_params
from vision.dice.reader import DiceReader
from vision.training.dice_readers import compare_main


def folder_reader(folder: str | Path) -> DiceReader:
    """The reader of the settings and networks in ``folder`` (as :func:`shipped_reader` reads its own).
    Raises what :func:`load_params` and :meth:`DiceNetworks.load` raise for a missing or broken file."""
    params = load_params(Path(folder) / PARAMS_FILE)
    return DiceReader(params, DiceNetworks.load(params, folder))


def main(argv: list[str] | None = None) -> int:
    return compare_main(argv, "python -m vision.training.dice_models_reader", __doc__.split("\n")[0], "models",
                        folder_reader)


if __name__ == "__main__":
    sys.exit(main())

"""The reader learns the players' own dice: the examples they confirm, and the face classification adapted
to them (issue 39).

**Kept examples** (:class:`ExampleStore`): for each roll the players confirmed, each read die's crop (the
classifier's 32 px crop, :func:`vision.dice.networks.face_crop`: never the frame, so no face or hand is
kept), the value the reader gave, whether it was flagged, and the value confirmed. One ``.npz`` file a roll
in ``<state>/dice_examples/``, written atomically; the newest :data:`KEEP_DICE` dice are kept.

**Learned faces** (:class:`LearnedFaces`): the kept examples' features under the face classifier (the input
of its last layer, :data:`vision.dice.networks.FEATURES` wide, L2-normalised) with their confirmed values:
a nearest-neighbour classifier on the network's own features (prototypes: Snell et al. 2017, "Prototypical
Networks for Few-shot Learning"; features of a trained network as a few-shot classifier: Tian et al. 2020,
"Rethinking Few-Shot Image Classification"). A die whose features lie near the kept examples
(:meth:`LearnedFaces.adapt`) is read with the learned probabilities; a die far from all of them keeps the
shipped classifier's. Where the two disagree and the shipped classifier is sure, the learned value is taken
only when the kept examples show that very confusion (the shipped classifier read these dice's face v as u);
otherwise the die is flagged.

**Fitting** (:func:`fit`) checks itself on the examples held out in turn (by roll): the learned state is
used only when, held out, it offers no more wrong dice than the shipped reader did on them and no fewer
right ones. Pure numpy; 1,000 dice take one network pass and a 1,000 x 1,000 product (well under a second
here).
"""

from __future__ import annotations

import json
import os
import time
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from vision.errors import FileFormatError
from vision.files import write_atomic

EXAMPLES_DIR = "dice_examples"
LEARNED_FILE = "dice_learned.npz"
KEEP_DICE = 4000
"""How many kept dice the example store holds at most (the newest; a roll's file goes whole)."""
FORMAT = 1


@dataclass(frozen=True)
class Example:
    """One die the players confirmed: ``crop`` (3, s, s) float32 the classifier's crop
    (:func:`vision.dice.networks.face_crop`); ``read`` the value the reader gave (1-6); ``flagged`` whether
    it asked; ``value`` the value confirmed (1-6); ``roll`` the roll (or photo) it came from, a name."""

    crop: np.ndarray
    read: int
    flagged: bool
    value: int
    roll: str


class ExampleStore:
    """The kept examples in ``folder`` (``<state>/dice_examples``): one ``.npz`` a roll, the newest
    ``limit`` dice kept. A file that cannot be read is set aside (renamed ``*.damaged``) and counted in
    :attr:`set_aside`."""

    def __init__(self, folder: str | Path, limit: int = KEEP_DICE) -> None:
        self.folder = Path(folder)
        self.limit = limit
        self.set_aside: list[Path] = []

    def files(self) -> list[Path]:
        """The rolls' files, oldest first (by name: a time stamp and a counter)."""
        return sorted(self.folder.glob("roll-*.npz")) if self.folder.is_dir() else []

    def add(self, examples: list[Example]) -> Path | None:
        """Keep one roll's dice (all with the same ``roll``); None for none. Drops the oldest rolls beyond
        ``limit`` dice. Raises OSError when the folder cannot be written (the caller logs it: a press
        never fails for it)."""
        if not examples:
            return None
        self.folder.mkdir(parents=True, exist_ok=True)
        stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime())
        path = self.folder / f"roll-{stamp}-{time.time_ns() % 10**9:09d}-{len(examples)}.npz"
        crops = np.stack([e.crop for e in examples]).astype(np.float16)
        table = np.array([[e.read, int(e.flagged), e.value] for e in examples], np.int16)
        write_atomic(path, _npz_bytes(crops=crops, table=table, roll=np.array(examples[0].roll)))
        self._prune()
        return path

    def _prune(self) -> None:
        files = self.files()
        counts = [_dice_in(f) for f in files]
        total = sum(counts)
        for f, n in zip(files, counts):
            if total <= self.limit:
                break
            f.unlink(missing_ok=True)
            total -= n

    def load(self) -> list[Example]:
        """Every kept example, oldest first."""
        out: list[Example] = []
        for f in self.files():
            try:
                with np.load(f) as z:
                    crops, table, roll = z["crops"].astype(np.float32), z["table"], str(z["roll"])
                if crops.ndim != 4 or len(crops) != len(table) or table.shape[1:] != (3,):
                    raise ValueError("shapes")
            except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile):
                self._set_aside(f)
                continue
            out += [Example(c, int(r), bool(fl), int(v), roll or f.stem) for c, (r, fl, v) in zip(crops, table)
                    if 1 <= v <= 6]
        return out

    def newest_time(self) -> float:
        """The file time of the newest kept roll, 0.0 when none."""
        files = self.files()
        return files[-1].stat().st_mtime if files else 0.0

    def clear(self) -> int:
        """Remove every kept roll; returns how many."""
        files = self.files()
        for f in files:
            f.unlink(missing_ok=True)
        return len(files)

    def _set_aside(self, path: Path) -> None:
        target = path.with_name(path.name + ".damaged")
        try:
            os.replace(path, target)
        except OSError:
            return
        self.set_aside.append(target)


def _dice_in(path: Path) -> int:
    """The dice a roll's file holds, from its name (``roll-<stamp>-<ns>-<dice>.npz``): pruning opens no file."""
    count = path.stem.rsplit("-", 1)[-1]
    return int(count) if count.isdigit() else 1


def _npz_bytes(**arrays) -> bytes:
    import io

    buf = io.BytesIO()
    np.savez_compressed(buf, **arrays)
    return buf.getvalue()


@dataclass(frozen=True)
class Settings:
    """How the learned faces classify (``params.json``'s ``learn_*`` values, :class:`vision.dice.params.DiceParams`).

    near: cosine similarity (0-1) to the nearest kept example from which a die counts as one of the players'
    dice. k: neighbours a class's score averages. temperature: of the softmax over the classes' scores."""

    near: float = 0.95
    k: int = 3
    temperature: float = 0.02
    sure: float = 0.9  # the belief a die is offered with (the reader's flag_below)


@dataclass
class LearnedFaces:
    """The players' dice as the face classifier sees them: ``features`` (m, c) float32 L2-normalised,
    ``values`` (m,) int 1-6, ``confusions`` the (shipped value, confirmed value) pairs the shipped
    classifier was sure of and got wrong on them, ``network`` the sha256 of the classifier graph they were
    computed with (a changed network makes them void), ``report`` what fitting measured."""

    features: np.ndarray
    values: np.ndarray
    confusions: frozenset[tuple[int, int]]
    network: str
    settings: Settings = field(default_factory=Settings)
    report: dict = field(default_factory=dict)

    def probabilities(self, features: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The learned face probabilities (n, 7) (class 0, no die face, always 0) of dice with ``features``
        (n, c) (L2-normalised), and each die's similarity (n,) to its nearest kept example (-1 with none)."""
        n = len(features)
        if len(self.features) == 0:  # nothing kept: nothing learned, no die near
            return np.zeros((n, 7), np.float32), np.full(n, -1.0, np.float32)
        sims = features @ self.features.T
        scores = np.full((n, 7), -np.inf)
        for v in range(1, 7):
            cols = sims[:, self.values == v]
            if cols.shape[1] == 0:
                continue
            k = min(self.settings.k, cols.shape[1])
            scores[:, v] = np.sort(cols, axis=1)[:, -k:].mean(axis=1)
        nearest = sims.max(axis=1) if sims.shape[1] else np.full(n, -1.0)
        z = (scores - scores.max(axis=1, keepdims=True)) / self.settings.temperature
        p = np.exp(z)
        p[~np.isfinite(scores)] = 0.0
        p /= np.maximum(p.sum(axis=1, keepdims=True), 1e-12)
        return p.astype(np.float32), nearest.astype(np.float32)

    def adapt(self, shipped: np.ndarray, features: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The face probabilities (n, 7) the reader decides with, and (n,) bool: the die was flagged for a
        disagreement between the learned and the shipped classification.

        shipped: (n, 7) the shipped classifier's probabilities; features: (n, c) L2-normalised. A die
        near the kept examples (similarity >= ``settings.near``) whose learned value the shipped
        classifier shares: the normalised product of both (agreeing, they are surer together). Whose
        learned value differs: the learned probabilities when the shipped classifier was unsure
        (belief under ``settings.sure``) or its sure value is a known confusion of the learned one
        (:attr:`confusions`); else the shipped probabilities, flagged. A die far from them: shipped."""
        learned, nearest = self.probabilities(features)
        out = shipped.astype(np.float32).copy()
        disagree = np.zeros(len(shipped), bool)
        for i in np.flatnonzero(nearest >= self.settings.near):
            v = int(np.argmax(learned[i, 1:])) + 1
            u = int(np.argmax(shipped[i, 1:])) + 1
            belief = (1.0 - float(shipped[i, 0])) * float(shipped[i, u])
            if v == u:
                both = shipped[i] * learned[i]
                both[0] = 0.0
                out[i] = both / max(float(both.sum()), 1e-12)
            elif belief < self.settings.sure or (u, v) in self.confusions:
                out[i] = learned[i]
            else:
                disagree[i] = True
        return out, disagree

    # ---------------------------------------------------------------------------------- the file

    def save(self, path: str | Path) -> None:
        """Write atomically to ``path`` (``.npz``)."""
        meta = {"format": FORMAT, "network": self.network, "confusions": sorted(self.confusions),
                "settings": self.settings.__dict__, "report": self.report}
        write_atomic(Path(path), _npz_bytes(features=self.features.astype(np.float32),
                                            values=self.values.astype(np.int8), meta=np.array(json.dumps(meta))))

    @classmethod
    def load(cls, path: str | Path) -> LearnedFaces:
        """Read a learned state written by :meth:`save`. Raises FileFormatError naming the file when it
        is damaged or of another format (the caller sets it aside)."""
        path = Path(path)
        try:
            with np.load(path) as z:
                features, values, meta = z["features"].astype(np.float32), z["values"].astype(int), json.loads(str(z["meta"]))
            if meta.get("format") != FORMAT or features.ndim != 2 or len(features) != len(values):
                raise ValueError("format")
            confusions = frozenset((int(a), int(b)) for a, b in meta["confusions"])
            stored = Settings(**meta["settings"])
        except (OSError, ValueError, KeyError, TypeError, EOFError, zipfile.BadZipFile) as e:
            raise FileFormatError(f"{path}: the learned dice cannot be read (damaged or of another "
                                  f"version)") from None
        return cls(features, values, confusions, str(meta.get("network", "")), stored,
                   dict(meta.get("report", {})))


def normalise(features: np.ndarray) -> np.ndarray:
    """Rows of ``features`` (n, c) scaled to unit length (float32)."""
    f = features.astype(np.float32)
    return f / np.maximum(np.linalg.norm(f, axis=1, keepdims=True), 1e-6)


def fit(examples: list[Example], features: np.ndarray, shipped: np.ndarray, network: str,
        settings: Settings = Settings(), views: int = 1) -> LearnedFaces:
    """The learned faces of ``examples`` with their ``features`` (m, c) (L2-normalised) and the shipped
    classifier's probabilities ``shipped`` (m, 7), and its check on them held out in turn. ``views``: the
    features hold that many views of each example (``views`` blocks of m rows, the first the crop as
    kept; :func:`vision.dice.teach.learn` gives its quarter turns): all are learned, the first is checked.

    Each roll is read in turn by a state learned from the other rolls (one roll alone: each die by the
    others), as the reader would (:meth:`LearnedFaces.adapt`; offered: belief >= ``settings.sure`` and no
    disagreement). ``report``: dice, rolls, and for the shipped reader (as it read them) and the learned
    one: ``offered_right``, ``offered_wrong``, ``flagged``; ``use``: True when the learned state offers
    no more wrong dice and no fewer right ones than the shipped reader did."""
    m = len(examples)
    values = np.array([e.value for e in examples], int)
    read = np.array([e.read for e in examples], int)
    flagged = np.array([e.flagged for e in examples], bool)
    confusions = frozenset((int(r), int(v)) for r, v, fl in zip(read, values, flagged) if not fl and r != v)
    features = normalise(features)
    state = LearnedFaces(features, np.tile(values, views), confusions, network, settings)
    rolls = np.array([e.roll for e in examples])
    groups = [rolls == r for r in dict.fromkeys(rolls)] if len(set(rolls)) >= 2 else \
        [np.arange(m) == i for i in range(m)]
    adapted = np.zeros((m, 7), np.float32)
    disagree = np.zeros(m, bool)
    for held in groups:  # each roll read by what the others taught, with the confusions they showed
        rest = ~held
        others = LearnedFaces(features[np.tile(rest, views)], np.tile(values[rest], views), frozenset(
            (int(r), int(v)) for r, v, fl in zip(read[rest], values[rest], flagged[rest]) if not fl and r != v),
            network, settings)
        adapted[held], disagree[held] = others.adapt(shipped[:m][held], features[:m][held])
    guess = np.argmax(adapted[:, 1:], axis=1) + 1
    belief = (1.0 - adapted[:, 0]) * adapted[np.arange(len(guess)), guess]
    offered = (belief >= settings.sure) & ~disagree
    learned = {"offered_right": int(np.sum(offered & (guess == values))),
               "offered_wrong": int(np.sum(offered & (guess != values))), "flagged": int(np.sum(~offered))}
    before = {"offered_right": int(np.sum(~flagged & (read == values))),
              "offered_wrong": int(np.sum(~flagged & (read != values))), "flagged": int(np.sum(flagged))}
    use = (learned["offered_wrong"] <= before["offered_wrong"]
           and learned["offered_right"] >= before["offered_right"])
    state.report = {"dice": len(examples), "rolls": len(set(rolls)), "shipped": before, "learned": learned,
                    "use": bool(use)}
    return state


# ------------------------------------------------------------------------------ the state directory

def learned_path(state_dir: str | Path) -> Path:
    """Where the learned faces are stored: ``<state>/dice_learned.npz``, beside the dice calibration."""
    return Path(state_dir) / LEARNED_FILE


def examples_in(state_dir: str | Path) -> ExampleStore:
    """The kept examples of ``state_dir`` (``<state>/dice_examples``)."""
    return ExampleStore(Path(state_dir) / EXAMPLES_DIR)


def load_learned(state_dir: str | Path, network: str) -> tuple[LearnedFaces | None, str]:
    """The learned faces to read with from ``state_dir`` and a line for the players' log ("" when nothing
    is to be said). None: none stored; stored for another face network (``network``, its sha256: the box
    was updated; learn again); fitting found they would make the reader worse (``report["use"]``); or
    the file is damaged, which is then set aside (renamed ``*.damaged``) and said."""
    path = learned_path(state_dir)
    if not path.is_file():
        return None, ""
    try:
        state = LearnedFaces.load(path)
    except FileFormatError as e:
        target = path.with_name(path.name + ".damaged")
        try:
            os.replace(path, target)
        except OSError:
            return None, str(e)
        return None, f"{e}; set aside as {target.name}, the shipped reader reads until the box learns again"
    if network and state.network != network:
        return None, f"{path}: learned with another dice model; the shipped reader is used until the box learns again"
    if not state.report.get("use", False):
        return None, f"{path}: not used (held out, it read the kept dice worse than the shipped reader)"
    return state, ""


def forget(state_dir: str | Path) -> tuple[bool, int]:
    """Remove the learned faces and the kept examples of ``state_dir``: (whether a learned state was
    there, how many kept rolls were removed)."""
    path = learned_path(state_dir)
    had = path.is_file()
    path.unlink(missing_ok=True)
    return had, examples_in(state_dir).clear()

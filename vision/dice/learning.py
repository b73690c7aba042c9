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

**Fitting** (:func:`fit`) checks itself on the examples held out in turn (by roll): the learned faces are
used only when, held out, they offer no more wrong dice than the shipped reader did on them, no fewer right
ones, and at least :data:`EVIDENCE` right that it asked about or misread. The kept dice's size
(:attr:`LearnedFaces.die_side`) is learned too and used either way (the reader's ``oversized_taught``).
Pure numpy; 1,000 dice take one network pass and a 1,000 x 1,000 product (well under a second here).
"""

from __future__ import annotations

import json
import mmap
import os
from collections import Counter, defaultdict
import time
import zipfile
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import NamedTuple

import numpy as np

from vision.errors import FileFormatError
from vision.files import write_atomic

EXAMPLES_DIR = "dice_examples"
LEARNED_FILE = "dice_learned.npz"
KEEP_DICE = 4000
"""How many kept dice the example store holds at most (the newest; a roll's file goes whole)."""
FORMAT = 1


class Label(NamedTuple):
    """What the players confirmed of one die: ``read`` the value the reader gave (1-6); ``flagged`` whether
    it asked; ``value`` the value confirmed (1-6); ``roll`` the roll (or photo) it came from, a name;
    ``held``: it was flagged for a reason its face's classification does not decide
    (:data:`vision.dice.reader.FACE_INDEPENDENT`: cocked, the gate, oversized, ...), so a learned reading
    would ask about it too (False where not known); ``side`` its longest box side over its frame's long side
    (0-1; 0 where not known)."""

    read: int
    flagged: bool
    value: int
    roll: str
    held: bool = False
    side: float = 0.0


@dataclass(frozen=True)
class Example:
    """One die the players confirmed: ``crop`` (3, s, s) float32 the classifier's crop
    (:func:`vision.dice.networks.face_crop`) and the fields of its :class:`Label`."""

    crop: np.ndarray
    read: int
    flagged: bool
    value: int
    roll: str
    held: bool = False
    side: float = 0.0

    @property
    def label(self) -> Label:
        """The example without its crop."""
        return Label(self.read, self.flagged, self.value, self.roll, self.held, self.side)


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
        now = time.time_ns()  # one reading: a stamp and a fraction of two readings could sort out of order
        stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime(now // 10**9))
        path = self.folder / f"roll-{stamp}-{now % 10**9:09d}-{len(examples)}.npz"
        crops = np.stack([e.crop for e in examples]).astype(np.float16)
        table = np.array([[e.read, int(e.flagged), e.value] for e in examples], np.int16)
        held = np.array([e.held for e in examples], np.int8)
        sides = np.array([e.side for e in examples], np.float32)
        write_atomic(path, _npz_bytes(crops=crops, table=table, held=held, sides=sides,
                                      roll=np.array(examples[0].roll)))
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
        return list(self.each())

    def each(self) -> Iterator[Example]:
        """Every kept example, oldest first, read one roll's file at a time (learning holds no more
        crops than it works on)."""
        for f in self.files():
            try:
                with np.load(f) as z:
                    crops, table, roll = z["crops"].astype(np.float32), z["table"], str(z["roll"])
                    # a roll kept before the reasons or the sizes were: none known
                    held = z["held"].astype(bool) if "held" in z.files else np.zeros(len(table), bool)
                    sides = z["sides"].astype(float) if "sides" in z.files else np.zeros(len(table))
                if (crops.ndim != 4 or len(crops) != len(table) or table.shape[1:] != (3,)
                        or not held.shape == sides.shape == (len(table),)):
                    raise ValueError("shapes")
            except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile):
                self._set_aside(f)
                continue
            yield from (Example(c, int(r), bool(fl), int(v), roll or f.stem, bool(h), float(sd))
                        for c, (r, fl, v), h, sd in zip(crops, table, held, sides) if 1 <= v <= 6)

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
    computed with (a changed network makes them void), ``report`` what fitting measured, ``die_side`` the
    largest side of the confirmed dice over their frame's long side (0-1; 0: fewer than
    :data:`SIDES_KNOWN` dice of known size): how large the players' dice are in this camera's frames (the
    reader's ``oversized_taught``)."""

    features: np.ndarray
    values: np.ndarray
    confusions: frozenset[tuple[int, int]]
    network: str
    settings: Settings = field(default_factory=Settings)
    report: dict = field(default_factory=dict)
    die_side: float = 0.0

    @property
    def faces_used(self) -> bool:
        """Whether the reader reads faces with what was learned (fitting's verdict, ``report["use"]``); the
        players' dice's size (:attr:`die_side`) is used either way."""
        return bool(self.report.get("use", False))

    def probabilities(self, features: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The learned face probabilities (n, 7) (class 0, no die face, always 0) of dice with ``features``
        (n, c) (L2-normalised), and each die's similarity (n,) to its nearest kept example (-1 with none)."""
        return self._read(features)[:2]

    def _read(self, features: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """:meth:`probabilities` and which values (n, 7) bool have kept examples (:func:`_learned`)."""
        if len(self.features) == 0:  # nothing kept: nothing learned, no die near
            n = len(features)
            return np.zeros((n, 7), np.float32), np.full(n, -1.0, np.float32), np.zeros((n, 7), bool)
        return _learned(features, self._by_value, self.settings)

    def __post_init__(self) -> None:
        # ordered by value, so that each value's examples are one contiguous block a read compares a die
        # with, without copying any (:func:`_learned`)
        order = np.argsort(self.values, kind="stable")
        self.features, self.values = _mapped(self.features[order]), self.values[order]

    @cached_property
    def _by_value(self) -> list[tuple[np.ndarray, None]]:
        """Each value's block of the kept examples' features (views, :func:`_groups`)."""
        return _groups(self.features, self.values)

    def adapt(self, shipped: np.ndarray, features: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The face probabilities (n, 7) the reader decides with, and (n,) bool: the die was flagged for a
        disagreement between the learned and the shipped classification.

        shipped: (n, 7) the shipped classifier's probabilities; features: (n, c) L2-normalised. A die
        near the kept examples (similarity >= ``settings.near``) whose learned value the shipped
        classifier shares: the normalised product of both (agreeing, they are surer together). Whose
        learned value differs: the learned probabilities when the shipped classifier was unsure
        (belief under ``settings.sure``) or its sure value is a known confusion of the learned one
        (:attr:`confusions`); else the shipped probabilities, flagged. A die far from them: shipped.

        The learned probabilities say which of the taught values a die shows, not whether it shows one:
        they share out only the shipped classifier's probability of the values the players confirmed dice
        of, a value never confirmed keeping its shipped probability (:func:`_within_taught`), except where
        the shipped value is a known confusion. Taught only 1s and 6s, a die the shipped classifier reads
        as an unsure 2 stays unsure (rune55's piles of dice: offered as a sure 1 otherwise, 26 -> 55 wrong
        dice offered after 5 taught photos, 36 with this)."""
        learned, nearest, taught = self._read(features)
        return _adapted(shipped, learned, nearest, [self.confusions] * len(shipped), self.settings, taught)

    # ---------------------------------------------------------------------------------- the file

    def save(self, path: str | Path) -> None:
        """Write atomically to ``path`` (``.npz``)."""
        meta = {"format": FORMAT, "network": self.network, "confusions": sorted(self.confusions),
                "settings": self.settings.__dict__, "report": self.report, "die_side": self.die_side}
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
            die_side = float(meta.get("die_side", 0.0))  # learned before the dice's sizes were kept: 0
            if not 0.0 <= die_side <= 1.0:
                raise ValueError("die_side")
        except (OSError, ValueError, KeyError, TypeError, EOFError, zipfile.BadZipFile) as e:
            raise FileFormatError(f"{path}: the learned dice cannot be read (damaged or of another "
                                  f"version)") from None
        return cls(features, values, confusions, str(meta.get("network", "")), stored,
                   dict(meta.get("report", {})), die_side)


def _mapped(array: np.ndarray) -> np.ndarray:
    """A copy of ``array`` in memory of its own (an anonymous mapping), given back to the system whole
    when the array goes."""
    if array.nbytes == 0:
        return array.copy()
    buffer = mmap.mmap(-1, array.nbytes)
    out = np.frombuffer(buffer, dtype=array.dtype).reshape(array.shape)
    out[...] = array
    return out


def normalise(features: np.ndarray) -> np.ndarray:
    """Rows of ``features`` (n, c) scaled to unit length (float32)."""
    f = features.astype(np.float32)
    return f / np.maximum(np.linalg.norm(f, axis=1, keepdims=True), 1e-6)


def fit(examples: Sequence[Label | Example], features: np.ndarray, shipped: np.ndarray, network: str,
        settings: Settings = Settings(), views: int = 1) -> LearnedFaces:
    """The learned faces of ``examples`` (their labels: the crops are not read) with their ``features`` (m, c) (L2-normalised) and the shipped
    classifier's probabilities ``shipped`` (m, 7), and its check on them held out in turn. ``views``: the
    features hold that many views of each example (``views`` blocks of m rows, the first the crop as
    kept; :func:`vision.dice.teach.learn` gives its quarter turns): all are learned, the first is checked.

    Each roll is read in turn by a state learned from the other rolls (one roll alone: each die by the
    others), as the reader would (:meth:`LearnedFaces.adapt`; offered: belief >= ``settings.sure``, no
    disagreement, and not :attr:`Label.held`: a die the reader asked about for a reason its face does not
    decide is asked about with the learned reading too). ``report``: dice, rolls, and for the shipped
    reader (as it read them) and the learned one: ``offered_right``, ``offered_wrong``, ``flagged``;
    ``use``: True when the learned state offers no more wrong dice and no fewer right ones than the shipped
    reader did.

    The held-out reading works through :data:`CHECK_ROWS` dice at a time, each die compared with the
    examples of every roll but its own: its memory does not grow with the number kept (issue 52)."""
    m = len(examples)
    values = np.array([e.value for e in examples], int)
    read = np.array([e.read for e in examples], int)
    flagged = np.array([e.flagged for e in examples], bool)
    held = np.array([e.held for e in examples], bool)
    confused = ~flagged & (read != values)
    confusions = frozenset((int(r), int(v)) for r, v in zip(read[confused], values[confused]))
    features = normalise(features)
    all_values = np.tile(values, views)
    names = [e.roll for e in examples]
    # a roll's number; one roll alone: each die is its own "roll", read by the others
    rolls = np.unique(names, return_inverse=True)[1] if len(set(names)) >= 2 else np.arange(m)
    order = np.argsort(all_values, kind="stable")
    state = LearnedFaces(features[order], all_values[order], confusions, network, settings)
    queries = features[:m].copy()  # the first view: each example as kept
    del features
    # the confusions each roll showed: a die held out knows those the other rolls showed
    by_roll: dict[int, Counter] = {}
    for g, r, v in zip(rolls[confused], read[confused], values[confused]):
        by_roll.setdefault(int(g), Counter())[(int(r), int(v))] += 1
    shown = sum(by_roll.values(), Counter())
    by_roll = defaultdict(Counter, by_roll)
    groups = _groups(state.features, state.values, np.tile(rolls, views)[order])
    adapted = np.zeros((m, 7), np.float32)
    disagree = np.zeros(m, bool)
    for start in range(0, m, CHECK_ROWS):
        block = slice(start, min(m, start + CHECK_ROWS))
        learned, nearest, taught = _learned(queries[block], groups, settings, rolls[block])
        known = [frozenset(c for c, n in shown.items() if n > by_roll[g].get(c, 0)) for g in rolls[block]]
        adapted[block], disagree[block] = _adapted(shipped[:m][block], learned, nearest, known, settings, taught)
    guess = np.argmax(adapted[:, 1:], axis=1) + 1
    belief = (1.0 - adapted[:, 0]) * adapted[np.arange(len(guess)), guess]
    offered = (belief >= settings.sure) & ~disagree & ~held
    learned = {"offered_right": int(np.sum(offered & (guess == values))),
               "offered_wrong": int(np.sum(offered & (guess != values))), "flagged": int(np.sum(~offered))}
    before = {"offered_right": int(np.sum(~flagged & (read == values))),
              "offered_wrong": int(np.sum(~flagged & (read != values))), "flagged": int(np.sum(flagged))}
    asked = flagged | (read != values)  # what the shipped reader did not offer right
    gained = {"right": int(np.sum(offered & asked & (guess == values))),
              "wrong": int(np.sum(offered & asked & (guess != values)))}
    use = (learned["offered_wrong"] <= before["offered_wrong"] and learned["offered_right"] >= before["offered_right"]
           and gained["right"] >= EVIDENCE)
    state.report = {"dice": len(examples), "rolls": len(set(names)), "shipped": before, "learned": learned,
                    "gained": gained, "use": bool(use)}
    state.die_side = taught_side([e.side for e in examples])
    return state


EVIDENCE = 3
"""Held-out dice the learned reading must offer right where the shipped reader asked about them or read
them wrong, before the reader reads faces with it (besides offering no more wrong dice and no fewer right
ones than the shipped reader): a gain of one or two dice is one roll's luck. After 5 taught photos of
rune55's piles of dice the check said 4 right and 0 wrong against the shipped 3 and 0 (a gain of one) and
the photos after it got 26 -> 36 wrong dice offered; on the other rune55 groups and the rendered own-dice
sets the gains were 0-1 and the learned faces offered no right die more on the photos after them. Set on
those measurements: one more than the largest gain any of them showed, and a die of margin."""


SIDES_KNOWN = 5
"""Confirmed dice of known size it takes to say how large the players' dice are (a roll of Can't Stop has
four; one roll's dice are no measure of where the others land)."""


def taught_side(sides: Sequence[float]) -> float:
    """The largest of ``sides`` (each a die's longest box side over its frame's long side, 0 where not
    known), or 0.0 when fewer than :data:`SIDES_KNOWN` are known."""
    known = [float(v) for v in sides if v > 0.0]
    return round(max(known), 4) if len(known) >= SIDES_KNOWN else 0.0


CHECK_ROWS = 128
"""Held-out dice :func:`fit` reads together (with :data:`TILE`: what its memory is, whatever is kept)."""


def _groups(features: np.ndarray, values: np.ndarray, rolls: np.ndarray | None = None
            ) -> list[tuple[np.ndarray, np.ndarray | None]]:
    """Kept examples' ``features`` (m, c), ``values`` (m,) 1-6 and ``rolls`` (m,) or None, grouped by
    value: entry v (0-6; 0 is empty) is (features of value v, their rolls). ``values`` in order: the
    groups are views; else copies."""
    ordered = len(values) < 2 or not np.any(np.diff(values) < 0)
    out = []
    for v in range(7):
        if ordered:
            rows = slice(*np.searchsorted(values, [v, v + 1])) if v else slice(0, 0)
        else:
            rows = np.flatnonzero(values == v) if v else np.zeros(0, int)
        out.append((features[rows], None if rolls is None else rolls[rows]))
    return out


def _learned(queries: np.ndarray, groups: list[tuple[np.ndarray, np.ndarray | None]], settings: Settings,
             query_rolls: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The learned face probabilities (n, 7), each die's similarity to its nearest kept example (n,)
    (-1 with none) and which values (n, 7) bool it was compared with examples of, of n dice with ``queries``
    (n, c) among the kept examples' ``groups`` (:func:`_groups`:
    each value's features, L2-normalised like the queries: cosine similarity, and rolls). With
    ``query_rolls`` (n,), a die is never compared with an example of its own roll. A value's score is the
    mean similarity of its ``settings.k`` nearest examples (fewer where there are fewer); the
    probabilities are the scores' softmax at ``settings.temperature``. The examples are compared
    :data:`TILE` at a time: what this takes does not grow with the number kept."""
    n, k = len(queries), settings.k
    top = np.full((n, 7, k), -np.inf, np.float32)  # each value's k best similarities so far
    for v in range(1, 7):
        features, rolls = groups[v]
        for start in range(0, len(features), TILE):
            sims = queries @ features[start:start + TILE].T
            if query_rolls is not None and rolls is not None:
                sims[query_rolls[:, None] == rolls[None, start:start + TILE]] = -np.inf
            both = np.concatenate([top[:, v], sims], axis=1)
            top[:, v] = np.partition(both, both.shape[1] - k, axis=1)[:, -k:]
    allowed = np.isfinite(top)
    count = allowed.sum(axis=2)
    scores = np.where(count > 0, np.where(allowed, top, 0.0).sum(axis=2) / np.maximum(count, 1), -np.inf)
    nearest = top.reshape(n, -1).max(axis=1) if n else np.zeros(0, np.float32)
    nearest = np.where(np.isfinite(nearest), nearest, -1.0)
    best = scores.max(axis=1, keepdims=True)
    z = np.where(np.isfinite(scores), (scores - np.where(np.isfinite(best), best, 0.0)) / settings.temperature, -np.inf)
    p = np.exp(z)
    p /= np.maximum(p.sum(axis=1, keepdims=True), 1e-12)
    return p.astype(np.float32), nearest.astype(np.float32), count > 0


def _within_taught(shipped: np.ndarray, learned: np.ndarray, taught: np.ndarray) -> np.ndarray:
    """The learned probabilities (n, 7) of dice as :meth:`LearnedFaces.adapt` weighs them where the
    shipped classifier's value is no known confusion: the shipped classifier's face probabilities
    (``shipped`` (n, 7) over the values 1-6, class 0 left out: a die near the kept dice is a die), the
    share of the values ``taught`` (n, 7) bool shared out among them as ``learned`` (n, 7) says, each value
    never taught keeping its own."""
    faces = shipped.astype(np.float32).copy()
    faces[:, 0] = 0.0
    faces /= np.maximum(faces.sum(axis=1, keepdims=True), 1e-12)
    inside = np.sum(np.where(taught, faces, 0.0), axis=1, keepdims=True)
    return np.where(taught, learned * inside, faces).astype(np.float32)


TILE = 128
"""Kept examples compared with the dice at a time (a tile of CHECK_ROWS x TILE float32 similarities, 0.5 MB)."""


def _adapted(shipped: np.ndarray, learned: np.ndarray, nearest: np.ndarray, confusions: list[frozenset],
             settings: Settings, taught: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """:meth:`LearnedFaces.adapt`'s decision for each die, with the learned probabilities, nearest
    similarities and taught values (:func:`_learned`) worked out, and the confusions known to each die
    (one set a die)."""
    within = _within_taught(shipped, learned, taught)
    out = shipped.astype(np.float32).copy()
    disagree = np.zeros(len(shipped), bool)
    for i in np.flatnonzero(nearest >= settings.near):
        v = int(np.argmax(learned[i, 1:])) + 1
        u = int(np.argmax(shipped[i, 1:])) + 1
        belief = (1.0 - float(shipped[i, 0])) * float(shipped[i, u])
        if v == u:
            both = shipped[i] * within[i]
            both[0] = 0.0
            out[i] = both / max(float(both.sum()), 1e-12)
        elif (u, v) in confusions[i]:  # the shipped value is what it reads the players' v as
            out[i] = learned[i]
        elif belief < settings.sure:
            out[i] = within[i]
        else:
            disagree[i] = True
    return out, disagree


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
    was updated; learn again); or the file is damaged, which is then set aside (renamed ``*.damaged``) and
    said. A state whose faces fitting did not find better (:attr:`LearnedFaces.faces_used` False) is
    returned with a line saying so: the reader then uses only the size of the players' dice."""
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
    if not state.faces_used:
        return state, (f"{path}: the faces learned are not used (held out, they did not yet show that they "
                       f"read the kept dice better than the shipped reader); only the dice's size is")
    return state, ""


def forget(state_dir: str | Path) -> tuple[bool, int]:
    """Remove the learned faces and the kept examples of ``state_dir``: (whether a learned state was
    there, how many kept rolls were removed)."""
    path = learned_path(state_dir)
    had = path.is_file()
    path.unlink(missing_ok=True)
    return had, examples_in(state_dir).clear()

"""Teaching the reader: examples from labelled photos and from confirmed rolls, and learning from them
(issue 39; the learned faces themselves: :mod:`vision.dice.learning`).

A labelled photo says which values lie on the table (the ``dice_values`` of ``../shared/data``'s
``labels.csv``), not which die shows which: :meth:`Photo.examples` pairs the dice read with the
labelled values by the most likely assignment under the shipped classifier (Hungarian method, scipy's
``linear_sum_assignment``), so a die the classifier misreads takes the value the others leave.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np
from scipy.optimize import linear_sum_assignment

from vision.dice.learning import (EVIDENCE, Example, ExampleStore, Label, LearnedFaces, Settings, examples_in, fit,
                                  learned_path)
from vision.dice.networks import FEATURES
from vision.dice.reader import FACE_INDEPENDENT, GATE, NO_FACE, WEAK, DiceReader
from vision.observation import DiceObservation


def examples_from_roll(reader: DiceReader, frame_bgr: np.ndarray, observation: DiceObservation,
                       confirmed: list[int], roll: str) -> list[Example]:
    """The examples of a roll the players confirmed: die i of ``observation`` (read from ``frame_bgr``)
    with ``confirmed[i]`` (1-6), for as many dice as both have (the players' added dice have no crop).
    Raises FrameError for a frame that is not an image."""
    n = min(len(observation.dice), len(confirmed))
    if n == 0:
        return []
    dice = observation.dice[:n]
    crops = reader.die_crops(frame_bgr, [d.box for d in dice])
    long_side = max(frame_bgr.shape[:2])
    return [Example(c, d.value, d.flagged, int(v), roll, side=die_side(d.box, long_side))
            for c, d, v in zip(crops, dice, confirmed[:n]) if 1 <= int(v) <= 6]


def die_side(box, long_side: int) -> float:
    """A die's longest box side (``box`` (x0, y0, x1, y1) pixels) over the frame's long side (pixels), 0-1."""
    x0, y0, x1, y1 = box
    return round(min(1.0, max(x1 - x0, y1 - y0) / max(long_side, 1)), 4)


@dataclass
class Photo:
    """A labelled photo being taught: its dice as read (``dice``: DieReading), their ``crops``, the shipped
    classifier's ``probs`` (n, 7), ``doubted`` (n,) bool: the reader doubts
    it is a die at all (a weak detection, the gate's doubt, no die face), the labelled ``values`` and
    ``name``, ``held`` (n,) bool: the reader flagged the die for a reason its face does not decide
    (:data:`vision.dice.reader.FACE_INDEPENDENT`; None: not known), ``long_side`` the frame's long side
    (pixels; 0: not known)."""

    name: str
    dice: list
    crops: np.ndarray
    probs: np.ndarray
    doubted: np.ndarray
    values: list[int]
    held: np.ndarray | None = None
    long_side: int = 0

    def examples(self) -> tuple[list[Example], int]:
        """The examples under the assignment of greatest likelihood under the shipped classifier, and how
        many labelled dice were left without a die. A die :attr:`doubted` is not paired: where a labelled
        die was not found, a card's print read as a die would take its value."""
        rows = np.flatnonzero(~self.doubted)
        if len(rows) == 0 or not self.values:
            return [], len(self.values)
        picked, cols = linear_sum_assignment(-np.log(self.probs[rows][:, self.values] + 1e-6))
        held = self.held if self.held is not None else np.zeros(len(self.dice), bool)
        return ([Example(self.crops[rows[i]], self.dice[rows[i]].value, self.dice[rows[i]].flagged, self.values[j],
                         self.name, bool(held[rows[i]]),
                         die_side(self.dice[rows[i]].box, self.long_side) if self.long_side else 0.0)
                 for i, j in zip(picked, cols)],
                len(self.values) - len(picked))


def read_photo(reader: DiceReader, frame_bgr: np.ndarray, values: list[int], name: str) -> Photo:
    """A labelled photo (``values``: its dice's faces 1-6, any order) read by the shipped reader. Raises
    FrameError for a frame that is not an image."""
    observation, reasons = reader.with_learned(None).read_with_reasons(frame_bgr)
    dice = list(observation.dice)
    crops = reader.die_crops(frame_bgr, [d.box for d in dice])
    _, probs = reader.die_features(crops)
    doubted = np.array([bool(why & {WEAK, GATE, NO_FACE}) for why in reasons], bool)
    held = np.array([bool(why & FACE_INDEPENDENT) for why in reasons], bool)
    return Photo(name, dice, crops, probs, doubted, [int(v) for v in values], held, max(frame_bgr.shape[:2]))


def examples_from_photos(photos: list[Photo]) -> tuple[list[Example], int]:
    """The examples of labelled photos (:meth:`Photo.examples`) and how many labelled dice were left
    unpaired. (Pairing again under what the other photos taught changed no pairing on the rendered
    own-dice sets once the doubted dice were left out: not done.)"""
    pairs = [p.examples() for p in photos]
    return [e for ex, _ in pairs for e in ex], sum(m for _, m in pairs)


def learn(reader: DiceReader, examples: Iterable[Example], settings: Settings | None = None) -> LearnedFaces | None:
    """The learned faces of ``examples`` (:func:`vision.dice.learning.fit`) under ``reader``'s networks:
    each crop turned by 0-3 quarter turns (a die's face reads the same turned; the features do not).
    ``examples`` are taken :data:`LEARN_CHUNK` at a time (a generator such as
    :meth:`vision.dice.learning.ExampleStore.each` is never held whole). ``settings`` default from the
    reader's parameters. None when there is no example."""
    labels: list[Label] = []
    features: list[list[np.ndarray]] = [[] for _ in range(TURNS)]  # a chunk's features, turn by turn
    probs: list[list[np.ndarray]] = [[] for _ in range(TURNS)]
    chunk: list[Example] = []
    for example in itertools.chain(examples, [None]):
        if example is not None:
            chunk.append(example)
        if chunk and (example is None or len(chunk) == LEARN_CHUNK):
            crops = np.stack([e.crop for e in chunk]).astype(np.float32)
            for k in range(TURNS):
                f, p = reader.die_features(np.ascontiguousarray(np.rot90(crops, k, axes=(2, 3))))
                features[k].append(f)
                probs[k].append(p)
            labels += [e.label for e in chunk]
            chunk = []
    if not labels:
        return None
    return fit(labels, np.concatenate([f for turn in features for f in turn]),
               np.concatenate([p for turn in probs for p in turn]), getattr(reader.networks, "heads_id", ""),
               settings or learn_settings(reader), views=TURNS)


LEARN_CHUNK = 32
"""Kept dice whose features are worked out together while learning (each in :data:`TURNS` turns, as it is
and transposed: one classifier batch of :data:`vision.dice.networks.MAX_BATCH` crops)."""


TURNS = 4
"""Quarter turns of each kept crop learned from (its transposes are in each view's features already)."""


def learn_settings(reader: DiceReader) -> Settings:
    """The learned faces' settings from ``reader``'s parameters (``learn_near``, ``learn_k``,
    ``learn_temperature``; the belief offered as sure is ``flag_below``)."""
    p = reader.params
    return Settings(near=p.learn_near, k=p.learn_k, temperature=p.learn_temperature, sure=p.flag_below)



def learn_kept(reader: DiceReader, state_dir, when_new: bool = False) -> tuple[LearnedFaces | None, str]:
    """Learn from the examples kept in ``state_dir`` and store the learned faces there (atomically);
    returns them (None when there is nothing to learn, or with ``when_new`` when nothing was kept since
    the stored state was learned) and one line saying what was learned and whether it is used. Raises
    OSError when the state directory cannot be written."""
    store = examples_in(state_dir)
    newest = store.newest_time()
    if when_new:
        path = learned_path(state_dir)
        if newest == 0.0 or (path.is_file() and path.stat().st_mtime >= newest):
            return None, ""
    state = learn(reader, store.each())
    if state is None:  # none kept, or every kept file damaged (set aside)
        return None, f"nothing to learn: no confirmed dice are kept in {store.folder}"
    state.save(learned_path(state_dir))
    return state, learned_line(state)


def learned_line(state: LearnedFaces) -> str:
    """One line on learned faces: how many dice of how many rolls, and their check held out in turn."""
    r = state.report
    before, after = r["shipped"], r["learned"]
    verdict = ("used" if r["use"] else f"not used: they do not read the kept dice better than the shipped reader by "
               f"{EVIDENCE} dice or more (the dice's size is used)")
    rolls = f"{r['rolls']} roll" + ("" if r["rolls"] == 1 else "s")
    return (f"learned the players' dice from {r['dice']} dice of {rolls}; held out in turn, "
            f"{after['offered_right']} right and {after['offered_wrong']} wrong offered without a question "
            f"(the shipped reader: {before['offered_right']} and {before['offered_wrong']}): {verdict}")


def keep_photos(store: ExampleStore, photos: list[Photo]) -> tuple[int, int]:
    """Pair the labelled ``photos``' dice with their values (:func:`examples_from_photos`) and keep them
    in ``store``, one roll a photo: (dice kept, labelled dice not found)."""
    examples, missed = examples_from_photos(photos)
    for photo in photos:
        store.add([e for e in examples if e.roll == photo.name])
    return len(examples), missed

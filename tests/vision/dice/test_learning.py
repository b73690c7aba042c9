"""The players' own dice (issue 39): kept examples, learned faces, their files and the held-out check."""

from __future__ import annotations

import numpy as np
import pytest

from vision.dice.learning import (Example, ExampleStore, LearnedFaces, Settings, examples_in, fit, forget,
                                  learned_path, load_learned, normalise)


def _examples(n: int, roll: str, value: int = 3, read: int = 3, flagged: bool = False) -> list[Example]:
    rng = np.random.default_rng(n)
    return [Example(rng.normal(size=(3, 32, 32)).astype(np.float32), read, flagged, value, roll) for _ in range(n)]


def test_the_store_keeps_each_roll_in_one_file_and_drops_the_oldest_beyond_its_limit(tmp_path):
    store = ExampleStore(tmp_path / "kept", limit=10)
    for k in range(4):
        store.add(_examples(4, f"r{k}", value=k + 1))
    assert len(store.files()) == 2  # 16 dice > 10: the two oldest rolls went, whole
    kept = store.load()
    assert [e.value for e in kept] == [3] * 4 + [4] * 4 and kept[0].roll == "r2"
    assert kept[0].crop.shape == (3, 32, 32) and kept[0].crop.dtype == np.float32


def test_rolls_kept_across_a_second_s_turn_stay_in_order(tmp_path, monkeypatch):
    from vision.dice import learning

    second = 1_765_000_000
    clock = iter([second * 10**9 + 999_999_000, (second + 1) * 10**9 + 1_000])
    monkeypatch.setattr(learning.time, "time_ns", lambda: next(clock))
    store = ExampleStore(tmp_path / "kept")
    first = store.add(_examples(2, "a"))
    then = store.add(_examples(2, "b"))
    assert store.files() == [first, then]
    assert [e.roll for e in store.load()] == ["a", "a", "b", "b"]


def test_a_damaged_kept_roll_is_set_aside_and_the_others_still_load(tmp_path):
    store = ExampleStore(tmp_path / "kept")
    store.add(_examples(2, "a"))
    bad = store.add(_examples(2, "b"))
    bad.write_bytes(b"not an npz")
    assert [e.roll for e in store.load()] == ["a", "a"]
    assert store.set_aside == [bad.with_name(bad.name + ".damaged")] and store.set_aside[0].is_file()


def _faces(values, features) -> LearnedFaces:
    return LearnedFaces(normalise(np.asarray(features, np.float32)), np.asarray(values), frozenset(), "net",
                        Settings(near=0.95, k=1, temperature=0.02, sure=0.75))


def test_a_die_near_the_kept_dice_takes_their_value_when_the_shipped_classifier_was_unsure():
    faces = _faces([1, 5], [[1, 0, 0], [0, 1, 0]])
    shipped = np.array([[0.3, 0.2, 0.0, 0.0, 0.0, 0.5, 0.0],  # unsure: 5 (0.35 belief), learned: 1
                        [0.0, 0.0, 0.0, 0.0, 0.0, 0.97, 0.03],  # sure of 5, learned 1: they disagree
                        [0.0, 0.6, 0.0, 0.0, 0.0, 0.4, 0.0]], np.float32)  # far from every kept die
    probs, disagree = faces.adapt(shipped, normalise(np.array([[1, 0.02, 0], [1, 0.01, 0], [0, 0, 1]], np.float32)))
    assert np.argmax(probs[0]) == 1 and probs[0, 1] > 0.99 and not disagree[0]
    assert disagree[1] and np.array_equal(probs[1], shipped[1])
    assert np.array_equal(probs[2], shipped[2]) and not disagree[2]


def test_a_confusion_the_kept_dice_showed_is_taken_as_learned_not_flagged():
    faces = _faces([1], [[1, 0, 0]])
    faces = LearnedFaces(faces.features, faces.values, frozenset({(5, 1)}), "net", faces.settings)
    shipped = np.array([[0.0, 0.0, 0.0, 0.0, 0.0, 0.97, 0.03]], np.float32)
    probs, disagree = faces.adapt(shipped, normalise(np.array([[1, 0.01, 0]], np.float32)))
    assert np.argmax(probs[0]) == 1 and not disagree[0]


def test_fit_checks_held_out_by_roll_and_refuses_a_state_that_offers_more_wrong_dice():
    # rolls a (two 2s) and b (two 4s) look alike, the shipped classifier torn between 2 and 4: held out,
    # each is read as the other's value; c (a 2) and d (a 4) look like nothing else and stay unsure
    features = np.array([[1, 0, 0]] * 4 + [[0, 1, 0], [0, 0, 1]], np.float32)
    shipped = np.tile(np.array([0.0, 0.0, 0.5, 0.0, 0.5, 0.0, 0.0], np.float32), (6, 1))
    examples = (_examples(2, "a", value=2, read=2, flagged=True) + _examples(2, "b", value=4, read=2, flagged=True)
                + _examples(1, "c", value=2, read=2, flagged=True) + _examples(1, "d", value=4, read=2, flagged=True))
    state = fit(examples, features, shipped, "net", Settings(near=0.95, k=1, temperature=0.02, sure=0.75))
    assert state.report["shipped"] == {"offered_right": 0, "offered_wrong": 0, "flagged": 6}
    assert state.report["learned"]["offered_wrong"] == 4 and state.report["use"] is False


def test_a_value_never_taught_keeps_its_share_and_a_small_gain_is_no_evidence():
    # two rolls labelled 2 and 4, the shipped classifier leaning to an untaught 6: held out, each roll's
    # learned value gets only the shipped share of the values taught, and nothing is offered wrong
    features = np.array([[1, 0, 0]] * 4, np.float32)
    shipped = np.tile(np.array([0.0, 0.0, 0.2, 0.0, 0.2, 0.0, 0.6], np.float32), (4, 1))
    examples = _examples(2, "a", value=2, read=6, flagged=True) + _examples(2, "b", value=4, read=6, flagged=True)
    state = fit(examples, features, shipped, "net", Settings(near=0.95, k=1, temperature=0.02, sure=0.75))
    assert state.report["learned"]["offered_wrong"] == 0 and state.report["use"] is False
    # two right dice gained over the shipped reader, none wrong: fewer than EVIDENCE, not used
    from vision.dice.learning import EVIDENCE

    sure3 = np.tile(np.array([0.4, 0.0, 0.01, 0.57, 0.02, 0.0, 0.0], np.float32), (2, 1))
    two = [Example(e.crop, 3, True, 3, f"r{k}") for k, e in enumerate(_examples(2, "x"))]
    small = fit(two, features[:2], sure3, "net", Settings(near=0.95, k=1, temperature=0.02, sure=0.75))
    assert small.report["gained"] == {"right": 2, "wrong": 0} and 2 < EVIDENCE and small.report["use"] is False


def test_learned_faces_are_stored_atomically_and_a_damaged_file_is_set_aside(tmp_path):
    state = _faces([1, 5], [[1, 0, 0], [0, 1, 0]])
    state.report = {"use": True, "dice": 2, "rolls": 1}
    state.save(learned_path(tmp_path))
    again, why = load_learned(tmp_path, "net")
    assert why == "" and np.allclose(again.features, state.features) and list(again.values) == [1, 5]
    assert load_learned(tmp_path, "another network")[0] is None  # the box's model changed: learn again
    learned_path(tmp_path).write_bytes(b"\x00" * 40)
    state, why = load_learned(tmp_path, "net")
    assert state is None and "set aside" in why and (tmp_path / "dice_learned.npz.damaged").is_file()


def test_forget_removes_what_was_kept_and_learned(tmp_path):
    examples_in(tmp_path).add(_examples(2, "a"))
    _faces([1], [[1, 0, 0]]).save(learned_path(tmp_path))
    assert forget(tmp_path) == (True, 1)
    assert not learned_path(tmp_path).exists() and examples_in(tmp_path).load() == []


@pytest.mark.parametrize("bad", [b"", b"PK\x03\x04 cut short"])
def test_a_learned_file_cut_short_is_a_format_error_naming_it(tmp_path, bad):
    from vision.errors import FileFormatError

    learned_path(tmp_path).write_bytes(bad)
    with pytest.raises(FileFormatError, match="dice_learned.npz"):
        LearnedFaces.load(learned_path(tmp_path))


def test_fit_counts_a_die_held_for_another_reason_as_asked_and_the_store_keeps_that(tmp_path):
    # four 3s the shipped classifier was unsure of, learned from each other: offered held out, unless the
    # reader asked about them for a reason their face does not decide (cocked, the gate, oversized, ...)
    features = np.array([[1, 0, 0]] * 4, np.float32)
    shipped = np.tile(np.array([0.4, 0.0, 0.01, 0.57, 0.02, 0.0, 0.0], np.float32), (4, 1))
    settings = Settings(near=0.95, k=1, temperature=0.02, sure=0.75)
    free = [Example(e.crop, 3, True, 3, f"r{k}") for k, e in enumerate(_examples(4, "x"))]
    assert fit(free, features, shipped, "net", settings).report["learned"]["offered_right"] == 4
    held = [Example(e.crop, e.read, e.flagged, e.value, e.roll, held=k < 3) for k, e in enumerate(free)]
    assert fit(held, features, shipped, "net", settings).report["learned"]["offered_right"] == 1
    store = ExampleStore(tmp_path / "kept")
    store.add(held[:2])
    assert [e.held for e in store.load()] == [True, True]
    old = tmp_path / "old" / "roll-1.npz"  # a roll kept before the reasons were: not held
    old.parent.mkdir()
    np.savez(old, crops=np.zeros((1, 3, 32, 32), np.float16), table=np.array([[3, 1, 3]], np.int16), roll=np.array("o"))
    assert [e.held for e in ExampleStore(old.parent).load()] == [False]


def test_a_taught_photo_pairs_its_dice_and_says_which_the_reader_held():
    from vision.dice.teach import Photo
    from vision.observation import DieReading

    dice = [DieReading(value=v, box=(0, 0, 10, 10), confidence=0.99, flagged=f) for v, f in ((2, False), (5, True))]
    probs = np.array([[0, 0, 0.9, 0, 0, 0.1, 0], [0, 0, 0.1, 0, 0, 0.9, 0]], np.float32)
    photo = Photo("p", dice, np.zeros((2, 3, 32, 32), np.float32), probs, np.zeros(2, bool), [5, 2],
                  np.array([False, True]))
    examples, missed = photo.examples()
    assert missed == 0
    assert sorted((e.read, e.value, e.held) for e in examples) == [(2, 2, False), (5, 5, True)]


def test_the_players_dice_size_is_kept_learned_and_stored(tmp_path):
    from vision.dice.learning import SIDES_KNOWN, taught_side
    from vision.dice.teach import die_side

    assert die_side((10, 20, 60, 50), 640) == round(50 / 640, 4)
    assert taught_side([0.1, 0.2, 0.0, 0.3, 0.1]) == 0.0  # four known: fewer than SIDES_KNOWN
    assert SIDES_KNOWN == 5 and taught_side([0.1, 0.2, 0.05, 0.3, 0.1, 0.0]) == 0.3
    store = ExampleStore(tmp_path / "kept")
    store.add([Example(e.crop, 3, False, 3, "a", side=0.1 * (k + 1)) for k, e in enumerate(_examples(5, "a"))])
    kept = store.load()
    assert [round(e.side, 4) for e in kept] == [0.1, 0.2, 0.3, 0.4, 0.5]
    features = np.tile(np.array([[1, 0, 0]], np.float32), (5, 1))
    shipped = np.tile(np.array([0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0], np.float32), (5, 1))
    state = fit(kept, features, shipped, "net")
    assert state.die_side == 0.5 and state.faces_used is False  # nothing gained over the shipped reader
    state.save(learned_path(tmp_path))
    again, why = load_learned(tmp_path, "net")
    assert again is not None and again.die_side == 0.5 and not again.faces_used and "size" in why
    old = tmp_path / "old" / "roll-1.npz"  # a roll kept before the sizes were: size not known
    old.parent.mkdir()
    np.savez(old, crops=np.zeros((1, 3, 32, 32), np.float16), table=np.array([[3, 1, 3]], np.int16), roll=np.array("o"))
    assert [e.side for e in ExampleStore(old.parent).load()] == [0.0]

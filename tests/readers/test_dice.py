"""The play loop's dice reader for a live camera: read once the dice have settled (companion.readers.settle)."""

from __future__ import annotations

import random

import cv2
import numpy as np
import pytest

from companion.commands import Button, Command
from companion.config import Config
from companion.readers import ReaderSettings
from companion.readers.dice import SettledDiceReader, dice_reader, dice_reader_for, read_dice_frame
from companion.session.cant_stop import CantStopSession, Mode
from companion.store import Store
from vision.camera import PhotoFolderSource, VideoSource, bundled_photos_dir


class FakeClock:
    def __init__(self):
        self.t = 0.0

    def __call__(self) -> float:
        return self.t


@pytest.fixture(scope="module")
def photo() -> np.ndarray:
    path = sorted(bundled_photos_dir().glob("*.jpg"))[0]
    return cv2.imread(str(path))


@pytest.fixture(scope="module")
def four_dice_photo() -> np.ndarray:
    """A bundled photo the reader reads as four dice (a Can't Stop roll)."""
    for path in sorted(bundled_photos_dir().glob("*.jpg")):
        frame = cv2.imread(str(path))
        if len(read_dice_frame(frame).dice) == 4:
            return frame
    raise AssertionError("no bundled photo reads as four dice")


def rolling(photo: np.ndarray, frames: int) -> list[np.ndarray]:
    """The scene while the dice roll: the photo shifted 9 px further every frame."""
    return [np.roll(photo, 9 * (i + 1), axis=1) for i in range(frames)]


def test_reads_once_after_the_still_time_and_again_after_the_next_roll(photo):
    clock = FakeClock()
    reader = SettledDiceReader(read_dice_frame, still_seconds=0.5, clock=clock)
    expected = read_dice_frame(photo)
    assert len(expected.values) >= 1
    seen = []
    for i, frame in enumerate(rolling(photo, 5) + [photo] * 9):  # 10 fps: rolls 0.5 s, then lies still
        clock.t = i / 10
        seen.append(reader(frame))
    # Frame 5 still differs from the last rolled one; frame 6 (t = 0.6 s) is the first still frame,
    # so the reading comes at t >= 1.1 s: frame 11 on.
    assert all(obs.problem == "Waiting for the dice to settle…" and not obs.dice for obs in seen[:6])
    assert [obs.problem for obs in seen[6:11]] == ["Hold still…"] * 5
    assert [obs.values for obs in seen[11:]] == [expected.values] * 3
    assert reader.reads == 1
    for i, frame in enumerate(rolling(photo, 3) + [photo] * 9, start=20):
        clock.t = i / 10
        obs = reader(frame)
    assert obs.values == expected.values and reader.reads == 2


def test_a_bad_frame_is_reported_and_restarts_the_stillness(photo):
    clock = FakeClock()
    reader = SettledDiceReader(read_dice_frame, still_seconds=0.0, clock=clock)
    assert reader(np.zeros((4, 4), np.float32)).problem.startswith("frame dtype is float32")
    assert reader(photo).problem == "Waiting for the dice to settle…"  # no previous frame to compare
    assert reader(photo).values == read_dice_frame(photo).values


def test_the_session_takes_a_settled_roll_only(tmp_path, four_dice_photo):
    photo = four_dice_photo
    clock = FakeClock()
    reader = SettledDiceReader(read_dice_frame, still_seconds=0.5, clock=clock)
    with Store(tmp_path / "store.sqlite3") as store:
        game_id = store.new_game("cant-stop", ["Ada", "Ben"], {})
        session = CantStopSession(store, game_id, ["Ada", "Ben"], stable_frames=3, rng=random.Random(1))
        while session.mode is Mode.START:
            session.on_command(Command(Button.CONFIRM))
        assert session.mode is Mode.WATCH
        modes = []
        for i, frame in enumerate(rolling(photo, 5) + [photo] * 10):
            clock.t = i / 10
            session.on_frame(frame, reader(frame))
            modes.append(session.mode)
        # Rolling, then still for less than 0.5 s (frames 0-10); the settled reading is the same on
        # frames 11, 12, 13: stable_frames = 3 are met on frame 13.
        assert modes[:13] == [Mode.WATCH] * 13 and modes[13:] == [Mode.CHECK] * 2
        assert reader.reads == 1


def test_photo_folders_keep_the_plain_reader_and_live_sources_get_the_settled_one(tmp_path, photo):
    folder = PhotoFolderSource(bundled_photos_dir())
    assert dice_reader_for(folder, read_dice_frame, 0.6) is read_dice_frame
    assert dice_reader_for(None, read_dice_frame, 0.6) is read_dice_frame
    video = tmp_path / "roll.avi"
    writer = cv2.VideoWriter(str(video), cv2.VideoWriter_fourcc(*"MJPG"), 10, (photo.shape[1], photo.shape[0]))
    writer.write(photo)
    writer.release()
    with VideoSource(video) as source:
        reader = dice_reader(source, ReaderSettings(tmp_path, Config().session.still_seconds))
        assert isinstance(reader, SettledDiceReader) and reader.tracker.still_s == 0.6

"""Frame sources: the photo folder, video files, camera specs and the `auto` fallback, picamera2 colours."""

from __future__ import annotations

import logging
import sys
import types

import cv2
import numpy as np
import pytest

import vision.camera as camera
from companion.errors import CameraError, NoCameraFound
from vision.camera import FrameSource, PhotoFolderSource, Picamera2Source, VideoSource, bundled_photos_dir, open_camera
from vision.camera.pi import to_bgr


def solid(bgr, shape=(48, 64)):
    frame = np.empty((*shape, 3), np.uint8)
    frame[:] = bgr
    return frame


@pytest.fixture
def photo_dir(tmp_path):
    """b.png (green), a.jpg (blue), c_grey.png (grey, one channel), bad.jpg (not an image), notes.txt."""
    cv2.imwrite(str(tmp_path / "b.png"), solid((0, 255, 0)))
    cv2.imwrite(str(tmp_path / "a.jpg"), solid((255, 0, 0)))
    cv2.imwrite(str(tmp_path / "c_grey.png"), np.full((48, 64), 128, np.uint8))
    (tmp_path / "bad.jpg").write_text("not a photo")
    (tmp_path / "notes.txt").write_text("ignored")
    return tmp_path


def test_folder_holds_each_photo_in_name_order(photo_dir, caplog):
    with caplog.at_level(logging.WARNING), PhotoFolderSource(photo_dir, frames_per_photo=3) as source:
        frames = []
        while (frame := source.read()) is not None:
            frames.append(frame)
        assert source.read() is None  # stays exhausted
    assert len(frames) == 9  # a, b, c three times each; bad.jpg skipped
    assert all(f.dtype == np.uint8 and f.shape == (48, 64, 3) for f in frames)
    colours = [tuple(int(v) for v in f[10, 10]) for f in frames]
    assert all(c[0] > 200 and c[1] < 50 for c in colours[0:3])  # a.jpg: blue (BGR)
    assert all(c == (0, 255, 0) for c in colours[3:6])  # b.png: green
    assert all(c == (128, 128, 128) for c in colours[6:9])  # grey converted to three channels
    assert "bad.jpg" in caplog.text


def test_folder_frames_are_copies(photo_dir):
    source = PhotoFolderSource(photo_dir, frames_per_photo=2)
    first = source.read()
    first[:] = 0
    assert source.read()[10, 10].max() > 0
    assert source.current_path.name == "a.jpg"


def test_folder_errors(tmp_path):
    with pytest.raises(CameraError, match="does not exist"):
        PhotoFolderSource(tmp_path / "nope")
    with pytest.raises(CameraError, match="no photos"):
        PhotoFolderSource(tmp_path)
    cv2.imwrite(str(tmp_path / "a.png"), solid((1, 2, 3)))
    with pytest.raises(ValueError):
        PhotoFolderSource(tmp_path, frames_per_photo=0)


def test_closed_source_reads_nothing(photo_dir):
    source = PhotoFolderSource(photo_dir)
    source.close()
    assert source.read() is None


@pytest.fixture
def video_file(tmp_path):
    path = tmp_path / "clip.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10, (64, 48))
    if not writer.isOpened():
        pytest.skip("this OpenCV build cannot write MJPG video")
    for level in (40, 120, 200):
        writer.write(solid((level, level, level)))
    writer.release()
    return path


def test_video_source(video_file):
    with open_camera(f"video:{video_file}") as source:
        assert isinstance(source, VideoSource) and source.name == f"video:{video_file}"
        levels = []
        while (frame := source.read()) is not None:
            assert frame.shape == (48, 64, 3) and frame.dtype == np.uint8
            levels.append(int(frame.mean()))
    assert len(levels) == 3 and levels[0] < levels[1] < levels[2]


@pytest.mark.parametrize("spec,words", [
    ("video:/no/such/clip.mp4", "does not exist"),
    ("device:abc", "whole number 0-99"),
    ("device:-1", "whole number 0-99"),
    ("folder:/no/such/folder", "does not exist"),
    ("webcam", "not understood"),
    ("folder:", "not understood"),
])
def test_bad_specs(spec, words):
    with pytest.raises(CameraError, match=words):
        open_camera(spec)


def test_video_that_is_not_a_video(tmp_path):
    path = tmp_path / "clip.mp4"
    path.write_text("nope")
    with pytest.raises(CameraError, match="cannot be opened"):
        open_camera(f"video:{path}")


def test_folder_spec(photo_dir):
    source = open_camera(f"folder:{photo_dir}", frames_per_photo=1)
    assert isinstance(source, PhotoFolderSource) and source.frames_per_photo == 1
    assert source.name == f"folder:{photo_dir}"


@pytest.fixture
def no_picamera(monkeypatch):
    monkeypatch.setitem(sys.modules, "picamera2", None)  # import picamera2 -> ImportError


def test_picamera_spec_without_picamera2(no_picamera):
    with pytest.raises(CameraError, match="picamera2 is not installed"):
        open_camera("picamera")


class FakeDevice(FrameSource):
    def __init__(self, frames):
        self.frames = list(frames)
        self.name = "device:0"
        self.closed = False

    def read(self):
        return self.frames.pop(0) if self.frames else None

    def close(self):
        self.closed = True


def test_auto_never_falls_back_to_someone_elses_photos(no_picamera, monkeypatch):
    def no_device(index):
        raise CameraError(f"camera device {index} cannot be opened")

    monkeypatch.setattr(camera, "DeviceSource", no_device)
    with pytest.raises(NoCameraFound, match="no camera found .*camera device 0 cannot be opened"):
        open_camera("auto", frames_per_photo=2)
    with open_camera(f"folder:{bundled_photos_dir()}", frames_per_photo=2) as source:  # only when asked for
        assert isinstance(source, PhotoFolderSource)
        first, second = source.read(), source.read()
        assert first.shape == (640, 640, 3) and np.array_equal(first, second)


def test_auto_skips_a_device_that_gives_no_frame(no_picamera, monkeypatch):
    silent = FakeDevice([])
    monkeypatch.setattr(camera, "DeviceSource", lambda index: silent)
    with pytest.raises(NoCameraFound, match="device 0 opened but gave no frame"):
        open_camera("auto")
    assert silent.closed


def test_auto_uses_a_working_device_and_keeps_its_first_frame(no_picamera, monkeypatch):
    frames = [solid((1, 1, 1)), solid((2, 2, 2))]
    monkeypatch.setattr(camera, "DeviceSource", lambda index: FakeDevice(frames))
    source = open_camera("auto")
    assert source.name == "device:0"
    assert source.read()[0, 0, 0] == 1 and source.read()[0, 0, 0] == 2 and source.read() is None


def test_bundled_photos_are_installed():
    folder = bundled_photos_dir()
    assert len(list(folder.glob("*.jpg"))) == 14
    assert (folder / "labels.csv").is_file() and (folder / "boxes.csv").is_file()
    licence = (folder / "LICENSE").read_text()
    assert "Nell Byler" in licence and "Redistribution and use" in licence


def test_picamera2_colour_order():
    rgb = np.zeros((2, 2, 3), np.uint8)
    rgb[..., 0] = 200  # red first in memory: what a "BGR888" stream delivers
    assert tuple(to_bgr(rgb, "BGR888")[0, 0]) == (0, 0, 200)
    bgr = rgb[..., ::-1].copy()  # "RGB888" arrives as B, G, R already
    assert tuple(to_bgr(bgr, "RGB888")[0, 0]) == (0, 0, 200)
    xrgb = np.dstack([bgr, np.full((2, 2), 255, np.uint8)])
    assert to_bgr(xrgb, "XRGB8888").shape == (2, 2, 3) and tuple(to_bgr(xrgb, "XRGB8888")[0, 0]) == (0, 0, 200)
    xbgr = np.dstack([rgb, np.full((2, 2), 255, np.uint8)])
    assert tuple(to_bgr(xbgr, "XBGR8888")[0, 0]) == (0, 0, 200)
    with pytest.raises(CameraError, match="YUV420"):
        to_bgr(rgb, "YUV420")


def test_picamera2_source_with_a_fake_library(monkeypatch):
    class FakePicamera2:
        camera_controls: dict = {}  # a fixed-focus camera advertising no settable controls
        camera_properties = {"Model": "fake"}

        def __init__(self):
            self.camera_config = {}
            self.started = self.closed = False

        def create_preview_configuration(self, main, **kwargs):
            return {"main": dict(main), **kwargs}

        def configure(self, config):
            config["main"]["format"] = "BGR888"  # as if the driver picked the RGB-in-memory format
            self.camera_config = config

        def start(self):
            self.started = True

        def capture_array(self, stream):
            frame = np.zeros((4, 6, 3), np.uint8)
            frame[..., 0] = 200  # red, RGB order
            return frame

        def stop(self):
            pass

        def close(self):
            self.closed = True

    monkeypatch.setitem(sys.modules, "picamera2", types.SimpleNamespace(Picamera2=FakePicamera2))
    with open_camera("picamera") as source:
        assert isinstance(source, Picamera2Source)
        frame = source.read()
        assert frame.shape == (4, 6, 3) and tuple(frame[0, 0]) == (0, 0, 200)
    assert source.read() is None


def test_a_missing_device_is_one_clear_error_without_opencv_warnings_on_stderr(capfd):
    # OpenCV prints "[ WARN:0@...] global cap_v4l.cpp ... can't open camera by index" straight to the
    # process's stderr; the box's own message says it better (and `auto` goes on to the photos)
    level = cv2.utils.logging.getLogLevel()
    with pytest.raises(camera.CameraError, match="camera device 57 cannot be opened"):
        camera.DeviceSource(57)
    assert "WARN" not in capfd.readouterr().err
    assert cv2.utils.logging.getLogLevel() == level  # OpenCV's log level is given back

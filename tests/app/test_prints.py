"""The printable board from the menu: what is written where (``companion.app.prints``, ``StoreMenuData``)."""

import os

import pytest

from companion.app import prints
from companion.app.prints import printable, removable_folder, save_board_prints


def test_only_a_board_the_camera_checks_is_printable():
    assert printable("cant-stop", {"board_layout": "mountain"})
    assert not printable("cant-stop", {"board_layout": "none"})
    assert not printable("cant-stop", {})
    assert not printable("ludo", {"board_layout": "companion"})
    with pytest.raises(ValueError):
        save_board_prints("cant-stop", {"board_layout": "none"}, "unused")


def test_without_a_stick_both_papers_go_to_the_state_directory(tmp_path):
    written = save_board_prints("cant-stop", {"board_layout": "companion"}, tmp_path, roots=(tmp_path / "media",))
    assert written == [tmp_path / "prints" / "cant-stop-companion-a4.pdf",
                       tmp_path / "prints" / "cant-stop-companion-a3.pdf"]
    for path in written:
        data = path.read_bytes()
        assert data.startswith(b"%PDF-") and data.rstrip().endswith(b"%%EOF")
    assert b"/MediaBox [0 0 595.28 841.89]" in written[0].read_bytes()  # A4 in points
    assert b"/MediaBox [0 0 841.89 1190.55]" in written[1].read_bytes()


def test_a_mounted_writable_stick_is_chosen(tmp_path, monkeypatch):
    stick = tmp_path / "media" / "pi" / "STICK"
    stick.mkdir(parents=True)
    (tmp_path / "media" / "pi" / "AAA-not-mounted").mkdir()
    monkeypatch.setattr(prints.os.path, "ismount", lambda p: os.fspath(p) == os.fspath(stick))
    assert removable_folder((tmp_path / "nothing", tmp_path / "media")) == stick
    written = save_board_prints("cant-stop", {"board_layout": "diamond"}, tmp_path / "state",
                               roots=(tmp_path / "media",))
    assert [p.parent for p in written] == [stick, stick] and not (tmp_path / "state").exists()


def test_the_store_menu_says_where_the_board_went_and_what_failed(tmp_path, monkeypatch):
    from companion.app.menu_store import StoreMenuData
    from companion.store import Store

    monkeypatch.setattr(prints, "MEDIA_ROOTS", ())
    monkeypatch.setattr(prints, "removable_folder", lambda roots=(): None)
    with Store(tmp_path / "companion.sqlite3") as store:
        data = StoreMenuData(store, tmp_path)
        message = data.save_prints("cant-stop", {"board_layout": "mountain"})
        assert message == f"Board saved for A4 and A3 printing in {tmp_path / 'prints'}"
        assert sorted(p.name for p in (tmp_path / "prints").iterdir()) == ["cant-stop-mountain-a3.pdf",
                                                                          "cant-stop-mountain-a4.pdf"]

        def full(*args):
            raise OSError(28, "No space left on device")

        monkeypatch.setattr("companion.app.menu_store.save_board_prints", full)
        assert data.save_prints("cant-stop", {"board_layout": "companion"}) == (
            "The board could not be saved: No space left on device")

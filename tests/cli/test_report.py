"""``companion report``: one archive with the versions, the self-test, the config, the logs, never the saved
games; a bad ``--output`` is named in one line (exit 2)."""

import tarfile
import zipfile

import pytest

from companion.app import report
from companion.cli import main


def fake_selftest(env):
    return "ok   camera: none found\nself-test passed\n", '{"ok": true}\n'


@pytest.fixture
def box(tmp_path, monkeypatch):
    """A box's state (store, a moved-aside store, errors.log, a calibration) and config in tmp_path."""
    state, config = tmp_path / "state", tmp_path / "config"
    state.mkdir()
    config.mkdir()
    (config / "config.toml").write_text("[display]\nfullscreen = true\n")
    (state / "companion.sqlite3").write_bytes(b"SQLite format 3\x00 saved games")
    (state / "companion.sqlite3.unusable-20250101-1").write_bytes(b"old saved games")
    (state / "errors.log").write_text("--- 2025-01-01 companion play\nTraceback: the last error\n")
    (state / "camera_picamera2.json").write_text("{}")
    monkeypatch.setenv("COMPANION_STATE_DIR", str(state))
    monkeypatch.setenv("COMPANION_CONFIG_DIR", str(config))
    monkeypatch.setattr(report, "_run_selftest_text", fake_selftest)
    return tmp_path


def members(path):
    if path.suffix == ".zip":
        with zipfile.ZipFile(path) as archive:
            return {name.split("/", 1)[1]: archive.read(name) for name in archive.namelist()}
    with tarfile.open(path) as archive:
        return {m.name.split("/", 1)[1]: archive.extractfile(m).read() for m in archive.getmembers()}


def test_report_holds_versions_selftest_config_and_logs_but_no_saved_games(box, capsys):
    out = box / "bundle.tar.gz"
    assert main(["report", "--output", str(out)]) == 0
    assert capsys.readouterr().out.strip() == str(out)
    found = members(out)
    assert {"versions.txt", "selftest.txt", "selftest.json", "config.toml", "state-files.txt",
            "logs/errors.log"} <= set(found)
    assert b"tabletop-companion: 0.1.0" in found["versions.txt"] and b"gpiozero: " in found["versions.txt"]
    assert b"python: 3." in found["versions.txt"] and b"os: " in found["versions.txt"]
    assert b"self-test passed" in found["selftest.txt"]
    assert found["config.toml"] == b"[display]\nfullscreen = true\n"
    assert b"the last error" in found["logs/errors.log"]
    assert not any("sqlite" in name for name in found)  # names are listed, contents never
    assert all(b"saved games" not in content for content in found.values())
    assert "journal.txt" not in found or b"tabletop-companion" in found["journal.txt"]


def test_report_as_zip_and_into_a_folder(box, capsys):
    assert main(["report", "--output", str(box / "bundle.zip")]) == 0
    assert "selftest.json" in members(box / "bundle.zip")
    folder = box / "reports"
    folder.mkdir()
    assert main(["report", "--output", str(folder)]) == 0
    made = list(folder.iterdir())
    assert len(made) == 1 and made[0].name.startswith("tabletop-companion-report-") and made[0].name.endswith(".tar.gz")


def test_a_missing_output_folder_is_one_line_naming_the_flag(box, capsys):
    missing = box / "no-such-folder" / "r.tar.gz"
    assert main(["report", "--output", str(missing)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--output" in err[0] and "does not exist" in err[0]
    assert not missing.parent.exists()


def test_the_journal_only_where_systemd_runs(box, tmp_path, monkeypatch):
    paths_env = {"COMPANION_STATE_DIR": str(box / "state"), "COMPANION_CONFIG_DIR": str(box / "config")}
    from companion.paths import resolve

    found = report.collect(resolve(paths_env), paths_env, fake_selftest, run_dir=tmp_path / "absent")
    assert "journal.txt" not in found
    monkeypatch.setattr(report.shutil, "which", lambda name: None)
    found = report.collect(resolve(paths_env), paths_env, fake_selftest, run_dir=tmp_path)
    assert found["journal.txt"] == b"journalctl is not installed\n"


def test_versions_line_reads_metadata():
    line = report.versions_line()
    assert line.startswith("tabletop-companion ") and ", gpiozero " in line and ", opencv " in line
    assert "os " not in line


def test_a_log_that_is_a_link_is_never_followed_and_the_archive_is_the_users_alone(box):
    secret = box / "secret"
    secret.write_text("root:the shadow file\n")
    (box / "state" / "shadow.log").symlink_to(secret)
    out = box / "bundle.tar.gz"
    assert main(["report", "--output", str(out)]) == 0
    found = members(out)
    assert found["logs/shadow.log"] == b"a link, left out\n"
    assert all(b"the shadow file" not in content for content in found.values())
    assert out.stat().st_mode & 0o777 == 0o600


def test_an_existing_output_is_refused_without_force_and_a_link_is_replaced_not_followed(box, capsys):
    target = box / "elsewhere.txt"
    target.write_text("keep me\n")
    link = box / "bundle.tar.gz"
    link.symlink_to(target)
    assert main(["report", "--output", str(link)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].endswith("the file is there already; give another name, or add --force to replace it")
    assert "--output" in err[0] and link.is_symlink()
    assert main(["report", "--output", str(link), "--force"]) == 0
    assert not link.is_symlink() and target.read_text() == "keep me\n"  # the link replaced, its target untouched
    assert "selftest.json" in members(link)


def test_an_output_that_cannot_be_written_names_the_flag(box, capsys, monkeypatch):
    def refuse(*args, **kwargs):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(report.tempfile, "mkstemp", refuse)  # as /proc refuses a new file, even to root
    assert main(["report", "--output", str(box / "r.tar.gz")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--output" in err[0] and "cannot be written (Permission denied)" in err[0]

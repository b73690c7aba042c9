"""The systemd unit: the settings the issue asks for, and `systemd-analyze verify` on a runnable copy."""

import configparser
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.paths import REPO

SYSTEMD = REPO / "systemd"
UNIT = SYSTEMD / "tabletop-companion.service"


def unit_sections():
    parser = configparser.ConfigParser(strict=False, interpolation=None)
    parser.optionxform = str  # keys are case-sensitive in systemd
    parser.read_string(UNIT.read_text())
    return parser


def test_unit_has_the_appliance_settings():
    unit = unit_sections()
    service = unit["Service"]
    assert service["Type"] == "exec"
    assert service["User"] == "companion"
    assert set(service["SupplementaryGroups"].split()) == {"gpio", "video", "render", "input"}
    assert (service["StateDirectory"], service["ConfigurationDirectory"]) == ("companion", "companion")
    assert service["WorkingDirectory"] == "/var/lib/companion"  # writable: lgpio's pipes
    assert service["Restart"] == "on-failure" and float(service["RestartSec"]) >= 1
    environment = dict(item.split("=", 1) for item in service["Environment"].split())
    assert environment["SDL_VIDEODRIVER"] == "kmsdrm" and environment["GPIOZERO_PIN_FACTORY"] == "lgpio"
    assert service["ExecStart"] == "/opt/tabletop-companion/venv/bin/companion menu"
    assert (unit["Unit"]["StartLimitIntervalSec"], unit["Unit"]["StartLimitBurst"]) == ("60", "5")
    assert unit["Install"]["WantedBy"] == "multi-user.target"


def test_unit_has_no_network():
    """Nothing in the box uses the network (issue #42): all IP traffic is denied."""
    assert unit_sections()["Service"]["IPAddressDeny"] == "any"


def test_polkit_rule_only_grants_power_off_and_reboot_to_the_service_user():
    rule = (SYSTEMD / "50-tabletop-companion.rules").read_text()
    actions = {line.split('"')[1] for line in rule.splitlines() if "action.id ==" in line}
    assert actions == {"org.freedesktop.login1." + a for a in (
        "power-off", "power-off-multiple-sessions", "power-off-ignore-inhibit", "reboot", "reboot-multiple-sessions")}
    assert 'subject.user == "companion"' in rule


def test_unit_verifies(tmp_path):
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("systemd-analyze is not installed (apt-get install systemd to run this check)")
    # The venv path does not exist here: point ExecStart at a binary that does.
    text = UNIT.read_text().replace("/opt/tabletop-companion/venv/bin/companion", sys.executable)
    copy = tmp_path / UNIT.name
    copy.write_text(text)
    done = subprocess.run([analyze, "verify", str(copy)], capture_output=True, text=True, timeout=60)
    ours = [line for line in (done.stdout + done.stderr).splitlines() if UNIT.name in line]
    assert done.returncode == 0 and ours == [], done.stdout + done.stderr


def test_verify_catches_a_broken_unit(tmp_path):
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("systemd-analyze is not installed")
    if Path("/opt/tabletop-companion/venv/bin/companion").exists():
        pytest.skip("the box is installed on this machine: ExecStart exists")
    copy = tmp_path / UNIT.name
    copy.write_text(UNIT.read_text())  # ExecStart's venv does not exist on this machine
    done = subprocess.run([analyze, "verify", str(copy)], capture_output=True, text=True, timeout=60)
    assert done.returncode != 0 and "/opt/tabletop-companion/venv/bin/companion" in done.stderr


def test_the_sandbox_rates_4_or_lower(tmp_path):
    """`systemd-analyze security` rated the unit 8.4 "EXPOSED" (issue 52); the box needs no more than its
    devices, its state directory and D-Bus (the unit's comment says which)."""
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("systemd-analyze is not installed (apt-get install systemd to run this check)")
    copy = tmp_path / UNIT.name
    copy.write_text(UNIT.read_text().replace("/opt/tabletop-companion/venv/bin/companion", sys.executable))
    done = subprocess.run([analyze, "security", "--offline=true", "--no-pager", str(copy)], capture_output=True,
                          text=True, timeout=60)
    if "--offline" in done.stderr:
        pytest.skip("this systemd-analyze has no --offline (systemd 250 or newer)")
    lines = [line for line in done.stdout.splitlines() if "Overall exposure level" in line]
    assert lines, done.stdout + done.stderr
    score = float(lines[0].split(":")[1].split()[0])
    assert score <= 4.0, lines[0]
    service = unit_sections()["Service"]
    assert service["ProtectSystem"] == "strict" and service["DevicePolicy"] == "closed" and service["UMask"] == "0077"
    assert service["RestrictAddressFamilies"].split() == ["AF_UNIX", "AF_NETLINK"]

"""The systemd unit: `systemd-analyze verify` clean and security exposure at most 2.5."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
UNIT = ROOT / "systemd" / "draughtsboard.service"
EXEC = "/opt/draughtsboard/venv/bin/draughtsboard"


def installed_copy(tmp_path: Path, unit_text: str) -> Path:
    """The unit as installed, with ExecStart pointing at this checkout's console script.

    verify checks that ExecStart exists; install.sh puts it under /opt, which tests do not touch.
    """
    binary = str(Path(sys.executable).parent / "draughtsboard")
    assert Path(binary).exists(), "pip install -e . first"
    path = tmp_path / "draughtsboard.service"
    path.write_text(unit_text.replace(EXEC, binary))
    return path


def verify(unit: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["systemd-analyze", "verify", str(unit)],
        capture_output=True, text=True, timeout=60, check=False,
    )


def test_systemd_analyze_is_installed() -> None:
    assert shutil.which("systemd-analyze"), "install the systemd package (.ci/test does)"


def test_unit_verifies_without_any_message(tmp_path: Path) -> None:
    result = verify(installed_copy(tmp_path, UNIT.read_text()))
    assert result.returncode == 0
    assert result.stderr == ""


def test_verify_would_catch_a_bad_key(tmp_path: Path) -> None:
    broken = UNIT.read_text().replace("[Service]\n", "[Service]\nRestartt=always\n")
    result = verify(installed_copy(tmp_path, broken))
    assert "Restartt" in result.stderr


def test_security_exposure_at_most_2_5() -> None:
    result = subprocess.run(
        ["systemd-analyze", "security", "--offline=true", str(UNIT)],
        capture_output=True, text=True, timeout=60, check=False,
    )
    match = re.search(r"Overall exposure level for \S+: ([0-9.]+)", result.stdout + result.stderr)
    assert match, result.stdout + result.stderr
    exposure = float(match.group(1))
    print(f"security exposure: {exposure}")
    assert exposure <= 2.5


@pytest.mark.parametrize(
    "line",
    [
        "Type=notify", "WatchdogSec=10s", "Restart=on-failure", "User=draughtsboard",
        "SupplementaryGroups=gpio dialout spi i2c", "StateDirectory=draughtsboard",
        "NoNewPrivileges=yes", "ProtectSystem=strict", "ProtectHome=yes", "PrivateTmp=yes",
        "DevicePolicy=closed", "DeviceAllow=char-gpiochip rw", "DeviceAllow=char-ttyACM rw",
        "DeviceAllow=char-spidev rw", "DeviceAllow=char-i2c rw", "After=redis-server.service",
    ],
)
def test_unit_has_required_settings(line: str) -> None:
    lines = UNIT.read_text().splitlines()
    assert line in lines
    assert "PrivateDevices=yes" not in lines


def test_install_script_is_valid_and_installs_shipped_files() -> None:
    script = ROOT / "systemd" / "install.sh"
    assert subprocess.run(["bash", "-n", str(script)], check=False).returncode == 0
    text = script.read_text()
    for shipped in re.findall(r'"\$src/([^"]+)"', text):
        assert (ROOT / shipped).exists(), shipped
    assert "set -euo pipefail" in text
    # Re-runnable: every creating step is guarded or idempotent by nature.
    assert "if ! id draughtsboard" in text
    assert "[ -x \"$prefix/venv/bin/python\" ] ||" in text
    assert "[ ! -f /etc/draughtsboard/draughtsboard.toml ]" in text


def test_redis_snippet_makes_every_write_durable() -> None:
    lines = (ROOT / "systemd" / "redis-draughtsboard.conf").read_text().splitlines()
    assert "appendonly yes" in lines
    assert "appendfsync always" in lines


def test_udev_rule_names_the_board() -> None:
    rules = (ROOT / "systemd" / "99-draughtsboard.rules").read_text()
    active = [line for line in rules.splitlines() if line and not line.startswith("#")]
    assert active
    assert all('SYMLINK+="draughtsboard"' in line and 'GROUP="dialout"' in line
               for line in active)

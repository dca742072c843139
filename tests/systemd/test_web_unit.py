"""The web app's unit (systemd/draughtsboard-web.service): verifies clean, exposure at most 2.5,
no devices, and installed by install.sh without being enabled."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.systemd.test_unit import ROOT, verify

UNIT = ROOT / "systemd" / "draughtsboard-web.service"
EXEC = "/opt/draughtsboard/venv/bin/draughtsboard"


def _installed(tmp_path: Path) -> Path:
    import sys

    binary = str(Path(sys.executable).parent / "draughtsboard")
    path = tmp_path / "draughtsboard-web.service"
    path.write_text(UNIT.read_text().replace(EXEC, binary))
    return path


def test_web_unit_verifies_without_any_message(tmp_path: Path) -> None:
    result = verify(_installed(tmp_path))
    assert result.returncode == 0
    assert result.stderr == ""


# Its exposure is checked with the board's unit's (tests/systemd/test_unit.py).


@pytest.mark.parametrize("line", [
    "User=draughtsboard", "NoNewPrivileges=yes", "ProtectSystem=strict", "PrivateDevices=yes",
    "DevicePolicy=closed", "CapabilityBoundingSet=", "IPAddressDeny=any",
    "After=redis-server.service network.target", "StateDirectory=draughtsboard",
    f"ExecStart={EXEC} web --config /etc/draughtsboard/draughtsboard.toml",
])
def test_web_unit_has_required_settings(line: str) -> None:
    assert line in UNIT.read_text().splitlines()


def test_web_unit_never_reaches_beyond_the_lan() -> None:
    allowed = [line for line in UNIT.read_text().splitlines()
               if line.startswith("IPAddressAllow=")]
    assert allowed and "any" not in " ".join(allowed)


def test_install_script_installs_the_web_unit_but_does_not_enable_it() -> None:
    text = (ROOT / "systemd" / "install.sh").read_text()
    assert '"$src/systemd/draughtsboard-web.service"' in text
    assert "/etc/systemd/system/draughtsboard-web.service" in text
    assert not re.search(r"^\s*systemctl (enable|start|restart)\b.*draughtsboard-web", text,
                         re.M)
    assert '"${build}[pi,web]"' in text

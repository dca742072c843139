"""The systemd unit: `systemd-analyze verify` clean and security exposure at most 2.5."""

from __future__ import annotations

import os
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


@pytest.mark.parametrize("unit", [UNIT, UNIT.with_name("draughtsboard-web.service")],
                         ids=lambda path: path.name)
def test_security_exposure_at_most_2_5(unit: Path) -> None:
    result = subprocess.run(
        ["systemd-analyze", "security", "--offline=true", str(unit)],
        capture_output=True, text=True, timeout=60, check=False,
    )
    match = re.search(r"Overall exposure level for \S+: ([0-9.]+)", result.stdout + result.stderr)
    assert match, result.stdout + result.stderr
    exposure = float(match.group(1))
    print(f"{unit.name} security exposure: {exposure}")
    assert exposure <= 2.5


@pytest.mark.parametrize(
    "line",
    [
        "Type=notify", "WatchdogSec=10s", "Restart=on-failure", "User=draughtsboard",
        "StateDirectory=draughtsboard",
        "NoNewPrivileges=yes", "ProtectSystem=strict", "ProtectHome=yes", "PrivateTmp=yes",
        "DevicePolicy=closed", "After=redis-server.service", "IPAddressDeny=any",
        "WorkingDirectory=/var/lib/draughtsboard",
    ],
)
def test_unit_has_required_settings(line: str) -> None:
    lines = UNIT.read_text().splitlines()
    assert line in lines
    assert "PrivateDevices=yes" not in lines


def test_unit_hides_nothing_gpiozero_reads() -> None:
    # ProcSubset=pid hides /proc/cpuinfo and /proc/device-tree: no pin factory loads then.
    assert not [line for line in UNIT.read_text().splitlines()
                if line.startswith("ProcSubset=") and line != "ProcSubset=all"]


def test_install_script_is_valid_and_installs_shipped_files() -> None:
    script = ROOT / "systemd" / "install.sh"
    assert subprocess.run(["bash", "-n", str(script)], check=False).returncode == 0
    text = script.read_text()
    for shipped in re.findall(r'"\$src/([^"]+)"', text):
        assert (ROOT / shipped).exists(), shipped
    assert "set -euo pipefail" in text
    # Re-runnable: every creating step is guarded or idempotent by nature.
    assert "if ! id draughtsboard" in text
    assert 'if [ ! -f "$config" ]' in text
    # Nothing compiled: the libraries without wheels come from Debian, pins from constraints.
    assert "--system-site-packages" in text
    assert 'lock="$src/systemd/constraints.txt"' in text
    assert 'export PIP_CONSTRAINT="$lock"' in text
    assert '--no-deps -r "$lock"' in text
    # A compiler is used where present (the compiled engine), never installed.
    packages = re.search(r"^packages=\((.*)\)$", text, re.MULTILINE)
    assert packages is not None
    assert "python3-dev" not in packages.group(1) and "gcc" not in packages.group(1)
    # A minimal root has no /etc/udev/rules.d.
    assert "/etc/udev/rules.d" in re.search(r"install -d -m 0755 .*", text).group(0)


def test_install_script_restarts_redis_only_when_its_config_changed() -> None:
    text = (ROOT / "systemd" / "install.sh").read_text()
    restart = text.index("systemctl restart redis-server")
    guard = text.rindex('if [ "$redis_changed" = yes ]', 0, restart)
    assert text.count("systemctl restart redis-server") == 1
    assert "fi" not in text[guard:restart]


def test_constraints_pin_every_package_exactly() -> None:
    lines = [line for line in (ROOT / "systemd" / "constraints.txt").read_text().splitlines()
             if line.strip() and not line.startswith("#")]
    assert lines
    assert all(re.fullmatch(r"[A-Za-z0-9_.\-]+==[0-9][^ ;]*( ?;.*)?", line) for line in lines)
    names = {line.split("==")[0].lower() for line in lines}
    # From Debian instead (no wheel for armhf / no wheel at all): pinning them would build them.
    assert not names & {"spidev", "pillow", "rpi.gpio"}
    assert {"gpiozero", "lgpio", "luma-led-matrix", "cbor2", "setuptools"} <= {
        name.replace(".", "-").replace("_", "-") for name in names}


def test_lock_pins_every_direct_dependency_of_the_installed_extras() -> None:
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    wanted = [*project["dependencies"], *project["optional-dependencies"]["pi"],
              *project["optional-dependencies"]["web"]]
    names = {re.split(r"[<>=!~; \[]", requirement, maxsplit=1)[0].lower().replace("_", "-")
             .replace(".", "-") for requirement in wanted}
    locked = {line.split("==")[0].lower().replace("_", "-").replace(".", "-")
              for line in (ROOT / "systemd" / "constraints.txt").read_text().splitlines()
              if line.strip() and not line.startswith("#")}
    from_debian = {"spidev", "pillow"}
    assert names - from_debian <= locked, names - from_debian - locked


def test_lock_keeps_the_platform_markers_of_pyproject() -> None:
    # The lock is installed without resolving: a package pyproject asks for only where PyPI has
    # wheels (hiredis: not on armv7l) would be built from source on the other platforms.
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    wanted = [*project["dependencies"], *(r for extra in project["optional-dependencies"].values()
                                          for r in extra)]
    marked = {re.split(r"[<>=!~; \[]", r, maxsplit=1)[0].lower(): r.split(";", 1)[1]
              for r in wanted if ";" in r and "platform_machine" in r}
    lock = {line.split("==")[0].lower(): line
            for line in (ROOT / "systemd" / "constraints.txt").read_text().splitlines()
            if line.strip() and not line.startswith("#")}
    for name, marker in marked.items():
        if name in lock and name != "lgpio":  # lgpio has an x86_64 wheel too
            machines = set(re.findall(r"platform_machine == .([\w]+).", marker))
            assert machines == set(re.findall(r"platform_machine == .([\w]+).", lock[name])), name


def test_pi_extra_does_not_ask_for_rpi_gpio() -> None:
    import tomllib

    extra = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
        "optional-dependencies"]["pi"]
    assert not [requirement for requirement in extra if "rpi" in requirement.lower()]
    assert [requirement for requirement in extra if requirement.startswith("lgpio")]


def test_redis_snippet_makes_every_write_durable() -> None:
    lines = (ROOT / "systemd" / "redis-draughtsboard.conf").read_text().splitlines()
    assert "appendonly yes" in lines
    assert "appendfsync always" in lines


def test_udev_rule_creates_the_default_serial_port() -> None:
    from firmware_host.config.schema import options_by_path

    default = options_by_path()["serial.port"].default
    assert default.startswith("/dev/")
    rules = (ROOT / "systemd" / "99-draughtsboard.rules").read_text()
    tty = [line for line in rules.splitlines()
           if line.startswith('SUBSYSTEM=="tty"')]
    assert tty
    link = default.removeprefix("/dev/")
    assert all(f'SYMLINK+="{link}"' in line and 'GROUP="dialout"' in line for line in tty)


def test_udev_rule_gives_gpio_and_spi_nodes_to_their_groups() -> None:
    # Plain Debian (unlike Raspberry Pi OS) leaves /dev/gpiochip* and /dev/spidev* root-only.
    rules = (ROOT / "systemd" / "99-draughtsboard.rules").read_text()
    assert 'SUBSYSTEM=="gpio", KERNEL=="gpiochip*", GROUP="gpio", MODE="0660"' in rules
    assert 'SUBSYSTEM=="spidev", GROUP="spi", MODE="0660"' in rules


def test_install_writes_the_services_paths(tmp_path: Path) -> None:
    """The defaults are a user's own directories; the config install.sh writes names the
    service's, in its StateDirectory (the units' StateDirectory=draughtsboard)."""
    from firmware_host.config import Config

    text = (ROOT / "systemd" / "install.sh").read_text()
    command = re.search(r"^  sed -e .*?> \"\$config\"$", text, re.MULTILINE | re.DOTALL)
    assert command is not None
    config = tmp_path / "draughtsboard.toml"
    subprocess.run(["bash", "-c", command.group(0)], check=True, timeout=30,
                   env={**os.environ, "src": str(ROOT), "config": str(config)})
    written = Config.load(config)
    assert written["store.url"] == "redis://127.0.0.1:6379/0"
    assert written["store.games_dir"] == "/var/lib/draughtsboard/games"
    assert written["store.spool_dir"] == "/var/lib/draughtsboard/spool"
    assert written["web.token_file"] == "/var/lib/draughtsboard/web-token"
    assert written["coach.mistakes_dir"] == "/var/lib/draughtsboard/mistakes"
    for unit in ("draughtsboard.service", "draughtsboard-web.service"):
        assert "StateDirectory=draughtsboard\n" in (ROOT / "systemd" / unit).read_text()


def test_the_pages_cjk_font_is_the_one_the_pi_install_ships() -> None:
    """Issue 39: Korean rendered as empty boxes on a machine without a CJK font."""
    css = (ROOT / "firmware_host" / "web" / "static" / "style.css").read_text()
    body = re.search(r"\nbody \{[^}]*\}", css)
    assert body is not None and '"WenQuanYi Micro Hei"' in body.group(0)
    assert body.group(0).index("WenQuanYi") < body.group(0).index("sans-serif;")
    text = (ROOT / "systemd" / "install.sh").read_text()
    assert "packages+=(fonts-wqy-microhei)" in text

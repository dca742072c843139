"""The emulation scripts (run by hand before a release: they take minutes) parse and agree with
what they drive."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

EMULATE = Path(__file__).resolve().parents[2] / "systemd" / "emulate"


@pytest.mark.parametrize("script", ["pi-install.sh", "sandbox-nspawn.sh", "nspawn-inside.sh"])
def test_bash_scripts_parse(script: str) -> None:
    path = EMULATE / script
    assert subprocess.run(["bash", "-n", str(path)], check=False).returncode == 0
    assert "set -" in path.read_text()


def test_systemctl_stand_in_parses() -> None:
    assert subprocess.run(["sh", "-n", str(EMULATE / "systemctl-stand-in")],
                          check=False).returncode == 0


def test_scripts_keep_their_caches_out_of_the_repository() -> None:
    for script in ("pi-install.sh", "sandbox-nspawn.sh"):
        text = (EMULATE / script).read_text()
        assert '${DRAUGHTSBOARD_EMULATE_CACHE:-/var/tmp/draughtsboard-emulate}' in text


def test_nspawn_check_enforces_bpf_policies() -> None:
    # Without these, systemd inside the container silently skips DevicePolicy= and IPAddressDeny=.
    text = (EMULATE / "sandbox-nspawn.sh").read_text()
    for needed in ("SYSTEMD_SECCOMP=0", "SYSTEMD_NSPAWN_UNIFIED_HIERARCHY=1",
                   "--capability=CAP_BPF,CAP_NET_ADMIN", "--boot"):
        assert needed in text


def test_probe_opens_nodes_of_every_class_the_unit_allows_and_one_it_refuses() -> None:
    from board_io.devices import unit_device_classes

    inside = (EMULATE / "nspawn-inside.sh").read_text()
    for device_class in unit_device_classes():
        major = "\"$gpiochip\"" if device_class.major is None else str(device_class.major)
        assert f" c {major} " in inside, device_class.name
    # The Pi's own UART (ttyAMA, major 204): a class no backend opens, so the policy refuses it.
    assert 204 not in {c.major for c in unit_device_classes()}
    assert " c 204 " in inside and '"/dev/ttyAMA0"] == "EPERM"' in inside


def test_pi_install_bench_runs_engine_speed_on_the_installed_venv() -> None:
    text = (EMULATE / "pi-install.sh").read_text()
    assert "--bench)" in text and "[--bench]" in text  # parsed and in the usage
    assert "/usr/src/draughtsboard/bench/engine_speed.py" in text
    assert "--compiled-python /opt/draughtsboard/venv/bin/python" in text
    # The footprint, from a copy of bench/ outside the source (the venv's engine imported).
    assert "/var/tmp/footprint/bench/board_hand.py --footprint" in text
    # A wide board searched by the copies the build wrote (engine._pure), compiled install.
    assert 'Searcher("canadian"' in text and '"engine._pure.search"' in text
    bench = EMULATE.parents[1] / "bench" / "engine_speed.py"
    usage = subprocess.run([sys.executable, str(bench), "--help"], capture_output=True, text=True,
                           check=True).stdout
    assert "--compiled-python" in usage


@pytest.mark.parametrize("argv", [["sparc"], ["i386"], ["--bench", "i386"],
                                  ["--footprint", "i386", "sparc"]])
def test_pi_install_refuses_an_architecture_before_it_installs_anything(
        argv: list[str], tmp_path: Path) -> None:
    """An architecture the run cannot take is refused at once (exit 2, one line), before any
    package is installed or anything mounted; i386 only with --footprint (install.sh cannot
    run there: no lgpio for it)."""
    if os.geteuid() != 0:  # the script wants root before it reads its arguments
        if os.environ.get("CI"):  # CI runs as root: no skipping there
            pytest.fail("not root")
        pytest.skip("pi-install.sh runs as root only")
    done = subprocess.run(["bash", str(EMULATE / "pi-install.sh"), *argv], capture_output=True,
                          text=True, check=False, timeout=30,
                          env={**os.environ, "DRAUGHTSBOARD_EMULATE_CACHE": str(tmp_path)})
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "unknown architecture" in done.stderr
    assert "i386 with --footprint" in done.stderr
    assert list(tmp_path.iterdir()) == []  # nothing made

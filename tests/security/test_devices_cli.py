"""Paired devices from a terminal: ``draughtsboard web --devices`` lists them, ``--revoke ID``
revokes one, and the running web app (the same file) stops accepting its cookie."""

from __future__ import annotations

from pathlib import Path

import pytest

from firmware_host.cli import main
from firmware_host.errors import ExitCode
from firmware_host.web.paired import PairedDevices, devices_file


def test_list_and_revoke_from_the_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                      ) -> None:
    token = tmp_path / "web-token"
    config = tmp_path / "draughtsboard.toml"
    config.write_text(f'[web]\ntoken_file = "{token}"\n')
    running = PairedDevices(devices_file(token))  # what the web app holds
    ann = running.pair("phone of Ann", now=1_795_977_005.0)
    bob = running.pair("phone of Bob", now=1_795_977_105.0)
    assert main(["web", "--config", str(config), "--devices"]) == 0
    out = capsys.readouterr().out.splitlines()
    ann_id, bob_id = ann.split(".")[0], bob.split(".")[0]
    assert [line.split()[0] for line in out] == [ann_id, bob_id]
    assert "phone of Ann" in out[0] and "2026-11-29" in out[0]
    assert main(["web", "--config", str(config), "--revoke", ann_id]) == 0
    assert running.check(ann) is None and running.check(bob) == bob_id
    assert "revoked device" in capsys.readouterr().out
    assert main(["web", "--config", str(config), "--revoke", ann_id]) == ExitCode.BAD_INPUT
    said = capsys.readouterr()
    assert said.out == ""
    assert said.err.splitlines() == [
        f"draughtsboard web: no paired device {ann_id!r} (see --devices)"]
    assert oct(devices_file(token).stat().st_mode & 0o777) == "0o600"

"""``draughtsboard doctor``: PASS/FAIL lines or JSON, exit 0 only when every check passes."""

from __future__ import annotations

import doctest
import importlib
import json
from pathlib import Path

import pytest

from firmware_host import cli
from firmware_host.doctor import runner
from tests.firmware_host.doctor.helpers import FakeMachine, with_
from tests.redis_server import RedisServer


def good_config(tmp_path: Path, url: str) -> Path:
    path = tmp_path / "board.toml"
    path.write_text(f'[store]\nurl = "{url}"\ngames_dir = "{tmp_path}/games"\n'
                    f'spool_dir = "{tmp_path}/spool"\n')
    return path


@pytest.mark.redis
def test_every_check_passing_exits_0(tmp_path: Path, redis_server: RedisServer,
                                     monkeypatch: pytest.MonkeyPatch,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    machine = FakeMachine(tmp_path / "machine")
    monkeypatch.setattr(runner, "System", machine.system)
    assert cli.main(["doctor", "--config", str(good_config(tmp_path, redis_server.url))]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[-1].startswith("all ") and "FAIL" not in out


@pytest.mark.redis
def test_one_failing_check_exits_1_and_json_says_which(
        tmp_path: Path, redis_server: RedisServer, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    machine = FakeMachine(tmp_path / "machine")
    monkeypatch.setattr(runner, "System", lambda: with_(machine.system(), ntp=lambda: "no"))
    config = good_config(tmp_path, redis_server.url)
    assert cli.main(["doctor", "--config", str(config), "--json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["ok"] is False
    failed = [check for check in report["checks"] if not check["ok"]]
    assert [check["name"] for check in failed] == ["the clock is set"]
    assert failed[0]["fix"]


def test_text_output_shows_the_fix_under_a_failure(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["doctor", "--config", str(tmp_path / "missing.toml")]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("FAIL  the config is valid: ")
    assert lines[1].startswith("      fix: ")


@pytest.mark.parametrize("name", [
    "firmware_host.doctor.report", "firmware_host.doctor.network", "firmware_host.doctor.config",
    "firmware_host.doctor.system", "firmware_host.doctor.runner", "firmware_host.store.lease",
    "board_io.devices", "board_io.pins"])
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0


def test_a_russian_doctor_finds_and_fixes_in_russian(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    machine = FakeMachine(tmp_path / "machine")
    monkeypatch.setattr(runner, "System", lambda: with_(machine.system(), ntp=lambda: "no"))
    assert cli.main(["doctor", "--config", str(tmp_path / "missing.toml"),
                     "--language", "ru"]) == 1
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[0].startswith("FAIL  конфигурация верна: ")
    assert lines[1].startswith("      исправление: создайте его: это делает sudo systemd/")
    assert "FAIL  часы выставлены: не синхронизированы по NTP (timedatectl)" in lines
    assert "подключите Pi к сети" in out
    assert lines[-1].startswith("не пройдено проверок: ")
    assert "the clock is set" not in out


def test_a_russian_doctor_in_json_keeps_its_shape(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["doctor", "--config", str(tmp_path / "missing.toml"), "--json",
                     "--language", "ru"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert set(report["checks"][0]) == {"name", "ok", "detail", "fix"}
    assert report["checks"][0]["name"] == "конфигурация верна"


def test_a_language_the_doctor_does_not_speak_is_one_message(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["doctor", "--config", str(tmp_path / "missing.toml"),
                     "--language", "xx"]) == 2
    out = capsys.readouterr().out
    assert out.count("\n") == 1 and "ru" in out


def test_the_device_and_network_checks_speak_russian_too() -> None:
    from firmware_host.doctor.network import check_unit_allows_redis
    from firmware_host.i18n import translator

    check = check_unit_allows_redis("redis://localhost:6379/0").in_language(translator("ru"))
    assert check.name == "юнит пускает службу к Redis"
    assert check.detail == "store.url — на этой машине (IPAddressAllow=localhost)"


def test_a_memory_store_is_a_russian_finding_with_its_fix(tmp_path: Path) -> None:
    from firmware_host.doctor.redis import check_redis
    from firmware_host.i18n import translator

    machine = FakeMachine(tmp_path / "machine")
    [check] = check_redis("memory", machine.system())
    russian = check.in_language(translator("ru"))
    assert russian.name == "Redis доступен" and not russian.ok
    assert russian.detail == "store.url = 'memory': при перезапуске все партии теряются"
    assert russian.fix == 'задайте в конфигурации store.url = "redis://127.0.0.1:6379/0"'

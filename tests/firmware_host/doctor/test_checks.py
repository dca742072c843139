"""Each doctor check passes on a good machine and fails, with its fix, on a bad one."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import redis as redis_py

from board_io.devices import I2C, SPI
from board_io.errors import BoardIOError, MissingExtraError
from firmware_host.doctor.accounts import check_user
from firmware_host.doctor.clock import check_clock
from firmware_host.doctor.config import check_config
from firmware_host.doctor.devices import check_bus_enabled, check_devices
from firmware_host.doctor.pins import check_pin_factory
from firmware_host.doctor.redis import check_redis
from firmware_host.doctor.storage import check_free_space
from firmware_host.doctor.system import System
from tests.firmware_host.doctor.helpers import FakeMachine, with_
from tests.redis_server import RedisServer

SERIAL = {"board.sensors": "serial", "board.leds": "serial", "board.buttons": "serial",
          "serial.port": "/dev/serial/by-id/draughtsboard"}
SPI_GPIO = {"board.sensors": "shift-register", "board.leds": "ws2812-spi",
            "board.buttons": "gpio"}


@pytest.fixture
def machine(tmp_path: Path) -> FakeMachine:
    return FakeMachine(tmp_path)


# --- the config -------------------------------------------------------------------------------

def test_a_valid_config_passes(tmp_path: Path) -> None:
    path = tmp_path / "board.toml"
    path.write_text('[board]\nsensors = "sim"\n')
    check, config = check_config(path)
    assert check.ok and config["board.sensors"] == "sim"


def test_an_invalid_config_fails_naming_the_key_and_the_others_run_on_defaults(
        tmp_path: Path) -> None:
    path = tmp_path / "board.toml"
    path.write_text('[board]\nsensorz = "sim"\n')
    check, config = check_config(path)
    assert not check.ok
    assert "board.sensorz" in check.detail and check.fix
    assert config["store.url"] == "memory"


# --- user and groups --------------------------------------------------------------------------

def test_user_in_every_device_group_passes(machine: FakeMachine) -> None:
    assert check_user(machine.system()).ok


def test_missing_user_fails_and_says_run_install(machine: FakeMachine) -> None:
    machine.user_groups = None
    check = check_user(machine.system())
    assert not check.ok and "install.sh" in check.fix


def test_missing_group_fails(machine: FakeMachine) -> None:
    machine.groups.discard("spi")
    check = check_user(machine.system())
    assert not check.ok and check.detail == "no group spi"


def test_user_outside_a_group_fails_with_the_usermod_line(machine: FakeMachine) -> None:
    machine.user_groups = frozenset({"draughtsboard", "gpio"})
    check = check_user(machine.system())
    assert not check.ok
    assert check.fix == "sudo usermod -a -G dialout,spi draughtsboard"


# --- device nodes -----------------------------------------------------------------------------

def test_a_sim_board_opens_no_device(machine: FakeMachine) -> None:
    (check,) = check_devices({"board.sensors": "sim"}, machine.system())
    assert check.ok


def test_every_configured_node_present_and_openable_passes(machine: FakeMachine) -> None:
    machine.add("gpiochip0", 254)
    machine.add("gpiochip4", 254)
    machine.add("spidev0.0", 153, group="spi")
    checks = check_devices(SPI_GPIO, machine.system())
    assert all(check.ok for check in checks), checks
    assert [c.name.split()[0] for c in checks] == [
        "/dev/gpiochip0", "/dev/gpiochip4", "/dev/spidev0.0", "/dev/spidev0.0",
        "/dev/gpiochip0", "/dev/gpiochip4"]


def test_missing_spi_node_fails_with_how_to_enable_spi(machine: FakeMachine) -> None:
    machine.add("gpiochip0", 254)
    checks = check_devices({"board.leds": "ws2812-spi"}, machine.system())
    (check,) = checks
    assert not check.ok and check.detail == "missing"
    assert "raspi-config nonint do_spi 0" in check.fix


def test_no_gpiochip_at_all_fails(machine: FakeMachine) -> None:
    (check,) = check_devices({"board.buttons": "gpio"}, machine.system())
    assert not check.ok and check.detail == "none found"


def test_node_only_root_may_open_fails_with_the_udev_fix(machine: FakeMachine) -> None:
    machine.add("gpiochip0", 254, group="root", mode=0o600)
    (check,) = check_devices({"board.sensors": "gpio-matrix"}, machine.system())
    assert not check.ok
    assert "cannot open it" in check.detail and "99-draughtsboard.rules" in check.fix


def test_serial_port_of_the_wrong_class_fails(machine: FakeMachine) -> None:
    # /dev/ttyS0 (major 4, "tty") is not a class the unit's DeviceAllow= lets through.
    machine.add("serial/by-id/draughtsboard", 4, group="dialout", target="/dev/ttyS0")
    checks = check_devices(SERIAL, machine.system())
    assert len(checks) == 3 and not any(check.ok for check in checks)
    assert "/dev/ttyS0 is tty (major 4)" in checks[0].detail


def test_serial_port_of_a_usb_cdc_device_passes(machine: FakeMachine) -> None:
    machine.add("serial/by-id/draughtsboard", 166, group="dialout", target="/dev/ttyACM0")
    checks = check_devices(SERIAL, machine.system())
    assert all(check.ok for check in checks)
    assert "ttyACM0" in checks[0].detail


def test_missing_serial_port_fails_with_the_udev_hint(machine: FakeMachine) -> None:
    checks = check_devices(SERIAL, machine.system())
    assert not checks[0].ok and "99-draughtsboard.rules" in checks[0].fix


# --- SPI and I2C enabled ----------------------------------------------------------------------

def test_spi_not_needed_passes(machine: FakeMachine) -> None:
    assert check_bus_enabled({"board.sensors": "sim"}, machine.system(), SPI).ok


def test_spi_needed_and_enabled_passes(machine: FakeMachine) -> None:
    assert check_bus_enabled({"board.leds": "max7219"}, machine.system(), SPI).ok


def test_spi_needed_and_disabled_fails(machine: FakeMachine) -> None:
    (machine.proc / "devices").write_text("Character devices:\n  1 mem\n254 gpiochip\n")
    check = check_bus_enabled({"board.leds": "max7219"}, machine.system(), SPI)
    assert not check.ok and "do_spi" in check.fix


def test_i2c_is_needed_by_no_backend_today(machine: FakeMachine) -> None:
    check = check_bus_enabled(SPI_GPIO, machine.system(), I2C)
    assert check.ok and check.detail == "not needed by the configured backends"


# --- the pin factory --------------------------------------------------------------------------

def test_pin_factory_not_needed_without_gpio(machine: FakeMachine) -> None:
    assert check_pin_factory({"board.leds": "ws2812-spi"}, machine.system()).ok


def test_pin_factory_that_loads_passes(machine: FakeMachine) -> None:
    from gpiozero.pins.mock import MockFactory

    system = with_(machine.system(), pin_factory=lambda backend: MockFactory())
    check = check_pin_factory({"board.sensors": "gpio-matrix"}, system)
    assert check.ok and check.detail == "MockFactory (for gpio-matrix)"


def test_missing_lgpio_fails_naming_the_extra(machine: FakeMachine) -> None:
    def missing(backend: str) -> object:
        raise MissingExtraError(backend, "lgpio", "pi")

    check = check_pin_factory({"board.buttons": "gpio"}, with_(machine.system(),
                                                               pin_factory=missing))
    assert not check.ok and "draughtsboard[pi]" in check.detail


def test_lgpio_that_cannot_work_fails(machine: FakeMachine) -> None:
    def broken(backend: str) -> object:
        raise BoardIOError("cannot drive the GPIO pins through lgpio: no /dev/gpiochip0 "
                           "(run `draughtsboard doctor`)")

    check = check_pin_factory({"board.buttons": "gpio"}, with_(machine.system(),
                                                               pin_factory=broken))
    assert not check.ok and "gpiochip" in check.fix
    assert "doctor" not in check.detail  # it is the doctor speaking


def test_the_real_pin_factory_loader_reports_one_line_off_a_pi(
        machine: FakeMachine, monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    import gpiozero.pins.native as native
    from gpiozero import Device

    monkeypatch.setattr(Device, "pin_factory", None)
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    for name in ("lgpio", "RPi", "RPi.GPIO", "pigpio"):
        monkeypatch.setitem(sys.modules, name, None)

    def refuse(*args: object, **kwargs: object) -> None:
        raise OSError("no native GPIO here")

    monkeypatch.setattr(native.NativeFactory, "__init__", refuse)
    check = check_pin_factory({"board.sensors": "shift-register"}, System())
    assert not check.ok
    assert check.detail == ("the 'shift-register' backend needs the 'lgpio' package: "
                            "pip install 'draughtsboard[pi]'")


# --- Redis ------------------------------------------------------------------------------------

@pytest.fixture
def fresh_redis(own_redis_server: RedisServer) -> Iterator[RedisServer]:
    yield own_redis_server


@pytest.mark.redis
def test_reachable_redis_with_aof_always_passes(redis_server: RedisServer) -> None:
    checks = check_redis(redis_server.url, System(), "doctor-free-id")
    assert [c.ok for c in checks] == [True, True, True, True]
    assert checks[1].detail == "appendonly yes, appendfsync always"
    assert checks[2].detail == "board.id 'doctor-free-id' is free"
    assert "Redis is on this machine only" in checks[3].detail  # the default user, local


@pytest.mark.redis
@pytest.mark.parametrize(("machine", "ok"), [("this-machine", True), ("other-machine", False)])
def test_board_id_held_by_another_machine_fails(fresh_redis: RedisServer, machine: str,
                                                ok: bool) -> None:
    from firmware_host.store.lease import BoardLease

    client = redis_py.Redis.from_url(fresh_redis.url, decode_responses=True)
    BoardLease(client, "hall-3", machine=machine, host="pi-hall-3", pid=1).acquire()
    system = with_(System(), machine=lambda: "this-machine")
    check = check_redis(fresh_redis.url, system, "hall-3")[2]
    assert check.ok is ok
    if not ok:
        assert "held by host pi-hall-3" in check.detail and "board.id" in check.fix


@pytest.mark.redis
def test_redis_without_fsync_on_every_write_fails(fresh_redis: RedisServer) -> None:
    client = redis_py.Redis.from_url(fresh_redis.url)
    client.config_set("appendfsync", "everysec")
    checks = check_redis(fresh_redis.url, System())
    assert checks[0].ok and not checks[1].ok
    assert checks[1].detail == "appendonly yes, appendfsync everysec"
    assert "redis-draughtsboard.conf" in checks[1].fix


@pytest.mark.redis
def test_redis_without_aof_fails(fresh_redis: RedisServer) -> None:
    redis_py.Redis.from_url(fresh_redis.url).config_set("appendonly", "no")
    assert not check_redis(fresh_redis.url, System())[1].ok


@pytest.mark.redis
def test_unreachable_redis_fails_with_how_to_start_it(fresh_redis: RedisServer) -> None:
    fresh_redis.stop()
    (check,) = check_redis(fresh_redis.url, System())
    assert not check.ok and "redis-server" in check.fix


@pytest.mark.redis
def test_wrong_password_fails_without_printing_it(tmp_path: Path) -> None:
    server = RedisServer(tmp_path / "redis", password="s3cret")
    server.start()
    try:
        url = server.url.replace("s3cret", "wrong")
        (check,) = check_redis(url, System())
    finally:
        server.stop()
    assert not check.ok and "wrong" not in check.detail and "***" in check.detail


def test_memory_store_fails(machine: FakeMachine) -> None:
    (check,) = check_redis("memory", machine.system())
    assert not check.ok and "redis://127.0.0.1:6379/0" in check.fix


# --- free space -------------------------------------------------------------------------------

def test_enough_space_passes_and_a_missing_directory_uses_its_parent(
        machine: FakeMachine, tmp_path: Path) -> None:
    seen: list[Path] = []

    def free(path: Path) -> int:
        seen.append(path)
        return 10**10

    check = check_free_space("games", str(tmp_path / "not" / "yet"),
                             with_(machine.system(), disk_free=free))
    assert check.ok and seen == [tmp_path]


def test_full_disk_fails(machine: FakeMachine, tmp_path: Path) -> None:
    check = check_free_space("the spool", str(tmp_path),
                             with_(machine.system(), disk_free=lambda path: 1024))
    assert not check.ok and "needs 50 MB" in check.detail


# --- the clock --------------------------------------------------------------------------------

def test_timesyncd_mark_passes(machine: FakeMachine) -> None:
    mark = machine.run / "systemd" / "timesync" / "synchronized"
    mark.parent.mkdir(parents=True)
    mark.touch()
    assert check_clock(with_(machine.system(), ntp=lambda: "no")).ok


def test_timedatectl_yes_passes(machine: FakeMachine) -> None:
    assert check_clock(machine.system()).ok


@pytest.mark.parametrize("answer", ["no", None])
def test_unsynchronised_clock_fails(machine: FakeMachine, answer: str | None) -> None:
    check = check_clock(with_(machine.system(), ntp=lambda: answer))
    assert not check.ok and "timedatectl set-ntp true" in check.fix


def test_a_missing_config_is_fixed_by_a_command_that_exists(tmp_path: Path) -> None:
    # Issue 39: the fix said "edit /etc/draughtsboard/draughtsboard.toml", a file that does
    # not exist.
    import shlex
    import subprocess

    path = tmp_path / "draughtsboard.toml"
    check, _ = check_config(path)
    assert not check.ok and f"edit {path}" not in check.fix
    command = check.fix.split("; or ", 1)[1].split(" | ", 1)[0]
    words = shlex.split(command)
    assert Path(words[0]).is_file()
    written = subprocess.run(words, capture_output=True, text=True, check=True, timeout=60)
    path.write_text(written.stdout)
    check, config = check_config(path)
    assert check.ok and config["store.url"] == "memory"

"""All the doctor's checks, in the order a board builder fixes them.

Example:
    >>> from firmware_host.doctor.report import exit_code
    >>> checks = run_checks("/nonexistent.toml", System(redis=_unreachable, ntp=lambda: None))
    >>> [check.name for check in checks][:2], exit_code(checks)
    (['the config is valid', 'the service user and its groups'], 1)
"""

from __future__ import annotations

from pathlib import Path

from board_io.devices import I2C, SPI
from firmware_host.config.schema import BOARD_ID, STORE_GAMES_DIR, STORE_SPOOL_DIR, STORE_URL
from firmware_host.doctor.accounts import check_user
from firmware_host.doctor.clock import check_clock
from firmware_host.doctor.config import check_config
from firmware_host.doctor.devices import check_bus_enabled, check_devices
from firmware_host.doctor.network import check_unit_allows_redis, resolve
from firmware_host.doctor.pins import check_pin_factory
from firmware_host.doctor.redis import check_redis
from firmware_host.doctor.report import Check
from firmware_host.doctor.storage import check_free_space
from firmware_host.doctor.system import RedisProbe, System

__all__ = ["run_checks"]


def _unreachable(url: str) -> RedisProbe:
    raise ConnectionError("connection refused")


def run_checks(config_path: str | Path, system: System | None = None) -> list[Check]:
    """Every check: config, user, devices, SPI/I2C, pins, Redis, space, clock.

    An invalid config fails its own check; the others then run with the defaults.
    """
    system = system or System()
    config_check, config = check_config(config_path)
    url = config[STORE_URL]
    return [
        config_check,
        check_user(system),
        *check_devices(config, system),
        check_bus_enabled(config, system, SPI),
        check_bus_enabled(config, system, I2C),
        check_pin_factory(config, system),
        *check_redis(url, system, config[BOARD_ID]),
        check_unit_allows_redis(url, dropin=system.unit_dropin,
                                resolver=system.resolve or resolve),
        check_free_space("games", config[STORE_GAMES_DIR], system),
        check_free_space("the spool", config[STORE_SPOOL_DIR], system),
        check_clock(system),
    ]

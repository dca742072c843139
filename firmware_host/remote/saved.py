"""The settings chosen at the remote outlive a restart: kept in ``draughtsboard:<board>:settings``.

When a new game starts with settings from the web app (the phone's settings:
:mod:`firmware_host.terms.settings`), the board writes them to that Redis hash; at the next
start :func:`with_saved_settings` lays them over the configuration file, so a board at home
keeps the game its players chose. Each saved value is read again by its setting (a variant of
another board is ignored, with a warning); without Redis at start, the configuration file
alone counts.

>>> overrides({"variant": "brazilian", "level": "3", "mode": "chess"}, "russian")
{'game.variant': 'brazilian', 'engine.level': 3}
>>> overrides({"time_control": "3+2"}, "russian"), overrides({"time_control": "x"}, "russian")
({'clock.time_control': '3+2'}, {})
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping

import redis
from redis.typing import EncodableT, FieldT

from engine.errors import UnknownVariantError
from engine.variant import find_variant
from firmware_host.config import Config
from firmware_host.config.schema import BOARD_ID, STORE_URL, WEB_CONTROL
from firmware_host.recognition.layout import check_variant
from firmware_host.store.connect import sync_client
from firmware_host.store.keys import BoardKeys
from firmware_host.terms.settings import GAME_VARIANT, phone_settings, setting

__all__ = ["overrides", "saver", "settings_key", "with_saved_settings"]

log = logging.getLogger(__name__)


def settings_key(board_id: str) -> str:
    """The board's saved settings: ``draughtsboard:<board>:settings``."""
    return BoardKeys(board_id).settings


def _fits(variant: str, chosen: str) -> bool:
    """Whether ``chosen`` can be played on a board set up for ``variant``."""
    try:
        return check_variant(find_variant(variant), chosen) is None
    except UnknownVariantError:
        return False


def overrides(saved: Mapping[str, str], variant: str) -> dict[str, object]:
    """The config overrides (by the option's path) of saved settings that still hold on a
    board set up for ``variant``; the others are left out."""
    out: dict[str, object] = {}
    for phone in phone_settings().values():
        text = saved.get(phone.name)
        if text is None or phone.problem(text) is not None:
            continue  # reported as ignored
        value = phone.parse(text)
        if phone.option is GAME_VARIANT and not _fits(variant, value):
            continue
        out[phone.option.path] = value
    return out


def with_saved_settings(config: Config) -> Config:
    """``config`` with the board's saved settings laid over it (unchanged without Redis, with
    ``web.control`` off, or when nothing was saved)."""
    url = config[STORE_URL]
    if url == "memory" or not config[WEB_CONTROL]:
        return config
    board_id = config[BOARD_ID]
    try:
        client = sync_client(url, socket_timeout=1, socket_connect_timeout=1)
        try:
            raw = client.hgetall(settings_key(board_id))
        finally:
            client.close()
    except (redis.RedisError, ValueError) as exc:
        log.info("saved settings not read (%s): the configuration file's", type(exc).__name__)
        return config
    saved = {_text(k): _text(v) for k, v in dict(raw).items()}
    if not saved:
        return config
    chosen = overrides(saved, config[GAME_VARIANT])
    ignored = sorted(k for k in saved
                     if (phone := setting(k)) is None or phone.option.path not in chosen)
    if ignored:
        log.warning("saved settings ignored (this board cannot take them): %s",
                    ", ".join(f"{_shown(k)} {_shown(saved[k])}" for k in ignored[:10]))
    if chosen:
        log.info("settings from the web app: %s",
                 ", ".join(f"{k} = {v}" for k, v in chosen.items()))
    return config.with_overrides(chosen)


def saver(client: redis.Redis, board_id: str) -> Callable[[Mapping[str, str]], None]:
    """What writes the settings a new game started with (a Redis failure is logged)."""

    def save(applied: Mapping[str, str]) -> None:
        try:
            fields: dict[FieldT, EncodableT] = {k: v for k, v in applied.items()}
            client.hset(settings_key(board_id), mapping=fields)
        except redis.RedisError as exc:
            log.warning("settings not saved (%s): they last until the service stops",
                        type(exc).__name__)

    return save


def _text(value: object) -> str:
    """A saved field as text (bytes not UTF-8 are replaced: such a value fits no setting)."""
    return value.decode(errors="replace") if isinstance(value, bytes) else str(value)


def _shown(text: str) -> str:
    """``text`` as a log shows it: 40 characters at most, one printable line."""
    return "".join(c if c.isprintable() else "?" for c in text[:40])

"""The remote-Redis drop-in: written from store.url, checked by the doctor."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from firmware_host.doctor.network import (
    allowed_addresses,
    check_unit_allows_redis,
    dropin_text,
    nameservers,
)


@pytest.mark.parametrize("url", ["memory", "redis://127.0.0.1:6379/0", "redis://localhost/0",
                                 "redis://[::1]:6379/0", "unix:///run/redis/redis.sock"])
def test_a_local_store_needs_no_dropin(url: str) -> None:
    assert dropin_text(url) == ""


def test_a_remote_address_is_allowed() -> None:
    text = dropin_text("redis://:pw@192.168.1.20:6379/0")
    assert "[Service]\nIPAddressAllow=192.168.1.20\n" in text
    assert "pw" not in text


def test_a_remote_name_is_resolved_and_its_name_servers_allowed() -> None:
    addresses = allowed_addresses("rediss://hall.lan/0", resolver={"hall.lan": ["10.0.0.5"]}.get,
                                  servers=["10.0.0.1", "10.0.0.5"])
    assert addresses == ["10.0.0.5", "10.0.0.1"]


def test_an_unresolvable_name_is_an_error() -> None:
    with pytest.raises(ValueError, match="does not resolve"):
        allowed_addresses("redis://nowhere.invalid/0", resolver=lambda host: [])


def test_nameservers_skip_the_local_resolver(tmp_path: Path) -> None:
    conf = tmp_path / "resolv.conf"
    conf.write_text("# x\nnameserver 127.0.0.53\nnameserver 192.168.1.1\nsearch lan\n")
    assert nameservers(conf) == ["192.168.1.1"]


def test_doctor_fails_until_the_dropin_allows_the_host(tmp_path: Path) -> None:
    dropin = tmp_path / "remote-redis.conf"
    url = "redis://192.168.1.20:6379/0"
    check = check_unit_allows_redis(url, dropin=dropin)
    assert not check.ok and "install.sh" in check.fix
    dropin.write_text(dropin_text(url))
    assert check_unit_allows_redis(url, dropin=dropin).ok


def test_doctor_passes_for_a_local_redis(tmp_path: Path) -> None:
    assert check_unit_allows_redis("redis://127.0.0.1/0", dropin=tmp_path / "none").ok


def test_install_sh_entry_point_prints_the_dropin(tmp_path: Path) -> None:
    config = tmp_path / "board.toml"
    config.write_text('[store]\nurl = "redis://10.1.2.3:6379/0"\n')
    result = subprocess.run([sys.executable, "-m", "firmware_host.doctor.network", "--dropin",
                             str(config)], capture_output=True, text=True, timeout=60,
                            check=False)
    assert result.returncode == 0, result.stderr
    assert result.stdout.endswith("[Service]\nIPAddressAllow=10.1.2.3\n")
    config.write_text('[store]\nurl = "redis://127.0.0.1:6379/0"\n')
    local = subprocess.run([sys.executable, "-m", "firmware_host.doctor.network", "--dropin",
                            str(config)], capture_output=True, text=True, timeout=60,
                           check=False)
    assert (local.returncode, local.stdout) == (0, "")


def test_install_sh_entry_point_fails_on_a_bad_config(tmp_path: Path) -> None:
    config = tmp_path / "board.toml"
    config.write_text('[store]\nurl = "ftp://x"\n')
    result = subprocess.run([sys.executable, "-m", "firmware_host.doctor.network", "--dropin",
                             str(config)], capture_output=True, text=True, timeout=60,
                            check=False)
    assert result.returncode == 1 and "store.url" in result.stderr


def test_every_sentinel_host_is_allowed(tmp_path: Path) -> None:
    # A sentinel URL names only the sentinels; the Redis servers run beside them.
    url = "redis+sentinel://board-b1:pw@10.0.0.1:26379,10.0.0.2,127.0.0.1:26379/hall/0"
    assert allowed_addresses(url) == ["10.0.0.1", "10.0.0.2"]
    dropin = tmp_path / "remote-redis.conf"
    assert not check_unit_allows_redis(url, dropin=dropin).ok
    dropin.write_text(dropin_text(url))
    assert "IPAddressAllow=10.0.0.1 10.0.0.2\n" in dropin.read_text()
    assert check_unit_allows_redis(url, dropin=dropin).ok

#!/usr/bin/env bash
# Installs draughtsboard as a system service on Raspberry Pi OS (Bookworm or later).
# Idempotent: re-run it after `git pull` to update. Run from a checkout: sudo systemd/install.sh
#   - a system user `draughtsboard` in the gpio, dialout, spi and i2c groups
#   - a venv in /opt/draughtsboard/venv with the package and its [pi] extra
#   - redis-server with AOF and appendfsync always (systemd/redis-draughtsboard.conf)
#   - /etc/draughtsboard/draughtsboard.toml (kept if present), the unit and the udev rule
set -euo pipefail

if [ "$(id -u)" -ne 0 ]; then
  echo "install.sh: run as root (sudo $0)" >&2
  exit 1
fi
src="$(cd "$(dirname "$0")/.." && pwd)"
prefix=/opt/draughtsboard

apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv python3-dev redis-server

for group in gpio dialout spi i2c; do
  getent group "$group" >/dev/null || groupadd --system "$group"
done
if ! id draughtsboard >/dev/null 2>&1; then
  useradd --system --home-dir /var/lib/draughtsboard --shell /usr/sbin/nologin draughtsboard
fi
usermod -a -G gpio,dialout,spi,i2c draughtsboard

install -d -m 0755 "$prefix"
[ -x "$prefix/venv/bin/python" ] || python3 -m venv "$prefix/venv"
"$prefix/venv/bin/pip" install -q --upgrade pip
"$prefix/venv/bin/pip" install -q "$src[pi]"
install -m 0644 "$src/README.md" "$prefix/README.md"

install -d -m 0755 /etc/redis
install -m 0644 "$src/systemd/redis-draughtsboard.conf" /etc/redis/redis-draughtsboard.conf
if ! grep -qx 'include /etc/redis/redis-draughtsboard.conf' /etc/redis/redis.conf; then
  echo 'include /etc/redis/redis-draughtsboard.conf' >> /etc/redis/redis.conf
fi
systemctl enable --now redis-server
systemctl restart redis-server

install -d -m 0755 /etc/draughtsboard
if [ ! -f /etc/draughtsboard/draughtsboard.toml ]; then
  sed -e 's#^url = "memory"#url = "redis://127.0.0.1:6379/0"#' \
    "$src/systemd/draughtsboard.toml" > /etc/draughtsboard/draughtsboard.toml
  chmod 0640 /etc/draughtsboard/draughtsboard.toml
  chgrp draughtsboard /etc/draughtsboard/draughtsboard.toml
  echo "install.sh: wrote /etc/draughtsboard/draughtsboard.toml: set your board's backends there"
fi

install -m 0644 "$src/systemd/draughtsboard.service" /etc/systemd/system/draughtsboard.service
install -m 0644 "$src/systemd/99-draughtsboard.rules" /etc/udev/rules.d/99-draughtsboard.rules
udevadm control --reload-rules && udevadm trigger --subsystem-match=tty || true
systemctl daemon-reload
systemctl enable draughtsboard.service
systemctl restart draughtsboard.service
echo "install.sh: done. Follow the board with: journalctl -u draughtsboard -f"

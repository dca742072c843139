#!/usr/bin/env bash
# Installs draughtsboard as a system service on Raspberry Pi OS Lite or Debian bookworm (arm64,
# armhf; amd64 works too). Run from a checkout: sudo systemd/install.sh [--no-compile]
# Re-runnable: run it again after `git pull` to update; every step says what it did.
#
# Where each dependency comes from:
#   Debian packages  python3-spidev (SPI: ws2812-spi, max7219, shift-register on SPI) and
#                    python3-pil (Pillow, for luma.led_matrix: PyPI has no armhf wheel), used
#                    through a venv created with --system-site-packages
#   PyPI wheels      everything else, exactly as locked in systemd/constraints.txt: gpiozero,
#                    lgpio (gpiozero 2's pin driver, also on the Pi 5), pyserial, redis,
#                    luma.led_matrix, cbor2 (the pure-Python 5.x: 6.x needs Rust on armhf), ...
#   compiled here    the engine's hot path (setup.py, mypyc; bench/engine_speed.py measures
#                    it: about 3.5 times the pure engine's speed). The C compiler and the
#                    Python headers come from Debian (gcc, libc6-dev, libpython3-dev: the
#                    minimum; python3-dev adds nothing the build uses). The build is kept in
#                    /var/cache/draughtsboard/engine and reused until the engine changes.
#                    --no-compile (or DRAUGHTSBOARD_COMPILE=0) installs no compiler and the pure
#                    engine; the compiler (mypy) is pinned in systemd/build-constraints.txt and
#                    used only for the build. If compiling fails the pure engine is installed
#                    and the script says so (the build's log is kept).
#   not installed    RPi.GPIO: nothing imports it; gpiozero 2 drives the pins through lgpio and
#                    RPi.GPIO does not work on a Pi 5. rpi_ws281x (luma.led_matrix's NeoPixel
#                    driver on armv7l, source only): the ws2812-spi backend uses spidev.
# What it sets up:
#   - a system user `draughtsboard` in the gpio, dialout and spi groups (those of the devices
#     the backends open: board_io/devices.py)
#   - /opt/draughtsboard/venv with the package and its [pi] and [web] extras
#   - the web app's unit draughtsboard-web.service, installed but not enabled
#   - redis-server with AOF and appendfsync always (restarted only when that config changes);
#     on a hall's Redis hosts also its LAN address, ACL users, replica and sentinel
#     (DRAUGHTSBOARD_REDIS_* and DRAUGHTSBOARD_SENTINEL: systemd/redis-hall.sh)
#   - /etc/draughtsboard/draughtsboard.toml (kept if present), the unit, the udev rule, and for
#     a Redis on another machine the unit drop-in that lets the service reach it
set -euo pipefail

compile=yes
case "${DRAUGHTSBOARD_COMPILE:-}" in 0|no|false|pure) compile=no ;; esac
for arg in "$@"; do
  case "$arg" in
    --no-compile) compile=no ;;
    -h|--help) echo "usage: sudo $0 [--no-compile]"; exit 0 ;;
    *) echo "install.sh: unknown option $arg (usage: sudo $0 [--no-compile])" >&2; exit 2 ;;
  esac
done

if [ "$(id -u)" -ne 0 ]; then
  echo "install.sh: run as root (sudo $0)" >&2
  exit 1
fi
src="$(cd "$(dirname "$0")/.." && pwd)"
prefix=/opt/draughtsboard
venv="$prefix/venv"
config=/etc/draughtsboard/draughtsboard.toml
unit=/etc/systemd/system/draughtsboard.service
dropin_dir=/etc/systemd/system/draughtsboard.service.d
dropin="$dropin_dir/remote-redis.conf"
rules=/etc/udev/rules.d/99-draughtsboard.rules
export DEBIAN_FRONTEND=noninteractive

say() { echo "install.sh: $*"; }

# install_if_changed SOURCE TARGET MODE: copies SOURCE to TARGET when it differs; returns 0 when it
# wrote the file, 1 when TARGET was already the same.
install_if_changed() {
  if [ -f "$2" ] && cmp -s "$1" "$2"; then
    return 1
  fi
  install -D -m "$3" "$1" "$2"
  return 0
}

# 1. Debian packages (only the missing ones; no apt-get update when nothing is missing).
packages=(ca-certificates python3 python3-venv python3-spidev python3-pil redis-server)
# Japanese and Korean on a screen the Pi drives (a hall display, the web app in its browser):
# the smallest font that covers both (5 MB; fonts-noto-cjk is 91 MB), named in the pages' CSS.
packages+=(fonts-wqy-microhei)
# The compiled engine's toolchain (gcc only recommends libc6-dev; recommends are not installed).
[ "$compile" = no ] || packages+=(gcc libc6-dev libpython3-dev)
missing=()
for package in "${packages[@]}"; do
  status="$(dpkg-query -W -f='${Status}' "$package" 2>/dev/null || true)"
  [ "$status" = "install ok installed" ] || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
  say "apt: installing ${missing[*]}"
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
else
  say "apt: ${packages[*]} already installed"
fi

# 2. The service user and the groups that own the devices.
for group in gpio dialout spi i2c; do
  if ! getent group "$group" >/dev/null; then
    groupadd --system "$group"
    say "created group $group"
  fi
done
if ! id draughtsboard >/dev/null 2>&1; then
  useradd --system --home-dir /var/lib/draughtsboard --shell /usr/sbin/nologin \
    --user-group draughtsboard
  say "created system user draughtsboard"
fi
if [ "$(id -nG draughtsboard | tr ' ' '\n' | grep -cxE 'gpio|dialout|spi|i2c')" -ne 4 ]; then
  usermod -a -G gpio,dialout,spi,i2c draughtsboard
  say "added draughtsboard to the groups gpio, dialout, spi, i2c"
fi

# 3. Directories (a minimal root has no /etc/udev/rules.d, and the state directory is otherwise
#    made only by systemd's StateDirectory= at the first start).
install -d -m 0755 "$prefix" /etc/draughtsboard /etc/systemd/system /etc/udev/rules.d /etc/redis
install -d -m 0750 -o draughtsboard -g draughtsboard /var/lib/draughtsboard

# 4. The venv and the package, at the pinned versions. systemd/constraints.txt is a lock: its
#    packages are installed as listed, without resolving (--no-deps): luma.led_matrix asks for
#    rpi_ws281x on armv7l, a source-only NeoPixel driver this project does not use (ws2812-spi
#    drives NeoPixels through spidev); it would need a compiler. PIP_CONSTRAINT pins the setuptools
#    of the package's isolated build too.
lock="$src/systemd/constraints.txt"
if [ -x "$venv/bin/python" ] && grep -qx 'include-system-site-packages = true' "$venv/pyvenv.cfg"
then
  say "venv: $venv exists"
else
  python3 -m venv --clear --system-site-packages "$venv"
  say "venv: created $venv (with the system site packages, for python3-spidev and python3-pil)"
fi
build="$(mktemp -d)"
trap 'rm -rf "$build"' EXIT
# Build from a copy so that the checkout stays free of root-owned build files.
tar -C "$src" --exclude=./.git --exclude=./.venv --exclude='*.egg-info' --exclude=__pycache__ \
  --exclude=./build -cf - . | tar -C "$build" -xf -
before="$("$venv/bin/python" -m pip freeze --local 2>/dev/null | sort -u)"
export PIP_CONSTRAINT="$lock"
"$venv/bin/python" -m pip install -q --no-warn-script-location --no-deps -r "$lock"
# The engine compiled (setup.py; its build fetches the pinned mypy into pip's isolated build
# environment only, never into the venv), or reused from the build cache when the engine is the
# one compiled before. A failed compilation installs the pure engine and keeps the log.
engine_cache=/var/cache/draughtsboard/engine
build_log=/var/log/draughtsboard-engine-build.log
export PIP_CONSTRAINT="$lock $src/systemd/build-constraints.txt"
export DRAUGHTSBOARD_BUILD_CACHE="$engine_cache"
rm -f "$engine_cache/last-build.json"
engine_note=""
if [ "$compile" = yes ]; then
  say "engine: building it compiled (minutes on a Pi the first time; a re-run reuses the" \
    "build until the engine changes; log: $build_log)"
  if ! DRAUGHTSBOARD_COMPILE=require "$venv/bin/python" -m pip install -q \
      --no-warn-script-location --no-deps "${build}[pi,web]" > "$build_log" 2>&1; then
    engine_note="compiling failed (log: $build_log)"
    if [ "${DRAUGHTSBOARD_COMPILE:-}" = require ]; then
      say "engine: $engine_note; DRAUGHTSBOARD_COMPILE=require: stopping" >&2
      exit 1
    fi
    DRAUGHTSBOARD_COMPILE=0 "$venv/bin/python" -m pip install -q --no-warn-script-location \
      --no-deps "${build}[pi,web]"
  fi
else
  DRAUGHTSBOARD_COMPILE=0 "$venv/bin/python" -m pip install -q --no-warn-script-location \
    --no-deps "${build}[pi,web]"
  engine_note="--no-compile"
fi
unset PIP_CONSTRAINT DRAUGHTSBOARD_BUILD_CACHE
engine_build="$("$venv/bin/python" -c 'from engine.compiled import build; print(build())')"
if [ "$engine_build" = compiled ]; then
  how="$(python3 - "$engine_cache/last-build.json" <<'PY' 2>/dev/null || true
import json, sys
report = json.load(open(sys.argv[1]))
if report["build"] == "reused":
    print("this engine's build reused from " + sys.argv[1].rsplit("/", 1)[0])
else:
    print(f"built in {report['seconds']:.0f} s")
PY
)"
  say "engine: compiled (mypyc${how:+; $how})"
elif [ "$engine_note" = --no-compile ]; then
  say "engine: pure Python (--no-compile; the compiled engine is about 3.5 times faster:" \
    "re-run without --no-compile)"
else
  say "engine: $engine_build Python: ${engine_note:-the compiled build did not load}" >&2
fi
after="$("$venv/bin/python" -m pip freeze --local 2>/dev/null | sort -u)"
changes="$(comm -13 <(echo "$before") <(echo "$after") | { grep -v '^draughtsboard' || true; } \
  | tr '\n' ' ')"
# Every requirement met (the package's with its [pi] and [web] extras, and theirs) but the one
# left out on purpose, else the lock misses a package.
problems="$("$venv/bin/python" - <<'PY'
import importlib.metadata as m
from pip._vendor.packaging.requirements import Requirement
for extra in ("pi", "web"):
    for text in m.requires("draughtsboard") or []:
        req = Requirement(text)
        if req.marker is None or req.marker.evaluate({"extra": extra}):
            try:
                found = m.version(req.name)
            except m.PackageNotFoundError:
                print(f"draughtsboard[{extra}] requires {req}, which is not installed")
                continue
            if not req.specifier.contains(found, prereleases=True):
                print(f"draughtsboard[{extra}] requires {req}, but {found} is installed")
PY
)" || problems="the requirement check itself failed"
problems+="$({ "$venv/bin/python" -m pip check 2>&1 || true; } \
  | { grep -v -i -e '^luma.led.matrix .* requires rpi.ws281x' -e '^No broken requirements' || true; })"
if [ -n "$problems" ]; then
  say "systemd/constraints.txt misses what the package needs (add it, pinned): $problems" >&2
  exit 1
fi
version="$("$venv/bin/python" -c 'import importlib.metadata as m; print(m.version("draughtsboard"))')"
say "venv: installed draughtsboard $version with the [pi] and [web] extras;" \
  "${changes:+new or changed: }${changes:-no library changed}"
install -m 0644 "$src/README.md" "$prefix/README.md"

# 5. Redis: every write durable; restarted only when its configuration changed.
redis_changed=no
if install_if_changed "$src/systemd/redis-draughtsboard.conf" /etc/redis/redis-draughtsboard.conf 0644
then
  redis_changed=yes
fi
if ! grep -qx 'include /etc/redis/redis-draughtsboard.conf' /etc/redis/redis.conf; then
  echo 'include /etc/redis/redis-draughtsboard.conf' >> /etc/redis/redis.conf
  redis_changed=yes
fi
# A hall's Redis host (its LAN address, ACL users, replica, sentinel): docs/high-availability.md.
if [ -n "${DRAUGHTSBOARD_REDIS_BIND:-}${DRAUGHTSBOARD_REDIS_ACL:-}${DRAUGHTSBOARD_REDIS_REPLICAOF:-}${DRAUGHTSBOARD_SENTINEL:-}" ]
then
  # shellcheck source=systemd/redis-hall.sh
  . "$src/systemd/redis-hall.sh"
fi
systemctl enable --now redis-server >/dev/null 2>&1 || systemctl enable --now redis-server
if [ "$redis_changed" = yes ]; then
  systemctl restart redis-server
  say "redis: configuration changed (appendonly yes, appendfsync always): restarted redis-server"
else
  say "redis: configuration unchanged: redis-server left running"
fi

# 6. The configuration (never overwritten).
if [ ! -f "$config" ]; then
  # The service's files in its StateDirectory (the defaults are a user's own directories).
  sed -e 's#^url = "memory"#url = "redis://127.0.0.1:6379/0"#' \
    -e 's#^\# games_dir = <.*>#games_dir = "/var/lib/draughtsboard/games"#' \
    -e 's#^\# spool_dir = <.*>#spool_dir = "/var/lib/draughtsboard/spool"#' \
    -e 's#^\# token_file = <.*>#token_file = "/var/lib/draughtsboard/web-token"#' \
    -e 's#^\# mistakes_dir = <.*>#mistakes_dir = "/var/lib/draughtsboard/mistakes"#' \
    "$src/systemd/draughtsboard.toml" > "$config"
  chmod 0640 "$config"
  chgrp draughtsboard "$config"
  say "wrote $config: set your board's backends there"
else
  say "kept $config"
fi

# 7. The unit, its remote-Redis drop-in and the udev rule.
daemon_reload=no
if install_if_changed "$src/systemd/draughtsboard.service" "$unit" 0644; then
  daemon_reload=yes
  say "installed $unit"
fi
if ! dropin_text="$("$venv/bin/python" -m firmware_host.doctor.network --dropin "$config")"; then
  say "cannot read store.url from $config: fix it (draughtsboard doctor says how) and re-run"
  exit 1
fi
if [ -n "$dropin_text" ]; then
  install -d -m 0755 "$dropin_dir"
  printf '%s\n' "$dropin_text" > "$build/remote-redis.conf"
  if install_if_changed "$build/remote-redis.conf" "$dropin" 0644; then
    daemon_reload=yes
    say "store.url is on another machine: wrote $dropin ($(grep '^IPAddressAllow' "$dropin"))"
  fi
elif [ -f "$dropin" ]; then
  rm -f "$dropin"
  daemon_reload=yes
  say "store.url is local: removed $dropin"
fi
if install_if_changed "$src/systemd/99-draughtsboard.rules" "$rules" 0644; then
  say "installed $rules (the microcontroller appears as /dev/serial/by-id/draughtsboard)"
  if command -v udevadm >/dev/null && [ -S /run/udev/control ]; then
    udevadm control --reload-rules && udevadm trigger --subsystem-match=tty
  else
    say "udev is not running here: the rule applies from the next boot"
  fi
fi
# 7b. The web app's unit (draughtsboard web): installed, never enabled here. Turn it on with
#     systemctl enable --now draughtsboard-web (it listens on web.listen, localhost by default).
if install_if_changed "$src/systemd/draughtsboard-web.service" \
    /etc/systemd/system/draughtsboard-web.service 0644; then
  daemon_reload=yes
  say "installed draughtsboard-web.service (off: systemctl enable --now draughtsboard-web)"
fi
if [ "$daemon_reload" = yes ]; then
  systemctl daemon-reload
fi
systemctl enable draughtsboard.service >/dev/null 2>&1 || systemctl enable draughtsboard.service
systemctl restart draughtsboard.service
say "restarted draughtsboard.service"
say "done. Check the board: sudo -u draughtsboard $venv/bin/draughtsboard doctor --config $config"
say "follow the games: journalctl -u draughtsboard -f"

#!/usr/bin/env bash
# Proves systemd/install.sh without a Raspberry Pi: builds a fresh Debian bookworm root of the
# Pi's architectures (debootstrap --variant=minbase: less than Raspberry Pi OS Lite has, so what
# works here works there), runs install.sh inside it under qemu-user-static, runs it a second
# time (re-runnable: nothing changes), then `draughtsboard doctor` and `draughtsboard demo` as the
# draughtsboard user, and imports the [pi] extra's hardware libraries.
#
# Usage: sudo systemd/emulate/pi-install.sh [--bench] [arm64] [armhf]        (default: both)
#   --bench   then runs bench/engine_speed.py in the root as the draughtsboard user: the installed
#             venv's engine (compiled, else the run fails) beside the pure one, under qemu (log:
#             $DRAUGHTSBOARD_EMULATE_CACHE/ARCH/engine-speed.log; add minutes per architecture).
#             Under qemu the nodes/s are not a Pi's; the ratio compiled/pure is what carries over.
#             Then bench/board_hand.py --footprint (log: .../ARCH/footprint.log): the engine
#             process's start-up and the memory of the service's and the engine's processes
#             through a level-10 game. Under qemu-user a process's resident size is the
#             emulator's, its translated code included: more than the Pi's.
#        sudo systemd/emulate/pi-install.sh --footprint [i386] [amd64] [armhf] [arm64]
#   --footprint  only the package, compiled (no [pi] extra, no install.sh), and
#             bench/board_hand.py --footprint in the root: in an i386 root, which this machine
#             runs natively, the resident sizes of the 32-bit Pi OS (pointers and Python objects
#             of armhf's size) without qemu's; amd64 stands for arm64 (docs/raspberry-pi.md).
# Takes minutes per architecture. Caches (the debootstrapped base, downloaded .debs and wheels)
# live in $DRAUGHTSBOARD_EMULATE_CACHE (default /var/tmp/draughtsboard-emulate); each run starts
# from a fresh copy of the base. The mirror is the first Debian one in /etc/apt/sources.list*
# (override with DEBIAN_MIRROR).
#
# What differs from a real Pi, and why that is fine:
#   - the root runs no systemd: a `systemctl` stand-in (emulate/systemctl-stand-in) starts
#     redis-server itself and only logs the other calls (the unit under real systemd is proven by
#     systemd/emulate/sandbox-nspawn.sh);
#   - no time synchronisation runs in the root, so doctor's clock check fails here, as it should;
#   - pip may go through a TLS-intercepting proxy on the build machine: the host's CA bundle is
#     handed to pip (PIP_CERT) for the emulation only.
set -euo pipefail

if [ "$(id -u)" -ne 0 ]; then
  echo "pi-install.sh: run as root" >&2
  exit 1
fi
here="$(cd "$(dirname "$0")" && pwd)"
src="$(cd "$here/../.." && pwd)"
cache="${DRAUGHTSBOARD_EMULATE_CACHE:-/var/tmp/draughtsboard-emulate}"
bench=no
arches=()
for arg in "$@"; do
  case "$arg" in
    --bench) bench=yes ;;
    --footprint) bench=footprint ;;
    *) arches+=("$arg") ;;
  esac
done
[ ${#arches[@]} -gt 0 ] || arches=(arm64 armhf)
for arch in "${arches[@]}"; do  # (checked before anything is installed or mounted)
  case "$bench:$arch" in
    *:arm64|*:armhf|*:amd64|footprint:i386) ;;
    *) echo "pi-install.sh: unknown architecture $arch (arm64, armhf; i386 with --footprint)" >&2
       exit 2 ;;
  esac
done

log() { echo "pi-install: $*"; }

mirror="${DEBIAN_MIRROR:-}"
if [ -z "$mirror" ]; then
  mirror="$(grep -hoE '(https?://[^ ]+/debian)/?( |$)' /etc/apt/sources.list \
    /etc/apt/sources.list.d/*.sources /etc/apt/sources.list.d/*.list 2>/dev/null | head -n 1 \
    | tr -d ' ' || true)"
  mirror="${mirror%/}"
  [ -n "$mirror" ] || mirror=http://deb.debian.org/debian
fi

need=()
command -v debootstrap >/dev/null || need+=(debootstrap)
[ -e /usr/libexec/qemu-binfmt/aarch64-binfmt-P ] || [ -x /usr/bin/qemu-aarch64-static ] \
  || need+=(qemu-user-static)
command -v update-binfmts >/dev/null || need+=(binfmt-support)
if [ ${#need[@]} -gt 0 ]; then
  log "installing ${need[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
fi
[ -e /proc/sys/fs/binfmt_misc/register ] \
  || mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc
update-binfmts --enable qemu-aarch64 >/dev/null 2>&1 || true
update-binfmts --enable qemu-arm >/dev/null 2>&1 || true

# The roots share this machine's network: their redis-server needs 127.0.0.1:6379 free.
if (exec 3<>/dev/tcp/127.0.0.1/6379) 2>/dev/null; then
  echo "pi-install.sh: 127.0.0.1:6379 is in use here; the emulated root's redis-server needs it" >&2
  exit 1
fi

mounted=()
roots=()
cleanup() {
  local i root pid
  # The redis-server the systemctl stand-in started in a root (it shares this machine's network).
  for root in "${roots[@]}"; do
    pid="$(cat "$root/run/redis/redis-server.pid" 2>/dev/null || true)"
    [ -n "$pid" ] || continue
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
    kill -9 "$pid" 2>/dev/null || true
    rm -f "$root/run/redis/redis-server.pid"
  done
  roots=()
  for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do
    umount -l "${mounted[$i]}" 2>/dev/null || true
  done
  mounted=()
}
trap cleanup EXIT

bind() {  # bind SOURCE TARGET
  mkdir -p "$2"
  mount --bind "$1" "$2"
  mounted+=("$2")
}

in_root() {  # in_root ROOT COMMAND...: a clean environment, the emulation's pip settings
  local root="$1"
  shift
  chroot "$root" /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    HOME=/root LANG=C.UTF-8 TERM=dumb PIP_CERT=/etc/draughtsboard-emulate/ca.crt \
    PIP_DEFAULT_TIMEOUT=180 ${PIP_INDEX_URL:+PIP_INDEX_URL=$PIP_INDEX_URL} "$@"
}

base_root() {  # base_root ARCH: the cached debootstrapped root of ARCH
  local arch="$1" base="$cache/$1/base"
  if [ ! -f "$base/.complete" ]; then
    rm -rf "$base"
    log "$arch: debootstrap bookworm (minbase) from $mirror"
    debootstrap --arch="$arch" --variant=minbase bookworm "$base" "$mirror" \
      > "$cache/$arch/debootstrap.log" 2>&1 \
      || { tail -n 20 "$cache/$arch/debootstrap.log"; return 1; }
    touch "$base/.complete"
  fi
}

prepare_root() {  # prepare_root ARCH ROOT: a fresh copy of the base, with the emulation's aids
  local arch="$1" root="$2"
  rm -rf "$root"
  roots+=("$root")
  cp -a "$cache/$arch/base" "$root"
  rm -f "$root/.complete"
  chmod 0755 "$root"
  # The checkout as it is now (tracked and new files, not ignored ones).
  mkdir -p "$root/usr/src/draughtsboard"
  git -C "$src" ls-files -z --cached --others --exclude-standard \
    | (cd "$src" && xargs -0 -I{} sh -c '[ -e "{}" ] && printf "%s\0" "{}"' ) \
    | tar -C "$src" --null -T - -cf - | tar -C "$root/usr/src/draughtsboard" -xf -
  # Emulation aids: CA bundle for pip, DNS, no daemon started by package scripts, systemctl.
  install -D -m 0644 /etc/ssl/certs/ca-certificates.crt "$root/etc/draughtsboard-emulate/ca.crt"
  cp -L /etc/resolv.conf "$root/etc/resolv.conf"
  printf '#!/bin/sh\nexit 101\n' > "$root/usr/sbin/policy-rc.d"
  chmod 0755 "$root/usr/sbin/policy-rc.d"
  install -m 0755 "$here/systemctl-stand-in" "$root/usr/local/sbin/systemctl"
  bind /proc "$root/proc"
  bind /dev "$root/dev"
  bind /dev/pts "$root/dev/pts"
  mkdir -p "$cache/$arch/apt-archives/partial" "$cache/$arch/pip-cache"
  bind "$cache/$arch/apt-archives" "$root/var/cache/apt/archives"
  bind "$cache/$arch/pip-cache" "$root/root/.cache/pip"
}

run_arch() {  # run_arch ARCH: prints the result lines; returns non-zero on a failure
  local arch="$1" root="$cache/$1/root" start status doctor_status
  mkdir -p "$cache/$arch"
  base_root "$arch"
  prepare_root "$arch" "$root"
  log "$arch: $(in_root "$root" uname -m), $(in_root "$root" python3 --version 2>&1 \
    || echo 'no python3 yet: install.sh installs it')"

  start=$SECONDS
  log "$arch: sudo systemd/install.sh (first run, fresh root)"
  if ! in_root "$root" bash /usr/src/draughtsboard/systemd/install.sh \
      2>&1 | tee "$cache/$arch/install-1.log"; then
    log "$arch: FAIL install.sh (first run), log: $cache/$arch/install-1.log"
    return 1
  fi
  log "$arch: first run took $((SECONDS - start)) s"
  start=$SECONDS
  log "$arch: sudo systemd/install.sh (second run)"
  if ! in_root "$root" bash /usr/src/draughtsboard/systemd/install.sh \
      2>&1 | tee "$cache/$arch/install-2.log"; then
    log "$arch: FAIL install.sh (second run)"
    return 1
  fi
  log "$arch: second run took $((SECONDS - start)) s"

  log "$arch: the [pi] extra's libraries, as the draughtsboard user"
  # From the service's WorkingDirectory: lgpio makes its notification pipe in the current one.
  in_root "$root" runuser -u draughtsboard -- /bin/sh -c 'cd /var/lib/draughtsboard && exec "$@"' \
    sh /opt/draughtsboard/venv/bin/python -c '
import importlib.metadata as m
import gpiozero.pins.lgpio, lgpio, luma.led_matrix.device, PIL.Image, spidev, serial, redis
print(" ".join(f"{n}=={m.version(n)}" for n in ("gpiozero", "lgpio", "spidev", "pillow",
      "luma.led_matrix", "luma.core", "cbor2", "pyserial", "redis")))'

  log "$arch: draughtsboard doctor (as the draughtsboard user)"
  set +e
  in_root "$root" runuser -u draughtsboard -- /opt/draughtsboard/venv/bin/draughtsboard doctor \
    --config /etc/draughtsboard/draughtsboard.toml
  doctor_status=$?
  in_root "$root" runuser -u draughtsboard -- /opt/draughtsboard/venv/bin/draughtsboard doctor \
    --config /etc/draughtsboard/draughtsboard.toml --json > "$cache/$arch/doctor.json"
  set -e
  # In this root only the clock check may fail (no time synchronisation runs here).
  local unexpected
  unexpected="$(python3 -c '
import json, sys
report = json.load(open(sys.argv[1]))
print(" ".join(c["name"] for c in report["checks"] if not c["ok"] and c["name"] != "the clock is set"))
' "$cache/$arch/doctor.json")"
  if [ -n "$unexpected" ]; then
    log "$arch: FAIL doctor (exit $doctor_status): unexpected failures: $unexpected"
    return 1
  fi
  log "$arch: doctor exit $doctor_status: every check passes but the clock (expected here)"

  # A hardware config, to see the device, SPI and pin checks fail with their fixes (no Pi here).
  log "$arch: draughtsboard doctor with a hardware config (expected to fail: this is no Pi)"
  printf '[board]\nsensors = "shift-register"\nleds = "ws2812-spi"\nbuttons = "gpio"\n[buttons]\nhint_pin = 5\n[store]\nurl = "redis://127.0.0.1:6379/0"\n' \
    > "$root/var/tmp/hardware.toml"
  in_root "$root" runuser -u draughtsboard -- /opt/draughtsboard/venv/bin/draughtsboard doctor \
    --config /var/tmp/hardware.toml || true

  log "$arch: draughtsboard demo (as the draughtsboard user)"
  start=$SECONDS
  status=0
  in_root "$root" runuser -u draughtsboard -- /opt/draughtsboard/venv/bin/draughtsboard demo \
    --fast --moves 8 --level 2 --games-dir /var/lib/draughtsboard/demo-games \
    > "$cache/$arch/demo.log" 2>&1 || status=$?
  tail -n 6 "$cache/$arch/demo.log"
  log "$arch: demo exit $status in $((SECONDS - start)) s"
  [ "$bench" = yes ] || return "$status"

  log "$arch: bench/engine_speed.py, the installed venv's engine beside the pure one"
  start=$SECONDS
  if ! in_root "$root" runuser -u draughtsboard -- /usr/bin/python3 \
      /usr/src/draughtsboard/bench/engine_speed.py \
      --compiled-python /opt/draughtsboard/venv/bin/python 2>&1 \
      | tee "$cache/$arch/engine-speed.log"; then
    log "$arch: FAIL bench/engine_speed.py"
    return 1
  fi
  if ! grep -q '^compiled: compiled ' "$cache/$arch/engine-speed.log"; then
    log "$arch: FAIL bench/engine_speed.py did not run a compiled engine"
    return 1
  fi
  log "$arch: engine_speed.py took $((SECONDS - start)) s"

  # The boards wider than a machine word (Canadian, Turkish) are played by the interpreted
  # copies of the hot path the build wrote beside the compiled modules.
  log "$arch: a Canadian search by the build's interpreted copies (engine._pure)"
  if ! in_root "$root" runuser -u draughtsboard -- /opt/draughtsboard/venv/bin/python -c '
from engine import Board
from engine.compiled import build
from engine.search import Limit, Searcher
searcher = Searcher("canadian", tt_mb=1)
assert build() == "compiled", build()
assert type(searcher.pure).__module__ == "engine._pure.search", type(searcher.pure).__module__
result = searcher.search(Board("canadian"), Limit(depth=3))
assert result.move in Board("canadian").legal_moves
print("canadian: depth", result.depth, "nodes", result.nodes, "by", type(searcher.pure).__module__)
'; then
    log "$arch: FAIL the wide boards' copies"
    return 1
  fi

  footprint "$arch" "$root" /opt/draughtsboard/venv/bin/python draughtsboard || return 1
  return "$status"
}

footprint() {  # footprint ARCH ROOT PYTHON USER: bench/board_hand.py --footprint in the root
  # The engine process's start-up and both processes' memory through a level-10 game,
  # pondering, as the service runs them (a copy of bench/ outside the source, so the venv's
  # compiled engine is the one imported).
  local arch="$1" root="$2" python="$3" user="$4" start=$SECONDS
  log "$arch: bench/board_hand.py --footprint, the venv's service and engine ($python)"
  rm -rf "$root/var/tmp/footprint" && mkdir -p "$root/var/tmp/footprint"
  cp -r "$root/usr/src/draughtsboard/bench" "$root/var/tmp/footprint/bench"
  in_root "$root" chown -R "$user" /var/tmp/footprint
  if ! in_root "$root" runuser -u "$user" -- "$python" \
      /var/tmp/footprint/bench/board_hand.py --footprint --moves 4 2>&1 \
      | tee "$cache/$arch/footprint.log"; then
    log "$arch: FAIL bench/board_hand.py --footprint"
    return 1
  fi
  log "$arch: board_hand.py --footprint took $((SECONDS - start)) s"
}

footprint_only() {  # footprint_only ARCH: the package compiled in a venv, then its footprint
  local arch="$1" root="$cache/$1/root"
  mkdir -p "$cache/$arch"
  base_root "$arch"
  prepare_root "$arch" "$root"
  log "$arch: python3 and a compiler, then the package compiled into /opt/footprint"
  in_root "$root" apt-get update -qq
  in_root "$root" /usr/bin/env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
    --no-install-recommends python3 python3-venv gcc libc6-dev libpython3-dev >/dev/null
  in_root "$root" python3 -m venv /opt/footprint
  in_root "$root" /opt/footprint/bin/pip install -q --upgrade pip
  if ! in_root "$root" /usr/bin/env DRAUGHTSBOARD_COMPILE=require /opt/footprint/bin/pip \
      install -q /usr/src/draughtsboard 2>&1 | tail -n 20; then
    log "$arch: FAIL the package did not build compiled"
    return 1
  fi
  log "$arch: $(in_root "$root" /opt/footprint/bin/python -c \
    'import struct, sys; print("Python", sys.version.split()[0], struct.calcsize("P") * 8, "bit")')"
  footprint "$arch" "$root" /opt/footprint/bin/python nobody
}

results=()
for arch in "${arches[@]}"; do
  if [ "$bench" = footprint ]; then
    run=footprint_only
  else
    run=run_arch
  fi
  if "$run" "$arch"; then
    results+=("$arch: PASS")
  else
    results+=("$arch: FAIL")
  fi
  cleanup
done
for line in "${results[@]}"; do
  log "$line"
done
[[ " ${results[*]} " != *FAIL* ]]

#!/usr/bin/env bash
# Proves the unit's sandbox under real systemd: installs draughtsboard in a fresh Debian bookworm
# root (amd64) with install.sh (in a chroot, for the network: pip), boots the root with
# systemd-nspawn --boot --private-network, runs install.sh again there under real systemd (offline:
# nothing is missing but the build's setuptools, from a local wheel), checks the service sends
# READY=1, and runs a probe
# as the service in the unit's sandbox (systemd/emulate/device-probe.py) that opens device nodes
# of a Raspberry Pi's majors: gpiochip, spi 153, i2c 89, ttyACM 166, ttyUSB 188 must pass the
# device policy, ttyAMA 204 (the Pi's own UART: no backend opens it) must be refused.
#
# This machine's kernel has no GPIO, SPI or I2C drivers, so /proc/devices lacks their names and
# systemd could not resolve DeviceAllow=char-spi: the container sees the host's /proc/devices with
# the lines a Pi has added (nspawn-inside.sh binds them over /proc/devices before
# the service starts: systemd resolves DeviceAllow=char-NAME from it). An allowed open then fails with ENXIO (no
# driver behind the major), a refused one with EPERM. DevicePolicy= and IPAddressDeny= are BPF
# programs: the container runs with the unified cgroup hierarchy, CAP_BPF, CAP_NET_ADMIN and without
# nspawn's own seccomp filter (SYSTEMD_SECCOMP=0: it refuses bpf() with EPERM), without which the
# systemd inside silently does not enforce them. /proc/device-tree cannot be tested on x86.
#
# Usage: sudo systemd/emulate/sandbox-nspawn.sh   (cache: $DRAUGHTSBOARD_EMULATE_CACHE, default
# /var/tmp/draughtsboard-emulate; mirror: as pi-install.sh)
set -euo pipefail

if [ "$(id -u)" -ne 0 ]; then
  echo "sandbox-nspawn.sh: run as root" >&2
  exit 1
fi
here="$(cd "$(dirname "$0")" && pwd)"
src="$(cd "$here/../.." && pwd)"
cache="${DRAUGHTSBOARD_EMULATE_CACHE:-/var/tmp/draughtsboard-emulate}/nspawn"
mirror="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"
log() { echo "sandbox-nspawn: $*"; }

need=()
command -v debootstrap >/dev/null || need+=(debootstrap)
command -v systemd-nspawn >/dev/null || need+=(systemd-container)
if [ ${#need[@]} -gt 0 ]; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
fi

mkdir -p "$cache"
if [ ! -f "$cache/base/.complete" ]; then
  rm -rf "$cache/base"
  log "debootstrap bookworm (amd64, minbase + systemd) from $mirror"
  debootstrap --variant=minbase \
    --include=systemd,systemd-sysv,dbus,python3,python3-venv,python3-spidev,python3-pil,redis-server,ca-certificates,procps \
    bookworm "$cache/base" "$mirror" > "$cache/debootstrap.log" 2>&1
  touch "$cache/base/.complete"
fi
root="$cache/root"
rm -rf "$root"
cp -a "$cache/base" "$root"
rm -f "$root/.complete"
chmod 0755 "$root"
mkdir -p "$root/usr/src/draughtsboard"
git -C "$src" ls-files -z --cached --others --exclude-standard \
  | (cd "$src" && xargs -0 -I{} sh -c '[ -e "{}" ] && printf "%s\0" "{}"' ) \
  | tar -C "$src" --null -T - -cf - | tar -C "$root/usr/src/draughtsboard" -xf -
install -D -m 0644 /etc/ssl/certs/ca-certificates.crt "$root/etc/draughtsboard-emulate/ca.crt"
cp -L /etc/resolv.conf "$root/etc/resolv.conf"
echo draughtsboard-nspawn > "$root/etc/hostname"
# The lines a Raspberry Pi's /proc/devices has and this kernel lacks (gpiochip's major is
# dynamic: take one this kernel leaves free).
devices="$root/etc/draughtsboard-emulate/proc-devices"
gpiochip=239
while grep -qE "^ *$gpiochip " /proc/devices; do gpiochip=$((gpiochip - 1)); done
awk -v g="$gpiochip" '
  /^Character devices:/ {print; print " 89 i2c"; print "153 spi"; print "166 ttyACM";
                         print "188 ttyUSB"; print "204 ttyAMA"; print g " gpiochip"; next}
  {print}' /proc/devices \
  > "$devices"
cat > "$root/etc/systemd/system/emulate-check.service" <<UNIT
[Unit]
Description=draughtsboard sandbox check (systemd/emulate/nspawn-inside.sh)
After=multi-user.target network-online.target
[Service]
Type=oneshot
ExecStart=/bin/bash /usr/src/draughtsboard/systemd/emulate/nspawn-inside.sh
StandardOutput=journal+console
TimeoutStartSec=1200
[Install]
WantedBy=multi-user.target
UNIT
ln -sf /etc/systemd/system/emulate-check.service \
  "$root/etc/systemd/system/multi-user.target.wants/emulate-check.service"

# Phase 1, in a chroot with this machine's network: install.sh with the systemctl stand-in (told not
# to start redis-server: this machine's 127.0.0.1:6379 may be taken), and the setuptools wheel the
# offline re-run builds the package with.
mkdir -p "$root/etc/draughtsboard-emulate"
touch "$root/etc/draughtsboard-emulate/no-redis"
install -m 0755 "$here/systemctl-stand-in" "$root/usr/local/sbin/systemctl"
mounted=()
cleanup() { for m in "${mounted[@]}"; do umount -l "$m" 2>/dev/null || true; done; mounted=(); }
trap cleanup EXIT
for m in proc dev dev/pts; do mount --bind "/$m" "$root/$m"; mounted+=("$root/$m"); done
in_chroot() {
  chroot "$root" /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    HOME=/root LANG=C.UTF-8 PIP_CERT=/etc/draughtsboard-emulate/ca.crt "$@"
}
log "phase 1: install.sh in a chroot (network for pip)"
if ! in_chroot bash /usr/src/draughtsboard/systemd/install.sh > "$cache/install-chroot.log" 2>&1
then
  tail -n 30 "$cache/install-chroot.log"
  log "FAIL: install.sh in the chroot"
  exit 1
fi
# iproute2: the check gives the container a "remote" address (not part of the install).
in_chroot apt-get update -qq && in_chroot apt-get install -y -qq iproute2 > /dev/null
setuptools="$(grep -E '^setuptools==' "$src/systemd/constraints.txt")"
in_chroot /opt/draughtsboard/venv/bin/python -m pip download -q --no-deps \
  -d /var/cache/draughtsboard-emulate/wheels "$setuptools"
cleanup
rm -f "$root/usr/local/sbin/systemctl" "$root/etc/draughtsboard-emulate/no-redis"

log "phase 2: booting the container (systemd-nspawn --boot --private-network)"
set +e
SYSTEMD_SECCOMP=0 SYSTEMD_NSPAWN_UNIFIED_HIERARCHY=1 timeout 1500 systemd-nspawn --boot --register=no --keep-unit \
  --directory="$root" --capability=CAP_BPF,CAP_NET_ADMIN --console=pipe --private-network \
  > "$cache/console.log" 2>&1 < /dev/null
status=$?
set -e
log "container exited ($status); console: $cache/console.log"
result="$root/var/log/draughtsboard-emulate/result.txt"
if [ ! -f "$result" ]; then
  tail -n 40 "$cache/console.log"
  log "FAIL: no result (the check did not run)"
  exit 1
fi
cat "$result"
if grep -q '^FAIL' "$result" || ! grep -q '^DONE' "$result"; then
  log "FAIL"
  exit 1
fi
log "PASS"

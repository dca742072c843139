#!/usr/bin/env bash
# Runs at boot inside the container of sandbox-nspawn.sh (as emulate-check.service), under real
# systemd: install.sh, the service's start (READY=1), the device probe under the unit's sandbox,
# the security exposure. Writes its verdict to /var/log/draughtsboard-emulate/result.txt and
# powers the container off.
set -uo pipefail
out=/var/log/draughtsboard-emulate
mkdir -p "$out"
result="$out/result.txt"
: > "$result"
verdict() { echo "$*" | tee -a "$result"; }
src=/usr/src/draughtsboard
venv=/opt/draughtsboard/venv

# 0. A Raspberry Pi's /proc/devices lines (this kernel has no GPIO/SPI/I2C drivers), for systemd
#    to resolve DeviceAllow=char-spi and the others.
if mount --bind /etc/draughtsboard-emulate/proc-devices /proc/devices; then
  verdict "INFO /proc/devices overlaid with a Pi's gpiochip, spi, i2c, ttyACM, ttyUSB, ttyAMA lines"
else
  verdict "FAIL cannot overlay /proc/devices"
fi

# 1. install.sh under real systemd; it ends by restarting the service (Type=notify: the restart
#    returns once the service sent READY=1).
if PIP_NO_INDEX=1 PIP_FIND_LINKS=/var/cache/draughtsboard-emulate/wheels \
    bash "$src/systemd/install.sh" > "$out/install.log" 2>&1
then
  verdict "PASS install.sh re-run under systemd"
  sed -e 's/^/      /' "$out/install.log" >> "$result"
else
  verdict "FAIL install.sh under systemd (see $out/install.log)"
  tail -n 20 "$out/install.log" >> "$result"
  for unit in redis-server draughtsboard; do
    systemctl status --no-pager "$unit" >> "$result" 2>&1
    journalctl -u "$unit" -o cat --no-pager 2>&1 | tail -n 30 >> "$result"
  done
fi
state="$(systemctl show -p ActiveState -p SubState -p StatusText --value draughtsboard | tr '\n' ' ')"
if [ "$(systemctl is-active draughtsboard)" = active ]; then
  verdict "PASS draughtsboard.service sent READY=1 and runs: $state"
else
  verdict "FAIL draughtsboard.service: $state"
  journalctl -u draughtsboard -o cat --no-pager | tail -n 20 >> "$result"
fi

# 2. Device nodes of the Pi's majors (the names come from the /proc/devices overlay), all 0666 so
#    that only the device policy can refuse an open.
gpiochip="$(awk '$2 == "gpiochip" {print $1}' /proc/devices | head -n 1)"
mknod -m 0666 /dev/gpiochip0 c "$gpiochip" 0
mknod -m 0666 /dev/spidev0.0 c 153 0
mknod -m 0666 /dev/ttyACM0 c 166 0
mknod -m 0666 /dev/ttyUSB0 c 188 0
mknod -m 0666 /dev/i2c-1 c 89 1
mknod -m 0666 /dev/ttyAMA0 c 204 64
nodes=(/dev/gpiochip0 /dev/spidev0.0 /dev/ttyACM0 /dev/ttyUSB0 /dev/i2c-1 /dev/ttyAMA0)
verdict "INFO /proc/devices here: gpiochip $gpiochip, spi 153, i2c 89, ttyACM 166, ttyUSB 188, ttyAMA 204"

# 3. A "remote" Redis address: 192.0.2.10 on the loopback interface, with a listener.
ip addr add 192.0.2.10/32 dev lo
python3 -c '
import socket, time
s = socket.socket(); s.bind(("192.0.2.10", 6379)); s.listen(8)
while True:
    s.accept()[0].close()
' &
listener=$!

# 4. The probe outside any sandbox (control), then as the service in the unit's sandbox, then
#    with the remote-Redis drop-in install.sh writes for store.url = redis://192.0.2.10:6379/0.
verdict "INFO without the sandbox (root): $("$venv/bin/python" "$src/systemd/emulate/device-probe.py" "${nodes[@]}")"
sed -e "s#^ExecStart=.*#ExecStart=$venv/bin/python $src/systemd/emulate/device-probe.py ${nodes[*]}#" \
  -e 's#^Restart=.*#Restart=no#' -e '/^WatchdogSec=/d' \
  /etc/systemd/system/draughtsboard.service > /etc/systemd/system/draughtsboard-probe.service
run_probe() {  # run_probe LABEL: prints the probe's JSON line
  systemctl daemon-reload
  if systemctl start draughtsboard-probe.service; then
    verdict "PASS the probe under the unit's sandbox ($1) sent READY=1"
  else
    verdict "FAIL the probe under the unit's sandbox ($1) did not start"
  fi
  probe="$(journalctl -u draughtsboard-probe -o cat --no-pager | grep '^PROBE ' | tail -n 1)"
  verdict "INFO in the sandbox ($1): $probe"
}
run_probe "the unit as shipped"
sandboxed="$probe"
printf '[store]\nurl = "redis://192.0.2.10:6379/0"\n' > "$out/remote.toml"
mkdir -p /etc/systemd/system/draughtsboard-probe.service.d
"$venv/bin/python" -m firmware_host.doctor.network --dropin "$out/remote.toml" \
  > /etc/systemd/system/draughtsboard-probe.service.d/remote-redis.conf
verdict "INFO drop-in for store.url = redis://192.0.2.10:6379/0: $(grep '^IPAddressAllow' /etc/systemd/system/draughtsboard-probe.service.d/remote-redis.conf)"
run_probe "with the remote-Redis drop-in"
kill "$listener"
python3 - "$sandboxed" "$probe" "$result" <<'PY'
import json, sys
report = json.loads(sys.argv[1].removeprefix("PROBE "))
remote = json.loads(sys.argv[2].removeprefix("PROBE "))
devices = report["devices"]
lines = []
def check(ok, text):
    lines.append(("PASS " if ok else "FAIL ") + text)
for node in ("/dev/gpiochip0", "/dev/spidev0.0", "/dev/ttyACM0", "/dev/ttyUSB0", "/dev/i2c-1"):
    check(devices[node] in ("ENXIO", "ENODEV", "opened"),
          f"{node} let through the device policy ({devices[node]}: no driver on this kernel)")
check(devices["/dev/ttyAMA0"] == "EPERM", f"/dev/ttyAMA0 refused by the device policy ({devices['/dev/ttyAMA0']})")
check(report["/proc/cpuinfo readable"], "/proc/cpuinfo readable (no ProcSubset=pid)")
check(report["redis 127.0.0.1:6379"] == "connected", "local Redis reachable")
# IPAddressDeny= drops the packets (a TCP connect times out; the same connect outside the
# sandbox and with the drop-in succeeds).
check(report["remote 192.0.2.10:6379"] in ("EPERM", "TimeoutError"),
      f"a remote Redis refused by IPAddressDeny ({report['remote 192.0.2.10:6379']}: packets dropped)")
check(remote["remote 192.0.2.10:6379"] == "connected", f"the remote Redis reachable with the drop-in ({remote['remote 192.0.2.10:6379']})")
with open(sys.argv[3], "a") as out:
    out.write("\n".join(lines) + "\n")
print("\n".join(lines))
PY

# 5. The exposure, as systemd rates the installed unit.
verdict "INFO $(systemd-analyze security draughtsboard.service 2>&1 | tail -n 1)"
verdict "DONE"
systemctl poweroff

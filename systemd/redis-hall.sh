# shellcheck shell=bash
# The hall's Redis hosts: sourced by systemd/install.sh (step 5) when one of these is set, on the
# machines that run the hall's Redis (docs/high-availability.md sets up three):
#   DRAUGHTSBOARD_REDIS_BIND="10.0.0.1"        listen on this LAN address too (not only localhost)
#   DRAUGHTSBOARD_REDIS_ACL="board1 board2"    ACL users: one per board, the web app, replication
#                                              and sentinel (firmware_host/store/acl.py); the
#                                              passwords are made once, in $passwords (root only):
#                                              copy that file to the other Redis hosts first
#   DRAUGHTSBOARD_REDIS_REPLICAOF="10.0.0.1"   this Redis starts as the replica of that primary
#                                              (port 6379; Sentinel owns the role afterwards)
#   DRAUGHTSBOARD_SENTINEL="hall 10.0.0.1 2"   run a sentinel: service name, primary, quorum
#   DRAUGHTSBOARD_REDIS_MAXMEMORY="1gb"        Redis's memory (default 1gb; never evicts: a
#                                              write past it is refused and the boards keep
#                                              their moves on disk: firmware_host/store/limits.py)
# Uses install.sh's say, install_if_changed, $venv and $build; sets redis_changed=yes when the
# Redis configuration changed (install.sh then restarts redis-server once).

etc="${DRAUGHTSBOARD_ETC:-/etc}"  # another root for the tests only
redis_conf="$etc/redis/redis.conf"
hall_conf="$etc/redis/redis-draughtsboard-hall.conf"
acl_file="$etc/redis/draughtsboard-users.acl"
passwords="$etc/draughtsboard/redis-passwords"
sentinel_conf="$etc/redis/sentinel.conf"

password_of() { awk -v user="$1" '$1 == user { print $2 }' "$passwords"; }

if [ -n "${DRAUGHTSBOARD_REDIS_ACL:-}" ]; then
  "$venv/bin/python" -m firmware_host.store.acl --boards "$DRAUGHTSBOARD_REDIS_ACL" \
    --passwords "$passwords" --acl-file "$build/users.acl"
  if install_if_changed "$build/users.acl" "$acl_file" 0640; then
    chgrp redis "$acl_file"
    redis_changed=yes
    say "redis: ACL users written to $acl_file (passwords in $passwords)"
  fi
fi

"$venv/bin/python" -m firmware_host.store.limits \
  --maxmemory "${DRAUGHTSBOARD_REDIS_MAXMEMORY:-1gb}" > "$build/redis-limits.conf"
{
  echo "# Written by systemd/install.sh (systemd/redis-hall.sh): one of the hall's Redis hosts."
  # What one board's login can cost the others, bounded (firmware_host/store/limits.py).
  cat "$build/redis-limits.conf"
  if [ -n "${DRAUGHTSBOARD_REDIS_BIND:-}" ]; then
    echo "bind 127.0.0.1 -::1 $DRAUGHTSBOARD_REDIS_BIND"
  fi
  if [ -n "${DRAUGHTSBOARD_REDIS_ACL:-}" ]; then
    echo "aclfile $acl_file"
    # Any of the hosts may be a replica after a failover: each logs in to its primary.
    echo "masteruser draughtsboard-replica"
    echo "masterauth $(password_of draughtsboard-replica)"
  fi
} > "$build/redis-hall.conf"
if install_if_changed "$build/redis-hall.conf" "$hall_conf" 0640; then
  chgrp redis "$hall_conf"
  redis_changed=yes
fi
if ! grep -qx "include $hall_conf" "$redis_conf"; then
  echo "include $hall_conf" >> "$redis_conf"
  redis_changed=yes
fi
# The first role only: after it, Sentinel sets the role and rewrites the line itself.
if [ -n "${DRAUGHTSBOARD_REDIS_REPLICAOF:-}" ] && ! grep -q '^replicaof ' "$redis_conf"
then
  echo "replicaof $DRAUGHTSBOARD_REDIS_REPLICAOF 6379" >> "$redis_conf"
  redis_changed=yes
  say "redis: starts as the replica of $DRAUGHTSBOARD_REDIS_REPLICAOF"
fi

if [ -n "${DRAUGHTSBOARD_SENTINEL:-}" ]; then
  read -r service primary quorum <<< "$DRAUGHTSBOARD_SENTINEL"
  if [ -z "${quorum:-}" ]; then
    say "DRAUGHTSBOARD_SENTINEL must be \"SERVICE PRIMARY QUORUM\", e.g. \"hall 10.0.0.1 2\"" >&2
    exit 1
  fi
  if [ "$(dpkg-query -W -f='${Status}' redis-sentinel 2>/dev/null || true)" \
      != "install ok installed" ]; then
    apt-get install -y -qq --no-install-recommends redis-sentinel >/dev/null
    say "apt: installed redis-sentinel"
  fi
  sentinel_changed=no
  if ! grep -q "^sentinel monitor $service " "$sentinel_conf"; then
    {
      echo "# Added by systemd/install.sh (systemd/redis-hall.sh); Sentinel rewrites it."
      echo "sentinel monitor $service $primary 6379 $quorum"
      echo "sentinel down-after-milliseconds $service 5000"
      echo "sentinel failover-timeout $service 60000"
      echo "sentinel parallel-syncs $service 1"
      if [ -n "${DRAUGHTSBOARD_REDIS_ACL:-}" ]; then
        echo "sentinel auth-user $service draughtsboard-sentinel"
        echo "sentinel auth-pass $service $(password_of draughtsboard-sentinel)"
      fi
    } >> "$sentinel_conf"
    sentinel_changed=yes
  fi
  if [ -n "${DRAUGHTSBOARD_REDIS_BIND:-}" ] && \
      ! grep -qx "bind 127.0.0.1 -::1 $DRAUGHTSBOARD_REDIS_BIND" "$sentinel_conf"; then
    sed -i -e '/^bind /d' "$sentinel_conf"
    echo "bind 127.0.0.1 -::1 $DRAUGHTSBOARD_REDIS_BIND" >> "$sentinel_conf"
    sentinel_changed=yes
  fi
  systemctl enable redis-sentinel >/dev/null 2>&1 || true
  if [ "$sentinel_changed" = yes ]; then
    systemctl restart redis-sentinel
    say "sentinel: watching $service at $primary (quorum $quorum): restarted redis-sentinel"
  else
    say "sentinel: configuration unchanged"
  fi
fi

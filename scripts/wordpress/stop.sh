#!/usr/bin/env bash
# Stops the local test WordPress started by scripts/wordpress/setup.sh: the
# PHP built-in server (its whole process group) and the private MariaDB (by
# its saved PID). Keeps the data in $WP_STATE_DIR, so the next setup.sh is
# quick; remove that directory for a fresh install.
#
#   WP_STATE_DIR   state dir (default /tmp/turismo-wp)
set -euo pipefail

STATE_DIR="${WP_STATE_DIR:-/tmp/turismo-wp}"
SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
DB_PID_FILE="$STATE_DIR/mariadb.pid"
export WP_STATE_DIR="$STATE_DIR"

log() { echo "wp-stop: $*" >&2; }

pid_alive() {
  local stat
  stat="$(ps -o stat= -p "$1" 2>/dev/null)" || return 1
  [[ -n "$stat" && "$stat" != Z* ]]
}

rc=0
"$SCRIPT_DIR/php-server.sh" stop || rc=1

if [[ -s "$DB_PID_FILE" ]]; then
  pid="$(cat "$DB_PID_FILE")"
  if [[ "$pid" =~ ^[0-9]+$ ]] && pid_alive "$pid"; then
    log "stopping MariaDB (pid $pid)"
    kill -TERM "$pid" 2>/dev/null || true
    for ((i = 0; i < 300; i++)); do # clean shutdown: up to 30 s
      pid_alive "$pid" || break
      sleep 0.1
    done
    if pid_alive "$pid"; then
      log "MariaDB still alive after 30 s, sending SIGKILL"
      kill -KILL "$pid" 2>/dev/null || true
      for ((i = 0; i < 30; i++)); do
        pid_alive "$pid" || break
        sleep 0.1
      done
    fi
    if pid_alive "$pid"; then
      log "MariaDB (pid $pid) did not exit"
      rc=1
    else
      log "MariaDB stopped"
    fi
  else
    log "MariaDB not running"
  fi
  ((rc)) || rm -f "$DB_PID_FILE"
else
  log "MariaDB not running"
fi
exit "$rc"

#!/usr/bin/env bash
# Start/stop only the PHP built-in web server that serves the local test
# WordPress set up by scripts/wordpress/setup.sh (MariaDB keeps running).
# Tests use it to simulate WordPress being down and back up:
#
#   scripts/wordpress/php-server.sh stop     # WordPress unreachable (connection refused)
#   scripts/wordpress/php-server.sh start    # back up; waits until GET /wp-json/ answers
#   scripts/wordpress/php-server.sh status   # exit 0 if running
#
# Environment (same defaults as setup.sh):
#   WP_STATE_DIR        state dir (default /tmp/turismo-wp)
#   WP_PORT             port on 127.0.0.1 (default 8089)
#   WP_PHP_WORKERS      PHP_CLI_SERVER_WORKERS, parallel requests (default 4)
#   WP_START_TIMEOUT    seconds to wait for /wp-json/ (default 30)
#
# The server runs in its own session/process group (setsid); its PID, which
# is also its PGID, is kept in $WP_STATE_DIR/php-server.pid and "stop" kills
# that whole group (the workers included). All output goes to stderr.
set -euo pipefail

STATE_DIR="${WP_STATE_DIR:-/tmp/turismo-wp}"
PORT="${WP_PORT:-8089}"
WORKERS="${WP_PHP_WORKERS:-4}"
START_TIMEOUT="${WP_START_TIMEOUT:-30}"
DOCROOT="${WP_DOCROOT:-/usr/share/wordpress}"
SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROUTER="$SCRIPT_DIR/router.php"
PID_FILE="$STATE_DIR/php-server.pid"
PORT_FILE="$STATE_DIR/php-server.port"
LOG_FILE="$STATE_DIR/php-server.log"

log() { echo "php-server: $*" >&2; }

# True if process group $1 has a live (non-zombie) member.
group_alive() {
  ps -eo pgid=,stat= | awk -v g="$1" '$1 == g && $2 !~ /^Z/ { found = 1 } END { exit !found }'
}

# Prints the saved PGID if that process group still exists.
running_pgid() {
  local pgid
  [[ -s "$PID_FILE" ]] || return 1
  pgid="$(cat "$PID_FILE")"
  [[ "$pgid" =~ ^[0-9]+$ ]] || return 1
  group_alive "$pgid" || return 1
  echo "$pgid"
}

ready() {
  curl -fsS -o /dev/null --max-time 3 "http://127.0.0.1:$PORT/wp-json/" 2>/dev/null
}

do_stop() {
  local pgid i
  if ! pgid="$(running_pgid)"; then
    rm -f "$PID_FILE" "$PORT_FILE"
    log "not running"
    return 0
  fi
  log "stopping process group $pgid"
  kill -TERM -- "-$pgid" 2>/dev/null || true
  for ((i = 0; i < 50; i++)); do # up to 5 s
    group_alive "$pgid" || break
    sleep 0.1
  done
  if group_alive "$pgid"; then
    log "still alive after 5 s, sending SIGKILL"
    kill -KILL -- "-$pgid" 2>/dev/null || true
    for ((i = 0; i < 30; i++)); do
      group_alive "$pgid" || break
      sleep 0.1
    done
  fi
  if group_alive "$pgid"; then
    log "process group $pgid did not exit"
    return 1
  fi
  rm -f "$PID_FILE" "$PORT_FILE"
  log "stopped"
}

do_start() {
  local pgid i deadline
  if pgid="$(running_pgid)"; then
    if [[ "$(cat "$PORT_FILE" 2>/dev/null)" == "$PORT" ]]; then
      if ready; then
        log "already running (pgid $pgid, port $PORT)"
        return 0
      fi
    else
      log "running on another port, restarting on $PORT"
    fi
    do_stop
  fi
  [[ -f "$DOCROOT/wp-load.php" ]] || { log "$DOCROOT/wp-load.php missing: run scripts/wordpress/setup.sh"; return 1; }
  mkdir -p "$STATE_DIR"
  rm -f "$PID_FILE"
  echo "$PORT" >"$PORT_FILE"
  log "starting on http://127.0.0.1:$PORT (log: $LOG_FILE)"
  # The inner bash records its own PID (= PGID = SID after setsid) and then
  # becomes php, so the saved number is exactly the server's process group.
  # shellcheck disable=SC2016 # expanded by the inner bash
  PHP_CLI_SERVER_WORKERS="$WORKERS" setsid bash -c 'echo $$ >"$1"; shift; exec "$@"' _ "$PID_FILE" \
    php -d opcache.revalidate_freq=0 -d display_errors=stderr -d log_errors=Off \
    -S "127.0.0.1:$PORT" -t "$DOCROOT" "$ROUTER" \
    </dev/null >>"$LOG_FILE" 2>&1 9>&- &
  deadline=$((SECONDS + START_TIMEOUT))
  for ((i = 0; i < 50; i++)); do
    [[ -s "$PID_FILE" ]] && break
    sleep 0.1
  done
  while ((SECONDS < deadline)); do
    if ! running_pgid >/dev/null; then
      log "PHP server exited (port busy?); last log lines:"
      tail -n 20 "$LOG_FILE" >&2 || true
      rm -f "$PID_FILE" "$PORT_FILE"
      return 1
    fi
    if ready; then
      log "ready (pgid $(cat "$PID_FILE"))"
      return 0
    fi
    sleep 0.2
  done
  log "GET http://127.0.0.1:$PORT/wp-json/ did not answer within ${START_TIMEOUT}s; last log lines:"
  tail -n 20 "$LOG_FILE" >&2 || true
  do_stop || true
  return 1
}

case "${1:-}" in
  start) do_start ;;
  stop) do_stop ;;
  restart) do_stop && do_start ;;
  status)
    if pgid="$(running_pgid)"; then
      log "running (pgid $pgid, port $(cat "$PORT_FILE" 2>/dev/null || echo '?'))"
    else
      log "not running"
      exit 1
    fi
    ;;
  *)
    echo "usage: $0 start|stop|restart|status" >&2
    exit 2
    ;;
esac

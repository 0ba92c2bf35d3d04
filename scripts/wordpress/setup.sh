#!/usr/bin/env bash
# Sets up a REAL local WordPress for integration tests and CI (run as root,
# Debian 12). Idempotent: when it is already running, it only re-prints the env.
#
#   eval "$(scripts/wordpress/setup.sh)"      # or: source "$WP_STATE_DIR/env"
#   ... tests ...
#   scripts/wordpress/stop.sh
#
# What it does:
#   - installs Debian's wordpress, mariadb-server, php-cli, php-mysql if missing
#     (service starts are blocked during the install: the system MariaDB and
#     Apache are never started or touched);
#   - runs a PRIVATE MariaDB (own datadir, unix socket only, --skip-networking)
#     under $WP_STATE_DIR;
#   - writes /etc/wordpress/config-127.0.0.1.php (Debian's wp-config.php loads
#     /etc/wordpress/config-<HTTP_HOST without port>.php) with
#     WP_ENVIRONMENT_TYPE=local, which lets Application Passwords work over http;
#   - installs wordpress/turismo-tickets.php as a must-use plugin;
#   - installs WordPress, an admin user and an Application Password, and sets
#     pretty permalinks so ${WP_URL}/wp-json/... works (?rest_route= works too);
#   - starts PHP's built-in server on 127.0.0.1:$WP_PORT (php-server.sh).
#
# stdout: only KEY=value lines (also written to $WP_STATE_DIR/env):
#   WP_URL, WP_USER, WP_APP_PASSWORD, WP_POST_TYPE. Everything else: stderr.
#
# Environment:
#   WP_STATE_DIR      state dir: database, logs, pids, env (default /tmp/turismo-wp)
#   WP_PORT           PHP server port on 127.0.0.1 (default 8089)
#   WP_ADMIN_USER     WordPress user to create/use (default turismo-admin)
#   WP_START_TIMEOUT  seconds to wait for each server (default 30)
set -euo pipefail

STATE_DIR="${WP_STATE_DIR:-/tmp/turismo-wp}"
PORT="${WP_PORT:-8089}"
ADMIN_USER="${WP_ADMIN_USER:-turismo-admin}"
START_TIMEOUT="${WP_START_TIMEOUT:-30}"
POST_TYPE_REST_BASE="turismo-tickets"
APP_PASSWORD_NAME="turismo-tests"

SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO_DIR="$(cd "$SCRIPT_DIR/../.." && pwd)"
PLUGIN_SRC="$REPO_DIR/wordpress/turismo-tickets.php"
WP_DOCROOT="/usr/share/wordpress"
WP_CONTENT_DIR="/var/lib/wordpress/wp-content"
WP_HOST="127.0.0.1"
WP_URL="http://$WP_HOST:$PORT"
CONFIG_FILE="/etc/wordpress/config-$WP_HOST.php"

DB_DIR="$STATE_DIR/mysql"
DB_SOCKET="$STATE_DIR/mysqld.sock"
DB_PID_FILE="$STATE_DIR/mariadb.pid"
DB_LOG="$STATE_DIR/mariadb.log"
DB_NAME="turismo_wp"
DB_USER="turismo_wp"
ENV_FILE="$STATE_DIR/env"

export WP_STATE_DIR="$STATE_DIR" WP_PORT="$PORT" WP_START_TIMEOUT="$START_TIMEOUT"

log() { echo "wp-setup: $*" >&2; }
die() {
  log "ERROR: $*"
  exit 1
}

[[ "$(id -u)" == 0 ]] || die "must run as root"
[[ -f "$PLUGIN_SRC" ]] || die "$PLUGIN_SRC not found"

pid_alive() { # a live, non-zombie process
  local stat
  stat="$(ps -o stat= -p "$1" 2>/dev/null)" || return 1
  [[ -n "$stat" && "$stat" != Z* ]]
}

db_running() {
  [[ -s "$DB_PID_FILE" ]] && pid_alive "$(cat "$DB_PID_FILE")"
}

# One setup at a time (parallel test runners may all call it).
mkdir -p "$(dirname "$STATE_DIR")"
# (fd 9 is closed for the servers started below so they do not keep the lock.)
exec 9>"$STATE_DIR.lock"
flock -w 600 9 || die "another setup.sh holds $STATE_DIR.lock"

# ---------------------------------------------------------------- fast path
if [[ -s "$ENV_FILE" ]] && grep -qx "WP_URL=$WP_URL" "$ENV_FILE" && db_running &&
  "$SCRIPT_DIR/php-server.sh" status 2>/dev/null &&
  curl -fsS -o /dev/null --max-time 3 "$WP_URL/wp-json/" 2>/dev/null; then
  log "already running"
  cat "$ENV_FILE"
  exit 0
fi

# ---------------------------------------------------------------- packages
packages_present() {
  [[ -f "$WP_DOCROOT/wp-load.php" && -f /usr/share/wordpress/wp-config.php ]] &&
    { command -v mariadbd || command -v mysqld; } >/dev/null 2>&1 &&
    command -v mariadb-install-db >/dev/null 2>&1 &&
    command -v php >/dev/null 2>&1 &&
    command -v curl >/dev/null 2>&1 &&
    php -r 'exit(extension_loaded("mysqli") ? 0 : 1);' 2>/dev/null
}

install_packages() {
  local pkgs=(wordpress mariadb-server php-cli php-mysql)
  command -v curl >/dev/null 2>&1 || pkgs+=(curl) # used for the readiness checks
  local added_policy=0
  # Block service starts from maintainer scripts (no system MariaDB/Apache).
  if [[ ! -e /usr/sbin/policy-rc.d ]]; then
    printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d
    chmod 755 /usr/sbin/policy-rc.d
    added_policy=1
  fi
  local rc=0
  export DEBIAN_FRONTEND=noninteractive
  log "installing ${pkgs[*]}"
  if ! apt-get install -y --no-install-recommends "${pkgs[@]}" >&2; then
    log "install failed with the current package lists; running apt-get update"
    apt-get update >&2 || log "apt-get update reported errors (continuing)"
    apt-get install -y --no-install-recommends "${pkgs[@]}" >&2 || rc=$?
  fi
  if ((added_policy)); then rm -f /usr/sbin/policy-rc.d; fi
  return "$rc"
}

if ! packages_present; then
  install_packages || die "package install failed"
  packages_present || die "packages installed but something is still missing"
else
  log "packages already installed"
fi

# Debian's wp-config.php picks /etc/wordpress/config-<host>.php after dropping
# any ":port" from HTTP_HOST; fail loudly if a future version stops doing so.
grep -qF "preg_replace('/:.*/'" /usr/share/wordpress/wp-config.php ||
  die "/usr/share/wordpress/wp-config.php no longer strips the port from HTTP_HOST; check $CONFIG_FILE naming"

MARIADBD="$(command -v mariadbd || command -v mysqld)"
MARIADB_CLIENT="$(command -v mariadb || command -v mysql)"
MARIADB_ADMIN="$(command -v mariadb-admin || command -v mysqladmin)"

mkdir -p "$STATE_DIR"
chmod 700 "$STATE_DIR"

# ---------------------------------------------------------------- MariaDB

if [[ ! -d "$DB_DIR/mysql" ]]; then
  log "initialising MariaDB datadir $DB_DIR"
  rm -rf "$DB_DIR"
  mariadb-install-db --no-defaults --user=root --datadir="$DB_DIR" \
    --auth-root-authentication-method=socket --skip-test-db >"$STATE_DIR/mariadb-install.log" 2>&1 ||
    {
      cat "$STATE_DIR/mariadb-install.log" >&2
      die "mariadb-install-db failed"
    }
fi

if db_running; then
  log "MariaDB already running (pid $(cat "$DB_PID_FILE"))"
else
  log "starting private MariaDB on $DB_SOCKET"
  rm -f "$DB_PID_FILE" "$DB_SOCKET"
  # Same pattern as php-server.sh: the inner bash records its PID (= PGID)
  # and becomes mariadbd.
  # shellcheck disable=SC2016 # expanded by the inner bash
  setsid bash -c 'echo $$ >"$1"; shift; exec "$@"' _ "$DB_PID_FILE" \
    "$MARIADBD" --no-defaults --user=root \
    --datadir="$DB_DIR" --socket="$DB_SOCKET" --pid-file="$DB_DIR/mariadbd.pid" \
    --skip-networking --log-error="$DB_LOG" \
    --innodb-buffer-pool-size=64M --innodb-log-file-size=16M \
    --character-set-server=utf8mb4 --collation-server=utf8mb4_unicode_ci \
    </dev/null >>"$DB_LOG" 2>&1 9>&- &
  deadline=$((SECONDS + START_TIMEOUT))
  until "$MARIADB_ADMIN" --no-defaults --protocol=socket --socket="$DB_SOCKET" -uroot ping >/dev/null 2>&1; do
    if [[ -s "$DB_PID_FILE" ]] && ! db_running; then
      tail -n 30 "$DB_LOG" >&2 || true
      die "MariaDB exited during startup"
    fi
    ((SECONDS < deadline)) || {
      tail -n 30 "$DB_LOG" >&2 || true
      die "MariaDB did not answer within ${START_TIMEOUT}s"
    }
    sleep 0.2
  done
  log "MariaDB ready (pid $(cat "$DB_PID_FILE"))"
fi

if [[ ! -s "$STATE_DIR/db-password" ]]; then
  (umask 077 && head -c 18 /dev/urandom | od -An -tx1 | tr -d ' \n' >"$STATE_DIR/db-password")
fi
DB_PASSWORD="$(cat "$STATE_DIR/db-password")"
"$MARIADB_CLIENT" --no-defaults --protocol=socket --socket="$DB_SOCKET" -uroot <<SQL
CREATE DATABASE IF NOT EXISTS \`$DB_NAME\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;
CREATE USER IF NOT EXISTS '$DB_USER'@'localhost' IDENTIFIED BY '$DB_PASSWORD';
ALTER USER '$DB_USER'@'localhost' IDENTIFIED BY '$DB_PASSWORD';
GRANT ALL PRIVILEGES ON \`$DB_NAME\`.* TO '$DB_USER'@'localhost';
SQL

# ---------------------------------------------------------------- wp config
log "writing $CONFIG_FILE"
mkdir -p /etc/wordpress
tmp_config="$(mktemp /etc/wordpress/.config-XXXXXX)"
cat >"$tmp_config" <<PHP
<?php
// Generated by scripts/wordpress/setup.sh (turismo portal, local tests only).
// Debian's /usr/share/wordpress/wp-config.php loads this file for requests
// whose HTTP_HOST is $WP_HOST (any port). Rewritten on every setup.
define('DB_NAME', '$DB_NAME');
define('DB_USER', '$DB_USER');
define('DB_PASSWORD', '$DB_PASSWORD');
define('DB_HOST', 'localhost:$DB_SOCKET');
define('DB_CHARSET', 'utf8mb4');
define('DB_COLLATE', '');
define('WP_CONTENT_DIR', '$WP_CONTENT_DIR');
define('WP_HOME', '$WP_URL');
define('WP_SITEURL', '$WP_URL');
// 'local' makes Application Passwords available over plain http.
define('WP_ENVIRONMENT_TYPE', 'local');
define('WP_DEBUG', false);
// No background HTTP: no cron loopback, no update checks, no outside calls.
define('DISABLE_WP_CRON', true);
define('AUTOMATIC_UPDATER_DISABLED', true);
define('WP_HTTP_BLOCK_EXTERNAL', true);
PHP
chmod 640 "$tmp_config"
chgrp www-data "$tmp_config" 2>/dev/null || true
mv -f "$tmp_config" "$CONFIG_FILE"

# ---------------------------------------------------------------- mu-plugin
install -d -m 755 "$WP_CONTENT_DIR/mu-plugins"
install -m 644 "$PLUGIN_SRC" "$WP_CONTENT_DIR/mu-plugins/turismo-tickets.php"
log "installed mu-plugin into $WP_CONTENT_DIR/mu-plugins"

# ---------------------------------------------------------------- install WP
OLD_APP_PASSWORD=""
if [[ -s "$ENV_FILE" ]]; then
  OLD_APP_PASSWORD="$(sed -n 's/^WP_APP_PASSWORD=//p' "$ENV_FILE")"
fi
rm -f "$STATE_DIR/app-password"

# shellcheck disable=SC2016 # PHP code, not shell expansions
WP_INSTALL_PHP='
$_SERVER["HTTP_HOST"] = getenv("TURISMO_WP_HOST");
$_SERVER["SERVER_NAME"] = "127.0.0.1";
$_SERVER["SERVER_PORT"] = getenv("TURISMO_WP_PORT");
$_SERVER["REQUEST_URI"] = "/";
$_SERVER["REQUEST_METHOD"] = "GET";
$_SERVER["SERVER_PROTOCOL"] = "HTTP/1.1";
define("WP_INSTALLING", true);
umask(077); // the password files written below are private
// Pluggable: no "your new site" e-mail.
function wp_new_blog_notification($blog_title, $blog_url, $user_id, $password) {}
require getenv("TURISMO_WP_DOCROOT") . "/wp-load.php";
require_once ABSPATH . "wp-admin/includes/upgrade.php";
require_once ABSPATH . "wp-admin/includes/user.php";
// No outgoing HTTP during setup (permalink probes, update checks...).
add_filter("pre_http_request", fn() => new WP_Error("turismo_offline", "offline during setup"));

$url = getenv("TURISMO_WP_URL");
$user_login = getenv("TURISMO_WP_ADMIN_USER");
$email = "admin@example.com";
$new_password = wp_generate_password(24, false);

if (!is_blog_installed()) {
    fwrite(STDERR, "wp-setup: running wp_install()\n");
    $result = wp_install("Turismo (tests)", $user_login, $email, false, "", $new_password);
    if (is_wp_error($result)) { fwrite(STDERR, $result->get_error_message() . "\n"); exit(1); }
    file_put_contents(getenv("TURISMO_STATE_DIR") . "/admin-password", $new_password . "\n");
} else {
    fwrite(STDERR, "wp-setup: WordPress already installed\n");
}
update_option("siteurl", $url);
update_option("home", $url);
update_option("blog_public", "0");

$user = get_user_by("login", $user_login);
if (!$user) {
    $id = wp_insert_user(["user_login" => $user_login, "user_pass" => $new_password,
        "user_email" => "turismo-admin@example.com", "role" => "administrator"]);
    if (is_wp_error($id)) { fwrite(STDERR, $id->get_error_message() . "\n"); exit(1); }
    file_put_contents(getenv("TURISMO_STATE_DIR") . "/admin-password", $new_password . "\n");
    $user = get_user_by("id", $id);
}
if (!user_can($user, "edit_posts")) { $user->set_role("administrator"); }

// Pretty permalinks: /wp-json/ works (the router sends unknown paths to index.php).
global $wp_rewrite;
if (get_option("permalink_structure") !== "/%postname%/") {
    $wp_rewrite->set_permalink_structure("/%postname%/");
}
delete_option("rewrite_rules"); // rebuilt on the next request, with the REST and CPT rules

if (!wp_is_application_passwords_available_for_user($user)) {
    fwrite(STDERR, "wp-setup: Application Passwords are not available (is WP_ENVIRONMENT_TYPE local?)\n");
    exit(1);
}
// Reuse the password from the previous run if it is still valid, else make a new one.
$name = getenv("TURISMO_APP_PASSWORD_NAME");
$old = getenv("TURISMO_OLD_APP_PASSWORD");
$plain = null;
foreach (WP_Application_Passwords::get_user_application_passwords($user->ID) as $item) {
    if ($item["name"] !== $name) { continue; }
    if ($plain === null && $old !== false && $old !== "" && wp_check_password($old, $item["password"], $user->ID)) {
        $plain = $old;
    } else {
        WP_Application_Passwords::delete_application_password($user->ID, $item["uuid"]);
    }
}
if ($plain === null) {
    $created = WP_Application_Passwords::create_new_application_password($user->ID, ["name" => $name]);
    if (is_wp_error($created)) { fwrite(STDERR, $created->get_error_message() . "\n"); exit(1); }
    $plain = $created[0];
    fwrite(STDERR, "wp-setup: created Application Password \"$name\" for $user_login\n");
} else {
    fwrite(STDERR, "wp-setup: reusing Application Password \"$name\" for $user_login\n");
}
file_put_contents(getenv("TURISMO_STATE_DIR") . "/app-password", $plain . "\n");
'

log "installing/updating WordPress"
TURISMO_WP_HOST="$WP_HOST:$PORT" TURISMO_WP_PORT="$PORT" TURISMO_WP_URL="$WP_URL" \
  TURISMO_WP_DOCROOT="$WP_DOCROOT" TURISMO_WP_ADMIN_USER="$ADMIN_USER" \
  TURISMO_STATE_DIR="$STATE_DIR" TURISMO_APP_PASSWORD_NAME="$APP_PASSWORD_NAME" \
  TURISMO_OLD_APP_PASSWORD="$OLD_APP_PASSWORD" \
  php -d display_errors=stderr -d error_reporting=E_ALL\&~E_DEPRECATED\&~E_NOTICE \
  -r "$WP_INSTALL_PHP" >&2 || die "WordPress install step failed"
[[ -s "$STATE_DIR/app-password" ]] || die "no Application Password was written"
APP_PASSWORD="$(tr -d '\n' <"$STATE_DIR/app-password")"

# ---------------------------------------------------------------- PHP server
"$SCRIPT_DIR/php-server.sh" start || die "PHP server did not start"

# ---------------------------------------------------------------- env
(
  umask 077
  cat >"$ENV_FILE" <<ENV
WP_URL=$WP_URL
WP_USER=$ADMIN_USER
WP_APP_PASSWORD=$APP_PASSWORD
WP_POST_TYPE=$POST_TYPE_REST_BASE
ENV
)
log "WordPress ready at $WP_URL (REST: $WP_URL/wp-json/wp/v2/$POST_TYPE_REST_BASE)"
cat "$ENV_FILE"

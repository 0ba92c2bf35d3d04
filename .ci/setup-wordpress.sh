#!/usr/bin/env bash
# Installs Debian's WordPress, MariaDB and PHP for tests/api/ticket_wordpress_test.ts,
# which starts and stops its own private instance with scripts/wordpress/setup.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
[ "$(id -u)" = 0 ] || { echo "setup-wordpress: not root, the WordPress tests will be skipped"; exit 0; }
start=$(date +%s)
bash scripts/wordpress/setup.sh >/dev/null
bash scripts/wordpress/stop.sh >/dev/null
echo "setup-wordpress: WordPress installed and checked in $(($(date +%s) - start)) s"

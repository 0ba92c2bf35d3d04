#!/usr/bin/env bash
# The browser tests (tests/browser/pages_browser_test.ts) drive Debian's Chromium headless.
# Installs it, and a colour emoji font so screenshots show the badges' emoji,
# only when missing; `apt-get update` only when the package lists are empty.
# Idempotent: a second run does nothing.
set -euo pipefail

packages=()
[ -x /usr/bin/chromium ] || packages+=(chromium)
fc-list 2>/dev/null | grep -qi "Noto Color Emoji" || packages+=(fonts-noto-color-emoji)
[ ${#packages[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then
    SUDO=sudo
  else
    echo "setup-chromium: not root and no sudo; the browser tests will be skipped" >&2
    exit 0
  fi
else
  SUDO=
fi

export DEBIAN_FRONTEND=noninteractive
if ! apt-cache show chromium >/dev/null 2>&1 ||
  [ -z "$(ls -A /var/lib/apt/lists 2>/dev/null | grep -v -e lock -e partial)" ]; then
  $SUDO apt-get update -qq || echo "setup-chromium: apt-get update reported errors (continuing)" >&2
fi
echo "Installing ${packages[*]} for the browser tests..."
$SUDO apt-get install -y -qq --no-install-recommends "${packages[@]}" >/dev/null
/usr/bin/chromium --version

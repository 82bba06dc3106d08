#!/usr/bin/env sh
# Debian's Chromium for the viewer's browser test (playwright-core drives it; no browser
# is ever downloaded by a test tool). Does nothing when /usr/bin/chromium exists. Needs
# root (or password-less sudo) and apt-get; elsewhere it says what to do and goes on:
# the browser test then fails under CI=true and is skipped otherwise.
set -eu
if [ -x /usr/bin/chromium ]; then exit 0; fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "install-chromium: no apt-get here; install Chromium at /usr/bin/chromium for the viewer's browser test" >&2
  exit 0
fi
SUDO=""
if [ "$(id -u)" != "0" ]; then
  if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then SUDO="sudo -n"; else
    echo "install-chromium: not root; run 'sudo apt-get install -y chromium' for the viewer's browser test" >&2
    exit 0
  fi
fi
echo "install-chromium: apt-get install chromium" >&2
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends chromium >/dev/null
/usr/bin/chromium --version >&2

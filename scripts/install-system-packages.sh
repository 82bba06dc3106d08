#!/usr/bin/env sh
# Debian's system packages the tests use, in one apt-get call (no test tool ever
# downloads a browser or a binary):
#   chromium     the viewer's browser test (playwright-core drives /usr/bin/chromium);
#   bubblewrap   the OS sandbox of agent and exec commands (docs/sandbox.md);
#   tmux         the TUI test;
#   postgresql   the PostgreSQL store's tests: they run initdb and pg_ctl from
#                /usr/lib/postgresql/<version>/bin on a throwaway cluster of their own
#                (packages/storage/test/_postgres.ts); the system service the package
#                may start is never used.
# Installs only what is missing; does nothing when all are there. Needs root (or
# password-less sudo) and apt-get; elsewhere it says what to do and goes on: the tests
# needing a missing package then fail under CI=true and are skipped otherwise.
set -eu
MISSING=""
[ -x /usr/bin/chromium ] || MISSING="$MISSING chromium"
command -v bwrap >/dev/null 2>&1 || MISSING="$MISSING bubblewrap"
command -v tmux >/dev/null 2>&1 || MISSING="$MISSING tmux"
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || MISSING="$MISSING postgresql"
if [ -z "$MISSING" ]; then exit 0; fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "install-system-packages: no apt-get here; install$MISSING for the browser, sandbox, TUI and PostgreSQL tests" >&2
  exit 0
fi
SUDO=""
if [ "$(id -u)" != "0" ]; then
  if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then SUDO="sudo -n"; else
    echo "install-system-packages: not root; run 'sudo apt-get install -y$MISSING' for the browser, sandbox, TUI and PostgreSQL tests" >&2
    exit 0
  fi
fi
echo "install-system-packages: apt-get install$MISSING" >&2
$SUDO apt-get update -qq
# shellcheck disable=SC2086
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $MISSING >/dev/null
if [ -x /usr/bin/chromium ]; then /usr/bin/chromium --version >&2; fi
if command -v bwrap >/dev/null 2>&1; then bwrap --version >&2; fi
if command -v tmux >/dev/null 2>&1; then tmux -V >&2; fi
for initdb in /usr/lib/postgresql/*/bin/initdb; do if [ -x "$initdb" ]; then "$initdb" --version >&2; fi; done

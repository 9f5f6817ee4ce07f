#!/usr/bin/env bash
# Install what the test suite needs on a fresh machine, then run the whole suite.
# Usage (from the repository root): bash tests/run_all.sh [extra pytest arguments]
set -euo pipefail
cd "$(dirname "$0")/.."
python -m pip install --quiet -r requirements-dev.txt
if ! command -v chromium >/dev/null 2>&1; then
  # Debian's Chromium drives the browser tests; Playwright's own browser download does not work offline.
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq && $SUDO apt-get install -y -qq chromium >/dev/null
fi
python -m pytest "$@"

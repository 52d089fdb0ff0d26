#!/usr/bin/env bash
# The web build's end-to-end test in Debian's headless Chromium (see web/e2e/e2e.mjs): builds web/dist when it is
# missing (or when BUILD=1), installs Chromium and the test's npm packages when missing, then runs the test.
# Besides playing a game it checks the web app (manifest, installability, service worker, offline reload, update)
# and measures the first load, idle frames and CPU. Then web/e2e/teach.mjs (a game review and the analysis board)
# web/e2e/worker.mjs (the engine's Web Worker: its tables stored and found again, its speed against the native
# engine, Master, the analysis board and a 40-turn review with the page drawing every frame, and the fallbacks) and
# web/e2e/online.mjs (two pages playing each other through a real fanorona-server, killed and restarted midway). Screenshots, the console logs and the figures land in web/e2e-out/.
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
# The engine as a teacher: a review and the analysis board, with the page kept drawing while they think.
node web/e2e/teach.mjs
# The engine worker, its speed compared with the native engine's (a release build, as players get it).
# (scripts/setup.sh, sourced above, pointed CARGO_TARGET_DIR at the shared build folder.)
cargo build --release -p fanorona-tools --bin fanorona-cli
CLI="$CARGO_TARGET_DIR/release/fanorona-cli" node web/e2e/worker.mjs
# The real server for online play (a debug build is plenty for two players).
cargo build --workspace --bin fanorona-server
# Online play: two pages playing each other.
SERVER="$CARGO_TARGET_DIR/debug/fanorona-server" node web/e2e/online.mjs

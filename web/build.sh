#!/usr/bin/env bash
# Builds the browser version into web/dist/ (index.html at its root; serve the folder with any static server).
# Installs what a fresh Debian machine lacks: the wasm32 target, wasm-bindgen-cli at the exact version of the
# lockfile, and (release builds) npm's binaryen for wasm-opt. PROFILE=web-dev builds faster and skips wasm-opt.
set -euo pipefail
cd "$(dirname "$0")/.."
PROFILE="${PROFILE:-web-release}"

# Node.js and npm come from Debian only where no other install provides them (mixing the two breaks apt).
node_pkgs=(); command -v node >/dev/null 2>&1 || node_pkgs+=(nodejs); command -v npm >/dev/null 2>&1 || node_pkgs+=(npm)
source scripts/setup.sh pkg-config "${node_pkgs[@]}"
# Its own build folder: the wasm build then never waits for (or invalidates) the desktop build.
export CARGO_TARGET_DIR="${WEB_TARGET_DIR:-$HOME/.cache/fanorona-web-target}"

rustup target list --installed | grep -q '^wasm32-unknown-unknown$' || rustup target add wasm32-unknown-unknown
# wasm-bindgen's command-line tool must match the library exactly. (`--locked` fails on some registry mirrors.)
WB_VERSION="$(grep -A1 '^name = "wasm-bindgen"$' Cargo.lock | sed -n 's/^version = "\(.*\)"$/\1/p')"
if ! wasm-bindgen --version 2>/dev/null | grep -q " $WB_VERSION\$"; then
  cargo install wasm-bindgen-cli --version "$WB_VERSION"
fi
if [ "$PROFILE" = web-release ] && [ ! -x web/node_modules/.bin/wasm-opt ]; then
  (cd web && npm ci --no-audit --no-fund)
fi

cargo build --target wasm32-unknown-unknown --profile "$PROFILE" --bin fanorona
rm -rf web/dist && mkdir -p web/dist
wasm-bindgen --target web --no-typescript --out-dir web/dist --out-name fanorona \
  "$CARGO_TARGET_DIR/wasm32-unknown-unknown/$PROFILE/fanorona.wasm"
raw=$(stat -c %s web/dist/fanorona_bg.wasm)
if [ "$PROFILE" = web-release ]; then
  # Debian's binaryen 108 produced a module that does not load; npm's is current.
  web/node_modules/.bin/wasm-opt -Oz --enable-bulk-memory --enable-nontrapping-float-to-int \
    --enable-sign-ext --enable-mutable-globals --strip-debug --strip-producers \
    web/dist/fanorona_bg.wasm -o web/dist/fanorona_bg.opt.wasm
  mv web/dist/fanorona_bg.opt.wasm web/dist/fanorona_bg.wasm
fi
cp web/index.html web/audio-unlock.js web/dist/
size=$(stat -c %s web/dist/fanorona_bg.wasm)
gz=$(gzip -9 -c web/dist/fanorona_bg.wasm | wc -c)
echo "web/dist ready ($PROFILE): fanorona_bg.wasm $((raw / 1024)) KiB from wasm-bindgen, $((size / 1024)) KiB now, $((gz / 1024)) KiB gzipped"
echo "serve it with: python3 -m http.server 8080 --directory web/dist"

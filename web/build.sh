#!/usr/bin/env bash
# Builds the browser version into web/dist/ (index.html at its root; serve the folder with any static server).
# Installs what a fresh Debian machine lacks: the wasm32 target, wasm-bindgen-cli at the exact version of the
# lockfile, and (release builds) npm's binaryen for wasm-opt. PROFILE=web-dev builds faster and skips wasm-opt.
# Besides the game, web/dist/ holds the web app's manifest, icons (drawn by web/icons.mjs), the service worker for
# offline play (web/sw.js, stamped with this build's id) and .br/.gz copies of the big files.
set -euo pipefail
cd "$(dirname "$0")/.."
PROFILE="${PROFILE:-web-release}"

# Node.js and npm come from Debian only where no other install provides them (mixing the two breaks apt).
node_pkgs=(); command -v node >/dev/null 2>&1 || node_pkgs+=(nodejs); command -v npm >/dev/null 2>&1 || node_pkgs+=(npm)
# zopfli writes the smaller .gz copies (web/compress.mjs).
source scripts/setup.sh pkg-config zopfli "${node_pkgs[@]}"
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

# The game, and the engine's own module for its Web Worker (web/engine-worker.js): the search runs beside the
# page's frames, not inside them.
cargo build --target wasm32-unknown-unknown --profile "$PROFILE" --bin fanorona
cargo build --target wasm32-unknown-unknown --profile "$PROFILE" -p fanorona-engine-worker
rm -rf web/dist && mkdir -p web/dist
wasm-bindgen --target web --no-typescript --out-dir web/dist --out-name fanorona \
  "$CARGO_TARGET_DIR/wasm32-unknown-unknown/$PROFILE/fanorona.wasm"
wasm-bindgen --target web --no-typescript --out-dir web/dist --out-name fanorona_engine \
  "$CARGO_TARGET_DIR/wasm32-unknown-unknown/$PROFILE/fanorona_engine_worker.wasm"
raw=$(stat -c %s web/dist/fanorona_bg.wasm)
# wasm-bindgen's output still names its functions: what `node web/wasm-size.mjs` and `twiggy` read.
cp web/dist/fanorona_bg.wasm "$CARGO_TARGET_DIR/fanorona_bg.bindgen.wasm"
if [ "$PROFILE" = web-release ]; then
  for module in fanorona_bg fanorona_engine_bg; do
    # Debian's binaryen 108 produced a module that does not load; npm's is current.
    web/node_modules/.bin/wasm-opt -Oz --enable-bulk-memory --enable-nontrapping-float-to-int \
      --enable-sign-ext --enable-mutable-globals --enable-simd --strip-debug --strip-producers \
      "web/dist/$module.wasm" -o "web/dist/$module.opt.wasm"
    mv "web/dist/$module.opt.wasm" "web/dist/$module.wasm"
  done
fi
size=$(stat -c %s web/dist/fanorona_bg.wasm)
# The page shows the download's progress against the module's real size (a compressed transfer's Content-Length
# is the compressed size).
sed "s/__WASM_BYTES__/$size/" web/index.html > web/dist/index.html
cp web/audio-unlock.js web/manifest.webmanifest web/engine-worker.js web/dist/
node web/icons.mjs web/dist/icons
# The service worker's cache is named after this bundle: a new deploy is a new worker that replaces the old
# version's files (web/sw.js).
build_id=$(cat web/dist/index.html web/dist/fanorona.js web/dist/fanorona_bg.wasm web/dist/audio-unlock.js \
  web/dist/manifest.webmanifest web/icons.mjs web/dist/engine-worker.js web/dist/fanorona_engine.js \
  web/dist/fanorona_engine_bg.wasm | sha256sum | cut -c1-16)
sed "s/^const BUILD = \".*\";/const BUILD = \"$build_id\";/" web/sw.js > web/dist/sw.js
grep -q "const BUILD = \"$build_id\";" web/dist/sw.js
# Pre-compressed copies (.br, .gz) for servers that send them as they are (docs/web.md: "Serving the files").
node web/compress.mjs web/dist
gz=$(stat -c %s web/dist/fanorona_bg.wasm.gz)
br=$(stat -c %s web/dist/fanorona_bg.wasm.br)
engine=$(stat -c %s web/dist/fanorona_engine_bg.wasm)
engine_gz=$(stat -c %s web/dist/fanorona_engine_bg.wasm.gz)
echo "web/dist ready ($PROFILE, build $build_id): fanorona_bg.wasm $((raw / 1024)) KiB from wasm-bindgen," \
  "$((size / 1024)) KiB now, $((gz / 1024)) KiB gzipped, $((br / 1024)) KiB brotli;" \
  "fanorona_engine_bg.wasm (the engine worker's) $((engine / 1024)) KiB, $((engine_gz / 1024)) KiB gzipped"
echo "serve it with: python3 -m http.server 8080 --directory web/dist   (or a server that sends the .br/.gz files)"

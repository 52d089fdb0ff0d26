#!/usr/bin/env bash
# Runs every check of the project on a fresh Debian machine: installs what is missing, then format, lints and tests.
set -euo pipefail
cd "$(dirname "$0")/.."

need_apt=()
# Build dependencies, then Xvfb and software Vulkan/GL for the smoke test that runs the real game window.
for pkg in pkg-config libasound2-dev libudev-dev xvfb xauth mesa-vulkan-drivers libgl1-mesa-dri; do
  dpkg -s "$pkg" >/dev/null 2>&1 || need_apt+=("$pkg")
done
if [ ${#need_apt[@]} -gt 0 ]; then
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need_apt[@]}"
fi
if ! command -v cargo >/dev/null 2>&1; then
  echo "cargo is missing: install Rust 1.95 with rustup (https://rustup.rs)" >&2
  exit 1
fi
rustup component add rustfmt clippy >/dev/null 2>&1 || true

# Share one build cache between sessions and CI; correctness never depends on it.
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/fanorona-target}"

cargo fmt --all -- --check
cargo clippy --workspace --all-targets -- -D warnings
cargo test --workspace

#!/usr/bin/env bash
# Plays Fanorona on a fresh Debian machine: installs what is missing, builds, and starts the game window.
# Arguments are passed on to the game, e.g. `--demo --level 4` (see `--help`).
set -euo pipefail
cd "$(dirname "$0")/.."

need_apt=()
for pkg in pkg-config libasound2-dev libudev-dev; do
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
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/fanorona-target}"
# The dev profile optimises every dependency and the engine (see Cargo.toml) and shares its build with the tests.
exec cargo run --bin fanorona -- "$@"

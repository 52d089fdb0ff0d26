#!/usr/bin/env bash
# Plays Fanorona on a fresh Debian machine: installs what is missing, builds, and starts the game.
# Until the graphical game lands, this starts the terminal game against the CPU (arguments are passed on,
# e.g. `--level 5 --color black`).
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v cargo >/dev/null 2>&1; then
  echo "cargo is missing: install Rust 1.95 with rustup (https://rustup.rs)" >&2
  exit 1
fi
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/fanorona-target}"
exec cargo run --release -q -p fanorona-engine --bin fanorona-cli -- play "$@"

#!/usr/bin/env bash
# Plays Fanorona on a fresh Debian machine: installs what is missing, builds, and starts the game window.
# Arguments are passed on to the game, e.g. `--demo --level 4` (see `--help`).
set -euo pipefail
cd "$(dirname "$0")/.."

source scripts/setup.sh pkg-config libasound2-dev libudev-dev
# The dev profile optimises every dependency and the engine (see Cargo.toml) and shares its build with the tests.
exec cargo run --bin fanorona -- "$@"

#!/usr/bin/env bash
# Runs every check of the project on a fresh Debian machine: installs what is missing, then format, lints and tests.
set -euo pipefail
cd "$(dirname "$0")/.."

# Build dependencies, Xvfb and software Vulkan/GL for the smoke test that runs the real game window, and PostgreSQL
# for the server's tests with a shared database (each test starts and removes a throw-away cluster of its own).
source scripts/setup.sh pkg-config libasound2-dev libudev-dev xvfb xauth mesa-vulkan-drivers libgl1-mesa-dri postgresql
# Here a missing PostgreSQL fails those tests rather than skipping them.
export FANORONA_REQUIRE_POSTGRES=1
rustup component add rustfmt clippy >/dev/null 2>&1 || true

cargo fmt --all -- --check
cargo clippy --workspace --all-targets -- -D warnings
cargo test --workspace

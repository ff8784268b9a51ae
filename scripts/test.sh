#!/usr/bin/env bash
# Sets up, builds and runs every test (unit tests and end-to-end CLI tests against PyTorch).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh "$@"
build="${MODREC_BUILD_DIR:-build}"
ctest --test-dir "$build" --output-on-failure -j"$(nproc)"

#!/usr/bin/env bash
# Builds everything with AddressSanitizer + UndefinedBehaviorSanitizer (-DMODREC_SANITIZE=ON) into
# build-asan and runs the whole ctest suite under it: the unit tests and the Python e2e tests,
# whose modrec child processes inherit the sanitizer options exported here. Any ASan, UBSan or
# LeakSanitizer report fails its test (exit 99). Suppressions: scripts/sanitizers/*.supp.
# usage: scripts/sanitize.sh [ctest arguments...]   (JOBS=2 by default; MODREC_ASAN_BUILD=dir)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${MODREC_ASAN_BUILD:-$root/build-asan}"
source "$root/scripts/sanitizers/env.sh"
source "$root/scripts/torch_env.sh"
torch_env_ensure

cmake -S "$root" -B "$build" -G Ninja -DMODREC_SANITIZE=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo $(torch_cmake_args) >/dev/null
cmake --build "$build" -j"${JOBS:-2}"
ctest --test-dir "$build" --output-on-failure -j"${JOBS:-2}" "$@"

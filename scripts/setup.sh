#!/usr/bin/env bash
# Installs what modrec needs and builds it into build/ (or $MODREC_BUILD_DIR):
# - Debian's packages (skipped when all are present): compilers, CLI11, nlohmann-json, spdlog,
#   doctest, jq, graphviz (`modrec graph --format svg` runs its dot), chromium (the report's
#   tests open the page headless), slurm-wlm and munge (tests/test_shards.py runs docs/record.md's
#   job array on a one-node Slurm it starts), clang (the build prefers it: CMakeLists.txt),
#   clang-format (a test checks the sources' formatting against .clang-format), zsh and fish
#   (tests/test_shell.py loads `modrec completion zsh|fish` into them);
# - the pinned PyTorch environment (scripts/torch_env.sh): LibTorch for the build, and the Python
#   the tests compare against, created once per machine in a cache directory outside the clone.
# Extra arguments go to cmake's configure step. MODREC_BUILD_TARGET builds that target alone
# (scripts/demo.sh: the binary, not the tests).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/torch_env.sh

packages=(build-essential cmake ninja-build ccache libcli11-dev nlohmann-json3-dev libspdlog-dev
  doctest-dev libgoogle-perftools-dev python3-venv jq graphviz chromium slurm-wlm munge
  clang clang-format zsh fish)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}" >&2
  sudo_cmd=""
  [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
  $sudo_cmd apt-get update -q
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -q --no-install-recommends "${missing[@]}"
fi
torch_env_ensure

build="${MODREC_BUILD_DIR:-build}"
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo "$(torch_cmake_args)" "$@" >/dev/null
cmake --build "$build" -j"$(nproc)" ${MODREC_BUILD_TARGET:+--target "$MODREC_BUILD_TARGET"}

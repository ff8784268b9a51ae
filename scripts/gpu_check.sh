#!/usr/bin/env bash
# The GPU check (CI has no GPU): builds modrec against the PyTorch already installed on a machine
# with an NVIDIA GPU, runs the whole suite there (test_cuda.py's tests run instead of skipping) and
# the benchmark with --device cuda. Exits 1 when a test failed.
#
#   scripts/gpu_check.sh [--python PY] [--deps PREFIX] [--build DIR] [--no-bench]
#
# PY: a Python whose torch gives the LibTorch to build against and is the tests' oracle (default
# python3); it also needs numpy, torchvision and torchinfo==1.8.0. PREFIX: where CLI11,
# nlohmann_json, spdlog with its fmt, and doctest are installed, on a machine without Debian's
# packages (a copy of Debian's /usr/include/{CLI,nlohmann,spdlog,fmt,doctest}, their libraries and
# CMake files, laid out as under /usr). Logs and the benchmark's JSON go to DIR/gpu-check/.
set -euo pipefail
cd "$(dirname "$0")/.."

python=python3
deps=""
build=build-gpu
bench=1
while (($#)); do
  case "$1" in
    --python) python="$2"; shift 2 ;;
    --deps) deps="$(realpath "$2")"; shift 2 ;;
    --build) build="$2"; shift 2 ;;
    --no-bench) bench=0; shift ;;
    *) echo "gpu_check: unknown argument $1" >&2; exit 2 ;;
  esac
done
"$python" -c 'import torch; assert torch.cuda.is_available(), "PyTorch sees no GPU"'
logs="$build/gpu-check"
mkdir -p "$logs"

cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  ${deps:+-DCMAKE_PREFIX_PATH="$deps"} -DMODREC_PYTHON="$(command -v "$python")" \
  >"$logs/configure.log"
start=$SECONDS
cmake --build "$build" -j"$(nproc)" >"$logs/build.log"
echo "gpu_check: built in $((SECONDS - start)) s" >&2
start=$SECONDS
suite=0
ctest --test-dir "$build" --output-on-failure -j"$(($(nproc) / 2))" >"$logs/ctest.log" 2>&1 || suite=1
tail -n 40 "$logs/ctest.log"
echo "gpu_check: suite ran in $((SECONDS - start)) s" >&2
if ((bench)); then
  "$python" scripts/make_samples.py --out "$build/models" --only resnet50 resnet18 --torchvision
  "$python" scripts/bench/bench.py --build "$build" --device cuda --json "$logs/bench.json" |
    tee "$logs/bench.txt"
fi
exit "$suite"

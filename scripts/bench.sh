#!/usr/bin/env bash
# modrec's benchmark against plain LibTorch (see scripts/bench/bench.py for what is measured).
#
#   scripts/bench.sh [--build-dir DIR] [--no-build] [--json FILE] [bench.py options...]
#
# Builds modrec and plain_libtorch in Release into DIR (default build-bench), writes the scripted
# torchvision resnet18/resnet50 with random weights into DIR/models if missing (section 9 exports
# resnet18.pt2 there from resnet18.pt, section 10 a Llama-shaped llama.pt2), then runs the
# measurements and prints the report. Takes ~5-10 minutes on 2 cores, and section 10 (`--only
# llm` runs it alone) about as long again. `--only big` measures summary on big checkpoints it
# writes into DIR/models-big (~8.4 GB; scripts/bench/big_summary.py).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/torch_env.sh
torch_env_ensure

build=build-bench
do_build=1
passthrough=()
while (($#)); do
  case "$1" in
    --build-dir) build="$2"; shift 2 ;;
    --no-build) do_build=0; shift ;;
    *) passthrough+=("$1"); shift ;;
  esac
done

if ((do_build)); then
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release $(torch_cmake_args) >/dev/null
  cmake --build "$build" --target modrec plain_libtorch stats_throughput -j"$(nproc)"
fi
if [[ " ${passthrough[*]:-} " != *" big "* ]] &&
  [[ ! -f "$build/models/resnet50.pt" || ! -f "$build/models/resnet18.pt" ]]; then
  "$MODREC_PYTHON" scripts/make_samples.py --out "$build/models" --only resnet50 resnet18 \
    --torchvision
fi
exec "$MODREC_PYTHON" scripts/bench/bench.py --build "$build" "${passthrough[@]}"

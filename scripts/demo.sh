#!/usr/bin/env bash
# Sets up and builds modrec, then runs its main jobs on a bundled sample: the layer table, a
# recording of two layers forward and backward, and a CI check of that recording.
set -euo pipefail
cd "$(dirname "$0")/.."
MODREC_BUILD_TARGET=modrec bash scripts/setup.sh  # the binary alone: the demo runs no test
build="${MODREC_BUILD_DIR:-build}"
model=samples/TinyConvNet.pt
input=samples/TinyConvNet.input.pt
out="${MODREC_DEMO_OUT:-$build/demo-run}"

"$build/modrec" summary "$model" --input "$input" --columns input_size,output_size,num_params,mult_adds
"$build/modrec" record "$model" --input "$input" --layers 2-2,type:Linear --out "$out" --force
"$build/modrec" check "$out" --max-abs 100

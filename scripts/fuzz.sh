#!/usr/bin/env bash
# Builds the libFuzzer targets (clang, ASan + UBSan, tests/fuzz/) into build-fuzz and runs each
# for SECONDS, seeded with samples/ and small generated tensor files. Prints executions, coverage
# and findings per target; exits non-zero when a target found a crash, leak, sanitizer report,
# timeout or out-of-memory input (saved as build-fuzz/findings/<target>/crash-*, leak-*, ...).
# usage: scripts/fuzz.sh [SECONDS=360] [TARGET...]   targets: tensor_file model_file (default both)
# Reproduce one finding: build-fuzz/fuzz_<target> build-fuzz/findings/<target>/crash-<sha>
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${MODREC_FUZZ_BUILD:-$root/build-fuzz}"
seconds="${1:-360}"
(($#)) && shift
targets=("$@")
((${#targets[@]})) || targets=(tensor_file model_file)
source "$root/scripts/sanitizers/env.sh"

build_targets() {
  [ -f "$build/build.ninja" ] ||
    CC=clang CXX=clang++ cmake -S "$root" -B "$build" -G Ninja -DMODREC_FUZZ=ON \
      -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
  cmake --build "$build" -j"${JOBS:-2}" --target "${targets[@]/#/fuzz_}"
}

# Seeds, read-only: the samples a target reads plus the generated small files.
make_seeds() {
  local generated="$build/seeds/generated"
  [ -d "$generated" ] || /usr/bin/python3 "$root/tests/fuzz/make_seeds.py" "$generated"
  mkdir -p "$build/seeds/tensor_file" "$build/seeds/model_file"
  cp -u "$root"/samples/*.input.pt "$generated"/* "$build/seeds/tensor_file/"
  cp -u "$root"/samples/*.pt "$generated"/*.pt "$build/seeds/model_file/"
}

stat_of() { sed -n "s/^stat::$1: *//p" "$2" | tail -1; }

# Runs one target; its corpus (build-fuzz/corpus/<target>) grows across runs.
fuzz() {
  local target="$1" log="$build/fuzz_$1.log" findings="$build/findings/$1"
  mkdir -p "$build/corpus/$target" "$findings"
  local rc=0
  "$build/fuzz_$target" -max_total_time="$seconds" -print_final_stats=1 -timeout=20 \
    -rss_limit_mb=4096 -dict="$root/tests/fuzz/npy_zip.dict" -artifact_prefix="$findings/" \
    "$build/corpus/$target" "$build/seeds/$target" >"$log" 2>&1 || rc=$?
  local cov
  cov="$(grep -o 'cov: [0-9]* ft: [0-9]*' "$log" | tail -1 || true)"
  echo "fuzz_$target: rc=$rc executions=$(stat_of number_executed_units "$log") ${cov:-cov: ?}" \
    "corpus=$(ls "$build/corpus/$target" | wc -l) findings=$(ls "$findings" | wc -l) log=$log"
  if ((rc)); then grep -m3 -E '^==[0-9]+==ERROR|SUMMARY|runtime error|uncaught exception' "$log" || true; fi
  return "$rc"
}

build_targets
make_seeds
status=0
for t in "${targets[@]}"; do fuzz "$t" || status=1; done
exit "$status"

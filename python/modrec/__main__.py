"""The `modrec` command of the pip package: runs the binary in this process's place (exec).

Before that it checks what the dynamic loader cannot say clearly: that this Python environment
holds torch, of the minor release the binary was built against (LibTorch's C++ ABI changes with
each). torch is found without importing it (a second or more); the binary's RPATH points at the
torch/lib beside this package in site-packages, and when torch lives elsewhere (a --user install
beside a system torch, a venv with system site-packages) its folder is handed to the loader.
"""
from __future__ import annotations

import os
import sys
from importlib import metadata, util
from pathlib import Path

from ._build_info import MODREC_VERSION, TORCH_VERSION

# The contract's code for "modrec cannot run in this environment" (README, Exit codes).
EXIT_ENVIRONMENT = 6


def _minor(version: str) -> str:
    return ".".join(version.split("+")[0].split(".")[:2])


def _refuse(what: str, hint: str) -> None:
    sys.stderr.write(f"modrec: error: {what} ({sys.executable}): {hint}\n")
    sys.exit(EXIT_ENVIRONMENT)


def _torch_lib_dir() -> Path:
    want = _minor(TORCH_VERSION)
    install = f"pip install 'torch=={want}.*', or a modrec built for the torch you have"
    spec = util.find_spec("torch")
    if spec is None or not spec.submodule_search_locations:
        _refuse(f"torch is not installed in this Python; modrec {MODREC_VERSION} needs torch {want}",
                install)
    try:
        found = metadata.version("torch")
    except metadata.PackageNotFoundError:
        found = "of an unknown version"
    if _minor(found) != want:
        _refuse(f"modrec {MODREC_VERSION} was built for torch {want} and this Python has torch "
                f"{found}", install)
    return Path(spec.submodule_search_locations[0]) / "lib"


def main() -> None:
    binary = Path(__file__).resolve().parent / "bin" / "modrec"
    lib = _torch_lib_dir()
    env = os.environ
    beside = binary.parent.parent.parent / "torch" / "lib"
    if not beside.is_dir() or not os.path.samefile(beside, lib):
        env = dict(env, LD_LIBRARY_PATH=os.pathsep.join(
            p for p in (str(lib), env.get("LD_LIBRARY_PATH", "")) if p))
    os.execve(binary, ["modrec", *sys.argv[1:]], env)


if __name__ == "__main__":
    main()

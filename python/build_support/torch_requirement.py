"""pyproject.toml's provider of the wheel's `dependencies`: the torch minor release it is built
against, found in the Python that builds it.

LibTorch's C++ ABI changes with every minor release, so a binary built against torch 2.14.x runs
with any 2.14.x and no other: the wheel requires `torch==2.14.*`. The build must run in the
environment that holds that torch (`pip install --no-build-isolation .`); an isolated build
environment has none, and this stops it with one line saying so before CMake starts.
"""
from __future__ import annotations

import sys
from importlib import metadata


def torch_minor() -> str:
    try:
        version = metadata.version("torch")
    except metadata.PackageNotFoundError:
        sys.exit(
            f"modrec: error: torch is not installed in the Python that builds modrec "
            f"({sys.executable}): install torch there first, then build with "
            f"`pip install --no-build-isolation .` (an isolated build has no torch to build against)"
        )
    major, minor = version.split("+")[0].split(".")[:2]
    return f"{major}.{minor}"


def dynamic_metadata(settings, project):
    return {"dependencies": [f"torch=={torch_minor()}.*"]}

"""Running the binary for the Python API: which binary (MODREC_BIN, else the one the wheel
installed, checked as the `modrec` command checks it), its exit status turned into the
exceptions of _errors, its warning lines into Python warnings."""
from __future__ import annotations

import functools
import os
import subprocess
import sys
import warnings
from typing import Optional, Sequence, Tuple

from ._binary import Refusal, loader_dir, packaged_binary, with_loader_dir
from ._errors import InstallError, ModrecWarning, error_for

WARNING = "modrec: warning: "


@functools.lru_cache(maxsize=None)
def _packaged() -> Tuple[str, Optional[str]]:
    """The installed binary and the folder its loader needs (checked once per process)."""
    binary = packaged_binary()
    if not binary.is_file():
        raise Refusal("no modrec binary is installed beside this package",
                      "install the modrec wheel, or set MODREC_BIN to a built modrec binary")
    return str(binary), loader_dir(binary)


def binary_and_env() -> Tuple[str, dict]:
    """$MODREC_BIN (a built binary, run as it is) or the installed one; raises InstallError."""
    explicit = os.environ.get("MODREC_BIN")
    if explicit:
        return explicit, dict(os.environ)
    try:
        binary, lib = _packaged()
    except Refusal as refusal:
        raise InstallError(refusal.line) from None
    return binary, with_loader_dir(os.environ, lib)


def _caller_level() -> int:
    """warnings.warn's stacklevel that names the first caller outside this package."""
    frame, level = sys._getframe(1), 1
    while frame is not None and frame.f_globals.get("__name__", "").startswith("modrec."):
        frame, level = frame.f_back, level + 1
    return level


def run(args: Sequence[str], ok: Sequence[int] = (0,)) -> Tuple[int, str]:
    """Runs `modrec ARGS…`; returns (status, stdout). Its warnings become ModrecWarning; a
    status outside `ok` raises the ModrecError subclass of that exit code."""
    binary, env = binary_and_env()
    command = [binary, *map(str, args)]
    done = subprocess.run(command, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                          env=env)
    for line in done.stderr.splitlines():
        if line.startswith(WARNING):
            warnings.warn(line[len(WARNING):], ModrecWarning, stacklevel=_caller_level())
    if done.returncode not in ok:
        raise error_for(done.returncode, done.stderr, command[1:])
    return done.returncode, done.stdout


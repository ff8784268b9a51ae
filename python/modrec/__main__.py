"""The `modrec` command of the pip package: runs the binary in this process's place (exec),
once _binary has checked that this environment's torch is the one it was built against."""
from __future__ import annotations

import os
import sys

from ._binary import EXIT_ENVIRONMENT, Refusal, loader_dir, packaged_binary, with_loader_dir


def main() -> None:
    binary = packaged_binary()
    try:
        lib = loader_dir(binary)
    except Refusal as refusal:
        sys.stderr.write(refusal.line + "\n")
        sys.exit(EXIT_ENVIRONMENT)
    env = os.environ if lib is None else with_loader_dir(os.environ, lib)
    os.execve(binary, ["modrec", *sys.argv[1:]], env)


if __name__ == "__main__":
    main()

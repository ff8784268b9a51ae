"""The exceptions the Python API raises: one class per exit code of the CLI contract
(docs/cli.md, "Errors and exit codes"), each carrying the one line the binary printed."""
from __future__ import annotations

from typing import Optional, Sequence


class ModrecError(Exception):
    """modrec refused or failed. `line` is the CLI's one line (`modrec: error: <what> (<where>):
    <what to do>`), `code` its exit status, `command` the arguments it ran with (None where the
    API refused before running it), `stderr` everything it printed there."""

    code: int = 0

    def __init__(self, line: str, *, code: Optional[int] = None,
                 command: Optional[Sequence[str]] = None, stderr: str = "") -> None:
        super().__init__(line)
        self.line = line
        if code is not None:
            self.code = code
        self.command = list(command) if command is not None else None
        self.stderr = stderr


class UsageError(ModrecError):
    """Exit 2: a bad or missing option, a bad layer selector, options that cannot work together,
    a number out of range, an output over an input, a forward argument unknown or missing."""

    code = 2


class FileError(ModrecError):
    """Exit 3: an input file is unreadable or not what it must be (model, tensor file, run
    directory)."""

    code = 3


class ModelError(ModrecError):
    """Exit 4: the model failed on the given input (the line names the call that was running)."""

    code = 4


class OutputError(ModrecError):
    """Exit 5: an output could not be written (an existing `out` without force=True,
    permissions, disk full); nothing partial is left."""

    code = 5


class InstallError(ModrecError):
    """Exit 6: modrec cannot run in this environment: torch is missing or of another minor
    release than the binary was built against, or no binary is installed."""

    code = 6


class InternalError(ModrecError):
    """Exit 70: a bug in modrec, not in the input; the line asks for a report."""

    code = 70


class Interrupted(ModrecError):
    """Exit 130 or 143: the binary was interrupted (SIGINT, SIGTERM); its partial output is
    removed."""

    code = 130


class ModrecWarning(UserWarning):
    """A `modrec: warning: …` line the binary printed (LibTorch's warnings among them)."""


_BY_CODE = {c.code: c for c in (UsageError, FileError, ModelError, OutputError, InstallError,
                                InternalError)}


def error_for(code: int, stderr: str, command: Sequence[str]) -> ModrecError:
    """The exception for exit status `code`: its line is the last `modrec: error:` line of
    `stderr`, else the last line (a crash's), else the status."""
    lines = [line for line in stderr.splitlines() if line.strip()]
    errors = [line for line in lines if line.startswith("modrec: error:")]
    line = (errors or lines or [f"modrec exited with status {code}"])[-1]
    cls = Interrupted if code in (130, 143) else _BY_CODE.get(code, ModrecError)
    return cls(line, code=code, command=command, stderr=stderr)

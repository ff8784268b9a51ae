"""modrec.record, modrec.watch and modrec.merge: the commands that write run directories, each
returning the directory as a modrec.Run."""
from __future__ import annotations

import os
import tempfile
from typing import Any, Optional, Sequence, Union

from . import _process
from ._arguments import InputLike, Scratch, model_flags, option_flags
from ._run import Run, temporary_run

PathLike = Union[str, "os.PathLike[str]"]


def _write_run(command: str, model: Any, input: InputLike, out: Optional[PathLike],
               options: dict) -> Run:
    folder = None if out is not None else tempfile.mkdtemp(prefix=f"modrec-{command}-")
    target = os.fspath(out) if out is not None else os.path.join(folder, "run")
    try:
        with Scratch() as scratch:
            _process.run([command, *model_flags(model, input, options, scratch),
                          *option_flags(dict(options, out=target), scratch)])
    except BaseException:
        if folder is not None:
            os.rmdir(folder)  # the binary leaves nothing behind on failure
        raise
    return Run(target) if folder is None else temporary_run(folder, target)


def record(model: Any, input: InputLike, *, layers: Union[str, Sequence[str]] = "all",
           out: Optional[PathLike] = None, **options: Any) -> Run:
    """`modrec record`: runs `model` forward and backward on `input` and records the calls
    `layers` selects (labels "1-3", module paths, "type:Conv2d", "re:…", "depth:2", "all"; a
    list is joined by commas) into the run directory `out`, returned as a modrec.Run.

    model, input: as modrec.summary takes them (a torch module is saved, or exported by
        modrec.export, into a scratch folder removed afterwards; tensors are written to scratch
        files).
    out: the run directory; an existing one raises OutputError unless force=True. None: a
        temporary directory, removed when the returned Run is garbage-collected.
    options: any other flag of `modrec record` by name: capture=["input", "output",
        "grad_output", "param"], save="npy", batch_size=4, no_backward=True, loss="mean",
        edit=["2-3=zero"], when="nonfinite", reduce="mean", mode="train", shard="0/2"."""
    return _write_run("record", model, input, out, dict(options, layers=layers))


def watch(model: Any, input: InputLike, *, out: Optional[PathLike] = None,
          **options: Any) -> Run:
    """`modrec watch`: trains `model` on `input` with torch::optim and records statistics every
    `every` steps into `out` (as record's, None: a temporary directory); `run.steps()` is the
    series, `run.losses` every step's loss.

    options: targets=<a path or a tensor>, steps=100, every=10, lr=0.1, optimizer="adam",
        loss="cross_entropy", layers=…, capture=[…], batch_size=…."""
    return _write_run("watch", model, input, out, options)


def merge(runs: Sequence[Any], out: PathLike, **options: Any) -> Run:
    """`modrec merge`: the shard runs of one recording (`record(..., shard="K/N")`), Run objects
    or directories in any order, put together into `out` (force=True replaces it)."""
    _process.run(["merge", *map(os.fspath, runs), *option_flags(dict(options, out=out))])
    return Run(out)

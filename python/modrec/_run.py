"""modrec.Run: a run directory (docs/run-dir.md) read lazily: its manifest when a layer is asked
for, stats.json when statistics are, a tensor file when that tensor is."""
from __future__ import annotations

import gc
import json
import os
import shutil
import weakref
from contextlib import contextmanager
from functools import cached_property
from pathlib import Path
from typing import Any, Dict, Iterator, List, Optional, Union

from . import _frames
from ._errors import FileError

# Captures of a call's values (their files hold the value: a tensor, or a tuple of them).
VALUE_CAPTURES = ("input", "output", "grad_input", "grad_output")
# What to_pandas() takes from the manifest, by label, rather than from stats.csv.
LAYER_COLUMNS = ("path", "type", "call", "returned")
STEP_COLUMNS = ("step", "label", "path", "type", "capture", "tensor", "name", "at", "shape",
                "dtype")


@contextmanager
def _no_collection() -> Iterator[None]:
    """The cyclic garbage collector paused: parsing a manifest of 10,000 tensors makes enough
    containers to start full collections, which cost more than the parse (none of them can be
    garbage)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _read_json(path: Path, what: str) -> Any:
    try:
        with open(path, "rb") as f, _no_collection():
            return json.load(f)
    except (OSError, ValueError) as e:
        raise FileError(f"modrec: error: {what} cannot be read ({path}): {e}; pass a directory "
                        "written by modrec record, watch or merge") from None


def _load_file(path: Path) -> Any:
    """A tensor file of the run: torch.load(weights_only=True) of a .pt (a tuple-valued capture
    stays a tuple), a read-only NumPy memory map of a .npy."""
    if path.suffix == ".npy":
        import numpy

        return numpy.load(path, mmap_mode="r")
    import torch

    return torch.load(path, weights_only=True)


class Layer:
    """One recorded call: `label` (summary's depth-idx, "1-3"), `path` ("features.0"), `type`,
    `call` (the module's how-manieth call, from 1), `returned` (its place in return order), and
    its captures, read when asked: `output`, `input`, `grad_output`, `grad_input`, `params`,
    `param_grads`, `stats`."""

    def __init__(self, files: "_RunFiles", entry: Dict[str, Any]) -> None:
        self._run = files
        self.entry = entry
        self.label: str = entry["label"]
        self.path: str = entry["path"]
        self.type: str = entry["type"]
        self.call: int = entry["call"]
        self.returned: Optional[int] = entry.get("returned")

    @property
    def captures(self) -> List[str]:
        """The captures recorded for this call (manifest order)."""
        return list(self.entry.get("captures", {}))

    def _files(self, capture: str) -> List[Path]:
        info = self.entry.get("captures", {}).get(capture)
        if info is None:
            raise KeyError(f"{self.label} ({self.path}) has no {capture} capture; recorded: "
                           f"{', '.join(self.captures) or 'none'} (record with "
                           f"capture=[..., {capture!r}])")
        if info.get("no_gradient"):
            through = sorted({op for n in info["no_gradient"] for op in n.get("through", [])})
            raise KeyError(f"{self.label} ({self.path}): {capture} was not recorded: its gradient "
                           f"flows through an operator without a derivative "
                           f"({', '.join(through) or info['no_gradient'][0].get('reason', '')})")
        if not info.get("files") and info.get("shapes"):
            raise KeyError(f"{self.label} ({self.path}): {capture} saved no tensor file "
                           f"(save='none'); its statistics are in .stats[{capture!r}]")
        return [self._run.path / f for f in info.get("files", [])]

    def capture(self, name: str) -> Any:
        """A value capture (input, output, grad_input, grad_output) as recorded: a tensor, or a
        tuple as the call had it (.npy runs: a memory map, or a flat tuple of them); None where
        it holds no tensor (the grad_input of an input that needs no gradient)."""
        if name not in VALUE_CAPTURES:
            raise KeyError(f"{name!r} is none of {', '.join(VALUE_CAPTURES)}; parameters are "
                           ".params and .param_grads")
        files = self._files(name)
        if not files:
            return None
        if len(files) == 1:
            return _load_file(files[0])
        return tuple(_load_file(f) for f in files)

    def _named(self, capture: str) -> Dict[str, Any]:
        files = self._files(capture)
        names = self.entry["captures"][capture].get("names", [])
        return {n: _load_file(f) for n, f in zip(names, files)}

    @property
    def output(self) -> Any:
        return self.capture("output")

    @property
    def input(self) -> Any:
        return self.capture("input")

    @property
    def grad_output(self) -> Any:
        return self.capture("grad_output")

    @property
    def grad_input(self) -> Any:
        return self.capture("grad_input")

    @property
    def params(self) -> Dict[str, Any]:
        """The module's own parameters by name (capture param; recorded on a module's first
        recorded call)."""
        return self._named("param")

    @property
    def param_grads(self) -> Dict[str, Any]:
        """Their gradients, summed over the module's calls (capture param_grad)."""
        return self._named("param_grad")

    @property
    def stats(self) -> Dict[str, List[Dict[str, Any]]]:
        """stats.json's statistics of this call: {capture: [one dict per tensor]}."""
        return self._run.stats_by_label.get(self.label, {}).get("captures", {})

    def __repr__(self) -> str:
        return f"<modrec.Layer {self.label} {self.path or '(root)'} ({self.type}): " \
               f"{', '.join(self.captures)}>"


class _RunFiles:
    """What a Run's layers share: the directory, stats.json once read, and (a temporary run) its
    folder's removal. Layers hold this, not the Run, so that no cycle keeps either alive."""

    def __init__(self, path: Path) -> None:
        self.path = path

    @cached_property
    def stats_by_label(self) -> Dict[str, Dict[str, Any]]:
        stats = _read_json(self.path / "stats.json", "the run's stats.json")
        return {layer["label"]: layer for layer in stats.get("layers", [])}


class Run:
    """A run directory written by `modrec record`, `watch`, `merge` or `check MODEL`, opened
    lazily: nothing is read until asked. `run.layers` are the recorded calls in the order they
    started; `run["1-3"]` is a call by label, `run["features.0"]` by module path (a module
    called several times: `run.calls(path)`), `run[0]` by place; `run.to_pandas()` the
    statistics, `run.steps()` a watch run's series."""

    def __init__(self, path: Union[str, "os.PathLike[str]"]) -> None:
        self.path = Path(path)
        self._files = _RunFiles(self.path)

    @cached_property
    def manifest(self) -> Dict[str, Any]:
        """manifest.json."""
        return _read_json(self.path / "manifest.json", "the run's manifest.json")

    @property
    def kind(self) -> str:
        """"recording" (record, check MODEL, merge) or "watch"."""
        m = self.manifest
        return m.get("kind") or ("watch" if m.get("command") == "watch" else "recording")

    @cached_property
    def layers(self) -> List[Layer]:
        with _no_collection():
            return [Layer(self._files, entry) for entry in self.manifest.get("layers", [])]

    @cached_property
    def _by_label(self) -> Dict[str, Layer]:
        return {layer.label: layer for layer in self.layers}

    def calls(self, path: str) -> List[Layer]:
        """Every recorded call of the module at `path`, in call order."""
        return [layer for layer in self.layers if layer.path == path]

    def __getitem__(self, key: Union[str, int]) -> Layer:
        if isinstance(key, int):
            return self.layers[key]
        if key in self._by_label:
            return self._by_label[key]
        calls = self.calls(key)
        if len(calls) == 1:
            return calls[0]
        if calls:
            raise KeyError(f"{key!r} was called {len(calls)} times: "
                           f"{', '.join(c.label for c in calls)}; index by label, or "
                           f"run.calls({key!r})")
        raise KeyError(f"no recorded call is labelled or at the path {key!r} in {self.path} "
                       f"(recorded: {', '.join(l.label for l in self.layers[:8])}"
                       f"{', …' if len(self.layers) > 8 else ''})")

    def __contains__(self, key: object) -> bool:
        return key in self._by_label or any(layer.path == key for layer in self.layers)

    def __iter__(self) -> Iterator[Layer]:
        return iter(self.layers)

    def __len__(self) -> int:
        return len(self.layers)

    def to_pandas(self) -> Any:
        """The statistics as a DataFrame, one row per call, capture and tensor: label, path,
        type, call, returned, capture, tensor, element (the tensor's name, as check and diff
        give it: output[1][0], param.weight), shape (a tuple), dtype, then the statistics
        (count, finite_count, mean, std, min, max, abs_max, l2_norm, zero_fraction, nan_count,
        inf_count; NaN where a tensor has no finite value). Read from stats.csv (pandas' C
        reader: stats.json's histograms make it several times slower to parse), the calls'
        path, type and number from the manifest."""
        path = self.path / "stats.csv"
        if not path.is_file():
            raise FileError(f"modrec: error: no stats.csv in this {self.kind} run ({self.path}): "
                            "to_pandas() reads a directory written by modrec record, check "
                            "MODEL or merge; a watch run's series is steps()")
        frame = _frames.pandas().read_csv(
            path, usecols=lambda c: c not in LAYER_COLUMNS, keep_default_na=False,
            na_values=["", "nan", "NaN"], dtype={"label": str, "element": str, "shape": str})
        frame["shape"] = [tuple(int(d) for d in s.split("x")) if isinstance(s, str) else ()
                          for s in frame["shape"]]
        for i, column in enumerate(LAYER_COLUMNS):
            values = {layer.label: getattr(layer, column) for layer in self.layers}
            frame.insert(1 + i, column, frame["label"].map(values))
        return frame

    def steps(self) -> Any:
        """A watch run's steps.jsonl as a DataFrame: one row per recorded step, call, capture
        and tensor (update rows with update_ratio), with the step's loss; the histogram left
        out."""
        path = self.path / "steps.jsonl"
        if not path.is_file():
            raise FileError(f"modrec: error: no steps.jsonl in this {self.kind} run ({self.path}): "
                            "steps() reads a directory written by modrec watch")
        records = []
        with open(path, "rb") as f:
            for line in f:
                record = json.loads(line)
                record.pop("histogram", None)
                record["shape"] = tuple(record.get("shape", ()))
                records.append(record)
        return _frames.data_frame(records, STEP_COLUMNS)

    @property
    def losses(self) -> List[Optional[float]]:
        """A watch run's loss of every step (None for a non-finite one)."""
        return self.manifest.get("losses", [])

    def __repr__(self) -> str:
        return f"modrec.Run({str(self.path)!r})"

    def __fspath__(self) -> str:
        return str(self.path)


def temporary_run(folder: str, path: str) -> Run:
    """A Run in a scratch `folder` of its own, removed once neither the Run nor one of its
    layers is left."""
    run = Run(path)
    weakref.finalize(run._files, shutil.rmtree, folder, True)
    return run

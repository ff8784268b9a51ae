"""modrec.diff and modrec.check: `modrec diff` and `modrec check` (`--format json`) as
objects; exit 1 (a difference, a violation) is a verdict, not an exception."""
from __future__ import annotations

import json
from typing import Any, Dict, List, Optional

from . import _process
from ._arguments import (InputLike, Scratch, input_flags, model_file, option_flags,
                         refuse_format)
from ._frames import data_frame

# --format json's objects (docs/check-diff.md); to_pandas() leaves the histograms out.
DIFF_COLUMNS = ("label", "path", "capture", "tensor", "element", "source", "shape_a", "shape_b",
                "passed", "max_abs", "mean_abs", "max_rel", "cosine", "min_atol", "min_rtol",
                "problem", "not_recorded")
CHECK_COLUMNS = ("label", "path", "capture", "tensor", "element", "rule", "value", "limit")


def _records(items: List[Dict[str, Any]]) -> List[Dict[str, Any]]:
    out = []
    for item in items:
        record = {k: v for k, v in item.items() if k != "histogram"}
        for key in ("shape_a", "shape_b"):
            if isinstance(record.get(key), list):
                record[key] = tuple(record[key])
        out.append(record)
    return out


class Diff:
    """What `modrec diff` found: `passed`; `first_diverging`, the call where two recordings
    part ({label, path, type, capture, tensor, element}, None when none does or for
    checkpoints); `tensors`, one dict per compared tensor (max_abs, mean_abs, max_rel, cosine,
    min_atol, min_rtol, histogram, …); `memory`, one dict per layer both recordings measured
    (--columns saved_bytes,peak_bytes: run_a, run_b, changed, passed); `only_in_a`,
    `only_in_b`; `json`, the whole object."""

    def __init__(self, data: Dict[str, Any]) -> None:
        self.json = data
        self.passed: bool = data["passed"]
        self.first_diverging: Optional[Dict[str, Any]] = data.get("first_diverging")
        self.tensors: List[Dict[str, Any]] = data.get("tensors", [])
        self.memory: List[Dict[str, Any]] = data.get("memory", [])
        self.only_in_a: List[str] = data.get("only_in_a", [])
        self.only_in_b: List[str] = data.get("only_in_b", [])
        self.atol: float = data.get("atol")
        self.rtol: float = data.get("rtol")

    def to_pandas(self) -> Any:
        """A DataFrame, one row per compared tensor (histograms left out)."""
        return data_frame(_records(self.tensors), DIFF_COLUMNS)

    def __repr__(self) -> str:
        failed = sum(1 for t in self.tensors if not t.get("passed", True))
        first = self.first_diverging
        where = f"; first diverging {first['label']} {first['path']} ({first['type']}) " \
                f"{first['element']}" if first else ""
        return f"<modrec.Diff {'passed' if self.passed else 'failed'}: {failed} of " \
               f"{len(self.tensors)} tensors beyond atol={self.atol} rtol={self.rtol}{where}>"


class Check:
    """What `modrec check` found: `passed`; `violations`, one dict each (label, path, capture,
    tensor, element, rule, value, limit); `not_recorded`; `json`, the whole object."""

    def __init__(self, data: Dict[str, Any]) -> None:
        self.json = data
        self.passed: bool = data["passed"]
        self.violations: List[Dict[str, Any]] = data.get("violations", [])
        self.not_recorded: List[Dict[str, Any]] = data.get("not_recorded", [])

    def to_pandas(self) -> Any:
        """A DataFrame, one row per violation."""
        return data_frame(_records(self.violations), CHECK_COLUMNS)

    def __repr__(self) -> str:
        return f"<modrec.Check {'passed' if self.passed else 'failed'}: " \
               f"{len(self.violations)} violations>"


def diff(a: Any, b: Any, *, input: InputLike = None, atol: float = 1e-8, rtol: float = 1e-5,
         **options: Any) -> Diff:
    """`modrec diff A B`: two recordings call by call (Run objects or run directories), two
    models on one `input` (paths, or torch modules, saved or exported by modrec.export into a
    scratch folder as in modrec.summary), or two checkpoints tensor by tensor. `b` is the
    reference (rtol scales its values).

    options: any other flag of `modrec diff` by name: layers="type:Conv2d",
        capture=["output"], rule="either", check_error_stat="p99", fail_fast=True, save="npy",
        memory_rtol=0.2.
    Returns a Diff (exit 1, a difference beyond tolerance, is `passed` False); raises a
    ModrecError subclass on any other failure."""
    refuse_format(options, ".json is the JSON, to_pandas() a DataFrame")
    with Scratch() as scratch:
        args = ["diff", model_file(a, input, options, scratch),
                model_file(b, input, options, scratch),
                *input_flags(input, scratch),
                *option_flags(dict(options, atol=atol, rtol=rtol)), "--format", "json"]
        _, out = _process.run(args, ok=(0, 1))
    return Diff(json.loads(out))


def check(run_or_model: Any, *, input: InputLike = None, **rules: Any) -> Check:
    """`modrec check`: rules over a recording's statistics (a Run or a run directory), over a
    model's on `input` (recorded first, statistics only; a path or a torch module, as in
    modrec.summary), or over a checkpoint's tensors.

    rules: `modrec check`'s flags by name: max_abs=1e4, min_std=1e-6, max_std=…,
        max_zero_fraction=0.9, allow_nan=True, allow_inf=True, no_dead=True, layers=…,
        capture=["grad_output"], batch_size=…, mode="train".
    Returns a Check (exit 1, a violation, is `passed` False); raises a ModrecError subclass on
    any other failure."""
    refuse_format(rules, ".json is the JSON, to_pandas() a DataFrame")
    with Scratch() as scratch:
        args = ["check", model_file(run_or_model, input, rules, scratch),
                *input_flags(input, scratch), *option_flags(rules), "--format", "json"]
        _, out = _process.run(args, ok=(0, 1))
    return Check(json.loads(out))

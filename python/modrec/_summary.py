"""modrec.summary: torchinfo's table of a model, as an object (the CLI's `summary --format
json`, and its table byte for byte)."""
from __future__ import annotations

import html
import json
import weakref
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Sequence, Union

from . import _process
from ._arguments import InputLike, Scratch, model_flags, option_flags, refuse_format
from ._frames import data_frame

Shape = List[int]


@dataclass(frozen=True)
class Row:
    """One row of the table: a module call, named as torchinfo's LayerInfo names its fields
    (a checkpoint's row, a name prefix, has label, path, depth, num_params and tensors only).

    `raw` is the row of `summary --format json` (docs/summary.md)."""

    label: str
    path: str
    depth: int
    num_params: int
    class_name: Optional[str] = None
    var_name: Optional[str] = None
    depth_index: Optional[int] = None
    parent: Optional[str] = None
    call: Optional[int] = None
    input_size: Shape = field(default_factory=list)
    output_size: Shape = field(default_factory=list)
    trainable_params: Optional[int] = None
    leftover_params: Optional[int] = None
    param_bytes: Optional[int] = None
    output_bytes: Optional[int] = None
    macs: Optional[int] = None
    kernel_size: Union[Shape, int, None] = None
    is_recursive: bool = False
    is_leaf_layer: Optional[bool] = None
    executed: Optional[bool] = None
    shown: bool = True
    flops_forward: Optional[int] = None
    flops_backward: Optional[int] = None
    raw: Dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def from_json(cls, row: Dict[str, Any]) -> "Row":
        return cls(
            label=row["label"], path=row["path"], depth=row["depth"], num_params=row["num_params"],
            class_name=row.get("type"), var_name=row.get("var_name"), depth_index=row.get("idx"),
            parent=row.get("parent"), call=row.get("call"),
            input_size=row.get("input_size") or [], output_size=row.get("output_size") or [],
            trainable_params=row.get("trainable_params"),
            leftover_params=row.get("leftover_params"), param_bytes=row.get("param_bytes"),
            output_bytes=row.get("output_bytes"), macs=row.get("mult_adds"),
            kernel_size=row.get("kernel"), is_recursive=row.get("is_recursive", False),
            is_leaf_layer=row.get("is_leaf"), executed=row.get("executed"),
            shown=row.get("shown", True), flops_forward=row.get("flops_forward"),
            flops_backward=row.get("flops_backward"), raw=row)


# to_pandas()'s first columns; the rest follow in Row's order.
ROW_COLUMNS = ("label", "path", "class_name", "var_name", "depth", "depth_index", "input_size",
               "output_size", "num_params", "trainable_params", "macs", "kernel_size",
               "is_recursive")


class Summary:
    """What `modrec summary` says of a model: `str()` is its table, byte for byte; `rows` its
    rows (`summary_list`, as torchinfo's ModelStatistics names them), also those `depth` hides
    (`Row.shown`); the totals under torchinfo's names. `json` is `--format json`'s object.

    The table is made when first asked for (str(), repr(), a notebook's display): the binary
    runs again with the same arguments, without --format json. Until then the scratch files of
    the call (tensors, an exported module) are kept; they are removed once it is made, or with
    the Summary."""

    def __init__(self, data: Dict[str, Any], table_args: Sequence[str],
                 scratch: Optional[Scratch] = None) -> None:
        self.json = data
        self._table: Optional[str] = None
        self._table_args = list(table_args)
        self._release = weakref.finalize(self, scratch.close) if scratch else None
        self.rows: List[Row] = [Row.from_json(r) for r in data.get("rows", [])]
        self.totals: Dict[str, Any] = data.get("totals", {})
        # a model's summary has "has_input"; a checkpoint's "checkpoint" (docs/checkpoints.md)
        self.has_input: bool = bool(data.get("has_input", False))
        self.signature: Optional[Dict[str, Any]] = data.get("signature")

    @property
    def table(self) -> str:
        """The CLI's table (`modrec summary` without --format), made on first use."""
        if self._table is None:
            _, self._table = _process.run(self._table_args)
            if self._release is not None:
                self._release()
        return self._table

    @property
    def summary_list(self) -> List[Row]:
        """torchinfo's name for `rows`."""
        return self.rows

    @property
    def total_params(self) -> int:
        return self.totals.get("total_params", self.totals.get("params", 0))

    @property
    def trainable_params(self) -> int:
        return self.totals.get("trainable_params", self.total_params)

    @property
    def non_trainable_params(self) -> int:
        return self.total_params - self.trainable_params

    @property
    def total_mult_adds(self) -> int:
        """Multiply-adds of the leaf calls (0 without an input)."""
        return self.totals.get("mult_adds", 0)

    @property
    def total_param_bytes(self) -> int:
        return self.totals.get("param_bytes", self.totals.get("bytes", 0))

    @property
    def total_output_bytes(self) -> int:
        """The forward/backward pass size: twice the outputs of the leaf calls with parameters."""
        return self.totals.get("forward_backward_bytes", 0)

    @property
    def total_input_bytes(self) -> int:
        """The input tensors' bytes, the table's "Input size" (torchinfo's
        ModelStatistics.total_input adds each tensor object's Python size, sys.getsizeof)."""
        return self.totals.get("input_bytes", 0)

    def to_pandas(self) -> Any:
        """A DataFrame, one row per table row (hidden ones included: column `shown`)."""
        records = [{k: v for k, v in vars(r).items() if k != "raw"} for r in self.rows]
        return data_frame(records, ROW_COLUMNS)

    def __str__(self) -> str:
        return self.table

    def __repr__(self) -> str:
        return self.table

    def _repr_html_(self) -> str:
        return f"<pre style=\"line-height: 1.2\">{html.escape(self.table)}</pre>"


def summary(model: Any, input: InputLike = None, *, depth: int = 3,
            columns: Optional[Sequence[str]] = None, **options: Any) -> Summary:
    """torchinfo's table of `model` on `input`, as `modrec summary` makes it.

    model: a path to any file `modrec summary` reads (TorchScript, .pt2, an AOTInductor package,
        .pte, a checkpoint), or a torch module: a ScriptModule is saved with torch.jit.save, an
        ExportedProgram with torch.export.save, any other nn.Module is exported by
        `modrec.export` on `input` (in eval mode, or the `mode` option's) into a scratch
        archive, removed afterwards.
    input: None (the table without shapes, and `signature`), a path (a tensor file, .npy,
        directory or glob), a tensor or NumPy array, a tuple of those (forward's positional
        arguments), or a dict of named arguments (tensors, or values for --arg); tensors are
        written to scratch files, removed afterwards.
    depth, columns: `--depth`, `--columns` (e.g. ["input_size", "output_size", "num_params",
        "mult_adds"]).
    options: any other flag of `modrec summary`, by name: row_settings=["var_names"],
        input_size=["1x3x224x224"], mode="train", grad=True, params=True, col_width=30,
        load_library=[...], threads=2 (docs/python.md says how values become flags).

    The binary runs once, for `--format json`; the table is made when first asked for
    (Summary says how). Raises a ModrecError subclass by the exit code (UsageError, FileError,
    ModelError, …) with the CLI's line."""
    refuse_format(options, "str() is the table, .json the JSON, to_pandas() a DataFrame")
    scratch = Scratch()
    try:
        args = ["summary", *model_flags(model, input, options, scratch),
                *option_flags(dict(options, depth=depth, columns=columns))]
        _, out = _process.run([*args, "--format", "json"])
    except BaseException:
        scratch.close()
        raise
    return Summary(json.loads(out), args, scratch)

#!/usr/bin/env python3
"""The PyTorch reference that modrec's tests compare against.

    oracle.py summary MODEL --out result.json [--weights model.pt] [--input FILE ...]
                            [--eval | --train] [--grad] [--kwargs FILE]
    oracle.py record  MODEL --out DIR [--weights model.pt] [--input FILE ...]
                            [--labels all|1-3,2-1] [--loss sum|mean] [--train]
                            [--device cpu|cuda] [--kwargs FILE]

--kwargs FILE: a torch.save'd dict of keyword arguments to forward (modrec's --arg and
--input NAME=FILE).

MODEL is a name from models.py (sample models and torchvision families). The
eager model is hooked on every module and run once; the rows follow torchinfo
1.8.0's algorithm (see docs/torchinfo-format.md): a row per forward call in
pre-hook order, never-called ancestors inserted, labels "depth-idx" from one
counter per depth over the whole list. Without --input the model's example
input is used. Run with the pinned environment's Python (scripts/torch_env.sh).

summary JSON: {model, mode, grad, inputs, rows: [...], totals: {...}}. Each row
has label, module (path, "" for the root), type, var_name, depth, depth_index,
parent_label (row drawn above it), call_index (None for inserted ancestors),
is_recursive, is_leaf, executed, input_size, output_size (first tensor found
depth-first; a dict shows its last value), kernel_size, num_params and
trainable_params (whole subtree), leftover_params (non-leaf rows), param_bytes,
output_bytes and mult_adds (torchinfo's per-call LayerInfo.macs: exact on leaf
rows; on non-leaf rows it is torchinfo's internal value, never displayed).
totals: total/trainable/non_trainable params, total_mult_adds, input_bytes
(tensor bytes), forward_backward_bytes, params_bytes, total_bytes.

record writes DIR/<label>/{input,output,grad_input,grad_output}.pt,
DIR/<label>/param[_grad].<name>.pt (see write_params) and DIR/index.json for the selected calls (a module called twice has two labels;
`input_values`: the call's non-tensor arguments, keyword ones and defaults
included, as modrec's manifest lists them); loss = sum (or mean) of the first
output tensor. See RecordCapture.
"""
import argparse
import copy
import dataclasses
import inspect
import json
import os
import sys
from typing import Any, Callable, Dict, List, Optional, Sequence, Set, Tuple

import numpy as np
import torch
from torch import Tensor, nn

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import models  # noqa: E402


# --- sizes and counts, as torchinfo 1.8.0 computes them ----------------------

def prod(values: Sequence[Any]) -> int:
    result = 1
    for v in values:
        result *= prod(v) if isinstance(v, (list, tuple)) else v
    return result


def nested_size(value: Any) -> Tuple[List[int], int]:
    """Shape and element size of the first tensor found depth-first."""
    if hasattr(value, "tensors"):
        return nested_size(value.tensors)
    if isinstance(value, Tensor):
        return list(value.size()), value.element_size()
    if not hasattr(value, "__getitem__") or not value:
        return [], 0
    if isinstance(value, dict):
        return nested_size(list(value.values()))
    if callable(getattr(value, "size", None)) and callable(getattr(value, "element_size", None)):
        return list(value.size()), value.element_size()
    if isinstance(value, (list, tuple)):
        return nested_size(value[0])
    return [], 0


def value_size(value: Any) -> Tuple[List[int], int]:
    """Size shown for a call's inputs or outputs: a dict shows its last value."""
    if value is None:
        return [], 0
    if isinstance(value, (list, tuple)) and value and hasattr(value[0], "data"):
        # torchinfo reads `.data` (PackedSequence); a tensor has it too.
        return list(value[0].data.size()), value[0].data.element_size()
    if isinstance(value, dict):
        return nested_size(list(value.values())[-1])
    if isinstance(value, Tensor):
        return list(value.size()), value.element_size()
    if isinstance(value, (list, tuple)):
        return nested_size(value)
    raise TypeError(f"unsupported input/output type {type(value)}")


def param_count(module: nn.Module, name: str, param: Tensor) -> Tuple[int, str]:
    """Pruned weights (`x_orig` with a `x_mask` buffer) count only unmasked entries."""
    if name.endswith("_orig"):
        mask = module
        for part in (name[:-5] + "_mask").split("."):
            mask = getattr(mask, part, None)
        if isinstance(mask, Tensor):
            return int(mask.sum()), name[:-5]
    return param.nelement(), name


def kernel_size(module: nn.Module) -> Any:
    k = getattr(module, "kernel_size", None)
    if isinstance(k, (tuple, list)):
        return list(k)
    return int(k) if isinstance(k, int) else None


class Row:
    """One line of the table: a module call, or an inserted never-called ancestor."""

    def __init__(self, var_name: str, path: str, module: nn.Module, depth: int,
                 parent: Optional["Row"]) -> None:
        self.var_name, self.path, self.module = var_name, path, module
        self.depth, self.parent = depth, parent
        self.type = type(module).__name__
        self.is_leaf = not any(module.children())
        self.kernel_size = kernel_size(module)
        self.is_recursive = False
        self.executed = False
        self.call_index: Optional[int] = None
        self.depth_index = 0
        self.children: List["Row"] = []
        self.table_parent: Optional["Row"] = None  # the row this one is drawn under
        self.input_size: List[int] = []
        self.output_size: List[int] = []
        self.num_params = self.trainable_params = self.param_bytes = 0
        self.output_bytes = self.macs = 0

    @property
    def label(self) -> str:
        return f"{self.depth}-{self.depth_index}"

    def count_params(self) -> None:
        # Recursive over the subtree, as named_parameters() is.
        self.num_params = self.trainable_params = self.param_bytes = 0
        for name, param in self.module.named_parameters():
            count, _ = param_count(self.module, name, param)
            self.num_params += count
            self.param_bytes += count * param.element_size()
            if param.requires_grad:
                self.trainable_params += count

    def count_macs(self) -> None:
        out = self.output_size
        for name, param in self.module.named_parameters():
            count, name = param_count(self.module, name, param)
            if name in ("weight", "bias"):
                # Conv: one MAC per weight per output position, channels excluded.
                self.macs += count * (prod(out[:1] + out[2:]) if "Conv" in self.type else out[0])
            elif "weight" in name or "bias" in name:
                # RNN weights (weight_ih_l0 ...) and any nested module's weights.
                self.macs += prod(out[:2]) * count

    def leftover_params(self) -> int:
        return self.num_params - self._counted_below(lambda r: r.num_params, Row.leftover_params)

    def leftover_trainable_params(self) -> int:
        return self.trainable_params - self._counted_below(
            lambda r: r.trainable_params, Row.leftover_trainable_params)

    def _counted_below(self, leaf_value: Callable[["Row"], int],
                       inner_value: Callable[["Row"], int]) -> int:
        # `children` holds every row below this one (all descendants), as in torchinfo.
        return sum(leaf_value(c) if c.is_leaf else inner_value(c)
                   for c in self.children if not c.is_recursive)

    def to_json(self) -> Dict[str, Any]:
        return {
            "label": self.label, "module": self.path, "type": self.type,
            "var_name": self.var_name, "depth": self.depth, "depth_index": self.depth_index,
            "parent_label": self.table_parent.label if self.table_parent else None,
            "call_index": self.call_index, "is_recursive": self.is_recursive,
            "is_leaf": self.is_leaf, "executed": self.executed,
            "input_size": self.input_size, "output_size": self.output_size,
            "kernel_size": self.kernel_size, "num_params": self.num_params,
            "trainable_params": self.trainable_params,
            "leftover_params": None if self.is_leaf else self.leftover_params(),
            "leftover_trainable_params": None if self.is_leaf else self.leftover_trainable_params(),
            "param_bytes": self.param_bytes, "output_bytes": self.output_bytes,
            "mult_adds": self.macs,
        }


# --- hooking and the row list -------------------------------------------------

class CallCapture:
    """Interface for what `record` does at each call; the summary needs nothing."""

    def before(self, row: Row, args: Tuple[Any, ...],
               kwargs: Dict[str, Any]) -> Optional[Tuple[Tuple[Any, ...], Dict[str, Any]]]:
        return None

    def after(self, row: Row, args: Tuple[Any, ...], output: Any) -> Any:
        return None


class Tracer:
    """Hooks every module the way torchinfo 1.8.0 does; `rows` is its summary list."""

    def __init__(self, model: nn.Module, capture: Optional[CallCapture] = None) -> None:
        self.rows: List[Row] = []
        self.called_ids: Set[int] = set()
        self.current: Dict[int, Row] = {}  # module id -> row of its latest call
        self.capture = capture or CallCapture()
        self.handles: Dict[int, Tuple[Any, Any]] = {}
        self.calls = 0
        self._hook_tree(model)

    def _hook_tree(self, model: nn.Module) -> None:
        # Depth-first in definition order. A module reachable twice keeps only
        # the hooks (name, depth, parent) of its last visit.
        stack = [(type(model).__name__, "", model, 0, None)]
        while stack:
            var_name, path, module, depth, parent = stack.pop()
            fallback = Row(var_name, path, module, depth, parent)
            self.current[id(module)] = fallback
            for handle in self.handles.get(id(module), ()):
                handle.remove()
            self.handles[id(module)] = (
                module.register_forward_pre_hook(self._pre_hook(var_name, path, depth, parent),
                                                 with_kwargs=True),
                module.register_forward_hook(self._post_hook),
            )
            children = [(name, f"{path}.{name}" if path else name, child, depth + 1, fallback)
                        for name, child in module._modules.items() if child is not None]
            stack.extend(reversed(children))

    def _pre_hook(self, var_name: str, path: str, depth: int, parent: Optional[Row]):
        def hook(module: nn.Module, args: Tuple[Any, ...], kwargs: Dict[str, Any]) -> Any:
            row = Row(var_name, path, module, depth, parent)
            row.count_params()
            row.is_recursive = id(module) in self.called_ids
            row.call_index = self.calls
            self.calls += 1
            self.rows.append(row)
            self.called_ids.add(id(module))
            self.current[id(module)] = row
            return self.capture.before(row, args, kwargs)
        return hook

    def _post_hook(self, module: nn.Module, args: Tuple[Any, ...], output: Any) -> Any:
        row = self.current[id(module)]
        row.input_size, _ = value_size(args)
        row.output_size, elem_bytes = value_size(output)
        row.output_bytes = elem_bytes * prod(row.output_size)
        row.executed = True
        row.count_macs()
        return self.capture.after(row, args, output)

    def remove(self) -> None:
        for pre, post in self.handles.values():
            pre.remove()
            post.remove()

    def finish(self) -> List[Row]:
        insert_missing_ancestors(self.rows, self.called_ids)
        number_rows(self.rows)
        return self.rows


def insert_missing_ancestors(rows: List[Row], seen_ids: Set[int]) -> None:
    """Insert, before a row, each ancestor (depth >= 1) missing from the open chain.

    The list grows while it is walked, so inserted rows and the shifted row are
    visited again, exactly as torchinfo's enumerate() over the mutating list does.
    An inserted ancestor is its module's fallback row (one object per module),
    so inserting it twice shows the same row twice.
    """
    open_rows: Dict[int, Row] = {}
    i = 0
    while i < len(rows):
        row = rows[i]
        chain: Dict[int, Row] = {}
        ancestor = row.parent
        while ancestor is not None and ancestor.depth > 0:
            chain[ancestor.depth] = ancestor
            ancestor = ancestor.parent
        inserted = 0
        for d in range(1, row.depth):
            missing = d not in open_rows or open_rows[d].module is not chain[d].module
            if missing and chain[d] is not rows[i + inserted - 1]:
                chain[d].count_params()
                chain[d].is_recursive = chain[d].is_recursive or id(chain[d].module) in seen_ids
                rows.insert(i + inserted, chain[d])
                seen_ids.add(id(chain[d].module))
                open_rows[d] = chain[d]
                inserted += 1
        open_rows[row.depth] = row
        deeper = row.depth + 1
        while deeper in open_rows:
            del open_rows[deeper]
            deeper += 1
        i += 1


def number_rows(rows: List[Row]) -> None:
    """Per-depth counters over the whole list; children = all rows below, until
    the next row at the same or a smaller depth."""
    counters: Dict[int, int] = {}
    open_rows: List[Row] = []
    for i, row in enumerate(rows):
        counters[row.depth] = counters.get(row.depth, 0) + 1
        row.depth_index = counters[row.depth]
        while open_rows and open_rows[-1].depth >= row.depth:
            open_rows.pop()
        row.table_parent = open_rows[-1] if open_rows else None
        open_rows.append(row)
        end = i + 1
        while end < len(rows) and rows[end].depth > row.depth:
            end += 1
        row.children = rows[i + 1:end]


def trace(model: nn.Module, inputs: Tuple[Any, ...], grad: bool,
          capture: Optional[CallCapture] = None,
          kwargs: Optional[Dict[str, Any]] = None) -> Tuple[List[Row], Any]:
    tracer = Tracer(model, capture)
    try:
        with torch.set_grad_enabled(grad):
            output = model(*inputs, **(kwargs or {}))
    finally:
        tracer.remove()
    return tracer.finish(), output


# --- totals -------------------------------------------------------------------

def totals(rows: List[Row], inputs: Tuple[Any, ...]) -> Dict[str, int]:
    t = dict(total_params=0, trainable_params=0, total_mult_adds=0,
             forward_backward_bytes=0, params_bytes=0)
    for row in rows:
        if row.is_leaf:
            t["total_mult_adds"] += row.macs
            if row.num_params > 0:
                t["forward_backward_bytes"] += 2 * row.output_bytes  # x2 for gradients
            if not row.is_recursive:
                t["total_params"] += max(row.num_params, 0)
                t["trainable_params"] += max(row.trainable_params, 0)
                t["params_bytes"] += row.param_bytes
        elif not row.is_recursive:
            t["total_params"] += max(row.leftover_params(), 0)
            t["trainable_params"] += max(row.leftover_trainable_params(), 0)
    t["non_trainable_params"] = t["total_params"] - t["trainable_params"]
    t["input_bytes"] = sum(x.nelement() * x.element_size() for x in flat_tensors(inputs))
    t["total_bytes"] = t["input_bytes"] + t["forward_backward_bytes"] + t["params_bytes"]
    return t


# --- loading models and inputs ------------------------------------------------

def load_model(name: str, weights: Optional[str], train: bool) -> nn.Module:
    model = models.build(name)
    if weights and weights.endswith(".pt2"):
        # torch.export archives keep the eager state_dict keys too (non-persistent buffers
        # aside), but not its metadata: the model's own keeps the versions that modules such as
        # torchvision's MNASNet check as they load.
        state = model.state_dict()
        state.update(torch.export.load(weights).state_dict)
        model.load_state_dict(state)
    elif weights:
        # Scripted modules keep the eager state_dict keys; strict catches drift.
        model.load_state_dict(torch.jit.load(weights, map_location="cpu").state_dict())
    return model.train(train)


def load_inputs(name: str, files: Optional[List[str]]) -> Tuple[Any, ...]:
    """Forward arguments: one file holding a tuple/list spreads into several, except a list given
    to a model whose forward takes a List[Tensor] (models.LIST_INPUT_MODELS)."""
    if not files:
        return models.example_inputs(name)
    values = [load_value(f) for f in files]
    spreads = (tuple,) if name in models.LIST_INPUT_MODELS else (tuple, list)
    if len(values) == 1 and isinstance(values[0], spreads):
        return tuple(values[0])
    return tuple(values)


def load_kwargs(path: Optional[str]) -> Dict[str, Any]:
    """--kwargs FILE: a torch.save'd dict of forward's keyword arguments (tensors and values)."""
    return torch.load(path, weights_only=False) if path else {}


def load_value(path: str) -> Any:
    if path.endswith(".npy"):
        return torch.from_numpy(np.load(path))
    return torch.load(path)


def flat_tensors(value: Any) -> List[Tensor]:
    if isinstance(value, Tensor):
        return [value]
    if isinstance(value, dict):
        value = list(value.values())
    if isinstance(value, (list, tuple)):
        return [t for v in value for t in flat_tensors(v)]
    return []


# --- summary ------------------------------------------------------------------

def summarize(name: str, model: nn.Module, inputs: Tuple[Any, ...], grad: bool,
              kwargs: Optional[Dict[str, Any]] = None) -> Dict[str, Any]:
    rows, _ = trace(model, inputs, grad, kwargs=kwargs)
    return {
        "model": name, "mode": "train" if model.training else "eval", "grad": grad,
        "inputs": [{"shape": list(t.shape), "dtype": str(t.dtype)} for t in flat_tensors(inputs)],
        "rows": [row.to_json() for row in rows],
        "totals": totals(rows, inputs),
    }


# --- record -------------------------------------------------------------------

def call_arguments(module: nn.Module, args: Tuple[Any, ...], kwargs: Dict[str, Any],
                   defaults: bool = False) -> Dict[str, Any]:
    """A call's arguments by name in the order of forward's signature, keyword ones included:
    the order in which TorchScript (which keeps no keywords) passes them; with defaults=True
    also the omitted ones, as TorchScript fills them in."""
    try:
        bound = inspect.signature(module.forward).bind(*args, **kwargs)
    except (TypeError, ValueError):
        return {**{str(i): a for i, a in enumerate(args)}, **kwargs}
    if defaults:
        bound.apply_defaults()
    return dict(bound.arguments)


def non_tensor_values(value: Any, at: str = "") -> List[Dict[str, Any]]:
    """Leaves that are not tensors (None, bool, int, ...) with their place: indices and dict keys
    joined by '.', as modrec's manifest lists a capture's `values`."""
    child = lambda key: f"{at}.{key}" if at else str(key)  # noqa: E731
    if isinstance(value, Tensor):
        return []
    if isinstance(value, (list, tuple)):
        return [v for i, item in enumerate(value) for v in non_tensor_values(item, child(i))]
    if isinstance(value, dict):
        return [v for k, item in value.items() for v in non_tensor_values(item, child(k))]
    plain = value if isinstance(value, (bool, int, float, str, type(None))) else str(value)
    return [{"at": at, "type": "None" if value is None else type(value).__name__, "value": plain}]


class RecordCapture(CallCapture):
    """Values and gradients of the selected calls (by call index).

    grad_input is module-local, as register_full_backward_hook reports it (only
    what flows through this call), but taken from a clone of each top-level
    tensor argument: Python's full backward hooks raise on in-place modules
    (ReLU(inplace=True)). grad_output is taken from a clone of each output
    tensor, so a later in-place op cannot move the hook. Both clones are
    identities: values and gradients elsewhere are unchanged. Arguments passed
    by keyword count too, in forward-signature order (see call_arguments);
    the non-tensor ones (with defaults) are listed in `values`.
    """

    def __init__(self, wanted: Set[int],
                 edits: Optional[Dict[int, Callable[[Tensor], Tensor]]] = None) -> None:
        self.wanted = wanted
        self.edits = edits or {}  # call index -> applied to each floating output tensor
        self.calls: Dict[int, Dict[str, List[Optional[Tensor]]]] = {}
        self.values: Dict[int, List[Dict[str, Any]]] = {}

    def before(self, row: Row, args: Tuple[Any, ...],
               kwargs: Dict[str, Any]) -> Optional[Tuple[Tuple[Any, ...], Dict[str, Any]]]:
        if row.call_index not in self.wanted:
            return None
        arguments = call_arguments(row.module, args, kwargs)
        slots = {name: i for i, name in
                 enumerate(n for n, v in arguments.items() if isinstance(v, Tensor))}
        record = self.calls[row.call_index] = {
            "input": [t.detach().clone() for t in flat_tensors(list(arguments.values()))],
            "grad_input": [None] * len(slots),
        }
        full = list(call_arguments(row.module, args, kwargs, defaults=True).values())
        self.values[row.call_index] = non_tensor_values(full[0] if len(full) == 1 else full)
        route = lambda name, v: (  # noqa: E731
            self._hooked_clone(v, record["grad_input"], slots[name]) if name in slots else v)
        names = list(arguments) + [None] * len(args)  # None: inside a *args parameter
        return (tuple(route(names[i], a) for i, a in enumerate(args)),
                {k: route(k, v) for k, v in kwargs.items()})

    def after(self, row: Row, args: Tuple[Any, ...], output: Any) -> Any:
        edit = self.edits.get(row.call_index)
        if row.call_index not in self.wanted:
            return None if edit is None else map_tensors(edit, output)
        record = self.calls[row.call_index]
        record["output"] = [t.detach().clone() for t in flat_tensors(output)]
        if edit is not None:  # after recording, before the gradient hooks (as modrec)
            output = map_tensors(edit, output)
        record["grad_output"] = [None] * len(record["output"])
        slots = iter(range(len(record["output"])))
        return map_tensors(lambda t: self._hooked_clone(t, record["grad_output"], next(slots)), output)

    @staticmethod
    def _hooked_clone(t: Tensor, store: List[Optional[Tensor]], slot: int) -> Tensor:
        # Under no_grad no gradient flows; register_full_backward_hook skips there too.
        if not t.requires_grad or not torch.is_grad_enabled():
            return t
        routed = t.clone()

        def keep(grad: Optional[Tensor]) -> None:
            if grad is not None:  # None: what an operator without a derivative passes back
                store[slot] = grad.detach().clone()
        routed.register_hook(keep)
        return routed


def map_tensors(fn: Callable[[Tensor], Tensor], value: Any) -> Any:
    """Apply fn to every tensor depth-first, keeping the container structure."""
    if isinstance(value, Tensor):
        return fn(value)
    if isinstance(value, dict):
        mapped = {k: map_tensors(fn, v) for k, v in value.items()}
        # A dataclass dict (transformers' ModelOutput, diffusers' BaseOutput) takes its fields
        # by keyword; given pairs, diffusers' would take them as its first field.
        return type(value)(**mapped) if dataclasses.is_dataclass(value) else type(value)(mapped)
    if isinstance(value, tuple) and hasattr(value, "_fields"):
        return type(value)(*(map_tensors(fn, v) for v in value))
    if isinstance(value, (list, tuple)):
        return type(value)(map_tensors(fn, v) for v in value)
    return value


def select_calls(rows: List[Row], labels: str) -> List[Row]:
    called = [r for r in rows if r.call_index is not None]
    if labels == "all":
        return called
    by_label = {r.label: r for r in called}
    wanted = [s.strip() for s in labels.split(",") if s.strip()]
    unknown = [w for w in wanted if w not in by_label]
    if unknown:
        raise SystemExit(f"oracle: unknown labels {unknown}; valid: {', '.join(by_label)}")
    return [by_label[w] for w in wanted]


def edit_function(op: str, generator: torch.Generator) -> Callable[[Tensor], Tensor]:
    """One --edit OP as eager code: what a forward hook returning the edited output computes."""
    name, _, rest = op.partition(":")
    args = rest.split(":") if rest else []
    fns = {
        "zero": lambda t: t * 0,
        "scale": lambda t: t * float(args[0]),
        "add": lambda t: t + float(args[0]),
        "clamp": lambda t: t.clamp(float(args[0]), float(args[1])),
        "noise": lambda t: t + float(args[0]) * torch.randn(t.shape, generator=generator,
                                                            dtype=t.dtype),
        "replace": lambda t: torch.load(rest),
        "keep": lambda t: t * torch.zeros(t.shape[1]).index_fill(
            0, torch.tensor([int(c) for c in rest.split(",")]), 1).view(
                [1, -1] + [1] * (t.dim() - 2)),
    }
    fn = fns[name]
    return lambda t: fn(t) if t.is_floating_point() else t


def call_edits(rows: List[Row], edits: List[str], seed: int) -> Dict[int, Callable[[Tensor], Tensor]]:
    """--edit SELECTOR=OP (SELECTOR: a label, a module path or type:T) -> call index -> edit;
    noise draws from one generator seeded with `seed`, in call order."""
    out: Dict[int, Callable[[Tensor], Tensor]] = {}
    generator = torch.Generator().manual_seed(seed)
    for spec in edits:
        selector, op = spec.rsplit("=", 1)
        fn = edit_function(op, generator)
        for row in rows:
            if row.call_index is None:
                continue
            if selector in (row.label, row.path) or selector == "type:" + row.type:
                prev = out.get(row.call_index)
                out[row.call_index] = fn if prev is None else (lambda t, p=prev, f=fn: f(p(t)))
    return out


def record(name: str, weights: Optional[str], files: Optional[List[str]], labels: str,
           out_dir: str, loss_kind: str, train: bool, edits: Optional[List[str]] = None,
           seed: int = 0, device: str = "cpu", kwargs: Optional[Dict[str, Any]] = None) -> None:
    model = load_model(name, weights, train).to(device)
    inputs = map_tensors(lambda t: t.to(device), load_inputs(name, files))
    kwargs = map_tensors(lambda t: t.to(device), kwargs or {})
    # Pass 1 finds the labels (they need the whole row list); pass 2 captures.
    # Both start from the same RNG and module state, so they see the same calls: the
    # non-persistent buffers too (a static KV cache, which pass 1 writes in place, joining it to
    # pass 1's autograd graph: detach_ leaves that behind).
    # (a deep copy keeps the state_dict's metadata: the versions MNASNet checks as it loads)
    rng, state = torch.get_rng_state(), copy.deepcopy(model.state_dict())
    buffers = {k: v.detach().clone() for k, v in model.named_buffers()}
    rows, _ = trace(model, inputs, grad=True, kwargs=kwargs)
    selected = select_calls(rows, labels)
    torch.set_rng_state(rng)
    model.load_state_dict(state)
    # Only those pass 1 changed: a copy bumps a buffer's version, and LeViT's attention-bias
    # cache, made in pass 1 from its index buffer and used again in pass 2, then fails backward.
    with torch.no_grad():
        for k, v in model.named_buffers():
            if not torch.equal(v, buffers[k]):
                v.detach_().copy_(buffers[k])
    capture = RecordCapture({r.call_index for r in selected}, call_edits(rows, edits or [], seed))
    _, output = trace(model, inputs, grad=True, capture=capture, kwargs=kwargs)
    first = flat_tensors(output)[0]
    (first.sum() if loss_kind == "sum" else first.mean()).backward()
    write_record(out_dir, name, loss_kind, train, inputs, selected, capture.calls, capture.values)
    write_params(out_dir, selected)


def write_params(out_dir: str, selected: List[Row]) -> None:
    """DIR/<label>/param.<name>.pt and param_grad.<name>.pt: the module's own parameters
    (named_parameters(recurse=False)) and their .grad after backward, under the first selected
    call of each module; DIR/params.json maps those labels to the parameter names."""
    owners: Dict[str, List[str]] = {}
    seen: Set[int] = set()
    for row in selected:
        if id(row.module) in seen:
            continue
        seen.add(id(row.module))
        owners[row.label] = []
        for pname, p in row.module.named_parameters(recurse=False):
            owners[row.label].append(pname)
            torch.save(p.detach().cpu().clone(), os.path.join(out_dir, row.label, f"param.{pname}.pt"))
            if p.grad is not None:
                torch.save(p.grad.cpu().clone(),
                           os.path.join(out_dir, row.label, f"param_grad.{pname}.pt"))
    with open(os.path.join(out_dir, "params.json"), "w") as f:
        json.dump(owners, f, indent=1)


def write_record(out_dir: str, name: str, loss_kind: str, train: bool, inputs: Tuple[Any, ...],
                 selected: List[Row], calls: Dict[int, Dict[str, List[Optional[Tensor]]]],
                 input_values: Dict[int, List[Dict[str, Any]]]) -> None:
    layers = []
    for row in selected:
        os.makedirs(os.path.join(out_dir, row.label), exist_ok=True)
        captured = {kind: save_capture(os.path.join(out_dir, row.label, f"{kind}.pt"), values)
                    for kind, values in calls[row.call_index].items()}
        layers.append({"label": row.label, "module": row.path, "type": row.type,
                       "call_index": row.call_index, "is_recursive": row.is_recursive,
                       "captures": captured, "input_values": input_values[row.call_index]})
    index = {"model": name, "mode": "train" if train else "eval", "loss": loss_kind,
             "inputs": [list(t.shape) for t in flat_tensors(inputs)],
             "note": "tensors flattened depth-first; one tensor saved bare, several as a "
                     "tuple; a gradient that never arrived is None (null)",
             "layers": layers}
    with open(os.path.join(out_dir, "index.json"), "w") as f:
        json.dump(index, f, indent=1)


def save_capture(path: str, values: List[Optional[Tensor]]) -> Optional[Dict[str, Any]]:
    if not values or all(v is None for v in values):
        return None
    values = [None if v is None else v.cpu() for v in values]  # loadable without a GPU
    torch.save(values[0] if len(values) == 1 else tuple(values), path)
    return {"file": os.path.basename(path),
            "shapes": [None if v is None else list(v.shape) for v in values],
            "dtypes": [None if v is None else str(v.dtype) for v in values]}


# --- command line -------------------------------------------------------------

def parse_args(argv: Optional[List[str]] = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    for cmd in ("summary", "record"):
        p = sub.add_parser(cmd)
        p.add_argument("model", help="name in models.py: " + ", ".join(models.all_models()))
        p.add_argument("--out", required=True)
        p.add_argument("--weights", help="TorchScript file whose state_dict is loaded")
        p.add_argument("--input", nargs="+", action="extend", metavar="FILE",
                       help="torch.save'd tensor/tuple or .npy; several = forward args")
        p.add_argument("--kwargs", metavar="FILE",
                       help="torch.save'd dict of keyword arguments to forward")
        mode = p.add_mutually_exclusive_group()
        mode.add_argument("--train", action="store_true")
        mode.add_argument("--eval", dest="train", action="store_false")
    sub.choices["summary"].add_argument("--grad", action="store_true",
                                        help="run the pass with autograd on")
    sub.choices["record"].add_argument("--labels", default="all")
    sub.choices["record"].add_argument("--loss", choices=("sum", "mean"), default="sum")
    sub.choices["record"].add_argument("--edit", action="append", default=[],
                                       help="SELECTOR=OP as modrec's --edit (label, path, type:T)")
    sub.choices["record"].add_argument("--seed", type=int, default=0, help="noise's generator")
    sub.choices["record"].add_argument("--device", choices=("cpu", "cuda"), default="cpu")
    return parser.parse_args(argv)


def main(argv: Optional[List[str]] = None) -> None:
    args = parse_args(argv)
    if args.command == "summary":
        model = load_model(args.model, args.weights, args.train)
        result = summarize(args.model, model, load_inputs(args.model, args.input), args.grad,
                           load_kwargs(args.kwargs))
        with open(args.out, "w") as f:
            json.dump(result, f, indent=1)
    else:
        record(args.model, args.weights, args.input, args.labels, args.out,
               args.loss, args.train, args.edit, args.seed, args.device, load_kwargs(args.kwargs))


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""The eager-PyTorch reference for `modrec summary --columns flops`: FLOPs per module path, in the
forward and in a backward from the sum of the first output, by torch.utils.flop_counter.

    flop_oracle.py MODEL --out result.json

MODEL is a name from models.py, run on its example input in eval mode with autograd on.

- "forward", "total": FlopCounterMode's own per-module counts (get_flop_counts(), keys turned
  from "ResNet.layer1.0" into module paths, "" for the root) after the forward, and its totals
  after the backward.
- "backward": the backward's FLOPs per module with FlopCounterMode's operators and formulas, each
  operator attributed to the module whose forward created the autograd node running it (by the
  node's sequence number) and to that module's ancestors. FlopCounterMode's own backward
  attribution (its ModuleTracker) also credits a module with whatever runs between its output's
  gradient and its input's, which for branches includes other modules' nodes: resnet18's
  layer2.0.downsample gets the whole block's backward. "backward_flop_counter_mode" keeps
  FlopCounterMode's own figures for comparison.
- "no_formula": the names of the operators FlopCounterMode saw and had no formula for.

result JSON: {forward: {path: FLOPs}, backward: {...}, backward_flop_counter_mode: {...},
total: {forward, backward}, no_formula: [names]}; modules with 0 FLOPs are left out.
"""
import argparse
import json
import os
import sys

import torch
from torch.utils._python_dispatch import TorchDispatchMode
from torch.utils._pytree import tree_flatten
from torch.utils.flop_counter import FlopCounterMode, flop_registry

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import models  # noqa: E402


def first_tensor(out):
    return next(t for t in tree_flatten(out)[0] if isinstance(t, torch.Tensor))


def by_path(counts, root=None):
    """FlopCounterMode's {"ResNet.layer1": {op: n}} as {"layer1": total}, zeros left out; keys
    that are paths already when there is no `root` name."""
    out = {}
    for key, ops in counts.items():
        if key == "Global" or not sum(ops.values()):
            continue
        out[key if root is None else key[len(root) + 1:] if key != root else ""] = sum(ops.values())
    return out


def minus(after, before):
    return {k: v - before.get(k, 0) for k, v in after.items() if v - before.get(k, 0)}


def ancestors(path):
    """"layer1.0.conv1" -> ["layer1.0.conv1", "layer1.0", "layer1", ""]."""
    parts = path.split(".") if path else []
    return [".".join(parts[:i]) for i in range(len(parts), -1, -1)]


class NodeOwners:
    """Stands in for FlopCounterMode's ModuleTracker (its `parents`): in the forward the open
    module calls, in the backward the module whose forward created the running autograd node.
    Nodes are numbered as they are made; a node made while the innermost open module was M
    belongs to M. A dummy node made at each module entry and exit marks where M's numbers begin
    and end."""

    def __init__(self, model):
        self.paths = {m: p for p, m in model.named_modules()}
        self.open = []
        self.called = set()
        self.marks = []  # (sequence number, innermost open path or None), ascending

    def _mark(self):
        with torch.enable_grad():  # a module entered inside a no_grad block marks too
            seq = torch.empty(0, requires_grad=True).view(0).grad_fn._sequence_nr()
        self.marks.append((seq, self.open[-1] if self.open else None))

    def _pre(self, module, args):
        self.open.append(self.paths[module])
        self.called.add(self.paths[module])
        self._mark()

    def _post(self, module, args, out):
        self.open.pop()
        self._mark()

    def owner(self, seq):
        owner = None
        for mark, path in self.marks:
            if mark > seq:
                break
            owner = path
        return owner if owner is not None else ""

    @property
    def parents(self):
        node = torch._C._current_autograd_node()
        if node is None:
            paths = ancestors(self.open[-1]) if self.open else [""]
        else:
            # the owner's called ancestors: a container never called (a ModuleList) has no call
            paths = [p for p in ancestors(self.owner(node._sequence_nr())) if p in self.called]
        return {"Global", *paths}

    def __enter__(self):
        self.handles = [torch.nn.modules.module.register_module_forward_pre_hook(self._pre),
                        torch.nn.modules.module.register_module_forward_hook(self._post)]
        return self

    def __exit__(self, *args):
        for h in self.handles:
            h.remove()


class NoFormula(TorchDispatchMode):
    """The names of operators that reach a dispatch mode without a FLOP formula."""

    def __init__(self):
        super().__init__()
        self.names = set()

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        if func._overloadpacket not in flop_registry:
            self.names.add(func._overloadpacket._qualified_op_name)
        return func(*args, **(kwargs or {}))


def count(name):
    model, inputs = models.build(name), models.example_inputs(name)
    root = type(model).__name__
    with FlopCounterMode(display=False, depth=None) as mode:
        out = model(*inputs)
        forward = mode.get_flop_counts()
        first_tensor(out).sum().backward()
    both = mode.get_flop_counts()
    result = {"forward": by_path(forward, root),
              "backward_flop_counter_mode": minus(by_path(both, root), by_path(forward, root)),
              "total": {"forward": sum(forward.get("Global", {}).values()),
                        "backward": sum(both["Global"].values()) - sum(forward.get("Global", {}).values())}}
    model.zero_grad()
    owners = NodeOwners(model)
    mode = FlopCounterMode(display=False, depth=None)
    mode.mod_tracker = owners
    with mode, NoFormula() as seen:
        out = model(*inputs)
        forward = mode.get_flop_counts()
        first_tensor(out).sum().backward()
    result["backward"] = minus(by_path(mode.get_flop_counts()), by_path(forward))
    result["no_formula"] = sorted(seen.names)
    return result


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("model")
    parser.add_argument("--out", required=True)
    args = parser.parse_args(argv)
    with open(args.out, "w") as f:
        json.dump(count(args.model), f, indent=1)


if __name__ == "__main__":
    main()

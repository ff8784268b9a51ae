#!/usr/bin/env python3
"""The eager-PyTorch reference for `modrec graph`: which module call's output each call's
arguments (and each model output) were computed from.

    graph_oracle.py MODEL --out result.json [--input FILE ...]

MODEL is a name from models.py; without --input its example input is used. The eager model
runs once with a forward pre-hook and a forward hook on every module and a TorchDispatchMode
that sees every ATen op. Independently of modrec's method (autograd's graph), every tensor
value is named by identity (storage, offset, sizes, strides, version) and given the set of
ends it was computed from: a graph input, or the call that returned it when that call made no
call itself (an atomic call). Each op gives its results the union of its tensor arguments'
sets (folding functional ops such as resnet's `out += identity`, in place or not), an atomic
call's results are its own. An atomic call's arguments give the edges into it, the root's
results the edges into the outputs.

result JSON: {calls: [{path, type, parent}] in pre-hook order, edges: [[from, to]]}, ends
written "input:I", "call:C", "output:J" (I, J over the tensors of the inputs/results flattened
depth-first).
"""
import argparse
import json
import os
import sys

import torch
from torch.utils._python_dispatch import TorchDispatchMode
from torch.utils._pytree import tree_flatten

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import models  # noqa: E402


def tensors_in(value):
    return [t for t in tree_flatten(value)[0] if isinstance(t, torch.Tensor)]


class Flow:
    """Sets of ends by tensor identity; tensors are held so that no storage is reused."""

    def __init__(self):
        self.ends = {}
        self.held = []

    @staticmethod
    def key(t, version=None):
        return (t.untyped_storage()._cdata, t.storage_offset(), tuple(t.shape), t.stride(),
                t._version if version is None else version)

    def get(self, t):
        return self.ends.get(self.key(t), frozenset())

    def set(self, t, ends, version=None):
        """`version`: the one t will have when its users see it, when not its own now."""
        self.ends[self.key(t, version)] = frozenset(ends)
        self.held.append(t)

    def union(self, tensors):
        out = set()
        for t in tensors:
            out |= self.get(t)
        return out


class FoldOps(TorchDispatchMode):
    def __init__(self, flow):
        super().__init__()
        self.flow = flow

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        ends = self.flow.union(tensors_in((args, kwargs)))  # before an in-place op bumps versions
        out = func(*args, **kwargs)
        results = out if isinstance(out, (tuple, list)) else (out,)
        for value, schema in zip(results, func._schema.returns):
            for t in tensors_in(value):
                self.flow.set(t, ends, self.version_seen(schema, args, t))
        return out

    @staticmethod
    def version_seen(schema, args, t):
        """ADInplaceOrView sits above the Python dispatch key: after this handler returns it
        bumps an in-place result's version and gives a view its base's (`self`, the first
        argument of every ATen view op) version counter."""
        info = schema.alias_info
        if info is None:
            return None
        if info.is_write:
            return t._version + 1
        return args[0]._version


def graph(model, inputs):
    flow = Flow()
    paths = {m: p for p, m in model.named_modules()}
    calls, edges, stack = [], [], []

    def add_edges(ends, to):
        for e in sorted(ends):
            if (e, to) not in edges:
                edges.append((e, to))

    def pre(module, args, kwargs):
        if stack:
            stack[-1]["made_calls"] = True
        calls.append({"path": paths[module], "type": type(module).__name__,
                      "parent": stack[-1]["call"] if stack else -1})
        stack.append({"call": len(calls) - 1, "made_calls": False,
                      "ends": flow.union(tensors_in((args, kwargs)))})

    def post(module, args, output):
        frame = stack.pop()
        end = f"call:{frame['call']}"
        if not frame["made_calls"]:
            add_edges(frame["ends"], end)
            for t in tensors_in(output):
                flow.set(t, {end})
        if not stack:
            for j, t in enumerate(tensors_in(output)):
                add_edges(flow.get(t), f"output:{j}")

    for m in model.modules():
        m.register_forward_pre_hook(pre, with_kwargs=True)
        m.register_forward_hook(post)
    for i, t in enumerate(tensors_in(inputs)):
        flow.set(t, {f"input:{i}"})
    with torch.no_grad(), FoldOps(flow):
        model(*inputs)
    return {"calls": calls, "edges": edges}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("model")
    parser.add_argument("--input", action="append", default=[])
    parser.add_argument("--out", required=True)
    args = parser.parse_args(argv)
    model = models.build(args.model)
    inputs = models.example_inputs(args.model)
    if args.input:
        loaded = [torch.load(f) for f in args.input]
        inputs = tuple(t for v in loaded for t in (v if isinstance(v, (tuple, list)) else [v]))
    with open(args.out, "w") as f:
        json.dump(graph(model, inputs), f)


if __name__ == "__main__":
    main()

"""modrec.export: torch.export.export and torch.export.save, plus what the archive cannot say.

A torch.export archive keeps a module's class only on the graph nodes its calls made, and no
module's arguments or result: an Identity, a Dropout in eval mode or a never-called ModuleList
leave no trace of their class, and a call that runs no operator leaves no trace of itself. One
eager forward on the same arguments, with a hook on every module, says what they are; the notes
(docs/export-notes.md) go into the archive as extra/modrec-notes.json, which modrec reads.
"""
from __future__ import annotations

import contextlib
import inspect
import json
import math
import os
import shutil
import tempfile
import warnings
from typing import Any

NOTES_FILE = "modrec-notes.json"  # torch.export.save writes it as extra/modrec-notes.json
NOTES_FORMAT = "modrec.export-notes"
NOTES_VERSION = 1


def _qualified(obj: Any) -> str:
    return _qualified_class(type(obj))


def _qualified_class(cls: Any) -> str:
    return f"{cls.__module__}.{cls.__qualname__}"


class _Values:
    """Values as the notes write them: tensors numbered by identity (the same object, the same
    number, so that an Identity's result is seen to be its argument), containers kept, other
    values as JSON constants. Every tensor numbered is kept alive, so that no id is reused."""

    def __init__(self) -> None:
        self.numbers: dict[int, int] = {}
        self.kept: list[Any] = []
        self.subclassed = False  # whether a noted tensor was of a subclass (torchao's weights)

    def note(self, value: Any) -> Any:
        import torch

        if isinstance(value, torch.Tensor):
            self.subclassed |= type(value) not in (torch.Tensor, torch.nn.Parameter)
            if id(value) not in self.numbers:
                self.numbers[id(value)] = len(self.kept)
                self.kept.append(value)
            return {"tensor": self.numbers[id(value)], "shape": list(value.shape),
                    "dtype": str(value.dtype).removeprefix("torch."), "version": value._version}
        if value is None or isinstance(value, (bool, int, str)) or (
                isinstance(value, float) and math.isfinite(value)):
            return {"const": value}
        if isinstance(value, tuple):
            return {"tuple": [self.note(v) for v in value]}
        if isinstance(value, list):
            return {"list": [self.note(v) for v in value]}
        if isinstance(value, dict) and all(isinstance(k, str) for k in value):
            return {"dict": [[k, self.note(v)] for k, v in value.items()]}
        return {"other": _qualified(value)}


def _arguments(module: Any, args: tuple, kwargs: dict) -> tuple[list, int]:
    """The call's arguments by name in forward's order, omitted ones with their defaults: what a
    TorchScript call passes (modrec shows a .pt's and a .pt2's calls alike); and how many of them
    were given by position, the first ones (a *args parameter holds what it gets in one), which
    are all a forward hook's `inputs` hold (torchinfo's input size)."""
    try:
        signature = inspect.signature(module.forward)
        bound = signature.bind(*args, **kwargs)
        positional = len(signature.bind_partial(*args).arguments)
        bound.apply_defaults()
        return list(bound.arguments.items()), positional
    except (TypeError, ValueError):
        return [(str(i), a) for i, a in enumerate(args)] + list(kwargs.items()), len(args)


def _eager_calls(model: Any, args: tuple, kwargs: dict) -> tuple[list, set]:
    """Every module call of one eager forward, in the order they start: path, the enclosing
    call, arguments, result; and the paths of the calls that take or return a tensor subclass
    (torchao's quantized weight, which unwrap_tensor_subclass's parametrization rebuilds)."""
    import torch

    values, calls, open_calls, handles, subclassed = _Values(), [], [], [], set()

    def pre(path):
        def hook(module, a, kw):
            arguments, positional = _arguments(module, a, kw)
            values.subclassed = False
            calls.append({"path": path, "parent": open_calls[-1] if open_calls else -1,
                          "args": [[n, values.note(v)] for n, v in arguments],
                          "positional": positional})
            if values.subclassed:
                subclassed.add(path)
            open_calls.append(len(calls) - 1)
        return hook

    def post(module, a, kw, output):
        values.subclassed = False
        call = calls[open_calls.pop()]
        call["output"] = values.note(output)
        if values.subclassed:
            subclassed.add(call["path"])

    for path, module in model.named_modules():
        handles.append(module.register_forward_pre_hook(pre(path), with_kwargs=True))
        handles.append(module.register_forward_hook(post, with_kwargs=True))
    try:
        with torch.no_grad():
            model(*args, **kwargs)
    finally:
        for h in handles:
            h.remove()
    return calls, subclassed


def notes(model: Any, args: tuple, kwargs: dict | None = None) -> dict:
    """What modrec reads beside the archive: every named module's class, every eager call."""
    return _noted(model, args, kwargs)[0]


def _noted(model: Any, args: tuple, kwargs: dict | None) -> tuple[dict, set]:
    """notes(), and the paths of the calls that take or return a tensor subclass (_eager_calls).

    The eager forward runs on copies of nothing: its buffer updates (BatchNorm in train mode) and
    its random draws (Dropout) are undone afterwards, so the model is left as export left it."""
    import torch

    buffers = {n: b.detach().clone() for n, b in model.named_buffers()}
    with torch.random.fork_rng(devices=[]):
        calls, subclassed = _eager_calls(model, args, kwargs or {})
    with torch.no_grad():
        for n, b in model.named_buffers():
            b.copy_(buffers[n])
    return {
        "format": NOTES_FORMAT,
        "version": NOTES_VERSION,
        "torch": torch.__version__,
        "modules": _modules(model),
        "calls": calls,
    }, subclassed


def _modules(model: Any) -> list:
    """[path, class] for every named_modules(remove_duplicate=False) entry, and [path, class,
    first path] where that module object was met at an earlier path (`self.b = self.a`)."""
    first: dict[int, str] = {}
    out = []
    for path, m in model.named_modules(remove_duplicate=False):
        entry = [path, _qualified(m)]
        if first.setdefault(id(m), path) != path:
            entry.append(first[id(m)])
        out.append(entry)
    return out


def _subgraphs(module: Any) -> list:
    """The top graph's nodes that run subgraphs (torch.cond, while_loop, map): [(node name,
    [subgraph's call_function nodes, ...])], subgraphs in their order among the node's arguments."""
    import torch

    out = []
    for node in module.graph.nodes:
        graphs = [getattr(module, a.target) for a in node.args
                  if isinstance(a, torch.fx.Node) and a.op == "get_attr"]
        graphs = [[n for n in g.graph.nodes if n.op == "call_function"]
                  for g in graphs if isinstance(g, torch.fx.GraphModule)]
        if graphs:
            out.append((node.name, graphs))
    return out


def _stack_text(node: Any) -> str:
    """A node's nn_module_stack as the archive writes it: "key,path,type;..." outermost first."""
    return ";".join(f"{key},{path},{kind if isinstance(kind, str) else _qualified_class(kind)}"
                    for key, (path, kind) in (node.meta.get("nn_module_stack") or {}).items())


def _subgraph_stacks(model: Any, args: tuple, program: Any, **options: Any) -> dict:
    """Non-strict export writes no module stack in torch.cond's (while_loop's, map's) subgraphs,
    where strict export does: a strict export of the same arguments, made on the side, lends
    its stacks, {node name: [{subgraph node name: stack text} per subgraph]}, when its subgraphs
    run the same operators in the same order; {} when none is missing or it cannot."""
    import torch

    mine = _subgraphs(program.graph_module)
    if all(n.meta.get("nn_module_stack") for _, graphs in mine for g in graphs for n in g):
        return {}
    try:
        strict = _subgraphs(torch.export.export(model, args, strict=True, **options).graph_module)
    except Exception:  # noqa: BLE001 - a model strict export cannot trace: the stacks stay untold
        return {}
    if [len(gs) for _, gs in mine] != [len(gs) for _, gs in strict]:
        return {}
    stacks = {}
    for (name, graphs), (_, lent) in zip(mine, strict):
        for g, s in zip(graphs, lent):
            if [n.target for n in g] != [n.target for n in s]:
                return {}
        stacks[name] = [{n.name: _stack_text(t) for n, t in zip(g, s)} for g, s in zip(graphs, lent)]
    return stacks


def _flattens(value: dict) -> bool:
    """Whether a noted value is tensors, constants and containers of them only: what export's
    call signatures can hold (a Hugging Face Cache object cannot)."""
    if "other" in value:
        return False
    return all(_flattens(v) for v in _items(value))


def _items(value: dict) -> list:
    """The values a noted tuple, list or dict holds, in order; none for another value."""
    return value.get("tuple", value.get("list", [v for _, v in value.get("dict", [])]))


def _stack_paths(text: str) -> set:
    """The module paths of a stack text (_stack_text's), strict export's "_export_root" wrapper
    of the exported module left out ("_export_root.a" is "a")."""
    paths = {entry.split(",")[1] for entry in text.split(";") if entry}
    return {p.removeprefix("_export_root").removeprefix(".") for p in paths}


def _subgraph_modules(program: Any, lent: dict) -> set:
    """The paths of the modules called inside higher-order operators' subgraphs (torch.cond's
    branches, while_loop's and map's bodies): the stack entries their nodes carry, or are `lent`
    (_subgraph_stacks), beyond those of the operator's own node."""
    nodes = {n.name: n for n in program.graph_module.graph.nodes}
    paths = set()
    for name, graphs in _subgraphs(program.graph_module):
        inside = set()
        for i, graph in enumerate(graphs):
            for n in graph:
                inside |= _stack_paths(lent[name][i].get(n.name, "") if name in lent
                                       else _stack_text(n))
        paths |= inside - _stack_paths(_stack_text(nodes[name]))
    return paths


def _noted_tensors(value: dict) -> list:
    """The tensors of a noted value, depth-first: [(number, version)]."""
    if "tensor" in value:
        return [(value["tensor"], value["version"])]
    return [t for v in _items(value) for t in _noted_tensors(v)]


def _repeating(calls: list) -> set:
    """The paths of the submodules whose result held one tensor at several places in a noted
    call (diffusers' DownBlock2D: `return hidden_states, (hidden_states,)`), where export keeps
    the result (_flattens)."""
    out = set()
    for call in calls[1:]:
        tensors = _noted_tensors(call["output"])
        if _flattens(call["output"]) and len(set(tensors)) < len(tensors):
            out.add(call["path"])
    return out


@contextlib.contextmanager
def _places_apart(model: Any, paths: set) -> Any:
    """While exporting: each module at `paths` returns a tensor at its first place as it is and
    at each further place through aten.alias (a view of it: the same storage and numbers, no
    copy), so that each place is a graph value of its own and the caller's uses of each place
    read that value. Eager hooks see each place's own gradient; in a graph with one value for
    all, which place each use took would not be told. (A forward hook registered before export's
    own, so the aliases are made inside the call and named by its signature.)"""
    import torch
    from torch.utils import _pytree as pytree

    def hook(module: Any, args: Any, output: Any) -> Any:
        placed: list = []

        def apart(value: Any) -> Any:
            if not isinstance(value, torch.Tensor):
                return value
            if any(value is p for p in placed):
                return torch.ops.aten.alias(value)
            placed.append(value)
            return value

        return pytree.tree_map(apart, output)

    handles = [m.register_forward_hook(hook) for p, m in model.named_modules() if p in paths]
    try:
        yield
    finally:
        for h in handles:
            h.remove()


def _export_keeping_calls(model: Any, args: tuple, calls: list, subclassed: set, strict: bool,
                          **options: Any) -> tuple:
    """torch.export.export keeping the call signatures (which graph values its arguments and
    result are: the archive's module_call_graph) of every submodule whose eager `calls` hold
    tensors, constants and containers only, which places the calls that run no operator exactly;
    the graph is the same, but that a tensor a module returns at several places is an alias of
    itself at each place after the first (_places_apart). A call taking or returning a tensor
    subclass (`subclassed`: the parametrization torchao's unwrap_tensor_subclass adds rebuilds its
    weight) is not kept: export would lift the subclass it returns as a constant, which
    torch.export.save cannot pickle. Export keeps none of a module called inside a higher-order
    operator's subgraph (torch.cond's branches): those are left out, and the notes alone place
    their calls.
    Returns the program and the stacks lent to its subgraphs (_subgraph_stacks)."""
    import torch

    objects = {c["path"] for c in calls
               if not all(_flattens(v) for v in [c["output"]] + [v for _, v in c["args"]])}
    objects |= subclassed
    # every path of a module object at several paths (`self.b = self.a`): export names a call by
    # the path it was made through
    names = tuple(name for name, _ in model.named_modules(remove_duplicate=False)
                  if name and name not in objects)

    repeating = _repeating(calls)

    def exported(kept: tuple) -> Any:
        with _places_apart(model, repeating):
            program = torch.export.export(model, args, preserve_module_call_signature=kept,
                                          strict=strict, **options)
            return program, {} if strict else _subgraph_stacks(model, args, program, **options)

    try:
        return exported(names)
    except Exception as e:  # noqa: BLE001 - a refusal: keep those outside subgraphs
        refusal = f"{type(e).__name__}: {str(e).splitlines()[0][:160]}"
    program, lent = exported(())
    inside = _subgraph_modules(program, lent)
    kept = tuple(n for n in names if not any(n == p or n.startswith(p + ".") for p in inside))
    try:
        if inside and kept:
            return exported(kept)
    except Exception:  # noqa: BLE001 - refused again: none kept, as export alone would
        pass
    warnings.warn(f"modrec.export: the module calls' signatures are not kept ({refusal}); the "
                  "notes alone place the calls", stacklevel=3)
    return program, lent


def _python_package(qualname: str) -> str:
    """The Python package that defines operator `qualname` ("ns::name") with torch.library, or
    "" when a shared library registers it: the module of a custom_op's function (its top-level
    package; the namespace for one defined in a script), else the namespace where the schema was
    registered from a .py file."""
    import re
    import torch
    from torch._library.custom_ops import OPDEFS
    opdef = OPDEFS.get(qualname)
    if opdef is None:
        registered = re.search(r"registered at (\S+?):\d+", torch._C._dispatch_dump(qualname))
        if not registered or not registered.group(1).endswith(".py"):
            return ""
    module = getattr(getattr(opdef, "_init_fn", None), "__module__", "") or ""
    package = module.split(".")[0]
    return package if package and package != "__main__" else qualname.split("::")[0]


def _python_operators(program: Any) -> dict:
    """{"ns::name": package} for each operator of the program's graphs (subgraphs included) that
    a Python package defines: no C++ process has it (docs/custom-operators.md)."""
    import torch
    found = {}
    for module in program.graph_module.modules():
        if not isinstance(module, torch.fx.GraphModule):
            continue
        for node in module.graph.nodes:
            if not isinstance(node.target, torch._ops.OpOverload):
                continue
            qualname = node.target._schema.name
            if qualname.split("::")[0] in ("aten", "prims") or qualname in found:
                continue
            package = _python_package(qualname)
            if package:
                found[qualname] = package
    return found


def export(model: Any, args: tuple, path: Any, *, kwargs: dict | None = None,
           dynamic_shapes: Any = None, strict: bool = False) -> Any:
    """torch.export.export(model, args, kwargs, dynamic_shapes=..., strict=...) saved to `path`
    with torch.export.save, and with modrec's notes in the archive (extra/modrec-notes.json).
    Returns the ExportedProgram."""
    import torch

    args = tuple(args) if isinstance(args, (tuple, list)) else (args,)
    noted, subclassed = _noted(model, args, kwargs)
    program, lent = _export_keeping_calls(model, args, noted["calls"], subclassed, strict,
                                          kwargs=kwargs, dynamic_shapes=dynamic_shapes)
    if not strict:
        noted["subgraph_stacks"] = lent
    noted["python_operators"] = _python_operators(program)
    text = json.dumps(noted, separators=(",", ":"))
    _save_whole(program, path, {NOTES_FILE: text})
    return program


def _save_whole(program: Any, path: Any, extra_files: dict) -> None:
    """torch.export.save to `path` whole or not at all: written under the same name in a
    temporary folder beside it (torch.export.save names the archive's top folder after the file,
    as `torch.export.save(program, path)` would), renamed over `path` once complete (a failure
    mid-way leaves nothing behind). A file object is written as given."""
    import torch

    if not isinstance(path, (str, os.PathLike)):
        torch.export.save(program, path, extra_files=extra_files)
        return
    target = os.path.abspath(os.fspath(path))
    folder = tempfile.mkdtemp(prefix=".modrec-export-", dir=os.path.dirname(target))
    partial = os.path.join(folder, os.path.basename(target))
    try:
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(folder, 0o777 & ~umask)
        torch.export.save(program, partial, extra_files=extra_files)
        os.chmod(partial, 0o666 & ~umask)  # as a file created under the name would be
        os.replace(partial, target)
    finally:
        shutil.rmtree(folder, ignore_errors=True)

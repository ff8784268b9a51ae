"""What the API's arguments become on the binary's command line: keyword options as flags,
models and inputs as files (Python objects written to a scratch folder that is removed)."""
from __future__ import annotations

import os
import shutil
import sys
import tempfile
from typing import Any, Dict, List, Optional, Tuple

from ._errors import UsageError

# Options whose list is one comma-separated value; any other list repeats its flag.
COMMA_LISTS = {"columns", "row_settings", "capture", "captures", "layers"}


def _text(value: Any) -> str:
    """A value as the CLI parses it: true/false, None, [2,3], a path, a number."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "None"
    if isinstance(value, (list, tuple)):
        return "[" + ",".join(_text(v) for v in value) + "]"
    if isinstance(value, float):
        return repr(value)
    return os.fspath(value) if isinstance(value, os.PathLike) else str(value)


def option_flags(options: Dict[str, Any], scratch: Optional["Scratch"] = None) -> List[str]:
    """`name=value` keyword options as flags: `row_settings=["depth", "var_names"]` is
    `--row-settings depth,var_names`, `force=True` is `--force` (False and None leave a flag
    out), `load_library=[a, b]` repeats the flag, `arg={"steps": 4}` is `--arg steps=4`; a
    tensor (targets=, grad=) is written to a file of `scratch`."""
    out: List[str] = []
    for name, value in options.items():
        flag = "--" + name.replace("_", "-")
        if value is None or value is False:
            continue
        if scratch is not None and (_is_tensor(value) or _is_array(value)):
            out += [flag, _tensor_file(value, scratch)]
        elif value is True:
            out.append(flag)
        elif isinstance(value, dict):
            for key, item in value.items():
                out += [flag, f"{key}={_text(item)}"]
        elif isinstance(value, (list, tuple)) and name in COMMA_LISTS:
            out += [flag, ",".join(_text(v) for v in value)]
        elif isinstance(value, (list, tuple)):
            for item in value:
                out += [flag, _text(item)]
        else:
            out += [flag, _text(value)]
    return out


def refuse_format(options: Dict[str, Any], instead: str) -> None:
    """The calls that read `--format json` take no format option."""
    if "format" in options:
        raise TypeError(f"modrec: this call takes no format option (it reads --format json): "
                        f"{instead}")


def _is_path(value: Any) -> bool:
    return isinstance(value, (str, os.PathLike))


def _is_tensor(value: Any) -> bool:
    torch = sys.modules.get("torch")  # not imported: no object can be a tensor
    return torch is not None and isinstance(value, torch.Tensor)


def _is_array(value: Any) -> bool:
    numpy = sys.modules.get("numpy")
    return numpy is not None and isinstance(value, numpy.ndarray)


def _is_tensor_list(value: Any) -> bool:
    return isinstance(value, (list, tuple)) and bool(value) and all(_is_tensor(v) for v in value)


class Scratch:
    """A folder for the files one call writes (inputs, an exported model), removed by close()
    (`with Scratch() as s:`)."""

    def __init__(self) -> None:
        self._dir: Optional[str] = None
        self._count = 0

    def path(self, suffix: str) -> str:
        if self._dir is None:
            self._dir = tempfile.mkdtemp(prefix="modrec-")
        self._count += 1
        return os.path.join(self._dir, f"{self._count}{suffix}")

    def close(self) -> None:
        if self._dir is not None:
            shutil.rmtree(self._dir, ignore_errors=True)
            self._dir = None

    def __enter__(self) -> "Scratch":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


def _tensor_file(value: Any, scratch: Scratch) -> str:
    """A tensor (a list of tensors: one List[Tensor] argument) or array written to a file."""
    if _is_array(value):
        import numpy

        path = scratch.path(".npy")
        numpy.save(path, value)
        return path
    import torch

    path = scratch.path(".pt")
    saved = [t.detach().cpu() for t in value] if isinstance(value, (list, tuple)) else \
        value.detach().cpu()
    torch.save(saved, path)
    return path


def _file(value: Any, scratch: Scratch, what: str) -> str:
    if _is_path(value):
        return os.fspath(value)
    if _is_tensor(value) or _is_array(value) or _is_tensor_list(value):
        return _tensor_file(value, scratch)
    raise TypeError(f"modrec: {what} must be a path, a tensor, a NumPy array or a list of "
                    f"tensors, not {type(value).__name__}")


InputLike = Any  # a path, a tensor, an array, a tuple of them, or a dict of named ones


def input_flags(input: InputLike, scratch: Scratch) -> List[str]:
    """`input` as --input/--arg flags: a path (a file, a directory or a glob, as --input takes
    it), a tensor or NumPy array, a tuple/list of those (forward's positional arguments, in
    order), or a dict of named arguments, whose tensors, arrays and pathlib paths are --input
    NAME=FILE and whose other values (numbers, bools, str, None, lists of numbers) are --arg."""
    if input is None:
        return []
    if isinstance(input, dict):
        out: List[str] = []
        for name, value in input.items():
            if isinstance(value, os.PathLike) or _is_tensor(value) or _is_array(value) or \
                    _is_tensor_list(value):
                out += ["--input", f"{name}={_file(value, scratch, f'input {name!r}')}"]
            else:
                out += ["--arg", f"{name}={_text(value)}"]
        return out
    if isinstance(input, (tuple, list)):
        out = []
        for i, value in enumerate(input):
            out += ["--input", _file(value, scratch, f"input[{i}]")]
        return out
    return ["--input", _file(input, scratch, "input")]


def _loaded(value: Any) -> Any:
    """An input as the eager model takes it: files read back (torch.load, numpy.load)."""
    import torch

    if _is_path(value):
        path = os.fspath(value)
        if path.endswith(".npy"):
            import numpy

            return torch.from_numpy(numpy.load(path))
        loaded = torch.load(path, weights_only=True)
        return tuple(loaded) if isinstance(loaded, list) else loaded  # spread, as --input does
    if _is_array(value):
        return torch.from_numpy(value)
    return value


def example_arguments(input: InputLike) -> Tuple[tuple, dict]:
    """`input` as the (args, kwargs) an eager call takes: what torch.export exports with."""
    if input is None:
        raise UsageError("modrec: error: an nn.Module is exported with torch.export, which needs "
                         "an example input (model): pass input=, a tensor, a tuple or a dict")
    if isinstance(input, dict):
        return (), {k: _loaded(v) for k, v in input.items()}
    if isinstance(input, (tuple, list)):
        return tuple(_loaded(v) for v in input), {}
    value = _loaded(input)
    return (value if isinstance(value, tuple) else (value,)), {}


def model_file(model: Any, input: InputLike, options: Dict[str, Any], scratch: Scratch) -> str:
    """A model the binary reads: a path (or a Run) as it is; a ScriptModule saved by
    torch.jit.save, an ExportedProgram by torch.export.save, any other nn.Module exported by
    modrec.export on `input` (in the `mode` option's mode, eval by default, its train/eval state
    restored afterwards), into the scratch folder."""
    if _is_path(model):
        return os.fspath(model)
    torch = sys.modules.get("torch")
    if torch is None:
        raise TypeError(f"modrec: a model is a path or a torch module, not {type(model).__name__}")
    if isinstance(model, torch.jit.ScriptModule):
        path = scratch.path(".pt")
        torch.jit.save(model, path)
        return path
    if isinstance(model, torch.export.ExportedProgram):
        path = scratch.path(".pt2")
        torch.export.save(model, path)
        return path
    if not isinstance(model, torch.nn.Module):
        raise TypeError(f"modrec: a model is a path, an nn.Module, a ScriptModule or an "
                        f"ExportedProgram, not {type(model).__name__}")
    from ._export import export

    args, kwargs = example_arguments(input)
    path = scratch.path(".pt2")
    modes = {m: m.training for m in model.modules()}
    model.train(options.get("mode") == "train")
    try:
        export(model, args, path, kwargs=kwargs)
    finally:
        for m, training in modes.items():
            m.training = training
    return path


def model_flags(model: Any, input: InputLike, options: Dict[str, Any], scratch: Scratch
                ) -> List[str]:
    """The model (positional) and input flags of one call."""
    return [model_file(model, input, options, scratch), *input_flags(input, scratch)]

#!/usr/bin/env python3
"""torchinfo 1.8's own table for an eager model of models.py: the reference modrec summary matches.

    torchinfo_table.py MODEL [--weights model.pt] [--input FILE ...] [--columns a,b]
                       [--depth N] [--row-settings a,b] [--grad] [--keyword-only FILE]
                       [--row-paths FILE] [--kwargs FILE [--kwargs-input]]

Prints torchinfo.summary(model, input_data=..., col_names=..., depth=..., row_settings=...,
verbose=0, mode="eval") as verbose=1 would print it, the unit of "Total mult-adds" written as
torchinfo's reference outputs write it ("(M)"; see unit_value). --weights loads a TorchScript
file's state_dict into the eager model, --input takes forward arguments as scripts/oracle.py does
(the model's example input without); --kwargs FILE, a torch.save'd dict, goes to forward as
keyword arguments, as torchinfo.summary(..., **kwargs) passes them; with --kwargs-input the dict
is input_data itself (a model called with keyword inputs only: torchinfo calls model(**dict),
shows "--" as the root's input size and counts every tensor of the dict as "Input size").

--grad: torchinfo 1.8 always runs the forward under torch.no_grad(), with no option; this runs
it with autograd on instead (`torch.no_grad` does nothing inside torchinfo's module).

--keyword-only FILE writes JSON {"lines": [{"line": i, "shape": [...]}]}: the lines of the
printed table (0-based, as str.splitlines() numbers them) whose call got all its inputs by keyword.
torchinfo's hooks see no positional argument there and it prints "--" as the input size;
"shape" is the first tensor among the call's arguments in the order of the module's forward
signature (what TorchScript, which keeps no keywords, passes first).

--row-paths FILE writes JSON {"paths": [...]}: each printed row's module path, in order (a module
at several paths by its last, under which torchinfo's hooks report it).
"""
import argparse
import contextlib
import json
import os
import sys
from typing import Any, List, Optional

import torch
import torchinfo
import torchinfo.torchinfo as torchinfo_impl
from torchinfo.enums import Units
from torchinfo.formatting import FormattingOptions

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle import call_arguments, flat_tensors, load_inputs, load_kwargs, load_model  # noqa: E402


class TorchWithGrad:
    """`torch` as torchinfo's module sees it with --grad: no_grad() does nothing."""
    no_grad = contextlib.nullcontext

    def __getattr__(self, name: str) -> Any:
        return getattr(torch, name)


def unit_value(unit: Units, spec: str) -> str:
    """torchinfo 1.8 writes f" ({unit})"; since Python 3.11 that formats a str-mixin Enum as
    "Units.MEGABYTES" (torchinfo issue #350), so the table would say "Total mult-adds
    (Units.MEGABYTES)" where torchinfo's own reference outputs say "(M)". Format the value."""
    return format(unit.value, spec)


def table(argv: Optional[List[str]] = None) -> str:
    """The table main prints for these arguments (sys.argv's by default), and the --keyword-only
    file written. The tests call it in their own process, which imports torch once for many
    tables; torchinfo is left as it was found."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("model")
    parser.add_argument("--weights")
    parser.add_argument("--input", nargs="+", action="extend", metavar="FILE")
    parser.add_argument("--columns", default="output_size,num_params")
    parser.add_argument("--depth", type=int, default=3)
    parser.add_argument("--row-settings", default="depth")
    parser.add_argument("--grad", action="store_true")
    parser.add_argument("--keyword-only", metavar="FILE")
    parser.add_argument("--row-paths", metavar="FILE")
    parser.add_argument("--kwargs", metavar="FILE",
                        help="torch.save'd dict passed to torchinfo.summary as **kwargs")
    parser.add_argument("--kwargs-input", action="store_true",
                        help="the --kwargs dict is torchinfo's input_data instead: a model "
                             "called with keyword inputs only, model(**input_data)")
    args = parser.parse_args(argv)

    model = load_model(args.model, args.weights, train=False)
    inputs = load_inputs(args.model, args.input)

    # Calls in order, from pre-hooks registered before torchinfo's (so they run first).
    calls: List[dict] = []

    def pre_hook(module: torch.nn.Module, call_args: tuple, call_kwargs: dict) -> None:
        arguments = call_arguments(module, call_args, call_kwargs, defaults=True)
        tensors = flat_tensors(list(arguments.values()))
        calls.append({"keyword_only": not call_args and bool(tensors),
                      "shape": list(tensors[0].shape) if tensors else None})

    handles = [m.register_forward_pre_hook(pre_hook, with_kwargs=True) for m in model.modules()]
    # torchinfo's pre-hooks append one LayerInfo per call; keep that list before the
    # never-called containers are inserted: the LayerInfo of call i is call_infos[i].
    call_infos: List[Any] = []
    add_missing = torchinfo_impl.add_missing_container_layers

    def snapshot_then_add(summary_list: List[Any]) -> None:
        call_infos.extend(summary_list)
        add_missing(summary_list)

    torchinfo_impl.add_missing_container_layers = snapshot_then_add
    if args.grad:
        torchinfo_impl.torch = TorchWithGrad()
    try:
        kwargs = load_kwargs(args.kwargs)
        input_data = kwargs if args.kwargs_input else list(inputs)
        stats = torchinfo.summary(
            model, input_data=input_data, col_names=args.columns.split(","), depth=args.depth,
            row_settings=args.row_settings.split(","), verbose=0, mode="eval",
            **({} if args.kwargs_input else kwargs))
    finally:
        torchinfo_impl.torch = torch
        torchinfo_impl.add_missing_container_layers = add_missing
        for h in handles:
            h.remove()
    assert len(call_infos) == len(calls), (len(call_infos), len(calls))

    # The LayerInfo behind each printed row, in print order.
    shown: List[Any] = []
    to_row = FormattingOptions.layer_info_to_row
    unit_format = Units.__format__

    def record_row(self: FormattingOptions, info: Any, *rest: Any) -> str:
        shown.append(info)
        return to_row(self, info, *rest)

    FormattingOptions.layer_info_to_row = record_row
    Units.__format__ = unit_value  # type: ignore[method-assign]
    try:
        text = str(stats)
    finally:
        FormattingOptions.layer_info_to_row = to_row
        Units.__format__ = unit_format  # type: ignore[method-assign]

    first_row = 3  # divider, header, divider
    if args.row_paths:
        paths = {id(m): path for path, m in model.named_modules(remove_duplicate=False)}
        with open(args.row_paths, "w") as f:
            json.dump({"paths": [paths[id(info.module)] for info in shown]}, f)
    if args.keyword_only:
        keyword_only = {id(info): call for info, call in zip(call_infos, calls)
                        if call["keyword_only"]}
        lines = [{"line": first_row + i, "shape": keyword_only[id(info)]["shape"]}
                 for i, info in enumerate(shown) if id(info) in keyword_only]
        with open(args.keyword_only, "w") as f:
            json.dump({"lines": lines}, f)
    return text


def main() -> None:
    print(table())  # as torchinfo.summary(verbose=1) prints it


if __name__ == "__main__":
    main()

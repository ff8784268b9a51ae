#!/usr/bin/env python3
"""Write the sample TorchScript models and their example inputs.

    python scripts/make_samples.py [--out DIR] [--only NAME ...]
                                             [--torchvision] [--large]

For each model: <name>.pt (torch.jit.script of the eval-mode model),
<name>.input.pt (torch.save of the tensor, or of a tuple for several forward
arguments), extra inputs <name>.<tag>.input.pt, and for TRACED models also
<name>.traced.pt. By default only the small models are written (the committed
samples/); --large adds LSTMNet, --torchvision the torchvision models (both for
test-time build dirs). Output is byte-for-byte reproducible for the same file
names (torch.jit.save and torch.save name the zip's root folder after the file;
string hashing is pinned, see pin_hash_seed).
"""
import argparse
import os
import sys
from typing import Tuple

import torch
from torch import Tensor, nn

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import models  # noqa: E402

TRACED = ["SingleInputNet", "ReusedModuleNet"]


def save_inputs(inputs: Tuple[Tensor, ...], path: str) -> None:
    # One forward argument is saved as a bare tensor, several as a tuple.
    torch.save(inputs[0] if len(inputs) == 1 else inputs, path)


def write_model(name: str, out: str) -> None:
    model = models.build(name)
    inputs = models.example_inputs(name)
    base = os.path.join(out, name)
    torch.jit.script(model).save(base + ".pt")
    save_inputs(inputs, base + ".input.pt")
    for tag, make in models.EXTRA_INPUTS.get(name, {}).items():
        save_inputs(make(), f"{base}.{tag}.input.pt")
    if name in TRACED:
        trace(model, inputs).save(base + ".traced.pt")


def trace(model: nn.Module, inputs: Tuple[Tensor, ...]) -> torch.jit.ScriptModule:
    with torch.no_grad():
        return torch.jit.trace(model, inputs)


def selected_names(args: argparse.Namespace) -> list:
    if args.only:
        return args.only
    # TEST_TIME_MODELS are written only when named with --only (tests make them on demand)
    names = [n for n in models.MODELS
             if n not in models.LARGE_MODELS and n not in models.TEST_TIME_MODELS]
    if args.large:
        names += models.LARGE_MODELS
    if args.torchvision:
        names += list(models.TORCHVISION_MODELS)
    return names


def pin_hash_seed() -> None:
    """Re-run under PYTHONHASHSEED=0: TorchScript writes class constants in set
    order, which otherwise changes between processes (string hashing)."""
    if os.environ.get("PYTHONHASHSEED") != "0":
        env = dict(os.environ, PYTHONHASHSEED="0")
        os.execve(sys.executable, [sys.executable] + sys.argv, env)


def main() -> None:
    pin_hash_seed()
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default=os.path.join(root, "samples"))
    parser.add_argument("--only", nargs="+", metavar="NAME",
                        help="write only these models (any registered name)")
    parser.add_argument("--torchvision", action="store_true",
                        help="also write the torchvision models (resnet18, ..., vit_b_16, swin_t)")
    parser.add_argument("--large", action="store_true", help="also write LSTMNet (~15 MB)")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    for name in selected_names(args):
        write_model(name, args.out)
        print(f"wrote {name}", file=sys.stderr)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Export sample models as torch.export archives (.pt2) made by another torch than the pinned one.

    /tmp/venv-torch-2.12/bin/python scripts/export_pt2_samples.py samples/torch-2.12
    /tmp/venv-torch-2.11/bin/python scripts/export_pt2_samples.py samples/torch-2.11 \
        TinyConvNet ReusedModuleNet
    /tmp/venv-torch-2.11/bin/python scripts/export_pt2_samples.py --notes samples/torch-2.11 \
        ModuleListNet AliasingNet TinyConvNet
    /tmp/venv-torch-2.15/bin/python scripts/export_pt2_samples.py --notes samples/torch-2.15 \
        ModuleListNet AliasingNet TinyConvNet

samples/torch-2.12/ (export schema 8.20, as the pinned 2.14.1's) and samples/torch-2.11/ (schema
8.17) were written by these two commands on 2026-11-25 with torch 2.12.1 and 2.11.0 (the PyPI
wheels, +cu130, each installed with --no-deps into a venv of its own outside the clone, with
filelock, fsspec, jinja2, networkx, numpy, sympy and typing_extensions; `import torch` found the
CUDA libraries of the pinned venv's nvidia/*/lib through LD_LIBRARY_PATH): fixtures of
tests/test_pt2_other_torch.py, which checks modrec on them against the pinned torch's eager
models. With --notes, modrec.export (python/modrec of this clone, found by the script itself)
writes them, with its notes, as <name>.notes.pt2: those of samples/torch-2.11/ and
samples/torch-2.15/ (export schema 8.17 and 8.20) were written by the last two commands on
2026-11-26 with torch 2.11.0 and 2.15.0 made as above (2.15's import also needed its own
nvidia-nvshmem-cu13==3.7.2, installed with --no-deps into its venv, its lib folder first in
LD_LIBRARY_PATH; torchinfo==1.8.0 was installed too). Nothing regenerates them; to remake them, do the same with any torch from 2.8 on (the
pinned torch's own archives are made at test time by tests/test_pt2.py).

Each archive is torch.export.export of the eval-mode model on its example input (the shapes are
frozen into the program), with the samples' weights: samples/<name>.pt where it is committed,
otherwise models.build's seeded weights, which are what make_samples.py scripts for the test-time
models.
"""
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import models  # noqa: E402

SAMPLES = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "samples")

# Convolutions with BatchNorm (buffers), a module called several times, residual blocks in a
# ModuleList, nn.TransformerEncoder, and attention written with matmul and SDPA.
NAMES = ["TinyConvNet", "ReusedModuleNet", "ModuleListNet", "TransformerEncoderNet",
         "MatmulAttentionNet"]


def eager(name: str) -> torch.nn.Module:
    model = models.build(name)
    weights = os.path.join(SAMPLES, name + ".pt")
    if os.path.exists(weights):
        model.load_state_dict(torch.jit.load(weights, map_location="cpu").state_dict())
    return model.eval()


def main(out: str, names: list, notes: bool = False) -> None:
    os.makedirs(out, exist_ok=True)
    for name in names:
        if notes:
            sys.path.insert(0, os.path.join(os.path.dirname(SAMPLES), "python"))
            import modrec  # the clone's: pure Python, nothing to build
            modrec.export(eager(name), models.example_inputs(name),
                          os.path.join(out, name + ".notes.pt2"))
            continue
        program = torch.export.export(eager(name), models.example_inputs(name))
        torch.export.save(program, os.path.join(out, name + ".pt2"))
    print(f"torch {torch.__version__}: {len(names)} archives in {out}")


if __name__ == "__main__":
    args = sys.argv[1:]
    with_notes = "--notes" in args
    args = [a for a in args if a != "--notes"]
    main(args[0], args[1:] or NAMES, with_notes)

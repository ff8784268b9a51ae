#!/usr/bin/env python3
"""torch.export's own run of a .pt2, the baseline of bench.py's section 9.

    python export_baseline.py export MODEL.pt OUT.pt2 --arch resnet18 --batch 8
    python export_baseline.py export-llm OUT.pt2 --tokens 128
    python export_baseline.py export-both ARCH PLAIN.pt2 NOTED.pt2 --batch 8 --size 224
    python export_baseline.py run MODEL.pt2 INPUT.pt --batch-size 8 --threads N

export: scripts/models.py's eval-mode ARCH with MODEL.pt's weights (a scripted file of
make_samples.py), exported by torch.export on a random batch of BATCH at 224x224 and saved.
export-llm: a Llama-shaped Hugging Face decoder (LLAMA_SIZES, ~220 M parameters, random weights,
transformers 5) exported on one sequence of TOKENS token ids and saved.
export-both: scripts/models.py's eval-mode ARCH (random weights, seeded) exported on a random batch
of BATCH at SIZExSIZE twice: by torch.export.save, and by modrec.export (notes and every call's
signature), for bench.py's section 12.
run: torch.export.load, then ep.module() forward and sum().backward() on each batch of INPUT in
turn; prints {"load_s", "times_s": one per batch} as JSON. Parameter gradients are reset between
batches (set to None, untimed), as plain_libtorch does, so that no batch accumulates into the
previous one's.
"""
import argparse
import json
import os
import sys
import time

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import models  # noqa: E402


def export(args):
    model = models.build(args.arch)
    model.load_state_dict(torch.jit.load(args.model, map_location="cpu").state_dict())
    example = torch.randn(args.batch, 3, 224, 224)
    torch.export.save(torch.export.export(model.eval(), (example,)), args.out)


# Llama's layout at about a tenth of Llama-2-7B's width and depth.
LLAMA_SIZES = dict(vocab_size=32000, hidden_size=1024, intermediate_size=2816,
                   num_hidden_layers=12, num_attention_heads=16, num_key_value_heads=16)


def export_llm(args):
    torch.manual_seed(0)
    model = models.HFDecoder("Llama", **LLAMA_SIZES).eval()
    ids = torch.randint(0, LLAMA_SIZES["vocab_size"], (1, args.tokens))
    torch.export.save(torch.export.export(model, (ids,)), args.out)


def export_both(args):
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                    "python"))
    import modrec
    model = models.build(args.arch)
    example = (torch.randn(args.batch, 3, args.size, args.size),)
    torch.export.save(torch.export.export(model, example), args.plain)
    modrec.export(model, example, args.noted)


def run(args):
    torch.set_num_threads(args.threads)
    start = time.perf_counter()
    module = torch.export.load(args.model).module()
    load_s = time.perf_counter() - start
    data = torch.load(args.input)
    times = []
    for batch in data.split(args.batch_size):
        start = time.perf_counter()
        module(batch).sum().backward()
        times.append(time.perf_counter() - start)
        for p in module.parameters():
            p.grad = None
    print(json.dumps({"load_s": load_s, "times_s": times}))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="command", required=True)
    e = sub.add_parser("export")
    e.add_argument("model")
    e.add_argument("out")
    e.add_argument("--arch", default="resnet18")
    e.add_argument("--batch", type=int, default=8)
    e = sub.add_parser("export-both")
    e.add_argument("arch")
    e.add_argument("plain")
    e.add_argument("noted")
    e.add_argument("--batch", type=int, default=8)
    e.add_argument("--size", type=int, default=224)
    e = sub.add_parser("export-llm")
    e.add_argument("out")
    e.add_argument("--tokens", type=int, default=128)
    r = sub.add_parser("run")
    r.add_argument("model")
    r.add_argument("input")
    r.add_argument("--batch-size", type=int, default=8)
    r.add_argument("--threads", type=int, default=os.cpu_count())
    args = ap.parse_args()
    {"export": export, "export-both": export_both, "export-llm": export_llm,
     "run": run}[args.command](args)


if __name__ == "__main__":
    main()

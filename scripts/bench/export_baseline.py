#!/usr/bin/env python3
"""torch.export's own run of a .pt2, the baseline of bench.py's section 9.

    python export_baseline.py export MODEL.pt OUT.pt2 --arch resnet18 --batch 8
    python export_baseline.py export-llm OUT.pt2 --tokens 128
    python export_baseline.py export-both ARCH PLAIN.pt2 NOTED.pt2 --batch 8 --size 224
    python export_baseline.py run MODEL.pt2 INPUT.pt --batch-size 8 --threads N
    python export_baseline.py export-torchao OUT.pt2 INPUT.pt --tokens 64 --batches 6
    python export_baseline.py eager-torchao INPUT.pt --threads N

export: scripts/models.py's eval-mode ARCH with MODEL.pt's weights (a scripted file of
make_samples.py), exported by torch.export on a random batch of BATCH at 224x224 and saved.
export-llm: a Llama-shaped Hugging Face decoder (LLAMA_SIZES, ~220 M parameters, random weights,
transformers 5) exported on one sequence of TOKENS token ids and saved.
export-both: scripts/models.py's eval-mode ARCH (random weights, seeded) exported on a random batch
of BATCH at SIZExSIZE twice: by torch.export.save, and by modrec.export (notes and every call's
signature), for bench.py's section 12.
export-torchao: a Llama-shaped decoder (TORCHAO_SIZES, random weights, seeded) quantized by
torchao's Int8WeightOnlyConfig, exported on one sequence of TOKENS token ids and saved by
torch.export.save (its int8 weights pickled as torchao's subclass); INPUT.pt gets BATCHES such
sequences. eager-torchao: the same quantized model, eager, with a forward hook and a full backward
hook on every module computing the statistics modrec's record writes of each call's output and
output gradient (mean, std, abs-max, zero fraction, NaN and Inf counts, a 10-bin histogram over
[-R, R], R the power of two at or above the abs-max); forward and logits.sum().backward() per
sequence, as bench.py's section 14 compares with `record --layers all --save none`.
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


# A decoder of Llama's layout a tenth of LLAMA_SIZES' width (~10 M parameters).
TORCHAO_SIZES = dict(vocab_size=4096, hidden_size=256, intermediate_size=704, num_hidden_layers=4,
                     num_attention_heads=4, num_key_value_heads=4)


def torchao_decoder():
    from torchao.quantization import Int8WeightOnlyConfig, quantize_
    torch.manual_seed(0)
    model = models.HFDecoder("Llama", **TORCHAO_SIZES).eval()
    quantize_(model, Int8WeightOnlyConfig())
    return model


def export_torchao(args):
    model = torchao_decoder()
    ids = torch.randint(0, TORCHAO_SIZES["vocab_size"], (args.batches, args.tokens))
    torch.export.save(torch.export.export(model, (ids[:1],)), args.out)
    torch.save(ids, args.input)


def statistics(t):
    """What record computes of a captured tensor, in eager PyTorch."""
    t = t.detach().float()
    top = t.abs().max()
    r = 2.0 ** torch.ceil(torch.log2(top.clamp(min=1e-30)))
    return (t.mean(), t.std(), top, (t == 0).float().mean(), t.isnan().sum(), t.isinf().sum(),
            torch.histc(t, bins=10, min=-float(r), max=float(r)))


def eager_torchao(args):
    torch.set_num_threads(args.threads)
    model = torchao_decoder()
    def each(values):  # hooks return None: a value would replace the output or gradient
        for t in torch.utils._pytree.tree_leaves(values):
            if isinstance(t, torch.Tensor):
                statistics(t)

    for m in model.modules():
        m.register_forward_hook(lambda mod, args, out: each(out))
        m.register_full_backward_hook(lambda mod, grad_in, grad_out: each(grad_out))
    times = []
    for ids in torch.load(args.input).split(1):
        start = time.perf_counter()
        model(ids).sum().backward()
        times.append(time.perf_counter() - start)
        model.zero_grad(set_to_none=True)
    print(json.dumps({"times_s": times}))


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
    e = sub.add_parser("export-torchao")
    e.add_argument("out")
    e.add_argument("input")
    e.add_argument("--tokens", type=int, default=64)
    e.add_argument("--batches", type=int, default=6)
    e = sub.add_parser("eager-torchao")
    e.add_argument("input")
    e.add_argument("--threads", type=int, default=os.cpu_count())
    r = sub.add_parser("run")
    r.add_argument("model")
    r.add_argument("input")
    r.add_argument("--batch-size", type=int, default=8)
    r.add_argument("--threads", type=int, default=os.cpu_count())
    args = ap.parse_args()
    {"export": export, "export-both": export_both, "export-llm": export_llm,
     "export-torchao": export_torchao, "eager-torchao": eager_torchao,
     "run": run}[args.command](args)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Writes samples/traced-on-gpu/: PositionLM (an embedding, an arange on its input's device,
attention, a buffer) made on a GPU, as teams ship models trained there: `PositionLM.pt`
(torch.jit.script), `PositionLM.traced.pt` (torch.jit.trace: its code names cuda:0 for the
arange) and `PositionLM.pt2` (torch.export: weights stored on cuda:0, the arange's device=cuda:0).
Run once on a GPU machine (`python3 scripts/make_gpu_samples.py OUT`; the committed files were
made by torch 2.11.0 on an H100); tests/test_shipped_files.py runs them on the CPU against the
eager PositionLM below, on the weights the scripted file holds. Not regenerated."""
import os
import sys

import torch
from torch import nn


class PositionLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(50, 16)
        self.qkv = nn.Linear(16, 48)
        self.norm = nn.LayerNorm(16)
        self.head = nn.Linear(16, 50)
        self.register_buffer("scale", torch.tensor(0.5))

    def forward(self, ids):
        h = self.embed(ids)
        pos = torch.arange(ids.shape[1], device=ids.device, dtype=h.dtype)
        q, k, v = self.qkv(h + pos[None, :, None]).chunk(3, dim=-1)
        h = self.norm(h + nn.functional.scaled_dot_product_attention(q, k, v, is_causal=True))
        return self.head(h * self.scale)


def main():
    out = sys.argv[1]
    torch.manual_seed(0)
    m = PositionLM().eval().cuda()
    ids = torch.randint(0, 50, (2, 7), device="cuda")
    torch.jit.script(m).save(os.path.join(out, "PositionLM.pt"))
    torch.jit.trace(m, ids).save(os.path.join(out, "PositionLM.traced.pt"))
    torch.export.save(torch.export.export(m, (ids,)), os.path.join(out, "PositionLM.pt2"))


if __name__ == "__main__":
    main()

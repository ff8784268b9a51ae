"""Traced files: what tracing keeps and what it removes, against the eager model they came from.

torch.jit.trace keeps parameters but not other attributes (a Conv's or a pooling layer's
kernel_size: modrec takes it from the weight or from the pooling call's constants), and reduces a
module whose work it did not record (Identity; Dropout and StochasticDepth in eval) to a call with
no argument and no result: modrec gives such a call the tensor eager PyTorch passed through it
(the last one made before the call and used after it), so its row equals torchinfo's on the eager
model and record captures it.
"""
import json
import os
import subprocess
import tempfile
import unittest

import torch

from e2e import PYTHON, main, run

COLUMNS = "input_size,output_size,num_params,kernel_size,mult_adds"
MAKE = r"""
import sys, torch
from torch import nn
torch.manual_seed(0)
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 4, (3, 5), padding=1)
        self.conv1d = nn.Conv1d(4, 2, 3)
        self.skip = nn.Identity()
        self.drop = nn.Dropout(0.5)
        self.pool = nn.MaxPool2d(2)
        self.avg = nn.AvgPool2d((1, 3), stride=1)
        self.lp = nn.LPPool2d(2, 1)
    def forward(self, x):
        y = self.lp(self.avg(self.pool(self.skip(self.conv(x)))))
        return self.drop(self.conv1d(y.flatten(2)))
net = Net().eval()
x = torch.randn(2, 3, 8, 8)
with torch.no_grad():
    torch.jit.trace(net, x).save(sys.argv[1] + "/net.pt")
torch.save(x, sys.argv[1] + "/x.pt")
import torchinfo
from torchinfo.enums import Units
Units.__format__ = lambda unit, spec: format(unit.value, spec)  # as scripts/torchinfo_table.py
table = torchinfo.summary(net, input_data=[x], col_names=COLUMNS.split(","), verbose=0, mode="eval")
open(sys.argv[1] + "/torchinfo.txt", "w").write(str(table) + "\n")
skip_in = []
net.skip.register_forward_hook(lambda m, args, out: skip_in.append(args[0]))
with torch.no_grad():
    net(x)
torch.save(skip_in[0], sys.argv[1] + "/skip.pt")
# torchinfo's kernel: an int kernel_size as it is, a tuple as a list
kernels = {n: m.kernel_size if isinstance(m.kernel_size, int) else list(m.kernel_size)
           for n, m in net.named_modules() if hasattr(m, "kernel_size")}
print(repr(kernels))
"""


class TracedFiles(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.mkdtemp(prefix="traced-")
        out = subprocess.run([PYTHON, "-c", f"COLUMNS = {COLUMNS!r}\n" + MAKE, cls.dir], check=True,
                             capture_output=True, text=True)
        cls.kernels = eval(out.stdout.strip().splitlines()[-1])  # eager kernel_size per path
        cls.model, cls.x = os.path.join(cls.dir, "net.pt"), os.path.join(cls.dir, "x.pt")

    def test_kernel_comes_from_the_weight_or_the_pooling_call(self):
        rows = json.loads(run("summary", self.model, "--input", self.x, "--format", "json")[0])["rows"]
        kernels = {r["path"]: r["kernel"] for r in rows if r["kernel"] is not None}
        self.assertEqual(kernels, self.kernels)
        table = run("summary", self.model, "--input", self.x, "--columns", "kernel_size")[0]
        self.assertIn("[3, 5]", table)
        self.assertIn("[1, 3]", table)

    def test_traced_away_calls_show_the_value_passed_through(self):
        """Identity is traced to a call without argument; its row shows the tensor eager PyTorch
        passed through it, as torchinfo on the eager model does, and record captures it."""
        table, _ = run("summary", self.model, "--input", self.x, "--columns", COLUMNS)
        with open(os.path.join(self.dir, "torchinfo.txt")) as f:
            self.assertEqual(table, f.read())
        rows = json.loads(run("summary", self.model, "--input", self.x, "--format", "json")[0])["rows"]
        self.assertEqual([r["path"] for r in rows if r["traced_away"]], [])
        out = os.path.join(self.dir, "rec")
        run("record", self.model, "--input", self.x, "--layers", "skip", "--capture",
            "input,output,grad_input,grad_output", "--out", out)
        want = torch.load(os.path.join(self.dir, "skip.pt"))
        for capture in ("input", "output"):
            got = torch.load(os.path.join(out, "tensors", "1-2", capture + ".pt"))
            self.assertTrue(torch.equal(got, want), capture)
        grad_in = torch.load(os.path.join(out, "tensors", "1-2", "grad_input.pt"))
        grad_out = torch.load(os.path.join(out, "tensors", "1-2", "grad_output.pt"))
        self.assertTrue(torch.equal(grad_in, grad_out))  # the identity's, as a full backward hook

# Traced models against torchinfo on the eager model: torchvision's efficientnet_b0 (Dropout in
# eval, StochasticDepth as timm uses it) and a Hugging Face-style encoder traced to a tuple
# (return_dict=False) with embedding and attention dropout and an identity pooler. (By hand, on
# 2026-11-25, mobilenet_v2, resnet18 and convnext_tiny matched too.)
ZOO = r"""import sys, torch, torchvision, torchinfo
from torch import nn
from torchinfo.enums import Units
Units.__format__ = lambda unit, spec: format(unit.value, spec)

# A Hugging Face-style encoder: embeddings with dropout, attention-probability dropout, an
# identity pooler head; returns a tuple (return_dict=False).
class HFStyle(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(50, 16)
        self.emb_drop = nn.Dropout(0.1)
        self.q, self.k, self.v = nn.Linear(16, 16), nn.Linear(16, 16), nn.Linear(16, 16)
        self.attn_drop = nn.Dropout(0.1)
        self.out = nn.Linear(16, 16)
        self.norm = nn.LayerNorm(16)
        self.pooler = nn.Identity()
    def forward(self, ids):
        h = self.emb_drop(self.embed(ids))
        probs = (self.q(h) @ self.k(h).transpose(1, 2)).softmax(-1)
        ctx = self.attn_drop(probs) @ self.v(h)
        h = self.norm(h + self.out(ctx))
        return h, self.pooler(h[:, 0])

name, out = sys.argv[1], sys.argv[2]
torch.manual_seed(0)
if name == "hf":
    net, x = HFStyle().eval(), torch.randint(0, 50, (2, 7))
else:
    net, x = getattr(torchvision.models, name)(weights=None).eval(), torch.randn(1, 3, 64, 64)
with torch.no_grad():
    torch.jit.trace(net, x).save(out + "/model.pt")
torch.save(x, out + "/x.pt")
t = torchinfo.summary(net, input_data=[x], col_names=COLUMNS.split(","), depth=3, verbose=0,
                      mode="eval")
open(out + "/torchinfo.txt", "w").write(str(t) + "\n")
"""


class TracedZoo(unittest.TestCase):
    def test_tables_equal_torchinfo_on_the_eager_models(self):
        for name in ("hf", "efficientnet_b0"):
            with self.subTest(model=name), tempfile.TemporaryDirectory() as out:
                subprocess.run([PYTHON, "-c", f"COLUMNS = {COLUMNS!r}\n" + ZOO, name, out],
                               check=True, capture_output=True)
                table, _ = run("summary", f"{out}/model.pt", "--input", f"{out}/x.pt",
                               "--columns", COLUMNS, "--depth", "3")
                with open(f"{out}/torchinfo.txt") as f:
                    self.assertEqual(table, f.read())


if __name__ == "__main__":
    main()

"""Traced files: what tracing keeps and what it removes, against the eager model they came from.

torch.jit.trace keeps parameters but not other attributes (a Conv's or a pooling layer's
kernel_size: modrec takes it from the weight or from the pooling call's constants), and reduces a
module whose work it did not record (Identity; Dropout and StochasticDepth in eval) to a call with
no argument and no result. modrec derives the kernel from the weight, and marks such calls as
traced away in the summary's JSON, the manifest and record's log.
"""
import json
import os
import subprocess
import tempfile
import unittest

from e2e import PYTHON, main, run

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
    def forward(self, x):
        y = self.avg(self.pool(self.skip(self.conv(x))))
        return self.drop(self.conv1d(y.flatten(2)))
net = Net().eval()
x = torch.randn(2, 3, 8, 8)
with torch.no_grad():
    torch.jit.trace(net, x).save(sys.argv[1] + "/net.pt")
torch.save(x, sys.argv[1] + "/x.pt")
# torchinfo's kernel: an int kernel_size as it is, a tuple as a list
kernels = {n: m.kernel_size if isinstance(m.kernel_size, int) else list(m.kernel_size)
           for n, m in net.named_modules() if hasattr(m, "kernel_size")}
print(repr(kernels))
"""


class TracedFiles(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.mkdtemp(prefix="traced-")
        out = subprocess.run([PYTHON, "-c", MAKE, cls.dir], check=True, capture_output=True, text=True)
        cls.kernels = eval(out.stdout.strip().splitlines()[-1])  # eager kernel_size per path
        cls.model, cls.x = os.path.join(cls.dir, "net.pt"), os.path.join(cls.dir, "x.pt")

    def test_kernel_comes_from_the_weight_or_the_pooling_call(self):
        rows = json.loads(run("summary", self.model, "--input", self.x, "--format", "json")[0])["rows"]
        kernels = {r["path"]: r["kernel"] for r in rows if r["kernel"] is not None}
        self.assertEqual(kernels, self.kernels)
        table = run("summary", self.model, "--input", self.x, "--columns", "kernel_size")[0]
        self.assertIn("[3, 5]", table)
        self.assertIn("[1, 3]", table)

    def test_traced_away_calls_are_marked(self):
        rows = json.loads(run("summary", self.model, "--input", self.x, "--format", "json")[0])["rows"]
        self.assertEqual({r["path"] for r in rows if r["traced_away"]}, {"skip"})
        out = os.path.join(self.dir, "rec")
        _, err = run("record", self.model, "--input", self.x, "--layers", "all", "--out", out)
        self.assertIn("layer 1-2 skip (Identity) was traced away", err)
        layers = json.load(open(os.path.join(out, "manifest.json")))["layers"]
        marked = {l["path"]: l.get("traced_away", False) for l in layers}
        self.assertEqual(marked, {"": False, "conv": False, "skip": True, "pool": False, "avg": False,
                                  "conv1d": False, "drop": False})


if __name__ == "__main__":
    main()

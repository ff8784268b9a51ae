"""Quantized and compiled programs (issue 45), made here by the pinned torch and torchao:
- a PT2E int8 CNN (torchao's prepare_pt2e/convert_pt2e, XNNPACKQuantizer: static, per-channel
  weights), exported and saved: its table is torchinfo's on the program's own module tree (the
  converted program unflattened, its modules typed as the float model's); record's outputs equal
  the converted program run eagerly with forward hooks, and its root output the converted
  GraphModule's; diff float.pt2 int8.pt2's errors are numpy's in float64 on those eager tensors,
  and its first diverging call the first beyond tolerance in eager return order;
- an AOTInductor package compiled on the CPU: record's output equals
  torch._inductor.aoti_load_package's, diff against its program passes within tolerance, and a
  package whose compiled library is missing or damaged is one line, exit 3;
- a file with ExecuTorch's header: one line naming the kind, exit 3."""
import json
import os
import shutil
import tempfile
import unittest
import zipfile

import numpy as np
import torch
import torch.ao.quantization.fx._decomposed  # noqa: F401  torch.export.load reads int8.pt2
from torchao.quantization.pt2e import allow_exported_model_train_eval
from torchao.quantization.pt2e.quantize_pt2e import convert_pt2e, prepare_pt2e
from torchao.testing.pt2e._xnnpack_quantizer import (XNNPACKQuantizer,
                                                       get_symmetric_quantization_config)

from e2e import main, run

TMP = tempfile.mkdtemp(prefix="pt2e-")


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = torch.nn.Conv2d(3, 8, 3, padding=1)
        self.relu = torch.nn.ReLU()
        self.conv2 = torch.nn.Conv2d(8, 16, 3, padding=1)
        self.pool = torch.nn.AdaptiveAvgPool2d(1)
        self.fc = torch.nn.Linear(16, 10)

    def forward(self, x):
        x = self.relu(self.conv1(x))
        x = self.relu(self.conv2(x))
        return self.fc(self.pool(x).flatten(1))


def path(name):
    return os.path.join(TMP, name)


def quantized(model, x, skip=()):
    """torchao's PT2E flow: static int8, per-channel weights; the modules in `skip` kept in
    float. The converted GraphModule and its program, saved as int8.pt2 (or int8-<skip>.pt2)."""
    quantizer = XNNPACKQuantizer().set_global(get_symmetric_quantization_config(is_per_channel=True))
    for name in skip:
        quantizer.set_module_name(name, None)
    prepared = prepare_pt2e(torch.export.export(model, (x,)).module(), quantizer)
    prepared(x)
    converted = convert_pt2e(prepared)
    program = torch.export.export(converted, (x,))
    name = "int8" + "".join("-" + s for s in skip) + ".pt2"
    torch.export.save(program, path(name))
    return converted, program, path(name)


def hooked_outputs(module, x):
    """{module path: [output per call]} and the paths in the order calls return, from forward
    hooks on `module` run eagerly."""
    outputs, order = {}, []
    handles = []
    for name, m in module.named_modules():
        def hook(_, __, out, name=name):
            outputs.setdefault(name, []).append(out.detach())
            order.append(name)
        handles.append(m.register_forward_hook(hook))
    with torch.no_grad():
        module(x)
    for h in handles:
        h.remove()
    return outputs, order


def layers(run_dir):
    with open(os.path.join(run_dir, "manifest.json")) as f:
        return json.load(f)["layers"]


class PT2E(unittest.TestCase):
    maxDiff = None

    @classmethod
    def setUpClass(cls):
        torch.manual_seed(0)
        cls.model = Net().eval()
        cls.x = torch.randn(2, 3, 8, 8)
        cls.x_file = path("x.pt")
        torch.save(cls.x, cls.x_file)
        torch.export.save(torch.export.export(cls.model, (cls.x,)), path("float.pt2"))
        cls.converted, cls.program, cls.int8 = quantized(cls.model, cls.x)

    def test_record_outputs_equal_the_converted_program_run_eagerly(self):
        out = path("record")
        run("record", self.int8, "--input", self.x_file, "--layers", "all", "--capture", "output",
            "--no-backward", "--out", out)
        eager, _ = hooked_outputs(torch.export.unflatten(self.program), self.x)
        seen = {}
        for layer in layers(out):
            p = layer["path"]
            got = torch.load(os.path.join(out, "tensors", layer["label"], "output.pt"))
            want = eager[p][seen.setdefault(p, 0)]
            seen[p] += 1
            self.assertEqual(got.dtype, want.dtype, p)
            self.assertTrue(torch.equal(got, want), p)
        root = torch.load(os.path.join(out, "tensors", layers(out)[0]["label"], "output.pt"))
        self.assertTrue(torch.equal(root, self.converted(self.x)))
        self.assertEqual(set(seen), set(eager) - {"_guards_fn"})


if __name__ == "__main__":
    main()

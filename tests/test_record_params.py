"""record --capture param,param_grad: each recorded module's own parameters and their gradients
after the same backward equal eager PyTorch's named_parameters(recurse=False) and .grad
(scripts/oracle.py record); a module called several times has one set, under its first call."""
import json
import os
import shutil
import tempfile
import unittest

import numpy
import torch

from e2e import SAMPLES, oracle, run, sample, tensor_file, main


class ParamsMatchPyTorch(unittest.TestCase):

    def record(self, model, inputs, layers, *extra):
        out = os.path.join(tempfile.mkdtemp(prefix="rec-"), "run")
        self.addCleanup(shutil.rmtree, os.path.dirname(out))
        run("record", model, *[a for i in inputs for a in ("--input", i)], "--layers", layers,
            "--capture", "output,param,param_grad", "--out", out, *extra)
        return out, json.load(open(os.path.join(out, "manifest.json")))

    def compare(self, name, inputs, layers="all"):
        """Every owner's parameter files equal the eager ones; returns (run dir, manifest)."""
        model = sample(name)
        mine, manifest = self.record(model, inputs, layers)
        ref = oracle("record", name, "--weights", model, "--input", *inputs, "--labels", "all")
        self.addCleanup(shutil.rmtree, os.path.dirname(ref))
        owners = json.load(open(os.path.join(ref, "params.json")))
        by_label = {l["label"]: l for l in manifest["layers"]}
        for label, names in owners.items():
            if label not in by_label:
                continue  # not selected by `layers`
            captures = by_label[label]["captures"]
            self.assertEqual(captures["param"]["names"], names, (name, label))
            for capture in ("param", "param_grad"):
                for pname in names:
                    got = torch.load(os.path.join(mine, "tensors", label, f"{capture}.{pname}.pt"))
                    want = torch.load(os.path.join(ref, label, f"{capture}.{pname}.pt"))
                    self.assertEqual(got.shape, want.shape, (name, label, capture, pname))
                    if capture == "param":
                        self.assertTrue(torch.equal(got, want), (name, label, pname))
                    else:
                        self.assertTrue(torch.allclose(got, want, rtol=1e-5, atol=1e-6),
                                        (name, label, pname, (got - want).abs().max().item()))
        return mine, manifest

    def test_a_module_called_three_times_has_one_gradient_summed_over_its_calls(self):
        _, manifest = self.compare("ReusedModuleNet", [f"{SAMPLES}/ReusedModuleNet.input.pt"])
        fc = [l for l in manifest["layers"] if l["path"] == "fc"]
        self.assertEqual([l["label"] for l in fc], ["1-1", "1-3", "1-5"])
        self.assertEqual(fc[0]["captures"]["param_grad"]["summed_over_calls"], ["1-1", "1-3", "1-5"])
        for later in fc[1:]:
            self.assertNotIn("param", later["captures"])
            self.assertNotIn("param_grad", later["captures"])

    def test_resnet18_convolutions_and_norms(self):
        mine, manifest = self.compare("resnet18", [tensor_file((2, 3, 64, 64))],
                                      "type:Conv2d,type:BatchNorm2d,fc")
        stats = json.load(open(os.path.join(mine, "stats.json")))
        bn = next(l for l in stats["layers"] if l["type"] == "BatchNorm2d")
        self.assertEqual([t["name"] for t in bn["captures"]["param"]], ["weight", "bias"])
        # BatchNorm's running statistics are buffers, not parameters
        self.assertEqual(len(manifest["layers"][0]["captures"]["param"]["files"]), 1)  # conv1: no bias

    def test_only_the_first_selected_call_owns_the_parameters(self):
        # 1-3 and 1-5 are fc's second and third calls: the parameters go under 1-3
        _, manifest = self.record(sample("ReusedModuleNet"), [f"{SAMPLES}/ReusedModuleNet.input.pt"],
                                  "1-3,1-5")
        owners = [l["label"] for l in manifest["layers"] if "param" in l["captures"]]
        self.assertEqual(owners, ["1-3"])

    def test_npy_files_and_check(self):
        out, manifest = self.record(sample("TinyConvNet"), [f"{SAMPLES}/TinyConvNet.input.pt"],
                                    "type:Conv2d", "--save", "npy")
        for layer in manifest["layers"]:
            info = layer["captures"]["param_grad"]
            self.assertEqual(info["files"], [f"tensors/{layer['label']}/param_grad.{n}.npy"
                                             for n in info["names"]])
            for f, shape in zip(info["files"], info["shapes"]):
                self.assertEqual(list(numpy.load(os.path.join(out, f)).shape), shape)
        report, _ = run("check", out, "--captures", "param_grad", "--format", "json")
        self.assertGreater(json.loads(report)["tensors_checked"], 0)

    def test_param_grad_needs_backward(self):
        _, err = run("record", sample("TinyConvNet"), "--input", f"{SAMPLES}/TinyConvNet.input.pt",
                     "--layers", "all", "--capture", "param_grad", "--no-backward", "--out",
                     os.path.join(tempfile.mkdtemp(), "r"), code=2)
        self.assertIn("--no-backward", err)


if __name__ == "__main__":
    main()

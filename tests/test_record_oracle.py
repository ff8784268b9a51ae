"""modrec record's input, output, grad_input and grad_output of every layer call equal what eager
PyTorch's hooks give (scripts/oracle.py record) on the same model and input; every file loads."""
import json
import os
import shutil
import tempfile
import unittest

import numpy
import torch

from e2e import SAMPLES, oracle, run, sample, tensor_file, main

CAPTURES = ("input", "output", "grad_input", "grad_output")


def flat(value):
    """Tensors depth-first (tuples, lists, dict values); None where a gradient never arrived."""
    if isinstance(value, (tuple, list)):
        return [t for v in value for t in flat(v)]
    if isinstance(value, dict):
        return [t for v in value.values() for t in flat(v)]
    return [value]


def load_pt(path):
    return flat(torch.load(path)) if os.path.exists(path) else []


def non_tensors(values):
    return [v for v in values if not isinstance(v, torch.Tensor)]


def load_json(*path):
    with open(os.path.join(*path)) as f:
        return json.load(f)


def capture_mismatches(mine, ref, captures, refused=(), rtol=1e-5, atol=1e-6):
    """(label, capture, problem) for each capture of modrec's run directory `mine` compared with
    scripts/oracle.py's record `ref` (calls paired in order): problem is None where the tensors
    are eager's, else what differs; a call's non-tensor arguments that are not the eager call's,
    at the same places, are one more problem. `refused`: module paths whose gradients modrec may
    refuse (listed under no_gradient, not recorded): not compared."""
    manifest, index = load_json(mine, "manifest.json"), load_json(ref, "index.json")
    for layer, expected in zip(manifest["layers"], index["layers"]):
        label = layer["label"]
        if "input" in captures and (layer["captures"]["input"].get("values", [])
                                    != expected["input_values"]):
            yield label, "input", "non-tensor values in the manifest differ"
        for capture in captures:
            if layer["path"] in refused and "no_gradient" in layer["captures"].get(capture, {}):
                continue
            got_file = os.path.join(mine, "tensors", label, capture + ".pt")
            got = load_pt(got_file)
            want = [t for t in load_pt(os.path.join(ref, label, capture + ".pt")) if t is not None]
            # (a call given no tensor has no input.pt: its values are the manifest's, above)
            if capture == "input" and os.path.exists(got_file) and \
                    non_tensors(got) != [v["value"] for v in expected["input_values"]]:
                yield label, capture, "non-tensor arguments differ"
            got = [t for t in got if isinstance(t, torch.Tensor)]
            yield label, capture, first_difference(got, want, rtol, atol)


def first_difference(got, want, rtol, atol):
    if len(got) != len(want):
        return f"{len(got)} tensors, eager has {len(want)}"
    for g, w in zip(got, want):
        if g.shape != w.shape or g.dtype != w.dtype:
            return f"{g.dtype}{list(g.shape)}, eager {w.dtype}{list(w.shape)}"
        if not torch.allclose(g, w, rtol=rtol, atol=atol):
            return f"max abs difference {(g - w).abs().max().item()}"
    return None


class RecordComparison(unittest.TestCase):
    """modrec record against scripts/oracle.py record; the tests are in subclasses."""

    def record(self, model, inputs, *extra, captures=CAPTURES):
        out = os.path.join(tempfile.mkdtemp(prefix="rec-"), "run")
        run("record", model, *[a for i in inputs for a in ("--input", i)], "--layers", "all",
            "--capture", ",".join(captures), "--out", out, *extra)
        return out

    def compare(self, name, inputs, model=None, rtol=1e-5, atol=1e-6, captures=CAPTURES,
                device="cpu", extra=(), oracle_args=(), weights=None, refused=()):
        """Every capture's tensors equal the eager hooks' (both run on `device`). A call's
        non-tensor arguments (None, flags such as need_weights, with the defaults TorchScript
        fills in) are kept in modrec's input.pt and listed in its manifest, and must be the eager
        call's, at the same places. `extra`: more modrec flags, `oracle_args` the oracle's same
        (--kwargs for --arg). `weights`: the TorchScript file the eager model's weights come
        from, when `model` is no TorchScript file. `refused`: module paths whose gradients
        modrec may refuse (listed under no_gradient, not recorded). Returns the manifest."""
        model = model or sample(name)
        mine = self.record(model, inputs, "--device", device, *extra, captures=captures)
        self.addCleanup(shutil.rmtree, os.path.dirname(mine))  # vit_b_16: 600 MB each
        ref = oracle("record", name, "--weights", weights or model, "--input", *inputs,
                     "--labels", "all", "--device", device, *oracle_args)
        self.addCleanup(shutil.rmtree, os.path.dirname(ref))
        manifest, index = load_json(mine, "manifest.json"), load_json(ref, "index.json")
        self.assertEqual([l["label"] for l in manifest["layers"]], [l["label"] for l in index["layers"]])
        for layer, expected in zip(manifest["layers"], index["layers"]):
            self.assertEqual(layer["path"], expected["module"], layer["label"])
        for label, capture, problem in capture_mismatches(mine, ref, captures, refused, rtol, atol):
            self.assertIsNone(problem, (name, label, capture))
        return manifest


class RecordMatchesPyTorch(RecordComparison):

    def test_resnet18(self):
        self.compare("resnet18", [tensor_file((2, 3, 64, 64))])

    def test_mobilenet_v2(self):
        self.compare("mobilenet_v2", [tensor_file((2, 3, 64, 64))])

    def test_densenet121(self):
        self.compare("densenet121", [tensor_file((1, 3, 32, 32))])

    def test_lstm(self):
        self.compare("SeqClassifier", [f"{SAMPLES}/SeqClassifier.input.pt"])

    def test_reused_module_with_inplace_relu(self):
        self.compare("ReusedModuleNet", [f"{SAMPLES}/ReusedModuleNet.input.pt"])

    def test_two_inputs(self):
        self.compare("TwoInputNet", [f"{SAMPLES}/TwoInputNet.input.pt"])

    def test_returned_tensors_that_alias(self):
        # without grad_input, calls see their arguments themselves, not routed clones
        for captures in (CAPTURES, ("output", "grad_output")):
            self.compare("AliasingNet", [f"{SAMPLES}/AliasingNet.input.pt"], captures=captures)

    def test_small_models(self):
        for name in ("TinyConvNet", "ContainerModule", "ModuleListNet", "MultiOutputNet", "SimpleRNN"):
            self.compare(name, [f"{SAMPLES}/{name}.input.pt"])

    def test_npy_files_load_with_numpy(self):
        out = self.record(sample("TwoInputNet"), [f"{SAMPLES}/TwoInputNet.input.pt"], "--save", "npy")
        manifest = json.load(open(os.path.join(out, "manifest.json")))
        for layer in manifest["layers"]:
            for capture, info in layer["captures"].items():
                for f, shape in zip(info["files"], info["shapes"]):
                    self.assertEqual(list(numpy.load(os.path.join(out, f)).shape), shape)
        self.assertEqual(manifest["layers"][0]["captures"]["input"]["files"],
                         ["tensors/0-1/input.0.npy", "tensors/0-1/input.1.npy"])


if __name__ == "__main__":
    main()

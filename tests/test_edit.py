"""--edit SELECTOR=OP rewrites the selected calls' outputs as the model runs: what record writes
(values and gradients, the edited layer's own output recorded before the edit) equals eager
PyTorch with a forward hook returning the edited output (scripts/oracle.py record --edit)."""
import json
import os
import shutil
import tempfile
import unittest

import torch

from e2e import SAMPLES, oracle, run, sample, tensor_file, main
from test_record_oracle import CAPTURES, RecordComparison, load_pt

TINY = f"{SAMPLES}/TinyConvNet.input.pt"


class EditsMatchEagerHooks(RecordComparison):

    def compare_edit(self, name, inputs, *edits, captures=CAPTURES):
        model = sample(name)
        flags = [a for e in edits for a in ("--edit", e)]
        mine = self.record(model, inputs, *flags, captures=captures)
        self.addCleanup(shutil.rmtree, os.path.dirname(mine))
        ref = oracle("record", name, "--weights", model, "--input", *inputs, "--labels", "all",
                     *flags)
        self.addCleanup(shutil.rmtree, os.path.dirname(ref))
        with open(os.path.join(ref, "index.json")) as f:
            index = json.load(f)
        for layer in index["layers"]:
            for capture in captures:
                got = [t for t in load_pt(os.path.join(mine, "tensors", layer["label"], capture + ".pt"))
                       if isinstance(t, torch.Tensor)]
                want = [t for t in load_pt(os.path.join(ref, layer["label"], capture + ".pt"))
                        if t is not None]
                self.assertEqual(len(got), len(want), (layer["label"], capture))
                for g, w in zip(got, want):
                    self.assertTrue(torch.allclose(g, w, rtol=1e-5, atol=1e-6),
                                    (edits, layer["label"], capture, (g - w).abs().max().item()))
        return mine

    def test_each_operation(self):
        for op in ("zero", "scale:-2.5", "add:0.75", "clamp:-0.1:0.2", "noise:0.3", "keep:1,5"):
            with self.subTest(op=op):
                self.compare_edit("TinyConvNet", [TINY], "2-2=" + op)

    def test_replace(self):
        out = os.path.join(tempfile.mkdtemp(prefix="rep-"), "r.pt")
        self.addCleanup(shutil.rmtree, os.path.dirname(out))
        probe = self.record(sample("TinyConvNet"), [TINY], captures=("output",))
        self.addCleanup(shutil.rmtree, os.path.dirname(probe))
        shape = torch.load(os.path.join(probe, "tensors", "2-2", "output.pt")).shape
        torch.manual_seed(1)
        torch.save(torch.randn(shape), out)
        self.compare_edit("TinyConvNet", [TINY], "2-2=replace:" + out)

    def test_several_edits_and_a_type_selector_on_resnet18(self):
        self.compare_edit("resnet18", [tensor_file((2, 3, 64, 64))], "layer2.0=zero",
                          "type:ReLU=clamp:0:1", captures=("output", "grad_output"))

    def test_ablation_changes_downstream_only(self):
        """The edited call's own output is recorded before the edit; later calls see the edit."""
        plain = self.record(sample("TinyConvNet"), [TINY], captures=("output",))
        edited = self.record(sample("TinyConvNet"), [TINY], "--edit", "2-2=zero", captures=("output",))
        for d in (plain, edited):
            self.addCleanup(shutil.rmtree, os.path.dirname(d))
        out = lambda d, label: torch.load(os.path.join(d, "tensors", label, "output.pt"))
        self.assertTrue(torch.equal(out(plain, "2-2"), out(edited, "2-2")))
        self.assertFalse(torch.equal(out(plain, "0-1"), out(edited, "0-1")))
        report, _ = run("diff", edited, plain, "--format", "json", code=1)
        differing = {t["label"] for t in json.loads(report)["tensors"] if not t["passed"]}
        self.assertIn("2-3", differing)  # the call after the ablated one
        self.assertFalse(differing & {"2-1", "2-2"}, differing)  # it and the calls before it


class EditCommands(unittest.TestCase):

    def test_summary_runs_the_edited_model_and_keeps_the_shapes(self):
        plain, _ = run("summary", sample("TinyConvNet"), "--input", TINY)
        edited, _ = run("summary", sample("TinyConvNet"), "--input", TINY, "--edit", "2-2=scale:3")
        self.assertEqual(plain, edited)

    def test_check_model_sees_the_edit(self):
        run("check", sample("TinyConvNet"), "--input", TINY, "--max-abs", "1e3")
        out, _ = run("check", sample("TinyConvNet"), "--input", TINY, "--edit", "2-2=scale:1e6",
                     "--max-abs", "1e3", code=1)
        self.assertIn("max-abs", out)

    def test_bad_edits_are_usage_errors(self):
        cases = [(["--edit", "2-2=rotate:90"], "--edit"),
                 (["--edit", "9-9=zero"], "9-9"),
                 (["--edit", "2-2=keep:99"], "channel 99"),
                 (["--edit", "2-2=replace:" + TINY], "replacement")]
        for extra, words in cases:
            with self.subTest(extra=extra):
                _, err = run("record", sample("TinyConvNet"), "--input", TINY, "--layers", "all",
                             "--out", os.path.join(tempfile.mkdtemp(), "r"), *extra, code=2)
                self.assertEqual(len(err.strip().splitlines()), 1, err)
                self.assertIn(words, err)
        _, err = run("summary", sample("TinyConvNet"), "--edit", "2-2=zero", code=2)
        self.assertIn("needs an input", err)


if __name__ == "__main__":
    main()

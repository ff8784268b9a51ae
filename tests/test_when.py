"""record --when keeps batches or samples (torchfunc's `condition`): the result equals recording
the kept subset directly, tensors and statistics; `nonfinite` keeps the batches where a NaN or
Inf appears and names the call that produced the first one."""
import json
import os
import shutil
import tempfile
import unittest

import torch

from e2e import run, sample, main

CAPTURES = "output,grad_output"


def load_json(path):
    with open(path) as f:
        return json.load(f)


def saved(tensor):
    d = tempfile.mkdtemp(prefix="when-")
    path = os.path.join(d, "t.pt")
    torch.save(tensor, path)
    return path


class WhenKeepsTheSubset(unittest.TestCase):

    def setUp(self):
        torch.manual_seed(0)
        self.x = torch.randn(8, 3, 16, 16)
        self.model = sample("TinyConvNet")

    def record(self, x, *extra, code=0):
        out = os.path.join(tempfile.mkdtemp(prefix="rec-"), "run")
        self.addCleanup(shutil.rmtree, os.path.dirname(out))
        _, err = run("record", self.model, "--input", saved(x), "--layers", "all", "--capture",
                     CAPTURES, "--out", out, *extra, code=code)
        self.err = err
        return out

    def tensors(self, run_dir):
        manifest = load_json(os.path.join(run_dir, "manifest.json"))
        return {(l["label"], c): torch.load(os.path.join(run_dir, info["files"][0]))
                for l in manifest["layers"] for c, info in l["captures"].items()}

    def assertSameRecording(self, got_dir, want_dir, exact):
        got, want = self.tensors(got_dir), self.tensors(want_dir)
        self.assertEqual(got.keys(), want.keys())
        for key in got:
            tol = dict(rtol=0, atol=0) if exact else dict(rtol=1e-5, atol=1e-6)
            same = lambda a, b: a.shape == b.shape and torch.allclose(a, b, equal_nan=True, **tol)
            self.assertTrue(same(got[key], want[key]), key)
        gs, ws = (load_json(os.path.join(d, "stats.json"))["layers"] for d in (got_dir, want_dir))
        for g, w in zip(gs, ws):
            for capture in g["captures"]:
                for a, b in zip(g["captures"][capture], w["captures"][capture]):
                    self.assertEqual(a["count"], b["count"])
                    self.assertEqual(a["shape"], b["shape"])
                    self.assertAlmostEqual(a["mean"], b["mean"], places=5)
                    self.assertAlmostEqual(a["max"], b["max"], places=5)

    def test_batches(self):
        got = self.record(self.x, "--batch-size", "2", "--when", "batch:2,4")
        want = self.record(torch.cat([self.x[2:4], self.x[6:8]]), "--batch-size", "2")
        self.assertSameRecording(got, want, exact=True)
        manifest = load_json(os.path.join(got, "manifest.json"))
        self.assertEqual(manifest["kept_batches"], [2, 4])
        self.assertEqual(manifest["options"]["when"], "batch:2,4")

    def test_target(self):
        targets = torch.tensor([0, 3, 1, 3, 3, 2, 0, 3])
        got = self.record(self.x, "--batch-size", "4", "--when", "target:3", "--targets", saved(targets))
        want = self.record(self.x[targets == 3])
        self.assertSameRecording(got, want, exact=False)

    def test_nonfinite_keeps_the_batch_with_a_nan_and_names_where_it_appeared(self):
        x = self.x.clone()
        x[5, 1, 2, 3] = float("nan")  # batch 3 of 4
        got = self.record(x, "--batch-size", "2", "--when", "nonfinite")
        self.assertIn("first NaN/Inf: batch 3, layer 2-1 features.0", self.err)
        want = self.record(x[4:6], "--batch-size", "2")
        self.assertSameRecording(got, want, exact=True)
        manifest = load_json(os.path.join(got, "manifest.json"))
        self.assertEqual(manifest["kept_batches"], [3])
        # outputs recorded: the first call to return a NaN is the first convolution
        self.assertEqual(manifest["first_nonfinite"],
                         {"batch": 3, "label": "2-1", "path": "features.0", "capture": "output"})

    def test_nothing_kept_warns_and_writes_an_empty_recording(self):
        out = self.record(self.x, "--batch-size", "4", "--when", "nonfinite")
        manifest = load_json(os.path.join(out, "manifest.json"))
        self.assertEqual((manifest["batches"], manifest["layers"]), (0, []))
        self.assertIn("kept no batch", self.err)

    def test_usage_errors(self):
        for extra, words in [(["--when", "epoch:1"], "--when"),
                             (["--when", "target:1"], "--targets"),
                             (["--targets", saved(torch.zeros(8))], "--targets")]:
            with self.subTest(extra=extra):
                self.record(self.x, *extra, code=2)
                self.assertIn(words, self.err)
        self.record(self.x, "--when", "target:1", "--targets", saved(torch.zeros(5)), code=3)
        self.assertIn("8 labels", self.err)


if __name__ == "__main__":
    main()

"""Inputs larger than memory: a memory-mapped .npy, a directory or glob of tensor files, --targets
streamed the same way, and --shard K/N. Every recorded tensor equals eager PyTorch's hooks
(scripts/oracle.py record) on the same samples; manifests identify the data."""
import glob
import hashlib
import json
import os
import shutil
import tempfile
import unittest

import numpy
import torch

from e2e import SAMPLES, main, oracle, run, sample

SAMPLE_COUNT = 23


def layer_outputs(run_dir):
    """{label: output tensor} of a record --save pt run."""
    with open(os.path.join(run_dir, "manifest.json")) as f:
        manifest = json.load(f)
    return {l["label"]: torch.load(os.path.join(run_dir, l["captures"]["output"]["files"][0]))
            for l in manifest["layers"]}, manifest


class Streaming(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.mkdtemp(prefix="stream-")
        torch.manual_seed(0)
        cls.x = torch.randn(SAMPLE_COUNT, 3, 16, 16)
        cls.labels = torch.randint(0, 3, (SAMPLE_COUNT,))
        torch.save(cls.x, cls.path("all.pt"))
        numpy.save(cls.path("all.npy"), cls.x.numpy())
        numpy.save(cls.path("labels.npy"), cls.labels.numpy())
        os.mkdir(cls.path("parts"))
        numpy.save(cls.path("parts/a.npy"), cls.x[:10].numpy())
        torch.save(cls.x[10:17].clone(), cls.path("parts/b.pt"))
        numpy.save(cls.path("parts/c.npy"), cls.x[17:].numpy())
        cls.model = sample("TinyConvNet")
        # eval mode: every sample's outputs are its own, whatever batch it is run in
        ref = oracle("record", "TinyConvNet", "--weights", cls.model, "--input", cls.path("all.pt"),
                     "--labels", "all")
        with open(os.path.join(ref, "index.json")) as f:
            cls.eager = {l["label"]: torch.load(os.path.join(ref, l["label"], "output.pt"))
                         for l in json.load(f)["layers"]}
        shutil.rmtree(os.path.dirname(ref))

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.dir)

    @classmethod
    def path(cls, name):
        return os.path.join(cls.dir, name)

    def record(self, inp, *extra, code=0):
        out = tempfile.mkdtemp(prefix="run-", dir=self.dir)
        os.rmdir(out)
        _, err = run("record", self.model, "--input", inp, "--layers", "all", "--capture",
                     "output", "--no-backward", "--out", out, *extra, code=code)
        return out if code == 0 else err

    def assert_outputs(self, run_dir, rows):
        outputs, manifest = layer_outputs(run_dir)
        self.assertEqual(sorted(outputs), sorted(self.eager))
        for label, got in outputs.items():
            want = self.eager[label][rows]
            self.assertEqual(got.shape, want.shape, label)
            self.assertTrue(torch.allclose(got, want, rtol=1e-5, atol=1e-6), label)
        return manifest

    def test_every_kind_of_source_records_what_eager_pytorch_computes(self):
        for inp in ("all.npy", "parts", "parts/*"):
            with self.subTest(inp):
                manifest = self.assert_outputs(self.record(self.path(inp), "--batch-size", "5"),
                                               slice(None))
                self.assertEqual(manifest["batches"], 5)
                self.assertEqual(manifest["samples"], SAMPLE_COUNT)
                self.assertIsNone(manifest["shard"])

    def test_a_glob_takes_only_the_files_it_matches(self):
        manifest = self.assert_outputs(self.record(self.path("parts/*.npy"), "--batch-size", "4"),
                                       torch.cat([torch.arange(10), torch.arange(17, 23)]))
        source = manifest["inputs"]["sources"][0]
        self.assertEqual(source["kind"], "file_sequence")
        self.assertEqual([os.path.basename(f["path"]) for f in source["files"]], ["a.npy", "c.npy"])

    def test_manifest_identifies_the_files_read(self):
        _, manifest = layer_outputs(self.record(self.path("all.npy"), "--batch-size", "8"))
        source = manifest["inputs"]["sources"][0]
        path = self.path("all.npy")
        with open(path, "rb") as f:
            head = f.read(64 * 1024)
        self.assertEqual(source["kind"], "npy")
        self.assertEqual(source["samples"], SAMPLE_COUNT)
        self.assertEqual(source["sample_shape"], [3, 16, 16])
        self.assertEqual(source["dtype"], "float32")
        self.assertEqual(source["files"], [{"path": path, "bytes": os.path.getsize(path),
                                            "mtime_ns": os.stat(path).st_mtime_ns,
                                            "head_sha256": hashlib.sha256(head).hexdigest()}])

    def test_shards_take_contiguous_balanced_ranges(self):
        for k in range(3):
            with self.subTest(shard=k):
                start, end = k * SAMPLE_COUNT // 3, (k + 1) * SAMPLE_COUNT // 3
                manifest = self.assert_outputs(
                    self.record(self.path("parts"), "--batch-size", "4", "--shard", f"{k}/3"),
                    slice(start, end))
                self.assertEqual(manifest["shard"], {"index": k, "count": 3, "start": start,
                                                     "end": end})
                self.assertEqual(manifest["samples"], end - start)
                self.assertEqual(manifest["total_samples"], SAMPLE_COUNT)
                self.assertEqual(manifest["batches"], (end - start + 3) // 4)

    def test_a_shard_without_batch_size_is_one_batch(self):
        manifest = self.assert_outputs(self.record(self.path("all.npy"), "--shard", "1/2"),
                                       slice(SAMPLE_COUNT // 2, SAMPLE_COUNT))
        self.assertEqual(manifest["batches"], 1)

    def test_streamed_targets_keep_the_samples_of_one_class(self):
        for shard in ([], ["--shard", "1/2"]):
            with self.subTest(shard=shard):
                lo, hi = (SAMPLE_COUNT // 2, SAMPLE_COUNT) if shard else (0, SAMPLE_COUNT)
                rows = [i for i in range(lo, hi) if self.labels[i] == 2]
                self.assert_outputs(self.record(self.path("all.npy"), "--batch-size", "4",
                                                "--when", "target:2", "--targets",
                                                self.path("labels.npy"), *shard), rows)

    def test_check_model_streams_a_shard(self):
        out, _ = run("check", self.model, "--input", self.path("parts"), "--batch-size", "4",
                     "--shard", "2/3", "--max-abs", "1e9", "--format", "json")
        self.assertEqual(json.loads(out)["violations"], [])

    def test_bad_sources_and_shards(self):
        for args, flag in ((["--shard", "3/3"], "--shard"), (["--shard", "1"], "--shard"),
                           (["--shard", "0/24"], "--shard")):
            with self.subTest(args):
                err = self.record(self.path("all.npy"), *args, code=2)
                self.assertIn(flag, err)
                self.assertEqual(len(err.strip().splitlines()), 1, err)
        empty = self.path("empty")
        os.makedirs(empty, exist_ok=True)
        self.assertIn("no .pt or .npy files found", self.record(empty, code=3))
        self.assertIn("no .pt or .npy files found", self.record(self.path("parts/*.nothing"), code=3))
        mixed = self.path("mixed")
        os.makedirs(mixed, exist_ok=True)
        numpy.save(os.path.join(mixed, "a.npy"), self.x[:2].numpy())
        numpy.save(os.path.join(mixed, "b.npy"), self.x[:2].numpy().astype(numpy.float64))
        err = self.record(mixed, code=3)
        self.assertIn(os.path.join(mixed, "b.npy"), err)
        self.assertIn("float64", err)
        err = self.record(self.path("all.npy"), "--when", "target:1", "--targets",
                          self.path("parts/c.npy"), code=3)
        self.assertIn("parts/c.npy", err)


class WatchShard(unittest.TestCase):
    """watch --shard trains on its part of the samples only: its losses are eager SGD's there."""

    def test_losses_are_eager_trainings_on_the_shard(self):
        d = tempfile.mkdtemp(prefix="watch-shard-")
        self.addCleanup(shutil.rmtree, d)
        torch.manual_seed(0)
        net = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.ReLU(), torch.nn.Linear(8, 1))
        model = os.path.join(d, "net.pt")
        torch.jit.script(net).save(model)
        x, y = torch.randn(11, 4), torch.randn(11, 1)
        numpy.save(os.path.join(d, "x.npy"), x.numpy())
        numpy.save(os.path.join(d, "y.npy"), y.numpy())
        run("watch", model, "--input", os.path.join(d, "x.npy"), "--targets",
            os.path.join(d, "y.npy"), "--loss", "mse", "--optimizer", "sgd", "--lr", "0.1",
            "--steps", "3", "--batch-size", "6", "--layers", "all", "--shard", "1/2", "--out",
            os.path.join(d, "run"))
        with open(os.path.join(d, "run", "manifest.json")) as f:
            manifest = json.load(f)
        self.assertEqual(manifest["shard"], {"index": 1, "count": 2, "start": 5, "end": 11})
        eager = torch.jit.load(model)
        eager.train()
        opt = torch.optim.SGD(eager.parameters(), lr=0.1)
        losses = []
        for _ in range(3):
            opt.zero_grad()
            loss = torch.nn.functional.mse_loss(eager(x[5:]), y[5:])
            loss.backward()
            opt.step()
            losses.append(loss.item())
        for got, want in zip(manifest["losses"], losses):
            self.assertAlmostEqual(got, want, places=6)


if __name__ == "__main__":
    main()

"""modrec record end to end beyond the oracle comparison: statistics (stats.json / stats.csv) against
torch's own reductions, NaN/Inf handling and `check`, --batch-size / --reduce / --save, --loss and
--grad against torch.autograd, layer selectors against `summary --grad --format json`, the output
layout (manifest, atomic replacement, --force), .npy files and reused modules."""
import csv
import glob
import hashlib
import json
import math
import os
import re
import sys
import tempfile
import unittest

import numpy
import torch

from e2e import ROOT, SAMPLES, run, sample, stderr_on_a_terminal, tensor_file, main

sys.path.insert(0, os.path.join(ROOT, "scripts"))
import models  # noqa: E402  (scripts/models.py: the eager twins of the samples)

ALL_CAPTURES = "input,output,grad_input,grad_output"
STAT_FIELDS = ("count", "finite_count", "mean", "std", "min", "max", "abs_max", "l2_norm",
               "zero_fraction", "nan_count", "inf_count")


def sample_input(name):
    return os.path.join(SAMPLES, f"{name}.input.pt")


def flat(value):
    """Tensors depth-first (tuples, lists, dict values), skipping None (no gradient arrived)."""
    if isinstance(value, (tuple, list)):
        return [t for v in value for t in flat(v)]
    if isinstance(value, dict):
        return [t for v in value.values() for t in flat(v)]
    return [] if value is None else [value]


def save_tensor(tensor):
    path = os.path.join(tempfile.mkdtemp(prefix="rec-cli-in-"), "t.pt")
    torch.save(tensor, path)
    return path


def record(model, inputs, *extra, layers="all", out=None, code=0):
    """Runs modrec record into a fresh directory (or `out`); returns (dir, stdout)."""
    out = out or os.path.join(tempfile.mkdtemp(prefix="rec-cli-"), "run")
    stdout, _ = run("record", model, *[a for i in inputs for a in ("--input", i)], "--layers", layers,
                    "--out", out, *extra, code=code)
    return out, stdout


_RUNS = {}


def recorded(name, *extra):
    """A run of sample `name` on its input with every capture, made once: tests only read it."""
    if (name, extra) not in _RUNS:
        _RUNS[(name, extra)] = record(sample(name), [sample_input(name)], "--capture", ALL_CAPTURES,
                                      *extra)[0]
    return _RUNS[(name, extra)]


def batched(batch_size, *extra):
    """SingleInputNet on 16 samples, in one batch (None) or `batch_size` at a time, made once."""
    key = ("batched", batch_size, extra)
    if key not in _RUNS:
        size = ("--batch-size", str(batch_size)) if batch_size else ()
        _RUNS[key] = record(sample("SingleInputNet"), [tensor_file((16, 1, 28, 28), seed=3)],
                            "--capture", ALL_CAPTURES, *size, *extra)[0]
    return _RUNS[key]


def load_json(run_dir, name):
    with open(os.path.join(run_dir, name)) as f:
        return json.load(f)


def stats_by_key(run_dir):
    """(label, capture) -> the list of per-tensor statistics of stats.json."""
    return {(layer["label"], capture): tensors
            for layer in load_json(run_dir, "stats.json")["layers"]
            for capture, tensors in layer["captures"].items()}


def saved(run_dir, label, capture):
    """The tensors of a capture's .pt file; none where no tensor arrived (the model input's
    grad_input: it does not require grad, as in PyTorch's full backward hooks)."""
    path = os.path.join(run_dir, "tensors", label, f"{capture}.pt")
    return flat(torch.load(path)) if os.path.exists(path) else []


def torch_stats(t):
    """The statistics contract of stats.json, computed by torch in double over the finite values."""
    x = t.detach().double().flatten()
    finite = x[torch.isfinite(x)]
    n = finite.numel()
    return {
        "count": x.numel(), "finite_count": n,
        "nan_count": int(torch.isnan(x).sum()), "inf_count": int(torch.isinf(x).sum()),
        "mean": finite.mean().item() if n else None,
        "std": finite.std().item() if n > 1 else None,
        "min": finite.min().item() if n else None,
        "max": finite.max().item() if n else None,
        "abs_max": finite.abs().max().item() if n else None,
        "l2_norm": torch.linalg.norm(finite).item(),
        "zero_fraction": (finite == 0).double().mean().item() if n else None,
    }


class StatsAssertions(unittest.TestCase):
    """stats.json against torch's reductions (also used by test_cuda.py)."""

    def assertClose(self, got, want, what, rel=1e-6, abs_tol=1e-12):
        if want is None:
            self.assertIsNone(got, what)
            return
        self.assertIsNotNone(got, what)
        self.assertTrue(math.isclose(got, want, rel_tol=rel, abs_tol=abs_tol), (what, got, want))

    def assertStatsOf(self, entry, tensor, what):
        """One stats.json tensor entry against torch's reductions and numpy.histogram."""
        self.assertEqual(entry["shape"], list(tensor.shape), what)
        self.assertEqual(entry["dtype"], str(tensor.dtype).replace("torch.", ""), what)
        want = torch_stats(tensor)
        for field in STAT_FIELDS:
            self.assertClose(entry[field], want[field], (what, field))
        hist = entry["histogram"]
        self.assertEqual(sum(hist["counts"]), entry["finite_count"], what)
        x = tensor.detach().double().flatten()
        counts, _ = numpy.histogram(x[torch.isfinite(x)].numpy(), bins=numpy.array(hist["edges"]))
        self.assertEqual(hist["counts"], counts.tolist(), what)

    def assertRunStatsMatchTensors(self, run_dir):
        """Every saved tensor of the run has stats.json entries equal to torch's; returns how many."""
        stats = stats_by_key(run_dir)
        checked = 0
        for layer in load_json(run_dir, "manifest.json")["layers"]:
            for capture, info in layer["captures"].items():
                tensors = saved(run_dir, layer["label"], capture)
                entries = stats[(layer["label"], capture)]
                self.assertEqual(len(entries), len(tensors), (layer["label"], capture))
                self.assertEqual(len(info["files"]), 1 if tensors else 0, (layer["label"], capture))
                for i, (entry, t) in enumerate(zip(entries, tensors)):
                    self.assertEqual(entry["tensor"], i)
                    self.assertStatsOf(entry, t, (layer["label"], capture, i))
                    checked += 1
        return checked

    def assertHistogramsAgree(self, a, b, what):
        """Two runs' histograms of the same data computed at different batch sizes. PyTorch's
        kernels (2.x) give batch-size-dependent results in the last bits (SingleInputNet's conv1
        grad_output: 6.6e-9 apart at batch 16 vs 2 in eager PyTorch too, 1.2e-6 of its largest
        value), so a value on a bin edge
        may move to the next bin: the bins must be the same, and the counts differ by few moves."""
        self.assertEqual(a["edges"], b["edges"], what)
        moved = sum(abs(x - y) for x, y in zip(a["counts"], b["counts"]))
        self.assertLessEqual(moved, 2 * max(1, sum(a["counts"]) // 10000), what)


class RecordCliTest(StatsAssertions):
    # 1 ---------------------------------------------------------------------------------------
    def test_stats_json_matches_torch_reductions(self):
        for name in ("TinyConvNet", "SingleInputNet"):
            out = recorded(name)
            self.assertGreater(self.assertRunStatsMatchTensors(out), 10, name)

    def test_stats_csv_rows_equal_stats_json(self):
        out = recorded("TinyConvNet")
        stats = stats_by_key(out)
        layers = {l["label"]: l for l in load_json(out, "stats.json")["layers"]}
        with open(os.path.join(out, "stats.csv"), newline="") as f:
            rows = list(csv.DictReader(f))
        self.assertEqual(len(rows), sum(len(v) for v in stats.values()))
        for row in rows:
            layer = layers[row["label"]]
            entry = stats[(row["label"], row["capture"])][int(row["tensor"])]
            # the root's path, "" in JSON, is "(root)" in CSV (docs/run-dir.md)
            self.assertEqual((row["path"], row["type"], int(row["call"])),
                             (layer["path"] or "(root)", layer["type"], layer["call"]))
            self.assertEqual(row["shape"], "x".join(map(str, entry["shape"])))
            self.assertEqual(row["dtype"], entry["dtype"])
            for field in STAT_FIELDS:
                value = None if row[field] == "" else float(row[field])
                self.assertEqual(value, entry[field], (row["label"], row["capture"], field))

    # 2 ---------------------------------------------------------------------------------------
    def test_nan_and_inf_are_counted_apart_and_checked(self):
        x = torch.load(sample_input("LinearModel")).clone()
        x[0, 0], x[1, 1], x[2, 2] = float("nan"), float("inf"), -float("inf")
        out, _ = record(sample("LinearModel"), [save_tensor(x)], "--capture", "input,output,grad_output")
        self.assertRunStatsMatchTensors(out)
        root_input = stats_by_key(out)[("0-1", "input")][0]
        self.assertEqual((root_input["nan_count"], root_input["inf_count"]), (1, 2))
        self.assertEqual(root_input["finite_count"], x.numel() - 3)
        self.assertClose(root_input["mean"], x[torch.isfinite(x)].double().mean().item(), "finite mean")
        first_linear = stats_by_key(out)[("2-1", "output")][0]  # layers.0: a row of +/-Inf
        self.assertGreater(first_linear["inf_count"], 0)
        report, _ = run("check", out, code=1)
        self.assertRegex(report, r"(?m)^2-1\s+layers\.0\s+output\s+no-nan")
        self.assertRegex(report, r"(?m)^0-1\s+input\s+no-inf\s+2\b")
        run("check", out, "--allow-nan", "--allow-inf", code=0)

    # 3 ---------------------------------------------------------------------------------------
    def test_batches_concatenate_to_the_single_batch_run(self):
        whole, batches = batched(None), batched(2)
        manifest = load_json(batches, "manifest.json")
        self.assertEqual((manifest["batches"], manifest["samples"]), (8, 16))
        self.assertEqual(manifest["options"]["batch_size"], 2)
        self.assertEqual(load_json(whole, "manifest.json")["batches"], 1)
        self.assertEqual([l["label"] for l in manifest["layers"]],
                         [l["label"] for l in load_json(whole, "manifest.json")["layers"]])
        a, b = stats_by_key(whole), stats_by_key(batches)
        self.assertEqual(a.keys(), b.keys())
        for layer in manifest["layers"]:
            for capture, info in layer["captures"].items():
                key = (layer["label"], capture)
                for w, g in zip(saved(whole, *key), saved(batches, *key)):
                    self.assertEqual(g.shape[0], 16, key)
                    self.assertEqual(g.shape, w.shape, key)
                    self.assertTrue(torch.allclose(g, w, rtol=1e-6, atol=1e-5 * w.abs().max()), key)
                self.assertEqual(info["shapes"], [list(t.shape) for t in saved(batches, *key)], key)
                for ea, eb in zip(a[key], b[key]):
                    self.assertHistogramsAgree(ea["histogram"], eb["histogram"], key)
                    for field in STAT_FIELDS:
                        self.assertClose(eb[field], ea[field], (key, field), abs_tol=1e-6 * ea["abs_max"])
        self.assertRunStatsMatchTensors(batches)

    def test_uneven_batches_of_two_inputs(self):
        x = sample_input("TwoInputNet")  # 4 samples: batches of 3 and 1
        whole, split = recorded("TwoInputNet"), recorded("TwoInputNet", "--batch-size", "3")
        manifest = load_json(split, "manifest.json")
        self.assertEqual((manifest["batches"], manifest["samples"]), (2, 4))
        inputs = saved(split, "0-1", "input")
        self.assertEqual(len(inputs), 2)
        for got, want in zip(inputs, torch.load(x)):
            self.assertTrue(torch.equal(got, want))
        for layer in manifest["layers"]:
            for capture in layer["captures"]:
                key = (layer["label"], capture)
                for w, g in zip(saved(whole, *key), saved(split, *key)):
                    self.assertTrue(torch.allclose(g, w, rtol=1e-6, atol=1e-5 * w.abs().max()), key)

    def test_reduce_sum_and_mean_over_batches(self):
        whole = batched(None)
        whole_stats = stats_by_key(whole)
        for how in ("sum", "mean"):
            reduced = batched(2, "--reduce", how)
            reduced_stats = stats_by_key(reduced)
            manifest = load_json(reduced, "manifest.json")
            self.assertEqual(manifest["options"]["reduce"], how)
            for layer in manifest["layers"]:
                for capture in layer["captures"]:
                    key = (layer["label"], capture)
                    for w, r in zip(saved(whole, *key), saved(reduced, *key)):
                        full = w.double()
                        want = full.sum(0) if how == "sum" else full.mean(0)
                        self.assertEqual(r.shape, want.shape, key)
                        self.assertEqual(r.dtype, w.dtype, key)
                        # Summing 16 samples in float64 is exact to ~1e-16; what remains is
                        # PyTorch's batch-size-dependent last bits (assertHistogramsAgree).
                        scale = full.abs().sum(0) / (1 if how == "sum" else full.shape[0])
                        slack = 1e-6 * scale + 1e-5 * full.abs().max()
                        self.assertTrue(torch.all((r.double() - want).abs() <= slack), (how, key))
                    # statistics stay those of the unreduced data
                    for ea, eb in zip(whole_stats[key], reduced_stats[key]):
                        self.assertEqual(eb["shape"], ea["shape"], key)
                        self.assertHistogramsAgree(ea["histogram"], eb["histogram"], key)
                        self.assertClose(eb["mean"], ea["mean"], key, abs_tol=1e-6 * ea["abs_max"])

    def test_reduce_manifest_shapes_describe_the_files(self):
        reduced = batched(2, "--reduce", "sum")
        for layer in load_json(reduced, "manifest.json")["layers"]:
            for capture, info in layer["captures"].items():
                tensors = saved(reduced, layer["label"], capture)
                self.assertEqual(info["shapes"], [list(t.shape) for t in tensors], (layer["label"], capture))
                self.assertEqual(info["dtypes"], [str(t.dtype).replace("torch.", "") for t in tensors])

    def test_save_none_keeps_statistics_only(self):
        reference = batched(None)
        for out in (batched(None, "--save", "none"), batched(2, "--save", "none")):
            self.assertEqual([p for p in glob.glob(os.path.join(out, "tensors", "**"), recursive=True)
                              if os.path.isfile(p)], [])
            for layer in load_json(out, "manifest.json")["layers"]:
                for info in layer["captures"].values():
                    self.assertEqual(info["files"], [])
            a, b = stats_by_key(reference), stats_by_key(out)
            self.assertEqual(a.keys(), b.keys())
            for key in a:
                for ea, eb in zip(a[key], b[key]):
                    self.assertHistogramsAgree(ea["histogram"], eb["histogram"], key)
                    for field in STAT_FIELDS:
                        self.assertClose(eb[field], ea[field], (key, field), abs_tol=1e-6 * ea["abs_max"])

    # 4 ---------------------------------------------------------------------------------------
    def test_loss_mean_scales_gradients_by_first_output_numel(self):
        model, x = sample("SingleInputNet"), sample_input("SingleInputNet")
        summed, _ = record(model, [x], "--capture", "grad_input,grad_output")
        mean, _ = record(model, [x], "--capture", "grad_input,grad_output", "--loss", "mean")
        numel = torch.jit.load(model)(torch.load(x)).numel()
        self.assertEqual(load_json(mean, "manifest.json")["options"]["loss"], "mean")
        for layer in load_json(summed, "manifest.json")["layers"]:
            for capture in ("grad_input", "grad_output"):
                key = (layer["label"], capture)
                for s, m in zip(saved(summed, *key), saved(mean, *key)):
                    # float32 backward with a seed of 1/20 instead of 1: rounding, not exact
                    want = s / numel
                    self.assertTrue(torch.allclose(m, want, rtol=1e-5, atol=1e-5 * want.abs().max()), key)

    def test_grad_file_seeds_backward(self):
        name = "SingleInputNet"
        model_file, x = sample(name), torch.load(sample_input(name))
        scripted = torch.jit.load(model_file)
        eager = models.build(name)
        eager.load_state_dict(scripted.state_dict())
        eager.eval()
        kept = {}
        eager.fc2.register_forward_hook(lambda m, i, o: kept.update(input=i[0], output=o))
        y = eager(x)
        seed = torch.randn(y.shape, generator=torch.Generator().manual_seed(7))
        grad_out, grad_in = torch.autograd.grad(y, [kept["output"], kept["input"]], grad_outputs=seed)
        grad_path = save_tensor(seed)
        out, _ = record(model_file, [sample_input(name)], "--capture", "grad_input,grad_output",
                        "--grad", grad_path)
        self.assertEqual(load_json(out, "manifest.json")["options"]["grad_file"], grad_path)
        self.assertTrue(torch.equal(saved(out, "0-1", "grad_output")[0], seed))
        fc2 = [l["label"] for l in load_json(out, "manifest.json")["layers"] if l["path"] == "fc2"]
        self.assertEqual(len(fc2), 1)
        self.assertTrue(torch.allclose(saved(out, fc2[0], "grad_output")[0], grad_out, rtol=1e-5, atol=1e-7))
        self.assertTrue(torch.allclose(saved(out, fc2[0], "grad_input")[0], grad_in, rtol=1e-5, atol=1e-7))

    def test_grad_file_of_the_wrong_shape_or_with_batches_is_refused(self):
        parent = tempfile.mkdtemp(prefix="rec-cli-")
        args = ("record", sample("SingleInputNet"), "--input", sample_input("SingleInputNet"),
                "--layers", "all", "--out", os.path.join(parent, "run"))
        _, err = run(*args, "--grad", save_tensor(torch.ones(3, 3)), code=3)
        self.assertIn("gradient shape", err)
        _, err = run(*args, "--grad", save_tensor(torch.ones(2, 10)), "--batch-size", "1", code=2)
        self.assertIn("--batch-size", err)
        self.assertEqual(os.listdir(parent), [])

    # 5 ---------------------------------------------------------------------------------------
    def summary_rows(self, name):
        text, _ = run("summary", sample(name), "--input", sample_input(name), "--grad", "--format", "json")
        return [r for r in json.loads(text)["rows"] if r["executed"]]

    def recorded_labels(self, name, layers, *extra):
        out, _ = record(sample(name), [sample_input(name)], *extra, layers=layers)
        return [l["label"] for l in load_json(out, "manifest.json")["layers"]], out

    def test_selectors_pick_the_summary_rows(self):
        for name, selectors in (
                ("TinyConvNet", {
                    "all": lambda r: True,
                    "depth:1": lambda r: r["depth"] == 1,
                    "type:Conv2d": lambda r: r["type"] == "Conv2d",
                    "features.1": lambda r: r["path"] == "features.1",
                    "2-5,1-3": lambda r: r["label"] in ("2-5", "1-3"),
                    "type:Linear,depth:2": lambda r: r["type"] == "Linear" or r["depth"] == 2}),
                ("SingleInputNet", {
                    "re:^fc": lambda r: re.search("^fc", r["path"]) is not None,
                    "type:Linear": lambda r: r["type"] == "Linear"}),
                ("ReusedModuleNet", {
                    "fc": lambda r: r["path"] == "fc",
                    "1-4": lambda r: r["label"] == "1-4"})):
            rows = self.summary_rows(name)
            for selector, pick in selectors.items():
                want = [r["label"] for r in rows if pick(r)]
                self.assertTrue(want, (name, selector))
                got, _ = self.recorded_labels(name, selector)
                self.assertEqual(got, want, (name, selector))

    def test_unknown_label_is_a_usage_error_listing_labels(self):
        _, err = run("record", sample("TinyConvNet"), "--input", sample_input("TinyConvNet"),
                     "--layers", "9-9", "--out", os.path.join(tempfile.mkdtemp(), "run"), code=2)
        self.assertIn("2-5", err)

    def test_no_backward_records_outputs_only(self):
        labels, out = self.recorded_labels("TinyConvNet", "all", "--no-backward")
        self.assertEqual(labels, [r["label"] for r in self.summary_rows("TinyConvNet")])
        manifest = load_json(out, "manifest.json")
        self.assertFalse(manifest["options"]["backward"])
        for layer in manifest["layers"]:
            self.assertEqual(list(layer["captures"]), ["output"])
            self.assertEqual(sorted(os.listdir(os.path.join(out, "tensors", layer["label"]))),
                             ["output.pt"])
        self.assertFalse(glob.glob(os.path.join(out, "tensors", "*", "grad_*")))

    # 6 ---------------------------------------------------------------------------------------
    def test_manifest_describes_the_run(self):
        model, x = sample("TwoInputNet"), sample_input("TwoInputNet")
        out, stdout = record(model, [x], "--capture", "input,output", "--no-backward", "--format", "json",
                             layers="type:Linear,0-1")
        manifest = load_json(out, "manifest.json")
        self.assertEqual(json.loads(stdout), manifest)
        with open(model, "rb") as f:
            self.assertEqual(manifest["model"], {"path": model, "sha256": hashlib.sha256(f.read()).hexdigest()})
        self.assertEqual(manifest["kind"], "recording")
        self.assertRegex(manifest["modrec_version"], r"^\d+\.\d+\.\d+")
        self.assertEqual(manifest["libtorch_version"].split(".")[:2], torch.__version__.split(".")[:2])
        inputs = torch.load(x)
        self.assertEqual(manifest["inputs"]["files"], [x])
        self.assertEqual(manifest["inputs"]["tensors"],
                         [{"shape": list(t.shape), "dtype": "float32"} for t in inputs])
        self.assertEqual(manifest["options"], {
            "layers": "type:Linear,0-1", "capture": ["input", "output"], "loss": "sum",
            "grad_file": None, "backward": False, "save": "pt", "batch_size": None, "reduce": None,
            "edits": [], "when": None, "targets_file": None, "mode": "eval", "columns": []})
        self.assertEqual((manifest["batches"], manifest["kept_batches"], manifest["samples"]),
                         (1, [1], 4))
        self.assertIsNone(manifest["first_nonfinite"])
        self.assertEqual([(l["path"], l["type"], l["call"]) for l in manifest["layers"]],
                         [("", "TwoInputNet", 1), ("branch_x.0", "Linear", 1),
                          ("branch_y.0", "Linear", 1), ("head", "Linear", 1)])
        for layer in manifest["layers"]:
            for capture, info in layer["captures"].items():
                self.assertEqual(info["files"], [f"tensors/{layer['label']}/{capture}.pt"])
                tensors = flat(torch.load(os.path.join(out, info["files"][0])))
                self.assertEqual(info["shapes"], [list(t.shape) for t in tensors])
                self.assertEqual(info["dtypes"], [str(t.dtype).replace("torch.", "") for t in tensors])

    @staticmethod
    def snapshot(path):
        files = {}
        for p in glob.glob(os.path.join(path, "**"), recursive=True):
            if os.path.isfile(p):
                with open(p, "rb") as f:
                    files[os.path.relpath(p, path)] = f.read()
        return files

    def test_existing_out_is_refused_unless_forced(self):
        model, x = sample("TinyConvNet"), sample_input("TinyConvNet")
        out, _ = record(model, [x], layers="1-1")
        before = self.snapshot(out)
        _, err = run("record", model, "--input", x, "--layers", "all", "--out", out, code=5)
        self.assertIn(out, err)
        self.assertEqual(self.snapshot(out), before)
        record(model, [x], layers="1-2", out=out + "/", code=5)
        self.assertEqual(self.snapshot(out), before)
        record(model, [x], "--force", layers="1-2", out=out)
        self.assertEqual([l["label"] for l in load_json(out, "manifest.json")["layers"]], ["1-2"])
        self.assertFalse(os.path.exists(os.path.join(out, "tensors", "1-1")))
        parent = os.path.dirname(out)
        self.assertEqual(sorted(os.listdir(parent)), ["run"])
        self.assertFalse(glob.glob(os.path.join(parent, ".*modrec-tmp*")))

    def test_failed_run_leaves_nothing_behind(self):
        parent = tempfile.mkdtemp(prefix="rec-cli-")
        record(sample("TinyConvNet"), [sample_input("TinyConvNet")], layers="9-9",
               out=os.path.join(parent, "run"), code=2)
        self.assertEqual(os.listdir(parent), [])

    # 7 ---------------------------------------------------------------------------------------
    def test_npy_files_equal_the_pt_run(self):
        for name in ("TinyConvNet", "TwoInputNet"):
            pt, npy = recorded(name), recorded(name, "--save", "npy")
            manifest = load_json(npy, "manifest.json")
            for layer in manifest["layers"]:
                for capture, info in layer["captures"].items():
                    want = saved(pt, layer["label"], capture)
                    self.assertEqual(len(info["files"]), len(want), (name, layer["label"], capture))
                    for f, w in zip(info["files"], want):
                        got = numpy.load(os.path.join(npy, f))
                        self.assertEqual(got.dtype, w.numpy().dtype, f)
                        self.assertTrue(numpy.array_equal(got, w.numpy()), f)
            if name == "TwoInputNet":
                files = manifest["layers"][0]["captures"]["input"]["files"]
                self.assertEqual(files, ["tensors/0-1/input.0.npy", "tensors/0-1/input.1.npy"])
                for f, t in zip(files, torch.load(sample_input(name))):
                    self.assertTrue(numpy.array_equal(numpy.load(os.path.join(npy, f)), t.numpy()))

    def test_batched_npy_files_are_whole_arrays(self):
        """With --batch-size, --save npy appends each batch to the .npy file: NumPy reads the
        concatenated array, the header holding the whole shape, and no spooled batch is left."""
        model = os.path.join(tempfile.mkdtemp(prefix="rec-cli-flatten-"), "flatten.pt")
        torch.jit.script(torch.nn.Sequential(torch.nn.Flatten())).save(model)
        args = ("--capture", "input,output", "--no-backward", "--save", "npy")
        runs = [("SingleInputNet", batched(None, "--save", "npy"), batched(2, "--save", "npy"))]
        for dtype in ("bfloat16", "float16"):  # 7 samples: batches of 3, 3 and 1
            x = tensor_file((7, 2, 3), dtype=dtype, seed=5)
            runs.append((dtype, record(model, [x], *args)[0],
                         record(model, [x], *args, "--batch-size", "3")[0]))
        for name, whole, split in runs:
            whole_layers = load_json(whole, "manifest.json")["layers"]
            for layer, whole_layer in zip(load_json(split, "manifest.json")["layers"], whole_layers):
                for capture, info in layer["captures"].items():
                    self.assertEqual(info["files"], whole_layer["captures"][capture]["files"])
                    for f, shape in zip(info["files"], info["shapes"]):
                        with open(os.path.join(split, f), "rb") as fh:
                            self.assertEqual(numpy.lib.format.read_magic(fh), (1, 0))
                            header_shape = numpy.lib.format.read_array_header_1_0(fh)[0]
                        got, want = numpy.load(os.path.join(split, f)), numpy.load(os.path.join(whole, f))
                        self.assertEqual(list(header_shape), shape, (name, f))
                        self.assertEqual((got.shape, got.dtype), (want.shape, want.dtype), (name, f))
                        atol = 1e-5 * float(numpy.abs(want).max(initial=0))  # batch-size-dependent bits
                        self.assertTrue(numpy.allclose(got, want, rtol=1e-6, atol=atol), (name, f))
                        if name != "SingleInputNet":  # bfloat16 has no NumPy dtype: float32
                            self.assertEqual(got.dtype, "float32" if name == "bfloat16" else "float16")
            self.assertEqual(self.spooled_files(split), [], name)
        self.assertEqual(self.spooled_files(batched(2)), [])

    @staticmethod
    def spooled_files(run_dir):
        return [os.path.join(d, n) for d, dirs, files in os.walk(run_dir) for n in dirs + files
                if n == ".spool" or n.endswith(".raw")]

    # 8 ---------------------------------------------------------------------------------------
    def test_reused_module_calls_are_recorded_apart(self):
        name = "ReusedModuleNet"
        x = torch.load(sample_input(name))
        eager = models.build(name)
        eager.load_state_dict(torch.jit.load(sample(name)).state_dict())
        eager.eval()
        outputs = []  # clones: the in-place ReLU after each call overwrites the tensor itself
        eager.fc.register_forward_hook(lambda m, i, o: outputs.append(o.detach().clone()))
        eager(x)
        out, _ = record(sample(name), [sample_input(name)], layers="fc")
        layers = load_json(out, "manifest.json")["layers"]
        self.assertEqual([(l["path"], l["call"]) for l in layers], [("fc", 1), ("fc", 2), ("fc", 3)])
        self.assertEqual(len({l["label"] for l in layers}), 3)
        got = [saved(out, l["label"], "output")[0] for l in layers]
        for g, w in zip(got, outputs):
            self.assertTrue(torch.allclose(g, w, rtol=1e-5, atol=1e-6))
        self.assertFalse(torch.allclose(got[0], got[1]))
        self.assertFalse(torch.allclose(got[1], got[2]))


class ProgressBar(unittest.TestCase):
    """A progress bar for batched runs on a terminal only: never on a pipe, never with -q."""

    def stderr_of(self, *flags, tty):
        out = os.path.join(tempfile.mkdtemp(prefix="progress-"), "run")
        args = [*flags, "record", sample("SingleInputNet"), "--input-size", "8x1x28x28",
                "--batch-size", "2", "--layers", "1-1", "--save", "none", "--out", out]
        if not tty:
            return run(*args)[1]
        code, err = stderr_on_a_terminal(*args)
        self.assertEqual(code, 0, err)
        return err

    def test_bar_on_a_terminal(self):
        err = self.stderr_of(tty=True)
        self.assertIn("4/4 batches", err)
        self.assertIn("1/4 batches", err)

    def test_no_bar_on_a_pipe_or_when_quiet(self):
        self.assertNotIn("batches", self.stderr_of(tty=False))
        self.assertNotIn("batches", self.stderr_of("-q", tty=True))


if __name__ == "__main__":
    main()

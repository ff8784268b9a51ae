"""modrec merge puts the shard runs of `record --shard K/N` together: 4 shards recorded in
parallel (xargs -P 4) and merged equal one run over all the data (statistics to 1e-12 relative,
histograms and tensors exactly, .npy and .pt), the merged statistics equal numpy's over the merged
tensors, and every refusal is exit 3 with one line naming the pair of runs."""
import json
import math
import os
import shutil
import subprocess
import tempfile
import textwrap
import unittest

import numpy as np
import torch

from e2e import MODREC, PYTHON, main, run

SHARDS = 4
SAMPLES = 16  # 4 per shard, batches of 2: the shards' batches are the unsharded run's
BATCH = "2"
CAPTURES = "input,output,grad_input,grad_output,param,param_grad"

# A convolution, a call with a flag (a value that is no tensor, kept in .pt files) and a head.
MAKE_MODEL = textwrap.dedent("""
    import sys, numpy as np, torch, torch.nn as nn
    class Scale(nn.Module):
        def forward(self, x, twice: bool):
            return x * 2 if twice else x
    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv, self.relu, self.scale = nn.Conv2d(3, 4, 3, padding=1), nn.ReLU(), Scale()
            self.fc = nn.Linear(4 * 6 * 6, 5)
        def forward(self, x):
            return self.fc(self.scale(self.relu(self.conv(x)), True).flatten(1))
    out = sys.argv[1]
    torch.manual_seed(0)
    net = Net().eval()
    torch.jit.save(torch.jit.script(net), out + "/model.pt")
    with torch.no_grad():
        net.fc.weight[0, 0] += 0.5
    torch.jit.save(torch.jit.script(net), out + "/other_model.pt")
    np.save(out + "/x.npy", torch.randn(%d, 3, 6, 6).numpy())
    np.save(out + "/y.npy", torch.randn(%d, 3, 6, 6).numpy())
""" % (SAMPLES, SAMPLES))

EXACT_FIELDS = ("count", "finite_count", "nan_count", "inf_count", "zero_count", "min", "max",
                "abs_max")
REAL_FIELDS = ("mean", "std", "m2", "l2_norm", "zero_fraction")


def load_json(*path):
    with open(os.path.join(*path)) as f:
        return json.load(f)


def write(path, text):
    with open(path, "w") as f:
        f.write(text)


def stats_by_key(run_dir):
    return {(l["label"], c, t["tensor"]): t for l in load_json(run_dir, "stats.json")["layers"]
            for c, ts in l["captures"].items() for t in ts}


def close(a, b, rel, scale):
    if a is None or b is None:
        return a is None and b is None
    return math.isclose(a, b, rel_tol=rel, abs_tol=rel * scale)


def saved_files(run_dir):
    """{(label, capture): [files]} of a run's manifest."""
    return {(l["label"], c): info["files"] for l in load_json(run_dir, "manifest.json")["layers"]
            for c, info in l["captures"].items()}


def load_saved(path):
    return np.load(path) if path.endswith(".npy") else torch.load(path)


def flat_tensors(value):
    if isinstance(value, torch.Tensor):
        return [value]
    if isinstance(value, np.ndarray):
        return [torch.from_numpy(value)]
    if isinstance(value, (tuple, list)):
        return [t for v in value for t in flat_tensors(v)]
    if isinstance(value, dict):
        return [t for v in value.values() for t in flat_tensors(v)]
    return []


def numpy_stats(t):
    """Statistics of lib/stats/running_stats.h, by numpy, over a saved tensor."""
    x = t.detach().double().numpy().ravel()
    f = x[np.isfinite(x)]
    n = f.size
    return {"count": x.size, "finite_count": n, "mean": f.mean() if n else None,
            "std": f.std(ddof=1) if n > 1 else None, "min": f.min() if n else None,
            "max": f.max() if n else None, "l2_norm": float(np.sqrt((f * f).sum())),
            "zero_fraction": float((f == 0).mean()) if n else None}


class MergeTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory(prefix="test-merge-")
        cls.d = cls.tmp.name
        script = os.path.join(cls.d, "make_model.py")  # a file: torch.jit.script reads the source
        with open(script, "w") as f:
            f.write(MAKE_MODEL)
        subprocess.run([PYTHON, script, cls.d], check=True)
        cls.model, cls.x = os.path.join(cls.d, "model.pt"), os.path.join(cls.d, "x.npy")
        cls.runs = {}

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    @classmethod
    def record_args(cls, *extra, model=None, x=None):
        captures = [] if "--capture" in extra else ["--capture", CAPTURES]
        return ["record", model or cls.model, "--input", x or cls.x, "--layers", "all",
                *captures, "--batch-size", BATCH, "-q", *extra]

    @classmethod
    def whole(cls, *extra):
        """One unsharded run over all samples (made once per option set)."""
        key = ("whole",) + extra
        if key not in cls.runs:
            out = os.path.join(cls.d, "whole-" + "-".join(extra).replace("-", "").replace(",", ""))
            run(*cls.record_args(*extra, "--out", out))
            cls.runs[key] = out
        return cls.runs[key]

    @classmethod
    def shards(cls, *extra, count=SHARDS, model=None, x=None, name=None):
        """The `count` shard runs, recorded by 4 processes at once (xargs -P 4)."""
        key = ("shards", count, model, x, name) + extra
        if key not in cls.runs:
            base = os.path.join(cls.d, name or "shards-" + "-".join(extra).replace("-", "").replace(",", ""))
            os.makedirs(base)
            args = " ".join(f"'{a}'" for a in [MODREC, *cls.record_args(*extra, model=model, x=x)])
            script = f"{args} --shard {{}}/{count} --out '{base}/{{}}'"
            subprocess.run(["xargs", "-P", "4", "-I{}", "sh", "-c", script],
                           input="".join(f"{k}\n" for k in range(count)), text=True, check=True)
            cls.runs[key] = [os.path.join(base, str(k)) for k in range(count)]
        return cls.runs[key]

    def merged(self, shard_dirs, name):
        out = os.path.join(self.d, name)
        run("merge", *reversed(shard_dirs), "--out", out, "--force")  # any order
        return out

    def refuse(self, dirs, *names, fragment):
        """merge refuses with exit 3 and one line naming the runs and the difference."""
        _, err = run("merge", *dirs, "--out", os.path.join(self.d, "refused"), code=3)
        lines = err.strip().splitlines()
        self.assertEqual(len(lines), 1, err)
        self.assertTrue(lines[0].startswith("modrec: error: cannot merge"), err)
        self.assertIn(fragment, lines[0])
        for name in names:
            self.assertIn(name, lines[0])
        self.assertFalse(os.path.exists(os.path.join(self.d, "refused")))

    def copy_of(self, run_dir, name):
        out = os.path.join(self.d, name)
        shutil.rmtree(out, ignore_errors=True)
        shutil.copytree(run_dir, out)
        return out

    def edit_manifest(self, run_dir, edit):
        path = os.path.join(run_dir, "manifest.json")
        manifest = load_json(path)
        edit(manifest)
        with open(path, "w") as f:
            json.dump(manifest, f)

    # (a) -------------------------------------------------------------------------------------
    def assertSameStats(self, merged, whole, param_grad_rel=1e-12):
        got, want = stats_by_key(merged), stats_by_key(whole)
        self.assertEqual(got.keys(), want.keys())
        for key, w in want.items():
            g = got[key]
            self.assertEqual((g["shape"], g["dtype"], g.get("name")), (w["shape"], w["dtype"], w.get("name")), key)
            # param_grad is the shards' gradients summed in float64, the unsharded run's batch
            # gradients summed in float32: the same to float rounding.
            rel = param_grad_rel if key[1] == "param_grad" else 1e-12
            scale = w["abs_max"] or 0
            for field in REAL_FIELDS:
                self.assertTrue(close(g[field], w[field], rel, scale), (key, field, g[field], w[field]))
            if key[1] == "param_grad":
                continue
            for field in EXACT_FIELDS:
                self.assertEqual(g[field], w[field], (key, field))
            self.assertEqual(g["histogram"], w["histogram"], key)

    def test_merged_statistics_equal_one_run_over_all_samples(self):
        for save in ("npy", "pt", "none"):
            captures = [] if save != "none" else ["--capture", "input,output,grad_input,grad_output,param"]
            with self.subTest(save=save):
                whole = self.whole("--save", save, *captures)
                merged = self.merged(self.shards("--save", save, *captures), "merged-stats-" + save)
                self.assertSameStats(merged, whole, param_grad_rel=1e-6)

    def test_merged_manifest_is_the_whole_runs(self):
        shards = self.shards("--save", "npy")
        merged, whole = self.merged(shards, "merged-manifest"), self.whole("--save", "npy")
        m, w = load_json(merged, "manifest.json"), load_json(whole, "manifest.json")
        self.assertIsNone(m["shard"])
        self.assertEqual(m["merged_from"], shards)
        for field in ("samples", "total_samples", "batches", "kept_batches", "first_nonfinite",
                      "options", "model", "modrec_version", "libtorch_version"):
            self.assertEqual(m[field], w[field], field)
        self.assertEqual(m["samples"], SAMPLES)
        self.assertEqual(m["inputs"], load_json(shards[0], "manifest.json")["inputs"])
        self.assertEqual(m["layers"], w["layers"])  # shapes, files, values, names

    # (b) -------------------------------------------------------------------------------------
    def assertSameValue(self, got, want, what, exact=True):
        if isinstance(want, (torch.Tensor, np.ndarray)):
            g, w = torch.as_tensor(got), torch.as_tensor(want)
            self.assertEqual((g.shape, g.dtype), (w.shape, w.dtype), what)
            self.assertTrue(torch.equal(g, w) if exact else torch.allclose(g, w, rtol=1e-5, atol=1e-6),
                            what)
        elif isinstance(want, (tuple, list)):
            self.assertEqual((type(got), len(got)), (type(want), len(want)), what)
            for i, (a, b) in enumerate(zip(got, want)):
                self.assertSameValue(a, b, (what, i), exact)
        else:
            self.assertEqual(got, want, what)

    def assertSameTensors(self, merged, whole, exact_param_grad=False):
        got, want = saved_files(merged), saved_files(whole)
        self.assertEqual(got, want)  # the same files, named alike
        for key, files in want.items():
            for f in files:
                exact = exact_param_grad or key[1] != "param_grad"
                self.assertSameValue(load_saved(os.path.join(merged, f)),
                                     load_saved(os.path.join(whole, f)), (key, f), exact)
        return sum(len(f) for f in want.values())

    def test_merged_tensors_equal_one_run_over_all_samples(self):
        for save in ("npy", "pt"):
            with self.subTest(save=save):
                merged = self.merged(self.shards("--save", save), "merged-tensors-" + save)
                self.assertGreater(self.assertSameTensors(merged, self.whole("--save", save)), 20)

    def test_values_that_are_no_tensors_survive_in_pt(self):
        merged = self.merged(self.shards("--save", "pt"), "merged-values")
        scale = [l for l in load_json(merged, "manifest.json")["layers"] if l["path"] == "scale"][0]
        self.assertEqual(scale["captures"]["input"]["values"],
                         [{"at": "1", "type": "bool", "value": True}])
        x, twice = torch.load(os.path.join(merged, scale["captures"]["input"]["files"][0]))
        self.assertIs(twice, True)
        self.assertEqual(x.shape[0], SAMPLES)

    def test_reduced_tensors_add_up_and_average_by_samples(self):
        for reduce in ("sum", "mean"):
            with self.subTest(reduce=reduce):
                extra = ("--save", "npy", "--reduce", reduce)
                merged, whole = self.merged(self.shards(*extra), "merged-" + reduce), self.whole(*extra)
                self.assertSameStats(merged, whole, param_grad_rel=1e-6)
                self.assertEqual(saved_files(merged), saved_files(whole))
                # Each shard rounded its own sum or mean to float32: equal to that rounding.
                for key, files in saved_files(whole).items():
                    for f in files:
                        g, w = np.load(os.path.join(merged, f)), np.load(os.path.join(whole, f))
                        self.assertEqual((g.shape, g.dtype), (w.shape, w.dtype), key)
                        np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-6 * np.abs(w).max(),
                                                   err_msg=str(key))

    # (c) -------------------------------------------------------------------------------------
    def test_merged_statistics_equal_numpy_over_merged_tensors(self):
        for save in ("npy", "pt"):
            with self.subTest(save=save):
                merged = self.merged(self.shards("--save", save), "merged-oracle-" + save)
                stats = stats_by_key(merged)
                checked = 0
                for (label, capture), files in saved_files(merged).items():
                    tensors = [t for f in files for t in flat_tensors(load_saved(os.path.join(merged, f)))]
                    for i, t in enumerate(tensors):
                        entry, want = stats[(label, capture, i)], numpy_stats(t)
                        scale = entry["abs_max"] or 0
                        for field, value in want.items():
                            self.assertTrue(close(entry[field], value, 1e-12, scale),
                                            (label, capture, i, field, entry[field], value))
                        counts, _ = np.histogram(t.double().numpy().ravel(),
                                                 bins=np.array(entry["histogram"]["edges"]))
                        self.assertEqual(entry["histogram"]["counts"], counts.tolist(), (label, capture, i))
                        checked += 1
                self.assertGreater(checked, 20)

    # (d) -------------------------------------------------------------------------------------
    def test_runs_of_other_recordings_are_refused(self):
        shards = self.shards("--save", "npy")
        other_model = self.shards("--save", "npy", model=os.path.join(self.d, "other_model.pt"),
                                  name="other-model")
        self.refuse([shards[0], other_model[1], *shards[2:]], shards[0], other_model[1],
                    fragment="models differ")
        other_options = self.shards("--save", "pt", name="other-options")
        self.refuse([shards[0], shards[1], other_options[2], shards[3]], shards[0], other_options[2],
                    fragment="options differ at /save")
        other_input = self.shards("--save", "npy", x=os.path.join(self.d, "y.npy"), name="other-input")
        self.refuse([*shards[:3], other_input[3]], shards[0], other_input[3], fragment="inputs differ")
        halves = self.shards("--save", "npy", count=2, name="halves")
        self.refuse([*shards[:2], halves[1]], shards[0], halves[1],
                    fragment="shard counts differ: 4 vs 2")
        self.refuse([shards[0], self.whole("--save", "npy")], shards[0], self.whole("--save", "npy"),
                    fragment="was recorded without --shard")
        renamed = self.copy_of(shards[1], "renamed")
        stats = load_json(renamed, "stats.json")
        stats["layers"][1]["type"] = "Conv3d"
        write(os.path.join(renamed, "stats.json"), json.dumps(stats))
        self.refuse([shards[0], renamed, *shards[2:]], shards[0], renamed,
                    fragment="the recorded layers differ")
        newer = self.copy_of(shards[1], "newer")
        self.edit_manifest(newer, lambda m: m.update(modrec_version="9.9.9"))
        self.refuse([shards[0], newer, *shards[2:]], shards[0], newer,
                    fragment="modrec versions differ: \"")

    def test_missing_duplicated_and_overlapping_shards_are_refused(self):
        s = self.shards("--save", "npy")
        self.refuse([s[0], s[1], s[3]], s[1], s[3], fragment="shard 2/4 is missing between")
        self.refuse([s[1], s[2], s[3]], s[1], s[3], fragment="shard 0/4 is missing")
        self.refuse([s[0], s[1], s[2]], s[0], s[2], fragment="shard 3/4 is missing")
        again = self.copy_of(s[2], "again")
        self.refuse([*s, again], s[2], again, fragment="shard 2/4 given twice")
        overlap = self.copy_of(s[2], "overlap")
        self.edit_manifest(overlap, lambda m: (m["shard"].update(start=7), m.update(samples=5)))
        self.refuse([s[0], s[1], overlap, s[3]], s[1], overlap, fragment="sample ranges overlap")

    def test_incomplete_runs_are_refused(self):
        s = self.shards("--save", "npy")
        for name, damage in (("no-stats", lambda d: os.remove(os.path.join(d, "stats.json"))),
                             ("no-manifest", lambda d: os.remove(os.path.join(d, "manifest.json"))),
                             ("bad-json", lambda d: write(os.path.join(d, "stats.json"), "{"))):
            with self.subTest(name):
                broken = self.copy_of(s[3], name)
                damage(broken)
                _, err = run("merge", *s[:3], broken, "--out", os.path.join(self.d, "refused"), code=3)
                self.assertEqual(len(err.strip().splitlines()), 1, err)
                self.assertIn(broken, err)
        missing = self.copy_of(s[3], "missing-tensor")
        os.remove(os.path.join(missing, saved_files(missing)[("1-1", "output")][0]))
        _, err = run("merge", *s[:3], missing, "--out", os.path.join(self.d, "refused"), code=3)
        self.assertIn(missing, err)

    def test_param_grad_without_saved_tensors_is_refused(self):
        shards = self.shards("--save", "none")
        self.refuse(shards, shards[0], shards[1], fragment="cannot merge param_grad of layer")
        _, err = run("merge", *shards, "--out", os.path.join(self.d, "refused"), code=3)
        self.assertIn("record with --save pt or --save npy, or without param_grad", err)

    def test_existing_output_needs_force(self):
        shards = self.shards("--save", "npy")
        out = self.merged(shards, "merged-force")
        _, err = run("merge", *shards, "--out", out, code=5)
        self.assertIn(out, err)
        run("merge", *shards, "--out", out, "--force")
        self.assertTrue(os.path.exists(os.path.join(out, "manifest.json")))


if __name__ == "__main__":
    main()

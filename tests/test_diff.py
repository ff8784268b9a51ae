"""modrec diff finds where two runs part: the first diverging call (in the order calls return),
the smallest passing atol/rtol, the error statistics, Polygraphy's `either` rule and the error
histograms, each checked against numpy on the tensors the runs saved; the call order against
eager PyTorch's forward hooks; --fail-fast; two models on one input."""
import glob
import json
import os
import subprocess
import tempfile
import textwrap
import unittest

import numpy as np

from e2e import PYTHON, main, run

# A stem, two blocks of two convolutions and a head: block1.conv2 is perturbed, so its output is
# the origin, and block1, block2, head and the root (which return later) inherit the difference.
MAKE_MODELS = textwrap.dedent("""
    import json, sys, torch, torch.nn as nn
    class Block(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv1, self.conv2, self.relu = nn.Conv2d(4, 4, 3, padding=1), nn.Conv2d(4, 4, 3, padding=1), nn.ReLU()
        def forward(self, x):
            return self.relu(self.conv2(self.relu(self.conv1(x))))
    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.stem, self.block1, self.block2 = nn.Conv2d(3, 4, 3, padding=1), Block(), Block()
            self.head = nn.Linear(4 * 8 * 8, 5)
        def forward(self, x):
            return self.head(self.block2(self.block1(self.stem(x))).flatten(1))
    out = sys.argv[1]
    torch.manual_seed(0)
    net = Net().eval()
    x = torch.randn(2, 3, 8, 8)
    torch.save(x, out + "/x.pt")
    torch.jit.save(torch.jit.script(net), out + "/base.pt")
    order = []  # eager forward hooks fire as calls return
    hooks = [m.register_forward_hook(lambda m, i, o, name=name: order.append(name))
             for name, m in net.named_modules()]
    net(x)
    for h in hooks:  # scripting would compile them
        h.remove()
    with torch.no_grad():
        net.block1.conv2.weight[1, 2, 0, 1] += 0.25
    torch.jit.save(torch.jit.script(net), out + "/perturbed.pt")
    json.dump(order, open(out + "/order.json", "w"))
""")


def load(path):
    with open(path) as f:
        return json.load(f)


class DiffTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory(prefix="test-diff-")
        d = cls.tmp.name
        script = f"{d}/make_models.py"  # a file: torch.jit.script reads the classes' source
        with open(script, "w") as f:
            f.write(MAKE_MODELS)
        subprocess.run([PYTHON, script, d], check=True)
        cls.x, cls.base, cls.perturbed = f"{d}/x.pt", f"{d}/base.pt", f"{d}/perturbed.pt"
        cls.eager_order = load(f"{d}/order.json")
        cls.run_a, cls.run_b = f"{d}/run_a", f"{d}/run_b"
        for model, out in ((cls.perturbed, cls.run_a), (cls.base, cls.run_b)):
            run("record", model, "--input", cls.x, "--layers", "all", "--capture", "output",
                "--no-backward", "--save", "npy", "--out", out)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def diff(self, *args, code=1):
        out, _ = run("diff", *args, "--format", "json", code=code)
        return json.loads(out)

    def errors(self, t):
        """|a - b| and |a - b| / |b| of one compared tensor, from its saved .npy files, in float64."""
        suffix = "" if len(glob.glob(f"{self.run_a}/tensors/{t['label']}/{t['capture']}.*npy")) == 1 \
            else f".{t['tensor']}"
        a, b = (np.load(f"{r}/tensors/{t['label']}/{t['capture']}{suffix}.npy").astype(np.float64).ravel()
                for r in (self.run_a, self.run_b))
        err = np.abs(a - b)
        with np.errstate(divide="ignore", invalid="ignore"):
            rel = np.where(err == 0, 0.0, err / np.abs(b))
        return err, rel, b

    def test_return_order_is_eager_hooks_order(self):
        layers = load(f"{self.run_a}/stats.json")["layers"]
        by_return = [l["path"] for l in sorted(layers, key=lambda l: l["returned"])]
        self.assertEqual(len(by_return), len(self.eager_order))
        self.assertEqual(by_return[:-1], self.eager_order[:-1])  # the root returns last in both
        manifest = {l["label"]: l["returned"] for l in load(f"{self.run_a}/manifest.json")["layers"]}
        self.assertEqual(manifest, {l["label"]: l["returned"] for l in layers})

    def test_first_diverging_call_is_the_perturbed_conv(self):
        report = self.diff(self.run_a, self.run_b)
        first = report["first_diverging"]
        self.assertEqual((first["path"], first["type"], first["capture"]), ("block1.conv2", "Conv2d", "output"))
        labels = {l["path"]: l["label"] for l in load(f"{self.run_a}/stats.json")["layers"]}
        self.assertEqual(first["label"], labels["block1.conv2"])
        failed = {t["path"] for t in report["tensors"] if not t["passed"]}
        self.assertTrue({"block1", "block2.conv1", "head"} <= failed)  # the inherited differences
        self.assertNotIn("block1.conv1", failed)
        text, _ = run("diff", self.run_a, self.run_b, code=1)
        self.assertIn(f"first diverging call: {first['label']} block1.conv2 (Conv2d) output:", text)

    def test_min_tolerances_and_histograms_equal_numpy(self):
        report = self.diff(self.run_a, self.run_b)
        differing = 0
        for t in report["tensors"]:
            err, rel, _ = self.errors(t)
            self.assertEqual(t["min_atol"], err.max(), t["label"])
            self.assertEqual(t["min_rtol"], rel.max() if np.isfinite(rel.max()) else None, t["label"])
            if t["passed"]:
                self.assertIsNone(t["histogram"])
                continue
            differing += 1
            counts, edges = np.histogram(err, bins=10)
            self.assertEqual(t["histogram"]["counts"], counts.tolist(), t["label"])
            np.testing.assert_allclose(t["histogram"]["edges"], edges, rtol=1e-15)
        self.assertGreater(differing, 3)
        # the smallest atol passes the origin, a hair less fails it
        origin = report["first_diverging"]["label"]
        atol = next(t["min_atol"] for t in report["tensors"] if t["label"] == origin)
        at = self.diff(self.run_a, self.run_b, "--layers", origin, "--rtol", "0", "--atol", repr(atol), code=0)
        self.assertTrue(at["passed"])
        self.diff(self.run_a, self.run_b, "--layers", origin, "--rtol", "0", "--atol", repr(atol * 0.999))

    def test_error_stats_and_rules_equal_numpy(self):
        stats = {"max": np.max, "mean": np.mean, "median": np.median,
                 "p99": lambda v: np.quantile(v, 0.99)}
        for name, stat in stats.items():
            report = self.diff(self.run_a, self.run_b, "--check-error-stat", name, code=None)
            self.assertEqual(report["error_stat"], name)
            for t in report["tensors"]:
                err, rel, _ = self.errors(t)
                self.assertAlmostEqual(t["min_atol"], stat(err), delta=1e-12 * max(1, stat(err)))
                want_passed = stat(err) <= 1e-8 or stat(rel) <= 1e-5
                self.assertEqual(t["passed"], bool(want_passed), (name, t["label"]))
        # elementwise, at tolerances where the two rules part on the origin: allclose's bound
        # atol + rtol*|b| is the larger, so it passes where Polygraphy's fails
        report = self.diff(self.run_a, self.run_b)
        origin = next(t for t in report["tensors"] if t["label"] == report["first_diverging"]["label"])
        err, rel, b = self.errors(origin)
        atol = float(0.6 * err.max())
        beyond = err > atol
        rtol = float(np.max((err[beyond] - atol) / np.abs(b[beyond]))) * (1 + 1e-9)
        verdicts = {}
        for rule in ("allclose", "either"):
            report = self.diff(self.run_a, self.run_b, "--rule", rule, "--atol", repr(atol),
                               "--rtol", repr(rtol), code=None)
            self.assertEqual(report["rule"], rule)
            for t in report["tensors"]:
                err, rel, b = self.errors(t)
                ok = err <= atol + rtol * np.abs(b) if rule == "allclose" else (err <= atol) | (rel <= rtol)
                self.assertEqual(t["passed"], bool(ok.all()), (rule, t["label"]))
            verdicts[rule] = next(t["passed"] for t in report["tensors"] if t["label"] == origin["label"])
        self.assertEqual(verdicts, {"allclose": True, "either": False})

    def test_fail_fast_stops_at_the_origin(self):
        report = self.diff(self.run_a, self.run_b, "--fail-fast")
        returned = {l["label"]: l["returned"] for l in load(f"{self.run_a}/stats.json")["layers"]}
        origin = report["first_diverging"]["label"]
        self.assertEqual(report["first_diverging"]["path"], "block1.conv2")
        self.assertEqual(report["tensors"][-1]["label"], origin)
        self.assertEqual(sorted(t["label"] for t in report["tensors"]),
                         sorted(l for l, r in returned.items() if r <= returned[origin]))

    def test_two_models_on_one_input(self):
        report = self.diff(self.perturbed, self.base, "--input", self.x, "--captures", "output")
        self.assertEqual(report["first_diverging"]["path"], "block1.conv2")
        self.assertTrue(all(t["source"] == "tensors" for t in report["tensors"]))
        stats_only = self.diff(self.perturbed, self.base, "--input", self.x, "--save", "none",
                               "--captures", "output", "--fail-fast")
        self.assertEqual(stats_only["first_diverging"]["path"], "block1.conv2")
        self.assertTrue(self.diff(self.base, self.base, "--input", self.x, code=0)["passed"])

    def test_bad_usage_is_one_line_exit_2(self):
        for args in (("--rule", "any"), ("--check-error-stat", "p50"), ("--atol", "-1")):
            _, err = run("diff", self.run_a, self.run_b, *args, code=2)
            self.assertEqual(len(err.strip().splitlines()), 1, err)
            self.assertIn(args[0], err)
        _, err = run("diff", self.tmp.name + "/none.pt", self.base, "--input", self.x, code=3)
        self.assertEqual(len(err.strip().splitlines()), 1, err)


if __name__ == "__main__":
    main()

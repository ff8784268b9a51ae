"""--tensorboard on watch (per step) and record (per batch): TensorBoard's own readers
(EventAccumulator and EventMultiplexer, from the tensorboard package) find every value modrec
wrote, each recording in a run of its own in the log directory:
- watch: the loss of every step equal to eager PyTorch training the same weights on the same
  batches, and each row of steps.jsonl as the scalars std / abs_max / mean / nonfinite
  (/update_ratio) and a histogram equal to the row's;
- record: each batch's scalars and histogram equal to eager forward and full backward hooks on
  that batch (numpy.histogram over the histogram's edges);
- a log directory two watch runs and a record run wrote to: three runs, each its own recording's
  losses (eager PyTorch training at its learning rate, its manifest) and statistics; an existing
  run refused without --force, and with it only that run's event files replaced."""
import json
import math
import os
import shutil
import subprocess
import tempfile
import unittest

import numpy
import torch
from tensorboard.backend.event_processing.event_accumulator import EventAccumulator
from tensorboard.backend.event_processing.event_multiplexer import EventMultiplexer
from torch import nn

from e2e import MODREC, main, run
from test_watch import SAMPLES, Net, eager_training

FLOAT32 = dict(rel_tol=1e-6, abs_tol=1e-30)  # TensorBoard's scalars are float32
EVERY_EVENT = {"scalars": 0, "histograms": 0}  # TensorBoard's readers keep all, not a sample


def read_events(logdir, run_name):
    """The run `run_name` of the log directory `logdir`: one event file, read."""
    run_dir = os.path.join(logdir, run_name)
    files = [f for f in os.listdir(run_dir) if "tfevents" in f]  # what TensorBoard reads
    assert len(files) == 1 and files[0].startswith("events.out.tfevents."), files
    acc = EventAccumulator(run_dir, size_guidance=EVERY_EVENT)
    acc.Reload()
    return acc


def tree(top):
    """{path relative to `top`: bytes} of every file under it, hidden ones too."""
    files = {}
    for folder, _, names in os.walk(top):
        for name in names:
            with open(os.path.join(folder, name), "rb") as f:
                files[os.path.relpath(os.path.join(folder, name), top)] = f.read()
    return files


def scalars(acc):
    """{tag: {step: value}}"""
    return {tag: {e.step: e.value for e in acc.Scalars(tag)} for tag in acc.Tags()["scalars"]}


def histograms(acc):
    """{tag: {step: HistogramValue}}"""
    return {tag: {e.step: e.histogram_value for e in acc.Histograms(tag)}
            for tag in acc.Tags()["histograms"]}


def tag(path, label, capture, suffix=""):
    return f"{path} ({label})/{capture}{suffix}"


def element_suffix(t, count):
    """What follows the capture in a tensor's tag: ".<name>" for a parameter, its index path in a
    nested value ("at": "1.0" is [1][0]), "[<i>]" among several without places, else nothing."""
    if "name" in t:
        return "." + t["name"]
    if t.get("at"):
        return "".join(f"[{k}]" if k.isdigit() else f"['{k}']" for k in t["at"].split("."))
    return f"[{t['tensor']}]" if count > 1 else ""


class TensorBoardCase(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="tensorboard-")
        self.addCleanup(shutil.rmtree, self.dir)

    def path(self, name):
        return os.path.join(self.dir, name)

    def assert_float32(self, got, want, what):
        self.assertTrue(math.isclose(got, float(torch.tensor(want, dtype=torch.float32)),
                                     **FLOAT32), (what, got, want))

    def assert_histogram(self, h, stats, what):
        hist = stats["histogram"]
        self.assertEqual(list(h.bucket), [float(c) for c in hist["counts"]], what)
        self.assertEqual(list(h.bucket_limit), hist["edges"][1:], what)
        self.assertEqual(h.num, stats["finite_count"], what)
        self.assertEqual((h.min, h.max), (stats["min"], stats["max"]), what)

    def assert_rows(self, values, hists, rows):
        """Each row of a watch run's steps.jsonl as its scalars and histogram."""
        counts = {}
        for r in rows:
            key = (r["step"], r["label"], r["capture"])
            counts[key] = counts.get(key, 0) + 1
        for r in rows:
            suffix = element_suffix(r, counts[(r["step"], r["label"], r["capture"])])
            t = tag(r["path"] or r["type"], r["label"], r["capture"], suffix)
            for field in ("std", "abs_max", "mean"):
                self.assert_float32(values[t + "/" + field][r["step"]], r[field], (t, field))
            self.assertEqual(values[t + "/nonfinite"][r["step"]], r["nan_count"] + r["inf_count"])
            if r["capture"] == "update" and r["update_ratio"] is not None:
                self.assert_float32(values[t + "/update_ratio"][r["step"]], r["update_ratio"], t)
            self.assert_histogram(hists[t][r["step"]], r, t)

    def assert_stats(self, values, hists, stats_json, batch):
        """Each tensor of a recording's stats.json as its scalars and histogram at `batch`."""
        for layer in stats_json["layers"]:
            for capture, tensors in layer["captures"].items():
                for t in tensors:
                    name = tag(layer["path"] or layer["type"], layer["label"], capture,
                               element_suffix(t, len(tensors)))
                    for field in ("std", "abs_max", "mean"):
                        self.assert_float32(values[name + "/" + field][batch], t[field],
                                            (name, field))
                    self.assert_histogram(hists[name][batch], t, name)


class WatchEvents(TensorBoardCase):
    def test_every_step_and_row(self):
        torch.manual_seed(1)
        model = self.path("net.pt")
        torch.jit.script(Net()).save(model)
        x, y = torch.randn(SAMPLES, 6), torch.randint(0, 4, (SAMPLES,))
        torch.save(x, self.path("x.pt"))
        torch.save(y, self.path("y.pt"))
        run("watch", model, "--input", self.path("x.pt"), "--targets", self.path("y.pt"),
            "--loss", "cross_entropy", "--optimizer", "sgd", "--lr", "0.1", "--batch-size", "8",
            "--steps", "5", "--every", "2", "--layers", "all", "--out", self.path("run"),
            "--tensorboard", self.path("tb"))
        losses, _, _ = eager_training(model, x, y, "cross_entropy", "sgd", 5, 8, 2)
        acc = read_events(self.path("tb"), "run")  # the run is named after --out
        values, hists = scalars(acc), histograms(acc)
        self.assertEqual(sorted(values["loss"]), [1, 2, 3, 4, 5])  # every step, recorded or not
        for step, loss in values["loss"].items():
            self.assert_float32(loss, losses[step - 1], ("loss", step))
        with open(self.path("run/steps.jsonl")) as f:
            rows = [json.loads(line) for line in f]
        self.assertEqual({r["step"] for r in rows}, {2, 4})
        self.assert_rows(values, hists, rows)
        # Only recorded steps have statistics: a layer's tags hold steps 2 and 4.
        self.assertEqual(sorted(values[tag("head", "1-2", "output") + "/std"]), [2, 4])


class Small(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 4, 3)
        self.act = nn.ReLU()
        self.fc = nn.Linear(4 * 6 * 6, 5)

    def forward(self, x):
        return self.fc(self.act(self.conv(x)).flatten(1))


class RecordEvents(TensorBoardCase):
    def test_each_batch_equals_eager_hooks(self):
        torch.manual_seed(2)
        net = Small()
        model = self.path("small.pt")
        torch.jit.script(net).save(model)
        x = torch.randn(12, 3, 8, 8)
        torch.save(x, self.path("x.pt"))
        out, _ = run("record", model, "--input", self.path("x.pt"), "--batch-size", "5",
                     "--layers", "all", "--capture", "output,grad_output,param_grad", "--save",
                     "none", "--out", self.path("run"), "--format", "json",
                     "--tensorboard", self.path("tb"), "--tensorboard-run", "small")
        labels = {layer["path"]: layer["label"] for layer in json.loads(out)["layers"]}
        seen = {}
        for path, m in net.named_modules():
            if path:
                m.register_forward_hook(lambda m, i, o, p=path: seen.__setitem__((p, "output"), o))
                m.register_full_backward_hook(
                    lambda m, gi, go, p=path: seen.__setitem__((p, "grad_output"), go[0]))
        acc = read_events(self.path("tb"), "small")
        values, hists = scalars(acc), histograms(acc)
        for batch, rows in enumerate(torch.split(x, 5), start=1):  # 5, 5 and 2 samples
            seen.clear()
            net(rows).sum().backward()
            for (path, capture), t in seen.items():
                name = tag(path, labels[path], capture)
                d = t.detach().double()
                for field, want in (("std", d.std()), ("abs_max", d.abs().max()),
                                    ("mean", d.mean())):
                    self.assert_float32(values[name + "/" + field][batch], want.item(),
                                        (name, batch, field))
                self.assertEqual(values[name + "/nonfinite"][batch], 0)
                h = hists[name][batch]
                edges = [-h.bucket_limit[-1]] + list(h.bucket_limit)
                counts, _ = numpy.histogram(d.numpy().ravel(), bins=edges)
                self.assertEqual(list(h.bucket), counts.tolist(), (name, batch))
        # param_grad: summed over the batches, written once, at the last batch.
        grad = tag("conv", labels["conv"], "param_grad", ".weight")
        self.assertEqual(list(values[grad + "/std"]), [3])
        self.assert_float32(values[grad + "/std"][3], net.conv.weight.grad.double().std().item(),
                            grad)

    def test_tensorboard_inside_the_run_is_refused(self):
        x = self.path("x.pt")
        torch.save(torch.randn(2, 3, 8, 8), x)
        model = self.path("small.pt")
        torch.jit.script(Small()).save(model)
        _, err = run("record", model, "--input", x, "--layers", "all", "--out", self.path("run"),
                     "--tensorboard", self.path("run/tb"), code=2)
        self.assertIn("--tensorboard", err)
        self.assertFalse(os.path.exists(self.path("run")))


class LogDirectory(TensorBoardCase):
    """Recordings given one --tensorboard DIR are runs of that log directory, side by side, as
    TensorBoard's EventMultiplexer (what `tensorboard --logdir DIR` shows) lists them."""

    def setUp(self):
        super().setUp()
        torch.manual_seed(3)
        self.model, self.tb = self.path("net.pt"), self.path("tb")
        torch.jit.script(Net()).save(self.model)
        self.x, self.y = torch.randn(SAMPLES, 6), torch.randint(0, 4, (SAMPLES,))
        torch.save(self.x, self.path("x.pt"))
        torch.save(self.y, self.path("y.pt"))
        for parent in ("runs", "again"):  # of the --out directories
            os.mkdir(self.path(parent))

    def watch(self, lr, out):
        run("watch", self.model, "--input", self.path("x.pt"), "--targets", self.path("y.pt"),
            "--loss", "cross_entropy", "--lr", str(lr), "--batch-size", "8", "--steps", "3",
            "--layers", "head", "--out", self.path(out), "--tensorboard", self.tb)

    def record(self, out, *flags, x="x.pt", code=0):
        """record of the head's output over the input in one batch, into the log directory."""
        return run("record", self.model, "--input", self.path(x), "--layers", "head", "--capture",
                   "output", "--save", "none", "--out", self.path(out), "--tensorboard", self.tb,
                   *flags, code=code)

    def recorded_stats(self, out):
        with open(os.path.join(self.path(out), "stats.json")) as f:
            return json.load(f)

    def test_two_watch_runs_and_a_record_run_side_by_side(self):
        self.watch(0.1, "runs/a")
        self.watch(0.5, "runs/b")
        self.record("rec", "--tensorboard-run", "record-head")
        mux = EventMultiplexer(size_guidance=EVERY_EVENT)
        mux.AddRunsFromDirectory(self.tb)
        mux.Reload()
        self.assertEqual(sorted(mux.Runs()), ["a", "b", "record-head"])
        curves = {}
        for name, lr in (("a", 0.1), ("b", 0.5)):
            acc = mux.GetAccumulator(name)
            values, hists = scalars(acc), histograms(acc)
            with open(self.path(f"runs/{name}/manifest.json")) as f:
                manifest = json.load(f)
            eager, _, _ = eager_training(self.model, self.x, self.y, "cross_entropy", "sgd", 3, 8,
                                         1, lr=lr)
            curves[name] = [values["loss"][step] for step in sorted(values["loss"])]
            self.assertEqual(sorted(values["loss"]), [1, 2, 3], name)  # its own steps, once each
            for step, loss in values["loss"].items():
                self.assert_float32(loss, manifest["losses"][step - 1], (name, step))
                self.assert_float32(loss, eager[step - 1], (name, step))
            with open(self.path(f"runs/{name}/steps.jsonl")) as f:
                self.assert_rows(values, hists, [json.loads(line) for line in f])
        self.assertNotEqual(curves["a"][2], curves["b"][2])  # two learning rates, two curves
        acc = mux.GetAccumulator("record-head")
        values, hists = scalars(acc), histograms(acc)
        self.assertNotIn("loss", values)
        self.assert_stats(values, hists, self.recorded_stats("rec"), 1)  # one batch: the run's

    def test_an_existing_run_is_replaced_with_force_only(self):
        self.record("runs/a")
        self.record("runs/b")
        with open(os.path.join(self.tb, "notes.txt"), "w") as f:
            f.write("not modrec's")
        before = tree(self.tb)
        _, err = self.record("again/a", code=5)
        self.assertIn(os.path.join(self.tb, "a"), err)
        self.assertIn("--force", err)
        self.assertEqual(tree(self.tb), before)
        self.assertFalse(os.path.exists(self.path("again/a")))
        # A --force run that fails puts the run back as it was.
        torch.save(torch.randn(SAMPLES, 5), self.path("bad.pt"))  # Net takes 6 features
        self.record("again/a", "--force", x="bad.pt", code=4)
        self.assertEqual(tree(self.tb), before)
        # One that completes: a's event file is the new recording's; b's and the rest unchanged.
        torch.save(self.x * 3, self.path("x3.pt"))
        self.record("again/a", "--force", x="x3.pt")
        after = tree(self.tb)
        others = lambda files: {p: b for p, b in files.items() if not p.startswith("a" + os.sep)}
        self.assertEqual(others(after), others(before))
        self.assertEqual(len(after) - len(others(after)), 1)
        self.assertNotIn([p for p in after if p not in others(after)][0], before)
        acc = read_events(self.tb, "a")
        values, hists = scalars(acc), histograms(acc)
        self.assert_stats(values, hists, self.recorded_stats("again/a"), 1)
        head = self.recorded_stats("runs/a")["layers"][0]
        self.assertNotEqual(values[tag("head", head["label"], "output", "/std")][1],
                            head["captures"]["output"][0]["std"])  # not the replaced run's

    def test_a_run_name_that_names_no_single_directory(self):
        before = tree(self.dir)
        for name in ("", ".", "..", "a/b", "../a"):
            _, err = self.record("runs/a", "--tensorboard-run", name, code=2)
            self.assertIn(f"the run name '{name}' ", err)
            self.assertIn("(--tensorboard-run)", err)
            self.assertEqual(tree(self.dir), before, name)
        _, err = run("watch", self.model, "--input", self.path("x.pt"), "--loss", "sum", "--out",
                     self.path("w"), "--tensorboard", self.tb, "--tensorboard-run", "..", code=2)
        self.assertIn("--tensorboard-run", err)
        _, err = run("record", self.model, "--input", self.path("x.pt"), "--layers", "head",
                     "--tensorboard-run", "a", "--out", self.path("r"), code=2)
        self.assertIn("--tensorboard", err)  # a run name needs a log directory
        self.assertEqual(tree(self.dir), before)
        self.assertEqual(sorted(os.listdir(self.dir)), ["again", "net.pt", "runs", "x.pt", "y.pt"])


class ViewerCommand(TensorBoardCase):
    """On a terminal, record and watch end with the command that opens what they wrote; in a pipe
    (CI, scripts), not."""

    def run_on_terminal(self, *args):
        main_fd, terminal = os.openpty()
        p = subprocess.run([MODREC, *args], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                           stderr=terminal, timeout=120)
        os.close(terminal)
        text = b""
        while True:
            try:
                chunk = os.read(main_fd, 65536)
            except OSError:  # EIO: the terminal's other end is closed
                break
            if not chunk:
                break
            text += chunk
        os.close(main_fd)
        self.assertEqual(p.returncode, 0, text)
        return text.decode()

    def test_the_command_that_opens_the_output(self):
        x, model = self.path("x.pt"), self.path("small.pt")
        torch.save(torch.randn(2, 3, 8, 8), x)
        torch.jit.script(Small()).save(model)
        record = ("record", model, "--input", x, "--layers", "all", "--save", "none")
        text = self.run_on_terminal(*record, "--out", self.path("a"))
        self.assertIn(f"open it with: modrec report {self.path('a')}", text)
        text = self.run_on_terminal(*record, "--out", self.path("b"), "--tensorboard",
                                    self.path("tb"))
        self.assertIn(f"modrec report {self.path('b')}; tensorboard --logdir {self.path('tb')} "
                      "(run b)", text)
        text = self.run_on_terminal("watch", model, "--input", x, "--loss", "sum", "--out",
                                    self.path("w"))
        self.assertIn(f"open it with: modrec report {self.path('w')}", text)
        _, err = run(*record, "--out", self.path("c"))  # stderr a pipe
        self.assertNotIn("open it with", err)


if __name__ == "__main__":
    main()

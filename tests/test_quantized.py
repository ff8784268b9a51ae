"""TorchScript files as teams ship them (issue 34): quantized models, nested outputs and diffs
across dtypes, against PyTorch on the same eager models (scripts/models.py):
- summary's table is torchinfo's on the eager quantized model, byte for byte (a dynamically
  quantized LSTM's scripted forward is its `forward_tensor` overload: it keeps its row);
- record's forward captures equal eager forward hooks' tensors (a quantized one as dequantize());
- the gradients record refuses are those eager hooks never see because an operator without an
  autograd kernel lies on their way (the dispatcher says which have none), named with them;
- diff float vs int8 and fp32 vs bf16: per-call errors as numpy computes them in float64 from
  the eager hooks' tensors, and the first call beyond tolerance;
- diff, check, merge and report of an LSTM model's recordings, whose outputs nest (y, (h, c)),
  each tensor named by its index path (output[1][0])."""
import csv
import json
import math
import os
import subprocess
import sys
import tempfile
import unittest

import numpy as np
import torch

from e2e import PYTHON, ROOT, main, run, sample

sys.path.insert(0, os.path.join(ROOT, "scripts"))
import models  # noqa: E402
import oracle  # noqa: E402


def load_json(*path):
    with open(os.path.join(*path)) as f:
        return json.load(f)


def real(t):
    """What modrec keeps of a tensor: a quantized one's real values."""
    return t.dequantize() if t.is_quantized else t


class OrderedCapture(oracle.RecordCapture):
    """RecordCapture that also notes the calls in the order they return (forward hooks')."""

    def __init__(self, wanted):
        super().__init__(wanted)
        self.returned = []

    def after(self, row, args, output):
        self.returned.append(row)
        return super().after(row, args, output)


def eager_calls(model, inputs, backward):
    """({label: {capture: [tensor or None, ...]}}, [labels in the order calls return]) from eager
    hooks on `model` (a models.py name or a module; every call; loss = sum of the first output,
    as modrec's default)."""
    model = models.build(model) if isinstance(model, str) else model
    rows, _ = oracle.trace(model, inputs, grad=False)
    capture = OrderedCapture({r.call_index for r in rows if r.call_index is not None})
    _, output = oracle.trace(model, inputs, grad=backward, capture=capture)
    if backward:
        oracle.flat_tensors(output)[0].sum().backward()
    calls = {r.label: capture.calls[r.call_index] for r in rows if r.call_index is not None}
    return calls, [r.label for r in capture.returned]


def saved(run_dir, label, capture):
    """The tensors of a recorded capture, depth-first (None where no gradient arrived skipped)."""
    path = os.path.join(run_dir, "tensors", label, capture + ".pt")
    return oracle.flat_tensors(torch.load(path)) if os.path.exists(path) else []


def lacks_autograd_kernel(op):
    """No overload of `op` has a kernel for autograd, nor a decomposition that would have one."""
    has = torch._C._dispatch_has_kernel_for_dispatch_key
    namespace, name = op.split("::")
    packet = getattr(getattr(torch.ops, namespace), name)
    overloads = [op if o == "default" else f"{op}.{o}" for o in packet.overloads()]
    return not any(has(o, key) for o in overloads
                   for key in ("Autograd", "AutogradCPU", "CompositeImplicitAutograd"))


def torchinfo_table(name, x):
    p = subprocess.run([PYTHON, os.path.join(ROOT, "scripts", "torchinfo_table.py"), name,
                        "--input", x], capture_output=True, text=True)
    if p.returncode != 0:
        raise AssertionError(f"torchinfo_table.py {name}: exit {p.returncode}\n{p.stderr[-3000:]}")
    return p.stdout


class QuantizedModels(unittest.TestCase):
    maxDiff = None

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory(prefix="test-quantized-")

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def out(self, name):
        return os.path.join(self.tmp.name, name)

    def test_tables_equal_torchinfo_on_the_eager_quantized_model(self):
        for name in ("TinyLSTMNetInt8", "SeqClassifierInt8", "QuantConvNetInt8"):
            x = sample(name, "input.pt")
            table = torchinfo_table(name, x)
            self.assertIn("LSTM: 1-" if "LSTM" in name or "Seq" in name else "Conv2d: 1-", table)
            self.assertEqual(run("summary", sample(name), "--input", x)[0], table, name)

    def test_forward_captures_equal_eager_hooks(self):
        for name, flags in (("QuantConvNetInt8", ["--no-backward"]), ("TinyLSTMNetInt8", [])):
            x = sample(name, "input.pt")
            out = self.out("fwd-" + name)
            run("record", sample(name), "--input", x, "--layers", "all", "--capture",
                "input,output", *flags, "--out", out)
            eager, _ = eager_calls(name, (torch.load(x),), backward=False)
            for label, calls in eager.items():
                for capture in ("input", "output"):
                    want = [real(t) for t in calls[capture]]
                    got = saved(out, label, capture)
                    self.assertEqual(len(got), len(want), (name, label, capture))
                    for g, w in zip(got, want):
                        self.assertEqual(g.dtype, w.dtype, (name, label, capture))
                        self.assertTrue(torch.equal(g, w), (name, label, capture))

    def record_int8_lstm(self, tag, captures):
        """TinyLSTMNetInt8 recorded at every layer: its input file, the run, stderr."""
        x = sample("TinyLSTMNetInt8", "input.pt")
        out = self.out(tag)
        _, err = run("record", sample("TinyLSTMNetInt8"), "--input", x, "--layers", "all",
                     "--capture", captures, "--out", out)
        return x, out, err

    def test_gradients_through_operators_without_derivative_are_refused(self):
        name = "TinyLSTMNetInt8"
        x, out, err = self.record_int8_lstm("grad", "output,grad_input,grad_output")
        inputs = (torch.load(x),)
        quantized, _ = eager_calls(name, inputs, backward=True)
        float_model, _ = eager_calls("TinyLSTMNet", inputs, backward=True)
        manifest, stats = load_json(out, "manifest.json"), load_json(out, "stats.json")
        refused = {}
        for layer, layer_stats in zip(manifest["layers"], stats["layers"]):
            for capture, entry in layer["captures"].items():
                for g in entry.get("no_gradient", []):
                    refused[(layer["label"], capture, g["at"])] = g["through"]
            self.assertEqual(layer_stats.get("no_gradient", {}),
                             {c: e["no_gradient"] for c, e in layer["captures"].items()
                              if "no_gradient" in e})
        # Refused: each gradient the float model's hooks see and the quantized model's never do.
        want = set()
        for label, calls in quantized.items():
            for capture in ("grad_input", "grad_output"):
                for i, (q, f) in enumerate(zip(calls[capture], float_model[label][capture])):
                    if q is None and f is not None:
                        want.add((label, capture, i))
                got = saved(out, label, capture)
                self.assertEqual(len(got), sum(q is not None for q in calls[capture]))
                for g, q in zip(got, [q for q in calls[capture] if q is not None]):
                    self.assertTrue(torch.equal(g, q), (label, capture))
        places = {(l, c, {"": 0, "0": 0, "1.0": 1, "1.1": 2}[at]) for l, c, at in refused}
        self.assertEqual(places, want)
        ops = {op for through in refused.values() for op in through}
        self.assertEqual(ops, {"aten::quantized_lstm", "quantized::linear_dynamic"})
        self.assertTrue(all(lacks_autograd_kernel(op) for op in ops))
        # The decoder's input gradient stops at its own linear_dynamic; the embedding's output
        # gradient also at the LSTM's quantized_lstm.
        self.assertEqual(refused[("1-3", "grad_input", "")], ["quantized::linear_dynamic"])
        self.assertEqual(refused[("1-1", "grad_output", "")],
                         ["aten::quantized_lstm", "quantized::linear_dynamic"])
        warning = [l for l in err.splitlines() if "no gradient flows back through" in l]
        self.assertEqual(len(warning), 1, err)
        self.assertIn("aten::quantized_lstm, quantized::linear_dynamic", warning[0])
        # check and diff list them as not recorded, neither passing them as zero nor failing.
        report = json.loads(run("check", out, "--format", "json")[0])
        self.assertEqual({(n["label"], n["element"]) for n in report["not_recorded"]},
                         {(l, c + ("[0]" if at == "0" else "")) for l, c, at in refused})
        float_run = self.out("grad-float")
        run("record", sample("TinyLSTMNet"), "--input", x, "--layers", "all", "--capture",
            "output,grad_input,grad_output", "--out", float_run)
        diff = json.loads(run("diff", float_run, out, "--captures", "grad_input,grad_output",
                              "--format", "json", code=None)[0])
        not_recorded = {(t["label"], t["capture"]) for t in diff["tensors"] if t["not_recorded"]}
        self.assertEqual(not_recorded, {(l, c) for l, c, _ in refused})
        self.assertTrue(all(t["passed"] for t in diff["tensors"] if t["not_recorded"]))

    def test_parameter_gradients_through_operators_without_derivative_are_refused(self):
        # The embedding's weight lies upstream of the quantized LSTM: eager PyTorch's float model
        # gives it a gradient, the quantized one none; modrec writes none and says why.
        x, out, err = self.record_int8_lstm("param-grad", "param_grad")
        model = models.build("TinyLSTMNetInt8")
        oracle.flat_tensors(model(torch.load(x)))[0].sum().backward()
        float_model = models.build("TinyLSTMNet")
        oracle.flat_tensors(float_model(torch.load(x)))[0].sum().backward()
        self.assertIsNotNone(float_model.embedding.weight.grad)
        self.assertFalse(model.embedding.weight.grad is not None and
                         model.embedding.weight.grad.count_nonzero())
        layers = {l["path"]: l for l in load_json(out, "manifest.json")["layers"]}
        embedding = layers["embedding"]["captures"]["param_grad"]
        self.assertEqual(embedding["names"], [])
        self.assertEqual(embedding["no_gradient"],
                         [{"at": "weight",
                           "through": ["aten::quantized_lstm", "quantized::linear_dynamic"]}])
        self.assertFalse(os.path.exists(os.path.join(out, "tensors", layers["embedding"]["label"],
                                                     "param_grad.weight.pt")))
        self.assertEqual(len([l for l in err.splitlines() if "no gradient flows back" in l]), 1)
        report = json.loads(run("check", out, "--format", "json")[0])
        self.assertIn((layers["embedding"]["label"], "param_grad.weight"),
                      {(n["label"], n["element"]) for n in report["not_recorded"]})

    def check_errors(self, diff, a, b, delta=0.0):
        """Every compared tensor's max_abs, mean_abs and cosine as numpy computes them in
        float64 from the eager tensors a[label][capture], b[label][capture]; max_abs exact, or
        within `delta` where the scripted model's own values differ from eager ones by an ulp."""
        for t in diff["tensors"]:
            if t["not_recorded"]:
                continue
            x = real(a[t["label"]][t["capture"]][t["tensor"]]).double().numpy()
            y = real(b[t["label"]][t["capture"]][t["tensor"]]).double().numpy()
            err = np.abs(x - y)
            where = (t["label"], t["element"])
            self.assertAlmostEqual(t["max_abs"], err.max(), delta=delta, msg=where)
            self.assertAlmostEqual(t["mean_abs"], err.mean(), delta=delta + 1e-12 * err.mean())
            cos = (x.ravel() @ y.ravel()) / (np.linalg.norm(x) * np.linalg.norm(y))
            self.assertAlmostEqual(t["cosine"], cos, delta=delta + 1e-12)

    def first_beyond(self, a, b, order):
        """The first call (in the order eager hooks return) whose output differs beyond the
        default tolerance, as torch.allclose says."""
        for label in order:
            for x, y in zip(a[label]["output"], b[label]["output"]):
                if not torch.allclose(real(x).double(), real(y).double(), rtol=1e-5, atol=1e-8):
                    return label
        return None

    def test_diff_float_against_int8(self):
        x = sample("TinyLSTMNet", "input.pt")
        report = json.loads(run("diff", sample("TinyLSTMNet"), sample("TinyLSTMNetInt8"),
                                "--input", x, "--captures", "output", "--format", "json",
                                code=1)[0])
        inputs = (torch.load(x),)
        a, order = eager_calls("TinyLSTMNet", inputs, backward=False)
        b, _ = eager_calls("TinyLSTMNetInt8", inputs, backward=False)
        # A scripted float LSTM's values are eager's to 1 ulp (3e-8 here), not bit for bit.
        self.check_errors(report, a, b, delta=1e-7)
        self.assertEqual(self.first_beyond(a, b, order), "1-2")  # the quantized LSTM
        self.assertEqual((report["first_diverging"]["label"], report["first_diverging"]["element"]),
                         ("1-2", "output[0]"))

    def test_diff_float_against_static_int8(self):
        # Outputs only: no backward, which the quantized model's output could not start.
        x = sample("QuantConvNet", "input.pt")
        report = json.loads(run("diff", sample("QuantConvNet"), sample("QuantConvNetInt8"),
                                "--input", x, "--captures", "output", "--format", "json",
                                code=1)[0])
        a, order = eager_calls("QuantConvNet", (torch.load(x),), backward=False)
        b, _ = eager_calls("QuantConvNetInt8", (torch.load(x),), backward=False)
        self.check_errors(report, a, b)
        self.assertEqual(report["first_diverging"]["label"], self.first_beyond(a, b, order))

    def test_diff_torchscript_against_export(self):
        # The same eager model scripted and exported: every call's values are eager's in both.
        x = sample("TinyConvNet", "input.pt")
        pt2 = self.out("TinyConvNet.pt2")
        model = models.build("TinyConvNet")
        torch.export.save(torch.export.export(model, (torch.load(x),)), pt2)
        report = json.loads(run("diff", sample("TinyConvNet"), pt2, "--input", x, "--format",
                                "json")[0])
        a, order = eager_calls("TinyConvNet", (torch.load(x),), backward=True)
        self.check_errors(report, a, a)
        self.assertEqual({t["label"] for t in report["tensors"]}, set(order))
        self.assertIsNone(report["first_diverging"])

    def test_diff_fp32_against_bf16(self):
        x32 = torch.load(sample("TinyConvNet", "input.pt"))
        x16, bf16 = self.out("x16.pt"), self.out("bf16.pt")
        torch.save(x32.bfloat16(), x16)
        torch.jit.script(models.build("TinyConvNet").bfloat16()).save(bf16)
        run16, run32 = self.out("run16"), self.out("run32")
        run("record", bf16, "--input", x16, "--layers", "all", "--capture", "output",
            "--no-backward", "--out", run16)
        run("record", sample("TinyConvNet"), "--input", sample("TinyConvNet", "input.pt"),
            "--layers", "all", "--capture", "output", "--no-backward", "--out", run32)
        out, _ = run("diff", run32, run16, "--format", "json", code=1)
        report = json.loads(out)
        a, order = eager_calls("TinyConvNet", (x32,), backward=False)
        b, _ = eager_calls(models.build("TinyConvNet").bfloat16(), (x32.bfloat16(),), False)
        self.check_errors(report, a, b)
        self.assertEqual(report["first_diverging"]["label"], self.first_beyond(a, b, order))
        table, _ = run("diff", run32, run16, code=1)
        self.assertIn("first diverging call: " + report["first_diverging"]["label"], table)
        # The two models on one float32 input: the bfloat16 model gets it in bfloat16, as above.
        direct = json.loads(run("diff", sample("TinyConvNet"), bf16, "--input",
                                sample("TinyConvNet", "input.pt"), "--captures", "output",
                                "--format", "json", code=1)[0])
        self.check_errors(direct, a, b)
        self.assertEqual(direct["first_diverging"]["label"], self.first_beyond(a, b, order))


class NestedOutputs(unittest.TestCase):
    """SeqClassifier's LSTM returns (y, (h, c)): every subcommand reads it back."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory(prefix="test-nested-")
        d = cls.tmp.name
        cls.x = torch.load(sample("SeqClassifier", "input.pt"))
        cls.x2 = f"{d}/x2.pt"
        torch.save(cls.x + 0.01, cls.x2)
        cls.a, cls.b = f"{d}/a", f"{d}/b"
        for x, out in ((sample("SeqClassifier", "input.pt"), cls.a), (cls.x2, cls.b)):
            run("record", sample("SeqClassifier"), "--input", x, "--layers", "all", "--capture",
                "output,grad_output", "--out", out)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_diff_compares_element_by_element(self):
        self.assertIn("diff passed", run("diff", self.a, self.a)[0])
        report = json.loads(run("diff", self.a, self.b, "--format", "json", code=1)[0])
        a, _ = eager_calls("SeqClassifier", (self.x,), backward=True)
        b, _ = eager_calls("SeqClassifier", (torch.load(self.x2),), backward=True)
        lstm = {t["element"]: t for t in report["tensors"] if t["label"] == "1-1"}
        self.assertEqual(set(lstm), {"output[0]", "output[1][0]", "output[1][1]",
                                     "grad_output[0]"})
        QuantizedModels.check_errors(self, report, a, b)
        table = run("diff", self.a, self.b, code=1)[0]
        self.assertIn("output[1][0]", table)

    def test_check_names_nested_elements(self):
        report = json.loads(run("check", self.a, "--max-abs", "1e-9", "--layers", "1-1",
                                "--captures", "output", "--format", "json", code=1)[0])
        self.assertEqual([v["element"] for v in report["violations"]],
                         ["output[0]", "output[1][0]", "output[1][1]"])

    def test_stats_csv_and_tensorboard_name_each_element(self):
        # stats.csv's element column and the TensorBoard tags name the LSTM's h as output[1][0];
        # its statistics are eager h's.
        from test_tensorboard import read_events, scalars
        run_dir, logdir = os.path.join(self.tmp.name, "tb-run"), os.path.join(self.tmp.name, "tb")
        run("record", sample("SeqClassifier"), "--input", sample("SeqClassifier", "input.pt"),
            "--layers", "1-1", "--capture", "output,grad_output", "--out", run_dir,
            "--tensorboard", logdir)
        with open(os.path.join(run_dir, "stats.csv"), newline="") as f:
            rows = [r for r in csv.DictReader(f) if r["label"] == "1-1"]
        self.assertEqual([r["element"] for r in rows],
                         ["output[0]", "output[1][0]", "output[1][1]", "grad_output[0]"])
        values = scalars(read_events(logdir, "tb-run"))
        path = rows[0]["path"]
        h = eager_calls("SeqClassifier", (self.x,), backward=False)[0]["1-1"]["output"][1]
        (got,) = values[f"{path} (1-1)/output[1][0]/std"].values()  # one batch
        self.assertTrue(math.isclose(got, h.double().std().item(), rel_tol=1e-6), got)
        self.assertNotIn(f"{path} (1-1)/output.1/std", values)  # not the flat numbering

    def test_report_and_merge_read_them(self):
        page = os.path.join(self.tmp.name, "page.html")
        run("report", self.a, "--out", page)
        with open(page) as f:
            self.assertIn('"at":"[1][0]"', f.read())
        x = sample("SeqClassifier", "input.pt")
        shards = [os.path.join(self.tmp.name, f"shard{k}") for k in range(3)]
        for k, out in enumerate(shards):
            run("record", sample("SeqClassifier"), "--input", x, "--layers", "1-1", "--shard",
                f"{k}/3", "--capture", "output", "--out", out)
        merged = os.path.join(self.tmp.name, "merged")
        run("merge", *shards, "--out", merged)
        got = oracle.flat_tensors(torch.load(os.path.join(merged, "tensors/1-1/output.pt")))
        parts = [eager_calls("SeqClassifier", (self.x[k:k + 1],), False)[0]["1-1"]["output"]
                 for k in range(3)]
        for i, g in enumerate(got):  # shard runs' tensors concatenated along dim 0
            want = torch.cat([p[i] for p in parts])  # eager's: a scripted LSTM's to 1 ulp
            self.assertEqual(g.shape, want.shape)
            self.assertTrue(torch.allclose(g, want, rtol=0, atol=1e-6), i)


if __name__ == "__main__":
    main()

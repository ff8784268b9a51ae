"""modrec summary/record --columns saved_bytes,peak_bytes: the memory each module call saves for the
backward and allocates at its peak, checked against eager PyTorch on the same model and input.

saved_bytes: eager forward with torch.autograd.graph.saved_tensors_hooks entered in each module's
forward pre-hook and left in its forward hook; every tensor packed while a call is open counts for
it and the calls around it, by unique storage, the model's parameters and buffers left out.
peak_bytes: torch.profiler.profile(profile_memory=True)'s allocation events between a
record_function entered in each call's pre-hook and left in its forward hook: the running sum's
peak above the call's start (within 5%); the whole pass's peak, forward and backward (from the sum
of the output, as modrec's summary runs it), the same way.
Models (TorchScript and .pt2): conv/BatchNorm/ReLU (in-place), a transformer encoder block, an
LSTM, a Linear called twice. Small ones: each is built, scripted and exported once.
"""
import atexit
import csv
import functools
import io
import json
import os
import shutil
import sys
import tempfile
import types
import unittest

import torch
from torch import nn
from torch.profiler import ProfilerActivity, profile

from e2e import MODREC, ROOT, main, run

OUT = tempfile.mkdtemp(prefix="memory-")
atexit.register(shutil.rmtree, OUT, True)
COLUMNS = "output_size,saved_bytes,peak_bytes"


class ConvBnRelu(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 8, 3, padding=1)
        self.bn = nn.BatchNorm2d(8)
        self.relu = nn.ReLU(inplace=True)
        self.conv2 = nn.Conv2d(8, 16, 3)
        self.act = nn.ReLU()

    def forward(self, x):
        return self.act(self.conv2(self.relu(self.bn(self.conv(x)))))


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.layer = nn.TransformerEncoderLayer(32, 4, dim_feedforward=64, dropout=0.0,
                                                batch_first=True)

    def forward(self, x):
        return self.layer(x)


class LstmNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.lstm = nn.LSTM(8, 16, batch_first=True)
        self.fc = nn.Linear(16, 4)

    def forward(self, x):
        out, _ = self.lstm(x)
        return self.fc(out[:, -1])


class Twice(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(64, 64)

    def forward(self, x):
        return self.fc(torch.relu(self.fc(x)))


MODELS = {"ConvBnRelu": (ConvBnRelu, (4, 3, 32, 32)), "Block": (Block, (2, 10, 32)),
          "LstmNet": (LstmNet, (4, 12, 8)), "Twice": (Twice, (16, 64))}


class Case:
    """A model, its input, its TorchScript and .pt2 files, made once."""

    def __init__(self, name):
        cls, shape = MODELS[name]
        torch.manual_seed(0)
        self.model = cls().eval()
        self.x = torch.randn(*shape)
        self.input = os.path.join(OUT, name + ".input.pt")
        torch.save(self.x, self.input)
        self.files = {"pt": os.path.join(OUT, name + ".pt"), "pt2": os.path.join(OUT, name + ".pt2")}
        torch.jit.script(self.model).save(self.files["pt"])
        torch.export.save(torch.export.export(self.model, (self.x,)), self.files["pt2"])


CASES = {}


def case(name):
    if name not in CASES:
        CASES[name] = Case(name)
    return CASES[name]


def resident(model):
    return {t.untyped_storage().data_ptr() for t in [*model.parameters(), *model.buffers()]}


def hook_calls(model, enter, leave):
    """Every module's forward pre-hook and forward hook: enter(index), leave(index), indices in
    the order the calls start (modrec's call numbers)."""
    count, open_calls, handles = [0], [], []

    def pre(module, args):
        open_calls.append(count[0])
        count[0] += 1
        enter(open_calls[-1])

    def post(module, args, out):
        leave(open_calls.pop())

    for m in model.modules():
        handles += [m.register_forward_pre_hook(pre), m.register_forward_hook(post)]
    return handles


def eager_saved(c):
    """Per call: the unique storages' bytes packed for the backward while it was open."""
    skip, open_calls, storages, contexts = resident(c.model), [], {}, []

    def pack(t):
        s = t.untyped_storage()
        if s.data_ptr() not in skip:
            for call in open_calls:
                storages[call][s.data_ptr()] = s.nbytes()
        return t

    def enter(call):
        open_calls.append(call)
        storages[call] = {}
        contexts.append(torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t))
        contexts[-1].__enter__()

    def leave(call):
        contexts.pop().__exit__(None, None, None)
        open_calls.pop()

    handles = hook_calls(c.model, enter, leave)
    try:
        c.model(c.x.clone())
    finally:
        for h in handles:
            h.remove()
    return {call: sum(s.values()) for call, s in storages.items()}


def eager_peaks(c):
    """Per call, the profiler's forward peak above its start; and the pass's, forward and backward
    (the sum of the output's), above the root call's start."""
    ranges, spans = [], {}

    def enter(call):
        ranges.append(torch.autograd.profiler.record_function(f"modrec_call_{call}"))
        ranges[-1].__enter__()

    def leave(call):
        ranges.pop().__exit__(None, None, None)

    handles = hook_calls(c.model, enter, leave)
    x = c.x.clone()
    # As in modrec's fresh process, the backward allocates the parameters' .grad (an earlier
    # backward's would take the new gradients in place).
    c.model.zero_grad(set_to_none=True)
    try:
        with profile(activities=[ProfilerActivity.CPU], profile_memory=True) as prof:
            c.model(x).sum().backward()
    finally:
        for h in handles:
            h.remove()
    events = prof.profiler.kineto_results.events()
    memory = sorted((e.start_ns(), e.nbytes()) for e in events if e.name() == "[memory]")
    for e in events:
        if e.name().startswith("modrec_call_"):
            spans[int(e.name()[len("modrec_call_"):])] = (e.start_ns(), e.start_ns() + e.duration_ns())

    def peak(start, end):
        live = top = 0
        for t, nbytes in memory:
            if start <= t <= end:
                live += nbytes
                top = max(top, live)
        return top

    forward = {call: peak(*span) for call, span in spans.items()}
    return forward, peak(spans[0][0], float("inf"))


@functools.lru_cache(maxsize=None)
def summary_json(path, x):
    out, _ = run("summary", path, "--input", x, "--columns", COLUMNS, "--depth", "99",
                 "--format", "json")
    return json.loads(out)


def by_call(rows, field):
    return {r["call"]: r["memory"][field] for r in rows if r["call"] is not None}


class SavedBytes(unittest.TestCase):
    def check(self, name, kind):
        c = case(name)
        got = summary_json(c.files[kind], c.input)
        want = eager_saved(c)
        self.assertEqual(by_call(got["rows"], "saved_bytes"), want)
        self.assertEqual(got["totals"]["memory"]["saved_bytes"], want[0])
        self.assertGreater(want[0], 0)

    def test_conv_bn_relu(self):
        self.check("ConvBnRelu", "pt")
        self.check("ConvBnRelu", "pt2")

    def test_transformer_block(self):
        self.check("Block", "pt")
        self.check("Block", "pt2")

    def test_lstm(self):
        self.check("LstmNet", "pt")
        self.check("LstmNet", "pt2")

    def test_module_called_twice(self):
        self.check("Twice", "pt")
        self.check("Twice", "pt2")


def within(a, b, rel=0.05):
    return abs(a - b) <= rel * max(a, b)


class PeakBytes(unittest.TestCase):
    def check(self, name, kind):
        c = case(name)
        got = summary_json(c.files[kind], c.input)
        want, want_total = eager_peaks(c)
        peaks = by_call(got["rows"], "peak_forward_bytes")
        self.assertEqual(set(peaks), set(want))
        far = {call: (peaks[call], want[call]) for call in want if not within(peaks[call], want[call])}
        self.assertFalse(far, f"{name}.{kind}: call: (modrec, profiler) beyond 5%")
        memory = got["totals"]["memory"]
        self.assertEqual(memory["peak_forward_bytes"], peaks[0])
        self.assertTrue(within(memory["peak_bytes"], want_total), (memory["peak_bytes"], want_total))
        self.assertGreaterEqual(memory["peak_bytes"], memory["peak_forward_bytes"])

    def test_conv_bn_relu(self):
        self.check("ConvBnRelu", "pt")
        self.check("ConvBnRelu", "pt2")

    def test_transformer_block(self):
        self.check("Block", "pt")
        self.check("Block", "pt2")

    def test_lstm(self):
        self.check("LstmNet", "pt")
        self.check("LstmNet", "pt2")

    def test_module_called_twice(self):
        self.check("Twice", "pt")
        self.check("Twice", "pt2")


class Outputs(unittest.TestCase):
    def test_table_footer_and_formats(self):
        c = case("ConvBnRelu")
        table, _ = run("summary", c.files["pt"], "--input", c.input, "--columns", COLUMNS)
        self.assertIn("Saved for Backward", table)
        self.assertIn("Peak Memory", table)
        for line in ("Forward/backward pass size (MB):", "Measured forward peak (MB):",
                     "Measured forward/backward peak (MB):", "Saved for backward (MB):",
                     "Forward peak in: ", "Backward peak in: "):
            self.assertIn(line, table)
        got = summary_json(c.files["pt"], c.input)
        self.assertRegex(got["totals"]["memory"]["forward_peak_at"], r"^(ConvBnRelu|\d+-\d+ \S+ \(\w+\))$")
        out, _ = run("summary", c.files["pt"], "--input", c.input, "--columns", COLUMNS, "--format", "csv")
        rows = list(csv.DictReader(io.StringIO(out)))
        self.assertEqual({int(r["saved_bytes"]) for r in rows if r["label"] == "1-1"},
                         {eager_saved(c)[1]})
        out, _ = run("summary", c.files["pt"], "--input", c.input, "--columns", COLUMNS, "--format",
                     "markdown")
        self.assertIn("| Saved for backward (MB) |", out)

    def test_without_the_columns_nothing_is_measured(self):
        c = case("ConvBnRelu")
        table, _ = run("summary", c.files["pt"], "--input", c.input)
        self.assertNotIn("Measured", table)
        got = json.loads(run("summary", c.files["pt"], "--input", c.input, "--format", "json")[0])
        self.assertNotIn("memory", got["totals"])
        self.assertNotIn("memory", got["rows"][0])

    def test_usage_errors(self):
        c = case("ConvBnRelu")
        _, err = run("summary", c.files["pt"], "--columns", "saved_bytes", code=2)
        self.assertIn("--input", err)
        _, err = run("record", c.files["pt"], "--input", c.input, "--layers", "all", "--columns", "flops",
                     "--out", os.path.join(OUT, "bad"), code=2)
        self.assertIn("saved_bytes,peak_bytes", err)


class Record(unittest.TestCase):
    def test_stats_and_manifest(self):
        c = case("Twice")
        out_dir = os.path.join(OUT, "rec-twice")
        manifest, _ = run("record", c.files["pt"], "--input", c.input, "--layers", "all", "--save",
                          "none", "--columns", "saved_bytes,peak_bytes", "--out", out_dir,
                          "--format", "json")
        with open(os.path.join(out_dir, "stats.json")) as f:
            layers = {(l["path"], l["call"]): l["memory"] for l in json.load(f)["layers"]}
        want_saved = eager_saved(c)
        want_peak, want_total = eager_peaks(c)
        # Calls: 0 the root, 1 and 2 fc's first and second.
        for call, key in ((0, ("", 1)), (1, ("fc", 1)), (2, ("fc", 2))):
            self.assertEqual(layers[key]["saved_bytes"], want_saved[call], key)
            self.assertTrue(within(layers[key]["peak_forward_bytes"], want_peak[call]), key)
        self.assertGreater(layers[("", 1)]["peak_backward_bytes"], 0)
        memory = json.loads(manifest)["memory"]
        self.assertEqual(memory["saved_bytes"], want_saved[0])
        self.assertTrue(within(memory["peak_bytes"], want_total), (memory["peak_bytes"], want_total))
        with open(os.path.join(out_dir, "stats.csv")) as f:
            rows = list(csv.DictReader(f))
        self.assertTrue(rows and all(r["saved_bytes"] for r in rows))

    def record(self, c, x_file, name):
        out_dir = os.path.join(OUT, name)
        run("record", c.files["pt"], "--input", x_file, "--layers", "all", "--capture", "param",
            "--save", "none", "--columns", "saved_bytes,peak_bytes", "--out", out_dir)
        return out_dir

    def test_diff_compares_the_columns(self):
        # Twice the batch: every call keeps twice the bytes for the backward (eager's own figures
        # say so) while the parameters, the tensors compared, stay equal: diff fails on the
        # memory alone, naming each layer, with both runs' figures.
        c = case("ConvBnRelu")
        double = types.SimpleNamespace(model=c.model, x=torch.cat([c.x, c.x]))
        double_file = os.path.join(OUT, "ConvBnRelu.double.pt")
        torch.save(double.x, double_file)
        base = self.record(c, c.input, "rec-base")
        again = self.record(c, c.input, "rec-again")
        bigger = self.record(c, double_file, "rec-double")
        out, _ = run("diff", again, base, "--format", "json")
        self.assertTrue(json.loads(out)["passed"])
        out, _ = run("diff", bigger, base, "--format", "json", code=1)
        got = json.loads(out)
        self.assertFalse(got["passed"])
        with open(os.path.join(base, "stats.json")) as f:
            calls = [l["label"] for l in json.load(f)["layers"]]
        want_a, want_b = eager_saved(double), eager_saved(c)
        self.assertEqual([m["label"] for m in got["memory"]], calls)
        for call, m in enumerate(got["memory"]):
            self.assertEqual(m["run_a"]["saved_bytes"], want_a[call], m["label"])
            self.assertEqual(m["run_b"]["saved_bytes"], want_b[call], m["label"])
            grew = want_b[call] and want_a[call] > 1.1 * want_b[call]
            self.assertEqual("saved_bytes" in m["changed"], bool(grew), m["label"])
        self.assertTrue(got["tensors"] and all(t["passed"] for t in got["tensors"]))
        out, _ = run("diff", bigger, base, code=1)
        self.assertRegex(out.splitlines()[0], r"; \d+ of \d+ layers' measured memory changed beyond "
                         r"memory-rtol=0.1 ")
        self.assertRegex(out, r"\n1-1 +\S* +saved_bytes +%d +%d +2\b" % (want_a[1], want_b[1]))
        run("diff", bigger, base, "--memory-rtol", "1.5")
        # The Python API's Diff carries the same figures.
        sys.path.insert(0, os.path.join(ROOT, "python"))
        os.environ["MODREC_BIN"] = MODREC
        import modrec
        self.assertEqual(modrec.diff(bigger, base).memory, got["memory"])
        self.assertTrue(modrec.diff(bigger, base, memory_rtol=1.5).passed)


if __name__ == "__main__":
    main()

"""`modrec summary` reads no weight: without an input the table comes from the stored tensors'
sizes and dtypes, with one from a pass on the meta device. Its tables are torchinfo 1.8's on the
eager model on the meta device (float32 and bfloat16, TorchScript and .pt2, with and without an
input); a file whose weight bytes are damaged still gives them (the weights are never read) while
record refuses it; a graph that needs a value (a branch on a tensor) falls back to the run on the
weights, says so, and gives torchinfo's table of the eager model run on its weights."""
import atexit
import json
import os
import re
import shutil
import sys
import tempfile
import unittest
import zipfile

import torch
import torchinfo
from torch import nn
from torchinfo.enums import Units

from e2e import ROOT, SAMPLES, run, main, sample
from test_graph import edges as graph_edges

sys.path.insert(0, os.path.join(ROOT, "scripts"))
import graph_oracle  # noqa: E402

OUT = tempfile.mkdtemp(prefix="summary-meta-")
atexit.register(shutil.rmtree, OUT, True)
INPUT_SIZE = re.compile(r"^Input size \(MB\): ([0-9.]+)$")
FALLBACK = "the pass on the meta device"
# torchinfo 1.8 formats its unit enum as "Units.MEGABYTES" on Python 3.11 (torchinfo issue #350);
# its own reference outputs, and modrec, write "(M)" (scripts/torchinfo_table.py).
Units.__format__ = lambda unit, spec: format(unit.value, spec)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 8, 3, padding=1)
        self.bn = nn.BatchNorm2d(8)
        self.pool = nn.AdaptiveAvgPool2d(2)
        self.head = nn.Sequential(nn.Flatten(), nn.Linear(32, 16), nn.ReLU(), nn.Linear(16, 4))

    def forward(self, x):
        return self.head(self.pool(torch.relu(self.bn(self.conv(x)))))


class TinyLM(nn.Module):
    """A language model's operators: an embedding (index_select), attention by
    scaled_dot_product_attention (its CPU softmax goes through where's out variant), two plain
    tensor attributes, which tracing makes constants and TorchScript's import compares (constant
    pooling), and a torch.tensor, which the trace moves to a fixed device="cpu"."""

    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(50, 16)
        self.qkv = nn.Linear(16, 48)
        self.norm = nn.LayerNorm(16)
        self.head = nn.Linear(16, 50)
        self.scale, self.shift = torch.tensor(0.5), torch.tensor(0.25)

    def forward(self, ids):
        h = self.embed(ids)
        q, k, v = self.qkv(h).chunk(3, dim=-1)
        h = self.norm(h + nn.functional.scaled_dot_product_attention(q, k, v))
        return self.head(h * self.scale + self.shift + torch.tensor(0.125))


class MobileOps(nn.Module):
    """Operators LibTorch's C++ has no meta kernel for, which modrec gives (lib/ops/meta): ReLU6
    (hardtanh), Hardswish, PReLU, reflection and replication padding, and a GroupNorm (whose
    export computes its statistics by var_mean)."""

    def __init__(self):
        super().__init__()
        self.pad = nn.ReflectionPad2d((1, 2, 0, 1))
        self.conv = nn.Conv2d(3, 8, 3)
        self.norm = nn.GroupNorm(2, 8)
        self.act = nn.Sequential(nn.ReLU6(), nn.Hardswish(), nn.PReLU(8))
        self.edge = nn.ReplicationPad2d(1)

    def forward(self, x):
        return self.edge(self.act(self.norm(self.conv(self.pad(x)))))


class Branchy(nn.Module):
    """Its output's shape depends on a value: no pass on the meta device can tell it."""

    def __init__(self):
        super().__init__()
        self.a = nn.Linear(4, 4)
        self.up = nn.Linear(4, 3)
        self.down = nn.Linear(4, 2)

    def forward(self, x):
        y = self.a(x)
        if bool(y.sum() > 0):
            return self.up(y)
        return self.down(y)


SHAPE = (2, 3, 8, 8)


def model(dtype):
    torch.manual_seed(0)
    return Net().to(dtype).eval()


def saved(dtype, kind):
    """Net in `dtype`, saved by torch.jit.save (kind "pt") or torch.export.save ("pt2")."""
    path = os.path.join(OUT, f"net_{str(dtype).split('.')[-1]}.{kind}")
    if not os.path.exists(path):
        m = model(dtype)
        if kind == "pt":
            torch.jit.script(m).save(path)
        else:
            torch.export.save(torch.export.export(m, (torch.zeros(SHAPE, dtype=dtype),)), path)
    return path


def input_file(dtype):
    path = os.path.join(OUT, f"x_{str(dtype).split('.')[-1]}.pt")
    if not os.path.exists(path):
        torch.manual_seed(1)
        torch.save(torch.randn(SHAPE).to(dtype), path)
    return path


def torchinfo_table(m, inputs=None, device="meta"):
    m = m.to(device)
    data = None if inputs is None else [t.to(device) for t in inputs]
    return str(torchinfo.summary(m, input_data=data, verbose=0, mode="eval", device=device)) + "\n"


def damaged_copy(path):
    """A copy of `path` whose largest weight record (TorchScript's data/<key>, a .pt2's
    data/weights/<file>) has its bytes inverted, sizes unchanged."""
    weight = re.compile(r"/data/(\d+|weights/weight_\d+)$")
    with zipfile.ZipFile(path) as z:
        biggest = max((i for i in z.infolist() if weight.search(i.filename)),
                      key=lambda i: i.file_size)
    with open(path, "rb") as f:
        data = bytearray(f.read())
    name_len, extra_len = int.from_bytes(data[biggest.header_offset + 26:][:2], "little"), \
        int.from_bytes(data[biggest.header_offset + 28:][:2], "little")
    start = biggest.header_offset + 30 + name_len + extra_len
    for i in range(start, start + biggest.file_size):
        data[i] ^= 0xFF
    out = os.path.join(OUT, "damaged_" + os.path.basename(path))
    with open(out, "wb") as f:
        f.write(data)
    return out


class SummaryOnMeta(unittest.TestCase):
    def assert_table(self, got, want, signature=False):
        if signature:  # modrec follows a table without shapes by forward's signature
            got, _, rest = got.partition("\nForward signature: ")
            self.assertTrue(rest.startswith("forward("), rest)

        got_lines, want_lines = got.splitlines(), want.splitlines()
        self.assertEqual(len(got_lines), len(want_lines), got)
        for g, w in zip(got_lines, want_lines):
            mg, mw = INPUT_SIZE.match(g), INPUT_SIZE.match(w)
            if mg and mw:  # torchinfo adds Python's object overhead here (0.01 at most)
                self.assertAlmostEqual(float(mg.group(1)), float(mw.group(1)), delta=0.0101)
            else:
                self.assertEqual(g, w)

    def test_tables_are_torchinfos_on_the_meta_device(self):
        for dtype in (torch.float32, torch.bfloat16):
            x = torch.load(input_file(dtype))
            for kind in ("pt", "pt2"):
                with self.subTest(dtype=dtype, kind=kind):
                    path = saved(dtype, kind)
                    out, err = run("summary", path)
                    self.assert_table(out, torchinfo_table(model(dtype)), signature=True)
                    out, err = run("summary", path, "--input", input_file(dtype))
                    self.assertNotIn(FALLBACK, err)
                    self.assert_table(out, torchinfo_table(model(dtype), [x]))

    def test_a_traced_language_model_runs_on_the_meta_device(self):
        torch.manual_seed(0)
        m = TinyLM().eval()
        ids = torch.randint(0, 50, (2, 7))
        path, ids_file = os.path.join(OUT, "tiny_lm.pt"), os.path.join(OUT, "tiny_lm_ids.pt")
        torch.jit.trace(m, ids).save(path)
        torch.save(ids, ids_file)
        out, err = run("summary", path)
        self.assertEqual(err, "")  # neither read with its weights nor run on them
        self.assert_table(out, torchinfo_table(m), signature=True)
        out, err = run("summary", path, "--input", ids_file)
        self.assertEqual(err, "")
        self.assert_table(out, torchinfo_table(m, [ids]))

    def test_weights_are_not_read(self):
        x = input_file(torch.float32)
        for kind in ("pt", "pt2"):
            with self.subTest(kind=kind):
                intact, damaged = saved(torch.float32, kind), damaged_copy(saved(torch.float32, kind))
                self.assertEqual(run("summary", damaged)[0], run("summary", intact)[0])
                out, err = run("summary", damaged, "--input", x)
                self.assertNotIn(FALLBACK, err)
                self.assertEqual(out, run("summary", intact, "--input", x)[0])
                # graph needs shapes and autograd's graph only: on the damaged file, its calls
                # are the eager model's leaf modules, its edges eager PyTorch's data flow
                # (scripts/graph_oracle.py, as tests/test_graph.py)
                eager = model(torch.float32)
                out, err = run("graph", damaged, "--format", "json")
                self.assertNotIn(FALLBACK, err)
                self.assertEqual(
                    [n["path"] for n in json.loads(out)["nodes"] if n["kind"] == "call"],
                    [p for p, m in eager.named_modules() if p and not list(m.children())])
                out, err = run("graph", damaged, "--input", x, "--format", "json")
                self.assertNotIn(FALLBACK, err)
                want = graph_oracle.graph(eager, (torch.load(x),))
                self.assertEqual(graph_edges(json.loads(out)), {tuple(e) for e in want["edges"]})
                # A command that computes reads the weights, and refuses damaged ones.
                _, err = run("record", damaged, "--input", x, "--layers", "all", "--out",
                             os.path.join(OUT, "r"),
                             code=3)
                self.assertIn("CRC-32 mismatch", err)

    def test_mobile_activations_padding_and_group_norm_run_on_the_meta_device(self):
        torch.manual_seed(0)
        m, x = MobileOps().eval(), torch.randn(SHAPE)
        x_file = os.path.join(OUT, "mobile_x.pt")
        torch.save(x, x_file)
        paths = {kind: os.path.join(OUT, "mobile." + kind) for kind in ("pt", "pt2")}
        torch.jit.script(m).save(paths["pt"])
        torch.export.save(torch.export.export(m, (x,)), paths["pt2"])
        for kind, path in paths.items():  # (torchinfo_table moves m to the meta device)
            with self.subTest(kind=kind):
                out, err = run("summary", path, "--input", x_file)
                self.assertNotIn(FALLBACK, err)
                self.assert_table(out, torchinfo_table(m, [x]))

    def test_a_graph_that_needs_a_value_runs_on_the_weights(self):
        torch.manual_seed(0)
        m = Branchy().eval()
        path = os.path.join(OUT, "branchy.pt")
        torch.jit.script(m).save(path)
        for sign in (1, -1):
            x = sign * torch.ones(2, 4) * 10
            x_file = os.path.join(OUT, f"branchy_x{sign}.pt")
            torch.save(x, x_file)
            out, err = run("summary", path, "--input", x_file)
            self.assertEqual(err.count(FALLBACK), 1, err)
            self.assert_table(out, torchinfo_table(m, [x], device="cpu"))
            # graph too: its JSON is the one of a pass on the weights (the fallback's)
            _, err = run("graph", path, "--input", x_file, "--format", "json")
            self.assertEqual(err.count(FALLBACK), 1, err)

    def test_a_decomposed_export_runs_on_the_meta_device(self):
        # run_decompositions (core ATen IR) writes attention's mask fill as the float "-Infinity"
        # and its masking through logical_not
        torch.manual_seed(0)
        m = TinyLM().eval()
        ids = torch.randint(0, 50, (2, 7))
        path, ids_file = os.path.join(OUT, "tiny_lm_core.pt2"), os.path.join(OUT, "core_ids.pt")
        torch.export.save(torch.export.export(m, (ids,)).run_decompositions(), path)
        with zipfile.ZipFile(path) as z:
            program = next(n for n in z.namelist() if n.endswith("models/model.json"))
            self.assertIn('"-Infinity"', z.read(program).decode())
        torch.save(ids, ids_file)
        with torch.no_grad():
            want = m(ids)
        out, err = run("summary", path, "--input", ids_file)
        self.assertEqual(err, "")
        self.assert_table(out, torchinfo_table(m, [ids]))
        rec = os.path.join(OUT, "core_rec")
        run("record", path, "--input", ids_file, "--layers", "head", "--capture", "output",
            "--out", rec)
        label = json.load(open(os.path.join(rec, "manifest.json")))["layers"][0]["label"]
        got = torch.load(os.path.join(rec, "tensors", label, "output.pt"))
        torch.testing.assert_close(got[0] if isinstance(got, list) else got, want)

    def test_the_fallback_says_each_warning_once(self):
        # the model is opened twice, without and then with its weights: what opening it says
        # (here, that the .pt2 has no class for the Identity) is said once
        class Picks(nn.Module):
            def __init__(self):
                super().__init__()
                self.keep = nn.Identity()
                self.fc = nn.Linear(4, 4)

            def forward(self, x):
                return self.fc(self.keep(x)).nonzero()  # no meta kernel: a size from values

        x = torch.randn(3, 4)
        path, x_file = os.path.join(OUT, "picks.pt2"), os.path.join(OUT, "picks_x.pt")
        torch.export.save(torch.export.export(Picks().eval(), (x,)), path)
        torch.save(x, x_file)
        _, err = run("summary", path, "--input", x_file)
        self.assertEqual(err.count(FALLBACK), 1, err)
        self.assertEqual(err.count("modules that run no operator"), 1, err)

    def test_the_samples_pass_on_the_meta_device(self):
        # test_summary_oracle.py and test_summary_reference.py check these tables against eager
        # PyTorch; here, that they came from the meta device, not from the fallback.
        # The traced files' convolutions are aten::_convolution, as torch.jit.trace records them.
        for name, kind in (("TinyConvNet", "pt"), ("ReusedModuleNet", "pt"), ("SimpleRNN", "pt"),
                           ("SeqClassifier", "pt"), ("TwoInputNet", "pt"),
                           ("MultiOutputDictNet", "pt"), ("ContainerModule", "pt"),
                           ("LinearModel", "pt"), ("SingleInputNet", "traced.pt"),
                           ("ReusedModuleNet", "traced.pt")):
            with self.subTest(name=name, kind=kind):
                _, err = run("summary", sample(name, kind), "--input",
                             os.path.join(SAMPLES, f"{name}.input.pt"), "--columns",
                             "input_size,output_size,num_params,mult_adds")
                self.assertNotIn(FALLBACK, err)


if __name__ == "__main__":
    main()

"""torch.export archives (.pt2): modrec summary's table is torchinfo's on the eager model, byte for
byte, with and without an input; record's captures and parameter gradients are eager PyTorch's
(hooks, torch.autograd); graph's edges are eager data flow's (scripts/graph_oracle.py); check
MODEL's violations are those of eager hooks' tensors (watch: tests/test_watch.py). The archives are
exported here by the pinned torch from the samples' eager models with the samples' weights."""
import atexit
import json
import math
import os
import re
import shutil
import sys
import tempfile
import unittest

import torch

import e2e
from e2e import ROOT, run, main, sample
from test_flops import flop_oracle, per_path
from test_graph import GraphCase
from test_record_oracle import CAPTURES, RecordComparison, load_pt

sys.path.insert(0, os.path.join(ROOT, "scripts"))
import models  # noqa: E402
import oracle  # noqa: E402

# modrec.export from the source tree: pure Python, it needs no build (tests/test_wheel.py runs the
# installed wheel's).
sys.path.insert(0, os.path.join(ROOT, "python"))
import modrec  # noqa: E402

OUT = tempfile.mkdtemp(prefix="pt2-")
atexit.register(shutil.rmtree, OUT, True)


def eager(name):
    return oracle.load_model(name, sample(name), train=False)


def sample_input(name):
    return sample(name, "input.pt")


def exported(name):
    """samples/<name>.pt's eager model, exported on its sample input and saved as a .pt2."""
    path = os.path.join(OUT, name + ".pt2")
    if not os.path.exists(path):
        inputs = oracle.load_inputs(name, [sample_input(name)])
        torch.export.save(torch.export.export(eager(name), inputs), path)
    return path


def torchinfo_table(name, *extra):
    return e2e.torchinfo_table(name, "--weights", sample(name), *extra)


def torchinfo_structure(name):
    """torchinfo.summary(model) without an input: the module tree and its parameters."""
    import torchinfo
    return str(torchinfo.summary(eager(name), verbose=0)) + "\n"


def table_without_input(path, *args):
    """`modrec summary` of an archive without an input: the table, checked to be followed by the
    forward signature (the program's tensor inputs) and the hint that says what to pass."""
    out, _ = run("summary", path, *args)
    table, _, signature = out.partition("\nForward signature: forward(")
    assert signature.split(")")[0] and ": Tensor" in signature, out
    return table


# Every module of these runs an operator, so the archive records every module's class.
MODELS = ("TinyConvNet", "ReusedModuleNet", "SingleInputNet", "TwoInputNet", "LinearModel",
          "SeqClassifier", "MatmulAttentionNet", "resnet18")
# Also SimpleRNN, whose `projection` is never called: shown by torchinfo without an input only.
CALLED = MODELS + ("SimpleRNN",)


class SummaryMatchesTorchinfo(unittest.TestCase):
    def test_tables_with_an_input(self):
        for name in CALLED:
            mine = run("summary", exported(name), "--input", sample_input(name))[0]
            self.assertEqual(mine, torchinfo_table(name, "--input", sample_input(name)), name)

    def test_tables_without_an_input(self):
        for name in MODELS:
            self.assertEqual(table_without_input(exported(name)), torchinfo_structure(name), name)

    def test_attention(self):
        # nn.TransformerEncoder: its layers' ModuleList is never called (see below).
        name = "TransformerEncoderNet"
        mine = run("summary", exported(name), "--input", sample_input(name))[0]
        want = torchinfo_table(name, "--input", sample_input(name))
        self.assertEqual(mine, re.sub(r"ModuleList: (\S+)", r"Module: \1    ", want))

    def test_kernel_sizes_of_convolutions_and_pooling_layers(self):
        # A convolution's kernel is its weight's trailing dims, a MaxPool2d's the kernel_size its
        # pooling node passes (TinyConvNet: MaxPool2d(2); resnet18: MaxPool2d(3, 2, 1)); an
        # AdaptiveAvgPool2d has none. SingleInputNet pools with F.max_pool2d: no kernel shown.
        columns = ["--columns", "kernel_size,output_size,num_params"]
        for name in ("TinyConvNet", "resnet18", "SingleInputNet"):
            mine = run("summary", exported(name), "--input", sample_input(name), *columns)[0]
            self.assertEqual(mine, torchinfo_table(name, "--input", sample_input(name), *columns),
                             name)

    def test_pooling_kernel_sizes_without_an_input(self):
        # int or tuple: the archive's list does not tell them apart, so equal dims print as the
        # int torchinfo shows for MaxPool2d(3), unequal ones as the tuple (docs/pt2.md).
        import torchinfo
        model = torch.nn.Sequential(torch.nn.MaxPool2d(3, 1), torch.nn.AvgPool2d((3, 1), 1),
                                    torch.nn.LPPool2d(2, 2), torch.nn.Flatten(2),
                                    torch.nn.MaxPool1d(2), torch.nn.AdaptiveAvgPool1d(2))
        path = os.path.join(OUT, "pools.pt2")
        torch.export.save(torch.export.export(model, (torch.randn(1, 2, 9, 9),)), path)
        want = str(torchinfo.summary(model, col_names=("kernel_size", "num_params"), verbose=0))
        self.assertEqual(table_without_input(path, "--columns", "kernel_size,num_params"),
                         want + "\n")

    def test_a_module_that_runs_no_operator_has_no_class_in_the_archive(self):
        # ModuleListNet's ModuleList is never called: modrec shows it, as torchinfo does, but
        # only as "Module" (docs/pt2.md).
        name = "ModuleListNet"
        unknown = lambda table: re.sub(r"ModuleList: (\S+)", r"Module: \1    ", table)
        self.assertEqual(table_without_input(exported(name)), unknown(torchinfo_structure(name)))
        mine = run("summary", exported(name), "--input", sample_input(name))[0]
        self.assertEqual(mine, unknown(torchinfo_table(name, "--input", sample_input(name))))


def exported_with_notes(name):
    """samples/<name>.pt's eager model exported by modrec.export: the archive and its notes."""
    path = os.path.join(OUT, name + ".notes.pt2")
    if not os.path.exists(path):
        modrec.export(eager(name), oracle.load_inputs(name, [sample_input(name)]), path)
    return path


class PassThrough(torch.nn.Module):
    """Modules that run no operator: an Identity on a call's result, an Identity first in a
    Sequential head (after a flatten that eager PyTorch skips on a 2-d tensor, the graph does
    not), and a ModuleList never called; a Dropout, which eager PyTorch skips in eval mode and
    torch.export keeps as a node."""

    def __init__(self):
        super().__init__()
        self.stem = torch.nn.Linear(6, 8)
        self.skip = torch.nn.Identity()
        self.blocks = torch.nn.ModuleList([torch.nn.ReLU(), torch.nn.Tanh()])
        self.head = torch.nn.Sequential(torch.nn.Identity(), torch.nn.Dropout(0.0),
                                        torch.nn.Linear(8, 3))

    def forward(self, x):
        x = self.skip(self.stem(x))
        for block in self.blocks:
            x = block(x)
        return self.head(torch.flatten(x, 1))


ALL_COLUMNS = "input_size,output_size,num_params,params_percent,kernel_size,mult_adds,trainable"


# The captures of modrec.export's archives that equal eager hooks'; all four but where the notes
# cannot tell the graph's values apart (docs/export-notes.md, Not told):
NOTED_CAPTURES = {
    # nn.TransformerEncoderLayer's self_attn(x, x, x): one graph value, three eager arguments
    # (its grad_input refused: test_input_gradients_of_a_call_given_one_tensor_several_times_...)
    "TransformerEncoderNet": ("output", "grad_output"),
    "MHAKwargsNet": ("output", "grad_output"),  # attn(x, x, x) too
    # `out, _ = self.lstm(x)`: the unused (h_n, c_n) are no graph value, so its output is `out`
    "SeqClassifier": ("input", "grad_input", "grad_output"),
    # LSTMCell's (hx, cx), of one shape: which graph value is which is not told, so the call's
    # arguments are the graph's, flat (grad_input then has hx's and cx's); its last call's cx
    # is unused, no graph value
    "SimpleRNN": ("input", "grad_output"),
}
# The calls whose gradients modrec refuses, saying why: AliasingNet's Identity returns its
# argument itself, and the caller uses both (y + h): one graph value, which the notes cannot split
# into the call's result and its argument (ExportNotes, test_gradients_of_an_identity_...).
NOTED_REFUSED = {"AliasingNet": ("ident",)}


class ExportNotes(RecordComparison):
    """Archives made by modrec.export, of every model this file exports: tables equal torchinfo's
    at every depth with all columns, with and without an input, where the program alone cannot say
    a module's class or its calls; captures equal eager hooks'."""
    # Every model of MODELS and CALLED; a ModuleList never called (ModuleListNet,
    # TransformerEncoderNet's layers), an Identity (AliasingNet), a dict-returning submodule
    # (MultiOutputNet, MultiOutputDictNet), two inputs and two outputs (BranchNet), and an LSTM
    # called with hx=None, MultiheadAttention with need_weights=True, a Dropout in eval mode and a
    # ModuleDict (NotedCallsNet). MHAKwargsNet: test_keyword_only_call.
    NAMES = CALLED + ("ModuleListNet", "TransformerEncoderNet", "AliasingNet", "MultiOutputNet",
                      "MultiOutputDictNet", "BranchNet", "NotedCallsNet")

    def test_tables_with_an_input_at_every_depth(self):
        for name in self.NAMES:
            for depth in ("1", "2", "99"):
                args = ["--input", sample_input(name), "--columns", ALL_COLUMNS, "--depth", depth]
                out, err = run("summary", exported_with_notes(name), *args)
                self.assertEqual(out, torchinfo_table(name, *args), (name, depth))
                # the notes are used (the meta pass's fallback, a torch matter, may be told)
                self.assertNotIn("modrec-notes", err, name)
                self.assertNotIn("run no operator", err, name)

    def test_keyword_only_call(self):
        # MHAKwargsNet: attention with need_weights=True and average_attn_weights=False, and
        # fc(input=out), for which torchinfo sees no positional argument and prints "--" as the
        # input size; the notes (and the call's signature) say how the arguments were passed, so
        # modrec prints "--" too, where for a TorchScript file it prints the argument's shape
        # (tests/test_attention.py).
        name = "MHAKwargsNet"
        for depth in ("1", "99"):
            args = ["--input", sample_input(name), "--columns", ALL_COLUMNS, "--depth", depth]
            keyword_only = os.path.join(OUT, "keyword_only.json")
            want = torchinfo_table(name, *args, "--keyword-only", keyword_only)
            with open(keyword_only) as f:
                lines = json.load(f)["lines"]
            self.assertEqual(len(lines), 1)  # the keyword-only call is there
            out, err = run("summary", exported_with_notes(name), *args)
            self.assertEqual(out, want, depth)
            self.assertNotIn("modrec-notes", err)

    def test_tables_without_an_input(self):
        import torchinfo
        columns = "num_params,params_percent,kernel_size,trainable"  # what needs no input
        for name in self.NAMES + ("MHAKwargsNet",):
            for depth in (1, 99):
                want = str(torchinfo.summary(eager(name), col_names=columns.split(","),
                                             depth=depth, verbose=0)) + "\n"
                got = table_without_input(exported_with_notes(name), "--columns", columns,
                                          "--depth", str(depth))
                self.assertEqual(got, want, (name, depth))

    def pass_through(self):
        model = PassThrough().eval()
        x = torch.randn(4, 6)
        path, xfile = os.path.join(OUT, "pass-through.pt2"), os.path.join(OUT, "pass-through-x.pt")
        program = modrec.export(model, (x,), path)
        self.assertIsInstance(program, torch.export.ExportedProgram)
        torch.save(x, xfile)
        return model, x, path, xfile

    def test_calls_that_run_no_operator(self):
        import torchinfo
        model, x, path, xfile = self.pass_through()
        columns = ["input_size", "output_size", "num_params"]
        want = str(torchinfo.summary(model, input_data=x, col_names=columns, verbose=0)) + "\n"
        # torchinfo's unit as its reference outputs write it (scripts/torchinfo_table.py, unit_value)
        want = want.replace("(Units.MEGABYTES)", "(M)")
        out, err = run("summary", path, "--input", xfile, "--columns", ",".join(columns))
        self.assertEqual(out, want)
        self.assertEqual(err, "")

    def assert_equal_eager_hooks(self, out, model, inputs, captures=CAPTURES, skip=()):
        """Each capture of every layer of the run `out` equals eager hooks' on `model` (the loss:
        the sum of its result), but those `skip` names as (path, capture). Returns the
        manifest's layers."""
        hooks = oracle.RecordCapture(set(range(100)))  # every call
        rows, result = oracle.trace(model, inputs, True, capture=hooks)
        result.sum().backward()
        with open(os.path.join(out, "manifest.json")) as f:
            layers = json.load(f)["layers"]
        called = [r for r in rows if r.call_index is not None]
        self.assertEqual([l["path"] for l in layers], [r.path for r in called])
        for layer, row in zip(layers, called):
            for capture in captures:
                if (row.path, capture) in skip:
                    continue
                got = load_pt(os.path.join(out, "tensors", layer["label"], capture + ".pt"))
                want = [t for t in hooks.calls[row.call_index][capture] if t is not None]
                got = [t for t in got if isinstance(t, torch.Tensor)]
                self.assertEqual(len(got), len(want), (layer["label"], capture))
                for g, w in zip(got, want):
                    self.assertTrue(torch.allclose(g, w, rtol=1e-5, atol=1e-6),
                                    (layer["label"], capture))
        return layers

    def test_captures_of_calls_that_run_no_operator_equal_eager_hooks(self):
        # skip, an Identity, returns stem's result, which the graph uses once (blocks.0's relu):
        # that use is the Identity's result's, so its gradients are told, none refused.
        model, x, path, xfile = self.pass_through()
        layers = self.assert_equal_eager_hooks(self.record(path, [xfile]), model, (x,))
        self.assertEqual([l["path"] for l in layers if any("no_gradient" in c for c in
                                                            l["captures"].values())], [])

    def gradients_against_eager_hooks(self, name, skip):
        """Records the gradients of every layer of `name`'s modrec.export archive, checks those
        not in `skip` against eager hooks; (run directory, stderr, the manifest's layers, the
        refused gradients by (label, capture))."""
        out = os.path.join(tempfile.mkdtemp(prefix="rec-"), "run")
        self.addCleanup(shutil.rmtree, os.path.dirname(out))
        _, err = run("record", exported_with_notes(name), "--input", sample_input(name),
                     "--layers", "all", "--capture", "grad_input,grad_output", "--out", out)
        layers = self.assert_equal_eager_hooks(
            out, eager(name), oracle.load_inputs(name, [sample_input(name)]),
            ("grad_input", "grad_output"), skip=skip)
        refused = {(l["label"], c): e["no_gradient"] for l in layers
                   for c, e in l["captures"].items() if "no_gradient" in e}
        return out, err, layers, refused

    def test_gradients_of_an_identity_whose_argument_is_also_used_are_refused(self):
        # AliasingNet's `y = self.ident(h)`, then `... + y + h`: the archive has one value for
        # the Identity's argument and result (fc's), used three times, and which uses are the
        # result's is not told. Eager hooks see the result's gradient only; the graph would give
        # every use's. modrec refuses them (docs/export-notes.md, Not told).
        name = "AliasingNet"
        # Every other gradient is eager hooks', Twice's grad_output too: it returns y at two
        # places, which modrec.export makes two graph values (y and an alias of it), each place
        # with its own gradient.
        out, err, layers, refused = self.gradients_against_eager_hooks(
            name, {("ident", "grad_input"), ("ident", "grad_output")})
        with open(os.path.join(out, "stats.json")) as f:
            stats = json.load(f)["layers"]
        ident = next(l["label"] for l in layers if l["path"] == "ident")
        untold = {(ident, "grad_input"), (ident, "grad_output")}
        self.assertEqual(set(refused), untold)
        reason = refused[(ident, "grad_input")][0]["reason"]
        self.assertIn("ident's argument and result are one value of the .pt2 graph", reason)
        self.assertIn("used 3 times", reason)
        for capture in ("grad_input", "grad_output"):
            self.assertEqual(refused[(ident, capture)], [{"at": "", "through": [], "reason": reason}])
            self.assertFalse(os.path.exists(os.path.join(out, "tensors", ident, capture + ".pt")))
        for layer, layer_stats in zip(layers, stats):
            self.assertEqual(layer_stats.get("no_gradient", {}),
                             {c: e["no_gradient"] for c, e in layer["captures"].items()
                              if "no_gradient" in e})
        warnings = [l for l in err.splitlines() if "not recorded" in l]
        self.assertEqual(len(warnings), 1)
        self.assertTrue(warnings[0].startswith(
            "modrec: warning: 2 gradients not recorded, listed under no_gradient in "
            "manifest.json and stats.json: "), warnings[0])
        self.assertIn(reason, warnings[0])
        # check and diff list them as not recorded, neither failing them nor passing them as 0.
        report = json.loads(run("check", out, "--format", "json")[0])
        self.assertEqual({(n["label"], n["element"]) for n in report["not_recorded"]}, untold)
        self.assertEqual({n["reason"] for n in report["not_recorded"] if n["label"] == ident},
                         {reason})
        self.assertIn(f"not recorded: {ident} ident grad_input: {reason}", run("check", out)[0])
        scripted = self.record(sample(name), [sample_input(name)],
                               captures=("grad_input", "grad_output"))
        self.addCleanup(shutil.rmtree, os.path.dirname(scripted))
        diff = json.loads(run("diff", scripted, out, "--format", "json", code=None)[0])
        not_recorded = {(t["label"], t["capture"]): t for t in diff["tensors"] if t["not_recorded"]}
        self.assertEqual(set(not_recorded), untold)
        for t in not_recorded.values():
            self.assertEqual(t["not_recorded"], "no gradient in RUN_B: " + reason)
            self.assertTrue(t["passed"])

    def test_input_gradients_of_a_call_given_one_tensor_several_times_are_refused(self):
        # TransformerEncoderLayer's self_attn(x, x, x): eager hooks see the gradient of each of
        # the three arguments apart; the archive has one value, whose gradient sums them. modrec
        # refuses those grad_input, each of the three arguments' (its signature in the archive
        # gives the call its three arguments; docs/export-notes.md, Not told); every other
        # gradient, the attention's grad_output included, is eager hooks'.
        attention = [f"encoder.layers.{i}.self_attn" for i in range(2)]
        _, err, layers, refused = self.gradients_against_eager_hooks(
            "TransformerEncoderNet", {(p, "grad_input") for p in attention})
        # layer 0's attention takes the model's input, which needs no gradient: nothing to refuse
        second = next(l["label"] for l in layers if l["path"] == attention[1])
        self.assertEqual(set(refused), {(second, "grad_input")})
        reason = (attention[1] + " is given one tensor several times, one value of the .pt2 "
                  "graph: its gradient would sum every argument's, where eager hooks see each apart")
        self.assertEqual(refused[(second, "grad_input")],
                         [{"at": str(i), "through": [], "reason": reason} for i in range(3)])
        self.assertIn("3 gradients not recorded, listed under no_gradient in manifest.json and "
                      "stats.json: " + reason, err)

    def test_captures_equal_eager_hooks(self):
        # MultiOutputDictNet: its submodule's dict, in eager forward's structure; NotedCallsNet:
        # the LSTM's hx=None and MultiheadAttention's flags among the calls' inputs, its
        # (output, weights) and the LSTM's (output, (h_n, c_n)) as eager forward returned them
        for name in self.NAMES + ("MHAKwargsNet",):
            with self.subTest(name):
                self.compare(name, [sample_input(name)], model=exported_with_notes(name),
                             weights=sample(name), captures=NOTED_CAPTURES.get(name, CAPTURES),
                             refused=NOTED_REFUSED.get(name, ()))

    def damaged(self, change):
        """A copy of ModuleListNet's archive with its notes' text changed by `change`."""
        import zipfile
        src = exported_with_notes("ModuleListNet")
        path = os.path.join(OUT, "damaged.pt2")
        with zipfile.ZipFile(src) as z, zipfile.ZipFile(path, "w") as out:
            for info in z.infolist():
                data = z.read(info)
                if info.filename.endswith("extra/modrec-notes.json"):
                    data = change(data.decode()).encode()
                out.writestr(info, data)
        return path

    def test_damaged_or_foreign_notes_are_one_warning_and_the_program_alone(self):
        name = "ModuleListNet"
        unknown = lambda table: re.sub(r"ModuleList: (\S+)", r"Module: \1    ", table)
        for change in (lambda t: t[: len(t) // 2], lambda t: t.replace('"version":1', '"version":9'),
                       lambda t: t.replace('"blocks"', '"other"')):
            path = self.damaged(change)
            out, err = run("summary", path, "--input", sample_input(name))
            # one warning about the notes, then today's table and today's warning
            self.assertEqual(out, unknown(torchinfo_table(name, "--input", sample_input(name))))
            self.assertEqual(err.count("modrec-notes.json is ignored"), 1, err)
            self.assertEqual(len(err.strip().splitlines()), 2, err)
            self.assertIn("modrec.export keeps them", err.strip().splitlines()[1])

    def test_without_notes_the_warning_names_modrec_export(self):
        err = run("summary", exported("ModuleListNet"))[1]
        self.assertIn("modrec.export", err)


class RecordMatchesPyTorch(RecordComparison):
    def test_captures_equal_eager_hooks(self):
        # MultiOutputDictNet: a dict out of the root (forward's structure is in the archive) and
        # out of a submodule (its values, in the order made). Not SeqClassifier: its LSTM call's
        # hx=None is no value of the graph (docs/pt2.md).
        for name in ("TinyConvNet", "ReusedModuleNet", "TwoInputNet", "MultiOutputDictNet",
                     "resnet18"):
            self.compare(name, [sample_input(name)], model=exported(name), weights=sample(name))

    def test_parameter_gradients_equal_autograd(self):
        name = "TinyConvNet"
        out = self.record(exported(name), [sample_input(name)], captures=("param_grad",))
        model = eager(name)
        model(*oracle.load_inputs(name, [sample_input(name)])).sum().backward()
        for path, module in model.named_modules():
            for pname, p in module.named_parameters(recurse=False):
                label = self.label_of(out, path)
                got = torch.load(os.path.join(out, "tensors", label, f"param_grad.{pname}.pt"))
                self.assertTrue(torch.allclose(got, p.grad, rtol=1e-5, atol=1e-6), (path, pname))

    @staticmethod
    def label_of(out, path):
        with open(os.path.join(out, "manifest.json")) as f:
            return next(l["label"] for l in json.load(f)["layers"] if l["path"] == path)


class GraphMatchesEagerDataFlow(GraphCase):
    def test_edges_at_every_depth(self):
        # scripts/graph_oracle.py on the eager model: a skip connection and downsample
        # (resnet18), in-place ReLUs, a module called several times, two inputs, two outputs,
        # integer tokens, cat and an in-place skip (BranchNet). Not AliasingNet: its Identity
        # runs no operator, so the archive has no call of it (docs/pt2.md).
        for name in ("resnet18", "TinyConvNet", "ReusedModuleNet", "TwoInputNet",
                     "MultiOutputNet", "BranchNet"):
            with self.subTest(name):
                self.compare(name, [sample_input(name)], model=exported(name))


class NotedGraphMatchesEagerDataFlow(GraphCase):
    def test_edges_at_every_depth(self):
        # modrec.export's archives: the calls' arguments as eager forward got them (an LSTM's
        # hx=None, attention's three inputs and flags), a Dropout in eval, a ModuleList. Not
        # AliasingNet: its Identity's result and argument are one graph value (NOTED_CAPTURES).
        for name in ("NotedCallsNet", "SeqClassifier", "ModuleListNet"):
            with self.subTest(name):
                self.compare(name, [sample_input(name)], model=exported_with_notes(name))


def splitting_limit(values):
    """A limit between two of the values, near their middle where neighbours differ most, so
    that some break it and some do not, none within rounding of it."""
    v = sorted(set(values))
    i = max(range(len(v) // 4 + 1, 3 * len(v) // 4 + 1), key=lambda i: v[i] / max(v[i - 1], 1e-30))
    return (v[i - 1] + v[i]) / 2


class CheckMatchesEagerHooks(unittest.TestCase):
    """`check MODEL` on an archive breaks exactly the limits that eager hooks' tensors break, with
    their statistics as the values (TinyConvNet: conv, BatchNorm, in-place ReLU, MaxPool2d)."""
    NAME = "TinyConvNet"
    CAPTURES = ("output", "grad_output")

    def eager_stats(self, x):
        """The eager calls' labels and {(label, capture, tensor index): {rule: statistic}}."""
        ref = e2e.oracle("record", self.NAME, "--weights", sample(self.NAME), "--input", x,
                         "--labels", "all")
        self.addCleanup(shutil.rmtree, os.path.dirname(ref))
        with open(os.path.join(ref, "index.json")) as f:
            labels = [l["label"] for l in json.load(f)["layers"]]
        stats = {}
        for label, capture in ((l, c) for l in labels for c in self.CAPTURES):
            for i, t in enumerate(load_pt(os.path.join(ref, label, capture + ".pt"))):
                if t is None:  # a gradient that never arrived: no tensor to check
                    continue
                d = t.double()
                stats[(label, capture, i)] = {
                    "no-nan": d.isnan().sum().item(), "max-abs": d.abs().max().item(),
                    "min-std": d.std().item(), "max-zero-fraction": (d == 0).double().mean().item()}
        return labels, stats

    def check(self, x, limits):
        """modrec check's violations {(label, capture, tensor, rule): value} and eager PyTorch's
        under `limits` (no-nan: on, limit 0)."""
        labels, stats = self.eager_stats(x)
        limits = dict(limits, **{"no-nan": 0})
        broken = lambda rule, value: value < limits[rule] if rule == "min-std" else value > limits[rule]
        want = {(*key, rule): s[rule] for key, s in stats.items() for rule in limits
                if broken(rule, s[rule])}
        flags = [a for rule, limit in limits.items() if rule != "no-nan" for a in (f"--{rule}", limit)]
        out = json.loads(run("check", exported(self.NAME), "--input", x, "--layers", "all",
                             "--captures", ",".join(self.CAPTURES), "--format", "json", *flags,
                             code=1 if want else 0)[0])
        self.assertEqual((out["layers_checked"], out["tensors_checked"]), (len(labels), len(stats)))
        got = {(v["label"], v["capture"], v["tensor"], v["rule"]): v["value"]
               for v in out["violations"]}
        self.assertEqual(set(got), set(want))
        for key, value in got.items():
            self.assertTrue(math.isclose(value, want[key], rel_tol=1e-5, abs_tol=1e-7), key)
        return want

    def test_limits_that_some_tensors_break(self):
        x = sample_input(self.NAME)
        stats = self.eager_stats(x)[1].values()
        limits = {rule: splitting_limit([s[rule] for s in stats])
                  for rule in ("max-abs", "min-std", "max-zero-fraction")}
        self.assertEqual({key[3] for key in self.check(x, limits)}, set(limits))

    def test_nan_counts(self):
        # One NaN in the input: the outputs it reaches, with as many NaNs as eager's.
        x = torch.load(sample_input(self.NAME))
        x.view(-1)[5] = float("nan")
        path = os.path.join(OUT, "nan-input.pt")
        torch.save(x, path)
        self.assertTrue(self.check(path, {}))


class FlopsMatchFlopCounterMode(unittest.TestCase):
    def test_resnet18(self):
        name = "resnet18"
        got = json.loads(run("summary", exported(name), "--input", sample_input(name), "--columns",
                             "output_size,flops", "--depth", "99", "--format", "json")[0])
        want = flop_oracle(name)
        self.assertEqual(per_path(got["rows"], "flops_forward"), want["forward"])
        self.assertEqual(per_path(got["rows"], "flops_backward"), want["backward"])


class TiedEmbeddings(torch.nn.Module):
    """Hugging Face T5's tying (transformers 5): `shared`, `encoder.embed_tokens` and
    `decoder.embed_tokens` are three Embeddings holding one weight; `shared` is never called."""

    def __init__(self):
        super().__init__()
        self.shared = torch.nn.Embedding(50, 16)
        self.encoder = torch.nn.Sequential(torch.nn.Embedding(50, 16), torch.nn.Linear(16, 16))
        self.decoder = torch.nn.Sequential(torch.nn.Embedding(50, 16), torch.nn.Linear(16, 16))
        self.encoder[0].weight = self.decoder[0].weight = self.shared.weight

    def forward(self, ids):
        return self.encoder(ids) + self.decoder(ids)


class WeightsAsTorchinfoCountsThem(RecordComparison):
    """Tied weights and parametrizations: Param #, Param %, Trainable and the totals are
    torchinfo's, in .pt2 archives (plain and with modrec.export's notes) and TorchScript files;
    in archives every column is, a parametrization's captures are eager hooks'."""

    ALL_COLUMNS = "input_size,output_size,num_params,params_percent,kernel_size,mult_adds,trainable"
    # A traced file keeps neither a parametrized convolution's kernel_size nor the order of a
    # parametrization's arguments (docs/summary.md): its Kernel and Input Shape are left out.
    COLUMNS = "output_size,num_params,params_percent,mult_adds,trainable"

    @classmethod
    def setUpClass(cls):
        torch.manual_seed(0)
        cls.models = {"tied": TiedEmbeddings().eval(), "reparametrized": models.build("ReparametrizedNet")}
        cls.inputs = {"tied": torch.randint(0, 50, (2, 5)), "reparametrized": torch.randn(2, 4, 10)}
        cls.files = {}
        for name, model in cls.models.items():
            x = cls.inputs[name]
            torch.save(x, os.path.join(OUT, name + ".input.pt"))
            plain = os.path.join(OUT, name + ".pt2")
            torch.export.save(torch.export.export(model, (x,)), plain)
            noted = os.path.join(OUT, name + ".notes.pt2")
            modrec.export(model, (x,), noted)
            script = os.path.join(OUT, name + ".pt")  # parametrizations do not script: traced
            (torch.jit.script(model) if name == "tied" else torch.jit.trace(model, (x,))).save(script)
            cls.files[name] = (plain, noted, script)

    def torchinfo(self, name, depth, columns):
        import torchinfo
        with_input = "output_size" in columns
        table = torchinfo.summary(self.models[name], depth=depth, verbose=0,
                                  col_names=columns.split(","),
                                  input_data=[self.inputs[name]] if with_input else None)
        return str(table).replace("(Units.MEGABYTES)", "(M)") + "\n"

    def test_tables_with_an_input(self):
        for name, files in self.files.items():
            x = os.path.join(OUT, name + ".input.pt")
            for path in files:
                columns = self.ALL_COLUMNS if path.endswith(".pt2") else self.COLUMNS
                for depth in (1, 3, 99):
                    with self.subTest(path=path, depth=depth):
                        mine = run("summary", path, "--input", x, "--columns", columns,
                                   "--depth", depth)[0]
                        want = self.torchinfo(name, depth, columns)
                        if path.endswith(".pt2") and not path.endswith(".notes.pt2"):
                            # a container never called has no class in a plain archive
                            want = re.sub(r"ModuleDict: (\S+)", r"Module: \1    ", want)
                        self.assertEqual(mine, want)

    def test_a_parametrizations_captures_are_eager_hooks(self):
        # _WeightNorm(g, v) is given its ParametrizationList's parameters: its input (in plain
        # archives too, in named_parameters() order) and their gradients.
        x = os.path.join(OUT, "reparametrized.input.pt")
        for path in self.files["reparametrized"][:2]:
            with self.subTest(path):
                self.compare("ReparametrizedNet", [x], model=path, weights=path)

    def test_a_tied_weight_counts_once(self):
        # torchinfo on T5 (transformers 5): 54,208 parameters where each name's count sums to
        # 60,608; here 2,144 where the three embeddings' names hold 2,944.
        x = os.path.join(OUT, "tied.input.pt")
        for path in self.files["tied"]:
            out = run("summary", path, "--input", x)[0]
            self.assertIn("Total params: 2,144\n", out, path)

    def test_a_tied_weights_gradient_is_the_sum_of_every_use(self):
        # one tensor under each FQN of the archive, as one nn.Parameter in eager PyTorch
        model, x = self.models["tied"], self.inputs["tied"]
        model.zero_grad()
        model(x).sum().backward()
        out = os.path.join(OUT, "tied-grads")
        run("record", self.files["tied"][0], "--input", os.path.join(OUT, "tied.input.pt"),
            "--layers", "type:Embedding", "--capture", "param_grad", "--loss", "sum", "--out", out)
        for label in ("2-1", "2-3"):  # encoder.0, decoder.0
            got = torch.load(os.path.join(out, "tensors", label, "param_grad.weight.pt"))
            torch.testing.assert_close(got, model.shared.weight.grad, msg=label)

    def test_tables_without_an_input(self):
        # every module, `shared` included (TorchScript's is the static call order: no `shared`);
        # a parametrized convolution's kernel from its computed weight's shape in the program
        columns = "num_params,params_percent,kernel_size,trainable"
        for name in self.files:
            mine = table_without_input(self.files[name][1], "--columns", columns, "--depth", "99")
            self.assertEqual(mine, self.torchinfo(name, 99, columns), name)


class StaticInputSizes(unittest.TestCase):
    def test_a_static_size_other_than_the_exports_is_exit_2(self):
        # TinyConvNet exported at batch 2: batch 3 is refused before anything runs, as
        # ExportedProgram.module() refuses it ("Guard failed: x.size()[0] == 2"), where LibTorch
        # would fail inside a node with a shape error (exit 4).
        path = os.path.join(OUT, "batch3.pt")
        x = torch.randn(3, 3, 16, 16)
        torch.save(x, path)
        with self.assertRaisesRegex(Exception, r"x.size\(\)\[0\] == 2"):
            torch.export.load(exported("TinyConvNet")).module()(x)
        for command in (["summary"], ["record", "--layers", "all", "--out", os.path.join(OUT, "r")]):
            err = run(*command[:1], exported("TinyConvNet"), "--input", path, *command[1:],
                      code=2)[1]
            self.assertEqual(len(err.strip().splitlines()), 1, err)
            self.assertIn("error: input x: dimension 0 is 3, where the program was exported for 2",
                          err)
        self.assertFalse(os.path.exists(os.path.join(OUT, "r")))


class LongWarnings(unittest.TestCase):
    def test_a_warning_listing_modules_is_short_unless_verbose_or_json(self):
        # 40 Identities: no class, no call in a plain archive; the warning names the first few
        model = torch.nn.Sequential(*[torch.nn.Identity() for _ in range(40)], torch.nn.Linear(4, 4))
        path = os.path.join(OUT, "identities.pt2")
        torch.export.save(torch.export.export(model, (torch.randn(2, 4),)), path)
        err = run("summary", path)[1]
        line = next(l for l in err.splitlines() if "run no operator" in l)
        self.assertLessEqual(len(line) - len(path), 200, line)
        self.assertIn("(40): 0, 1, 2, 3", line)
        self.assertIn("more (-v: all)", line)
        for flags in (["-v"], ["--log-format", "json"]):
            err = run(*flags, "summary", path)[1]
            line = next(l for l in err.splitlines() if "run no operator" in l)
            self.assertIn(", ".join(map(str, range(40))) + ";", line, flags)


class BadArchives(unittest.TestCase):
    def test_truncated_archive_is_exit_3(self):
        data = open(exported("TinyConvNet"), "rb").read()
        path = os.path.join(OUT, "truncated.pt2")
        open(path, "wb").write(data[: len(data) // 2])
        err = run("summary", path, code=3)[1]
        self.assertEqual(len(err.strip().splitlines()), 1, err)
        self.assertIn(path, err)


if __name__ == "__main__":
    main()

"""torch.export archives with higher-order operators (a no_grad block, a bfloat16 autocast block,
torch.cond, while_loop, map, a team's mutating operator under auto_functionalized_v2) and tiny random-weight Hugging Face decoder LLMs (Llama, Mistral, Gemma, GPT-NeoX:
their rotary embedding runs under @torch.no_grad()), against eager PyTorch on the same weights:
summary's table is torchinfo's with and without an input, record's captures are eager hooks',
parameter gradients torch.autograd's, the flops column FlopCounterMode's. Dynamic exports run at
sizes inside their range_constraints and refuse one outside (exit 2). Decoders exported by
modrec.export: tables with the ModuleList typed, captures. The models are in scripts/models.py
(EXPORT_MODELS), exported once per class into a temporary directory."""
import json
import os
import re
import shutil
import sys
import tempfile
import unittest

import torch

import e2e
from e2e import ROOT, run, main
from test_flops import per_path
from test_record_oracle import RecordComparison

sys.path.insert(0, os.path.join(ROOT, "scripts"))
import flop_oracle  # noqa: E402
import models  # noqa: E402

DECODERS = ("Llama", "Mistral", "Gemma", "GPTNeoX")
BLOCKS = ("NoGradBlockNet", "NestedNoGradNet", "AutocastBlockNet", "CondNet", "WhileLoopNet",
          "MapNet")
# Exported strict: non-strict export writes no nn_module_stack in these operators' subgraphs
# (models.py's CondNet), so the modules they call would have no rows. NestedNoGradNet's no_grad
# block, exported strict, has a node whose stack is shorter than its subgraph's (the calls around
# it split into three each, before call_plan's running_stack).
STRICT = ("CondNet", "WhileLoopNet", "MapNet", "NestedNoGradNet")


def export(name, path, dynamic_shapes=None, inputs=None):
    """models.py's `name` exported (strict for STRICT) and saved as `path`."""
    ep = torch.export.export(models.build(name), inputs or models.example_inputs(name),
                             dynamic_shapes=dynamic_shapes, strict=name in STRICT)
    torch.export.save(ep, path)
    return path


def save(out, tag, value):
    path = os.path.join(out, tag + ".pt")
    torch.save(value, path)
    return path


def torchinfo_table(name, weights, *extra):
    return e2e.torchinfo_table(name, "--weights", weights, *extra)


def untyped(table):
    """A container never called (a decoder's `layers` ModuleList) has no class in the archive:
    shown as Module (README, torch.export archives)."""
    return re.sub(r"ModuleList: (\S+)", r"Module: \1    ", table)


class Exported(unittest.TestCase):
    NAMES = ()

    @classmethod
    def setUpClass(cls):
        cls.out = tempfile.mkdtemp(prefix="pt2-hop-")
        cls.paths = {name: export(name, os.path.join(cls.out, name + ".pt2"))
                     for name in cls.NAMES}
        cls.inputs = {name: save(cls.out, name, models.example_inputs(name)[0])
                      for name in cls.NAMES}

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.out, True)


class SummaryMatchesTorchinfo(Exported):
    NAMES = DECODERS + BLOCKS

    def test_tables_with_an_input_at_two_depths(self):
        for name in self.NAMES:
            for depth in ("2", "4"):
                with self.subTest(name, depth=depth):
                    args = ("--input", self.inputs[name], "--depth", depth)
                    mine, err = run("summary", self.paths[name], *args)
                    want = torchinfo_table(name, self.paths[name], *args)
                    self.assertEqual(mine, untyped(want))
                    if name in DECODERS:  # embeddings, attention, the rotary's device="cpu"
                        self.assertNotIn("the pass on the meta device", err)

    def test_tables_without_an_input_at_two_depths(self):
        import torchinfo
        for name in self.NAMES:
            for depth in (2, 4):
                with self.subTest(name, depth=depth):
                    out = run("summary", self.paths[name], "--depth", str(depth))[0]
                    table = out.partition("\nForward signature: forward(")[0]
                    want = str(torchinfo.summary(models.build(name), depth=depth, verbose=0))
                    self.assertEqual(table, untyped(want) + "\n")

    def test_cond_takes_each_branch(self):
        # CondNet: torch.cond on the input's sum; the other sign runs the other branch's modules.
        name = "CondNet"
        x = save(self.out, "negated", -models.example_inputs(name)[0])
        for inp in (self.inputs[name], x):
            mine = run("summary", self.paths[name], "--input", inp, "--depth", "3")[0]
            self.assertEqual(mine, torchinfo_table(name, self.paths[name], "--input", inp,
                                                   "--depth", "3"))


class RecordMatchesPyTorch(RecordComparison):
    NAMES = ("Llama", "GPTNeoX") + BLOCKS

    @classmethod
    def setUpClass(cls):
        Exported.setUpClass.__func__(cls)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.out, True)

    def test_captures_equal_eager_hooks(self):
        # A decoder's calls get keyword arguments export froze (attention_mask=None, ...): no
        # value of the graph, so its calls' inputs are left out (README, torch.export archives).
        for name in self.NAMES:
            with self.subTest(name):
                captures = ("output", "grad_output") if name in DECODERS else \
                    ("input", "output", "grad_input", "grad_output")
                self.compare(name, [self.inputs[name]], model=self.paths[name],
                             weights=self.paths[name], rtol=1e-4, atol=1e-5, captures=captures)

    def test_cond_branch_not_taken_at_export(self):
        name = "CondNet"
        x = save(self.out, "negated", -models.example_inputs(name)[0])
        self.compare(name, [x], model=self.paths[name], weights=self.paths[name])

    def test_parameter_gradients_equal_autograd(self):
        # NoGradBlockNet: `b` runs under no_grad, so it gets no gradient, and `a` only the one
        # through the skip around `b`.
        for name in BLOCKS + ("Llama",):
            with self.subTest(name):
                out = self.record(self.paths[name], [self.inputs[name]], captures=("param_grad",))
                self.addCleanup(shutil.rmtree, os.path.dirname(out))
                model = models.build(name)
                model(*models.example_inputs(name)).sum().backward()
                labels = {}  # a module's parameters go under its first call's label (while_loop's)
                with open(os.path.join(out, "manifest.json")) as f:
                    for layer in json.load(f)["layers"]:
                        labels.setdefault(layer["path"], layer["label"])
                for path, module in model.named_modules():
                    for pname, p in module.named_parameters(recurse=False):
                        if path not in labels:  # never called (CondNet's other branch)
                            self.assertIsNone(p.grad, (name, path))
                            continue
                        f = os.path.join(out, "tensors", labels[path], f"param_grad.{pname}.pt")
                        if p.grad is None:
                            self.assertFalse(os.path.exists(f) and torch.load(f).count_nonzero(),
                                             (name, path, pname))
                            continue
                        got = torch.load(f)
                        self.assertTrue(torch.allclose(got, p.grad, rtol=1e-4, atol=1e-6),
                                        (name, path, pname, (got - p.grad).abs().max().item()))


class ExportedWithNotes(RecordComparison):
    """Decoders exported by modrec.export (python/modrec): the tables with an input are
    torchinfo's, their never-called `layers` ModuleList typed; captures equal eager hooks'. The
    calls' inputs too: export runs transformers' mask code, which makes an attention mask tensor
    where eager forward passes None; the archive's call signatures give each argument by name,
    so a call's recorded input is eager's, None included (docs/export-notes.md)."""
    NAMES = ("Llama", "GPTNeoX")

    @classmethod
    def setUpClass(cls):
        sys.path.insert(0, os.path.join(ROOT, "python"))
        import modrec
        cls.out = tempfile.mkdtemp(prefix="pt2-hop-notes-")
        cls.paths, cls.inputs = {}, {}
        for name in cls.NAMES:
            cls.paths[name] = os.path.join(cls.out, name + ".notes.pt2")
            modrec.export(models.build(name), models.example_inputs(name), cls.paths[name])
            cls.inputs[name] = save(cls.out, name, models.example_inputs(name)[0])

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.out, True)

    def test_tables_with_an_input(self):
        for name in self.NAMES:
            for depth in ("2", "99"):
                with self.subTest(name, depth=depth):
                    args = ("--input", self.inputs[name], "--depth", depth)
                    out, err = run("summary", self.paths[name], *args)
                    self.assertEqual(out, torchinfo_table(name, self.paths[name], *args))
                    self.assertNotIn("modrec-notes", err)

    def test_captures_equal_eager_hooks(self):
        name = "Llama"
        self.compare(name, [self.inputs[name]], model=self.paths[name], weights=self.paths[name],
                     rtol=1e-4, atol=1e-5)


class FlopsMatchFlopCounterMode(Exported):
    NAMES = ("Llama", "NoGradBlockNet", "AutocastBlockNet", "WhileLoopNet", "MapNet")

    def test_flops_per_module(self):
        for name in self.NAMES:
            with self.subTest(name):
                got = json.loads(run("summary", self.paths[name], "--input", self.inputs[name],
                                     "--columns", "output_size,flops", "--depth", "99",
                                     "--format", "json")[0])
                want = flop_oracle.count(name)
                self.assertEqual(per_path(got["rows"], "flops_forward"), want["forward"])
                self.assertEqual(per_path(got["rows"], "flops_backward"), want["backward"])


class DynamicShapes(unittest.TestCase):
    """Llama exported with named Dims (batch 1..4, sequence 2..32) and with Dim.AUTO."""

    @classmethod
    def setUpClass(cls):
        from torch.export import Dim
        cls.out = tempfile.mkdtemp(prefix="pt2-dyn-")
        named = {0: Dim("batch", min=1, max=4), 1: Dim("seq", min=2, max=32)}
        auto = {0: Dim.AUTO, 1: Dim.AUTO}
        ids = models.example_inputs("Llama")[0].repeat(2, 1)  # 2 x 8: no size 0 or 1
        cls.named = export("Llama", os.path.join(cls.out, "named.pt2"), {"ids": named}, (ids,))
        cls.auto = export("Llama", os.path.join(cls.out, "auto.pt2"), {"ids": auto}, (ids,))

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.out, True)

    def ids(self, *shape):
        return save(self.out, "ids" + "x".join(map(str, shape)),
                    torch.randint(0, 64, shape, generator=torch.Generator().manual_seed(1)))

    def test_sizes_inside_the_range_run_at_those_sizes(self):
        for path in (self.named, self.auto):
            for shape in ((3, 12), (2, 5)):
                with self.subTest(path, shape=shape):
                    x = self.ids(*shape)
                    mine = run("summary", path, "--input", x, "--depth", "3")[0]
                    self.assertEqual(mine, untyped(torchinfo_table("Llama", path, "--input", x,
                                                                   "--depth", "3")))

    def test_a_size_outside_the_range_is_exit_2(self):
        err = run("summary", self.named, "--input", self.ids(2, 40), code=2)[1]
        self.assertEqual(len([l for l in err.splitlines() if "error" in l]), 1, err)
        self.assertIn("input ids: dimension 1 is 40, outside the range [2, 32]", err)
        err = run("record", self.named, "--input", self.ids(5, 8), "--layers", "all", "--out",
                  os.path.join(self.out, "rec"), code=2)[1]
        self.assertIn("input ids: dimension 0 is 5, outside the range [1, 4]", err)
        self.assertFalse(os.path.exists(os.path.join(self.out, "rec")))
        # Dim.AUTO: export specializes sizes 0 and 1, so a dynamic dimension starts at 2.
        err = run("summary", self.auto, "--input", self.ids(1, 8), code=2)[1]
        self.assertIn("input ids: dimension 0 is 1, outside the range [2, inf]", err)


class FoldNet(torch.nn.Module):
    """Sizes computed from a dynamic dimension: the export writes them as Python operators on
    ints (_operator.mul, floordiv, sub)."""

    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(8, 8)

    def forward(self, x):
        b, t, c = x.shape
        y = self.fc(x).reshape(b * t // 2, 2 * c)
        return y[: (t - 1) * b // 2]


class SizeArithmetic(unittest.TestCase):
    def test_sizes_computed_from_a_dynamic_dimension_are_eagers(self):
        from torch.export import Dim
        import torchinfo
        from torchinfo.enums import Units
        Units.__format__ = lambda unit, spec: format(unit.value, spec)  # test_summary_meta.py
        out = tempfile.mkdtemp(prefix="pt2-fold-")
        self.addCleanup(shutil.rmtree, out, True)
        torch.manual_seed(0)
        m = FoldNet().eval()
        t = Dim("t", min=2, max=64)
        ep = torch.export.export(m, (torch.randn(2, 6, 8),), dynamic_shapes={"x": {1: 2 * t}})
        path = os.path.join(out, "fold.pt2")
        torch.export.save(ep, path)
        for steps in (6, 10):
            with self.subTest(steps=steps):
                x = torch.randn(2, steps, 8)  # the batch was exported static
                table = run("summary", path, "--input", save(out, f"x{steps}", x))[0]
                want = str(torchinfo.summary(m, input_data=[x], verbose=0, mode="eval")) + "\n"
                self.assertEqual(table, want)


AXPY_CPP = """\
#include <ATen/ATen.h>
#include <torch/library.h>

// x += alpha * y in place: an operator that mutates its argument (Tensor(a!)), which an export's
// inference IR (run_decompositions) wraps in auto_functionalized_v2.
void axpy_(at::Tensor& x, const at::Tensor& y, double alpha) { x.add_(y, alpha); }
void axpy_meta(at::Tensor&, const at::Tensor&, double) {}

TORCH_LIBRARY(hopops, m) { m.def("axpy_(Tensor(a!) x, Tensor y, float alpha) -> ()"); }
TORCH_LIBRARY_IMPL(hopops, CompositeExplicitAutograd, m) { m.impl("axpy_", axpy_); }
TORCH_LIBRARY_IMPL(hopops, Meta, m) { m.impl("axpy_", axpy_meta); }
"""


class AxpyNet(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(4, 4)
        self.act = torch.nn.Tanh()

    def forward(self, x):
        y = self.fc(x).clone()
        torch.ops.hopops.axpy_(y, x, 2.0)
        return self.act(y)


class AutoFunctionalized(RecordComparison):
    """A team's mutating operator in a decomposed export: auto_functionalized_v2 runs it on a copy
    of its argument's base, as eager PyTorch runs it in place."""

    @classmethod
    def setUpClass(cls):
        from test_shipped_files import operator_library
        cls.library = operator_library("hopops", AXPY_CPP)
        torch.ops.load_library(cls.library)
        cls.out = tempfile.mkdtemp(prefix="pt2-af-")
        torch.manual_seed(0)
        cls.model, cls.x = AxpyNet().eval(), torch.randn(3, 4)
        ep = torch.export.export(cls.model, (cls.x,)).run_decompositions()
        targets = [str(n.target) for n in ep.graph.nodes]
        assert "auto_functionalized_v2" in targets, targets
        cls.path = os.path.join(cls.out, "axpy.pt2")
        torch.export.save(ep, cls.path)
        cls.input = save(cls.out, "x", cls.x)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.out, True)

    def test_table_equals_torchinfo(self):
        import torchinfo
        out = run("summary", self.path, "--input", self.input, "--load-library", self.library)[0]
        want = str(torchinfo.summary(self.model, input_data=self.x, verbose=0)) + "\n"
        self.assertEqual(out, want.replace("(Units.MEGABYTES)", "(M)"))

    def test_captures_equal_eager_hooks(self):
        rec = self.record(self.path, [self.input], "--load-library", self.library,
                          captures=("input", "output"))
        self.addCleanup(shutil.rmtree, os.path.dirname(rec))
        seen = {}

        def hook(name):
            return lambda module, args, out: seen.__setitem__(name, (args[0], out))

        hooks = [m.register_forward_hook(hook(n)) for n, m in self.model.named_modules() if n]
        self.model(self.x)
        for h in hooks:
            h.remove()
        with open(os.path.join(rec, "manifest.json")) as f:
            labels = {l["path"]: l["label"] for l in json.load(f)["layers"]}
        for name, (want_in, want_out) in seen.items():
            folder = os.path.join(rec, "tensors", labels[name])
            self.assertTrue(torch.equal(torch.load(os.path.join(folder, "input.pt")), want_in))
            self.assertTrue(torch.equal(torch.load(os.path.join(folder, "output.pt")), want_out))

    def test_without_the_library_is_exit_3_naming_the_operator_and_what_to_load(self):
        err = run("summary", self.path, "--input", self.input, code=3)[1]
        self.assertEqual(len([l for l in err.splitlines() if "error" in l]), 1, err)
        self.assertIn("the operator torch.ops.hopops.axpy_.default is of namespace hopops", err)
        self.assertIn("--load-library", err)


class UnsupportedOperators(unittest.TestCase):
    def test_a_higher_order_operator_modrec_does_not_run_is_exit_3(self):
        from torch._higher_order_ops.scan import scan

        class Scan(torch.nn.Module):
            def forward(self, x):
                return scan(lambda c, t: (c + t, c * t), x[0], x[1:])[1]

        out = tempfile.mkdtemp(prefix="pt2-scan-")
        self.addCleanup(shutil.rmtree, out, True)
        path = os.path.join(out, "scan.pt2")
        torch.export.save(torch.export.export(Scan(), (torch.ones(3, 2),)), path)
        err = run("summary", path, "--input", save(out, "x", torch.ones(3, 2)), code=3)[1]
        self.assertEqual(len([l for l in err.splitlines() if "error" in l]), 1, err)
        self.assertRegex(err, r"cannot run node \S+ \(torch\.ops\.higher_order\.scan\): modrec "
                              r"does not run this higher-order operator")


if __name__ == "__main__":
    main()

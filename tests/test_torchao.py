"""torchao weight-only quantized models (issues 55 and 56), made here by the pinned torch and
torchao 0.18 on a tiny MLP: Int8WeightOnlyConfig, IntxWeightOnlyConfig(int4, PerGroup(32)) and
Float8WeightOnlyConfig.
- their state_dicts (tensor subclasses in the pickle): the table lists each subclass's inner
  tensors under the parameter's name with the class named, as torch.load(weights_only=True) reads
  them; check and diff cover them and say how many of the file's tensors they covered; an object
  holding tensors that modrec does not read is refused naming it, one holding none is named in a
  warning;
- their programs, both archive kinds: the subclass weights pickled in the archive (torch.export
  of the quantized model) and unwrapped by torchao's recipe (unwrap_tensor_subclass, saved by
  modrec.export): tables are torchinfo's of the eager model exported, records equal eager hooks'
  outputs, diff against the float program names the first call beyond tolerance; a subclass
  modrec does not know is one line naming it;
- a PT2E program whose quantize scale is 0: PyTorch's own run raises, and so does modrec's
  (exit 4, the node named)."""
import argparse
import atexit
import json
import os
import shutil
import sys
import tempfile
import unittest
import zipfile

import torch
import torchinfo
from torchinfo.enums import Units
from torchao.quantization import (Float8WeightOnlyConfig, Int8WeightOnlyConfig,
                                  IntxWeightOnlyConfig, quantize_)
from torchao.quantization.granularity import PerGroup
from torchao.utils import unwrap_tensor_subclass

from e2e import ROOT, main, run
from pt2e_fixtures import hooked_outputs

sys.path.insert(0, os.path.join(ROOT, "scripts"))
sys.path.insert(0, os.path.join(ROOT, "python"))
from torchinfo_table import unit_value  # noqa: E402
import modrec  # noqa: E402

TMP = tempfile.mkdtemp(prefix="torchao-")
atexit.register(shutil.rmtree, TMP, True)
CONFIGS = {
    "int8": Int8WeightOnlyConfig,
    "int4": lambda: IntxWeightOnlyConfig(weight_dtype=torch.int4, granularity=PerGroup(32)),
    "float8": Float8WeightOnlyConfig,
}


def path(name):
    return os.path.join(TMP, name)


class MLP(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = torch.nn.Linear(64, 32)
        self.relu = torch.nn.ReLU()
        self.fc2 = torch.nn.Linear(32, 8)

    def forward(self, x):
        return self.fc2(self.relu(self.fc1(x)))


class Holder:
    """A class modrec does not know, holding a tensor (pickled as __main__.Holder)."""

    def __init__(self, t):
        self.t = t


def quantized(kind):
    torch.manual_seed(0)
    model = MLP().eval()
    quantize_(model, CONFIGS[kind]())
    return model


def qualified(cls):
    return f"{cls.__module__}.{cls.__qualname__}"


def table_json(file):
    return json.loads(run("summary", file, "--format", "json")[0])


def torchinfo_table(model, x):
    Units.__format__ = unit_value  # torchinfo's own "(M)", as scripts/torchinfo_table.py
    return str(torchinfo.summary(model, input_data=x, verbose=0)) + "\n"


def rezipped(src, dst, edit):
    """A copy of the zip `src` (bytes) with each entry's bytes as edit(name, data) says."""
    import io
    out_bytes = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(src)) as z, zipfile.ZipFile(out_bytes, "w") as out:
        for info in z.infolist():
            out.writestr(info, edit(info.filename, z.read(info)))
    if dst:
        with open(dst, "wb") as f:
            f.write(out_bytes.getvalue())
    return out_bytes.getvalue()


class StateDicts(unittest.TestCase):
    """A state_dict per config, saved once."""

    @classmethod
    def setUpClass(cls):
        cls.files = {}
        for kind in CONFIGS:
            cls.files[kind] = path(f"{kind}_sd.pt")
            torch.save(quantized(kind).state_dict(), cls.files[kind])

    def oracle(self, kind):
        """{name: (shape, dtype, subclass or None)} of every plain tensor, as torch.load reads
        the file (torchao imported: its classes are safe globals), and {name: subclass}."""
        tensors, subclasses = {}, {}
        for name, v in torch.load(self.files[kind], weights_only=True).items():
            if type(v) is torch.Tensor or type(v) is torch.nn.Parameter:
                tensors[name] = (list(v.shape), str(v.dtype)[6:], None)
                continue
            subclasses[name] = (qualified(type(v)), list(v.shape), str(v.dtype)[6:])
            for inner in v.__tensor_flatten__()[0]:
                t = getattr(v, inner)
                tensors[f"{name}.{inner}"] = (list(t.shape), str(t.dtype)[6:], qualified(type(v)))
        return tensors, subclasses

    def test_the_table_lists_each_subclass_inner_tensors_under_its_name(self):
        for kind in CONFIGS:
            with self.subTest(kind):
                want, want_subclasses = self.oracle(kind)
                table = table_json(self.files[kind])
                got = {t["name"]: (t["shape"], t["dtype"], t.get("subclass"))
                       for row in table["rows"] for t in row["tensors"]}
                self.assertEqual(got, want)
                subclasses = {row["path"]: (row["subclass"]["type"], row["subclass"]["shape"],
                                            row["subclass"]["dtype"])
                              for row in table["rows"] if "subclass" in row}
                self.assertEqual(subclasses, want_subclasses)
                self.assertEqual(table["totals"]["params"],
                                 sum(torch.Size(s).numel() for s, _, _ in want.values()))
                text = run("summary", self.files[kind])[0]
                cls = next(iter(want_subclasses.values()))[0].rpartition(".")[2]
                self.assertIn(f"weight ({cls}): 2-1", text)

    def test_check_covers_every_tensor_the_file_holds(self):
        for kind in CONFIGS:
            with self.subTest(kind):
                want, _ = self.oracle(kind)
                report = json.loads(run("check", self.files[kind], "--format", "json")[0])
                self.assertEqual(report["tensors_checked"], len(want))
                self.assertEqual(report["tensors_held"], len(want))
                self.assertTrue(report["passed"], report["violations"])
                out = run("check", self.files[kind])[0]
                self.assertIn(f"{len(want)} tensors", out)
                self.assertIn(f"(of the {len(want)} tensors it holds)", out)

    def test_check_reads_the_inner_tensors_values(self):
        sd = torch.load(self.files["int8"], weights_only=True)
        qdata = sd["fc1.weight"].qdata
        report = json.loads(run("check", self.files["int8"], "--layers", "fc1.weight",
                                "--max-abs", "1", "--format", "json", code=1)[0])
        got = {v["element"]: v["value"] for v in report["violations"] if v["rule"] == "max-abs"}
        self.assertEqual(got["param.qdata"], qdata.double().abs().max().item())

    def test_diff_compares_the_inner_tensors_and_counts_them(self):
        want, _ = self.oracle("int8")
        same = json.loads(run("diff", self.files["int8"], self.files["int8"], "--format",
                              "json")[0])
        self.assertTrue(same["passed"])
        self.assertEqual((same["compared"], same["held_a"], same["held_b"]),
                         (len(want), len(want), len(want)))
        torch.manual_seed(0)
        float_sd = path("float_sd.pt")
        torch.save(MLP().eval().state_dict(), float_sd)
        out = json.loads(run("diff", self.files["int8"], float_sd, "--format", "json",
                             code=1)[0])
        status = {t["name"]: t["status"] for t in out["tensors"]}
        self.assertEqual(status["fc1.weight.qdata"], "only in A")
        self.assertEqual(status["fc1.weight"], "only in B")
        self.assertEqual(status["fc1.bias"], "same")
        self.assertEqual((out["compared"], out["held_a"], out["held_b"]), (2, len(want), 4))

    def test_an_object_holding_tensors_is_refused_naming_it(self):
        file = path("holder.pt")
        torch.save({"fc.weight": torch.ones(2), "extra": {"w": Holder(torch.ones(3))}}, file)
        for command in ("summary", "check"):
            _, err = run(command, file, code=3)
            lines = err.strip().splitlines()
            self.assertEqual(len(lines), 1, err)
            self.assertIn("extra.w", lines[0])
            self.assertIn("Holder", lines[0])

    def test_an_object_without_tensors_is_named_and_tensors_in_lists_are_listed(self):
        file = path("training.pt")
        torch.save({"model": {"w": torch.ones(2)}, "args": argparse.Namespace(lr=0.1),
                    "buffers": [torch.zeros(3), (torch.ones(1),)]}, file)
        out, err = run("summary", file, "--format", "json")
        names = [t["name"] for row in json.loads(out)["rows"] for t in row["tensors"]]
        self.assertEqual(sorted(names), ["buffers.0", "buffers.1.0", "model.w"])
        self.assertIn("argparse.Namespace at args", err)


class Programs(unittest.TestCase):
    """The float program and, per config, the quantized model exported with its subclass weights
    (torch.export.save pickles them) and unwrapped by torchao's recipe (modrec.export)."""

    @classmethod
    def setUpClass(cls):
        torch.manual_seed(0)
        cls.float_model = MLP().eval()
        cls.x = torch.randn(3, 64)
        cls.x_file = path("x.pt")
        torch.save(cls.x, cls.x_file)
        cls.float_pt2 = path("float.pt2")
        modrec.export(cls.float_model, (cls.x,), cls.float_pt2)
        cls.models, cls.wrapped, cls.unwrapped = {}, {}, {}
        for kind in CONFIGS:
            model = quantized(kind)
            cls.models[kind] = model
            cls.wrapped[kind] = path(f"{kind}_wrapped.pt2")
            torch.export.save(torch.export.export(model, (cls.x,)), cls.wrapped[kind])
            unwrapped = unwrap_tensor_subclass(quantized(kind))
            cls.models[kind + "_unwrapped"] = unwrapped
            cls.unwrapped[kind] = path(f"{kind}_unwrapped.pt2")
            modrec.export(unwrapped, (cls.x,), cls.unwrapped[kind])

    def test_modrec_export_leaves_only_the_archive_named_as_torch_names_it(self):
        self.assertEqual(sorted(f for f in os.listdir(TMP) if f.startswith(".modrec-export")), [])
        with zipfile.ZipFile(self.unwrapped["int8"]) as z:
            self.assertTrue(any(n.endswith("extra/modrec-notes.json") for n in z.namelist()))
            # the archive's folder is named after the file, as torch.export.save names it
            self.assertEqual({n.split("/")[0] for n in z.namelist()}, {"int8_unwrapped"})

    def test_a_failed_save_leaves_no_file(self):
        real_save = torch.export.save

        def failing_save(program, f, **kwargs):
            with open(f, "wb") as out:
                out.write(b"PK partial")
            raise OSError("disk full")
        target = path("failed.pt2")
        torch.export.save = failing_save
        try:
            with self.assertRaises(OSError):
                modrec.export(self.float_model, (self.x,), target)
        finally:
            torch.export.save = real_save
        self.assertFalse(os.path.exists(target))
        self.assertEqual([f for f in os.listdir(TMP) if f.startswith(".modrec-export")], [])

    def test_tables_are_torchinfo_of_the_eager_models(self):
        for kind in CONFIGS:
            with self.subTest(kind):
                out, _ = run("summary", self.wrapped[kind], "--input", self.x_file)
                self.assertEqual(out, torchinfo_table(self.models[kind], self.x))

    def test_unwrapped_tables_count_as_torchinfo_and_warn_of_the_parametrization_calls(self):
        """The parametrization's calls (ParametrizationList, UnwrapTensorSubclass) return a
        tensor subclass no graph value is: they are not placed, with a warning naming them, and
        their parameters are counted in ParametrizedLinear's row; the totals are torchinfo's."""
        for kind in CONFIGS:
            with self.subTest(kind):
                out, err = run("summary", self.unwrapped[kind], "--input", self.x_file)
                want = torchinfo_table(self.models[kind + "_unwrapped"], self.x)
                totals = [line for line in want.splitlines() if "params" in line]
                self.assertEqual([line for line in out.splitlines() if "params" in line], totals)
                self.assertIn("fc1.parametrizations.weight", err)

    def test_records_equal_eager_hooks(self):
        for kind in CONFIGS:
            for name, file, model in (("wrapped", self.wrapped[kind], self.models[kind]),
                                      ("unwrapped", self.unwrapped[kind],
                                       self.models[kind + "_unwrapped"])):
                with self.subTest(kind=kind, archive=name):
                    out = path(f"record-{kind}-{name}")
                    run("record", file, "--input", self.x_file, "--layers", "all",
                        "--capture", "output", "--no-backward", "--out", out)
                    eager, _ = hooked_outputs(model, self.x)
                    with open(os.path.join(out, "manifest.json")) as f:
                        recorded = {layer["path"]: layer["label"]
                                    for layer in json.load(f)["layers"]}
                    self.assertLessEqual({"", "fc1", "relu", "fc2"}, set(recorded))
                    for p in ("", "fc1", "relu", "fc2"):
                        got = torch.load(os.path.join(out, "tensors", recorded[p],
                                                      "output.pt"))
                        self.assertTrue(torch.equal(got, eager[p][0]), p)

    def test_diff_against_the_float_program_names_the_first_call_beyond_tolerance(self):
        a, order = hooked_outputs(self.float_model, self.x)
        for kind in CONFIGS:
            with self.subTest(kind):
                report = json.loads(run("diff", self.float_pt2, self.wrapped[kind], "--input",
                                        self.x_file, "--captures", "output", "--format",
                                        "json", code=1)[0])
                b, _ = hooked_outputs(self.models[kind], self.x)
                first = next(p for p in order
                             if not torch.allclose(a[p][0], b[p][0], rtol=1e-5, atol=1e-8))
                self.assertEqual(report["first_diverging"]["path"], first)
                for t in report["tensors"]:
                    err = (a[t["path"]][0].double() - b[t["path"]][0].double()).abs()
                    self.assertAlmostEqual(t["max_abs"], err.max().item(), delta=1e-6)

    def test_an_unknown_subclass_is_one_line_naming_it(self):
        with open(self.wrapped["int8"], "rb") as f:
            archive = f.read()

        def rename(name, data):
            if not name.endswith("data/weights/weight_0"):
                return data
            return rezipped(data, None, lambda n, d: d.replace(
                b"torchao.quantization\nInt8Tensor", b"torchao.quantization\nInt9Tensor"))
        file = path("unknown.pt2")
        rezipped(archive, file, rename)
        _, err = run("summary", file, "--input", self.x_file, code=3)
        lines = err.strip().splitlines()
        self.assertEqual(len(lines), 1, err)
        self.assertIn("torchao.quantization.Int9Tensor", lines[0])
        self.assertIn("unwrap_tensor_subclass", lines[0])


class ScaleZero(unittest.TestCase):
    def test_a_pt2e_program_with_scale_0_raises_as_pytorch_does(self):
        import torch.ao.quantization.fx._decomposed  # noqa: F401  registers the ops
        from torchao.quantization.pt2e.quantize_pt2e import convert_pt2e, prepare_pt2e
        from torchao.testing.pt2e._xnnpack_quantizer import (XNNPACKQuantizer,
                                                               get_symmetric_quantization_config)
        torch.manual_seed(0)
        model, x = torch.nn.Sequential(torch.nn.Linear(8, 4)).eval(), torch.randn(2, 8)
        x_file = path("pt2e_x.pt")
        torch.save(x, x_file)
        quantizer = XNNPACKQuantizer().set_global(get_symmetric_quantization_config())
        prepared = prepare_pt2e(torch.export.export(model, (x,)).module(), quantizer)
        prepared(x)
        good = path("pt2e.pt2")
        torch.export.save(torch.export.export(convert_pt2e(prepared), (x,)), good)
        edited = []

        def zero_scale(name, data):
            if not name.endswith("models/model.json"):
                return data
            program = json.loads(data)
            for node in program["graph_module"]["graph"]["nodes"]:
                if node["target"].endswith(".quantize_per_tensor.default") and not edited:
                    node["inputs"][1]["arg"] = {"as_float": 0.0}
                    edited.append(node["outputs"][0]["as_tensor"]["name"])
            return json.dumps(program).encode()
        with open(good, "rb") as f:
            bad = path("pt2e_scale0.pt2")
            rezipped(f.read(), bad, zero_scale)
        self.assertTrue(edited)
        with self.assertRaises(ZeroDivisionError):
            torch.export.load(bad).module()(x)
        _, err = run("record", bad, "--input", x_file, "--layers", "all", "--no-backward", "--out",
                     path("scale0-run"), code=4)
        lines = err.strip().splitlines()
        self.assertEqual(len(lines), 1, err)
        self.assertIn("float division by zero", lines[0])
        self.assertIn("quantize_per_tensor", lines[0])
        self.assertFalse(os.path.exists(path("scale0-run")))


if __name__ == "__main__":
    main()

"""Quantized and compiled programs (issue 45), made here by the pinned torch and torchao:
- a PT2E int8 CNN (torchao's prepare_pt2e/convert_pt2e, XNNPACKQuantizer: static, per-channel
  weights) and a dynamically quantized linear model, exported and saved: their tables are
  torchinfo's on the float model they were quantized from
  (the program keeps its module calls, those its converted graph inlined included, and its
  parameters); record's outputs equal the int8 program run eagerly (unflattened) with forward
  hooks, its root output the converted GraphModule's; diff float.pt2 int8.pt2's errors are numpy's
  in float64 on the eager tensors, its first diverging call the first beyond tolerance in eager
  return order, and moves on when that layer is kept in float; check MODEL's violations are
  those of the eager outputs;
- an AOTInductor package compiled on the CPU: record's output equals
  torch._inductor.aoti_load_package's, diff against its program passes within tolerance, and a
  package whose compiled library is missing or damaged, or compiled for another device, is one
  line, exit 3; a package holding its program too has the program's table (torchinfo's), its
  compiled half (PATH:compiled) records aoti_load_package's output and diffs against the program
  half within tolerance;
- .pte programs lowered here by executorch (portable kernels, XNNPACK): record's output equals
  executorch.runtime's and the eager model's within tolerance, diff against the .pt2 they came
  from passes with numpy's error; with the ETRecord, every module call's output equals what
  ExecuTorch's Inspector reads from ETDump for it (and eager hooks' within tolerance), and diff
  compares them call by call; without the shim, without executorch beside torch, or a damaged
  .pte or ETRecord, one line, exit 3."""
import atexit
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest
import zipfile

import numpy as np
import torch
import torchinfo
from torchinfo.enums import Units
import torch.ao.quantization.fx._decomposed  # noqa: F401  torch.export.load reads int8.pt2
from torchao.quantization.pt2e import allow_exported_model_train_eval
from torchao.quantization.pt2e.quantize_pt2e import convert_pt2e, prepare_pt2e
from torchao.testing.pt2e._xnnpack_quantizer import (XNNPACKQuantizer,
                                                       get_symmetric_quantization_config)

from aoti_fixtures import compile_mlp, rezipped
from pt2e_fixtures import Net, hooked_outputs
from e2e import MODREC, ROOT, main, run

sys.path.insert(0, os.path.join(ROOT, "scripts"))
from torchinfo_table import unit_value  # noqa: E402

TMP = tempfile.mkdtemp(prefix="pt2e-")
atexit.register(shutil.rmtree, TMP, True)


def path(name):
    return os.path.join(TMP, name)


def quantized(model, x, only=(), dynamic=False):
    """torchao's PT2E flow: int8 (static, or dynamic activations), per-channel weights, for the
    whole model or `only` these modules (XNNPACKQuantizer keeps a module in float by leaving it
    out). The converted GraphModule and its program, saved as int8[-dynamic][-<only>].pt2."""
    config = get_symmetric_quantization_config(is_per_channel=True, is_dynamic=dynamic)
    quantizer = XNNPACKQuantizer()
    if not only:
        quantizer.set_global(config)
    for name in only:
        quantizer.set_module_name(name, config)
    prepared = prepare_pt2e(torch.export.export(model, (x,)).module(), quantizer)
    prepared(x)
    converted = convert_pt2e(prepared)
    program = torch.export.export(converted, (x,))
    name = "int8" + "-dynamic" * dynamic + "".join("-" + s for s in only) + ".pt2"
    torch.export.save(program, path(name))
    return converted, program, path(name)


def layers(run_dir):
    with open(os.path.join(run_dir, "manifest.json")) as f:
        return json.load(f)["layers"]


class PT2E(unittest.TestCase):
    maxDiff = None

    @classmethod
    def setUpClass(cls):
        torch.manual_seed(0)
        cls.model = Net().eval()
        cls.x = torch.randn(2, 3, 8, 8)
        cls.x_file = path("x.pt")
        torch.save(cls.x, cls.x_file)
        torch.export.save(torch.export.export(cls.model, (cls.x,)), path("float.pt2"))
        cls.converted, cls.program, cls.int8 = quantized(cls.model, cls.x)

    def test_table_is_torchinfo_of_the_float_model(self):
        Units.__format__ = unit_value  # torchinfo's own "(M)", as scripts/torchinfo_table.py
        want = str(torchinfo.summary(self.model, input_data=self.x, verbose=0)) + "\n"
        out, _ = run("summary", self.int8, "--input", self.x_file)
        self.assertEqual(out, want)

    def diff(self, a, b):
        return json.loads(run("diff", a, b, "--input", self.x_file, "--captures", "output",
                              "--format", "json", code=1)[0])

    def check_against_numpy(self, report, program):
        """Each tensor's errors as numpy computes them in float64 from the float model's and the
        int8 program's eager outputs; the first diverging call is the first in eager return order
        beyond the default tolerance."""
        a, order = hooked_outputs(self.model, self.x)
        b, _ = hooked_outputs(torch.export.unflatten(program), self.x)
        seen = {}
        for t in report["tensors"]:
            p = t["path"]
            i = seen.setdefault(p, 0)
            seen[p] += 1
            x, y = a[p][i].double().numpy(), b[p][i].double().numpy()
            err = np.abs(x - y)
            self.assertAlmostEqual(t["max_abs"], err.max(), delta=1e-15, msg=p)
            self.assertAlmostEqual(t["mean_abs"], err.mean(), delta=1e-15, msg=p)
            cos = (x.ravel() @ y.ravel()) / (np.linalg.norm(x) * np.linalg.norm(y))
            self.assertAlmostEqual(t["cosine"], cos, delta=1e-12, msg=p)
        calls = {}
        for p in order:  # eager return order, each path's calls counted
            calls[p] = calls.get(p, -1) + 1
            if not torch.allclose(a[p][calls[p]].double(), b[p][calls[p]].double(), rtol=1e-5,
                                  atol=1e-8):
                self.assertEqual(report["first_diverging"]["path"], p)
                return p
        self.fail("no call differs")

    def test_diff_float_against_int8_and_again_with_a_layer_kept_in_float(self):
        report = self.diff(path("float.pt2"), self.int8)
        self.assertEqual(self.check_against_numpy(report, self.program), "conv1")
        _, kept, kept_path = quantized(self.model, self.x, only=("fc",))
        again = self.diff(path("float.pt2"), kept_path)
        # Where the error starts now is the oracle's to say; it is no longer conv1.
        self.assertNotEqual(self.check_against_numpy(again, kept), "conv1")

    def test_check_model_finds_the_eager_outputs_violations(self):
        report = json.loads(run("check", self.int8, "--input", self.x_file, "--captures",
                                "output", "--max-abs", "0.3", "--format", "json", code=1)[0])
        eager, _ = hooked_outputs(torch.export.unflatten(self.program), self.x)
        got = sorted((v["path"], v["value"]) for v in report["violations"])
        want = sorted((p, t.abs().max().item()) for p, outs in eager.items() for t in outs
                      if p != "_guards_fn" and t.abs().max().item() > 0.3)
        self.assertEqual([p for p, _ in got], [p for p, _ in want])
        for (p, g), (_, w) in zip(got, want):
            self.assertAlmostEqual(g, w, delta=1e-7, msg=p)

    def test_record_outputs_equal_the_converted_program_run_eagerly(self):
        self.check_record(self.int8, self.program, self.converted, self.x, self.x_file)

    def test_dynamic_int8_linear_model(self):
        """choose_qparams and the .tensor quantize/dequantize variants, computed per input."""
        torch.manual_seed(1)
        model = torch.nn.Sequential(torch.nn.Linear(8, 16), torch.nn.ReLU(),
                                    torch.nn.Linear(16, 4)).eval()
        x, x_file = torch.randn(3, 8), path("dyn_x.pt")
        torch.save(x, x_file)
        converted, program, int8 = quantized(model, x, dynamic=True)
        targets = {str(n.target) for n in program.graph.nodes}
        self.assertIn("quantized_decomposed.choose_qparams.tensor", targets)
        self.check_record(int8, program, converted, x, x_file)
        Units.__format__ = unit_value
        want = str(torchinfo.summary(model, input_data=x, verbose=0)) + "\n"
        self.assertEqual(run("summary", int8, "--input", x_file)[0], want)

    def check_record(self, int8, program, converted, x, x_file):
        out = path("record-" + os.path.basename(int8))
        run("record", int8, "--input", x_file, "--layers", "all", "--capture", "output",
            "--no-backward", "--out", out)
        eager, _ = hooked_outputs(torch.export.unflatten(program), x)
        seen = {}
        for layer in layers(out):
            p = layer["path"]
            got = torch.load(os.path.join(out, "tensors", layer["label"], "output.pt"))
            want = eager[p][seen.setdefault(p, 0)]
            seen[p] += 1
            self.assertEqual(got.dtype, want.dtype, p)
            self.assertTrue(torch.equal(got, want), p)
        root = torch.load(os.path.join(out, "tensors", layers(out)[0]["label"], "output.pt"))
        self.assertTrue(torch.equal(root, converted(x)))
        self.assertEqual(set(seen), set(eager) - {"_guards_fn"})


class AOTInductor(unittest.TestCase):
    """One package compiled on the CPU for the whole class (~35 s on 2 cores)."""

    @classmethod
    def setUpClass(cls):
        compile_mlp(cls, TMP, rows=2)
        cls.program = path("mlp.pt2")
        torch.export.save(cls.exported, cls.program)
        cls.loaded = torch._inductor.aoti_load_package(cls.package)

    def test_summary_counts_the_constants_by_module(self):
        out, _ = run("summary", self.package)
        state = self.model.state_dict()
        per_module = {}
        for fqn in self.loaded.get_constant_fqns():
            module = fqn.rpartition(".")[0]
            per_module[module] = per_module.get(module, 0) + state[fqn].numel()
        rows = [line.split() for line in out.splitlines() if line.startswith("├─")]
        self.assertEqual([int(r[-1].strip("()")) for r in rows],
                         [per_module[m] for m in sorted(per_module)])
        self.assertIn("forward(input_0: Tensor)", out)

    def test_record_equals_aoti_load_package_and_diff_against_the_program_passes(self):
        out = path("aoti-run")
        run("record", self.package, "--input", self.x_file, "--layers", "all", "--no-backward",
            "--out", out)
        got = torch.load(os.path.join(out, "tensors", "0-1", "output.pt"))
        self.assertTrue(torch.equal(got, self.loaded(self.x)))
        report = json.loads(run("diff", self.program, self.package, "--input", self.x_file,
                                "--captures", "output", "--atol", "1e-6", "--format", "json")[0])
        self.assertTrue(report["passed"])
        root = [t for t in report["tensors"] if t["label"] == "0-1"]
        want = np.abs(self.model(self.x).detach().double().numpy() - got.double().numpy()).max()
        self.assertAlmostEqual(root[0]["max_abs"], want, delta=1e-15)

    def test_a_package_holding_its_program_too_is_read_as_the_program(self):
        Units.__format__ = unit_value
        want = str(torchinfo.summary(self.model, input_data=self.x, verbose=0)) + "\n"
        self.assertEqual(run("summary", self.both(), "--input", self.x_file)[0], want)
        self.assertEqual(run("summary", self.both() + ":program", "--input", self.x_file)[0],
                         want)

    def test_the_halves_of_a_package_holding_both_are_named_and_diffed(self):
        both = self.both()
        out = path("both-compiled-run")
        run("record", both + ":compiled", "--input", self.x_file, "--layers", "all",
            "--no-backward", "--out", out)
        got = torch.load(os.path.join(out, "tensors", "0-1", "output.pt"))
        self.assertTrue(torch.equal(got, self.loaded(self.x)))
        report = json.loads(run("diff", both, both + ":compiled", "--input", self.x_file,
                                "--captures", "output", "--atol", "1e-6", "--format", "json")[0])
        self.assertTrue(report["passed"])
        root = [t for t in report["tensors"] if t["label"] == "0-1"]
        want = np.abs(self.model(self.x).detach().double().numpy() - got.double().numpy()).max()
        self.assertAlmostEqual(root[0]["max_abs"], want, delta=1e-15)
        for whole, words in ((self.program, "holds no compiled code"),
                             (self.package, "holds compiled code only")):
            _, err = run("summary", whole + ":compiled", code=3)
            self.assertEqual(len(err.strip().splitlines()), 1, err)
            self.assertIn(words, err)

    def both(self):
        """The package with its program beside its compiled code (package_pt2), made once."""
        both = path("both.pt2")
        if not os.path.exists(both):
            from torch.export.pt2_archive._package import package_pt2
            folder = path("compiled")
            with zipfile.ZipFile(self.package) as z:
                names = [n for n in z.namelist() if "/data/aotinductor/" in n]
                z.extractall(folder, names)
            package_pt2(both, exported_programs={"model": torch.export.load(self.program)},
                        aoti_files={"model": [os.path.join(folder, n) for n in names]})
        return both

    def refused(self, name, edit, *words):
        bad = rezipped(self.package, path(name), edit)
        _, err = run("summary", bad, code=3)
        self.assertEqual(len(err.strip().splitlines()), 1, err)
        for w in words:
            self.assertIn(w, err)

    def test_a_missing_or_damaged_library_or_another_device_is_one_line(self):
        so = lambda name: name.endswith(".so")  # noqa: E731
        self.refused("no_library.pt2", lambda i, d: None if so(i.filename) else d, "no compiled library")
        self.refused("cut_library.pt2", lambda i, d: d[:4096] if so(i.filename) else d,
                     "compiled library is damaged")
        self.refused("cuda.pt2",
                     lambda i, d: d.replace(b'"cpu"', b'"cuda"') if i.filename.endswith("metadata.json")
                     else d, "cannot be loaded", "cuda")


class ExecuTorch(unittest.TestCase):
    """.pte files made here by executorch's own Python (to_edge_transform_and_lower, portable
    kernels and the XNNPACK delegate) from the program they were lowered from, with their
    ETRecords (generate_etrecord=True): calls by ETDump's intermediate outputs against
    ExecuTorch's own Inspector."""

    @classmethod
    def setUpClass(cls):
        try:
            from executorch.backends.xnnpack.partition.xnnpack_partitioner import (
                XnnpackPartitioner)
            from executorch.exir import to_edge_transform_and_lower
            from executorch.runtime import Runtime
        except ImportError as e:
            raise unittest.SkipTest(f"executorch is not installed beside torch ({e}): "
                                    "scripts/setup.sh installs it")
        torch.manual_seed(0)
        cls.model = Net().eval()
        cls.x = torch.randn(2, 3, 8, 8)
        cls.x_file = path("et_x.pt")
        torch.save(cls.x, cls.x_file)
        program = torch.export.export(cls.model, (cls.x,))
        cls.program = path("et_net.pt2")
        torch.export.save(program, cls.program)
        cls.pte, cls.etrecord, cls.runtime_out = {}, {}, {}
        for name, partitioners in (("portable", []), ("xnnpack", [XnnpackPartitioner()])):
            lowered = to_edge_transform_and_lower(program, partitioner=partitioners,
                                                  generate_etrecord=True)
            compiled = lowered.to_executorch()
            cls.pte[name] = path(f"et_net_{name}.pte")
            with open(cls.pte[name], "wb") as f:
                f.write(compiled.buffer)
            cls.etrecord[name] = path(f"et_net_{name}.etrecord")
            compiled.get_etrecord().save(cls.etrecord[name])
            method = Runtime.get().load_program(cls.pte[name]).load_method("forward")
            cls.runtime_out[name] = method.execute([cls.x])[0]

    def test_record_equals_executorchs_runtime_and_the_eager_program(self):
        for name, pte in self.pte.items():
            out = path(f"et-run-{name}")
            run("record", pte, "--input", self.x_file, "--layers", "all", "--no-backward",
                "--out", out)
            got = torch.load(os.path.join(out, "tensors", "0-1", "output.pt"))
            self.assertTrue(torch.equal(got, self.runtime_out[name]), name)
            torch.testing.assert_close(got, self.model(self.x).detach(), rtol=1e-5, atol=1e-6)

    def test_diff_against_the_program_it_was_lowered_from(self):
        for name, pte in self.pte.items():
            report = json.loads(run("diff", self.program, pte, "--input", self.x_file,
                                    "--captures", "output", "--atol", "1e-5", "--format",
                                    "json")[0])
            self.assertTrue(report["passed"], name)
            root = [t for t in report["tensors"] if t["label"] == "0-1"]
            want = np.abs(self.model(self.x).detach().double().numpy()
                          - self.runtime_out[name].double().numpy()).max()
            self.assertAlmostEqual(root[0]["max_abs"], want, delta=1e-12)

    def inspector_calls(self, name):
        """Per module path, the output of each of its calls as ExecuTorch's own Inspector tells
        them from ETDump and the ETRecord: the first output of the last operator whose nodes'
        module hierarchy holds that call, in call order."""
        from executorch.devtools import Inspector
        from executorch.runtime import Runtime
        program = Runtime.get().load_program(self.pte[name], enable_etdump=True,
                                             debug_buffer_size=1 << 20)
        program.load_method("forward").execute([self.x])
        etdump, buffer = path(f"et_{name}.etdump"), path(f"et_{name}.debug")
        program.write_etdump_result_to_file(etdump, buffer)
        inspector = Inspector(etdump_path=etdump, etrecord=self.etrecord[name],
                              debug_buffer_path=buffer)
        by_call = {}  # per call (its stack entry's key): its path and last output
        for event in inspector.event_blocks[-1].events:
            if event.name != "OPERATOR_CALL" or not event.debug_data:
                continue
            for hierarchy in event.module_hierarchy.values():
                for key, (module, _) in hierarchy.items():
                    if module:
                        by_call[key] = (module, event.debug_data[0])
        calls = {}
        for module, output in by_call.values():
            calls.setdefault(module, []).append(output)
        return calls

    def eager_calls(self):
        """Per module path, the output of each of its calls, as eager forward hooks see them."""
        calls, handles = {}, []
        for name, module in self.model.named_modules():
            if name:
                handles.append(module.register_forward_hook(
                    lambda m, i, o, name=name: calls.setdefault(name, []).append(o.detach())))
        self.model(self.x)
        for h in handles:
            h.remove()
        return calls

    def test_an_etrecord_tells_the_calls_and_their_outputs(self):
        # ExecuTorch's Inspector (ETDump and the same ETRecord) is the oracle for the values, which
        # are the runtime's own; eager hooks, within float rounding, for where each call is.
        out = path("et-run-calls")
        run("record", self.pte["portable"], "--etrecord", self.etrecord["portable"], "--input",
            self.x_file, "--layers", "all", "--no-backward", "--out", out)
        layers = manifest_layers(out)[1:]
        got = {}
        for layer in layers:
            got.setdefault(layer["path"], []).append(
                torch.load(os.path.join(out, "tensors", layer["label"], "output.pt")))
        inspector, eager = self.inspector_calls("portable"), self.eager_calls()
        self.assertEqual(sorted(got), sorted(inspector))
        self.assertEqual(len(got["relu"]), 2)  # one module, two calls
        for module, outputs in got.items():
            for i, output in enumerate(outputs):
                with self.subTest(module, call=i):
                    self.assertTrue(torch.equal(output, inspector[module][i]))
                    torch.testing.assert_close(output, eager[module][i], rtol=1e-5, atol=1e-5)

    def test_diff_call_by_call_against_the_program_it_was_lowered_from(self):
        report = json.loads(run("diff", self.program, self.pte["portable"], "--etrecord",
                                self.etrecord["portable"], "--input", self.x_file, "--captures",
                                "output", "--atol", "1e-5", "--format", "json")[0])
        self.assertTrue(report["passed"])
        inspector, eager = self.inspector_calls("portable"), self.eager_calls()
        seen = {}
        for t in report["tensors"][1:]:  # the root's, as without an ETRecord
            call = seen[t["path"]] = seen.get(t["path"], -1) + 1
            want = np.abs(eager[t["path"]][call].double().numpy()
                          - inspector[t["path"]][call].double().numpy()).max()
            self.assertAlmostEqual(t["max_abs"], want, delta=1e-12, msg=t["label"])
        self.assertEqual(sorted(seen), sorted(inspector))

    def test_a_delegate_run_whole_tells_its_root_alone(self):
        # XNNPACK runs every operator of Net: its instruction logs no output of its own
        out = path("et-run-xnnpack-calls")
        _, err = run("record", self.pte["xnnpack"], "--etrecord", self.etrecord["xnnpack"],
                     "--input", self.x_file, "--layers", "all", "--no-backward", "--out", out)
        self.assertEqual([l["label"] for l in manifest_layers(out)], ["0-1"])
        self.assertNotIn("nothing to record", err)

    def test_a_file_that_is_no_etrecord_is_named_and_refused(self):
        for etrecord, words in ((self.x_file, "not an ETRecord"), (path("none.bin"), "none.bin")):
            with self.subTest(etrecord):
                _, err = run("record", self.pte["portable"], "--etrecord", etrecord, "--input",
                             self.x_file, "--layers", "all", "--out", path("et-bad"), code=3)
                self.assertEqual(len(err.strip().splitlines()), 1, err)
                self.assertIn(words, err)
                self.assertFalse(os.path.exists(path("et-bad")))

    def test_a_modrec_built_without_the_shim_names_the_kind_and_what_to_do(self):
        alone = path("alone")  # the binary without the shim that the build puts beside it
        os.makedirs(alone, exist_ok=True)
        shutil.copy(MODREC, alone)
        p = subprocess.run([os.path.join(alone, "modrec"), "record", self.pte["portable"],
                            "--input", self.x_file, "--layers", "all", "--out",
                            path("et-alone")], capture_output=True, text=True)
        self.assertEqual(p.returncode, 3, p.stderr)
        err = p.stderr
        self.assertEqual(len(err.strip().splitlines()), 1, err)
        for words in ("ExecuTorch program (.pte)", "no ExecuTorch shim", ".pt2"):
            self.assertIn(words, err)

    def test_a_damaged_pte_file_is_named_and_refused(self):
        _, err = run("summary", header_only_pte(), "--input", self.x_file, code=3)
        self.assertEqual(len(err.strip().splitlines()), 1, err)
        self.assertIn("ExecuTorch program", err)
        self.assertIn(".pt2", err)
        self.assertNotIn("torch.jit", err)



def manifest_layers(run_dir):
    with open(os.path.join(run_dir, "manifest.json")) as f:
        return json.load(f)["layers"]


def header_only_pte():
    pte = path("model.pte")
    with open(pte, "wb") as f:  # a FlatBuffer: root offset, then ExecuTorch's identifier
        f.write(b"\x1c\x00\x00\x00ET12" + bytes(64))
    return pte


class ExecuTorchMissing(unittest.TestCase):
    def test_without_executorch_beside_torch_one_line_says_what_to_install(self):
        # modrec looks for executorch in the site-packages that holds the LibTorch it runs on:
        # a torch/lib of links to the real libraries, found first through LD_LIBRARY_PATH,
        # stands for an environment where torch is installed and executorch is not.
        site = path("no-executorch")
        lib = os.path.join(site, "torch", "lib")
        os.makedirs(lib, exist_ok=True)
        real = os.path.join(os.path.dirname(torch.__file__), "lib")
        for name in os.listdir(real):
            if not os.path.exists(os.path.join(lib, name)):
                os.symlink(os.path.join(real, name), os.path.join(lib, name))
        _, err = run("summary", header_only_pte(), code=3, env={"LD_LIBRARY_PATH": lib})
        self.assertEqual(len(err.strip().splitlines()), 1, err)
        for words in ("ExecuTorch program (.pte)", f"executorch package beside torch in {site}",
                      "pip install executorch", ".pt2"):
            self.assertIn(words, err)


if __name__ == "__main__":
    main()

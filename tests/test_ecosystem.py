"""Files today's libraries make (issue 56), against PyTorch, torchinfo and the libraries themselves:
- programs whose output has no gradient (a PT2E int8 program): record, diff and check MODEL run
  them forward only with one info line and exit 0; asked for gradients, one line naming a flag
  the subcommand has;
- transformers' mixture-of-experts operator (a tiny Qwen2-MoE, its experts on the default
  grouped_mm implementation, which under torch.export calls the Python custom operator
  transformers::grouped_mm_fallback): modrec's C++ definition runs it, the table is torchinfo's
  and the captures eager hooks' (gradients through register_autograd's backward included, and
  the experts' top_k_weights' input gradient); any
  other Python custom operator is named with its package, never with --load-library advice;
- _export_tracepoint nodes (what preserve_module_call_signature left in archives of older torch)
  put into archives of each torch the project reads: run as identities, tables and outputs as
  without them;
- roots called with keyword inputs only (CLIP's input_ids/attention_mask/pixel_values, the first
  two of one shape, Whisper's input_features/decoder_input_ids, a diffusers UNet's
  sample/timestep/encoder_hidden_states and an AutoencoderKL's sample), exported by
  modrec.export: tables at depth 99 with every column equal torchinfo's with those inputs as a
  dict (Input Shape "--", every input counted in "Input size"), captures equal eager hooks';
- a tensor returned at several places of a call's result (diffusers' DownBlock2D), each place
  used apart: modrec.export makes each place a graph value of its own, and every capture, each
  place's gradient included, is eager hooks'; a plain archive's is one gradient, the places'
  sum, with one warning.
The models are scripts/models.py's, exported once per class into a temporary directory."""
import json
import os
import shutil
import sys
import tempfile
import unittest
import zipfile

import torch

from e2e import ROOT, oracle, run, main, sample
from test_pt2_hop import save, torchinfo_table
from test_record_oracle import CAPTURES, RecordComparison, capture_mismatches, load_json

sys.path.insert(0, os.path.join(ROOT, "scripts"))
sys.path.insert(0, os.path.join(ROOT, "python"))
import models  # noqa: E402
import modrec  # noqa: E402

ALL_COLUMNS = "input_size,output_size,num_params,params_percent,kernel_size,mult_adds,trainable"


def info_lines(err, words):
    return [line for line in err.splitlines() if words in line]


class Mlp(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = torch.nn.Linear(8, 16)
        self.relu = torch.nn.ReLU()
        self.fc2 = torch.nn.Linear(16, 4)

    def forward(self, x):
        return self.fc2(self.relu(self.fc1(x)))


class ForwardOnly(unittest.TestCase):
    """A static PT2E int8 program (torchao's XNNPACKQuantizer): an integer tensor lies on every
    path, so its output does not require grad."""
    NO_GRAD = "does not require grad"

    @classmethod
    def setUpClass(cls):
        from torchao.quantization.pt2e.quantize_pt2e import convert_pt2e, prepare_pt2e
        from torchao.testing.pt2e._xnnpack_quantizer import (XNNPACKQuantizer,
                                                               get_symmetric_quantization_config)
        cls.out = tempfile.mkdtemp(prefix="eco-fwd-")
        torch.manual_seed(0)
        model, cls.x = Mlp().eval(), torch.randn(5, 8)
        cls.float = os.path.join(cls.out, "float.pt2")
        torch.export.save(torch.export.export(model, (cls.x,)), cls.float)
        quantizer = XNNPACKQuantizer().set_global(
            get_symmetric_quantization_config(is_per_channel=True))
        prepared = prepare_pt2e(torch.export.export(model, (cls.x,)).module(), quantizer)
        prepared(cls.x)
        cls.converted = convert_pt2e(prepared)
        cls.int8 = os.path.join(cls.out, "int8.pt2")
        torch.export.save(torch.export.export(cls.converted, (cls.x,)), cls.int8)
        cls.x_file = save(cls.out, "x", cls.x)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.out, True)

    def test_record_runs_forward_only(self):
        self.assertFalse(self.converted(self.x).requires_grad)  # PyTorch's word
        out = os.path.join(tempfile.mkdtemp(prefix="eco-rec-", dir=self.out), "run")
        _, err = run("record", self.int8, "--input", self.x_file, "--layers", "all",
                     "--out", out)
        self.assertEqual(len(info_lines(err, self.NO_GRAD)), 1, err)
        self.assertNotIn("--no-backward", err)
        manifest = load_json(out, "manifest.json")
        self.assertFalse(manifest["options"]["backward"])
        self.assertEqual(manifest["options"]["capture"], ["output"])
        root = torch.load(os.path.join(out, "tensors", manifest["layers"][0]["label"],
                                       "output.pt"))
        torch.testing.assert_close(root, self.converted(self.x), rtol=0, atol=0)

    def test_diff_of_a_float_and_an_int8_program_compares_outputs(self):
        out, err = run("diff", self.float, self.int8, "--input", self.x_file, "--atol", "1",
                       "--format", "json")
        self.assertEqual(len(info_lines(err, "forward only")), 1, err)
        self.assertNotIn("no-backward", err)
        self.assertNotIn("recorded in the first run only", err)
        report = json.loads(out)
        self.assertTrue(report["passed"])
        self.assertEqual({t["capture"] for t in report["tensors"]}, {"output"})
        self.assertEqual(len(report["tensors"]), 4)  # the root, fc1, relu, fc2

    def test_check_of_the_model_runs_forward_only(self):
        _, err = run("check", self.int8, "--input", self.x_file)
        self.assertEqual(len(info_lines(err, self.NO_GRAD)), 1, err)

    def test_gradients_asked_for_name_a_flag_the_subcommand_has(self):
        out = os.path.join(self.out, "grads")
        for args in (("record", self.int8, "--layers", "all", "--capture", "output,grad_output",
                      "--out", out),
                     ("check", self.int8, "--capture", "grad_output"),
                     ("diff", self.float, self.int8, "--capture", "output,grad_output")):
            with self.subTest(args[0]):
                _, err = run(*args, "--input", self.x_file, code=4)
                errors = [line for line in err.splitlines() if line.startswith("modrec: error")]
                self.assertEqual(len(errors), 1, err)
                self.assertIn(self.NO_GRAD, errors[0])
                self.assertIn("--capture output", errors[0])
                self.assertNotIn("--no-backward", err)
        self.assertFalse(os.path.exists(out))

    def test_summary_counts_forward_flops(self):
        out, err = run("summary", self.int8, "--input", self.x_file, "--columns",
                       "output_size,flops")
        self.assertEqual(len(info_lines(err, self.NO_GRAD)), 1, err)
        self.assertIn("Linear", out)


class MixtureOfExperts(RecordComparison):
    """QwenMoE exported by modrec.export (torch.export, with the notes that tell the calls given
    keyword arguments and the router's tuple result): its experts' grouped products are
    transformers::grouped_mm_fallback nodes (and its backward grouped_mm_fallback_backward),
    registered in Python only."""
    NAME = "QwenMoE"

    @classmethod
    def setUpClass(cls):
        cls.out = tempfile.mkdtemp(prefix="eco-moe-")
        cls.path = os.path.join(cls.out, "moe.pt2")
        program = modrec.export(models.build(cls.NAME), models.example_inputs(cls.NAME),
                                cls.path)
        targets = {str(n.target) for n in program.graph.nodes}
        assert "transformers.grouped_mm_fallback.default" in targets, targets
        cls.ids = save(cls.out, "ids", models.example_inputs(cls.NAME)[0])

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.out, True)

    def test_table_is_torchinfos(self):
        args = ("--input", self.ids, "--columns", ALL_COLUMNS, "--depth", "99")
        out, err = run("summary", self.path, *args)
        self.assertEqual(out, torchinfo_table(self.NAME, self.path, *args))
        self.assertNotIn("modrec-notes", err)

    def test_captures_equal_eager_hooks(self):
        # The experts' call's top_k_weights is the router's no-op `.to(dtype)`, which the graph's
        # nodes read under its input's name: its gradient is the experts' own all the same.
        manifest = self.compare(self.NAME, [self.ids], model=self.path, weights=self.path,
                                rtol=1e-4, atol=1e-5)
        experts = next(layer for layer in manifest["layers"]
                       if layer["path"] == "model.model.layers.0.mlp.experts")
        self.assertEqual(experts["captures"]["grad_input"]["shapes"], [[6, 16], [6, 2]])

    def test_parameter_gradients_through_the_experts_equal_autograd(self):
        out = self.record(self.path, [self.ids], captures=("param_grad",))
        self.addCleanup(shutil.rmtree, os.path.dirname(out))
        model = models.build(self.NAME)
        state = model.state_dict()
        state.update(torch.export.load(self.path).state_dict)
        model.load_state_dict(state)
        model(models.example_inputs(self.NAME)[0]).sum().backward()
        experts = model.model.model.layers[0].mlp.experts
        label = next(layer["label"] for layer in load_json(out, "manifest.json")["layers"]
                     if layer["path"] == "model.model.layers.0.mlp.experts")
        for name, p in experts.named_parameters(recurse=False):
            got = torch.load(os.path.join(out, "tensors", label, f"param_grad.{name}.pt"))
            torch.testing.assert_close(got, p.grad, rtol=1e-4, atol=1e-6, msg=name)


@torch.library.custom_op("modrec_eco::twice", mutates_args=())
def _twice(x: torch.Tensor) -> torch.Tensor:
    return x * 2


@_twice.register_fake
def _(x):
    return torch.empty_like(x)


class Twice(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(3, 3)

    def forward(self, x):
        return torch.ops.modrec_eco.twice(self.fc(x))


class PythonCustomOperators(unittest.TestCase):
    def test_named_with_its_package_never_with_load_library(self):
        out = tempfile.mkdtemp(prefix="eco-op-")
        self.addCleanup(shutil.rmtree, out, True)
        x = torch.randn(2, 3)
        path = os.path.join(out, "twice.pt2")
        modrec.export(Twice(), (x,), path)
        _, err = run("summary", path, "--input", save(out, "x", x), code=3)
        self.assertEqual(len(err.strip().splitlines()), 1, err)
        self.assertIn("modrec_eco.twice", err)
        package = "modrec_eco" if __name__ == "__main__" else __name__  # custom_op's module
        self.assertIn(f"defined in Python by {package}", err)
        self.assertIn("runs only in Python", err)
        self.assertNotIn("--load-library", err)


def with_tracepoints(src, dst):
    """The archive `src` with _export_tracepoint nodes around its first submodule call, as
    preserve_module_call_signature left them in a program (torch/_export/wrappers.py: its
    inputs, kind="module_call_inputs", before; its outputs, "module_call_outputs", after), the
    nodes between reading the markers' results. Returns dst."""
    stem = os.path.basename(src).removesuffix(".pt2")
    with zipfile.ZipFile(src) as z:
        entries = {n: z.read(n) for n in z.namelist()}
    entry = f"{stem}/models/model.json"
    program = json.loads(entries[entry])
    graph = program["graph_module"]["graph"]
    nodes = graph["nodes"]
    stack = nodes[0]["metadata"]["nn_module_stack"]
    call = [i for i, n in enumerate(nodes) if n["metadata"].get("nn_module_stack") == stack]
    first, last = call[0], call[-1]
    modules = stack.split(";")  # the call's module last; the markers are made in its parent
    path, parent = modules[-1].split(",")[1], ";".join(modules[:-1])
    value = next(a["arg"]["as_tensor"]["name"] for a in nodes[first]["inputs"]
                 if "as_tensor" in a["arg"] and not a["arg"]["as_tensor"]["name"].startswith("p_"))
    result = nodes[last]["outputs"][0]["as_tensor"]["name"]

    def tracepoint(name, arg, kind):
        graph["tensor_values"][name] = graph["tensor_values"][arg]
        return {"target": "torch.ops.higher_order._export_tracepoint",
                "inputs": [{"name": "", "arg": {"as_tensor": {"name": arg}}, "kind": 1},
                           {"name": "kind", "arg": {"as_string": kind}, "kind": 2},
                           {"name": "path", "arg": {"as_string": path}, "kind": 2}],
                "outputs": [{"as_tensor": {"name": name}}],
                "metadata": {"nn_module_stack": parent},
                "is_hop_single_tensor_return": False, "name": name}

    def renamed(value_json, old, new):
        text = json.dumps(value_json)
        return json.loads(text.replace(json.dumps({"name": old}), json.dumps({"name": new})))

    edited = [tracepoint("tp_in", value, "module_call_inputs")]
    for i, node in enumerate(nodes):
        if first <= i <= last:
            node["inputs"] = renamed(node["inputs"], value, "tp_in")
        elif i > last:
            node["inputs"] = renamed(node["inputs"], result, "tp_out")
        edited.append(node)
        if i == last:
            edited.append(tracepoint("tp_out", result, "module_call_outputs"))
    graph["nodes"] = edited
    graph["outputs"] = renamed(graph["outputs"], result, "tp_out")
    program["graph_module"]["signature"] = renamed(program["graph_module"]["signature"], result,
                                                   "tp_out")
    entries[entry] = json.dumps(program).encode()
    with zipfile.ZipFile(dst, "w") as z:
        for name, data in entries.items():
            z.writestr(name, data)
    return dst


class ExportTracepoints(RecordComparison):
    """TinyConvNet's archives of torch 2.11, 2.14 (made here) and 2.15 (samples/), with
    tracepoints put around its first call, features.0."""

    @classmethod
    def setUpClass(cls):
        cls.out = tempfile.mkdtemp(prefix="eco-tp-")
        cls.x = sample("TinyConvNet", "input.pt")  # the shape the samples were exported at
        here = os.path.join(cls.out, "TinyConvNet.pt2")
        torch.export.save(torch.export.export(models.build("TinyConvNet"),
                                              (torch.load(cls.x),)), here)
        sources = {"2.14": here,
                   "2.11": os.path.join(ROOT, "samples", "torch-2.11", "TinyConvNet.pt2"),
                   "2.15": os.path.join(ROOT, "samples", "torch-2.15", "TinyConvNet.notes.pt2")}
        cls.archives, cls.sources = {}, sources  # the sources hold the weights
        for version, src in sources.items():
            folder = os.path.join(cls.out, version)
            os.makedirs(folder)
            cls.archives[version] = with_tracepoints(src, os.path.join(folder,
                                                                       os.path.basename(src)))

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.out, True)

    def test_the_archives_have_tracepoints(self):
        for version, path in self.archives.items():
            with zipfile.ZipFile(path) as z:
                text = z.read(next(n for n in z.namelist() if n.endswith("models/model.json")))
            self.assertEqual(text.count(b"_export_tracepoint"), 2, version)

    def test_tables_are_torchinfos(self):
        args = ("--input", self.x, "--columns", ALL_COLUMNS, "--depth", "99")
        for version, path in self.archives.items():
            with self.subTest(version):
                out, err = run("summary", path, *args)
                self.assertEqual(out, torchinfo_table("TinyConvNet", self.sources[version],
                                                      *args))
                self.assertNotIn("tracepoint", err)

    def test_captures_equal_eager_hooks(self):
        for version, path in self.archives.items():
            with self.subTest(version):
                self.compare("TinyConvNet", [self.x], model=path,
                             weights=self.sources[version])


class KeywordRoots(unittest.TestCase):
    """CLIP, Whisper, a diffusers UNet2DConditionModel and AutoencoderKL called with keyword inputs
    only, exported by modrec.export."""
    NAMES = ("CLIP", "Whisper", "DiffusersUNet", "DiffusersVAE")

    @classmethod
    def setUpClass(cls):
        cls.out = tempfile.mkdtemp(prefix="eco-kw-")
        cls.paths, cls.kwargs, cls.inputs = {}, {}, {}
        for name in cls.NAMES:
            kwargs = models.example_kwargs(name)
            cls.paths[name] = os.path.join(cls.out, name + ".notes.pt2")
            modrec.export(models.build(name), (), cls.paths[name], kwargs=kwargs)
            cls.kwargs[name] = save(cls.out, name + "-kwargs", kwargs)
            cls.inputs[name] = [a for key, t in kwargs.items()
                                for a in ("--input", f"{key}={save(cls.out, name + key, t)}")]

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.out, True)

    def test_tables_at_depth_99_are_torchinfos(self):
        for name in self.NAMES:
            with self.subTest(name):
                args = ("--columns", ALL_COLUMNS, "--depth", "99")
                out, err = run("summary", self.paths[name], *self.inputs[name], *args)
                want = torchinfo_table(name, self.paths[name], "--kwargs", self.kwargs[name],
                                       "--kwargs-input", *args)
                self.assertEqual(out, want)
                self.assertNotIn("modrec-notes", err)
                root = out.splitlines()[3]
                self.assertEqual(root.split()[1], "--", root)

    def test_captures_equal_eager_hooks(self):
        for name in self.NAMES:
            with self.subTest(name):
                mine = os.path.join(tempfile.mkdtemp(prefix="rec-", dir=self.out), "run")
                run("record", self.paths[name], *self.inputs[name], "--layers", "all",
                    "--capture", ",".join(CAPTURES), "--out", mine)
                ref = oracle("record", name, "--weights", self.paths[name], "--kwargs",
                             self.kwargs[name], "--labels", "all")
                self.addCleanup(shutil.rmtree, os.path.dirname(ref))
                self.assertEqual([l["label"] for l in load_json(mine, "manifest.json")["layers"]],
                                 [l["label"] for l in load_json(ref, "index.json")["layers"]])
                # (the UNet's down blocks return their output at two places of their result,
                # each with its own gradient: RepeatedOutputs)
                for label, capture, problem in capture_mismatches(mine, ref, CAPTURES,
                                                                  rtol=1e-4, atol=1e-5):
                    self.assertIsNone(problem, (name, label, capture))


class RepeatedOutputs(RecordComparison):
    """RepeatedOutputNet's `down` returns h, (h, h), and its caller uses each place apart: eager
    hooks see each place's own gradient. modrec.export passes the further places through
    aten.alias (a view: same numbers), so that each place is a graph value of its own: every
    capture, down's grad_output included, is eager hooks'."""
    NAME = "RepeatedOutputNet"

    def test_each_place_has_its_own_gradient_as_eager_hooks_see_it(self):
        out = tempfile.mkdtemp(prefix="eco-rep-")
        self.addCleanup(shutil.rmtree, out, True)
        path = os.path.join(out, self.NAME + ".notes.pt2")
        program = modrec.export(models.build(self.NAME), models.example_inputs(self.NAME), path)
        x = save(out, "x", models.example_inputs(self.NAME)[0])
        # the places are three graph values, made inside down's call
        down = next(e for e in program.module_call_graph if e.fqn == "down")
        places = [o.name for o in down.signature.outputs]
        self.assertEqual(len(set(places)), 3, places)
        # (compare: down's three grad_output tensors are eager's, none refused)
        manifest = self.compare(self.NAME, [x], model=path, weights=path)
        down = next(l for l in manifest["layers"] if l["path"] == "down")
        self.assertNotIn("no_gradient", down["captures"]["grad_output"])

    def test_a_plain_archive_sums_the_places_and_says_so(self):
        # torch.export alone keeps no call's result structure: down's result is one graph value,
        # whose gradient is the three places' sum; one warning names the calls that may be so.
        out = tempfile.mkdtemp(prefix="eco-rep-")
        self.addCleanup(shutil.rmtree, out, True)
        model, args = models.build(self.NAME), models.example_inputs(self.NAME)
        path = os.path.join(out, self.NAME + ".pt2")
        torch.export.save(torch.export.export(model, args), path)
        x = save(out, "x", args[0])
        mine = self.record(path, [x], captures=("grad_output",))
        self.addCleanup(shutil.rmtree, os.path.dirname(mine))
        _, err = run("record", path, "--input", x, "--layers", "down", "--capture",
                     "grad_output", "--out", os.path.join(out, "again"))
        warned = info_lines(err, "result's structure the archive does not keep")
        self.assertEqual(len(warned), 1, err)
        self.assertIn("down", warned[0])
        self.assertIn("the places' sum", warned[0])
        self.assertIn("modrec.export keeps them", warned[0])
        ref = oracle("record", self.NAME, "--weights", path, "--input", x, "--labels", "all")
        self.addCleanup(shutil.rmtree, os.path.dirname(ref))
        label = next(l["label"] for l in load_json(mine, "manifest.json")["layers"]
                     if l["path"] == "down")
        got = torch.load(os.path.join(mine, "tensors", label, "grad_output.pt"))
        places = torch.load(os.path.join(ref, label, "grad_output.pt"))
        self.assertEqual(len(places), 3)
        torch.testing.assert_close(got, sum(places))


if __name__ == "__main__":
    main()

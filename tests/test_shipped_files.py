"""TorchScript files as teams ship them (issue 34): models calling operators of other libraries
(torchvision's detectors, a team's own TORCH_LIBRARY), forward(images: List[Tensor]) with
List[Dict[str, Tensor]] results, bfloat16 models, lite-interpreter files, and LibTorch's warnings
in modrec's voice.

Oracles: the real torchinfo 1.8 for tables (scripts/torchinfo_table.py), eager PyTorch's hooks
for recorded values and gradients (scripts/oracle.py record, or hooks here for the custom-operator
model, whose library this process loads as torch.ops.load_library does).
"""
import importlib.util
import json
import os
import re
import shutil
import subprocess
import tempfile
import textwrap
import unittest

import torch
from torch import nn

import test_attention as attention  # (modules: their TestCases are not collected here)
import test_record_oracle as record_oracle
from e2e import MODELS, PYTHON, ROOT, SAMPLES, main, run, sample

CAPTURES = ("output", "grad_output")

MYOPS_CPP = textwrap.dedent("""\
    #include <ATen/ATen.h>
    #include <torch/library.h>

    // x * alpha + other; CompositeImplicitAutograd (m.def with a function): autograd goes
    // through the ATen operators it calls.
    at::Tensor scale_add(const at::Tensor& x, const at::Tensor& other, double alpha) {
      return x * alpha + other;
    }

    TORCH_LIBRARY(myops, m) {
      m.def("scale_add(Tensor x, Tensor other, float alpha) -> Tensor", scale_add);
    }
    """)


def operator_library(name, cpp):
    """A team's operator library built once from `cpp` into the build folder as teams build theirs
    (torch.utils.cpp_extension, not standalone: it links libtorch_python.so) and loaded here."""
    from torch.utils import cpp_extension
    folder = os.path.join(MODELS, name)
    os.makedirs(folder, exist_ok=True)
    source = os.path.join(folder, name + ".cpp")
    with open(source, "a+") as f:
        f.seek(0)
        if f.read() != cpp:
            f.truncate(0)
            f.write(cpp)
    cpp_extension.load("modrec_" + name, [source], build_directory=folder, is_python_module=False,
                       extra_cflags=["-O0"], verbose=False)
    return os.path.join(folder, f"modrec_{name}.so")


def myops_library():
    return operator_library("myops", MYOPS_CPP)


def myops_second_build():
    """Another build of namespace myops (as a team's old and new library are): other bytes, the
    same TORCH_LIBRARY. Built in a process of its own: cpp_extension.load also loads what it
    builds, and this process has loaded the first build, which LibTorch would abort on."""
    code = ("import sys; sys.path.insert(0, sys.argv[1]); import test_shipped_files as t; "
            "print(t.operator_library('myops_b', "
            "t.MYOPS_CPP.replace('x * alpha + other', 'other + alpha * x')))")
    built = subprocess.run([PYTHON, "-c", code, os.path.dirname(os.path.abspath(__file__))],
                           check=True, capture_output=True, text=True)
    return built.stdout.strip().splitlines()[-1]


class MyOpsNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 3)
        self.act = nn.Tanh()

    def forward(self, x):
        return self.act(torch.ops.myops.scale_add(self.fc(x), x[:, :3], 2.0))


def eager_captures(model, *inputs):
    """{module path: {capture: tensor}} from forward and full backward hooks, loss = output sum
    (modrec record's default)."""
    seen = {}

    def hooks(path, module):
        def forward_hook(_, __, output):
            seen.setdefault(path, {})["output"] = output.detach().clone()

        def backward_hook(_, __, grad_output):
            seen[path]["grad_output"] = grad_output[0].clone()
        module.register_forward_hook(forward_hook)
        module.register_full_backward_hook(backward_hook)

    for path, module in model.named_modules():
        if path:
            hooks(path, module)
    model(*inputs).sum().backward()
    return seen


def assert_captures_are_eager(test, out, expected):
    """The run directory `out` holds every submodule call (root left out), each capture equal to
    eager_captures' `expected`."""
    with open(os.path.join(out, "manifest.json")) as f:
        layers = {l["path"]: l["label"] for l in json.load(f)["layers"]}
    test.assertEqual(sorted(p for p in layers if p), sorted(expected))
    for path, captures in expected.items():
        for capture, want in captures.items():
            got = torch.load(os.path.join(out, "tensors", layers[path], capture + ".pt"))
            torch.testing.assert_close(got, want, rtol=1e-6, atol=1e-7, msg=(path, capture))
    shutil.rmtree(os.path.dirname(out))


def record_dir(model, *flags, env=None):
    out = os.path.join(tempfile.mkdtemp(prefix="shipped-"), "run")
    captures = [] if "--capture" in flags else ["--capture", ",".join(CAPTURES)]
    run("record", model, "--layers", "all", *captures, "--out", out, *flags, env=env)
    return out


class OperatorLibraries(unittest.TestCase):
    """--load-library and $MODREC_LOAD_LIBRARY load a team's library (dlopen, as
    torch.ops.load_library); the model's captures equal eager PyTorch's."""

    @classmethod
    def setUpClass(cls):
        cls.library = myops_library()
        cls.tmp = tempfile.mkdtemp(prefix="myops-")
        torch.manual_seed(0)
        eager = MyOpsNet()
        cls.model = os.path.join(cls.tmp, "myops_net.pt")
        torch.jit.script(eager).save(cls.model)
        cls.x = torch.randn(5, 4)
        cls.input = os.path.join(cls.tmp, "x.pt")
        torch.save(cls.x, cls.input)
        cls.expected = eager_captures(eager, cls.x.clone())

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp)

    def test_load_library_flag(self):
        out = record_dir(self.model, "--input", self.input, "--load-library", self.library)
        assert_captures_are_eager(self, out, self.expected)

    def test_environment_variable(self):
        out = record_dir(self.model, "--input", self.input,
                         env={"MODREC_LOAD_LIBRARY": self.library + ":"})
        assert_captures_are_eager(self, out, self.expected)

    def test_missing_namespace_names_operator_namespace_and_what_to_load(self):
        _, err = run("summary", self.model, code=3, env={"MODREC_LOAD_LIBRARY": ""})
        self.assertEqual(len(err.splitlines()), 1, err)
        for word in ("myops::scale_add", "namespace myops", self.model, "--load-library"):
            self.assertIn(word, err)
        self.assertNotIn("newer LibTorch", err)

    def test_not_a_library_is_exit_3_naming_it(self):
        text = os.path.join(self.tmp, "notes.so")
        with open(text, "w") as f:
            f.write("not a shared library\n")
        for path in (text, os.path.join(self.tmp, "missing.so")):
            _, err = run("summary", self.model, "--load-library", path, code=3)
            self.assertEqual(len(err.splitlines()), 1, err)
            self.assertIn(f"({path})", err)

    def test_truncated_library_is_exit_3_not_sigbus(self):
        """glibc's dlopen (and Python's ctypes) crash on the first 4 KB of a real library."""
        head = os.path.join(self.tmp, "head.so")
        with open(self.library, "rb") as f, open(head, "wb") as out:
            out.write(f.read(4096))
        _, err = run("summary", self.model, "--load-library", head, code=3)
        self.assertEqual(len(err.splitlines()), 1, err)
        self.assertIn(f"({head})", err)
        self.assertIn("cut short", err)

    def test_one_library_under_two_paths_is_loaded_once(self):
        copy = os.path.join(self.tmp, "copy.so")
        link = os.path.join(self.tmp, "link.so")
        shutil.copy(self.library, copy)
        if not os.path.lexists(link):
            os.symlink(self.library, link)
        for other in (copy, link):
            out = record_dir(self.model, "--input", self.input, "--load-library", self.library,
                             "--load-library", other)
            assert_captures_are_eager(self, out, self.expected)
            _, err = run("summary", self.model, "--load-library", self.library, "--load-library",
                         other)
            self.assertIn(f"operator library {other} is {self.library}, loaded already", err)

    def test_two_builds_of_one_namespace_are_exit_3_naming_both(self):
        second = myops_second_build()
        _, err = run("summary", self.model, "--load-library", self.library, "--load-library",
                     second, code=3)
        self.assertEqual(len(err.splitlines()), 1, err)
        for word in (f"({second})", self.library, "namespace myops", "registered already"):
            self.assertIn(word, err)
        for dump in ("frame #", "Exception raised from", "internal error"):
            self.assertNotIn(dump, err)


def detector_input(name):
    return sample(name, "input.pt")


class RoiAlignNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(2, 3, 3, padding=1)

    def forward(self, x, rois):
        import torchvision
        return torchvision.ops.roi_align(self.conv(x), rois, output_size=2, sampling_ratio=2)


class ExportedTorchvisionOperator(unittest.TestCase):
    """A torch.export archive calling torchvision::roi_align: modrec loads torchvision's library
    when its graph needs the operator; outputs and gradients equal eager PyTorch's (torchvision
    0.29 registers roi_align's autograd from Python; modrec registers the same derivative,
    ops/torchvision_autograd.h)."""

    def test_record(self):
        torch.manual_seed(0)
        eager = RoiAlignNet()
        inputs = (torch.randn(1, 2, 8, 8), torch.tensor([[0, 0, 0, 4, 4], [0, 2, 1, 7, 6.5]]))
        with tempfile.TemporaryDirectory(prefix="roi-") as tmp:
            model = os.path.join(tmp, "roi_align.pt2")
            torch.export.save(torch.export.export(eager, inputs), model)
            files = []
            for i, t in enumerate(inputs):
                files += ["--input", os.path.join(tmp, f"{i}.pt")]
                torch.save(t, files[-1])
            out = record_dir(model, *files, "--capture", "output,grad_output,param_grad")
            expected = eager_captures(eager, *inputs)
            with open(os.path.join(out, "manifest.json")) as f:
                conv = {l["path"]: l["label"] for l in json.load(f)["layers"]}["conv"]
            for name, p in eager.conv.named_parameters():
                got = torch.load(os.path.join(out, "tensors", conv, f"param_grad.{name}.pt"))
                torch.testing.assert_close(got, p.grad, rtol=1e-6, atol=1e-7, msg=name)
            assert_captures_are_eager(self, out, expected)


def summary_and_torchinfo(name, depth, *flags):
    """modrec summary's table and stderr, and torchinfo's table for the same weights and input (a
    file holding the list of images; torchinfo's input_data=[images])."""
    model, x = sample(name), sample(name, "input.pt")
    mine = run("summary", model, "--input", x, "--columns", attention.COLUMNS, "--depth", depth,
               *flags)
    table, keyword_only = attention.torchinfo_table(name, model, [x], depth)
    return mine, attention.with_keyword_only_shapes(table, keyword_only)


def with_scripted_root_output(table, model, x):
    """torchinfo's table with the root row's Output Shape as torchinfo sizes the scripted model's
    result: a scripted detector returns (losses, detections) where the eager one torchinfo runs
    returns the detections alone; torchinfo's calculate_size takes a tuple's first item, the
    losses, empty in eval mode: "--"."""
    import torchvision  # noqa: F401 (registers torchvision:: for torch.jit.load)
    from torchinfo.layer_info import LayerInfo
    with torch.no_grad():
        size, _ = LayerInfo.calculate_size(torch.jit.load(model)(torch.load(x)), None)
    lines = table.split("\n")
    start = lines[1].index("Output Shape")
    cell = f"{str(size) if size else '--':<{attention.COL_WIDTH}} "
    lines[3] = lines[3][:start] + cell + lines[3][start + len(cell):]
    return "\n".join(lines)


class DetectorTables(unittest.TestCase):
    """Scripted torchvision detectors (torchvision::nms, roi_align: torchvision's library, loaded
    by modrec from beside its torch): forward(images: List[Tensor]), a result of (losses,
    List[Dict[str, Tensor]]); the table is torchinfo's but for the root's result (see
    with_scripted_root_output)."""
    maxDiff = None

    def compare(self, name):
        (mine, err), table = summary_and_torchinfo(name, 4)
        self.assertEqual(mine, with_scripted_root_output(table, sample(name),
                                                         sample(name, "input.pt")))
        return err

    def test_fasterrcnn(self):
        err = self.compare("fasterrcnn_mobilenet_v3_large_320_fpn")
        # RCNN's scripted forward calls warnings.warn, which TorchScript sends to c10's handler
        lines = [l for l in err.splitlines() if "always returns a (Losses, Detections)" in l]
        self.assertEqual(len(lines), 1, err)
        self.assertTrue(lines[0].startswith("modrec: warning: "), lines[0])
        self.assertFalse(re.search(r"^\[W", err, re.M), err)

    def test_ssdlite(self):
        self.compare("ssdlite320_mobilenet_v3_large")

    def test_warning_as_json(self):
        name = "ssdlite320_mobilenet_v3_large"
        _, err = run("summary", sample(name), "--input", sample(name, "input.pt"),
                     "--log-format", "json")
        lines = [json.loads(l) for l in err.splitlines()]  # every line is JSON
        warned = [l for l in lines if "always returns a (Losses, Detections)" in l["message"]]
        self.assertEqual([l["level"] for l in warned], ["warning"], err)


class DetectorRecords(record_oracle.RecordComparison):
    """record's captures of a detector's calls equal eager PyTorch's hooks (loss: the sum of the
    first output tensor, the first image's boxes). Inputs are left out: calls taking an ImageList
    object list it among their non-tensor values, named by its object's address. Faster R-CNN's
    gradients pass through torchvision::roi_align, whose derivative modrec registers
    (ops/torchvision_autograd.h: torchvision 0.29 registers it from Python)."""

    def test_fasterrcnn(self):
        name = "fasterrcnn_mobilenet_v3_large_320_fpn"
        self.compare(name, [detector_input(name)], model=sample(name), rtol=1e-4, atol=1e-5,
                     captures=("output", "grad_output"))

    def test_ssdlite(self):
        name = "ssdlite320_mobilenet_v3_large"
        self.compare(name, [detector_input(name)], model=sample(name), rtol=1e-4, atol=1e-5,
                     captures=("output", "grad_output"))


def position_lm_class():
    """scripts/make_gpu_samples.py's PositionLM, the eager model of samples/traced-on-gpu."""
    path = os.path.join(ROOT, "scripts", "make_gpu_samples.py")
    spec = importlib.util.spec_from_file_location("make_gpu_samples", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.PositionLM


class MadeOnAGpu(unittest.TestCase):
    """Files made on a GPU (samples/traced-on-gpu) run on the CPU: the devices a trace's code and an
    export's graph name (cuda:0, for an arange) are the run's device, and the meta device's for
    summary's pass on shapes."""

    def test_records_are_eagers_on_the_cpu(self):
        folder = os.path.join(SAMPLES, "traced-on-gpu")
        eager = position_lm_class()().eval()
        scripted = torch.jit.load(os.path.join(folder, "PositionLM.pt"), map_location="cpu")
        eager.load_state_dict(scripted.state_dict())
        ids = torch.randint(0, 50, (2, 7), generator=torch.Generator().manual_seed(1))
        with torch.no_grad():
            want = eager(ids)  # the head's output is the model's
        with tempfile.TemporaryDirectory(prefix="gpu-files-") as tmp:
            x = os.path.join(tmp, "ids.pt")
            torch.save(ids, x)
            for name in ("PositionLM.pt", "PositionLM.traced.pt", "PositionLM.pt2"):
                with self.subTest(name):
                    model, out = os.path.join(folder, name), os.path.join(tmp, name)
                    err = run("summary", model, "--input", x)[1]
                    self.assertNotIn("the pass on the meta device", err)
                    run("record", model, "--input", x, "--layers", "head", "--capture", "output",
                        "--out", out)
                    manifest = json.load(open(os.path.join(out, "manifest.json")))
                    label = manifest["layers"][0]["label"]
                    got = torch.load(os.path.join(out, "tensors", label, "output.pt"))
                    got = got[0] if isinstance(got, (list, tuple)) else got
                    torch.testing.assert_close(got, want, rtol=0, atol=0)


class OtherFiles(unittest.TestCase):
    maxDiff = None

    def test_bfloat16_table_is_torchinfos(self):
        name = "TinyConvNetBf16"
        model, x = sample(name), sample(name, "input.pt")
        mine = run("summary", model, "--input", x, "--columns", attention.COLUMNS)[0]
        table, _ = attention.torchinfo_table(name, model, [x], depth=3)
        self.assertEqual(mine, table)

    def test_bfloat16_record_is_eager(self):
        name = "TinyConvNetBf16"
        comparison = record_oracle.RecordComparison("compare")
        comparison.compare(name, [sample(name, "input.pt")], model=sample(name), rtol=0, atol=0)

    def test_lite_interpreter_file(self):
        # _save_for_lite_interpreter's zip also holds the full TorchScript code
        name = "TinyConvNet"
        model, x = sample(name), sample(name, "input.pt")
        with tempfile.TemporaryDirectory(prefix="ptl-") as tmp:
            ptl = os.path.join(tmp, "tiny.ptl")
            torch.jit.load(model)._save_for_lite_interpreter(ptl)
            mine = run("summary", ptl, "--input", x, "--columns", attention.COLUMNS)[0]
        table, _ = attention.torchinfo_table(name, model, [x], depth=3)
        self.assertEqual(mine, table)

    def test_script_warning_is_one_modrec_line(self):
        # TorchScript's warnings.warn goes to c10's warning handler: two calls, two batches
        code = textwrap.dedent("""\
            import warnings
            import torch
            from torch import nn

            class Warns(nn.Module):
                def forward(self, x):
                    warnings.warn("inputs are not normalised")
                    warnings.warn("inputs are not normalised")
                    return x * 2
            """)
        with tempfile.TemporaryDirectory(prefix="warn-") as tmp:
            with open(os.path.join(tmp, "warns.py"), "w") as f:
                f.write(code)
            spec = importlib.util.spec_from_file_location("warns", os.path.join(tmp, "warns.py"))
            module = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(module)
            path = os.path.join(tmp, "warns.pt")
            torch.jit.script(module.Warns()).save(path)
            _, err = run("record", path, "--input-size", "4x3", "--batch-size", "2",
                         "--layers", "all", "--no-backward", "--out", os.path.join(tmp, "run"))
        self.assertEqual(err.count("inputs are not normalised"), 1, err)
        self.assertIn("modrec: warning: inputs are not normalised", err)
        self.assertFalse(re.search(r"^\[W", err, re.M), err)


if __name__ == "__main__":
    main()

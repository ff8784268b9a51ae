"""ExecuTorch files as untrusted input (issue 55) and their tables (issue 56), against ExecuTorch's
own runtime and torchinfo on the eager model, on programs lowered here by the pinned executorch:
- a .pte damaged at test time (bytes of its FlatBuffer flipped at several seeds, the file cut
  short at several places): modrec refuses what ExecuTorch's runtime refuses when it verifies the
  program (Program::Verification::InternalConsistency), one line naming the file, exit 3, nothing
  written; what the runtime runs, modrec runs to the runtime's output; never a crash;
- an ETRecord of another program, or whose debug handle map names an instruction or a debug
  handle the program lacks: one line naming the ETRecord and the defect, exit 3, nothing written;
- summary of a .pte with its ETRecord is torchinfo's table of the eager model (the root's class,
  each call's output, the parameters, the forward/backward pass size), for kernels and a delegate
  alike;
- the ETRecord of a Hugging Face decoder exported with transformers' static cache
  (TorchExportableModuleWithStaticCache), whose edge program holds bare -Infinity, is read: its
  calls are recorded and its root output is the runtime's."""
import atexit
import json
import os
import random
import shutil
import sys
import tempfile
import unittest
import zipfile

import torch
import torchinfo
from torchinfo.enums import Units

from e2e import ROOT, main, run
from pt2e_fixtures import Net

sys.path.insert(0, os.path.join(ROOT, "scripts"))
from torchinfo_table import unit_value  # noqa: E402
import models  # noqa: E402

TMP = tempfile.mkdtemp(prefix="pte-trust-")
atexit.register(shutil.rmtree, TMP, True)


def path(name):
    return os.path.join(TMP, name)


class MLP(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = torch.nn.Linear(16, 32)
        self.fc2 = torch.nn.Linear(32, 10)

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x)))


def lowered(model, inputs, name, partitioners=(), kwargs=None, strict=False):
    """`model` exported and lowered by executorch: the paths of its .pte and ETRecord."""
    from executorch.exir import to_edge_transform_and_lower
    program = torch.export.export(model, inputs, kwargs=kwargs, strict=strict)
    manager = to_edge_transform_and_lower(program, partitioner=list(partitioners),
                                          generate_etrecord=True).to_executorch()
    with open(path(name + ".pte"), "wb") as f:
        f.write(manager.buffer)
    manager.get_etrecord().save(path(name + ".etrecord"))
    return path(name + ".pte"), path(name + ".etrecord")


def rezipped(src, dst, edit):
    """A copy of the zip `src` with each entry's bytes as edit(name, data) says."""
    with zipfile.ZipFile(src) as z:
        entries = [(i, z.read(i)) for i in z.infolist()]
    with zipfile.ZipFile(dst, "w") as out:
        for info, data in entries:
            out.writestr(info, edit(info.filename, data))
    return dst


def refused(test, *args, words=()):
    """modrec refuses: exit 3, one line on stderr holding `words`, no --out written."""
    out = path("never")
    _, err = run(*args, "--out", out, code=3)
    test.assertEqual(len(err.strip().splitlines()), 1, err)
    for w in words:
        test.assertIn(w, err)
    test.assertFalse(os.path.exists(out))
    return err


def runtime_output(data, inputs):
    """What ExecuTorch's runtime makes of the program `data` when it verifies it first: forward's
    output, or None when it refuses the program."""
    from executorch.runtime import Runtime, Verification
    try:
        program = Runtime.get().load_program(data, verification=Verification.InternalConsistency)
        return program.load_method("forward").execute(list(inputs))[0]
    except Exception:  # the runtime's refusal, whatever its type
        return None


NET = {}  # Net's example input and its programs by partitioner, lowered once for every class


def net(partitioner="portable"):
    """Net (seed 0), its input's file, and its .pte and ETRecord lowered by `partitioner`."""
    if not NET:
        torch.manual_seed(0)
        NET["model"], NET["x"] = Net().eval(), torch.randn(2, 3, 8, 8)
        torch.save(NET["x"], path("x.pt"))
    if partitioner not in NET:
        from executorch.backends.xnnpack.partition.xnnpack_partitioner import XnnpackPartitioner
        partitioners = (XnnpackPartitioner(),) if partitioner == "xnnpack" else ()
        NET[partitioner] = lowered(NET["model"], (NET["x"],), "net-" + partitioner, partitioners)
    return NET["model"], NET["x"], path("x.pt"), NET[partitioner]


def manifest_layers(run_dir):
    with open(os.path.join(run_dir, "manifest.json")) as f:
        return json.load(f)["layers"]


def require_executorch():
    try:
        import executorch.exir  # noqa: F401
    except ImportError as e:
        raise unittest.SkipTest(f"executorch is not installed beside torch ({e}): "
                                "scripts/setup.sh installs it")


class DamagedPrograms(unittest.TestCase):
    """Net lowered once to portable kernels, with its ETRecord; MLP once, for another program's."""

    @classmethod
    def setUpClass(cls):
        require_executorch()
        cls.model, cls.x, cls.x_file, (cls.pte, cls.etrecord) = net()
        with open(cls.pte, "rb") as f:
            cls.data = f.read()
        cls.program_size = int.from_bytes(cls.data[16:24], "little")  # the extended header's
        _, cls.other_etrecord = lowered(MLP().eval(), (torch.randn(2, 16),), "mlp")

    def damaged(self, name, data):
        with open(path(name), "wb") as f:
            f.write(data)
        return path(name)

    def test_flipped_bytes_are_refused_as_executorchs_verifier_refuses_them(self):
        refusals = 0
        for seed in range(8):
            rng = random.Random(seed)
            data = bytearray(self.data)
            for _ in range(4):  # in the FlatBuffer, past its root offset and identifier
                data[rng.randrange(8, self.program_size)] ^= 1 << rng.randrange(8)
            pte = self.damaged(f"flipped-{seed}.pte", bytes(data))
            want = runtime_output(bytes(data), [self.x])
            with self.subTest(seed=seed, runtime="refuses" if want is None else "runs"):
                if want is None:
                    refusals += 1
                    refused(self, "record", pte, "--input", self.x_file, "--layers", "all",
                            "--no-backward", words=(pte, "ExecuTorch program"))
                    continue
                out = path(f"flipped-{seed}")
                run("record", pte, "--input", self.x_file, "--layers", "all", "--no-backward",
                    "--out", out)
                got = torch.load(os.path.join(out, "tensors", "0-1", "output.pt"))
                self.assertTrue(torch.equal(got, want))
        self.assertGreater(refusals, 4)  # what the seeds test: refusals, not runs

    def test_a_file_cut_short_is_named_so(self):
        size = len(self.data)
        for cut in (20, self.program_size // 2, self.program_size - 1, self.program_size + 10,
                    size - 1):
            with self.subTest(cut=cut):
                self.assertIsNone(runtime_output(self.data[:cut], [self.x]))
                pte = self.damaged(f"cut-{cut}.pte", self.data[:cut])
                err = refused(self, "record", pte, "--input", self.x_file, "--layers", "all",
                              "--no-backward",
                              words=(pte, "ExecuTorch program is damaged"))
                if cut > 40:  # past the extended header: the header says how much is missing
                    self.assertIn("cut short", err)

    def test_summary_of_a_damaged_program_is_refused_too(self):
        data = bytearray(self.data)
        data[24:32] = (len(self.data) + 4096).to_bytes(8, "little")  # segments past the end
        pte = self.damaged("segments-past-end.pte", bytes(data))
        _, err = run("summary", pte, "--input", self.x_file, code=3)
        self.assertEqual(len(err.strip().splitlines()), 1, err)
        self.assertIn("ExecuTorch program is damaged", err)

    def test_an_etrecord_of_another_program_is_refused_naming_what_differs(self):
        refused(self, "record", self.pte, "--etrecord", self.other_etrecord, "--input",
                self.x_file, "--layers", "all", "--no-backward",
                words=(self.other_etrecord, "ETRecord does not describe this program",
                       "input 0 is Float [2, 16], the program's Float [2, 3, 8, 8]"))

    def test_debug_handles_the_program_or_its_edge_program_lacks_are_refused(self):
        for name, handle_map, words in (
                ("instruction", b'{"forward": {"0": 1, "99": 2}}', "names instruction 99"),
                ("handle", b'{"forward": {"0": 1, "1": 42}}', "the debug handle 42, which no")):
            with self.subTest(name):
                etrecord = rezipped(self.etrecord, path(f"bad-{name}.etrecord"),
                                    lambda n, d: handle_map if n == "debug_handle_map" else d)
                refused(self, "record", self.pte, "--etrecord", etrecord, "--input", self.x_file,
                        "--layers", "all", "--no-backward", words=(etrecord, words))

    def test_an_edge_program_that_does_not_parse_is_named(self):
        def edit(name, data):
            if name == "edge_dialect_exported_program/forward":
                return data.replace(b'"debug_handle": "3"', b'"debug_handle": "three"')
            return data
        etrecord = rezipped(self.etrecord, path("bad-program.etrecord"), edit)
        refused(self, "record", self.pte, "--etrecord", etrecord, "--input", self.x_file,
                "--layers", "all", "--no-backward",
                words=(etrecord, "ETRecord's edge program is malformed", "debug_handle"))


class Tables(unittest.TestCase):
    """summary of Net's .pte with its ETRecord, lowered to portable kernels and to XNNPACK (which
    runs every call unseen), against torchinfo on the eager Net."""

    @classmethod
    def setUpClass(cls):
        require_executorch()
        cls.model, cls.x, cls.x_file, _ = net()
        cls.lowered = {name: net(name)[3] for name in ("portable", "xnnpack")}

    def test_the_table_is_torchinfos_of_the_eager_model(self):
        Units.__format__ = unit_value  # torchinfo's own "(M)", as scripts/torchinfo_table.py
        want = str(torchinfo.summary(self.model, input_data=self.x, verbose=0)) + "\n"
        for name, (pte, etrecord) in self.lowered.items():
            with self.subTest(name):
                out, _ = run("summary", pte, "--etrecord", etrecord, "--input", self.x_file)
                self.assertEqual(out, want)

    def test_without_its_etrecord_the_root_is_the_program(self):
        out, _ = run("summary", self.lowered["portable"][0], "--input", self.x_file)
        self.assertIn("ExecuTorchProgram", out)


class StaticCacheDecoder(unittest.TestCase):
    """transformers' TorchExportableModuleWithStaticCache around a tiny Llama
    (scripts/models.py's StaticCacheLlama), exported strict under no_grad as the recipe exports
    (non-strict, executorch's decompositions fail on it) and lowered to portable kernels once. Its
    edge program writes the caches' updates as buffer mutations (TensorArguments)."""

    @classmethod
    def setUpClass(cls):
        require_executorch()
        name = "StaticCacheLlama"
        cls.ids = models.example_inputs(name)[0]
        cls.position = models.example_kwargs(name)["cache_position"]
        with torch.no_grad():  # as transformers' recipe exports (convert_and_export_with_cache)
            cls.pte, cls.etrecord = lowered(models.build(name), (), "llama", strict=True,
                                            kwargs={"input_ids": cls.ids,
                                                    "cache_position": cls.position})
        cls.files = [path("ids.pt"), path("position.pt")]
        torch.save(cls.ids, cls.files[0])
        torch.save(cls.position, cls.files[1])
        with open(cls.pte, "rb") as f:
            cls.want = runtime_output(f.read(), [cls.ids, cls.position])

    def test_its_edge_program_holds_bare_non_finite_numbers(self):
        with zipfile.ZipFile(self.etrecord) as z:
            self.assertIn(b"-Infinity", z.read("edge_dialect_exported_program/forward"))

    def test_the_etrecord_is_read_and_its_calls_recorded(self):
        out = path("llama-run")
        run("record", self.pte, "--etrecord", self.etrecord, "--input", self.files[0], "--input",
            self.files[1], "--layers", "all", "--no-backward", "--out", out)
        self.assertIsNotNone(self.want)
        got = torch.load(os.path.join(out, "tensors", "0-1", "output.pt"))
        # modrec's shim registers ExecuTorch's optimized kernels, executorch.runtime's Python
        # module the portable ones: their sums round apart (6e-8 here)
        torch.testing.assert_close(got, self.want, rtol=1e-5, atol=1e-6)
        self.assertGreater(len(manifest_layers(out)), 20)  # its calls, not the root alone
        table, _ = run("summary", self.pte, "--etrecord", self.etrecord, "--input", self.files[0],
                       "--input", self.files[1], "--depth", "4")
        self.assertIn("TorchExportableModuleWithStaticCache", table)
        self.assertIn("LlamaDecoderLayer", table)


if __name__ == "__main__":
    main()

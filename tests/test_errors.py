"""The error contract of docs/cli.md, end to end: exit codes and one-line messages.

Every failure must exit with the documented code and print exactly one stderr line
`modrec: error: <what> (<where>): <hint>`, never a C++ exception dump or a traceback.
The bad files come from tests/corpus/make_corpus.py, generated into the build dir.
"""
import glob
import json
import os
import re
import resource
import shutil
import signal
import subprocess
import tempfile
import time
import unittest
import zipfile

import torch

from e2e import BUILD, MODREC, PYTHON, ROOT, SAMPLES, main, run, sample

CORPUS = os.path.join(BUILD, "corpus")
NET = os.path.join(SAMPLES, "SingleInputNet.pt")  # forward(x): x is 2x1x28x28, conv1 first
NET_INPUT = os.path.join(SAMPLES, "SingleInputNet.input.pt")
TWO = os.path.join(SAMPLES, "TwoInputNet.pt")
SIZE = "2x1x28x28"
LINE = re.compile(r"^modrec: error: .+ \(.+\): .+$")
DUMPS = ("frame #", "Exception raised from", "terminate called", "Traceback", "what():")
TMP_GLOB = ".*.modrec-tmp-*"


def setUpModule():
    subprocess.run([PYTHON, os.path.join(ROOT, "tests", "corpus", "make_corpus.py"), CORPUS],
                   check=True, capture_output=True)


def bad(name):
    return os.path.join(CORPUS, name)


class ErrorCase(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="modrec-errors-")
        self.addCleanup(shutil.rmtree, self.tmp, ignore_errors=True)

    def out(self, name="rec"):
        return os.path.join(self.tmp, name)

    def fails(self, code, *args, words=(), env=None, strict=True):
        """Runs modrec, expects exit `code` and one clean stderr line holding all `words`."""
        _, err = run(*args, code=code, env=env)
        lines = err.strip("\n").split("\n")
        self.assertEqual(len(lines), 1, f"stderr is not one line:\n{err}")
        for dump in DUMPS:
            self.assertNotIn(dump, err)
        if strict:
            self.assertRegex(lines[0], LINE)
        for w in words:
            self.assertIn(w, lines[0])
        self.assertEqual(glob.glob(os.path.join(self.tmp, TMP_GLOB)), [], "temp dir left behind")
        return lines[0]


class ModelFiles(ErrorCase):
    CASES = {  # corpus file -> words the message must hold
        "empty.pt": ["empty", "torch.jit.script"],
        "random.bin": ["not a zip", "torch.jit.script"],
        "truncated.pt": ["truncated", "save the model again"],
        "no_code.zip": ["without TorchScript code", "torch.jit.script"],
        "state_dict.pt": ["state_dict", "load_state_dict", "torch.jit.script"],
        "eager.pt": ["eager", "torch.save(model)", "torch.jit.script"],
        "tensor.pt": ["tensor file", "--input", "torch.jit.script"],
        "missing.pt": ["does not exist", "check the path"],
        "folder.pt": ["directory"],
        "unknown_op.pt": ["operator aten::vies", "LibTorch 2.", "modrec built on a newer LibTorch"],
    }

    def check_all(self, cmd, skip=()):
        for name, words in self.CASES.items():
            if name in skip:
                continue
            with self.subTest(file=name):
                self.fails(3, *cmd(bad(name)), words=[bad(name), *words])

    def test_summary(self):
        # summary reads a state_dict as a checkpoint (tests/test_checkpoints.py).
        self.check_all(lambda m: ["summary", m], skip=("state_dict.pt",))

    def test_record(self):
        self.check_all(lambda m: ["record", m, "--input-size", SIZE, "--layers", "all",
                                  "--out", self.out()])
        self.assertFalse(os.path.exists(self.out()))

    def test_flipped_weight_names_the_damaged_entry(self):
        with open(bad("flipped_weight.txt")) as f:
            entry = f.read().strip()
        self.fails(3, "record", bad("flipped_weight.pt"), "--input-size", SIZE, "--layers", "all",
                   "--out", self.out(), words=[bad("flipped_weight.pt"), entry, "CRC-32"])
        # summary reads no weight (tests/test_summary_meta.py): the damage cannot reach its table.
        self.assertEqual(run("summary", bad("flipped_weight.pt"))[0], run("summary", NET)[0])


class TruncatedStorages(ErrorCase):
    """An archive entry shorter than the tensor it backs, its CRC-32 consistent: LibTorch's loaders
    read past its end and hand out whatever lies there as values (issue 44)."""

    def entry(self, name):
        with open(bad(name.replace(".pt", ".txt"))) as f:
            return f.read().strip()

    def test_a_models_weight_is_refused_before_any_pass(self):
        model = bad("truncated_storage.pt")
        for cmd in (["record", model, "--input", NET_INPUT, "--layers", "all", "--out", self.out()],
                    ["check", model, "--input", NET_INPUT]):
            with self.subTest(cmd=cmd[0]):
                line = self.fails(3, *cmd, words=[model, self.entry("truncated_storage.pt"),
                                                  "fewer than the tensor", "save or copy it again"])
                self.assertRegex(line, r"tensor (conv1|conv2|fc1|fc2)\.weight \(Float \[")
        self.assertFalse(os.path.exists(self.out()))

    def test_an_input_is_refused(self):
        path = bad("truncated_storage.input.pt")
        for cmd in (["summary", NET, "--input", path],
                    ["record", NET, "--input", path, "--layers", "all", "--out", self.out()]):
            with self.subTest(cmd=cmd[0]):
                self.fails(3, *cmd, words=[path, self.entry("truncated_storage.input.pt"),
                                           "fewer than the tensor"])
        self.assertFalse(os.path.exists(self.out()))

    def test_the_whole_files_pass(self):
        """The same files before the cut: what the check refuses is the cut alone."""
        run("record", NET, "--input", bad("whole.pt"), "--layers", "all", "--out", self.out())


class DamagedPrograms(ErrorCase):
    """.pt2 programs damaged where the graph is wired (tests/corpus/make_corpus.py's
    damaged_programs): exit 3 naming the node and its operator, at load, for summary without an
    input too, never a C++ library's message; nested subgraphs in memory bounded by the file."""

    def test_each_is_exit_3_naming_what_is_wrong(self):
        with open(bad("damaged_programs.json")) as f:
            cases = json.load(f)
        for name, words in cases.items():
            path = bad(name)
            for cmd in (["summary", path],
                        ["record", path, "--input", bad("x24.pt"), "--layers", "all", "--out",
                         self.out()]):
                with self.subTest(file=name, cmd=cmd[0]):
                    line = self.fails(3, *cmd, words=[path, "is malformed", *words])
                    for internal in ("_M_range_check", "unordered_map", "json.exception"):
                        self.assertNotIn(internal, line)
        self.assertFalse(os.path.exists(self.out()))

    def test_nesting_costs_memory_in_the_files_size_not_its_square(self):
        """1,000 levels (a 450 KB file) took more than 6 GB, 10,000 were SIGSEGV. ru_maxrss counts
        this test's own pages too (a forked child keeps its parent's peak through exec): the
        bound is that peak's order, far below the square's."""
        for depth in (1000, 10000):
            with self.subTest(depth=depth):
                proc = subprocess.Popen([MODREC, "summary", bad(f"nested_{depth}.pt2")],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                _, status, usage = os.wait4(proc.pid, 0)
                self.assertEqual(os.waitstatus_to_exitcode(status), 3)
                self.assertLess(usage.ru_maxrss, 1024 * 1024, "KB")

    def test_subgraphs_nested_50_deep_run_as_eager(self):
        """A depth real programs never reach still runs: 50 no_grad blocks around a ReLU."""
        out = self.out()
        run("record", bad("nested_50.pt2"), "--input", bad("x24.pt"), "--layers", "all",
            "--no-backward", "--out", out)
        with open(os.path.join(out, "manifest.json")) as f:
            label = next(l["label"] for l in json.load(f)["layers"] if l["path"] == "0")
        got = torch.load(os.path.join(out, "tensors", label, "output.pt"))
        torch.testing.assert_close(got, torch.relu(torch.load(bad("x24.pt"))), rtol=0, atol=0)


class InflatedSizes(ErrorCase):
    def test_compressed_entry_claiming_gigabytes_is_refused(self):
        """A tiny damaged file must not make LibTorch allocate what a compressed entry claims."""
        bad_model = os.path.join(tempfile.mkdtemp(prefix="inflate-"), "model.pt")
        code = """
import struct, sys, zipfile
src, dst = sys.argv[1:]
b = bytearray(open(src, "rb").read())
e = [i for i in zipfile.ZipFile(src).infolist() if i.compress_type == zipfile.ZIP_DEFLATED][0]
huge = struct.pack("<I", 0x7FFFFFFF)
b[e.header_offset + 22:e.header_offset + 26] = huge  # local header: uncompressed size
c = b.find(b"PK\\x01\\x02")
while b[c + 46:c + 46 + int.from_bytes(b[c + 28:c + 30], "little")] != e.filename.encode():
    c = b.find(b"PK\\x01\\x02", c + 4)
b[c + 24:c + 28] = huge  # central directory: uncompressed size
open(dst, "wb").write(b)
"""
        subprocess.run([PYTHON, "-c", code, NET, bad_model], check=True)
        self.fails(3, "summary", bad_model, words=[bad_model, "impossible uncompressed size"])


class InputFiles(ErrorCase):
    CASES = {
        NET: ["TorchScript model", "torch.save"],
        bad("dict.pt"): ["dict", "torch.save"],
        bad("parameter.pt"): ["nn.Parameter", "detach"],
        bad("protocol4.pt"): ["protocol 4", "torch.save"],
        bad("missing.pt"): ["does not exist"],
        bad("folder.pt"): ["directory"],
        bad("empty.pt"): ["empty"],
        bad("random.bin"): ["neither", "torch.save"],
    }

    def test_summary_and_record(self):
        for path, words in self.CASES.items():
            with self.subTest(input=os.path.basename(path)):
                self.fails(3, "summary", NET, "--input", path, words=[path, *words])
                self.fails(3, "record", NET, "--input", path, "--layers", "all", "--out", self.out(),
                           words=[path, *words])
        self.assertFalse(os.path.exists(self.out()))

    def test_flipped_data_byte_names_the_damaged_entry(self):
        """LibTorch reads such a file without a word; modrec checks the CRC-32 of every entry."""
        good = os.path.join(tempfile.mkdtemp(prefix="flip-"), "x.pt")
        flipped = good.replace("x.pt", "flipped.pt")
        code = ("import torch, sys, zipfile; torch.save(torch.ones(2, 1, 28, 28), sys.argv[1]); "
                "z = zipfile.ZipFile(sys.argv[1]); e = [i for i in z.infolist() if i.filename.endswith('data/0')][0]; "
                "b = bytearray(open(sys.argv[1], 'rb').read()); h = e.header_offset; "
                "o = h + 30 + int.from_bytes(b[h + 26:h + 28], 'little') + int.from_bytes(b[h + 28:h + 30], 'little'); "
                "b[o + 5] ^= 0x40; open(sys.argv[2], 'wb').write(b)")
        subprocess.run([PYTHON, "-c", code, good, flipped], check=True)
        run("summary", NET, "--input", good)
        self.fails(3, "summary", NET, "--input", flipped, words=[flipped, "data/0", "CRC-32"])


class DeepPickles(ErrorCase):
    """A pickle of 200,000 nested lists, as an input file's data.pkl and as a TorchScript model's
    data.pkl and constants.pkl: LibTorch frees nested values recursively (SIGSEGV before);
    modrec's own pickle machine refuses the nesting first, naming the file and the entry."""
    DEPTH = 200_000

    def deep_copy(self, source, entry):
        """`source` (a zip) with its entries ending in `entry` replaced by the deep pickle."""
        body = b"\x80\x02" + b"]" * self.DEPTH + b"a" * (self.DEPTH - 1) + b"."
        path = os.path.join(self.tmp, entry.replace(".", "_") + os.path.basename(source))
        with zipfile.ZipFile(source) as z, zipfile.ZipFile(path, "w", zipfile.ZIP_STORED) as out:
            for name in z.namelist():
                out.writestr(name, body if name.endswith("/" + entry) else z.read(name))
        return path

    def test_refused_before_libtorch_reads_them(self):
        x = self.deep_copy(sample("TinyConvNet", "input.pt"), "data.pkl")
        self.fails(3, "summary", NET, "--input", x,
                   words=[x, "data.pkl nests values more than 1000 deep"])
        for entry in ("data.pkl", "constants.pkl"):
            model = self.deep_copy(NET, entry)
            self.fails(3, "summary", model, words=[model, entry, "nests values more than 1000 deep"])


class WrongInput(ErrorCase):
    def record(self, *inputs, model=NET):
        return ["record", model, *inputs, "--layers", "all", "--out", self.out()]

    def test_failure_inside_a_submodule_names_the_call(self):
        for name in ("3ch.pt", "rank3.pt", "long.pt"):  # wrong channels, rank, dtype: all in conv1
            with self.subTest(input=name):
                self.fails(4, *self.record("--input", bad(name)), words=["1-1", "conv1", "input"])
                self.fails(4, "summary", NET, "--input", bad(name), words=["1-1", "conv1"])
        self.assertFalse(os.path.exists(self.out()))

    def test_wrong_shape_in_root_forward(self):  # max_pool2d of a too small map, in forward itself
        self.fails(4, *self.record("--input", bad("small.pt")), words=["SingleInputNet", "shape"])

    def test_failing_backward_is_the_models_failure(self):
        self.fails(4, "record", bad("inplace_backward.pt"), "--input-size", "2x4", "--layers", "all",
                   "--out", self.out(), words=["backward", "inplace", "--capture output"])
        self.assertFalse(os.path.exists(self.out()))

    def test_too_many_and_too_few_inputs(self):  # usage errors since forward's schema binds them
        self.fails(2, *self.record("--input-size", SIZE, "--input-size", SIZE),
                   words=["forward takes 1 argument(s)", "forward(x: Tensor)"])
        self.fails(2, *self.record("--input-size", "4x8", model=TWO), words=["forward", "'y'"])
        self.fails(2, "summary", TWO, "--input-size", "4x8", words=["forward", "'y'"])
        self.assertFalse(os.path.exists(self.out()))

    def test_nan_and_inf_record_then_fail_check(self):
        for name, rule in (("nan.pt", "no-nan"), ("inf.pt", "no-inf")):
            with self.subTest(input=name):
                rec = self.out(name)
                run(*self.record("--input", bad(name))[:-1], rec)
                stdout, _ = run("check", rec, code=1)
                self.assertIn(rule, stdout)


class Output(ErrorCase):
    def record(self, out, *extra):
        return ["record", NET, "--input", NET_INPUT, "--layers", "1-1", "--out", out, *extra]

    def test_existing_directory(self):
        out = self.out()
        os.makedirs(out)
        with open(os.path.join(out, "keep.txt"), "w") as f:
            f.write("keep")
        self.fails(5, *self.record(out), words=[out, "--force"])
        self.assertEqual(os.listdir(out), ["keep.txt"])
        run(*self.record(out, "--force"))
        self.assertIn("manifest.json", os.listdir(out))
        self.assertNotIn("keep.txt", os.listdir(out))
        self.assertEqual(glob.glob(os.path.join(self.tmp, TMP_GLOB)), [])

    def test_existing_file(self):
        out = self.out("file")
        with open(out, "w") as f:
            f.write("keep")
        for extra in ((), ("--force",)):
            with self.subTest(extra=extra):
                self.fails(5, *self.record(out, *extra), words=[out, "not a directory"])
                with open(out) as f:
                    self.assertEqual(f.read(), "keep")

    def test_unwritable_parent(self):
        parent = self.out("ro")
        os.makedirs(parent)
        os.chmod(self.tmp, 0o755)
        os.chmod(parent, 0o555)
        out = os.path.join(parent, "rec")
        prefix = []
        if os.geteuid() == 0:
            setpriv = shutil.which("setpriv")
            if not setpriv:
                self.skipTest("root writes anywhere and setpriv is missing")
            # Root without the capability to override file permissions (it stays root: the
            # pinned environment it loads LibTorch from may sit in root's home).
            prefix = [setpriv, "--bounding-set=-dac_override,-dac_read_search"]
        p = subprocess.run([*prefix, MODREC, *self.record(out)], capture_output=True, text=True)
        self.assertEqual(p.returncode, 5, p.stderr)
        line = p.stderr.strip()
        self.assertRegex(line, LINE)
        self.assertIn(out, line)
        self.assertIn("permission", line.lower())
        self.assertEqual(os.listdir(parent), [])

    def test_full_disk_during_the_pass(self):
        """Kept tensors are written as they are captured: a write that fails inside forward (in
        a hook the TorchScript interpreter runs) or backward (in an autograd hook) is exit 5
        naming the file, like any other write failure, and leaves nothing behind."""
        stats = self.out("stats")
        run("record", NET, "--input", NET_INPUT, "--layers", "all", "--save", "none", "--out", stats)
        with open(os.path.join(stats, "stats.json")) as f:
            layers = json.load(f)["layers"]
        forward_bytes = sum(4 * t["count"] for l in layers for t in l["captures"]["output"])
        for where, limit in (("forward", 1000), ("backward", forward_bytes + 100)):
            with self.subTest(where=where):
                out = self.out(where)
                p = subprocess.run([MODREC, "record", NET, "--input", NET_INPUT, "--layers", "all",
                                    "--save", "pt", "--out", out], capture_output=True, text=True,
                                   preexec_fn=lambda: limit_file_size(limit))
                self.assertEqual(p.returncode, 5, p.stderr)
                line = p.stderr.strip()
                self.assertRegex(line, LINE)
                self.assertIn("cannot write: File too large", line)
                self.assertIn("batch-1.raw", line)
                self.assertFalse(os.path.exists(out))
                self.assertEqual(glob.glob(os.path.join(self.tmp, TMP_GLOB)), [])


def limit_file_size(limit):
    """Writes past `limit` bytes fail with EFBIG instead of killing the process (SIGXFSZ)."""
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))


class Flags(ErrorCase):
    def test_usage_errors_name_the_flag(self):
        rec = ["record", NET, "--input-size", SIZE, "--out", self.out()]
        cases = [
            (["summary", NET, "--input-size", "1xx3"], ["--input-size", "1xx3"]),
            (["summary", NET, "--input-size", "2x3:complex"], ["--input-size", "complex"]),
            (["summary", NET, "--input-size", SIZE, "--columns", "output_size,bogus"],
             ["--columns", "bogus", "output_size"]),
            (["summary", NET, "--depth", "-1"], ["--depth", "-1"]),
            ([*rec, "--layers", "re:("], ["--layers", "re:("]),
            ([*rec, "--layers", "type:Nope"], ["--layers", "type:Nope", "1-1"]),
            ([*rec, "--layers", "all", "--capture", "bogus"], ["--capture", "bogus", "grad_output"]),
            ([*rec, "--layers", "all", "--capture", "grad_output", "--no-backward"],
             ["--no-backward", "grad"]),
            (["summary"], ["MODEL", "MODREC_MODEL"]),
        ]
        for args, words in cases:
            with self.subTest(args=args[2:]):
                self.fails(2, *args, words=words, env={"MODREC_MODEL": ""})
        self.assertFalse(os.path.exists(self.out()))

    def test_unknown_label_lists_valid_labels_closest_first(self):
        line = self.fails(2, "record", NET, "--input-size", SIZE, "--layers", "1-9", "--out", self.out(),
                          words=["--layers", "1-9", "1-1", "conv1"])
        self.assertLess(line.index("1-1"), line.index("0-1"))

    def test_cuda_without_a_gpu_is_a_usage_error(self):
        import torch
        if torch.cuda.is_available():
            self.skipTest("this machine has a GPU")
        self.fails(2, "summary", NET, "--input-size", SIZE, "--device", "cuda",
                   words=["--device cuda", "no CUDA GPU", "--device cpu"])

    def test_zero_dimension_is_a_usage_error(self):
        self.fails(2, "summary", NET, "--input-size", "0x3", words=["--input-size", "0x3"])

    def test_an_allocation_that_cannot_be_met_names_the_flag_and_bytes(self):
        # 4e12 float32 values: beyond this machine; and a count beyond 64 bits.
        self.fails(2, "summary", NET, "--input-size", "100000x100000x100x1",
                   words=["--input-size", "100000x100000x100x1", "4000000000000 bytes"])
        self.fails(2, "summary", NET, "--input-size", "999999999999x999999999999",
                   words=["--input-size", "more than 2^64 bytes"])

    def test_parser_errors_name_the_flag(self):  # CLI11's own errors: code and flag
        rec = ["record", NET, "--input-size", SIZE, "--out", self.out()]
        cases = [(["summary", NET, "--bogus"], ["--bogus"]),
                 ([*rec, "--layers", "all", "--save", "bogus"], ["--save", "bogus"]),
                 (rec, ["--layers"])]
        for args, words in cases:
            with self.subTest(args=args[2:]):
                self.fails(2, *args, words=words, strict=False)

    def test_parser_errors_follow_the_line_form(self):
        self.fails(2, "summary", NET, "--bogus", words=["(--bogus)", "modrec summary --help"])
        self.fails(2, "record", NET, "--input-size", "2x1x28x28", "--layers", "all", "--save", "bogus",
                   words=["(--save)", "pt,npy,none"])
        self.fails(2, "record", NET, "--input-size", "2x1x28x28", words=["(--layers)", "required"])


class GlobalFlagsAnywhere(ErrorCase):
    def test_global_flags_after_the_subcommand(self):
        args = ["record", NET, "--input-size", SIZE, "--layers", "1-1"]
        _, err = run(*args, "--out", self.out("a"), "-q", "--threads", "2")
        self.assertEqual(err, "")  # -q: not even the info line
        _, err = run(*args, "--out", self.out("b"), "-v", "--log-format", "json")
        self.assertIn('"level":"debug"', err)
        # 1, not the default (the core count): only a --threads read after the subcommand gives it
        self.assertIn("statistics on 1 threads", run("-v", *args, "--out", self.out("c"), "--threads", "1")[1])


class ModelVariable(ErrorCase):
    def model_of(self, *args, env):
        stdout, _ = run("summary", *args, "--format", "json", env={"MODREC_MODEL": env})
        return stdout

    def test_precedence(self):
        net = self.model_of(NET, env="")
        two = self.model_of(TWO, env="")
        self.assertNotEqual(net, two)
        self.assertEqual(self.model_of(env=NET), net)  # the variable alone
        self.assertEqual(self.model_of("--model", NET, env=TWO), net)  # flag over variable
        self.assertEqual(self.model_of(NET, "--model", TWO, env=TWO), net)  # positional over flag
        self.fails(3, "summary", env={"MODREC_MODEL": bad("empty.pt")}, words=[bad("empty.pt")])


class Signals(ErrorCase):
    def interrupt(self, signo):
        model = sample("resnet18")
        out = self.out()
        # The child gets the default disposition even when the test runner ignores SIGINT.
        p = subprocess.Popen([MODREC, "record", model, "--input-size", "64x3x64x64", "--batch-size", "1",
                              "--layers", "all", "--out", out], stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE, text=True,
                             preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
        deadline = time.time() + 60  # the temp dir shows the record is under way
        while not glob.glob(os.path.join(self.tmp, TMP_GLOB)) and p.poll() is None and time.time() < deadline:
            time.sleep(0.05)
        time.sleep(1)
        p.send_signal(signo)
        _, err = p.communicate(timeout=120)
        self.assertEqual(p.returncode, 128 + signo, err)
        self.assertRegex(err.strip(), r"^modrec: error: interrupted by SIG(INT|TERM)")
        self.assertEqual(os.listdir(self.tmp), [])

    def test_sigint(self):
        self.interrupt(signal.SIGINT)

    def test_sigterm(self):
        self.interrupt(signal.SIGTERM)


class VersionAndHelp(unittest.TestCase):
    def test_version(self):
        stdout, _ = run("--version")
        libtorch = torch.__version__.split("+")[0]
        if torch.version.cuda is None:
            cuda = "CUDA: not in this torch build"
        elif not torch.cuda.is_available():
            cuda = f"CUDA {torch.version.cuda}: no GPU visible"
        else:
            gpus = torch.cuda.device_count()
            cuda = f"CUDA {torch.version.cuda}: {gpus} GPU{'s' if gpus > 1 else ''}"
        self.assertRegex(stdout, rf"^modrec \d+\.\d+\.\d+ \(LibTorch {libtorch}, {cuda}\)\n$")

    def test_help_has_examples(self):
        for sub in ("summary", "record", "check", "diff"):
            with self.subTest(sub=sub):
                stdout, _ = run(sub, "--help")
                self.assertIn("Example", stdout)


if __name__ == "__main__":
    main()

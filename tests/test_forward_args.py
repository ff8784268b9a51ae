"""Forward arguments that are no positional tensors (issue 21): --arg NAME=VALUE parsed by the
declared type, --input NAME=FILE bound by name, the schema's defaults, against eager PyTorch.

ArgsNet (scripts/models.py) takes a required List[int], an Optional tensor, a float, a str, a bool
and an int with a default. Its table equals torchinfo's called with the same keyword arguments
(scripts/torchinfo_table.py --kwargs), its captures equal eager hooks' (scripts/oracle.py record
--kwargs). CountingNet keeps state between calls: run batch after batch it gives what a Python
loop over the batches gives.
"""
import inspect
import json
import os
import shutil
import sys
import tempfile
import unittest

import torch

from e2e import MODELS, ROOT, main, run, sample, torchinfo_table
from test_record_oracle import RecordComparison

sys.path.insert(0, os.path.join(ROOT, "scripts"))
import models  # noqa: E402

COLUMNS = "input_size,output_size,num_params,mult_adds"
# The cases: modrec's flags, and the keyword arguments torchinfo and the oracle get.
DEFAULTS = (["--arg", "size=[3,2]"], {"size": [3, 2]})


def mask_file():
    path = os.path.join(MODELS, "ArgsNet.mask.pt")
    if not os.path.exists(path):
        torch.save(torch.rand(5, 4, 8, 8, generator=torch.Generator().manual_seed(1)), path)
    return path


def every_kind():
    """Every argument given: the Optional tensor by name, the others by --arg."""
    flags = ["--input", "mask=" + mask_file(), "--arg", "size=[2, 3]", "--arg", "scale=0.5",
             "--arg", "pooling=max", "--arg", "relu=true", "--arg", "repeat=3"]
    kwargs = {"size": [2, 3], "mask": torch.load(mask_file()), "scale": 0.5, "pooling": "max",
              "relu": True, "repeat": 3}
    return flags, kwargs


class ForwardArguments(RecordComparison):
    @classmethod
    def setUpClass(cls):
        cls.model = sample("ArgsNet")
        cls.x = sample("ArgsNet.input")
        cls.tmp = tempfile.mkdtemp(prefix="forward-args-")

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def kwargs_file(self, kwargs):
        path = os.path.join(self.tmp, f"kwargs-{len(os.listdir(self.tmp))}.pt")
        torch.save(kwargs, path)
        return path

    def torchinfo(self, kwargs):
        return torchinfo_table("ArgsNet", "--weights", self.model, "--input", self.x, "--columns",
                               COLUMNS, "--kwargs", self.kwargs_file(kwargs))

    def test_tables_equal_torchinfo_with_the_same_keyword_arguments(self):
        for flags, kwargs in (DEFAULTS, every_kind()):
            with self.subTest(flags=flags):
                table, _ = run("summary", self.model, "--input", self.x, *flags,
                               "--columns", COLUMNS)
                self.assertEqual(table, self.torchinfo(kwargs))

    def test_captures_equal_eager_hooks(self):
        for flags, kwargs in (DEFAULTS, every_kind()):
            with self.subTest(flags=flags):
                manifest = self.compare("ArgsNet", [self.x], model=self.model, extra=flags,
                                        oracle_args=["--kwargs", self.kwargs_file(kwargs)])
                args = manifest["inputs"]["args"]
                self.assertEqual(args["size"], kwargs["size"])
                self.assertEqual(args["repeat"], kwargs.get("repeat", 1))  # the default
                self.assertEqual("mask" in args, "mask" not in kwargs)  # None: an --arg's value

    def test_batches_cut_tensors_and_pass_values_to_every_call(self):
        flags, kwargs = every_kind()
        out = os.path.join(self.tmp, "batched")
        run("record", self.model, "--input", self.x, *flags, "--batch-size", "2", "--layers",
            "all", "--capture", "output", "--no-backward", "--out", out)
        with torch.no_grad():
            want = self.eager()(torch.load(self.x), **kwargs)
        got = torch.load(os.path.join(out, "tensors", "0-1", "output.pt"))
        self.assertTrue(torch.allclose(got, want, atol=1e-6))
        with open(os.path.join(out, "manifest.json")) as f:
            manifest = json.load(f)
        self.assertEqual(manifest["inputs"]["named_files"], {"mask": mask_file()})
        self.assertEqual(manifest["inputs"]["args"],
                         {"size": [2, 3], "scale": 0.5, "pooling": "max", "relu": True, "repeat": 3})
        self.assertEqual(manifest["batches"], 3)
        shard = os.path.join(self.tmp, "shard")  # samples [2, 5) of 5, the values unchanged
        run("record", self.model, "--input", self.x, *flags, "--shard", "1/2", "--layers", "0-1",
            "--capture", "output", "--no-backward", "--out", shard)
        got = torch.load(os.path.join(shard, "tensors", "0-1", "output.pt"))
        self.assertTrue(torch.allclose(got, want[2:], atol=1e-6))

    def eager(self):
        model = models.build("ArgsNet")
        model.load_state_dict(torch.jit.load(self.model).state_dict())
        return model

    def test_graph_check_watch_and_flops_pass_the_arguments(self):
        flags, kwargs = every_kind()
        x = torch.load(self.x)
        graph = json.loads(run("graph", self.model, "--input", self.x, *flags, "--format", "json")[0])
        calls = [n for n in graph["nodes"] if n["kind"] == "call"]
        self.assertEqual([n["path"] for n in calls], ["conv", "mix", "fc", "fc", "fc", "act"])
        self.assertEqual(calls[1]["output_size"], [5, 4, 2, 3])
        run("check", self.model, "--input", self.x, *flags, "--layers", "all")
        out = os.path.join(self.tmp, "watch")
        run("watch", self.model, "--input", self.x, *flags, "--loss", "mean", "--steps", "1",
            "--out", out)
        with open(os.path.join(out, "manifest.json")) as f:
            manifest = json.load(f)
        eager = self.eager().train()
        self.assertAlmostEqual(manifest["losses"][0], eager(x, **kwargs).mean().item(), places=5)
        self.assertEqual(manifest["inputs"]["args"]["repeat"], 3)
        summary = json.loads(run("summary", self.model, "--input", self.x, *flags, "--columns",
                                 "flops", "--format", "json")[0])
        from torch.utils.flop_counter import FlopCounterMode
        counter = FlopCounterMode(display=False)
        with counter:
            self.eager()(x, **kwargs).sum().backward()
        totals = summary["totals"]
        self.assertEqual(totals["flops_forward"] + totals["flops_backward"],
                         counter.get_total_flops())

    def test_summary_without_input_prints_the_signature(self):
        schema = torch.jit.load(self.model).forward.schema.arguments[1:]
        params = inspect.signature(models.ArgsNet.forward).parameters
        want = []
        for a in schema:
            default = params[a.name].default
            want.append({"name": a.name, "type": a.type.annotation_str,
                         "default": None if default is inspect.Parameter.empty else repr(default),
                         "tensor": "Tensor" in a.type.annotation_str})
        rows = json.loads(run("summary", self.model, "--format", "json")[0])
        self.assertEqual(rows["signature"], want)
        text = ", ".join(f"{p['name']}: {p['type']}" +
                         (f" = {p['default']}" if p["default"] else "") for p in want)
        table, _ = run("summary", self.model)
        self.assertIn(f"\nForward signature: forward({text})\n", table)


class Errors(unittest.TestCase):
    """Each refusal is one line with its exit code, and nothing is written."""

    @classmethod
    def setUpClass(cls):
        cls.model, cls.x = sample("ArgsNet"), sample("ArgsNet.input")

    def fails(self, code, *flags, words=()):
        out = os.path.join(tempfile.mkdtemp(prefix="forward-args-err-"), "run")
        self.addCleanup(shutil.rmtree, os.path.dirname(out))
        for cmd in (["summary", self.model], ["record", self.model, "--layers", "all", "--out", out]):
            _, err = run(*cmd, "--input", self.x, *flags, code=code)
            lines = err.strip().split("\n")
            self.assertEqual(len(lines), 1, err)
            self.assertRegex(lines[0], r"^modrec: error: .+ \(.+\): .+$")
            for w in words:
                self.assertIn(w, lines[0])
            self.assertFalse(os.path.exists(out))
            self.assertEqual(os.listdir(os.path.dirname(out)), [])

    def test_unknown_name_lists_the_signature(self):
        self.fails(2, "--arg", "size=[2,2]", "--arg", "sizes=3",
                   words=["'sizes'", "forward(x: Tensor, size: List[int]"])
        self.fails(2, "--arg", "size=[2,2]", "--input", "masks=" + self.x, words=["'masks'"])

    def test_value_that_does_not_parse_names_argument_type_and_value(self):
        for flag, value, type_ in (("size", "[2,x]", "List[int]"), ("scale", "half", "float"),
                                   ("relu", "yes", "bool"), ("repeat", "2.5", "int")):
            with self.subTest(flag=flag):
                extra = [] if flag == "size" else ["--arg", "size=[2,2]"]
                self.fails(2, *extra, "--arg", f"{flag}={value}",
                           words=[f"'{flag}'", type_, f"'{value}'"])

    def test_required_argument_missing_names_it(self):
        self.fails(2, words=["'size'", "List[int]", "--arg size=", "forward(x: Tensor"])

    def test_tensor_and_value_flags_are_not_swapped(self):
        self.fails(2, "--arg", "size=[2,2]", "--arg", "mask=1", words=["'mask'", "--input mask="])
        self.fails(2, "--input", "scale=" + self.x, "--arg", "size=[2,2]",
                   words=["'scale'", "--arg scale="])
        self.fails(2, "--arg", "size=[2,2]", "--arg", "size=[3,3]", words=["'size'", "twice"])
        self.fails(2, *["--input", self.x] * 7, words=["takes 7 argument(s)", "give 8"])
        self.fails(2, "--input", self.x, words=["'size'", "List[int], not a tensor", "--arg size="])

    def test_the_models_own_exception_is_exit_4_with_its_message(self):
        self.fails(4, "--arg", "size=[2,2]", "--arg", "pooling=median",
                   words=["pooling must be 'mean' or 'max', got 'median'"])

    def test_arg_without_equals_sign(self):
        _, err = run("summary", self.model, "--arg", "size", code=2)
        self.assertIn("--arg", err)


class StatefulModel(unittest.TestCase):
    """CountingNet's state advances once per batch, as in a Python loop over the batches."""

    def test_record_runs_batch_after_batch(self):
        model, x = sample("CountingNet"), sample("CountingNet.input")
        out = os.path.join(tempfile.mkdtemp(prefix="counting-"), "run")
        self.addCleanup(shutil.rmtree, os.path.dirname(out))
        run("record", model, "--input", x, "--arg", "stride=2", "--batch-size", "2", "--layers",
            "all", "--capture", "input,output", "--out", out)
        eager = models.build("CountingNet")
        eager.load_state_dict(torch.jit.load(model).state_dict())
        inputs, outputs = [], []
        for batch in torch.load(x).split(2):
            with torch.no_grad():
                inputs.append(batch + eager.context)
                outputs.append(eager(batch, stride=2))
        got = torch.load(os.path.join(out, "tensors", "0-1", "output.pt"))
        self.assertTrue(torch.allclose(got, torch.cat(outputs), atol=1e-6))
        fc_input = torch.load(os.path.join(out, "tensors", "1-1", "input.pt"))
        self.assertTrue(torch.allclose(fc_input, torch.cat(inputs), atol=1e-6))


if __name__ == "__main__":
    main()

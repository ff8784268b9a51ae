"""The Python API (python/modrec, docs/python.md) against PyTorch on the same model and input:
Summary rows and totals against torchinfo's ModelStatistics on the eager model, its text against
the CLI's table; Run tensors against the files and eager hooks' (scripts/oracle.py record);
to_pandas() against stats.json; diff/check verdicts, and exceptions by exit code; the example
notebook executed in a Jupyter kernel. The API runs the built binary (MODREC_BIN, as ctest sets
it), imported from the source tree."""
import copy
import gc
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

import numpy
import torch
import torchinfo

from e2e import MODREC, PYTHON, ROOT, SAMPLES, main, oracle, run

sys.path.insert(0, os.path.join(ROOT, "python"))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
os.environ["MODREC_BIN"] = MODREC
import modrec  # noqa: E402
import oracle as eager  # noqa: E402  (scripts/oracle.py: the eager models with a .pt's weights)

MODEL = os.path.join(SAMPLES, "TinyConvNet.pt")
INPUT = os.path.join(SAMPLES, "TinyConvNet.input.pt")
COLUMNS = ["input_size", "output_size", "num_params", "kernel_size", "mult_adds"]
CAPTURES = ["input", "output", "grad_input", "grad_output", "param", "param_grad"]
NOTEBOOK = os.path.join(ROOT, "docs", "examples", "modrec-in-a-notebook.ipynb")


def eager_model(name="TinyConvNet", weights=MODEL):
    return eager.load_model(name, weights, train=False)


def same(a, b):
    """Equal values: tensors element by element, tuples and lists item by item."""
    if isinstance(a, (tuple, list)):
        return type(a) is type(b) and len(a) == len(b) and all(map(same, a, b))
    if isinstance(a, torch.Tensor):
        return isinstance(b, torch.Tensor) and torch.equal(a, b)
    return a == b


def flat(value):
    """The tensors of a value depth-first (a gradient that never arrived, None, left out)."""
    if isinstance(value, (tuple, list)):
        return [t for v in value for t in flat(v)]
    return [value] if isinstance(value, torch.Tensor) else []


def load_json(*path):
    with open(os.path.join(*path)) as f:
        return json.load(f)


class ImportStaysLight(unittest.TestCase):
    def test_import_modrec_imports_neither_torch_nor_pandas(self):
        code = ("import sys, modrec; modrec.summary, modrec.Run, modrec.ModrecError; "
                "print(sorted(m for m in sys.modules if m.split('.')[0] in "
                "('torch', 'pandas', 'numpy')))")
        out = subprocess.run([PYTHON, "-c", code], check=True, capture_output=True, text=True,
                             env=dict(os.environ, PYTHONPATH=os.path.join(ROOT, "python"))).stdout
        self.assertEqual(out, "[]\n")


class SummaryEqualsTorchinfo(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.model, cls.x = eager_model(), torch.load(INPUT)
        cls.want = torchinfo.summary(cls.model, input_data=cls.x, verbose=0,
                                     col_names=COLUMNS)
        cls.of_file = modrec.summary(MODEL, INPUT, columns=COLUMNS)
        cls.of_module = modrec.summary(cls.model, cls.x, columns=COLUMNS)

    def test_str_is_the_cli_table_byte_for_byte(self):
        table, _ = run("summary", MODEL, "--input", INPUT, "--columns", ",".join(COLUMNS))
        self.assertEqual(str(self.of_file), table)
        self.assertEqual(repr(self.of_file), table)
        # the module, exported into a scratch archive, has torchinfo's own table
        self.assertEqual(str(self.of_module),
                         str(self.want).replace("(Units.MEGABYTES)", "(M)") + "\n")

    def test_rows_are_torchinfos_layer_infos(self):
        for summary in (self.of_file, self.of_module):
            self.assertEqual(len(summary.rows), len(self.want.summary_list))
            for row, info in zip(summary.summary_list, self.want.summary_list):
                for name in ("class_name", "var_name", "depth", "depth_index", "input_size",
                             "output_size", "num_params", "trainable_params", "kernel_size",
                             "is_recursive", "param_bytes", "output_bytes", "executed"):
                    self.assertEqual(getattr(row, name), getattr(info, name), (row.label, name))
                self.assertEqual(row.is_leaf_layer, info.is_leaf_layer, row.label)
                if info.is_leaf_layer:  # torchinfo's macs of a container are never shown
                    self.assertEqual(row.macs, info.macs, row.label)
                self.assertEqual(row.label, f"{info.depth}-{info.depth_index}")
        self.assertEqual([r.path for r in self.of_file.rows[:3]], ["", "features", "features.0"])

    def test_totals_are_torchinfos_model_statistics(self):
        for summary in (self.of_file, self.of_module):
            for name in ("total_params", "trainable_params", "total_mult_adds",
                         "total_param_bytes", "total_output_bytes"):
                self.assertEqual(getattr(summary, name), getattr(self.want, name), name)
            self.assertEqual(summary.total_input_bytes, self.x.numel() * self.x.element_size())
            self.assertEqual(summary.non_trainable_params, 0)

    def test_to_pandas_has_a_row_per_table_row(self):
        frame = self.of_file.to_pandas()
        self.assertEqual(len(frame), len(self.of_file.rows))
        self.assertEqual(list(frame.columns[:4]), ["label", "path", "class_name", "var_name"])
        self.assertEqual(frame["num_params"].tolist(), [r.num_params for r in self.want.summary_list])
        self.assertEqual(frame.loc[2, "output_size"], [2, 8, 16, 16])

    def test_notebook_html_is_the_escaped_table(self):
        html = self.of_file._repr_html_()
        self.assertTrue(html.startswith("<pre") and html.endswith("</pre>"))
        self.assertIn("├─Sequential: 1-1", html)

    def test_depth_hides_rows_and_no_input_gives_the_signature(self):
        shallow = modrec.summary(MODEL, INPUT, depth=1)
        self.assertEqual([r.label for r in shallow.rows if r.shown], ["0-1", "1-1", "1-2", "1-3"])
        self.assertEqual(len(shallow.rows), len(self.of_file.rows))
        bare = modrec.summary(MODEL)
        self.assertFalse(bare.has_input)
        self.assertEqual(bare.rows[1].input_size, [])
        self.assertEqual(bare.total_params, self.want.total_params)
        self.assertIsNotNone(bare.signature)

    def test_options_become_flags(self):
        named = modrec.summary(MODEL, INPUT, row_settings=["depth", "var_names"], col_width=20)
        table, _ = run("summary", MODEL, "--input", INPUT, "--row-settings", "depth,var_names",
                       "--col-width", "20")
        self.assertEqual(str(named), table)


class RecordedRun(unittest.TestCase):
    """One recording of every capture of every call, against the files and eager hooks."""

    @classmethod
    def setUpClass(cls):
        cls.work = tempfile.mkdtemp(prefix="python-api-")
        cls.out = os.path.join(cls.work, "run")
        cls.recorded = modrec.record(MODEL, INPUT, out=cls.out, capture=CAPTURES)
        cls.ref = oracle("record", "TinyConvNet", "--weights", MODEL, "--input", INPUT,
                         "--labels", "all")
        cls.manifest = load_json(cls.out, "manifest.json")

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.work, ignore_errors=True)

    def test_layers_in_call_order_by_label_path_and_place(self):
        self.assertEqual([l.label for l in self.recorded.layers],
                         [l["label"] for l in self.manifest["layers"]])
        self.assertIs(self.recorded["features.0"], self.recorded["2-1"])
        self.assertIs(self.recorded[0], self.recorded["0-1"])
        self.assertEqual(self.recorded["2-1"].type, "Conv2d")
        self.assertIn("classifier", self.recorded)
        with self.assertRaises(KeyError):
            self.recorded["no.such.layer"]

    def test_tensors_equal_the_files_and_eager_hooks(self):
        index = load_json(self.ref, "index.json")
        self.assertEqual(len(index["layers"]), len(self.recorded))
        self.assertIsNone(self.recorded["0-1"].grad_input)  # the input needs no gradient
        self.assertEqual(self.recorded["1-1"].params, {})  # a container has no parameter of its own
        for layer in self.recorded:
            for capture in ("input", "output", "grad_input", "grad_output"):
                got = layer.capture(capture)
                file = os.path.join(self.out, "tensors", layer.label, capture + ".pt")
                self.assertTrue(same(got, torch.load(file)) if got is not None else
                                not os.path.exists(file), (layer.label, capture))
                ref = os.path.join(self.ref, layer.label, capture + ".pt")  # none: no tensor
                want = flat(torch.load(ref)) if os.path.exists(ref) else []
                self.assertEqual(len(flat(got)), len(want), (layer.label, capture))
                for g, w in zip(flat(got), want):
                    torch.testing.assert_close(g, w, rtol=1e-5, atol=1e-6,
                                               msg=f"{layer.label} {capture}")
        self.assertIs(type(self.recorded["2-1"].output), torch.Tensor)

    def test_params_equal_the_models(self):
        model = eager_model()
        conv = self.recorded["features.0"]
        self.assertEqual(list(conv.params), ["weight", "bias"])
        for name, value in conv.params.items():
            self.assertTrue(torch.equal(value, model.features[0].get_parameter(name)))
        self.assertEqual(set(conv.param_grads), {"weight", "bias"})

    def test_stats_and_to_pandas_are_stats_json(self):
        stats = load_json(self.out, "stats.json")["layers"]
        self.assertEqual(self.recorded["2-1"].stats, stats[2]["captures"])
        frame = self.recorded.to_pandas()
        want = {(l["label"], c, t["tensor"]): (l, t) for l in stats
                for c, ts in l["captures"].items() for t in ts}
        self.assertEqual(len(frame), len(want))
        self.assertNotIn("histogram", frame.columns)
        for row in frame.itertuples():
            layer, tensor = want[(row.label, row.capture, row.tensor)]
            self.assertEqual((row.path, row.type, row.call, row.returned),
                             (layer["path"], layer["type"], layer["call"], layer["returned"]))
            self.assertEqual((row.shape, row.dtype), (tuple(tensor["shape"]), tensor["dtype"]))
            for column in ("count", "mean", "std", "min", "max", "abs_max", "l2_norm",
                           "zero_fraction", "nan_count"):
                self.assertEqual(getattr(row, column), tensor[column], (row.label, column))
        output = frame[(frame.label == "2-1") & (frame.capture == "output")].iloc[0]
        self.assertAlmostEqual(output["mean"], self.recorded["2-1"].output.double().mean().item(),
                               places=6)

    def test_opening_reads_nothing_until_asked(self):
        bare = os.path.join(self.work, "bare")
        os.makedirs(bare)
        opened = modrec.Run(bare)  # no manifest: nothing is read yet
        with self.assertRaises(modrec.FileError) as raised:
            opened.layers
        self.assertEqual(raised.exception.code, 3)
        copy_dir = os.path.join(self.work, "no-stats")
        shutil.copytree(self.out, copy_dir)
        os.remove(os.path.join(copy_dir, "stats.json"))
        self.assertTrue(torch.equal(modrec.Run(copy_dir)["1-3"].output, self.recorded["1-3"].output))

    def test_npy_runs_give_memory_maps(self):
        npy = modrec.record(MODEL, INPUT, layers=["2-1", "1-3"], save="npy")
        folder = os.path.dirname(npy.path)
        got = npy["2-1"].output
        self.assertIsInstance(got, numpy.memmap)
        self.assertTrue(numpy.array_equal(got, self.recorded["2-1"].output.numpy()))
        self.assertTrue(numpy.array_equal(npy["1-3"].output,
                                          numpy.load(os.path.join(npy.path, "tensors", "1-3",
                                                                  "output.npy"))))
        # out=None: a temporary directory, removed with the Run
        del npy, got
        gc.collect()
        self.assertFalse(os.path.exists(folder))

    def test_a_capture_not_recorded_is_a_key_error(self):
        outputs = modrec.record(MODEL, INPUT, layers="1-3", capture=["output"], save="none")
        with self.assertRaisesRegex(KeyError, "has no grad_output capture"):
            outputs["1-3"].grad_output
        with self.assertRaisesRegex(KeyError, "saved no tensor file"):
            outputs["1-3"].output
        self.assertEqual(outputs["1-3"].stats["output"][0]["shape"], [2, 10])


class ShardsAndWatch(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.work = tempfile.mkdtemp(prefix="python-api-")
        cls.x = torch.randn(4, 3, 16, 16, generator=torch.Generator().manual_seed(0))

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.work, ignore_errors=True)

    def test_merged_shards_read_as_the_whole(self):
        # shards of one input file (merge compares their inputs' files)
        x = os.path.join(self.work, "x.pt")
        torch.save(self.x, x)
        whole = modrec.record(MODEL, x, layers="1-1,1-3", no_backward=True)
        shards = [modrec.record(MODEL, x, layers="1-1,1-3", no_backward=True, shard=f"{k}/2")
                  for k in range(2)]
        merged = modrec.merge(shards, os.path.join(self.work, "merged"))
        self.assertEqual(merged.manifest["merged_from"], [str(s.path) for s in shards])
        for label in ("1-1", "1-3"):
            self.assertTrue(torch.equal(merged[label].output, whole[label].output))
            self.assertEqual(shards[0][label].output.shape[0], 2)

    def test_watch_steps_are_steps_jsonl(self):
        targets = torch.tensor([1, 2, 3, 4])
        watched = modrec.watch(MODEL, self.x, targets=targets, loss="cross_entropy", steps=3,
                               every=1, layers="1-3", lr=0.01)
        self.assertEqual(watched.kind, "watch")
        steps = watched.steps()
        with open(os.path.join(watched.path, "steps.jsonl")) as f:
            lines = [json.loads(line) for line in f]
        self.assertEqual(len(steps), len(lines))
        self.assertEqual(sorted(set(steps["step"])), [1, 2, 3])
        self.assertEqual(steps["loss"].tolist(), [l["loss"] for l in lines])
        self.assertEqual(steps.groupby("step")["loss"].first().tolist(), watched.losses)
        with self.assertRaises(modrec.FileError):
            modrec.Run(os.path.join(ROOT, "samples")).steps()


class Verdicts(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.work = tempfile.mkdtemp(prefix="python-api-")
        cls.model, cls.x = eager_model(), torch.load(INPUT)
        cls.recorded = modrec.record(MODEL, INPUT, capture=["output"], no_backward=True,
                                out=os.path.join(cls.work, "run"))

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.work, ignore_errors=True)

    def test_diff_of_a_run_with_itself_passes(self):
        same = modrec.diff(self.recorded, self.recorded.path)
        self.assertTrue(same.passed)
        self.assertIsNone(same.first_diverging)
        frame = same.to_pandas()
        self.assertEqual(len(frame), len(self.recorded))
        self.assertTrue(frame["passed"].all())
        self.assertEqual(frame["max_abs"].max(), 0)

    def test_diff_of_models_finds_the_perturbed_call(self):
        perturbed = copy.deepcopy(self.model)
        with torch.no_grad():
            perturbed.features[4].weight[0, 0, 0, 0] += 0.5
        found = modrec.diff(perturbed, MODEL, input=self.x, capture=["output"])
        self.assertFalse(found.passed)
        self.assertEqual((found.first_diverging["path"], found.first_diverging["type"]),
                         ("features.4", "Conv2d"))
        frame = found.to_pandas()
        with torch.no_grad():  # features.4's output in both eager models
            want = (perturbed.features[:5](self.x).double() -
                    self.model.features[:5](self.x).double()).abs().max().item()
        conv = frame[frame.path == "features.4"].iloc[0]
        self.assertFalse(conv["passed"])
        self.assertAlmostEqual(conv["max_abs"], want, delta=1e-5 * want)
        self.assertTrue(frame[frame.path == "features.0"]["passed"].all())

    def test_check_passes_and_fails_by_its_rules(self):
        self.assertTrue(modrec.check(self.recorded).passed)
        outputs = self.recorded.to_pandas()
        limit = float(outputs["abs_max"].median())
        failed = modrec.check(self.recorded, max_abs=limit)
        self.assertFalse(failed.passed)
        beyond = outputs[outputs["abs_max"] > limit]
        self.assertEqual(sorted(v["label"] for v in failed.violations), sorted(beyond["label"]))
        self.assertEqual(len(failed.to_pandas()), len(beyond))
        self.assertTrue(all(v["rule"] == "max-abs" and v["value"] > limit
                            for v in failed.violations))
        of_model = modrec.check(self.model, input=self.x, max_abs=limit)
        self.assertEqual(sorted(v["label"] for v in of_model.violations),
                         sorted(beyond["label"]))

    def test_errors_by_exit_code_carry_the_cli_line(self):
        missing = os.path.join(self.work, "missing.pt")
        five_channels = os.path.join(self.work, "five-channels.pt")  # kept: the command runs again
        torch.save(torch.randn(2, 5, 16, 16), five_channels)
        cases = [
            (modrec.UsageError, 2, lambda: modrec.record(MODEL, INPUT, layers="re:(")),
            (modrec.FileError, 3, lambda: modrec.summary(missing)),
            (modrec.ModelError, 4, lambda: modrec.record(
                MODEL, five_channels, no_backward=True, out=os.path.join(self.work, "none"))),
            (modrec.OutputError, 5, lambda: modrec.record(MODEL, INPUT, out=self.recorded.path)),
        ]
        for cls, code, call in cases:
            with self.assertRaises(cls) as raised:
                call()
            error = raised.exception
            self.assertIsInstance(error, modrec.ModrecError)
            self.assertEqual(error.code, code)
            self.assertTrue(error.line.startswith("modrec: error: "), error.line)
            self.assertEqual(str(error), error.line)
            _, stderr = run(*error.command, code=code)
            self.assertIn(error.line, stderr.splitlines())
        with self.assertRaisesRegex(modrec.UsageError, "needs an example input"):
            modrec.summary(self.model)

    def test_without_a_binary_install_error(self):
        code = ("import modrec\ntry:\n    modrec.summary('m.pt')\nexcept modrec.InstallError "
                "as e:\n    print(e.code, e.line)")
        env = {k: v for k, v in os.environ.items() if k != "MODREC_BIN"}
        out = subprocess.run([PYTHON, "-c", code], check=True, capture_output=True, text=True,
                             env=dict(env, PYTHONPATH=os.path.join(ROOT, "python"))).stdout
        self.assertRegex(out, r"^6 modrec: error: no modrec binary is installed beside this "
                              r"package \(.*\): install the modrec wheel, or set MODREC_BIN")


class Pictures(unittest.TestCase):
    """modrec.graph and modrec.report: the calls of the eager model's modules, the run's page."""

    def test_graph_names_the_eager_models_calls_with_their_output_sizes(self):
        model = eager_model()
        x = torch.load(INPUT)
        sizes = {}

        def hook(module, args, output, name):
            sizes.setdefault(name, list(output.shape))  # returns None: the output stays

        for name, module in model.named_modules():
            if name:
                module.register_forward_hook(lambda m, i, o, name=name: hook(m, i, o, name))
        with torch.no_grad():
            model(x)
        graph = modrec.graph(MODEL, INPUT, depth=99)
        calls = {n["path"]: n for n in graph["nodes"] if n["kind"] == "call"}
        clusters = {c["path"] for c in graph["clusters"] if c["path"]}  # containers (features)
        self.assertEqual(set(calls) | clusters, set(sizes))
        for path, node in calls.items():
            self.assertEqual(node["output_size"], sizes[path], path)
        self.assertIn("digraph", modrec.graph(MODEL, format="dot"))

    def test_report_returns_the_page_and_refuses_an_existing_file(self):
        work = tempfile.mkdtemp(prefix="python-api-report-")
        self.addCleanup(shutil.rmtree, work, ignore_errors=True)
        recorded = modrec.record(MODEL, INPUT, out=os.path.join(work, "run"), save="none")
        page = modrec.report(recorded)
        self.assertIn("<html", page)
        self.assertIn("features.0", page)
        out = os.path.join(work, "report.html")
        self.assertEqual(modrec.report(recorded, out), page)
        with self.assertRaises(modrec.OutputError):
            modrec.report(recorded, out)
        self.assertEqual(modrec.report(recorded, out, force=True), page)
        self.assertEqual(sorted(os.listdir(work)), ["report.html", "run"])


class ExampleNotebook(unittest.TestCase):
    def test_runs_in_a_jupyter_kernel(self):
        import nbclient
        import nbformat

        notebook = nbformat.read(NOTEBOOK, as_version=4)
        work = tempfile.mkdtemp(prefix="python-api-notebook-")
        self.addCleanup(shutil.rmtree, work, True)
        env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "python"))
        previous = dict(os.environ)
        os.environ.update(env)  # the kernel inherits this process's environment
        try:
            nbclient.NotebookClient(notebook, timeout=300, kernel_name="python3",
                                    resources={"metadata": {"path": work}}).execute()
        finally:
            os.environ.clear()
            os.environ.update(previous)
        outputs = {}
        for cell in notebook.cells:
            if cell.cell_type == "code":
                tag = cell.source.splitlines()[0]
                outputs[tag] = [o for o in cell.outputs]
        text = json.dumps([o for cell in outputs.values() for o in cell])
        self.assertNotIn('"output_type": "error"', text)
        summary = outputs["# the table"][0]
        self.assertIn("text/html", summary["data"])
        self.assertIn("Total params: 1,610", summary["data"]["text/plain"])
        self.assertIn("<table", "".join(o.get("data", {}).get("text/html", "")
                                        for o in outputs["# statistics as a DataFrame"]))
        prints = "".join(o.get("text", "") for cell in outputs.values() for o in cell)
        self.assertIn("equal to eager forward hooks: True", prints)
        self.assertIn("first diverging call: 2-5 features.4 (Conv2d)", prints)
        self.assertIn("check passed: False", prints)
        self.assertIn("FileError 3 modrec: error:", prints)


if __name__ == "__main__":
    main()

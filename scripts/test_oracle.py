#!/usr/bin/env python3
"""Checks the oracle against torchinfo's own reference tables and PyTorch.

    python scripts/test_oracle.py [--ref DIR] [unittest args]

1. Rows, labels, shapes and every cell of the reference tables in
   torchinfo-reference/*.out (torchinfo 1.8.0 output) are rebuilt from the
   oracle's rows with torchinfo's display rules, plus the footer totals.
2. `record` gradients equal register_full_backward_hook's, also for in-place
   ReLUs (against a copy of the model with inplace=False).
3. Scripted samples load into the eager models (state_dict keys match) and
   give the same outputs; make_samples.py is byte-reproducible.
DIR defaults to $MODREC_TORCHINFO_REF, then tests/torchinfo-reference in the
repository (torchinfo 1.8.0's own reference tables).
"""
import copy
import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile
import unittest
import zipfile
from typing import Any, Dict, List, Optional, Sequence, Tuple

import torch
from torch import nn

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import models  # noqa: E402
import oracle  # noqa: E402

REF_DIR = ""


def find_ref_dir(given: Optional[str]) -> str:
    for d in (given, os.environ.get("MODREC_TORCHINFO_REF"),
              os.path.join(ROOT, "tests", "torchinfo-reference")):
        if d and os.path.isdir(d):
            return d
    raise SystemExit("test_oracle: torchinfo-reference/ not found; pass --ref DIR")


# --- reading reference tables ---------------------------------------------------

def read_tables(name: str) -> List[Dict[str, Any]]:
    """Each table of a .out file: header cells, body rows (cells), footer lines."""
    with open(os.path.join(REF_DIR, name)) as f:
        lines = f.read().splitlines()
    starts = [i for i, line in enumerate(lines) if line.startswith("Layer (type")]
    tables = []
    for k, header in enumerate(starts):
        stop = starts[k + 1] - 1 if k + 1 < len(starts) else len(lines)
        block = lines[header:stop]
        dividers = [i for i, line in enumerate(block) if is_divider(line)]
        tables.append({
            "header": split_cells(block[0]),
            "rows": [split_cells(line) for line in block[dividers[0] + 1:dividers[1]]],
            "footer": [line for line in block[dividers[1] + 1:] if line and not is_divider(line)],
        })
    return tables


def is_divider(line: str) -> bool:
    return bool(line) and set(line) == {"="}


def split_cells(line: str) -> List[str]:
    body = re.sub(r"^[│├└─ ]+", "", line).strip()  # drop the tree prefix
    return re.split(r"\s{2,}", body)


# --- rendering the oracle's rows with torchinfo's display rules -----------------

COLUMNS = {"input_size", "output_size", "num_params", "params_percent",
           "kernel_size", "mult_adds", "trainable"}


def param_cell(row: oracle.Row, at_limit: bool) -> str:
    if row.num_params == 0:
        return "--"
    if row.is_recursive:
        return "(recursive)"
    if at_limit or row.is_leaf:
        text = f"{row.num_params:,}"
        return text if row.trainable_params else f"({text})"
    left = row.leftover_params()
    return f"{left:,}" if left > 0 else "--"


def percent_cell(row: oracle.Row, at_limit: bool, total: int) -> str:
    if row.is_recursive:
        return "(recursive)"
    params = row.num_params if at_limit or row.is_leaf else row.leftover_params()
    return "--" if total == 0 or params == 0 else f"{params / total:.2%}"


def macs_cell(row: oracle.Row, at_limit: bool) -> str:
    if row.macs <= 0:
        return "--"
    if row.is_leaf:
        return f"{row.macs:,}"
    if at_limit:
        return f"{sum(c.macs for c in row.children if c.is_leaf):,}"
    return "--"


def trainable_cell(row: oracle.Row) -> str:
    if row.num_params == 0:
        return "--"
    if row.trainable_params == 0:
        return "False"
    return "True" if row.trainable_params == row.num_params else "Partial"


def shape_cell(value: Any) -> str:
    return "--" if value in (None, []) else str(value)


def render(rows: List[oracle.Row], columns: Sequence[str], depth: int,
           var_names: bool = False, show_depth: bool = True,
           hide_recursive: bool = False) -> List[List[str]]:
    total = oracle.totals(rows, ())["total_params"]
    out = []
    for row in rows:
        if row.depth > depth or (hide_recursive and row.is_recursive):
            continue
        at_limit = row.depth == depth
        name = row.type + (f" ({row.var_name})" if var_names else "")
        name += f": {row.label}" if show_depth and row.depth > 0 else ""
        cells = {
            "kernel_size": shape_cell(row.kernel_size),
            "input_size": shape_cell(row.input_size),
            "output_size": shape_cell(row.output_size),
            "num_params": param_cell(row, at_limit),
            "params_percent": percent_cell(row, at_limit, total),
            "mult_adds": macs_cell(row, at_limit),
            "trainable": trainable_cell(row),
        }
        out.append([name] + [cells[c] for c in columns])
    return out


def footer(t: Dict[str, int]) -> List[str]:
    macs = t["total_mult_adds"]
    unit, div = next((u, d) for u, d in (("T", 1e12), ("G", 1e9), ("M", 1e6))
                     if macs >= d or u == "M")
    mb = lambda n: f"{n / 1e6:.2f}"  # noqa: E731
    return [
        f"Total params: {t['total_params']:,}",
        f"Trainable params: {t['trainable_params']:,}",
        f"Non-trainable params: {t['non_trainable_params']:,}",
        f"Total mult-adds ({unit}): {macs / div:.2f}",
        f"Input size (MB): {mb(t['input_bytes'])}",
        f"Forward/backward pass size (MB): {mb(t['forward_backward_bytes'])}",
        f"Params size (MB): {mb(t['params_bytes'])}",
        f"Estimated Total Size (MB): {mb(t['total_bytes'])}",
    ]


def run_oracle(name: str, inputs: Optional[Tuple[Any, ...]] = None):
    inputs = inputs if inputs is not None else models.example_inputs(name)
    rows, _ = oracle.trace(models.build(name), inputs, grad=False)
    return rows, oracle.totals(rows, inputs)


class ReferenceTables(unittest.TestCase):
    """Every reference table from a torchinfo run on an eager model."""

    def check(self, ref: str, table: int, name: str, columns: Sequence[str], depth: int = 3,
              inputs: Optional[Tuple[Any, ...]] = None, **settings: Any) -> None:
        expected = read_tables(ref)[table]
        rows, totals = run_oracle(name, inputs)
        got = render(rows, columns, depth, **settings)
        body = expected["rows"]
        if settings.get("var_names"):  # skip lstm.out's per-parameter rows
            body = [r for r in body if "(" in r[0]]
        self.assertEqual(body, got, f"{ref} table {table}")
        self.assertEqual(expected["footer"], footer(totals), f"{ref} table {table} footer")

    def test_single_input(self) -> None:
        self.check("single_input.out", 0, "SingleInputNet", ["output_size", "num_params"])

    def test_single_input_all_cols(self) -> None:
        cols = ["kernel_size", "input_size", "output_size", "num_params",
                "params_percent", "mult_adds", "trainable"]
        self.check("single_input_all_cols.out", 0, "SingleInputNet", cols, depth=1,
                   inputs=models.EXTRA_INPUTS["SingleInputNet"]["batch7"]())

    def test_jit_eager_table(self) -> None:
        self.check("jit.out", 0, "LinearModel", ["output_size", "num_params"])

    def test_lstm(self) -> None:
        self.check("lstm.out", 0, "LSTMNet",
                   ["kernel_size", "output_size", "num_params", "mult_adds"],
                   var_names=True, show_depth=False)

    def test_container(self) -> None:
        self.check("container.out", 0, "ContainerModule", ["output_size", "num_params"], depth=4)
        self.check("container.out", 1, "ContainerModule", ["output_size", "num_params"],
                   inputs=models.EXTRA_INPUTS["ContainerModule"]["vec5"]())

    def test_hide_recursive_layers(self) -> None:
        self.check("hide_recursive_layers.out", 0, "SimpleRNN", ["output_size", "num_params"])
        self.check("hide_recursive_layers.out", 1, "SimpleRNN", ["output_size", "num_params"],
                   hide_recursive=True)

    def test_resnet18(self) -> None:
        cols = ["output_size", "num_params", "params_percent"]
        self.check("resnet18_depth_consistency.out", 0, "resnet18", cols, depth=1)
        self.check("resnet18_depth_consistency.out", 1, "resnet18", cols, depth=2)

    def test_basic_summary_params(self) -> None:
        # No-input tables come from a different walk; only the totals apply.
        expected = read_tables("basic_summary.out")[0]["footer"]
        self.assertEqual(expected, footer(run_oracle("SingleInputNet")[1])[:3])


class Labels(unittest.TestCase):
    def test_container_labels(self) -> None:
        rows, _ = run_oracle("ContainerModule")
        self.assertEqual([r.label for r in rows if r.depth == 4],
                         [f"4-{i}" for i in range(1, 9)])
        inserted = [r for r in rows if r.call_index is None]
        self.assertEqual([(r.path, r.label, r.is_recursive) for r in inserted],
                         [("_layers", "1-1", False), ("_layers.1._sequential", "3-3", True)])

    def test_reused_module_rows(self) -> None:
        rows, _ = run_oracle("ReusedModuleNet")
        self.assertEqual([(r.path, r.label, r.is_recursive) for r in rows[1:]], [
            ("fc", "1-1", False), ("act", "1-2", False), ("fc", "1-3", True),
            ("act", "1-4", True), ("fc", "1-5", True), ("act", "1-6", True),
            ("out", "1-7", False)])


# --- record ---------------------------------------------------------------------------

def hook_reference(model: nn.Module, inputs: Tuple[Any, ...]) -> Dict[str, List[Any]]:
    """Per module path, per call: (grad_input, grad_output) from full backward hooks."""
    found: Dict[str, List[Any]] = {}
    for path, module in model.named_modules():
        if path:
            module.register_full_backward_hook(
                lambda m, gi, go, path=path: found.setdefault(path, []).append((gi, go)))
    oracle.flat_tensors(model(*inputs))[0].sum().backward()
    for calls in found.values():
        calls.reverse()  # backward visits calls last-first
    return found


def without_inplace(model: nn.Module) -> nn.Module:
    clone = copy.deepcopy(model)
    for module in clone.modules():
        if hasattr(module, "inplace"):
            module.inplace = False
    return clone


class Record(unittest.TestCase):
    def record(self, name: str, out: str, labels: str = "all") -> Dict[str, Any]:
        oracle.main(["record", name, "--out", out, "--labels", labels])
        with open(os.path.join(out, "index.json")) as f:
            return json.load(f)

    def compare_with_hooks(self, name: str, reference_model: nn.Module) -> int:
        expected = hook_reference(reference_model, models.example_inputs(name))
        compared = 0
        with tempfile.TemporaryDirectory() as out:
            index = self.record(name, out)
            nth: Dict[str, int] = {}
            for layer in index["layers"]:
                if not layer["module"] or layer["module"] not in expected:
                    continue
                k = nth[layer["module"]] = nth.get(layer["module"], -1) + 1
                gi, go = expected[layer["module"]][k]
                for kind, want in (("grad_input", gi[0]), ("grad_output", go[0])):
                    if want is None:
                        self.assertIsNone(layer["captures"][kind], f"{layer['label']} {kind}")
                        continue
                    got = torch.load(os.path.join(out, layer["label"], kind + ".pt"))
                    got = got if isinstance(got, torch.Tensor) else got[0]
                    torch.testing.assert_close(got, want, msg=f"{layer['label']} {kind}")
                    compared += 1
        return compared

    def test_grads_match_full_backward_hooks(self) -> None:
        for name in ("SingleInputNet", "TwoInputNet", "ModuleListNet", "SeqClassifier"):
            self.assertGreater(self.compare_with_hooks(name, models.build(name)), 0, name)

    def test_grads_with_inplace_relu(self) -> None:
        # Full backward hooks raise on in-place modules; compare with a copy without.
        for name in ("TinyConvNet", "ReusedModuleNet"):
            model = without_inplace(models.build(name))
            self.assertGreater(self.compare_with_hooks(name, model), 0, name)

    def test_values_and_selection(self) -> None:
        with tempfile.TemporaryDirectory() as out:
            index = self.record("ReusedModuleNet", out, labels="1-1,1-3")
            self.assertEqual([l["label"] for l in index["layers"]], ["1-1", "1-3"])
            x = models.example_inputs("ReusedModuleNet")[0]
            fc = models.build("ReusedModuleNet").fc
            first_in = torch.load(os.path.join(out, "1-1", "input.pt"))
            second_out = torch.load(os.path.join(out, "1-3", "output.pt"))
            torch.testing.assert_close(first_in, x)
            torch.testing.assert_close(second_out, fc(torch.relu(fc(x))))


# --- samples ------------------------------------------------------------------------

def digest(path: str) -> str:
    """sha256 of a file; of an archive, of its entries except the *.debug_pkl source ranges,
    which hold the absolute paths of models.py and of torch's sources and so differ between
    checkouts and environments, and .data/serialization_id (PyTorch 2.x), which hashes them."""
    h = hashlib.sha256()
    if not zipfile.is_zipfile(path):
        with open(path, "rb") as f:
            h.update(f.read())
        return h.hexdigest()
    with zipfile.ZipFile(path) as z:
        for name in z.namelist():
            if not name.endswith((".debug_pkl", "/.data/serialization_id")):
                h.update(name.encode() + b"\0" + z.read(name))
    return h.hexdigest()


def pinned_torch() -> str:
    """The torch version scripts/torch_env.sh pins."""
    with open(os.path.join(HERE, "torch_env.sh")) as f:
        return re.search(r"torch==([0-9.]+)", f.read()).group(1)


def digests(folder: str) -> Dict[str, str]:
    return {name: digest(os.path.join(folder, name)) for name in sorted(os.listdir(folder))
            if os.path.isfile(os.path.join(folder, name))}


class Samples(unittest.TestCase):
    @unittest.skipUnless(torch.__version__.split("+")[0] == pinned_torch(),
                         "the committed samples are the pinned torch's saves; another torch "
                         "writes other bytes (the GPU check's)")
    def test_regenerated_samples_are_identical(self) -> None:
        with tempfile.TemporaryDirectory() as out:
            subprocess.run([sys.executable, os.path.join(HERE, "make_samples.py"), "--out", out],
                           check=True, stderr=subprocess.DEVNULL)
            committed = {k: v for k, v in digests(os.path.join(ROOT, "samples")).items()
                         if k.endswith(".pt")}
            self.assertEqual(committed, digests(out))

    def test_scripted_weights_load_into_eager(self) -> None:
        with tempfile.TemporaryDirectory() as out:
            for name in (n for n in models.MODELS if n not in models.QUANTIZED_MODELS):
                path = os.path.join(out, name + ".pt")
                torch.jit.script(models.build(name)).save(path)
                eager = oracle.load_model(name, path, train=False)  # strict load
                scripted = torch.jit.load(path)
                x, kwargs = models.example_inputs(name), models.example_kwargs(name)
                with torch.no_grad():
                    for a, b in zip(oracle.flat_tensors(eager(*x, **kwargs)),
                                    oracle.flat_tensors(scripted(*x, **kwargs))):
                        torch.testing.assert_close(a, b, msg=name)

    def test_summary_cli(self) -> None:
        sample = os.path.join(ROOT, "samples", "TwoInputNet")
        with tempfile.TemporaryDirectory() as out:
            result = os.path.join(out, "r.json")
            subprocess.run([sys.executable, os.path.join(HERE, "oracle.py"), "summary",
                            "TwoInputNet", "--weights", sample + ".pt",
                            "--input", sample + ".input.pt", "--out", result], check=True)
            with open(result) as f:
                data = json.load(f)
        self.assertEqual([r["label"] for r in data["rows"]],
                         ["0-1", "1-1", "2-1", "2-2", "1-2", "2-3", "2-4", "1-3"])
        self.assertEqual(data["rows"][0]["input_size"], [4, 8])
        self.assertEqual(data["totals"]["total_params"], 8 * 16 + 16 + 4 * 16 + 16 + 32 * 3 + 3)


if __name__ == "__main__":
    args = sys.argv[1:]
    ref = None
    if "--ref" in args:
        i = args.index("--ref")
        ref = args[i + 1]
        del args[i:i + 2]
    REF_DIR = find_ref_dir(ref)
    unittest.main(argv=[sys.argv[0]] + args)

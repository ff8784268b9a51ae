"""modrec summary --columns flops: FLOPs per module call from the executed operators, checked
against torch.utils.flop_counter on the eager model (scripts/flop_oracle.py), exactly.

Forward: every module path's FLOPs (the sum over its calls, nested calls included) and the total
equal FlopCounterMode's get_flop_counts(). Backward (from the sum of the first output, as modrec
runs it): the total equals FlopCounterMode's; per module, modrec credits the call whose forward
created the autograd node, which the oracle computes in eager PyTorch with FlopCounterMode's
operators and formulas and autograd's node numbers (FlopCounterMode's own module tracker credits
a branch container with its siblings' backward; its figures are kept in the oracle's output).

Models: resnet18 (convolutions), vit_b_16 (linear, batched matmuls, attention), SeqClassifier and
LSTMNet (LSTMs: on the CPU their kernel, mkldnn_rnn_layer, has no formula in FlopCounterMode, so
0 FLOPs and the name in unattributed_ops), MatmulAttentionNet (torch.matmul and
F.scaled_dot_product_attention in forward itself).
"""
import csv
import io
import json
import os
import tempfile
import unittest

from torch.utils.flop_counter import flop_registry

from e2e import main, run, run_script, sample

FORMULA_OPS = {op._qualified_op_name for op in flop_registry if hasattr(op, "_qualified_op_name")}


def flop_oracle(name):
    with tempfile.TemporaryDirectory(prefix="flop-oracle-") as tmp:
        out = os.path.join(tmp, "result.json")
        run_script("flop_oracle", name, "--out", out)
        with open(out) as f:
            return json.load(f)


def summary_json(name, columns="output_size,mult_adds,flops"):
    out, _ = run("summary", sample(name), "--input", sample(name, "input.pt"), "--columns", columns,
                 "--depth", "99", "--format", "json")
    return json.loads(out)


def per_path(rows, key):
    """Sum over each module path's calls; zeros left out as FlopCounterMode leaves them out."""
    out = {}
    for row in rows:
        if row["call"] is not None:
            out[row["path"]] = out.get(row["path"], 0) + row[key]
    return {path: flops for path, flops in out.items() if flops}


class FlopsAgainstFlopCounterMode(unittest.TestCase):
    def check(self, name):
        got, want = summary_json(name), flop_oracle(name)
        rows, totals = got["rows"], got["totals"]
        self.assertEqual(per_path(rows, "flops_forward"), want["forward"])
        self.assertEqual(per_path(rows, "flops_backward"), want["backward"])
        self.assertEqual(totals["flops_forward"], want["total"]["forward"])
        self.assertEqual(totals["flops_backward"], want["total"]["backward"])
        unattributed = totals["unattributed_ops"]
        self.assertTrue(unattributed, "every model runs some operator without a formula")
        self.assertFalse(FORMULA_OPS & set(unattributed), unattributed)
        self.assertTrue(all(count > 0 for count in unattributed.values()))
        return got, want

    def test_resnet18(self):
        got, want = self.check("resnet18")
        self.assertGreater(want["total"]["forward"], 0)
        # Where FlopCounterMode's module tracker and the creating call part: the block's backward
        # credited to its downsample branch there, not here.
        self.assertNotEqual(want["backward_flop_counter_mode"]["layer2.0.downsample"],
                            want["backward"]["layer2.0.downsample"])

    def test_vit_b_16(self):
        got, want = self.check("vit_b_16")
        # torchinfo's mult-adds miss the attention's matmuls; the FLOPs do not.
        self.assertGreater(got["totals"]["flops_forward"], 2 * got["totals"]["mult_adds"])

    def test_lstms(self):
        for name in ("SeqClassifier", "LSTMNet"):
            with self.subTest(name):
                got, _ = self.check(name)
                self.assertIn("aten::mkldnn_rnn_layer", got["totals"]["unattributed_ops"])

    def test_matmul_and_attention_in_forward(self):
        got, want = self.check("MatmulAttentionNet")
        root = got["rows"][0]
        # The root's own matmuls: more than its two Linears' FLOPs.
        self.assertGreater(root["flops_forward"], want["forward"]["qkv"] + want["forward"]["proj"])
        self.assertIn("aten::_scaled_dot_product_flash_attention_for_cpu",
                      got["totals"]["unattributed_ops"])


class FlopsColumn(unittest.TestCase):
    def test_table_column_and_totals(self):
        name = "resnet18"
        got = summary_json(name)
        out, _ = run("summary", sample(name), "--input", sample(name, "input.pt"),
                     "--columns", "mult_adds,flops", "--depth", "1")
        header = next(line for line in out.splitlines() if "Mult-Adds" in line)
        self.assertIn("FLOPs", header)
        conv1 = next(line for line in out.splitlines() if line.startswith("├─Conv2d: 1-1"))
        row = next(r for r in got["rows"] if r["path"] == "conv1")
        self.assertTrue(conv1.rstrip().endswith(f"{row['flops_forward']:,}"), conv1)
        self.assertIn("Total FLOPs, forward (M): 297.12", out)
        self.assertIn("Total FLOPs, backward (M): 574.96", out)

    def test_csv_columns(self):
        name = "MatmulAttentionNet"
        want = flop_oracle(name)
        out, _ = run("summary", sample(name), "--input", sample(name, "input.pt"),
                     "--columns", "flops", "--format", "csv")
        rows = list(csv.DictReader(io.StringIO(out)))
        by_path = {r["path"]: (int(r["flops_forward"]), int(r["flops_backward"])) for r in rows}
        self.assertEqual(by_path["qkv"], (want["forward"]["qkv"], want["backward"]["qkv"]))
        self.assertEqual(by_path["(root)"], (want["total"]["forward"], want["total"]["backward"]))

    def test_usage_errors(self):
        name = "SeqClassifier"
        _, err = run("summary", sample(name), "--columns", "flops", code=2)
        self.assertIn("flops column needs an input", err)
        self.assertEqual(len(err.strip().splitlines()), 1, err)
        # (refused before any device is touched: no GPU needed)
        _, err = run("summary", sample(name), "--input", sample(name, "input.pt"), "--columns",
                     "flops", "--device", "cuda", code=2)
        self.assertIn("(--device)", err)

    def test_not_asked_not_counted(self):
        got = summary_json("SeqClassifier", "output_size,mult_adds")
        self.assertNotIn("flops_forward", got["totals"])
        self.assertNotIn("flops_forward", got["rows"][0])


if __name__ == "__main__":
    main()

"""Attention models: modrec summary prints the table the real torchinfo 1.8 prints for the eager
model (scripts/torchinfo_table.py), byte for byte, and modrec record's values and gradients equal
eager PyTorch's hooks (scripts/oracle.py record), on the same weights and input.

Models (scripts/models.py, made at test time): TransformerEncoderNet (scripted
TransformerEncoderLayers, whose fused inference fast path eager PyTorch leaves under hooks),
MHAKwargsNet (nn.MultiheadAttention called with keyword arguments, a Linear with its input by
keyword only), torchvision's vit_b_16 and swin_t.

The one documented difference: torchinfo prints "--" as the input size of a call whose inputs
were all passed by keyword (its hooks see no positional argument); TorchScript keeps no keywords
and modrec prints the shape. torchinfo_table.py names those rows (found with forward pre-hooks
that see the keywords) and the shape the call's first tensor argument had; only those cells may
differ, and they must hold exactly that shape.
"""
import json
import os
import sys
import tempfile
import unittest

import test_record_oracle as record_oracle  # (a module: its TestCase is not collected here)
from e2e import ROOT, main, run, sample

sys.path.insert(0, os.path.join(ROOT, "scripts"))
import torchinfo_table as torchinfo_script  # noqa: E402

COLUMNS = "input_size,output_size,num_params,mult_adds"
COL_WIDTH = 25  # torchinfo's default, modrec's too


def load_json(path):
    with open(path) as f:
        return json.load(f)


def model_and_input(name):
    return sample(name), sample(name, "input.pt")


def torchinfo_table(name, model, inputs, depth, row_settings="depth", grad=False):
    """(torchinfo's printed table, its keyword-only rows: [{"line": i, "shape": [...]}]), from
    scripts/torchinfo_table.py run in this process (one torch import for every table)."""
    with tempfile.TemporaryDirectory(prefix="torchinfo-") as tmp:
        keyword_only = os.path.join(tmp, "keyword_only.json")
        table = torchinfo_script.table([name, "--weights", model, "--input", *inputs, "--columns",
                                        COLUMNS, "--depth", str(depth), "--row-settings",
                                        row_settings, "--keyword-only", keyword_only,
                                        *(["--grad"] if grad else [])])
        return table + "\n", load_json(keyword_only)["lines"]


def with_keyword_only_shapes(table, keyword_only):
    """torchinfo's table with each keyword-only call's Input Shape cell ("--") replaced by the
    shape the call's first tensor argument had: what modrec prints there."""
    lines = table.split("\n")
    start = lines[1].index("Input Shape")  # header; a cell is COL_WIDTH chars and a space
    for row in keyword_only:
        line = lines[row["line"]]
        cell = line[start:start + COL_WIDTH + 1]
        assert cell == f"{'--':<{COL_WIDTH}} ", (row, line)  # the exception applies to "--" only
        lines[row["line"]] = line[:start] + f"{str(row['shape']):<{COL_WIDTH}} " + line[start + COL_WIDTH + 1:]
    return "\n".join(lines)


class SummaryIsTorchinfosTable(unittest.TestCase):
    maxDiff = None

    def compare(self, name, depth, keyword_only_rows=0, row_settings="depth", grad=False):
        model, x = model_and_input(name)
        flags = ["--grad"] if grad else []
        mine = run("summary", model, "--input", x, "--columns", COLUMNS, "--depth", depth,
                   "--row-settings", row_settings, *flags)[0]
        table, keyword_only = torchinfo_table(name, model, [x], depth, row_settings, grad)
        self.assertEqual(len(keyword_only), keyword_only_rows, (name, keyword_only))
        self.assertEqual(mine, with_keyword_only_shapes(table, keyword_only),
                         f"{name} --depth {depth} --row-settings {row_settings} {flags}")
        return table

    def test_transformer_encoder(self):
        # every layer's self_attn, linear1, dropout, linear2, norm1, norm2, dropout1, dropout2
        table = self.compare("TransformerEncoderNet", depth=10)
        self.assertEqual(table.count("MultiheadAttention: 4-"), 2)
        self.assertEqual(table.count("LayerNorm: 4-"), 4)
        self.compare("TransformerEncoderNet", depth=2, row_settings="var_names,depth")

    def test_transformer_encoder_grad(self):
        self.compare("TransformerEncoderNet", depth=10, grad=True)

    def test_mha_with_keyword_arguments(self):
        table = self.compare("MHAKwargsNet", depth=3, keyword_only_rows=1)
        self.assertIn("├─Linear: 1-2                            --  ", table)  # fc(input=...)

    def test_mha_with_keyword_arguments_grad(self):
        self.compare("MHAKwargsNet", depth=3, keyword_only_rows=1, grad=True)

    def test_vit_b_16(self):
        self.compare("vit_b_16", depth=10)

    def test_vit_b_16_grad(self):
        self.compare("vit_b_16", depth=10, grad=True)

    def test_swin_t(self):
        self.compare("swin_t", depth=10)

    def test_swin_t_grad(self):
        self.compare("swin_t", depth=10, grad=True)


class RecordMatchesPyTorch(record_oracle.RecordComparison):
    """record's captures of calls with keyword and non-tensor arguments equal eager PyTorch's
    (test_record_oracle's comparison, which also checks the non-tensor values)."""

    def compare(self, name):
        model, x = model_and_input(name)
        return super().compare(name, [x], model=model)

    def test_transformer_encoder(self):
        manifest = self.compare("TransformerEncoderNet")
        attn = [l for l in manifest["layers"] if l["type"] == "MultiheadAttention"]
        self.assertEqual(len(attn), 2)
        # self_attn(x, x, x, attn_mask=None, key_padding_mask=None, need_weights=False, ...)
        self.assertIn({"at": "4", "type": "bool", "value": False}, attn[0]["captures"]["input"]["values"])

    def test_mha_with_keyword_arguments(self):
        manifest = self.compare("MHAKwargsNet")
        attn, fc = manifest["layers"][1:]
        self.assertEqual([(v["at"], v["value"]) for v in attn["captures"]["input"]["values"]],
                         [("3", None), ("4", True), ("5", None), ("6", False), ("7", False)])
        self.assertEqual(attn["captures"]["output"]["shapes"], [[3, 4, 8], [3, 2, 4, 4]])
        self.assertEqual(attn["captures"]["grad_output"]["shapes"], [[3, 4, 8], [3, 2, 4, 4]])
        self.assertEqual(fc["captures"]["grad_input"]["shapes"], [[3, 4, 8]])  # keyword-only input

    def test_vit_b_16(self):
        self.compare("vit_b_16")

    def test_swin_t(self):
        self.compare("swin_t")


if __name__ == "__main__":
    main()

"""modrec summary prints torchinfo 1.8.0's tables byte for byte (tests/torchinfo-reference)."""
import os
import re
import unittest

from e2e import ROOT, run, sample, SAMPLES, main

REF = os.path.join(ROOT, "tests", "torchinfo-reference")
NOTE = "Give tensors with --input [NAME=]FILE, other arguments with --arg NAME=VALUE."
INPUT_SIZE = re.compile(r"^Input size \(MB\): ([0-9.]+)$")


def tables(name):
    """The tables of a reference file: each starts at a '=' line followed by a 'Layer' header."""
    with open(os.path.join(REF, name)) as f:
        lines = f.read().splitlines()
    starts = [i for i in range(len(lines) - 1) if lines[i].startswith("=") and lines[i + 1].startswith("Layer")]
    return ["\n".join(lines[s:e]) + "\n" for s, e in zip(starts, starts[1:] + [len(lines)])]


def inp(name, tag=""):
    return os.path.join(SAMPLES, f"{name}{tag}.input.pt")


class ReferenceTables(unittest.TestCase):
    def check(self, reference, *args, signature=False):
        out, _ = run("summary", *args)
        want, got = reference.splitlines(), out.splitlines()
        if signature:
            self.assertEqual(got[len(want):], ["", "Forward signature: forward(x: Tensor)", NOTE])
            got = got[:len(want)]
        self.assertEqual(len(got), len(want), out)
        for w, g in zip(want, got):
            mw, mg = INPUT_SIZE.match(w), INPUT_SIZE.match(g)
            if mw and mg:  # torchinfo counts Python object overhead here; may differ by 0.01
                self.assertAlmostEqual(float(mw.group(1)), float(mg.group(1)), delta=0.0101)
            else:
                self.assertEqual(g, w)

    def test_single_input(self):
        self.check(tables("single_input.out")[0], sample("SingleInputNet"), "--input", inp("SingleInputNet"))

    def test_basic_summary_without_input(self):  # the forward signature follows the table
        self.check(tables("basic_summary.out")[0], sample("SingleInputNet"), signature=True)

    def test_single_input_all_columns(self):
        self.check(tables("single_input_all_cols.out")[0], sample("SingleInputNet"),
                   "--input", inp("SingleInputNet", ".batch7"), "--depth", "1", "--col-width", "20",
                   "--columns", "kernel_size,input_size,output_size,num_params,params_percent,mult_adds,trainable")

    def test_jit_linear_model(self):
        self.check(tables("jit.out")[0], sample("LinearModel"), "--input", inp("LinearModel"))

    def test_container(self):
        first, second = tables("container.out")
        self.check(first, sample("ContainerModule"), "--input", inp("ContainerModule"), "--depth", "4")
        self.check(second, sample("ContainerModule"), "--input", inp("ContainerModule", ".vec5"))

    def test_hide_recursive_layers(self):
        first, second = tables("hide_recursive_layers.out")
        self.check(first, sample("SimpleRNN"), "--input", inp("SimpleRNN"))
        self.check(second, sample("SimpleRNN"), "--input", inp("SimpleRNN"),
                   "--row-settings", "depth,hide_recursive_layers")

    def test_lstm_with_param_rows(self):
        self.check(tables("lstm.out")[0], sample("LSTMNet"), "--input-size", "1x100:long", "--high", "20",
                   "--columns", "kernel_size,output_size,num_params,mult_adds", "--col-width", "20",
                   "--row-settings", "var_names", "--params")

    def test_resnet18_depth_consistency(self):
        first, second = tables("resnet18_depth_consistency.out")
        for table, depth in ((first, "1"), (second, "2")):
            self.check(table, sample("resnet18"), "--input-size", "1x3x64x64", "--depth", depth,
                       "--columns", "output_size,num_params,params_percent")


if __name__ == "__main__":
    main()

"""modrec summary's rows, labels, shapes, params and mult-adds equal what eager PyTorch gives
(forward hooks + torchinfo's algorithm, scripts/oracle.py) on the same model and input."""
import json
import unittest

from e2e import SAMPLES, oracle, run, sample, tensor_file, main

ROW_FIELDS = ["label", "path", "type", "depth", "is_recursive", "input_size", "output_size",
              "num_params", "trainable_params", "kernel"]
TOTALS = [("total_params", "total_params"), ("trainable_params", "trainable_params"),
          ("mult_adds", "total_mult_adds"), ("param_bytes", "params_bytes")]


def oracle_row(row):
    out = dict(row, path=row["module"], kernel=row["kernel_size"])
    return {k: out[k] for k in ROW_FIELDS}


class SummaryMatchesPyTorch(unittest.TestCase):
    def compare(self, name, inputs, model=None, grad=False, extra=()):
        model = model or sample(name)
        flags = ["--grad"] if grad else []
        mine = json.loads(run("summary", model, *[a for i in inputs for a in ("--input", i)],
                              "--format", "json", *flags, *extra)[0])
        ref = oracle("summary", name, "--weights", model, "--input", *inputs, *flags)
        self.assertEqual(len(mine["rows"]), len(ref["rows"]), name)
        for m, r in zip(mine["rows"], ref["rows"]):
            self.assertEqual({k: m[k] for k in ROW_FIELDS}, oracle_row(r), name)
            if r["is_leaf"]:  # torchinfo shows (and sums) mult-adds of leaf rows only
                self.assertEqual(m["mult_adds"], r["mult_adds"], (name, r["label"]))
        for mine_key, ref_key in TOTALS:
            self.assertEqual(mine["totals"][mine_key], ref["totals"][ref_key], (name, mine_key))

    def test_resnet18(self):
        self.compare("resnet18", [tensor_file((1, 3, 64, 64))])

    def test_mobilenet_v2(self):
        self.compare("mobilenet_v2", [tensor_file((1, 3, 64, 64))])

    def test_densenet121(self):
        self.compare("densenet121", [tensor_file((1, 3, 64, 64))])

    def test_lstm_models(self):
        self.compare("SeqClassifier", [f"{SAMPLES}/SeqClassifier.input.pt"])
        self.compare("LSTMNet", [tensor_file((1, 100), "int64", high=20)])

    def test_reused_modules(self):
        self.compare("ReusedModuleNet", [f"{SAMPLES}/ReusedModuleNet.input.pt"])
        self.compare("SimpleRNN", [f"{SAMPLES}/SimpleRNN.input.pt"])

    def test_two_inputs(self):
        self.compare("TwoInputNet", [f"{SAMPLES}/TwoInputNet.input.pt"])

    def test_containers_and_outputs(self):
        for name in ("ContainerModule", "ModuleListNet", "MultiOutputNet", "MultiOutputDictNet",
                     "TinyConvNet", "SingleInputNet"):
            self.compare(name, [f"{SAMPLES}/{name}.input.pt"])

    def test_traced_models(self):
        for name in ("SingleInputNet", "ReusedModuleNet"):
            self.compare(name, [f"{SAMPLES}/{name}.input.pt"], model=f"{SAMPLES}/{name}.traced.pt")

    def test_grad_mode_and_train_mode(self):
        self.compare("TinyConvNet", [f"{SAMPLES}/TinyConvNet.input.pt"], grad=True)


if __name__ == "__main__":
    main()

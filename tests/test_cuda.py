"""--device cuda: model, inputs and recording on the GPU. Every capture equals eager PyTorch's
hooks on the same GPU (scripts/oracle.py record --device cuda); the statistics, computed on the
device, equal torch's reductions of the saved tensors; summary's table is the CPU one. Skipped,
with the reason, where PyTorch sees no GPU (the refusal without one is in test_errors.py)."""
import json
import os
import tempfile
import unittest

import torch

import test_record_cli as record_cli
import test_record_oracle as record_oracle
from e2e import SAMPLES, run, sample, tensor_file, main
from test_attention import model_and_input

NO_GPU = "PyTorch sees no CUDA GPU on this machine"
# Eager PyTorch and modrec run the same kernels on the same GPU; cuDNN's backward kernels add in
# an order that may change between runs (atomics), so gradients agree to float32 rounding only.
RTOL, ATOL = 1e-4, 1e-6


class PositionNet(torch.nn.Module):
    """An arange on its input's device, which torch.jit.trace and torch.export write as the CPU,
    where they ran."""

    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(8, 8)

    def forward(self, x):
        pos = torch.arange(x.shape[1], device=x.device, dtype=x.dtype)
        return self.fc(x + pos[None, :, None])


@unittest.skipUnless(torch.cuda.is_available(), NO_GPU)
class MadeOnTheCpuRunsOnTheGpu(unittest.TestCase):
    """A trace's code and an export's graph name the CPU for the arange; both run on the GPU."""

    def test_the_devices_a_model_names_are_the_gpu(self):
        out = tempfile.mkdtemp(prefix="cuda-cpu-made-")
        torch.manual_seed(0)
        m = PositionNet().eval()
        x = torch.randn(2, 5, 8)
        x_file = os.path.join(out, "x.pt")
        torch.save(x, x_file)
        with torch.no_grad():
            want = m.cuda()(x.cuda()).cpu()
        m.cpu()
        traced, exported = os.path.join(out, "pos.pt"), os.path.join(out, "pos.pt2")
        torch.jit.trace(m, x).save(traced)
        torch.export.save(torch.export.export(m, (x,)), exported)
        for path in (traced, exported):
            with self.subTest(path):
                rec = path + ".rec"
                run("record", path, "--input", x_file, "--layers", "fc", "--capture", "output",
                    "--device", "cuda", "--out", rec)
                manifest = json.load(open(os.path.join(rec, "manifest.json")))
                label = manifest["layers"][0]["label"]
                got = torch.load(os.path.join(rec, "tensors", label, "output.pt"))
                got = got[0] if isinstance(got, (list, tuple)) else got
                torch.testing.assert_close(got, want, rtol=RTOL, atol=ATOL)


@unittest.skipUnless(torch.cuda.is_available(), NO_GPU)
class RecordOnTheGpuMatchesPyTorch(record_oracle.RecordComparison):

    def compare_on_gpu(self, name, inputs, model=None):
        return self.compare(name, inputs, model=model, rtol=RTOL, atol=ATOL, device="cuda")

    def test_resnet18(self):
        self.compare_on_gpu("resnet18", [tensor_file((2, 3, 64, 64))])

    def test_small_models(self):
        for name in ("TinyConvNet", "ReusedModuleNet", "TwoInputNet", "MultiOutputNet"):
            self.compare_on_gpu(name, [f"{SAMPLES}/{name}.input.pt"])

    def test_lstm_backward_in_eval_mode_is_the_models_failure(self):
        # cuDNN's RNN backward runs in training mode only (eager PyTorch raises the same)
        _, err = run("record", sample("SeqClassifier"), "--input", f"{SAMPLES}/SeqClassifier.input.pt",
                     "--layers", "all", "--out", os.path.join(tempfile.mkdtemp(), "run"), "--device", "cuda", code=4)
        for word in ("backward", "--mode train", "--capture output"):
            self.assertIn(word, err)

    def test_transformer_encoder(self):
        model, x = model_and_input("TransformerEncoderNet")
        self.compare_on_gpu("TransformerEncoderNet", [x], model=model)


@unittest.skipUnless(torch.cuda.is_available(), NO_GPU)
class StatisticsOnTheGpu(record_cli.StatsAssertions):
    def test_stats_json_matches_torch_reductions(self):
        for name in ("TinyConvNet", "SingleInputNet"):
            out, _ = record_cli.record(sample(name), [record_cli.sample_input(name)], "--capture",
                                       record_cli.ALL_CAPTURES, "--device", "cuda")
            self.assertGreater(self.assertRunStatsMatchTensors(out), 10, name)


@unittest.skipUnless(torch.cuda.is_available(), NO_GPU)
class SummaryOnTheGpu(unittest.TestCase):
    def test_table_is_the_cpu_table(self):
        for model, args in ((sample("resnet18"), ["--input-size", "2x3x64x64"]),
                            (sample("TinyConvNet"), ["--input", f"{SAMPLES}/TinyConvNet.input.pt"])):
            cpu, _ = run("summary", model, *args)
            gpu, _ = run("summary", model, *args, "--device", "cuda")
            self.assertEqual(gpu, cpu, model)


if __name__ == "__main__":
    main()

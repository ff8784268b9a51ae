"""modrec watch: N optimizer steps of SGD (momentum, weight decay) or Adam over a TorchScript
model equal eager PyTorch training the same nn.Module from the same weights on the same batches
(losses, parameters after training, the saved model), and the per-step statistics in
steps.jsonl / steps.csv equal those of eager forward hooks, full backward hooks, .grad and the
parameters' change at the same steps. A NaN loss stops with exit 1 naming the step and layer."""
import csv
import json
import math
import os
import shutil
import tempfile
import unittest

import torch
import torch.nn.functional as F
from torch import nn

from e2e import run, main


class Net(nn.Module):
    # No bias before the BatchNorm: its gradient would be rounding noise, which Adam scales to
    # full steps whose sign no two implementations share.
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(6, 16, bias=False), nn.BatchNorm1d(16), nn.ReLU(),
                                  nn.Linear(16, 16), nn.Tanh())
        self.head = nn.Linear(16, 4)

    def forward(self, x):
        return self.head(self.body(x))


SAMPLES = 24


def stats(t):
    """The fields modrec writes, from the tensor in float64."""
    d = t.detach().double().flatten()
    return {"count": d.numel(), "mean": d.mean().item(), "std": d.std().item(),
            "min": d.min().item(), "max": d.max().item(), "abs_max": d.abs().max().item(),
            "l2_norm": d.norm().item(), "zero_fraction": (d == 0).double().mean().item()}


def eager_training(model_file, x, y, loss, optimizer, steps, batch_size, every, shuffle=None,
                   lr=0.1, momentum=0.0, weight_decay=0.0):
    """Returns (losses, {step: {(path, capture, name or tensor index): tensor}}, final net)."""
    torch.manual_seed(0)
    net = Net()
    net.load_state_dict(torch.jit.load(model_file).state_dict())
    net.train()
    if optimizer == "sgd":
        opt = torch.optim.SGD(net.parameters(), lr=lr, momentum=momentum, weight_decay=weight_decay)
    else:
        opt = torch.optim.Adam(net.parameters(), lr=lr, weight_decay=weight_decay)
    seen = {}
    for path, m in net.named_modules():
        m.register_forward_hook(lambda m, i, o, p=path: seen.__setitem__((p, "output", 0), o.detach().clone()))
        m.register_full_backward_hook(
            lambda m, gi, go, p=path: seen.__setitem__((p, "grad_output", 0), go[0].detach().clone()))
    gen = torch.Generator().manual_seed(shuffle) if shuffle is not None else None
    losses, records, order, pos = [], {}, None, 0
    for step in range(1, steps + 1):
        if order is None or pos >= SAMPLES:
            pos = 0
            order = torch.randperm(SAMPLES, generator=gen) if gen else torch.arange(SAMPLES)
        rows = order[pos:pos + batch_size]
        pos += len(rows)
        opt.zero_grad(set_to_none=True)
        seen.clear()
        out = net(x[rows])
        value = F.cross_entropy(out, y[rows]) if loss == "cross_entropy" else F.mse_loss(out, y[rows])
        value.backward()
        losses.append(value.item())
        before = {n: p.detach().clone() for n, p in net.named_parameters()}
        grads = {n: p.grad.detach().clone() for n, p in net.named_parameters()}
        opt.step()
        if step % every:
            continue
        rec = dict(seen)
        for n, p in net.named_parameters():
            path, _, name = n.rpartition(".")
            rec[(path, "param", name)] = before[n]
            rec[(path, "param_grad", name)] = grads[n]
            rec[(path, "update", name)] = p.detach() - before[n]
        records[step] = rec
    return losses, records, net


class WatchMatchesEagerTraining(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.mkdtemp(prefix="watch-")
        torch.manual_seed(1)
        cls.model = os.path.join(cls.dir, "net.pt")
        torch.jit.script(Net()).save(cls.model)
        cls.x = torch.randn(SAMPLES, 6)
        cls.labels = torch.randint(0, 4, (SAMPLES,))
        cls.regress = torch.randn(SAMPLES, 4)
        short = torch.randint(0, 4, (SAMPLES - 1,))
        for name, t in (("x", cls.x), ("labels", cls.labels), ("regress", cls.regress), ("short", short)):
            torch.save(t, os.path.join(cls.dir, name + ".pt"))

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.dir)

    def path(self, name):
        return os.path.join(self.dir, name)

    def watch(self, out, *args, code=0):
        return run("watch", self.model, "--input", self.path("x.pt"), "--layers", "all",
                   "--out", self.path(out), *args, code=code)

    def manifest(self, out):
        with open(self.path(out + "/manifest.json")) as f:
            return json.load(f)

    def rows(self, out):
        with open(self.path(out + "/steps.jsonl")) as f:
            return [json.loads(line) for line in f]

    def check_update_ratio(self, row, records):
        """An update row's ratio is eager's ||after - before|| / ||before||."""
        step = records[row["step"]]
        change = step[(row["path"], "update", row["name"])].norm().item()
        norm = step[(row["path"], "param", row["name"])].norm().item()
        if norm == 0:  # a zero-initialized bias: no ratio
            self.assertIsNone(row["update_ratio"], row["path"])
        else:
            self.assertTrue(math.isclose(row["update_ratio"], change / norm, rel_tol=1e-4),
                            (row["path"], row["name"]))

    def check_rows(self, rows, records, losses):
        """Every row equals the eager tensor of its step, path, capture and tensor."""
        matched = {}
        for r in rows:
            key = (r["path"], r["capture"], r.get("name", r["tensor"]))
            want = records[r["step"]][key]
            # An update is the difference of two close float32 parameters: its error is theirs.
            scale = records[r["step"]][(r["path"], "param", r["name"])].abs().max().item() \
                if r["capture"] == "update" else 0
            for field, value in stats(want).items():
                self.assertTrue(math.isclose(r[field], value, rel_tol=1e-5, abs_tol=1e-7 + 1e-6 * scale),
                                (r["step"], key, field, r[field], value))
            self.assertEqual(r["shape"], list(want.shape), key)
            self.assertAlmostEqual(r["loss"], losses[r["step"] - 1], places=6)
            if r["capture"] == "update":
                self.check_update_ratio(r, records)
            matched.setdefault(r["step"], set()).add(key)
        for step, keys in matched.items():  # and nothing eager saw is missing
            self.assertEqual(keys, set(records[step]), step)
        return matched

    def test_sgd_with_momentum_and_weight_decay(self):
        saved = self.path("sgd-trained.pt")
        self.watch("sgd", "--targets", self.path("labels.pt"), "--loss", "cross_entropy",
                   "--optimizer", "sgd", "--lr", "0.1", "--momentum", "0.9", "--weight-decay", "0.01",
                   "--steps", "7", "--batch-size", "8", "--save-model", saved)
        losses, records, net = eager_training(self.model, self.x, self.labels, "cross_entropy", "sgd",
                                              7, 8, 1, momentum=0.9, weight_decay=0.01)
        manifest = self.manifest("sgd")
        self.assertEqual(manifest["kind"], "watch")
        # diff and merge take recordings; a watch run is named as one (its manifest says so)
        _, err = run("diff", self.path("sgd"), self.path("sgd"), code=3)
        self.assertIn("a watch run, not a recording", err)
        self.assertEqual(manifest["recorded_steps"], list(range(1, 8)))
        self.assertIsNone(manifest["stopped"])
        for got, want in zip(manifest["losses"], losses, strict=True):
            self.assertTrue(math.isclose(got, want, rel_tol=1e-6), (got, want))
        self.assertEqual(sorted(self.check_rows(self.rows("sgd"), records, losses)), list(range(1, 8)))
        trained = torch.jit.load(saved)
        for name, want in net.state_dict().items():
            got = trained.state_dict()[name]
            self.assertTrue(torch.allclose(got.double(), want.double(), rtol=1e-5, atol=1e-6), name)
        self.assertTrue(trained.training)
        with open(self.path("sgd/steps.csv")) as f:
            table = list(csv.DictReader(f))
        self.assertEqual(len(table), len(self.rows("sgd")))
        for row, j in zip(table, self.rows("sgd")):
            self.assertEqual((int(row["step"]), row["path"], row["capture"]),
                             (j["step"], j["path"] or "(root)", j["capture"]))
            self.assertEqual(float(row["std"]), j["std"])

    def test_adam_shuffled_every_second_step(self):
        self.watch("adam", "--targets", self.path("regress.pt"), "--loss", "mse", "--optimizer", "adam",
                   "--lr", "0.01", "--weight-decay", "0.001", "--steps", "8", "--batch-size", "5",
                   "--shuffle", "3", "--every", "2", "--capture", "output,param,update",
                   "--save-model", self.path("adam-trained.pt"))
        losses, records, net = eager_training(self.model, self.x, self.regress, "mse", "adam", 8, 5, 2,
                                              shuffle=3, lr=0.01, weight_decay=0.001)
        manifest = self.manifest("adam")
        self.assertEqual(manifest["recorded_steps"], [2, 4, 6, 8])
        for got, want in zip(manifest["losses"], losses, strict=True):
            self.assertTrue(math.isclose(got, want, rel_tol=1e-6), (got, want))
        kept = {s: {k: v for k, v in r.items() if k[1] in ("output", "param", "update")}
                for s, r in records.items()}
        self.assertEqual(sorted(self.check_rows(self.rows("adam"), kept, losses)), [2, 4, 6, 8])
        trained = torch.jit.load(self.path("adam-trained.pt")).state_dict()
        for name, want in net.state_dict().items():
            self.assertTrue(torch.allclose(trained[name].double(), want.double(), rtol=1e-5, atol=1e-6), name)

    def test_update_ratios_without_the_param_capture(self):
        """--capture update alone: no parameter statistics were recorded to take ||before|| from,
        so it is computed from the parameter itself; the ratios still equal eager training's."""
        self.watch("update-only", "--targets", self.path("labels.pt"), "--loss", "cross_entropy",
                   "--optimizer", "sgd", "--lr", "0.1", "--steps", "3", "--batch-size", "8",
                   "--capture", "update")
        _, records, _ = eager_training(self.model, self.x, self.labels, "cross_entropy", "sgd", 3, 8, 1)
        rows = self.rows("update-only")
        self.assertEqual({r["capture"] for r in rows}, {"update"})
        for r in rows:
            self.check_update_ratio(r, records)

    def test_an_exported_program_trains_as_the_eager_model(self):
        """A .pt2 runs in the mode it was exported in: Net exported in training mode (its
        BatchNorm normalizes by each batch's statistics and updates its running ones, as eager
        training does), with the TorchScript file's weights and the batch size of the steps (the
        export's sizes). SGD with momentum and weight decay: the losses, and every step's
        statistics (outputs, gradients, parameters, updates: the weights each step trains) equal
        eager PyTorch's; --save-model refuses a .pt2."""
        net = Net()
        net.load_state_dict(torch.jit.load(self.model).state_dict())
        exported = self.path("net.pt2")
        torch.export.save(torch.export.export(net.train(), (self.x[:8],)), exported)
        args = ("--input", self.path("x.pt"), "--targets", self.path("labels.pt"), "--loss",
                "cross_entropy", "--optimizer", "sgd", "--lr", "0.1", "--momentum", "0.9",
                "--weight-decay", "0.01", "--steps", "6", "--batch-size", "8", "--layers", "all")
        run("watch", exported, *args, "--out", self.path("pt2"))
        losses, records, _ = eager_training(self.model, self.x, self.labels, "cross_entropy", "sgd",
                                            6, 8, 1, momentum=0.9, weight_decay=0.01)
        manifest = self.manifest("pt2")
        self.assertEqual(manifest["recorded_steps"], list(range(1, 7)))
        for got, want in zip(manifest["losses"], losses, strict=True):
            self.assertTrue(math.isclose(got, want, rel_tol=1e-6), (got, want))
        self.assertEqual(sorted(self.check_rows(self.rows("pt2"), records, losses)), list(range(1, 7)))
        _, err = run("watch", exported, *args, "--out", self.path("pt2-saved"), "--save-model",
                     self.path("pt2-trained.pt"), code=2)
        # after the warning that watch's train mode changes nothing in a .pt2
        self.assertRegex(err.strip().splitlines()[-1], r"^modrec: error: --save-model .*\.pt2")
        self.assertFalse(os.path.exists(self.path("pt2-saved")))

    def test_a_nan_loss_stops_naming_the_step_and_the_first_layer(self):
        x = self.x.clone()
        x[17, 2] = float("nan")  # in the third batch of 8
        torch.save(x, self.path("x-nan.pt"))
        out = self.path("nan")
        _, err = run("watch", self.model, "--input", self.path("x-nan.pt"), "--targets",
                     self.path("labels.pt"), "--loss", "cross_entropy", "--optimizer", "sgd", "--lr", "0.1",
                     "--steps", "5", "--batch-size", "8", "--layers", "all", "--out", out, code=1)
        self.assertIn("step 3", err)
        self.assertIn("body.0", err)  # the first Linear turns the NaN input into NaN outputs
        manifest = self.manifest("nan")
        self.assertEqual(manifest["stopped"]["step"], 3)
        self.assertEqual(manifest["stopped"]["path"], "body.0")
        self.assertEqual(len(manifest["losses"]), 3)
        self.assertEqual({r["step"] for r in self.rows("nan")}, {1, 2})

    def test_defaults_sgd_lr_001_one_pass_every_layer(self):
        """Without --optimizer, --lr, --steps and --layers: SGD at lr 0.01, one pass over the
        input (24 samples in batches of 8: 3 steps), every layer recorded."""
        out = self.path("defaults")
        run("watch", self.model, "--input", self.path("x.pt"), "--targets", self.path("labels.pt"),
            "--loss", "cross_entropy", "--batch-size", "8", "--out", out)
        losses, records, _ = eager_training(self.model, self.x, self.labels, "cross_entropy", "sgd",
                                            3, 8, 1, lr=0.01)
        manifest = self.manifest("defaults")
        self.assertEqual(manifest["recorded_steps"], [1, 2, 3])
        for got, want in zip(manifest["losses"], losses, strict=True):
            self.assertAlmostEqual(got, want, places=5)
        self.check_rows(self.rows("defaults"), records, losses)

    def test_a_tied_weight_is_stepped_once_as_in_eager(self):
        """An embedding and a head sharing one weight: the scripted file lists it under both
        modules, eager PyTorch's parameters() once; SGD with momentum must step it once."""
        class Tied(nn.Module):
            def __init__(self):
                super().__init__()
                self.emb = nn.Embedding(10, 8)
                self.head = nn.Linear(8, 10, bias=False)
                self.head.weight = self.emb.weight

            def forward(self, ids):
                return self.head(self.emb(ids).mean(1))

        torch.manual_seed(2)
        net = Tied()
        model, ids, labels = self.path("tied.pt"), torch.randint(0, 10, (SAMPLES, 5)), torch.randint(0, 10, (SAMPLES,))
        torch.jit.script(net).save(model)
        torch.save(ids, self.path("ids.pt"))
        torch.save(labels, self.path("tied-labels.pt"))
        saved = self.path("tied-trained.pt")
        run("watch", model, "--input", self.path("ids.pt"), "--targets", self.path("tied-labels.pt"),
            "--loss", "cross_entropy", "--optimizer", "sgd", "--lr", "0.5", "--momentum", "0.9",
            "--steps", "3", "--batch-size", "8", "--capture", "output", "--out", self.path("tied"),
            "--save-model", saved)
        opt = torch.optim.SGD(net.parameters(), lr=0.5, momentum=0.9)
        losses = []
        for step in range(3):
            rows = slice(8 * step, 8 * step + 8)
            opt.zero_grad(set_to_none=True)
            value = F.cross_entropy(net(ids[rows]), labels[rows])
            value.backward()
            losses.append(value.item())
            opt.step()
        for got, want in zip(self.manifest("tied")["losses"], losses, strict=True):
            self.assertTrue(math.isclose(got, want, rel_tol=1e-6), (got, want))
        trained = torch.jit.load(saved)
        self.assertTrue(torch.allclose(trained.emb.weight, net.emb.weight, rtol=1e-5, atol=1e-6))
        self.assertEqual(trained.emb.weight.data_ptr(), trained.head.weight.data_ptr())

    def test_a_model_without_trainable_parameters_is_refused(self):
        frozen = self.path("frozen.pt")
        net = Net()
        for p in net.parameters():
            p.requires_grad_(False)
        torch.jit.script(net).save(frozen)
        bare = self.path("bare.pt")
        torch.jit.script(nn.Sequential(nn.ReLU(), nn.Tanh())).save(bare)
        for model in (frozen, bare):
            out = self.path("untrainable")
            _, err = run("watch", model, "--input", self.path("x.pt"), "--loss", "sum", "--out", out,
                         code=2)
            self.assertEqual(len(err.strip().splitlines()), 1, err)
            self.assertIn("the model has no trainable parameter", err)
            self.assertFalse(os.path.exists(out))

    def test_usage_errors(self):
        common = ("--optimizer", "sgd", "--lr", "0.1", "--steps", "2")
        for args, code, flag in [
            (("--loss", "cross_entropy", *common), 2, "--targets"),
            (("--loss", "sum", "--targets", self.path("labels.pt"), *common), 2, "--targets"),
            (("--loss", "sum", "--optimizer", "adam", "--momentum", "0.9", "--lr", "0.1", "--steps", "2"),
             2, "--momentum"),
            (("--loss", "sum", "--optimizer", "sgd", "--lr", "0.1", "--steps", "0"), 2, "--steps"),
            (("--loss", "sum", "--optimizer", "sgd", "--lr", "-1", "--steps", "1"), 2, "--lr"),
            (("--loss", "sum", *common, "--capture", "bogus"), 2, "--capture"),
            (("--loss", "sum", *common, "--every", "0"), 2, "--every"),
            (("--loss", "cross_entropy", "--targets", self.path("short.pt"), *common), 3, "--targets"),
        ]:
            _, err = self.watch("bad", *args, code=code)
            self.assertIn(flag, err, args)
            self.assertFalse(os.path.exists(self.path("bad")), args)


if __name__ == "__main__":
    main()

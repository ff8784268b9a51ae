"""Checkpoints without code (issue 47): summary, check and diff of .safetensors files, a sharded
index and torch.save'd state_dicts, judged by safetensors' own reader, torch.load and NumPy in
float64; damaged files are exit 3 with one error line; record and watch refuse a checkpoint."""
import json
import os
import re
import subprocess
import tempfile
import unittest

import numpy as np
import torch
from safetensors import safe_open
from safetensors.torch import save_file

from e2e import PYTHON, ROOT, main, run, tensor_file

LINE = re.compile(r"^modrec: error: .+ \(.+\): .+$")


def setUpModule():
    global DIR
    DIR = tempfile.mkdtemp(prefix="modrec-checkpoints-")


def path(name):
    return os.path.join(DIR, name)


def transformer(seed=0):
    """A small transformer's state_dict with the dtypes checkpoints are shipped in."""
    torch.manual_seed(seed)
    model = torch.nn.TransformerEncoder(torch.nn.TransformerEncoderLayer(16, 2, 32), 3)
    sd = {k: v.clone() for k, v in model.state_dict().items()}
    sd["head.weight"] = torch.randn(4, 16).to(torch.bfloat16)
    sd["head.scale"] = torch.randn(4).to(torch.float8_e4m3fn)
    sd["head.step"] = torch.tensor(3)
    return sd


def shard(sd, stem, parts):
    """sd as `parts` safetensors shards and their index, as transformers writes them."""
    names = sorted(sd)
    weight_map = {}
    for k in range(parts):
        file = f"{stem}-{k + 1:05d}-of-{parts:05d}.safetensors"
        keys = names[k::parts]
        save_file({n: sd[n] for n in keys}, path(file))
        weight_map.update({n: file for n in keys})
    index = path(f"{stem}.safetensors.index.json")
    with open(index, "w") as f:
        json.dump({"metadata": {}, "weight_map": weight_map}, f)
    return index


def error_line(stderr):
    lines = stderr.strip().splitlines()
    assert len(lines) == 1 and LINE.match(lines[0]), stderr
    return lines[0]


class Summary(unittest.TestCase):
    def check_json(self, file, want):
        """Every tensor's shape and dtype, every module row's count, as `want` (name -> tensor)."""
        got = json.loads(run("summary", file, "--format", "json")[0])
        tensors = {t["name"]: t for row in got["rows"] for t in row["tensors"]}
        self.assertEqual(set(tensors), set(want))
        for name, t in want.items():
            self.assertEqual(tensors[name]["shape"], list(t.shape), name)
            self.assertEqual(tensors[name]["dtype"], str(t.dtype).removeprefix("torch."), name)
            self.assertEqual(tensors[name]["bytes"], t.numel() * t.element_size(), name)
        for row in got["rows"]:
            prefix = row["path"] + "." if row["path"] else ""
            self.assertEqual(row["num_params"],
                             sum(t.numel() for n, t in want.items() if n.startswith(prefix)))
        self.assertEqual(got["totals"]["params"], sum(t.numel() for t in want.values()))
        for dtype, total in got["totals"]["dtypes"].items():
            self.assertEqual(total["bytes"], sum(t.numel() * t.element_size() for t in want.values()
                                                 if str(t.dtype) == "torch." + dtype))
        return got

    def test_safetensors_as_its_reader_reads_it(self):
        save_file(transformer(), path("model.safetensors"))
        with safe_open(path("model.safetensors"), "pt") as f:
            want = {k: f.get_tensor(k) for k in f.keys()}
        self.check_json(path("model.safetensors"), want)

    def test_sharded_index(self):
        index = shard(transformer(), "sharded", 3)
        got = self.check_json(index, transformer())
        self.assertEqual(len(got["files"]), 3)
        self.assertEqual(got["format"], "sharded")

    def test_state_dict_as_torch_load_reads_it(self):
        torch.save(transformer(), path("state_dict.pt"))
        self.check_json(path("state_dict.pt"), torch.load(path("state_dict.pt")))
        # model.state_dict() itself: an OrderedDict with _metadata, and shared storages.
        model = torch.nn.TransformerEncoder(torch.nn.TransformerEncoderLayer(16, 2, 32), 2)
        torch.save(model.state_dict(), path("module.pt"))
        self.check_json(path("module.pt"), torch.load(path("module.pt")))
        # A training checkpoint: the state_dict under "model", beside the optimizer's state.
        optimizer = torch.optim.Adam(model.parameters())
        model(torch.randn(3, 2, 16)).sum().backward()
        optimizer.step()
        torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict(), "epoch": 3},
                   path("training.pt"))
        loaded = torch.load(path("training.pt"))
        want = {"model." + k: v for k, v in loaded["model"].items()}
        for i, state in loaded["optimizer"]["state"].items():
            want.update({f"optimizer.state.{i}.{k}": v for k, v in state.items()})
        self.check_json(path("training.pt"), want)

    def test_table_depth_and_formats(self):
        torch.save(transformer(), path("table.pt"))
        table = run("summary", path("table.pt"), "--depth", "1")[0]
        self.assertIn("├─layers: 1-1", table)
        self.assertNotIn("2-1", table)  # deeper rows are folded into their ancestors
        self.assertIn("bfloat16: 64 params, 128 bytes, 1 tensors", table)
        deep = run("summary", path("table.pt"), "--depth", "4")[0]
        self.assertRegex(deep, r"│    │    └─self_attn: 3-1")
        self.assertRegex(deep, r"└─in_proj_weight +\[48, 16\] +float32 +768")
        csv = run("summary", path("table.pt"), "--format", "csv")[0].splitlines()
        self.assertEqual(csv[0], "kind,label,name,depth,shape,dtype,num_params")
        self.assertIn("tensor,,head.weight,2,4x16,bfloat16,64", csv)
        markdown = run("summary", path("table.pt"), "--format", "markdown")[0]
        self.assertIn("| Layer (name:depth-idx) |", markdown)

    def test_model_flags_are_usage_errors(self):
        torch.save(transformer(), path("flags.pt"))
        _, err = run("summary", path("flags.pt"), "--input-size", "2x3", code=2)
        error_line(err)


class Check(unittest.TestCase):
    def test_statistics_and_rules(self):
        sd = transformer()
        save_file(sd, path("clean.safetensors"))
        out, _ = run("check", path("clean.safetensors"), "--allow-dead", "--allow-constant",
                     "--format", "json")
        self.assertTrue(json.loads(out)["passed"])
        self.assertEqual(json.loads(out)["tensors_checked"], len(sd))
        # The max-abs rule against torch's own abs().max().
        top = max(sd.items(), key=lambda kv: kv[1].double().abs().max().item())
        limit = sorted(t.double().abs().max().item() for t in sd.values())[-2]
        out, _ = run("check", path("clean.safetensors"), "--allow-dead", "--allow-constant",
                     "--max-abs", limit, "--format", "json", code=1)
        violations = json.loads(out)["violations"]
        self.assertEqual([(v["path"] + "." + v["element"].removeprefix("param."), v["rule"])
                          for v in violations], [(top[0], "max-abs")])
        self.assertEqual(violations[0]["value"], top[1].double().abs().max().item())

    def test_nan_inf_dead_constant(self):
        sd = transformer()
        sd["layers.0.linear1.weight"][1, 2] = float("nan")
        sd["layers.1.linear2.bias"][0] = float("inf")
        sd["layers.2.norm1.weight"] = torch.zeros(16)
        sd["layers.2.norm2.weight"] = torch.full((16,), 0.5)
        torch.save(sd, path("broken.pt"))
        out, _ = run("check", path("broken.pt"), "--format", "json", code=1)
        got = sorted((v["path"], v["element"], v["rule"]) for v in json.loads(out)["violations"])
        # linear1.bias etc. are random: the only constant tensors are those made so (and
        # LayerNorm's initial biases of zeros, which --allow-dead would pass).
        zero_biases = sorted((n.rsplit(".", 1)[0], "param." + n.rsplit(".", 1)[1], "no-dead")
                             for n, t in sd.items() if t.numel() > 1 and not t.any())
        constants = sorted((n.rsplit(".", 1)[0], "param." + n.rsplit(".", 1)[1], "no-constant")
                           for n, t in sd.items()
                           if t.numel() > 1 and t.any() and (t == t.flatten()[0]).all())
        want = sorted([("layers.0.linear1", "param.weight", "no-nan"),
                       ("layers.1.linear2", "param.bias", "no-inf")] + zero_biases + constants)
        self.assertEqual(got, want)

    def test_bfloat16_and_float8_statistics(self):
        torch.manual_seed(0)
        sd = {"a": torch.randn(1000).to(torch.bfloat16), "b": torch.randn(999).to(torch.float8_e5m2)}
        save_file(sd, path("low.safetensors"))
        top = {name: t.double().abs().max().item() for name, t in sd.items()}
        exact = max(top.values())
        run("check", path("low.safetensors"), "--max-abs", exact)
        out, _ = run("check", path("low.safetensors"), "--max-abs", min(top.values()),
                     "--format", "json", code=1)
        got = {v["element"]: v["value"] for v in json.loads(out)["violations"]}
        self.assertEqual(got, {"param." + max(top, key=top.get): exact})


class Diff(unittest.TestCase):
    def test_against_numpy_float64(self):
        a, b = transformer(0), transformer(1)
        a["only_a"] = torch.ones(2)
        b["only_b"] = torch.ones(2)
        b["layers.0.linear1.bias"] = torch.randn(33)
        b["head.weight"] = a["head.weight"].float()  # dtype changed, same values
        save_file(a, path("a.safetensors"))
        torch.save(b, path("b.pt"))
        out, _ = run("diff", path("a.safetensors"), path("b.pt"), "--format", "json", code=1)
        got = {t["name"]: t for t in json.loads(out)["tensors"]}
        self.assertEqual(got["only_a"]["status"], "only in A")
        self.assertEqual(got["only_b"]["status"], "only in B")
        self.assertEqual(got["layers.0.linear1.bias"]["status"], "shape changed")
        self.assertEqual(got["head.weight"]["status"], "dtype changed")
        self.assertEqual(got["head.weight"]["max_abs"], 0)
        for name in a:
            if name in ("only_a", "layers.0.linear1.bias", "head.weight"):
                continue
            x, y = a[name].double().numpy(), b[name].double().numpy()
            d = np.abs(x - y)
            t = got[name]
            self.assertAlmostEqual(t["max_abs"], d.max(), delta=1e-15, msg=name)
            self.assertAlmostEqual(t["mean_abs"], d.mean(), delta=1e-12 * max(1, d.mean()), msg=name)
            if np.linalg.norm(d):
                rel = np.linalg.norm(d) / np.linalg.norm(y)
                self.assertLess(abs(t["rel_change"] - rel), 1e-12 * rel, msg=name)
            if np.linalg.norm(x) and np.linalg.norm(y):
                cos = x.ravel() @ y.ravel() / (np.linalg.norm(x) * np.linalg.norm(y))
                self.assertLess(abs(t["cosine"] - cos), 1e-12, msg=name)
            mismatched = int((d > 1e-8 + 1e-5 * np.abs(y)).sum())
            self.assertEqual(t["mismatched"], mismatched, msg=name)
        # Failures first, then the largest relative change.
        order = [t["status"] for t in json.loads(out)["tensors"]]
        self.assertTrue(all(s != "same" for s in order[:5]))

    def test_verdict_with_tolerance(self):
        a = {"w": torch.randn(100, 10)}
        b = {"w": a["w"] + 1e-4 * torch.randn(100, 10)}
        save_file(a, path("ta.safetensors"))
        index = shard(b, "tb", 1)
        err = (a["w"].double() - b["w"].double()).abs().max().item()
        run("diff", path("ta.safetensors"), index, code=1)
        out, _ = run("diff", path("ta.safetensors"), index, "--atol", err, "--rtol", 0)
        self.assertTrue(out.startswith("diff passed"))
        md, _ = run("diff", path("ta.safetensors"), index, "--format", "markdown", code=1)
        self.assertTrue(md.startswith("### modrec diff failed: 1 tensor differs"))


class BadInput(unittest.TestCase):
    def test_damaged_files_are_exit_3_with_one_line(self):
        """The damaged files lib/checkpoint/test_fixtures.py writes for the unit tests."""
        fixtures = path("fixtures")
        os.makedirs(fixtures, exist_ok=True)
        subprocess.run([PYTHON, os.path.join(ROOT, "lib", "checkpoint", "test_fixtures.py"),
                        fixtures], check=True, capture_output=True)
        damaged = ["truncated_header.safetensors", "huge_header.safetensors",
                   "out_of_range.safetensors", "overlap.safetensors", "not_utf8.safetensors",
                   "wrong_size.safetensors", "unknown_dtype.safetensors",
                   "cut_pickle.pt", "missing_shard.index.json"]
        good = os.path.join(fixtures, "model.safetensors")
        for name in damaged:
            file = os.path.join(fixtures, name)
            for command in (["summary"], ["check"], ["diff", good]):
                with self.subTest(name=name, command=command[0]):
                    _, err = run(*command, file, code=3)
                    self.assertIn(file, error_line(err))

    def test_record_and_watch_refuse_a_checkpoint_with_advice(self):
        save_file({"w": torch.ones(2)}, path("refused.safetensors"))
        torch.save({"w": torch.ones(2)}, path("refused.pt"))
        x = tensor_file([2, 3])
        for file in (path("refused.safetensors"), path("refused.pt")):
            for command in (["record", file, "--input", x, "--layers", "all", "--out",
                             path("never")],
                            ["watch", file, "--input", x, "--loss", "sum", "--out", path("never")]):
                with self.subTest(file=file, command=command[0]):
                    _, err = run(*command, code=3)
                    line = error_line(err)
                    self.assertIn("load_state_dict", line)
                    self.assertIn("torch.export", line)
                    self.assertFalse(os.path.exists(path("never")))


if __name__ == "__main__":
    main()

"""Checkpoints as untrusted input (issue 55 items 4 and 7) and save_pretrained folders (issue 56
item 6): a shard index names files in its own folder only and shows only the tensors it names;
a damaged checkpoint is exit 3 naming its kind and defect in summary, check and diff alike; a
folder transformers' save_pretrained wrote (sharded with max_shard_size, or one file) is the
checkpoint from_pretrained reads, judged by safetensors' own reader and the model's state_dict."""
import json
import os
import re
import struct
import tempfile
import unittest
import zipfile

import torch
from safetensors import safe_open
from safetensors.torch import save_file

from e2e import main, run, tensor_file

LINE = re.compile(r"^modrec: error: .+ \(.+\): .+$")


def setUpModule():
    global DIR
    DIR = tempfile.mkdtemp(prefix="modrec-checkpoint-trust-")


def path(*parts):
    return os.path.join(DIR, *parts)


def error_line(stderr):
    lines = stderr.strip().splitlines()
    assert len(lines) == 1 and LINE.match(lines[0]), stderr
    return lines[0]


def safetensors_bytes(header):
    return struct.pack("<Q", len(header)) + header


def write(name, data):
    with open(path(name), "wb") as f:
        f.write(data)
    return path(name)


def with_pickle(name, pickle):
    """A torch.save'd state_dict whose data.pkl is `pickle` (its CRC right)."""
    torch.save({"w": torch.ones(2)}, path(name + ".orig"))
    with zipfile.ZipFile(path(name + ".orig")) as z, zipfile.ZipFile(path(name), "w") as out:
        for info in z.infolist():
            out.writestr(info, pickle if info.filename.endswith("/data.pkl") else z.read(info))
    return path(name)


def summary_json(file):
    out, err = run("summary", file, "--format", "json")
    return json.loads(out), err


def tensors_of(summary):
    return {t["name"]: t for row in summary["rows"] for t in row["tensors"]}


class Index(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        os.makedirs(path("index"), exist_ok=True)
        os.makedirs(path("elsewhere"), exist_ok=True)
        cls.good = path("index", "good.safetensors")
        save_file({"a": torch.ones(2)}, cls.good)
        save_file({"b": torch.ones(3)}, path("elsewhere", "x.safetensors"))

    def index(self, name, weight_map):
        file = path("index", name + ".index.json")
        with open(file, "w") as f:
            json.dump({"metadata": {}, "weight_map": weight_map}, f)
        return file

    def test_a_shard_outside_the_index_folder_is_refused(self):
        """The shard exists and is valid: it is the path that is refused, in every subcommand."""
        for value in ("../elsewhere/x.safetensors", path("elsewhere", "x.safetensors"),
                      "sub/x.safetensors", "..", ""):
            index = self.index("escape", {"a": "good.safetensors", "b": value})
            for command in (["summary", index], ["check", index], ["diff", self.good, index]):
                with self.subTest(value=value, command=command[0]):
                    _, err = run(*command, code=3)
                    line = error_line(err)
                    self.assertIn(index, line)
                    self.assertIn(" b ", line)
                    self.assertIn(f'"{value}"', line)
                    self.assertIn("not a file name in the index's folder", line)

    def test_tensors_the_index_does_not_name_are_left_out_with_one_warning(self):
        one = {"w": torch.randn(3), "extra1": torch.ones(2), "extra2": torch.ones(4)}
        two = {"v": torch.randn(2, 2), "w": torch.zeros(3)}  # w's copy here is not the mapped one
        save_file(one, path("index", "one.safetensors"))
        save_file(two, path("index", "two.safetensors"))
        weight_map = {"w": "one.safetensors", "v": "two.safetensors"}
        index = self.index("partial", weight_map)
        got, err = summary_json(index)
        self.assertEqual(set(tensors_of(got)), set(weight_map))
        self.assertEqual(got["totals"]["params"], 3 + 4)
        self.assertEqual(tensors_of(got)["w"]["file"], path("index", "one.safetensors"))
        warnings = err.strip().splitlines()
        self.assertEqual(len(warnings), 1, err)
        self.assertIn("modrec: warning: " + index, warnings[0])
        self.assertIn("3 tensors of its shards not named in its weight_map left out", warnings[0])
        self.assertIn("2 in one.safetensors", warnings[0])
        self.assertIn("1 in two.safetensors", warnings[0])
        out, _ = run("check", index, "--allow-dead", "--allow-constant", "--format", "json")
        self.assertEqual(json.loads(out)["tensors_checked"], 2)
        # check's values are the mapped copy's: w from one.safetensors, not two's zeros.
        out, _ = run("check", index, "--max-abs", 0, "--format", "json", code=1)
        values = {v["path"] + v["element"]: v["value"] for v in json.loads(out)["violations"]}
        self.assertEqual(values["param.w"], one["w"].abs().max().item())


class Damaged(unittest.TestCase):
    """Damaged checkpoints: exit 3 naming the file, its kind and the defect, in every subcommand;
    never check's "record needs an input" (exit 2)."""

    @classmethod
    def setUpClass(cls):
        cls.good = path("good.safetensors")
        save_file({"w": torch.ones(2)}, cls.good)
        sd = {"w": torch.ones(2)}
        torch.save(sd, path("legacy.pt"), _use_new_zipfile_serialization=False)
        torch.save([sd], path("list.pt"))
        cls.cases = {
            write("three_bytes.safetensors", b"abc"): "safetensors header is cut off",
            write("not_json.safetensors", safetensors_bytes(b"not json")):
                "safetensors header is not JSON",
            write("array.safetensors", safetensors_bytes(b"[1, 2]")):
                "safetensors header is not a JSON object",
            # The kind from the bytes alone: a header that is a JSON array, whatever the name.
            write("array_header.bin", safetensors_bytes(b'[{"dtype": "F32"}]')):
                "safetensors header is not a JSON object",
            write("deep_metadata.safetensors", safetensors_bytes(
                b'{"__metadata__": ' + b'{"a": ' * 200000 + b"1" + b"}" * 200001)):
                "safetensors header nests its JSON more than 512 deep",
            write("deep.index.json", b'{"weight_map": ' + b"[" * 200000 + b"]" * 200000 + b"}"):
                "checkpoint index nests its JSON more than 512 deep",
            write("huge_number.safetensors", safetensors_bytes(
                b'{"a": {"dtype": "F32", "shape": [1e999], "data_offsets": [0, 4]}}')):
                "safetensors header holds a number out of range",
            write("broken.index.json", b'{"weight_map": {"a": '):
                "checkpoint index is not JSON",
            path("legacy.pt"): "legacy (non-zip) torch.save pickle",
            path("list.pt"): "torch.save of a list",
            # Pickles read by modrec's own machine: nesting and cycles refused before any walk.
            with_pickle("deep.pt", b"\x80\x02}X\x01\x00\x00\x00a)" + b"\x85" * 200000 + b"s."):
                "checkpoint's pickle nests values more than 1000 deep",
            with_pickle("cycle.pt", b"\x80\x02}q\x00X\x01\x00\x00\x00ah\x00s."):
                "checkpoint's pickle holds a value inside itself",
        }

    def test_every_subcommand_names_the_kind_and_the_defect(self):
        for file, defect in self.cases.items():
            for command in (["summary", file], ["check", file], ["diff", file, self.good]):
                with self.subTest(file=os.path.basename(file), command=command[0]):
                    _, err = run(*command, code=3)
                    line = error_line(err)
                    self.assertIn(file, line)
                    self.assertIn(defect, line)


class Pretrained(unittest.TestCase):
    """transformers' save_pretrained of a tiny GPT-2, sharded into several files and as one."""

    @classmethod
    def setUpClass(cls):
        from transformers import GPT2Config, GPT2LMHeadModel
        torch.manual_seed(0)
        config = GPT2Config(n_embd=32, n_layer=2, n_head=2, vocab_size=500, n_positions=32)
        cls.model = GPT2LMHeadModel(config)
        cls.sharded, cls.single = path("sharded"), path("single")
        cls.model.save_pretrained(cls.sharded, max_shard_size="40KB")
        cls.model.save_pretrained(cls.single)
        cls.shards = sorted(f for f in os.listdir(cls.sharded) if f.endswith(".safetensors"))
        # What safetensors' own reader finds in the shards: the tensors and their files.
        cls.saved = {}
        for shard in cls.shards:
            with safe_open(os.path.join(cls.sharded, shard), "pt") as f:
                cls.saved.update({k: (f.get_tensor(k), shard) for k in f.keys()})
        state = cls.model.state_dict()
        # A folder as transformers before 5 wrote it: torch.save'd shards and their index.
        cls.bin = path("bin")
        os.makedirs(cls.bin, exist_ok=True)
        names = sorted(cls.saved)
        weight_map = {}
        for k, part in enumerate((names[::2], names[1::2])):
            file = f"pytorch_model-{k + 1:05d}-of-00002.bin"
            torch.save({n: state[n] for n in part}, os.path.join(cls.bin, file))
            weight_map.update({n: file for n in part})
        with open(os.path.join(cls.bin, "pytorch_model.bin.index.json"), "w") as f:
            json.dump({"metadata": {}, "weight_map": weight_map}, f)

    def test_a_sharded_folder_reads_as_safetensors_reads_its_shards(self):
        self.assertGreaterEqual(len(self.shards), 3)
        got, _ = summary_json(self.sharded)
        self.assertEqual(got["format"], "sharded")
        self.assertEqual(len(got["files"]), len(self.shards))
        tensors = tensors_of(got)
        self.assertEqual(set(tensors), set(self.saved))
        for name, (t, shard) in self.saved.items():
            self.assertEqual(tensors[name]["shape"], list(t.shape), name)
            self.assertEqual(tensors[name]["dtype"], str(t.dtype).removeprefix("torch."), name)
            self.assertEqual(os.path.basename(tensors[name]["file"]), shard, name)
        self.assertEqual(got["totals"]["params"], sum(t.numel() for t, _ in self.saved.values()))
        # The root row is the folder, as the table names a file.
        self.assertIn("sharded", run("summary", self.sharded + "/")[0].splitlines()[3])

    def test_check_reads_the_model_state_dicts_values(self):
        """Every tensor's abs max (check --max-abs 0) as the model's state_dict has it."""
        state = self.model.state_dict()
        for folder in (self.sharded, self.single, self.bin):
            with self.subTest(folder=os.path.basename(folder)):
                out, _ = run("check", folder, "--allow-dead", "--allow-constant", "--max-abs", 0,
                             "--format", "json", code=1)
                report = json.loads(out)
                self.assertEqual(report["tensors_checked"], len(self.saved))
                got = {(v["path"] + "." if v["path"] else "") + v["element"][len("param."):]:
                       v["value"] for v in report["violations"]}
                want = {n: state[n].abs().max().item() for n in self.saved
                        if state[n].abs().max().item() > 0}
                self.assertEqual(got, want)

    def test_diff_of_folders_and_their_files(self):
        out, _ = run("diff", self.sharded, self.single, "--format", "json")
        report = json.loads(out)
        self.assertTrue(report["passed"])
        self.assertEqual(len(report["tensors"]), len(self.saved))
        self.assertTrue(all(t["max_abs"] == 0 for t in report["tensors"]))
        run("diff", self.bin, os.path.join(self.single, "model.safetensors"))

    def test_safetensors_is_read_before_a_torch_save_file_beside_it(self):
        """from_pretrained's order: model.safetensors, its index, pytorch_model.bin, its index."""
        both = path("both")
        os.makedirs(both, exist_ok=True)
        save_file({"from_safetensors": torch.ones(1)}, os.path.join(both, "model.safetensors"))
        torch.save({"from_bin": torch.ones(1)}, os.path.join(both, "pytorch_model.bin"))
        got, _ = summary_json(both)
        self.assertEqual(set(tensors_of(got)), {"from_safetensors"})

    def test_a_folder_without_a_checkpoint_says_what_it_looked_for(self):
        empty = path("config_only")
        os.makedirs(empty, exist_ok=True)
        with open(os.path.join(empty, "config.json"), "w") as f:
            f.write("{}")
        for command in (["summary", empty], ["check", empty], ["diff", empty, self.sharded],
                        ["diff", self.sharded, empty]):
            with self.subTest(command=command[0]):
                _, err = run(*command, code=3)
                line = error_line(err)
                self.assertIn(empty, line)
                for name in ("model.safetensors", "model.safetensors.index.json",
                             "pytorch_model.bin", "pytorch_model.bin.index.json"):
                    self.assertIn(name, line)

    def test_record_refuses_a_folder_with_the_checkpoint_advice(self):
        _, err = run("record", self.single, "--input", tensor_file([1, 4]), "--layers", "all",
                     "--out", path("never"), code=3)
        self.assertIn("load_state_dict", error_line(err))
        self.assertFalse(os.path.exists(path("never")))


if __name__ == "__main__":
    main()

"""AOTInductor packages as untrusted input (issue 55): one package compiled here on the CPU for
a (4, 4) input, and hostile packages made from it with zipfile:
- an entry named .../model/../../x (zip slip), an entry stored as a symbolic link, the library
  removed (or moved out of the model's folder, or out of the package's folder) beside compile
  and linker flags whose "compiler" writes a marker file: exit 3 before anything runs, one line
  naming the entry or the missing library; the markers and the escaping file never written;
- the library swapped for one whose constructor writes a marker: summary and graph read the
  table from the package's declarations and never load it (no marker); record, which must run
  the package, loads it (the marker is written, as aoti_load_package would) and fails as one line;
- every run with a fresh $TMPDIR and working folder: both as empty after as before (modrec's
  scratch folder removed, LibTorch's loader leaves no aotinductor_* folder), --out the only thing
  written;
- summary's table: the constants the package holds (torch's own loader lists them,
  get_constant_fqns) sized from the eager model's state_dict, by module, with the warning that it
  counts the constants the package holds (the biases are folded into the code);
- 9 rows given to the package compiled for 4: exit 2 naming the input, the dimension, the size
  given and the size compiled; 4 rows: the output of aoti_load_package."""
import atexit
import json
import os
import shutil
import subprocess
import tempfile
import unittest
import zipfile

import torch

from aoti_fixtures import compile_mlp, rezipped
from e2e import MODREC, main

TMP = tempfile.mkdtemp(prefix="aoti-trust-")
atexit.register(shutil.rmtree, TMP, True)


def path(*parts):
    return os.path.join(TMP, *parts)


def constructor_library(marker):
    """A shared library whose constructor writes `marker` (built here with g++)."""
    src, so = path("ctor.cpp"), path("ctor.so")
    with open(src, "w") as f:
        f.write('#include <cstdio>\n__attribute__((constructor)) static void ran() {\n'
                f'  if (FILE* f = std::fopen("{marker}", "w")) std::fclose(f);\n}}\n')
    subprocess.run(["g++", "-shared", "-fPIC", "-o", so, src], check=True)
    with open(so, "rb") as f:
        return f.read()


class Package(unittest.TestCase):
    """One package compiled on the CPU for the whole class (~35 s on 2 cores)."""

    @classmethod
    def setUpClass(cls):
        compile_mlp(cls, TMP, rows=4)
        torch.save(torch.randn(9, 4), path("x9.pt"))
        with zipfile.ZipFile(cls.package) as z:
            cls.names = z.namelist()
        cls.root = cls.names[0].split("/")[0]
        cls.model_dir = f"{cls.root}/data/aotinductor/model/"
        cls.library = next(n for n in cls.names if n.endswith(".so"))
        cls.markers = path("markers")
        os.makedirs(cls.markers)

    def modrec(self, *args, code=0, outputs=()):
        """Runs modrec in a fresh working folder with a fresh $TMPDIR; asserts the exit code, that
        both hold nothing after but `outputs` (names in the working folder), and that no marker
        was written; returns (stdout, stderr), the working folder in self.work."""
        work, tmp = tempfile.mkdtemp(dir=TMP), tempfile.mkdtemp(dir=TMP)
        self.work = work
        p = subprocess.run([MODREC, *map(str, args)], capture_output=True, text=True, cwd=work,
                           env=dict(os.environ, TMPDIR=tmp), stdin=subprocess.DEVNULL)
        self.assertEqual(p.returncode, code, p.stderr)
        self.assertEqual(os.listdir(tmp), [], "left in $TMPDIR")
        self.assertEqual(sorted(os.listdir(work)), sorted(outputs), "written outside --out")
        self.assertEqual(os.listdir(self.markers), [], "code from the package ran")
        return p.stdout, p.stderr

    def refused(self, name, words, edit=lambda info, data: data, extra=()):
        """`summary`, `graph` and `record` of the package made so: exit 3, one line with `words`."""
        bad = rezipped(self.package, path(name), edit, extra)
        for args in (("summary", bad), ("graph", bad),
                     ("record", bad, "--input", self.x_file, "--layers", "all", "--no-backward",
                      "--out", "run")):
            _, err = self.modrec(*args, code=3)
            self.assertEqual(len(err.strip().splitlines()), 1, err)
            for w in words:
                self.assertIn(w, err)

    def test_an_entry_climbing_out_of_its_folder_is_refused_and_never_written(self):
        escaped = os.path.join(self.markers, "escaped.txt")
        name = self.model_dir + "../" * 12 + escaped.lstrip("/")
        self.refused("slip.pt2", [name, "climbs out of its folder"],
                     extra=[(zipfile.ZipInfo(name), b"escaped")])

    def test_a_symbolic_link_entry_is_refused(self):
        link = zipfile.ZipInfo(self.model_dir + "link.so")
        link.create_system = 3
        link.external_attr = 0o120777 << 16
        self.refused("link.pt2", [self.model_dir + "link.so", "is a symbolic link"],
                     extra=[(link, b"/etc/passwd")])

    def test_a_package_without_its_library_is_never_compiled(self):
        marker = os.path.join(self.markers, "compiled")
        stem = self.library[:-3]
        flags = json.dumps({"compiler": f"touch {marker}; false", "definitions": [],
                            "include_dirs": [], "cflags": [], "ldflags": [], "libraries_dirs": [],
                            "libraries": [], "passthrough_args": [], "compile_only": False})
        compile_flags = [(zipfile.ZipInfo(stem + "_compile_flags.json"), flags),
                         (zipfile.ZipInfo(stem + "_linker_flags.json"), flags)]
        without = lambda info, data: None if info.filename == self.library else data  # noqa: E731
        self.refused("no_library.pt2", ["no compiled library", "does not compile"], without,
                     compile_flags)
        for name, moved in (("library_beside.pt2", f"{self.root}/data/aotinductor/lib.so"),
                            ("library_outside.pt2", "elsewhere/data/aotinductor/model/x.so")):
            with zipfile.ZipFile(self.package) as z:
                library = z.read(self.library)
            words = ["outside the package's folder"] if "outside" in name else [
                "no compiled library"]
            self.refused(name, words, without,
                         compile_flags + [(zipfile.ZipInfo(moved), library)])

    def test_a_library_constructor_never_runs_for_summary_or_graph(self):
        marker = os.path.join(self.markers, "constructor")
        library = constructor_library(marker)
        swapped = rezipped(self.package, path("ctor.pt2"),
                           lambda info, data: library if info.filename == self.library else data)
        out, err = self.modrec("summary", swapped)
        self.assertIn("Total params: 56", out)
        self.modrec("graph", swapped)
        work, tmp = tempfile.mkdtemp(dir=TMP), tempfile.mkdtemp(dir=TMP)
        p = subprocess.run([MODREC, "record", swapped, "--input", self.x_file, "--layers", "all",
                            "--no-backward", "--out", "run"], capture_output=True, text=True,
                           cwd=work, env=dict(os.environ, TMPDIR=tmp))
        # record must run the package: its library is loaded, as aoti_load_package loads it.
        self.assertEqual(p.returncode, 3, p.stderr)
        self.assertEqual(len(p.stderr.strip().splitlines()), 1, p.stderr)
        self.assertIn("cannot be loaded", p.stderr)
        self.assertTrue(os.path.exists(marker))
        os.remove(marker)
        self.assertEqual(os.listdir(tmp), [])
        self.assertEqual(os.listdir(work), [])

    def test_summary_counts_the_constants_the_package_holds_and_says_so(self):
        out, err = self.modrec("summary", self.package)
        held = torch._inductor.aoti_load_package(self.package).get_constant_fqns()
        state = self.model.state_dict()
        per_module = {}
        for fqn in held:
            module = fqn.rpartition(".")[0]
            per_module[module] = per_module.get(module, 0) + state[fqn].numel()
        rows = [line.split() for line in out.splitlines() if line.startswith("├─")]
        self.assertEqual([int(r[-1].strip("()")) for r in rows],
                         [per_module[m] for m in sorted(per_module)])
        total = sum(state[f].numel() for f in held)
        self.assertLess(total, sum(p.numel() for p in self.model.parameters()))  # biases folded
        self.assertIn(f"Total params: {total}", out)
        self.assertEqual(len(err.strip().splitlines()), 1, err)
        self.assertIn("counts the constants the package holds", err)
        graph, _ = self.modrec("graph", self.package, "--format", "json")
        self.assertTrue(json.loads(graph)["nodes"])

    def test_an_input_of_other_sizes_than_compiled_is_refused_before_it_runs(self):
        for command in (("record", "--layers", "all", "--no-backward", "--out", "run"),
                        ("summary",)):
            _, err = self.modrec(command[0], self.package, "--input", path("x9.pt"),
                                 *command[1:], code=2)
            self.assertEqual(len(err.strip().splitlines()), 1, err)
            for words in ("input_0", "dimension 0 is 9", "compiled for 4"):
                self.assertIn(words, err)
        self.modrec("record", self.package, "--input", self.x_file, "--layers", "all",
                    "--no-backward", "--out", "run", outputs=["run"])
        got = torch.load(os.path.join(self.work, "run", "tensors", "0-1", "output.pt"))
        want = torch._inductor.aoti_load_package(self.package)(self.x)
        self.assertTrue(torch.equal(got, want))


if __name__ == "__main__":
    main()

"""torch.export archives of models as the ecosystem writes them (issue 48): tiny random-weight timm
models of five families (a ViT, whose attention passes q and k through Identity chains no other
call takes; a ConvNeXt; an EfficientNet, a RegNet, a MobileViT) and a Hugging Face
encoder-decoder (T5: a tied embedding, keyword arguments, a ModelOutput result), modules called with keyword arguments (KeywordCallsNet) and weight norm both
ways (WeightNormNet: wav2vec2's parametrized positional convolution, the older pre-hook form),
exported plain and by modrec.export, against eager PyTorch on the same weights:
summary's table is torchinfo's at depths 1, 3 and 99 with every column, record's captures are
eager hooks'. modrec.export keeps every call's signature (the archive's module_call_graph), which
places the calls that run no operator (docs/export-notes.md). The models are scripts/models.py's
EXPORT_MODELS, exported once into a temporary directory."""
import json
import os
import re
import shutil
import sys
import tempfile
import warnings

import torch

from e2e import ROOT, run, main
from test_pt2_hop import save, torchinfo_table, untyped
from test_record_oracle import RecordComparison

sys.path.insert(0, os.path.join(ROOT, "scripts"))
sys.path.insert(0, os.path.join(ROOT, "python"))
import models  # noqa: E402
import modrec  # noqa: E402

NAMES = ("TimmViT", "TimmConvNeXt", "TimmEfficientNet", "TimmRegNet", "TimmMobileViT", "T5",
         "KeywordCallsNet", "WeightNormNet")
ALL_COLUMNS = "input_size,output_size,num_params,params_percent,kernel_size,mult_adds,trainable"
# Calls given keyword arguments only (Hugging Face's T5 calls its stacks so), for which torchinfo
# prints "--" as the input size. The signatures modrec.export keeps tell which arguments were
# positional; a plain archive has none, and modrec prints the first tensor's shape, with a warning
# naming those calls (docs/export-notes.md).
KEYWORD_CALLS = ("T5",)


def warned_paths(err):
    """The module paths --log-format json's warnings name, by the column they say is not told:
    Input Shape (which arguments were keywords) and Output Shape (a result's structure)."""
    warned = {"Input Shape": set(), "Output Shape": set()}
    for line in err.splitlines():
        message = json.loads(line)["message"]
        for column in warned:
            if f"their {column}" in message:
                listed = message.partition("): ")[2].partition("; their")[0]
                warned[column].update(listed.split(", "))
    return warned


def differing_cells(out, want):
    """(column title, modrec's cell, torchinfo's cell, torchinfo's row) of each cell that differs
    between two tables of the same rows and columns."""
    header = next(l for l in want.splitlines() if l.startswith("Layer (type"))
    titles = [t.strip() for t in re.findall(r"\S+(?: \S+)*\s*", header)]
    starts = [header.index(t) for t in titles] + [None]
    got_lines, want_lines = out.splitlines(), want.splitlines()
    assert len(got_lines) == len(want_lines), (out, want)
    cells = []
    for got, row in zip(got_lines, want_lines):
        if got == row or not row.startswith(("├", "│", "└")):
            assert got == row, (got, row)
            continue
        for title, a, b in zip(titles, starts, starts[1:]):
            if got[a:b].strip() != row[a:b].strip():
                cells.append((title, got[a:b].strip(), row[a:b].strip(), row))
    return cells


class Zoo(RecordComparison):
    @classmethod
    def setUpClass(cls):
        cls.out = tempfile.mkdtemp(prefix="pt2-zoo-")
        cls.plain, cls.noted, cls.inputs = {}, {}, {}
        for name in NAMES:
            model, args = models.build(name), models.example_inputs(name)
            cls.plain[name] = os.path.join(cls.out, name + ".pt2")
            torch.export.save(torch.export.export(model, args), cls.plain[name])
            cls.noted[name] = os.path.join(cls.out, name + ".notes.pt2")
            modrec.export(model, args, cls.noted[name])
            cls.inputs[name] = save(cls.out, name, args[0])

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.out, True)

    def test_tables_with_notes_are_torchinfos(self):
        for name in NAMES:
            for depth in ("1", "3", "99"):
                with self.subTest(name, depth=depth):
                    args = ("--input", self.inputs[name], "--columns", ALL_COLUMNS,
                            "--depth", depth)
                    out, err = run("summary", self.noted[name], *args)
                    self.assertEqual(out, torchinfo_table(name, self.noted[name], *args))
                    self.assertNotIn("modrec-notes", err)

    def test_tables_without_an_input_are_torchinfos(self):
        import torchinfo
        for name in NAMES:
            for depth in (1, 3, 99):
                with self.subTest(name, depth=depth):
                    out = run("summary", self.noted[name], "--depth", str(depth))[0]
                    table = out.partition("\nForward signature: forward(")[0]
                    want = str(torchinfo.summary(models.build(name), depth=depth, verbose=0))
                    self.assertEqual(table, want + "\n")

    def test_captures_with_notes_equal_eager_hooks(self):
        # An Identity whose result the caller uses more than once (ViT's patch_drop and norm_pre
        # before the first block's residual; ConvNeXt's shortcut, given x that conv_dw takes too)
        # returns one graph value with several uses: which are the result's is not told, so its
        # gradients are refused (docs/export-notes.md); its values are compared.
        # T5's: export runs transformers' mask code, which makes an attention mask tensor where
        # eager forward passes None; its calls' signatures give each argument by name, so the
        # recorded inputs are eager's all the same. KeywordCallsNet's keyword-only calls record
        # every argument, as a pre-hook with_kwargs sees them.
        for name in NAMES:
            with self.subTest(name):
                model = models.build(name)
                identities = {p for p, m in model.named_modules()
                              if isinstance(m, torch.nn.Identity)}
                self.compare(name, [self.inputs[name]], model=self.noted[name],
                             weights=self.noted[name], rtol=1e-4, atol=1e-5, refused=identities)

    def test_plain_archives_count_as_torchinfo(self):
        # Without notes, the calls that run no operator have no row (timm's Identity chains): the
        # totals are torchinfo's, T5's tied embedding counted once.
        for name in NAMES:
            with self.subTest(name):
                args = ("--input", self.inputs[name], "--depth", "99")
                out = run("summary", self.plain[name], *args)[0]
                want = torchinfo_table(name, self.plain[name], *args)
                totals = re.compile(r"^(?:Total|Trainable|Non-trainable) params.*$", re.M)
                self.assertEqual(totals.findall(out), totals.findall(want))

    def test_plain_archives_differ_only_where_a_warning_says(self):
        # A plain archive keeps no call signatures: which arguments were keywords (torchinfo's
        # Input Shape "--") nor a result's structure (T5's ModelOutput: its last value). The
        # table is torchinfo's but in those cells, of the rows a warning names; every module runs
        # an operator but T5's never-called ModuleLists, shown as Module (README).
        for name in KEYWORD_CALLS:
            for depth in ("1", "3", "99"):
                with self.subTest(name, depth=depth):
                    args = ("--input", self.inputs[name], "--columns", ALL_COLUMNS,
                            "--depth", depth)
                    out, err = run("--log-format", "json", "summary", self.plain[name], *args)
                    want = untyped(torchinfo_table(name, self.plain[name], *args))
                    warned = warned_paths(err)
                    for line in run("summary", self.plain[name], *args)[1].splitlines():
                        # short: the first few names (all in JSON, as above, and under -v)
                        self.assertLessEqual(len(line) - len(self.plain[name]), 210, line)
                    names = run("summary", self.plain[name], *args, "--row-settings",
                                "var_names")[0].splitlines()
                    cells = differing_cells(out, want)
                    self.assertTrue(cells)  # the models' keyword calls differ
                    for column, got, cell, row in cells:
                        self.assertIn(column, warned, row)
                        if column == "Input Shape":
                            self.assertEqual(cell, "--", row)
                        # the row's module, by its var name: "├─T5Stack (encoder)"
                        line = names[want.splitlines().index(row)]
                        var = re.findall(r"\((\w+)\)", line)[-1]
                        self.assertTrue(any(p.split(".")[-1] == var for p in warned[column]),
                                        (row, warned[column]))

    def test_signatures_tell_keyword_calls(self):
        # A plain archive exported with every module's signature (preserve_module_call_signature,
        # as modrec.export does) tells which arguments were positional: fc(input=x) and
        # head(x=h) show "--", as torchinfo; without signatures, the first tensor's shape.
        name = "KeywordCallsNet"
        model, args = models.build(name), models.example_inputs(name)
        path = os.path.join(self.out, name + ".signatures.pt2")
        paths = tuple(p for p, _ in model.named_modules() if p)
        torch.export.save(torch.export.export(model, args, preserve_module_call_signature=paths),
                          path)
        for archive, want in ((path, "--"), (self.plain[name], "[2, 4]")):
            out = run("summary", archive, "--input", self.inputs[name],
                      "--columns", "input_size")[0]
            for row in ("Linear: 1-1", "KeywordBlock: 1-3"):
                with self.subTest(archive, row=row):
                    self.assertRegex(out, re.escape(row) + r" +" + re.escape(want) + r"\n")


class OneModuleAtSeveralPaths(RecordComparison):
    """models.py's SharedModuleNet (`self.b = self.a`, a block inside two parents) exported by
    modrec.export, whose notes say which paths are one module object (the program, as a
    TorchScript file, keeps a module per path: docs/export-notes.md): torchinfo's rows, recursive
    marks, counts and labels, and eager hooks' captures, each call named by the path torchinfo's
    hooks report (the object's last)."""
    NAME = "SharedModuleNet"

    @classmethod
    def setUpClass(cls):
        cls.out = tempfile.mkdtemp(prefix="pt2-shared-")
        cls.noted = os.path.join(cls.out, cls.NAME + ".notes.pt2")
        args = models.example_inputs(cls.NAME)
        modrec.export(models.build(cls.NAME), args, cls.noted)
        cls.input = save(cls.out, "x", args[0])

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.out, True)

    def test_tables_are_torchinfos(self):
        import torchinfo
        for depth in ("1", "3", "99"):
            with self.subTest(depth=depth):
                args = ("--input", self.input, "--columns", ALL_COLUMNS, "--depth", depth)
                out, err = run("summary", self.noted, *args)
                self.assertEqual(out, torchinfo_table(self.NAME, self.noted, *args))
                self.assertEqual(err, "")
                columns = "num_params,params_percent,kernel_size,trainable"
                out = run("summary", self.noted, "--columns", columns, "--depth", depth)[0]
                want = torchinfo.summary(models.build(self.NAME), col_names=columns.split(","),
                                         depth=int(depth), verbose=0)
                self.assertEqual(out.partition("\nForward signature: forward(")[0], f"{want}\n")

    def test_captures_equal_eager_hooks(self):
        manifest = self.compare(self.NAME, [self.input], model=self.noted, weights=self.noted)
        self.assertEqual([l["path"] for l in manifest["layers"]][1:3], ["b", "b"])


class CondWithNotes(RecordComparison):
    def test_a_strict_exports_taken_branch_is_torchinfos_and_eager_hooks(self):
        # Strict export writes the branch nodes' module stacks: the notes' calls inside the
        # branch are left to the branch, planned when it runs (they dropped all the notes).
        out = tempfile.mkdtemp(prefix="pt2-cond-")
        self.addCleanup(shutil.rmtree, out, True)
        path = os.path.join(out, "CondNet.strict.notes.pt2")
        args = models.example_inputs("CondNet")
        modrec.export(models.build("CondNet"), args, path, strict=True)
        x = save(out, "x", args[0])
        for depth in ("1", "3"):
            summary = ("--input", x, "--columns", ALL_COLUMNS, "--depth", depth)
            table, err = run("summary", path, *summary)
            self.assertEqual(table, torchinfo_table("CondNet", path, *summary), depth)
            self.assertNotIn("modrec-notes", err)
        self.compare("CondNet", [x], model=path, weights=path)

    def test_a_non_strict_exports_taken_branch_is_torchinfos_and_eager_hooks(self):
        # torch.cond's branches in a non-strict export have no module stacks and export refuses
        # the signatures of the modules they call: modrec.export lends the branches a strict
        # export's stacks (docs/export-notes.md), which tell those modules, and keeps the others'
        # signatures. The branch that runs has its rows, whichever it is; the other's modules
        # are never called.
        out = tempfile.mkdtemp(prefix="pt2-cond-")
        self.addCleanup(shutil.rmtree, out, True)
        path = os.path.join(out, "CondNet.notes.pt2")
        args = models.example_inputs("CondNet")
        with warnings.catch_warnings():
            warnings.simplefilter("error", UserWarning)
            program = modrec.export(models.build("CondNet"), args, path)
        kept = [e.fqn for e in program.module_call_graph if e.signature]
        self.assertEqual(kept, ["", "head"])
        for tag, x in (("false", args[0]), ("true", -args[0])):  # the example takes `br`
            x = save(out, tag, x)
            for depth in ("1", "3"):
                summary = ("--input", x, "--columns", ALL_COLUMNS, "--depth", depth)
                table, err = run("summary", path, *summary)
                self.assertEqual(table, torchinfo_table("CondNet", path, *summary), (tag, depth))
                self.assertNotIn("modrec-notes", err)
                self.assertNotIn("cannot be placed", err)
            self.compare("CondNet", [x], model=path, weights=path)


class LoopsWithNotes(RecordComparison):
    def test_while_loops_and_maps_bodies_are_torchinfos_and_eager_hooks(self):
        # The body's calls, one a step (while_loop) or a slice (map), planned when it runs, in
        # either export: a non-strict one's body stacks are lent by a strict export on the side.
        # They are called positionally, as the Input Shape warning cannot tell.
        out = tempfile.mkdtemp(prefix="pt2-loops-")
        self.addCleanup(shutil.rmtree, out, True)
        for name in ("WhileLoopNet", "MapNet"):
            args = models.example_inputs(name)
            x = save(out, name, args[0])
            for strict in (False, True):
                path = os.path.join(out, f"{name}.{strict}.notes.pt2")
                modrec.export(models.build(name), args, path, strict=strict)
                for depth in ("1", "3"):
                    with self.subTest(name, strict=strict, depth=depth):
                        summary = ("--input", x, "--columns", ALL_COLUMNS, "--depth", depth)
                        table, err = run("summary", path, *summary)
                        self.assertEqual(table, torchinfo_table(name, path, *summary))
                        self.assertNotIn("modrec-notes", err)
                with self.subTest(name, strict=strict):
                    self.compare(name, [x], model=path, weights=path)

if __name__ == "__main__":
    main()

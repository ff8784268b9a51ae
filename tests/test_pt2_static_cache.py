"""A decoder exported with transformers' static-cache export recipe (issue 48): the ExecuTorch
recipe's TorchExportableModuleWithStaticCache around a tiny random-weight Llama
(scripts/models.py's StaticCacheLlama), its forward given input_ids and cache_position by
keyword, exported strict (the recipe's default, convert_and_export_with_cache) and non-strict,
plain and by modrec.export, under torch.no_grad() as the recipe exports. Against eager PyTorch on
the same weights: summary's table is torchinfo's at depths 1, 3 and 99 with every column, and
without an input (the parameters counted once: a strict export's no_grad blocks do not split the
calls around them); record's captures are eager hooks'."""
import os
import re
import shutil
import sys
import tempfile

import torch

from e2e import ROOT, run, main
from test_pt2_hop import save, torchinfo_table
from test_pt2_zoo import ALL_COLUMNS
from test_record_oracle import RecordComparison

sys.path.insert(0, os.path.join(ROOT, "scripts"))
sys.path.insert(0, os.path.join(ROOT, "python"))
import models  # noqa: E402
import modrec  # noqa: E402

NAME = "StaticCacheLlama"


class StaticCache(RecordComparison):
    @classmethod
    def setUpClass(cls):
        cls.out = tempfile.mkdtemp(prefix="pt2-static-cache-")
        kwargs = {"input_ids": models.example_inputs(NAME)[0], **models.example_kwargs(NAME)}
        cls.archives = {}
        for strict in (True, False):
            tag = "strict" if strict else "non-strict"
            with torch.no_grad():
                plain = torch.export.export(models.build(NAME), (), kwargs=kwargs, strict=strict)
                cls.archives[tag] = os.path.join(cls.out, tag + ".pt2")
                torch.export.save(plain, cls.archives[tag])
                cls.archives[tag + " notes"] = os.path.join(cls.out, tag + ".notes.pt2")
                modrec.export(models.build(NAME), (), cls.archives[tag + " notes"], kwargs=kwargs,
                              strict=strict)
        cls.ids = save(cls.out, "ids", kwargs["input_ids"])
        cls.position = save(cls.out, "position", kwargs["cache_position"])
        cls.kwargs = save(cls.out, "kwargs", {"cache_position": kwargs["cache_position"]})

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.out, True)

    def summary(self, path, *args):
        """modrec's table and torchinfo's on the eager wrapper given input_ids by position (the
        root's row: its input) and cache_position by keyword, as modrec is given them."""
        out, err = run("summary", path, "--input", self.ids, "--input",
                       "cache_position=" + self.position, *args)
        want = torchinfo_table(NAME, path, "--input", self.ids, "--kwargs", self.kwargs, *args)
        return out, err, want

    def test_tables_with_notes_are_torchinfos(self):
        # modrec.export keeps the signatures of the calls given no Cache object (export cannot
        # flatten one): the rotary embedding's unused hidden states are its input; the notes tell
        # the calls given keyword arguments only ("--"), and that a ModelOutput's last value is
        # the cache (sized as nothing, as torchinfo sizes it).
        for tag in ("strict notes", "non-strict notes"):
            for depth in ("1", "3", "99"):
                with self.subTest(tag, depth=depth):
                    out, err, want = self.summary(self.archives[tag], "--columns", ALL_COLUMNS,
                                                  "--depth", depth)
                    self.assertEqual(out, want)
                    self.assertNotIn("modrec-notes", err)

    def test_tables_without_an_input_are_torchinfos(self):
        import torchinfo
        for depth in (1, 3, 99):
            with self.subTest(depth=depth):
                out = run("summary", self.archives["strict notes"], "--depth", str(depth))[0]
                table = out.partition("\nForward signature: forward(")[0]
                want = str(torchinfo.summary(models.build(NAME), depth=depth, verbose=0))
                self.assertEqual(table, want + "\n")

    def test_plain_archives_count_as_torchinfo(self):
        # Strict export wraps the rotary embedding in a no_grad block whose node carries the
        # root's stack only: the calls around it are not split, no parameter counted twice.
        totals = re.compile(r"^(?:Total|Trainable|Non-trainable) params.*$", re.M)
        for tag in ("strict", "non-strict"):
            with self.subTest(tag):
                out, _, want = self.summary(self.archives[tag], "--depth", "99")
                self.assertEqual(totals.findall(out), totals.findall(want))
                self.assertNotIn("(recursive)", out)

    def test_captures_equal_eager_hooks(self):
        # The calls given the StaticCache object (the model, its layers, their attentions) take
        # its tensors as graph values where eager hooks see one object: their inputs are left out.
        # The recipe's own export (strict), with notes: the oracle imports transformers in its
        # own process (~10 s a run).
        tag = "strict notes"
        self.compare(NAME, [self.ids], model=self.archives[tag], weights=self.archives[tag],
                     rtol=1e-4, atol=1e-5, captures=("output", "grad_input", "grad_output"),
                     extra=("--input", "cache_position=" + self.position),
                     oracle_args=("--kwargs", self.kwargs))


if __name__ == "__main__":
    main()

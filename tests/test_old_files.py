"""Files saved by PyTorch 1.13 (samples/torch-1.13/, made by Debian's torch 1.13 with the same
scripts/make_samples.py) load in modrec built on LibTorch 2.x, scripted and traced, and give what
the 2.14 oracle gives on the same file: summary rows and totals, and every recorded capture."""
import os
import unittest

from e2e import SAMPLES, main
import test_record_oracle as record_oracle  # modules: their TestCases are not collected here
import test_summary_oracle as summary_oracle

OLD = os.path.join(SAMPLES, "torch-1.13")
FILES = [("TinyConvNet", "TinyConvNet.pt"), ("SingleInputNet", "SingleInputNet.pt"),
         ("SingleInputNet", "SingleInputNet.traced.pt"), ("ReusedModuleNet", "ReusedModuleNet.pt"),
         ("ReusedModuleNet", "ReusedModuleNet.traced.pt"), ("SeqClassifier", "SeqClassifier.pt")]


class OldFiles(unittest.TestCase):
    def test_summary_equals_the_oracle(self):
        summary = summary_oracle.SummaryMatchesPyTorch("compare")
        for name, file in FILES:
            with self.subTest(file=file):
                summary.compare(name, [os.path.join(OLD, name + ".input.pt")], model=os.path.join(OLD, file))

    def test_record_equals_the_oracle(self):
        record = record_oracle.RecordComparison("compare")
        for name, file in FILES[::2]:  # scripted, and both traced files
            with self.subTest(file=file):
                record.compare(name, [os.path.join(OLD, name + ".input.pt")], model=os.path.join(OLD, file))


if __name__ == "__main__":
    main()

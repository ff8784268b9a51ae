"""Seeds of the pte fuzz target (tests/fuzz/pte_fuzz.cpp), from real files: test_pt2e.py's Net
lowered by the pinned executorch (portable kernels, and XNNPACK) with its ETRecord. Each seed is
the target's reader byte and that reader's input: 0 and a .pte (the header check reads its head,
and its size is the file's); 1 and an ETRecord zip; 2 and its edge program's JSON, a NUL, its
debug handle map. Run by scripts/fuzz.sh with the pinned Python.

usage: make_pte_seeds.py OUT_DIR
"""
import io
import os
import sys
import zipfile

import torch

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from pt2e_fixtures import Net  # noqa: E402  (tests/pt2e_fixtures.py)


def main(out):
    from executorch.backends.xnnpack.partition.xnnpack_partitioner import XnnpackPartitioner
    from executorch.exir import to_edge_transform_and_lower
    os.makedirs(out, exist_ok=True)
    torch.manual_seed(0)
    program = torch.export.export(Net().eval(), (torch.randn(2, 3, 8, 8),))
    for name, partitioners in (("portable", []), ("xnnpack", [XnnpackPartitioner()])):
        lowered = to_edge_transform_and_lower(program, partitioner=partitioners,
                                              generate_etrecord=True).to_executorch()
        saved = io.BytesIO()
        lowered.get_etrecord().save(saved)
        zipped = saved.getvalue()
        with zipfile.ZipFile(io.BytesIO(zipped)) as z:
            edge = z.read("edge_dialect_exported_program/forward")
            handles = z.read("debug_handle_map")
        for tag, data in ((0, lowered.buffer), (1, zipped), (2, edge + b"\0" + handles)):
            with open(os.path.join(out, f"{name}.{tag}"), "wb") as f:
                f.write(bytes([tag]) + data)


if __name__ == "__main__":
    main(sys.argv[1])

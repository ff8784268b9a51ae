"""Small seed files for the fuzz targets (run by scripts/fuzz.sh with the pinned environment's Python).

usage: make_seeds.py OUT_DIR   writes .npy arrays of every dtype and layout the reader accepts,
torch.save files of the shapes read_inputs accepts or names (tensor, tuple, list, dict, state_dict,
protocol 4), a tiny TorchScript model and its torch.export archive, each a few hundred bytes so that mutations stay cheap.
"""
import io
import os
import sys

import numpy as np
import torch


def npy_seeds():
    yield "f4", np.arange(6, dtype="<f4").reshape(2, 3)
    yield "f8_be", np.arange(4, dtype=">f8")
    yield "f2", np.ones(3, dtype="<f2")
    yield "c8", np.array([1 + 2j, 3 - 4j], dtype="<c8")
    yield "c16_be", np.array([1 + 2j], dtype=">c16")
    yield "i1", np.array([-1, 2], dtype="i1")
    yield "i8", np.arange(3, dtype="<i8")
    yield "u1", np.arange(5, dtype="u1")
    yield "b1", np.array([True, False])
    yield "fortran", np.asfortranarray(np.arange(6, dtype="<f4").reshape(2, 3))
    yield "scalar", np.array(1.5, dtype="<f4")
    yield "empty", np.zeros((0, 3), dtype="<f4")


def write_npy(out, name, array, version):
    buf = io.BytesIO()
    np.lib.format.write_array(buf, array, version=version)
    with open(os.path.join(out, f"{name}.v{version[0]}.npy"), "wb") as f:
        f.write(buf.getvalue())


def torch_seeds():
    t = torch.arange(4, dtype=torch.float32)
    yield "tensor", t, {}
    yield "tuple", (t, torch.ones(2, dtype=torch.int64)), {}
    yield "list", [t, t], {}
    yield "dict", {"a": t, "b": t}, {}
    yield "state_dict", torch.nn.Linear(2, 1).state_dict(), {}
    yield "protocol4", t, {"pickle_protocol": 4}
    yield "view", torch.arange(8.0)[2:5], {}
    yield "half", torch.ones(2, 2, dtype=torch.float16), {}


class Tiny(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(2, 1)

    def forward(self, x):
        return self.fc(x).relu()


def main(out):
    os.makedirs(out, exist_ok=True)
    for name, array in npy_seeds():
        for version in ((1, 0), (2, 0), (3, 0)):
            write_npy(out, name, array, version)
    for name, value, kwargs in torch_seeds():
        torch.save(value, os.path.join(out, f"{name}.pt"), **kwargs)
    torch.manual_seed(0)
    torch.jit.script(Tiny()).save(os.path.join(out, "tiny_model.pt"))
    program = torch.export.export(Tiny(), (torch.ones(1, 2),))
    torch.export.save(program, os.path.join(out, "tiny_model.pt2"))


if __name__ == "__main__":
    main(sys.argv[1])

"""Writes the bad-input corpus of test_errors.py into the folder given as argv[1].

Every file is derived from samples/ (or made from scratch), so nothing binary is committed.
The names say what each file is; test_errors.py asserts how modrec rejects it.
"""
import os
import random
import sys
import zipfile

import torch
import torch.nn as nn

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SAMPLE = os.path.join(ROOT, "samples", "SingleInputNet.pt")
out = sys.argv[1]
p = lambda name: os.path.join(out, name)


def write(name, data):
    with open(p(name), "wb") as f:
        f.write(data)


def data_offset(data, info):  # a zip local header is 30 bytes + name + extra field
    n = int.from_bytes(data[info.header_offset + 26: info.header_offset + 28], "little")
    m = int.from_bytes(data[info.header_offset + 28: info.header_offset + 30], "little")
    return info.header_offset + 30 + n + m


def damaged_archives():
    data = open(SAMPLE, "rb").read()
    write("truncated.pt", data[: len(data) // 2])
    infos = zipfile.ZipFile(SAMPLE).infolist()
    # The largest stored entry is a weight tensor: flip one byte in the middle of its data.
    weight = max((i for i in infos if "/data/" in i.filename), key=lambda i: i.file_size)
    b = bytearray(data)
    b[data_offset(data, weight) + weight.file_size // 2] ^= 0xFF
    write("flipped_weight.pt", bytes(b))
    with open(p("flipped_weight.txt"), "w") as f:  # the entry modrec must name
        f.write(weight.filename)


def unknown_operator():
    """SingleInputNet whose code calls aten::vies (as a file from a newer PyTorch would call an
    operator this LibTorch lacks): the same bytes but for one letter, CRCs rewritten."""
    src = zipfile.ZipFile(SAMPLE)
    with zipfile.ZipFile(p("unknown_op.pt"), "w") as dst:
        for info in src.infolist():
            data = src.read(info)
            if info.filename.endswith("code/__torch__/models.py"):
                data = data.replace(b"torch.view(x1", b"torch.vies(x1")
            dst.writestr(info, data, compress_type=info.compress_type)


def not_torchscript():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(4, 3), nn.ReLU())
    torch.save(model.state_dict(), p("state_dict.pt"))
    torch.save(model, p("eager.pt"))
    torch.save(torch.ones(2, 3), p("tensor.pt"))
    with zipfile.ZipFile(p("no_code.zip"), "w") as z:
        z.writestr("archive/readme.txt", "hello")


class InplaceAfterSigmoid(nn.Module):
    """Its backward fails: sigmoid's backward needs its output, which add_ then changed."""

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4)

    def forward(self, x):
        y = torch.sigmoid(self.fc(x))
        y.add_(1)
        return y


def failing_backward():
    torch.jit.script(InplaceAfterSigmoid()).save(p("inplace_backward.pt"))


def bad_inputs():
    torch.save({"x": torch.ones(2, 1, 28, 28)}, p("dict.pt"))
    torch.save(nn.Parameter(torch.ones(2, 1, 28, 28)), p("parameter.pt"))
    torch.save(torch.ones(2, 1, 28, 28), p("protocol4.pt"), pickle_protocol=4)
    torch.save(torch.ones(2, 3, 28, 28), p("3ch.pt"))
    torch.save(torch.ones(2, 28, 28), p("rank3.pt"))
    torch.save(torch.ones(2, 1, 5, 5), p("small.pt"))
    torch.save(torch.ones(2, 1, 28, 28, dtype=torch.long), p("long.pt"))
    nan = torch.randn(2, 1, 28, 28)
    nan[0, 0, 3, 3] = float("nan")
    torch.save(nan, p("nan.pt"))
    inf = torch.randn(2, 1, 28, 28)
    inf[1, 0, 0, 0] = float("inf")
    torch.save(inf, p("inf.pt"))


def main():
    os.makedirs(out, exist_ok=True)
    write("empty.pt", b"")
    write("random.bin", random.Random(0).randbytes(4096))
    os.makedirs(p("folder.pt"), exist_ok=True)
    damaged_archives()
    unknown_operator()
    not_torchscript()
    failing_backward()
    bad_inputs()


if __name__ == "__main__":
    main()

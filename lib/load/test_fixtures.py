# Writes the files that load/*_test.cpp reads into the folder given as argv[1].
import os, random, sys, zipfile
import numpy as np
import torch
import torch.nn as nn

out = sys.argv[1]
p = lambda name: os.path.join(out, name)

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 3), nn.ReLU())
torch.jit.script(model).save(p("model.pt"))
with open(p("model_out.txt"), "w") as f:  # forward(ones(2, 4)), for the loaded model to match
    f.write(" ".join(repr(v) for v in model(torch.ones(2, 4)).flatten().tolist()))


class Net(nn.Module):  # a __main__ class, as in most training scripts
    def forward(self, x):
        return x


torch.save(model.state_dict(), p("state_dict.pt"))
torch.save(model, p("eager.pt"))
torch.save(Net(), p("eager_main.pt"))
torch.save(torch.ones(2, 3), p("tensor.pt"))
torch.save((torch.ones(2), torch.zeros(1)), p("tuple.pt"))
torch.save(torch.ones(2), p("legacy.pt"), _use_new_zipfile_serialization=False)
np.save(p("array.npy"), np.ones(3, dtype=np.float32))
open(p("empty.pt"), "wb").close()
with open(p("random.bin"), "wb") as f:
    f.write(random.Random(0).randbytes(4096))
with zipfile.ZipFile(p("no_code.zip"), "w") as z:
    z.writestr("archive/readme.txt", "hello")
os.makedirs(p("folder.pt"), exist_ok=True)

data = open(p("model.pt"), "rb").read()
with open(p("truncated.pt"), "wb") as f:
    f.write(data[: len(data) // 2])


def data_offset(info):  # a local header is 30 bytes + name + extra
    n = int.from_bytes(data[info.header_offset + 26: info.header_offset + 28], "little")
    m = int.from_bytes(data[info.header_offset + 28: info.header_offset + 30], "little")
    return info.header_offset + 30 + n + m


def write_flipped(name, at):
    b = bytearray(data)
    b[at] ^= 0x01
    open(p(name), "wb").write(bytes(b))


infos = {i.filename: i for i in zipfile.ZipFile(p("model.pt")).infolist()}
weight = infos["model/data/0"]
write_flipped("flipped_weight.pt", data_offset(weight) + 5)
write_flipped("flipped_header.pt", weight.header_offset + 31)  # inside the local header's name
code = next(i for i in infos.values() if i.compress_type == zipfile.ZIP_DEFLATED)
write_flipped("flipped_code.pt", data_offset(code) + code.compress_size // 2)
with open(p("flipped_names.txt"), "w") as f:
    f.write(weight.filename + "\n" + code.filename)
with open(p("model_entries.txt"), "w") as f:  # name, CRC-32, size, data offset, per entry
    for i in infos.values():
        f.write(f"{i.filename} {i.CRC} {i.file_size} {data_offset(i)}\n")


class AddsConstants(nn.Module):  # traced: each torch.tensor becomes a constant (constants.pkl)
    def forward(self, x):
        return x + torch.tensor([1.0, 2.0, 3.0]) * torch.tensor([4.0, 5.0, 6.0])


traced = torch.jit.trace(nn.Sequential(nn.Linear(4, 3), AddsConstants()), torch.ones(2, 4))
traced.save(p("traced_constants.pt"))

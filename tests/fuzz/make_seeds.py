"""Small seed files for the fuzz targets (run by scripts/fuzz.sh with the pinned environment's Python).

usage: make_seeds.py OUT_DIR   writes .npy arrays of every dtype and layout the reader accepts,
torch.save files of the shapes read_inputs accepts or names (tensor, tuple, list, dict, state_dict,
protocol 4), a tiny TorchScript model and its torch.export archive, each a few hundred bytes so that mutations stay cheap.
The checkpoint targets' seeds in folders of their own: safetensors_header/ (the JSON headers
safetensors writes), shard_index/ (transformers' indexes naming the shards in shards/, which
fuzz_shard_index reads beside its input), state_dict_pickle/ (torch.save's data.pkl).
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


def small_tensors():
    """A tensor of each dtype the checkpoint readers take, a scalar and an empty one: bytes few."""
    torch.manual_seed(0)
    x = torch.randn(6)
    return {"encoder.layers.0.weight": x.reshape(2, 3), "encoder.layers.10.bias": x[:2].half(),
            "norm.weight": x[:3].bfloat16(), "head.scale": x[:4].to(torch.float8_e4m3fn),
            "head.e5m2": x[:2].to(torch.float8_e5m2), "steps": torch.tensor(7),
            "mask": torch.tensor([True, False]), "ids": torch.arange(3, dtype=torch.int32),
            "bytes": torch.arange(4, dtype=torch.uint8), "f64": x[:1].double(),
            "empty": torch.zeros(0, 3), "i16": torch.arange(2, dtype=torch.int16),
            "i8": torch.arange(2, dtype=torch.int8)}


def safetensors_header_seeds(out):
    """The JSON headers safetensors writes (fuzz_safetensors_header frames them with data)."""
    from safetensors.torch import save
    tensors = small_tensors()
    cases = {"all_dtypes": (tensors, {"format": "pt"}), "one": ({"w": torch.ones(2, 2)}, None),
             "many": ({f"layers.{i}.w": torch.ones(i % 3 + 1) for i in range(24)}, None),
             "nested_names": ({"a.b.c.d.e": torch.ones(1), "a.b": torch.ones(2)}, {"k": "v"})}
    for name, (value, metadata) in cases.items():
        data = save(value, metadata=metadata)
        n = int.from_bytes(data[:8], "little")
        write(out, f"{name}.json", data[8:8 + n])


def shard_seeds(out, shards):
    """Shards of both kinds and the indexes naming them, as transformers writes them."""
    import json
    from safetensors.torch import save_file
    tensors = small_tensors()
    names = sorted(tensors)
    for ext, save in (("safetensors", save_file), ("bin", lambda sd, p: torch.save(sd, p))):
        stem = "model" if ext == "safetensors" else "pytorch_model"
        weight_map = {}
        for k in range(2):
            file = f"{stem}-{k + 1:05d}-of-00002.{ext}"
            part = {n: tensors[n].clone() for n in names[k::2]}
            save(part, os.path.join(shards, file))
            weight_map.update({n: file for n in part})
        index = {"metadata": {"total_size": 0}, "weight_map": weight_map}
        write(out, f"{stem}.{ext}.index.json", json.dumps(index, indent=2).encode())


def state_dict_pickle_seeds(out):
    """data.pkl of the torch.save files a checkpoint is (fuzz_state_dict_pickle zips them)."""
    import zipfile
    torch.manual_seed(0)
    linear = torch.nn.Linear(2, 3)
    optimizer = torch.optim.Adam(linear.parameters())
    linear(torch.ones(1, 2)).sum().backward()
    optimizer.step()
    x = torch.arange(12.0)
    cases = {"module": (linear.state_dict(), {}), "dtypes": (small_tensors(), {}),
             "training": ({"model": linear.state_dict(), "optimizer": optimizer.state_dict(),
                           "epoch": 3}, {}),
             "views": ({"a": x[2:5], "b": x.reshape(3, 4).t(), "c": x}, {}),
             "parameter": ({"p": torch.nn.Parameter(torch.ones(2))}, {}),
             "protocol4": (linear.state_dict(), {"pickle_protocol": 4})}
    for name, (value, kwargs) in cases.items():
        buffer = io.BytesIO()
        torch.save(value, buffer, **kwargs)
        with zipfile.ZipFile(buffer) as z:
            pickle = next(n for n in z.namelist() if n.endswith("/data.pkl"))
            write(out, f"{name}.pkl", z.read(pickle))


def write(out, name, data):
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, name), "wb") as f:
        f.write(data)


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
    safetensors_header_seeds(os.path.join(out, "safetensors_header"))
    os.makedirs(os.path.join(out, "shards"), exist_ok=True)
    shard_seeds(os.path.join(out, "shard_index"), os.path.join(out, "shards"))
    state_dict_pickle_seeds(os.path.join(out, "state_dict_pickle"))


if __name__ == "__main__":
    main(sys.argv[1])

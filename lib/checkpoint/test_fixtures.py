# Writes the checkpoints lib/checkpoint/*_test.cpp reads into the folder given as argv[1], with what
# safetensors' and torch's own readers say of them (expected.json).
import json, os, struct, sys, zipfile
import torch
from safetensors import safe_open
from safetensors.torch import save_file

out = sys.argv[1]
p = lambda name: os.path.join(out, name)
torch.manual_seed(0)

tensors = {
    "encoder.layers.10.weight": torch.randn(3, 4),
    "encoder.layers.2.weight": torch.randn(5),
    "encoder.norm.weight": torch.randn(6).to(torch.bfloat16),
    "head.weight": torch.randn(2, 3).to(torch.float8_e4m3fn),
    "head.bias": torch.randn(2).to(torch.float16),
    "steps": torch.tensor(7, dtype=torch.int64),
    "mask": torch.tensor([True, False, True]),
}
save_file(tensors, p("model.safetensors"), metadata={"format": "pt"})
torch.save(tensors, p("state_dict.pt"))
torch.save({"model": tensors, "epoch": 3, "optimizer": {"lr": 0.1}}, p("training.pt"))

# Two shards and their index, as transformers writes them.
names = sorted(tensors)
shards = {"model-00001-of-00002.safetensors": names[:3], "model-00002-of-00002.safetensors": names[3:]}
weight_map = {}
for shard, keys in shards.items():
    save_file({k: tensors[k] for k in keys}, p(shard))
    weight_map.update({k: shard for k in keys})
with open(p("model.safetensors.index.json"), "w") as f:
    json.dump({"metadata": {"total_size": 0}, "weight_map": weight_map}, f)

expected = {}
with safe_open(p("model.safetensors"), "pt") as f:
    for name in f.keys():
        t = f.get_tensor(name)
        v = t.double()
        expected[name] = {
            "shape": list(t.shape), "dtype": str(t.dtype).removeprefix("torch."),
            "numel": t.numel(), "mean": v.mean().item(), "min": v.min().item(),
            "max": v.max().item(),
        }
loaded = torch.load(p("state_dict.pt"))
assert all(loaded[k].dtype == tensors[k].dtype for k in tensors)
with open(p("expected.json"), "w") as f:
    json.dump(expected, f)

# Every float8 and half bit pattern as torch decodes it, for the dtype conversions.
for dtype, bits in ((torch.float8_e4m3fn, torch.uint8), (torch.float8_e5m2, torch.uint8),
                    (torch.float16, torch.int16), (torch.bfloat16, torch.int16)):
    n = 256 if bits == torch.uint8 else 65536
    raw = torch.arange(n, dtype=torch.int32).to(bits)  # int16 wraps: every bit pattern once
    values = raw.view(dtype).float()
    name = str(dtype).removeprefix("torch.")
    raw.numpy().tofile(p(name + ".raw"))
    values.numpy().tofile(p(name + ".float"))


def safetensors_bytes(header, data=b"", length=None):
    text = json.dumps(header).encode() if isinstance(header, dict) else header
    return struct.pack("<Q", len(text) if length is None else length) + text + data


entry = {"dtype": "F32", "shape": [2], "data_offsets": [0, 8]}
bad = {
    "truncated_header.safetensors": safetensors_bytes({"a": entry}, b"\0" * 8)[:20],
    "huge_header.safetensors": safetensors_bytes({"a": entry}, b"\0" * 8, length=1 << 63),
    "out_of_range.safetensors": safetensors_bytes(
        {"a": {"dtype": "F32", "shape": [4], "data_offsets": [0, 16]}}, b"\0" * 8),
    "overlap.safetensors": safetensors_bytes(
        {"a": entry, "b": {"dtype": "F32", "shape": [2], "data_offsets": [4, 12]}}, b"\0" * 12),
    "not_utf8.safetensors": safetensors_bytes(
        b'{"\xff\xfe": {"dtype": "F32", "shape": [2], "data_offsets": [0, 8]}}', b"\0" * 8),
    "wrong_size.safetensors": safetensors_bytes(
        {"a": {"dtype": "F32", "shape": [3], "data_offsets": [0, 8]}}, b"\0" * 8),
    "unknown_dtype.safetensors": safetensors_bytes(
        {"a": {"dtype": "F4", "shape": [2], "data_offsets": [0, 8]}}, b"\0" * 8),
}
for name, data in bad.items():
    with open(p(name), "wb") as f:
        f.write(data)
# A torch.save archive whose data.pkl is cut in half (its CRC-32 matching the cut bytes).
with zipfile.ZipFile(p("state_dict.pt")) as z, zipfile.ZipFile(p("cut_pickle.pt"), "w") as cut:
    for info in z.infolist():
        data = z.read(info)
        cut.writestr(info, data[: len(data) // 2] if info.filename.endswith("data.pkl") else data)
with open(p("missing_shard.index.json"), "w") as f:
    json.dump({"weight_map": {"a": "gone.safetensors"}}, f)

# Indexes whose weight_map leaves the index's folder: refused whatever the file there holds.
os.makedirs(p("elsewhere"), exist_ok=True)
save_file({"a": torch.ones(2)}, p("elsewhere/x.safetensors"))
for name, shard in (("escape", "../" + os.path.basename(out) + "/elsewhere/x.safetensors"),
                    ("absolute", os.path.abspath(p("elsewhere/x.safetensors"))),
                    ("subfolder", "elsewhere/x.safetensors")):
    with open(p(name + ".index.json"), "w") as f:
        json.dump({"weight_map": {"a": shard}}, f)
# An index naming all but one tensor of its shards: transformers loads the named ones only.
partial = {k: v for k, v in weight_map.items() if k != "head.bias"}
with open(p("partial.index.json"), "w") as f:
    json.dump({"weight_map": partial}, f)
# A folder save_pretrained wrote (its single file), and one holding nothing modrec reads.
os.makedirs(p("pretrained"), exist_ok=True)
save_file(tensors, p("pretrained/model.safetensors"))
os.makedirs(p("no_weights"), exist_ok=True)
with open(p("no_weights/config.json"), "w") as f:
    json.dump({"model_type": "bert"}, f)
# Damaged files named as checkpoints whose bytes tell no kind: the reader still names the defect.
for name, data in {"three_bytes.safetensors": b"abc",
                   "array_header.bin": safetensors_bytes(b"[1, 2]"),
                   "not_json.index.json": b"{weight_map",
                   "deep_metadata.safetensors": safetensors_bytes(
                       b'{"__metadata__": ' + b'{"a": ' * 200000 + b"1" + b"}" * 200001)}.items():
    with open(p(name), "wb") as f:
        f.write(data)
# A bool tensor whose bytes are not only 0 and 1 (a file's bytes are anything): torch reads any
# nonzero byte as True.
with open(p("bool_bytes.safetensors"), "wb") as f:
    f.write(safetensors_bytes({"m": {"dtype": "BOOL", "shape": [4], "data_offsets": [0, 4]}},
                              bytes([70, 0, 1, 255])))
with safe_open(p("bool_bytes.safetensors"), "pt") as f:
    m = f.get_tensor("m").double()
with open(p("bool_bytes.json"), "w") as f:
    json.dump({"mean": m.mean().item(), "max": m.max().item(), "min": m.min().item()}, f)


# Tensor subclasses and objects in a pickle (state_dict_pickle.h): a wrapper subclass as torchao's
# quantized weights are saved (its inner tensors in its state), an object of a class modrec does
# not know holding a tensor, tensors in lists and tuples beside an object holding none, and a list
# that holds itself.
class Wrapped(torch.Tensor):
    @staticmethod
    def __new__(cls, qdata, scale):
        t = torch.Tensor._make_wrapper_subclass(cls, qdata.shape, dtype=torch.float32)
        t.qdata, t.scale, t.block_size = qdata, scale, [1, 3]
        return t

    @classmethod
    def __torch_dispatch__(cls, func, types, args=(), kwargs=None):
        raise NotImplementedError(func)


class Holder:
    def __init__(self, t):
        self.t = t


torch.save({"fc.weight": Wrapped(torch.ones(2, 3, dtype=torch.int8), torch.ones(2, 1)),
            "fc.bias": torch.zeros(2)}, p("subclass.pt"))
torch.save({"w": torch.ones(2), "extra": {"h": Holder(torch.ones(3))}}, p("holder.pt"))
import argparse  # noqa: E402
torch.save({"w": torch.ones(2), "args": argparse.Namespace(lr=0.1),
            "buffers": [torch.zeros(3), (torch.ones(1),)]}, p("lists.pt"))
loop = []
loop.append(loop)
torch.save({"w": torch.ones(2), "loop": loop}, p("loop.pt"))

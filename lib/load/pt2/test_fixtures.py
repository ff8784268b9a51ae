# Writes the .pt2 files that load/pt2/*_test.cpp read into the folder given as argv[1], with what
# PyTorch says about them (expected.json): modules, classes, parameters, buffers.
import json, os, sys, zipfile
import torch
import torch.nn as nn

out = sys.argv[1]
p = lambda name: os.path.join(out, name)


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(4, 4, 3, padding=1)
        self.bn = nn.BatchNorm2d(4)
        self.id = nn.Identity()
        self.act = nn.ReLU()

    def forward(self, x):
        return self.act(self.id(self.bn(self.conv(x)))) + x


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.stem = nn.Conv2d(3, 4, 3, padding=1)
        self.b = Block()
        self.shared = nn.ReLU()
        self.fc = nn.Linear(4, 5)

    def forward(self, x):
        x = self.b(self.shared(self.stem(x)))
        return self.fc(self.shared(x).mean((2, 3)))


torch.manual_seed(0)
model = Net().eval()
model.b.bn.running_mean.uniform_()  # not the defaults: the stored bytes must be read
model.fc.weight.requires_grad_(False)
torch.export.save(torch.export.export(model, (torch.randn(2, 3, 8, 8),)), p("net.pt2"))
expected = {
    "modules": [{"path": n, "type": type(m).__name__} for n, m in model.named_modules()],
    "params": [{"name": n, "shape": list(t.shape), "sum": t.sum().item(), "trainable": t.requires_grad}
               for n, t in model.named_parameters()],
    "buffers": [{"name": n, "shape": list(t.shape), "sum": t.sum().item()}
                for n, t in model.named_buffers()],
}
with open(p("expected.json"), "w") as f:
    json.dump(expected, f)

data = open(p("net.pt2"), "rb").read()
with open(p("truncated.pt2"), "wb") as f:
    f.write(data[: len(data) // 2])


def rewrite(name, change):
    """A copy of net.pt2 with entries changed: change(entry name, bytes) -> bytes or None (drop)."""
    with zipfile.ZipFile(p("net.pt2")) as src, zipfile.ZipFile(p(name), "w", zipfile.ZIP_STORED) as dst:
        for info in src.infolist():
            body = change(info.filename, src.read(info))
            if body is not None:
                dst.writestr(info.filename, body)


rewrite("no_weight.pt2", lambda n, b: None if n.endswith("data/weights/weight_0") else b)


def bump_schema(n, b):
    if not n.endswith("models/model.json"):
        return b
    doc = json.loads(b)
    doc["schema_version"]["major"] = 99
    return json.dumps(doc).encode()


rewrite("schema99.pt2", bump_schema)
rewrite("bad_json.pt2", lambda n, b: b[:100] if n.endswith("models/model.json") else b)


def weight_meta(change):
    """A rewrite that applies change(tensor_meta) to weight_0's entry in the weights config."""
    def apply(n, b):
        if not n.endswith("model_weights_config.json"):
            return b
        doc = json.loads(b)
        for entry in doc["config"].values():
            if entry["path_name"] == "weight_0":
                change(entry["tensor_meta"])
        return json.dumps(doc).encode()
    return apply


def negative_size(meta):
    meta["sizes"][0] = {"as_int": -4}


def huge_strides(meta):  # (size - 1) * stride past int64: overflow, not a small offset
    meta["sizes"] = [{"as_int": 2**40}, {"as_int": 2**40}]
    meta["strides"] = [{"as_int": 2**40}, {"as_int": 2**40}]


rewrite("negative_size.pt2", weight_meta(negative_size))
rewrite("huge_strides.pt2", weight_meta(huge_strides))


class Rotary(nn.Module):
    """A Hugging Face rotary embedding's shape: a no_grad forward calling a submodule."""
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(4, 4)
    @torch.no_grad()
    def forward(self, x):
        return self.proj(x).cos(), x.sin()
class NoGradNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.rot = Rotary()
        self.fc = nn.Linear(4, 4)
    def forward(self, x):
        cos, sin = self.rot(x)
        return self.fc(x) * cos + sin
torch.export.save(torch.export.export(NoGradNet(), (torch.randn(2, 4),)), p("no_grad.pt2"))


class Reparametrized(nn.Module):
    """A convolution with weight_norm (its weight computed from the ParametrizationList's
    original0 and original1 by _WeightNorm) beside an embedding tied between two modules."""
    def __init__(self):
        super().__init__()
        self.conv = nn.utils.parametrizations.weight_norm(nn.Conv1d(4, 8, 3, padding=1), dim=2)
        self.emb = nn.Embedding(10, 8)
        self.emb2 = nn.Embedding(10, 8)
        self.emb2.weight = self.emb.weight
    def forward(self, x, ids):
        return self.conv(x).mean(-1) + self.emb(ids) + self.emb2(ids)
torch.export.save(torch.export.export(Reparametrized(), (torch.randn(2, 4, 6), torch.tensor([1, 2]))),
                  p("reparametrized.pt2"))

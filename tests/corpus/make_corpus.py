"""Writes the bad-input corpus of test_errors.py into the folder given as argv[1].

Every file is derived from samples/ (or made from scratch), so nothing binary is committed.
The names say what each file is; test_errors.py asserts how modrec rejects it.
"""
import os
import json
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


def truncated_storage(src, name):
    """`src` with its largest tensor entry cut to half, its CRC-32 rewritten to match: what
    LibTorch's own loaders read past the end of, as numbers. The entry's name goes to NAME.txt."""
    source = zipfile.ZipFile(src)
    weight = max((i for i in source.infolist() if "/data/" in i.filename), key=lambda i: i.file_size)
    with zipfile.ZipFile(p(name), "w") as dst:
        for info in source.infolist():
            data = source.read(info)
            dst.writestr(info, data[: len(data) // 2] if info is weight else data,
                         compress_type=info.compress_type)
    with open(p(name.replace(".pt", ".txt")), "w") as f:
        f.write(weight.filename)


class CondNet(nn.Module):
    """A program with a higher-order operator: torch.cond's two branches, the Linear inside."""

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4)

    def forward(self, x):
        return torch.cond(x.sum() > 0, lambda y: self.fc(y).relu(), lambda y: self.fc(y) * 2, (x,))


def rewrite_program(src, name, change):
    """`src` (a .pt2) with its models/model.json changed by `change(doc)` (or replaced by the text
    it returns), every other entry as it was; CRCs rewritten, so only the program is wrong."""
    source = zipfile.ZipFile(src)
    with zipfile.ZipFile(p(name), "w") as dst:
        for info in source.infolist():
            data = source.read(info)
            if info.filename.endswith("models/model.json"):
                doc = json.loads(data)
                text = change(doc)
                data = (text if text is not None else json.dumps(doc)).encode()
            dst.writestr(info, data, compress_type=info.compress_type)


def nested_program(doc, depth):
    """The program's JSON with its graph as `depth` wrap_with_set_grad_enabled blocks, one inside
    the other, around its one node (a relu): torch.no_grad() blocks nested `depth` deep. Written
    as text: Python's json (and so torch.export.load) recurses, and fails past ~140 levels."""
    graph = doc["graph_module"]["graph"]
    relu = graph["nodes"][0]
    x, y = relu["inputs"][0]["arg"]["as_tensor"]["name"], relu["outputs"][0]["as_tensor"]["name"]
    tensor = lambda name: json.dumps({"as_tensor": {"name": name}})
    inner = json.dumps(dict(relu, name="b0", inputs=[{"name": "self", "arg": {"as_tensor": {"name": "a0"}},
                                                      "kind": 1}], outputs=[{"as_tensor": {"name": "b0"}}]))
    opening, closing = [], []
    for level in range(depth - 1, 0, -1):  # outermost first
        operand = tensor(x) if level == depth - 1 else tensor(f"a{level}")
        result = tensor(y) if level == depth - 1 else tensor(f"b{level}")
        opening.append(f'{{"name": "b{level}", "target": "torch.ops.higher_order.wrap_with_set_grad_enabled", '
                       f'"inputs": [{{"name": "", "arg": {{"as_bool": false}}, "kind": 1}}, '
                       f'{{"name": "", "arg": {{"as_graph": {{"name": "g{level}", "graph": '
                       f'{{"inputs": [{tensor(f"a{level - 1}")}], "outputs": [{tensor(f"b{level - 1}")}], "nodes": [')
        closing.append(f']}}}}}}, "kind": 1}}, {{"name": "", "arg": {operand}, "kind": 1}}], '
                       f'"outputs": [{result}], "metadata": {{}}}}')
    graph["nodes"] = ["@NODES@"]
    return json.dumps(doc).replace('"@NODES@"', "".join(opening) + inner + "".join(reversed(closing)))


def damaged_programs():
    """.pt2 programs damaged where the graph is wired (issue 44): each must be exit 3 naming the
    node, never a C++ library's message. The names modrec must say go to damaged_programs.json."""
    torch.manual_seed(0)
    torch.save(torch.randn(2, 4), p("x24.pt"))
    cond = p("cond.pt2")
    torch.export.save(torch.export.export(CondNet(), (torch.randn(2, 4),)), cond)
    relu = p("relu.pt2")
    torch.export.save(torch.export.export(nn.Sequential(nn.ReLU()), (torch.randn(2, 4),)), relu)
    nodes = lambda doc: doc["graph_module"]["graph"]["nodes"]
    hop = lambda doc: next(n for n in nodes(doc) if n["target"].endswith("higher_order.cond"))
    rewrite_program(cond, "cond_one_branch.pt2", lambda d: hop(d)["inputs"].pop(2) and None)
    rewrite_program(cond, "operand_names_no_value.pt2",
                    lambda d: nodes(d)[1]["inputs"][0]["arg"]["as_tensor"].update(name="ghost"))
    rewrite_program(cond, "output_names_no_value.pt2", lambda d: d["graph_module"]["signature"][
        "output_specs"][0]["user_output"]["arg"]["as_tensor"].update(name="nowhere"))
    rewrite_program(cond, "string_for_int.pt2",
                    lambda d: nodes(d)[1]["inputs"][1]["arg"].update(as_int="0"))
    for depth in (50, 1000, 10000):
        rewrite_program(relu, f"nested_{depth}.pt2", lambda d: nested_program(d, depth))
    with open(p("damaged_programs.json"), "w") as f:
        json.dump({
            "cond_one_branch.pt2": ["torch.ops.higher_order.cond", "runs 2 subgraphs and has 1"],
            "operand_names_no_value.pt2": ["torch.ops.aten.gt.Scalar", "input self", "ghost"],
            "output_names_no_value.pt2": ["output", "nowhere"],
            "string_for_int.pt2": ["torch.ops.aten.gt.Scalar", "input other",
                                   "a string where an integer goes"],
            "nested_1000.pt2": ["nests its JSON more than"],
            "nested_10000.pt2": ["nests its JSON more than"],
        }, f)


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
    torch.save(torch.ones(2, 1, 28, 28), p("whole.pt"))
    truncated_storage(p("whole.pt"), "truncated_storage.input.pt")


def main():
    os.makedirs(out, exist_ok=True)
    write("empty.pt", b"")
    write("random.bin", random.Random(0).randbytes(4096))
    os.makedirs(p("folder.pt"), exist_ok=True)
    damaged_archives()
    truncated_storage(SAMPLE, "truncated_storage.pt")
    damaged_programs()
    unknown_operator()
    not_torchscript()
    failing_backward()
    bad_inputs()


if __name__ == "__main__":
    main()

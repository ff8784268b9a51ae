# Fixtures for the tests of tensor_files/, sources/ and arguments/. "make DIR" writes the files
# modrec reads plus expected.txt; "check DIR" verifies, with torch.load and numpy.load, the files
# modrec wrote into DIR; "check-random DIR" the random inputs of --input-size.
import os, random, sys, zipfile
import numpy as np
import torch
import torch.nn as nn

mode, out = sys.argv[1], sys.argv[2]
p = lambda name: os.path.join(out, name)
DTYPES = {"float32": torch.float32, "float64": torch.float64, "float16": torch.float16,
          "bfloat16": torch.bfloat16, "int64": torch.int64, "int32": torch.int32, "int16": torch.int16,
          "int8": torch.int8, "uint8": torch.uint8, "bool": torch.bool}


def sample(dtype):  # the same values modrec's round-trip test writes: arange(6) as dtype, 2x3
    return torch.arange(6).reshape(2, 3).to(dtype)


def expect(f, name, tensors):  # one line per tensor: file index dtype shape values...
    for i, t in enumerate(tensors):
        shape = ",".join(map(str, t.shape)) or "-"
        vals = " ".join(repr(float(v)) for v in t.flatten().tolist())
        f.write(f"{name} {i} {str(t.dtype)[6:]} {shape} {vals}\n")


def make():
    f = open(p("expected.txt"), "w")
    for name, dt in DTYPES.items():
        t = (torch.arange(-3, 3) * 1.5).reshape(2, 3).to(dt) if dt.is_floating_point else \
            torch.arange(-3, 3).reshape(3, 2).to(dt)
        if dt == torch.int64:
            t[0, 0] = 2 ** 40
        torch.save(t, p(f"{name}.pt"))
        expect(f, f"{name}.pt", [t])
    view = torch.arange(10.0)[2:8:2]
    torch.save(view, p("view.pt"))
    expect(f, "view.pt", [view])
    pair = (torch.randn(2, 2), torch.tensor([1, 2, 3]))
    torch.save(pair, p("tuple.pt"))
    expect(f, "tuple.pt", pair)
    torch.save(list(pair), p("list2.pt"))
    expect(f, "list2.pt", pair)
    torch.save([pair[0]], p("list1.pt"))  # one forward argument, in a list
    expect(f, "list1.pt", pair[:1])

    torch.save(torch.tensor(3.5), p("scalar.pt"))
    expect(f, "scalar.pt", [torch.tensor(3.5)])
    for code in ["f2", "f4", "f8", "i1", "i2", "i4", "i8", "u1", "b1"]:
        a = (np.arange(-3, 3) % 2 == 0) if code == "b1" else np.arange(-3, 3).astype(code).reshape(2, 3)
        if code == "u1":
            a = np.arange(250, 256, dtype=np.uint8)
        np.save(p(f"{code}.npy"), a)
        expect(f, f"{code}.npy", [torch.from_numpy(a)])
    special = {"fortran.npy": np.asfortranarray(np.arange(24, dtype=np.float32).reshape(2, 3, 4)),
               "big_endian.npy": np.arange(-3, 3, dtype=">i4"),
               "big_endian_f8.npy": np.linspace(-1, 1, 5).astype(">f8"),
               "scalar.npy": np.array(2.5)}
    for name, a in special.items():
        np.save(p(name), a)
        expect(f, name, [torch.from_numpy(a.astype(a.dtype.newbyteorder("="), order="C"))])
    for version in [(2, 0), (3, 0)]:
        with open(p(f"v{version[0]}.npy"), "wb") as g:
            np.lib.format.write_array(g, np.arange(4, dtype=np.float32), version=version)
        expect(f, f"v{version[0]}.npy", [torch.arange(4.0)])
    with open(p("array_named.pt"), "wb") as g:  # a .npy file whatever its name
        np.save(g, np.ones(2, dtype=np.float32))
    expect(f, "array_named.pt", [torch.ones(2)])
    bad_files()


def bad_files():
    model = nn.Sequential(nn.Linear(2, 2))
    torch.jit.script(model).save(p("model.pt"))
    torch.save(model.state_dict(), p("state_dict.pt"))
    torch.save(model, p("eager.pt"))
    torch.save({"a": torch.ones(2)}, p("dict1.pt"))
    torch.save({"a": torch.ones(2), "b": torch.zeros(2)}, p("dict2.pt"))
    torch.save(torch.ones(2), p("protocol4.pt"), pickle_protocol=4)
    torch.save(nn.Parameter(torch.ones(2)), p("parameter.pt"))
    torch.save(torch.ones(2), p("legacy.pt"), _use_new_zipfile_serialization=False)
    torch.save(5, p("int.pt"))
    torch.save((torch.ones(1), 3), p("mixed.pt"))
    np.save(p("unicode.npy"), np.array(["abc"]))
    data = open(p("float32.pt"), "rb").read()
    open(p("truncated.pt"), "wb").write(data[: len(data) // 2])
    data = open(p("f8.npy"), "rb").read()
    open(p("truncated.npy"), "wb").write(data[:-4])
    open(p("empty.pt"), "wb").close()
    open(p("random.bin"), "wb").write(random.Random(0).randbytes(1000))
    os.makedirs(p("folder"), exist_ok=True)


def check():
    for name, dt in DTYPES.items():  # write_pt of sample(dtype).t(), a non-contiguous view
        t = torch.load(p(f"out_{name}.pt"))
        assert t.dtype == dt and torch.equal(t, sample(dt).t()), name
        assert t.is_contiguous() and t.storage().size() == t.numel(), name
        a = np.load(p(f"out_{name}.npy"))
        want = sample(torch.float32 if dt == torch.bfloat16 else dt).numpy()
        assert a.dtype == want.dtype and a.shape == want.shape and (a == want).all(), name
    pair = torch.load(p("out_tuple.pt"))
    assert isinstance(pair, tuple) and torch.equal(pair[0], sample(torch.float32)) \
        and torch.equal(pair[1], sample(torch.int64)), "tuple"
    lst = torch.load(p("out_list.pt"))
    assert isinstance(lst, list) and len(lst) == 2 and torch.equal(lst[1], sample(torch.int64)), "list"
    assert np.load(p("out_scalar.npy")).shape == () and np.load(p("out_scalar.npy")) == 7.0, "scalar"
    assert np.load(p("out_empty.npy")).shape == (0, 3), "empty"
    no_temp_files()


def check_random():
    torch.manual_seed(7)  # random_inputs(seed 7, high 10) must match Python's generator
    want = [torch.randn(2, 3), torch.randint(0, 10, (4,)), torch.randn(3, dtype=torch.float64),
            torch.randint(0, 10, (2, 2), dtype=torch.int32)]
    got = torch.load(p("out_random.pt"))
    for i, (g, w) in enumerate(zip(got, want)):
        assert g.dtype == w.dtype and torch.equal(g, w), f"random input {i}: {g} != {w}"
    no_temp_files()


def no_temp_files():
    assert not any(n.endswith(".tmp") for n in os.listdir(out)), "temp file left behind"


{"make": make, "check": check, "check-random": check_random}[mode]()

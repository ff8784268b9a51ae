"""Seeds for the aoti_package fuzz target (tests/fuzz/aoti_package_fuzz.cpp's input format), made
from a real package: usage: make_aoti_seeds.py PACKAGE.pt2 OUT_DIR

The package's entries as they are, but its library replaced by a tiny shared object (built here
with gcc: a library of kilobytes, not megabytes, keeps mutations cheap; it is never loaded) and
its wrapper source cut to the lines the reader reads; then variants: a `..` entry, a symbolic
link, the library missing beside compile flags, metadata for another device."""
import os
import struct
import subprocess
import sys
import tempfile
import zipfile

KEPT = ("constants_info_", "inputs_info_", "in_spec_", "out_spec_", "check_input_",
        "input_handles[", "expected", "}")


def tiny_library():
    folder = tempfile.mkdtemp()
    src, so = os.path.join(folder, "x.c"), os.path.join(folder, "x.so")
    with open(src, "w") as f:
        f.write("int x = 1;\n")
    subprocess.run(["gcc", "-shared", "-fPIC", "-nostdlib", "-s", "-Wl,--build-id=none",
                    "-Wl,-z,max-page-size=0x10", "-Wl,-z,noseparate-code", "-o", so, src],
                   check=True)
    with open(so, "rb") as f:
        return f.read()


def entries(package):
    library = tiny_library()
    with zipfile.ZipFile(package) as z:
        for info in z.infolist():
            data = z.read(info)
            if info.filename.endswith(".so"):
                data = library
            elif info.filename.endswith(".kernel.cpp"):
                continue
            elif info.filename.endswith(".cpp"):
                lines = data.decode().splitlines()
                data = "\n".join(l for l in lines if any(k in l for k in KEPT)).encode()
            yield info.filename, info.external_attr, data


def encode(items):
    out = b""
    for name, attributes, data in items:
        name = name.encode()
        out += struct.pack("<H", len(name)) + name
        out += struct.pack("<II", attributes, len(data)) + data
    return out


def main(package, out):
    os.makedirs(out, exist_ok=True)
    items = list(entries(package))
    model = os.path.dirname(next(n for n, _, _ in items if n.endswith(".so"))) + "/"
    variants = {
        "package": items,
        "slip": items + [(model + "../../../../x", 0, b"x")],
        "link": items + [(model + "l.so", 0o120777 << 16, b"/etc/passwd")],
        "cpp_only": [i for i in items if not i[0].endswith(".so")] +
                    [(model + "h_compile_flags.json", 0, b'{"compiler": "true"}')],
        "cuda": [(n, a, d.replace(b'"cpu"', b'"cuda"') if n.endswith(".json") else d)
                 for n, a, d in items],
    }
    for name, variant in variants.items():
        with open(os.path.join(out, name + ".bin"), "wb") as f:
            f.write(encode(variant))


if __name__ == "__main__":
    main(*sys.argv[1:])

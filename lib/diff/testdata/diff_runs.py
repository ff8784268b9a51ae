"""Recording directories for diff_test.cpp, written by PyTorch/NumPy, with the expected numbers.

Usage: diff_runs.py OUT. Writes OUT/<run>/manifest.json, tensors/ and values.json (stats.json's
layout with each tensor's values in place of its statistics; the test turns them into stats.json
with RunningStats), and OUT/expected.json: metrics computed here with NumPy in float64.
"""
import json
import os
import sys

import numpy as np
import torch

OUT = sys.argv[1]
rng = np.random.default_rng(0)

# label -> (path, type, {capture: [float32 arrays]})
BASE = {
    "0-1": ("", "Net", {"output": [rng.standard_normal((2, 3)).astype(np.float32)]}),
    "1-1": ("conv", "Conv2d", {
        "output": [rng.standard_normal((2, 4, 3, 3)).astype(np.float32)],
        "grad_output": [rng.standard_normal((2, 4, 3, 3)).astype(np.float32)]}),
    "1-2": ("relu", "ReLU", {"output": [np.maximum(rng.standard_normal((2, 4, 3, 3)), 0).astype(np.float32)]}),
    "1-3": ("lstm", "LSTM", {"output": [rng.standard_normal((2, 5)).astype(np.float32),
                                        rng.standard_normal((1, 2, 5)).astype(np.float32)]}),
}


def copy(layers):
    return {k: (p, t, {c: [a.copy() for a in ts] for c, ts in caps.items()}) for k, (p, t, caps) in layers.items()}


def write_run(name, layers, save):
    root = os.path.join(OUT, name)
    os.makedirs(root)
    manifest, values = [], []
    for label, (path, typ, caps) in layers.items():
        mcaps, vcaps = {}, {}
        for cap, arrays in caps.items():
            files = []
            if save:
                os.makedirs(os.path.join(root, "tensors", label), exist_ok=True)
            if save == "pt":
                files = [f"tensors/{label}/{cap}.pt"]
                ts = [torch.from_numpy(a) for a in arrays]
                torch.save(ts[0] if len(ts) == 1 else tuple(ts), os.path.join(root, files[0]))
            elif save == "npy":
                files = [f"tensors/{label}/{cap}.npy"] if len(arrays) == 1 else \
                        [f"tensors/{label}/{cap}.{i}.npy" for i in range(len(arrays))]
                for f, a in zip(files, arrays):
                    np.save(os.path.join(root, f), a)
            mcaps[cap] = {"files": files, "shapes": [list(a.shape) for a in arrays],
                          "dtypes": ["float32"] * len(arrays)}
            vcaps[cap] = [{"tensor": i, "shape": list(a.shape), "dtype": "float32",
                           "values": [float(x) for x in a.ravel()]} for i, a in enumerate(arrays)]
        manifest.append({"label": label, "path": path, "type": typ, "call": 1, "captures": mcaps})
        values.append({"label": label, "path": path, "type": typ, "call": 1, "captures": vcaps})
    with open(os.path.join(root, "manifest.json"), "w") as f:
        json.dump({"modrec_version": "0.1.0", "layers": manifest}, f)
    with open(os.path.join(root, "values.json"), "w") as f:
        json.dump({"layers": values}, f)


def tensor_metrics(a, b):
    a, b = a.astype(np.float64), b.astype(np.float64)
    err = np.abs(a - b)
    rel = np.where(err == 0, 0.0, err / np.abs(b))
    cos = float(np.dot(a.ravel(), b.ravel()) / (np.linalg.norm(a) * np.linalg.norm(b)))
    return {"max_abs": float(err.max()), "mean_abs": float(err.mean()), "max_rel": float(rel.max()),
            "cosine": cos, "close": bool(torch.allclose(torch.from_numpy(a), torch.from_numpy(b)))}


def stats_metrics(a, b):
    a, b = a.astype(np.float64), b.astype(np.float64)
    pairs = [(a.mean(), b.mean()), (a.std(ddof=1), b.std(ddof=1)), (a.min(), b.min()),
             (a.max(), b.max()), (np.linalg.norm(a), np.linalg.norm(b))]
    err = [abs(x - y) for x, y in pairs]
    return {"max_abs": float(max(err)), "mean_abs": float(np.mean(err)),
            "max_rel": float(max(e / abs(y) for e, (x, y) in zip(err, pairs)))}


# perturbed: three values of 1-1's output moved; 1-3 dropped; 2-1 only here.
perturbed = copy(BASE)
out = perturbed["1-1"][2]["output"][0]
out.flat[[3, 17, 40]] += np.float32([1e-3, -2.5e-3, 4e-4])
del perturbed["1-3"]
perturbed["2-1"] = ("conv.inner", "Identity", {"output": [rng.standard_normal((2,)).astype(np.float32)]})

# reshaped: 1-2's output has another shape.
reshaped = copy(BASE)
reshaped["1-2"][2]["output"][0] = reshaped["1-2"][2]["output"][0].reshape(2, 36)

write_run("base", BASE, "pt")
write_run("base_npy", BASE, "npy")
write_run("base_nosave", BASE, None)
write_run("perturbed", perturbed, "pt")
write_run("perturbed_nosave", perturbed, None)
write_run("reshaped", reshaped, "pt")

a, b = perturbed["1-1"][2]["output"][0], BASE["1-1"][2]["output"][0]
with open(os.path.join(OUT, "expected.json"), "w") as f:
    json.dump({"tensors": tensor_metrics(a, b), "stats": stats_metrics(a, b)}, f)

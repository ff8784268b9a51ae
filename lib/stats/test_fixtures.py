"""Writes the test arrays of stats_test.cpp and their statistics as computed by torch and numpy.

usage: stats_expected.py OUTDIR BINS -> OUTDIR/<case>.bin (raw, native order) and OUTDIR/cases.json
Statistics follow lib/stats/running_stats.h: moments over finite values in float64, sample std,
histogram over [-R, R] with R the smallest power of two >= abs_max (1 when it is 0, >= 2^-1000).
"""
import json
import math
import sys

import numpy as np
import torch


def sorted_by_magnitude(t):
    """Batches of this data need a wider histogram range each time."""
    return t[t.abs().argsort()]


def arrays():
    g = torch.Generator().manual_seed(1234)
    randn = lambda n, dtype=torch.float32: torch.randn(n, generator=g, dtype=dtype)
    randint = lambda lo, hi, n, dtype: torch.randint(lo, hi, (n,), generator=g, dtype=dtype)
    with_nonfinite = randn(20000)
    with_nonfinite[randint(0, 20000, 300, torch.int64)] = float("nan")
    with_nonfinite[randint(0, 20000, 40, torch.int64)] = float("inf")
    with_nonfinite[randint(0, 20000, 40, torch.int64)] = float("-inf")
    with_nonfinite[5000:7100] = float("nan")  # a whole chunk without finite values
    big_ints = randint(-1000, 1000, 30000, torch.int64)
    big_ints[::997] = 2**40
    sparse = randn(50000) * 3
    sparse[randint(0, 50000, 20000, torch.int64)] = 0
    return {
        "normal_f32": randn(100000),
        "offset_f32": randn(50000) * 0.01 + 1e4,
        "offset_f64": randn(50000, torch.float64) + 1e8,
        "wide_f32": randn(30000) * 1000,
        # the first value, the shift, lies 10^3 (10^6) standard deviations from the mean: m2 from
        # the sums about the shift would cancel 20 (40) bits, so the deviations pass must take over
        "outlier_first_f32": torch.cat([torch.tensor([2.0]), randn(50000) * 1e-3 + 1]),
        "outlier_first_f64": torch.cat([torch.tensor([2.0], dtype=torch.float64),
                                        randn(50000, torch.float64) * 1e-6 + 1]),
        "sparse_f32": sparse,
        "int64": big_ints,
        "int32": randint(-2**31, 2**31 - 1, 20000, torch.int32),
        "int16": randint(-2**15, 2**15 - 1, 20000, torch.int16),
        "int8": randint(-128, 127, 20000, torch.int8),
        "uint8": randint(0, 256, 20000, torch.uint8),
        "bool": randint(0, 2, 20000, torch.int64).to(torch.bool),
        "nonfinite_f32": with_nonfinite,
        "all_nan_f32": torch.full((100,), float("nan")),
        "all_zero_f32": torch.zeros(5000),
        "empty_f32": torch.zeros(0),
        "single_f32": torch.tensor([3.0]),
        "edges_f64": torch.cat([torch.arange(-64, 65, dtype=torch.float64) / 16,
                                torch.tensor([1.0, 2.0, -4.0, 4.0, -0.0], dtype=torch.float64)]),
        "subnormal_f64": torch.tensor([-1e-310, 5e-324, 0.0, -0.0, 2.0**100], dtype=torch.float64),
        "growing_f32": sorted_by_magnitude(randn(40000) * 100),
        "powers_f64": torch.tensor([1, 1, 2, 2, 4, -4, 8, 8, 16, 16, 0.5, 32, -32, 64, 64, -64],
                                   dtype=torch.float64),
        "tiny_f64": torch.tensor([1e-310, -1e-310, 3e-320], dtype=torch.float64),
        # float32 data takes float kernels: edges, +R itself, products that underflow to -0,
        # and ranges whose scale is no normal float (binned in double instead)
        "edges_f32": torch.cat([torch.arange(-64, 65) / 16, torch.tensor([1.0, -4.0, 4.0, -0.0])]),
        "underflow_f32": torch.tensor([2.0**99, -1e-40, 1e-40, -0.0, 0.0, 3.0, -2.0**99]),
        "tiny_f32": torch.tensor([1e-35, -1e-38, 1e-42, -1e-45, 0.0, -0.0]),
        "huge_f32": torch.tensor([3.4028234e38, 3e38, 1e38, -2e38, -3.4028234e38, 2.0**127]),
    }


def histogram_range(abs_max):
    if not abs_max:
        return 1.0
    mantissa, exponent = math.frexp(abs_max)
    return math.ldexp(1.0, max(exponent - 1 if mantissa == 0.5 else exponent, -1000))


def expected(t, bins):
    x = t.to(torch.float64)
    fin = x[torch.isfinite(x)]
    n = fin.numel()
    item = lambda v: v.item() if n else None
    abs_max = item(fin.abs().max()) if n else None
    r = histogram_range(abs_max)
    return {
        "count": x.numel(),
        "finite_count": n,
        "mean": item(fin.mean()) if n else None,
        "std": fin.std().item() if n > 1 else None,
        "min": item(fin.min()) if n else None,
        "max": item(fin.max()) if n else None,
        "abs_max": abs_max,
        "l2_norm": torch.linalg.norm(fin).item(),
        "zero_fraction": (fin == 0).sum().item() / n if n else None,
        "nan_count": torch.isnan(x).sum().item(),
        "inf_count": torch.isinf(x).sum().item(),
        "hist_range": r,
        "hist_counts": np.histogram(fin.numpy(), bins=bins, range=(-r, r))[0].tolist(),
    }


def main():
    out, bins = sys.argv[1], int(sys.argv[2])
    cases = []
    for name, t in arrays().items():
        t.numpy().tofile(f"{out}/{name}.bin")
        cases.append({"name": name, "dtype": str(t.dtype).replace("torch.", ""),
                      "expected": expected(t, bins)})
    with open(f"{out}/cases.json", "w") as f:
        json.dump({"bins": bins, "cases": cases}, f)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""`modrec summary`, `check` and `diff` of checkpoints (issue 47): wall time and peak RSS.

    checkpoints.py --modrec BIN --work DIR [--gb 1.0] [--shards 4] [--runs 5]

Writes (once, into DIR; never committed) two float32 checkpoints of about --gb GB each, as
--shards safetensors shards behind a model.safetensors.index.json (B: A plus small noise), and a
small one (1/64 the size) to show that summary's cost does not grow with the weights' bytes. The
files are read once first (page cache). Reports the median and the spread (min..max) of --runs:
  - `modrec --help`: LibTorch's start, the floor of every command;
  - `modrec summary INDEX` (small and large): time and peak RSS;
  - `modrec check INDEX` with --threads 1 and 2: time and GB/s per core;
  - `modrec diff A B` with --threads 2.
Targets: summary within 0.1 s of --help, RSS flat; check >= 1 GB/s per core; diff of two 1 GB
checkpoints <= 2 s on 2 cores.
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import time

MAKE = r"""
import json, os, sys, torch
from safetensors.torch import save_file
gb, shards, out, seed = float(sys.argv[1]), int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
side = 2048
layers = max(1, round(gb * 1e9 / (side * side * 4)))
torch.manual_seed(0)
weight_map = {}
for k in range(shards):
    tensors = {}
    for i in range(k, layers, shards):
        w = torch.randn(side, side)
        if seed:
            w += 1e-4 * torch.randn(side, side, generator=torch.Generator().manual_seed(i))
        tensors[f"model.layers.{i}.mlp.weight"] = w
        tensors[f"model.layers.{i}.mlp.bias"] = torch.zeros(side) + i
    name = f"model-{k + 1:05d}-of-{shards:05d}.safetensors"
    save_file(tensors, os.path.join(out, name))
    weight_map.update({n: name for n in tensors})
with open(os.path.join(out, "model.safetensors.index.json"), "w") as f:
    json.dump({"metadata": {}, "weight_map": weight_map}, f)
"""

MAXRSS = re.compile(r"Maximum resident set size \(kbytes\): (\d+)")
CPU = re.compile(r"(?:User|System) time \(seconds\): ([\d.]+)")


def make(python, work, name, gb, shards, seed):
    out = os.path.join(work, name)
    index = os.path.join(out, "model.safetensors.index.json")
    if not os.path.exists(index):
        os.makedirs(out, exist_ok=True)
        subprocess.run([python, "-c", MAKE, str(gb), str(shards), out, str(seed)], check=True)
    for f in os.listdir(out):  # into the page cache
        with open(os.path.join(out, f), "rb") as fh:
            while fh.read(1 << 24):
                pass
    return index, sum(os.path.getsize(os.path.join(out, f)) for f in os.listdir(out))


def measure(cmd, runs, ok=(0, 1)):
    """Median and spread of wall seconds, the median CPU seconds (user + system: what a loaded
    machine's other work does not inflate) and peak RSS in MB."""
    times, rss, cpu = [], [], []
    for _ in range(runs):
        start = time.perf_counter()
        p = subprocess.run(["/usr/bin/time", "-v", *cmd], capture_output=True, text=True)
        times.append(time.perf_counter() - start)
        if p.returncode not in ok:
            sys.exit(f"{' '.join(cmd)}: exit {p.returncode}\n{p.stderr[-2000:]}")
        rss.append(int(MAXRSS.search(p.stderr).group(1)) / 1024)
        cpu.append(sum(float(t) for t in CPU.findall(p.stderr)))
    return {"median_s": statistics.median(times), "min_s": min(times), "max_s": max(times),
            "cpu_s": statistics.median(cpu), "rss_mb": statistics.median(rss)}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--modrec", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--python", default=sys.executable)
    ap.add_argument("--gb", type=float, default=1.0)
    ap.add_argument("--shards", type=int, default=4)
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    os.makedirs(args.work, exist_ok=True)
    small, small_bytes = make(args.python, args.work, "small", args.gb / 64, args.shards, 0)
    a, a_bytes = make(args.python, args.work, "a", args.gb, args.shards, 0)
    b, _ = make(args.python, args.work, "b", args.gb, args.shards, 1)
    m = args.modrec
    rows = {
        "help": measure([m, "--help"], args.runs),
        "summary_small": measure([m, "summary", small], args.runs),
        "summary": measure([m, "summary", a], args.runs),
        "check_1_thread": measure([m, "--threads", "1", "check", a, "--allow-dead", "--allow-constant"], args.runs),
        "check_2_threads": measure([m, "--threads", "2", "check", a, "--allow-dead", "--allow-constant"], args.runs),
        "diff_2_threads": measure([m, "--threads", "2", "diff", a, b], args.runs),
    }
    gb = a_bytes / 1e9
    for name, r in rows.items():
        print(f"{name:16} {r['median_s']:7.3f} s  ({r['min_s']:.3f}..{r['max_s']:.3f})  "
              f"CPU {r['cpu_s']:6.3f} s  RSS {r['rss_mb']:7.1f} MB")
    floor = rows["help"]["median_s"]
    print(f"checkpoint: {gb:.2f} GB in {args.shards} shards; small: {small_bytes / 1e9:.3f} GB")
    print(f"summary - --help: {rows['summary']['median_s'] - floor:+.3f} s "
          f"(small: {rows['summary_small']['median_s'] - floor:+.3f} s); "
          f"summary / --help: {rows['summary']['median_s'] / floor:.2f}")
    cpu_floor = rows["help"]["cpu_s"]
    for threads in (1, 2):
        r = rows[f"check_{threads}_thread" + ("s" if threads > 1 else "")]
        print(f"check, {threads} thread(s): {gb / r['median_s']:.2f} GB/s whole command, "
              f"{gb / (r['median_s'] - floor) / threads:.2f} GB/s per core after LibTorch's start, "
              f"{gb / (r['cpu_s'] - cpu_floor):.2f} GB/s per CPU second")
    print(f"diff of two {gb:.2f} GB checkpoints on 2 threads: {rows['diff_2_threads']['median_s']:.2f} s")
    print(json.dumps(rows))


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""`modrec summary` of big checkpoints: time and peak RSS against one `cat` of the file.

    big_summary.py --modrec BIN --work DIR [--gb 0.2 0.8 3.2] [--runs 3] [--threads 2]

For each size, writes (once, into DIR; never committed) a model of 24 Linear(n, n) in bfloat16
whose weights take about that many GB (3.2 GB: n = 8192, 1.61 B parameters), as TorchScript
(torch.jit.save) and as a torch.export archive (torch.export.save). Measures, the file in the
page cache (one `cat` first):
  - `cat FILE > /dev/null`: wall time (median of --runs);
  - `modrec summary FILE` and `modrec summary FILE --input-size 1xn:bfloat16`: wall time and
    peak RSS (/usr/bin/time -v; median of --runs);
  - torchinfo.summary of the eager model built on the meta device, without and with an input:
    the call alone, and its whole Python process (import torch included) with peak RSS.
  - `modrec --help`: LibTorch's start, no model read; the floor of any summary with an input.
Targets (issue 36): each summary at most half a `cat`, peak RSS at most 10% of the file, time
flat in the weights' bytes.
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import time

LAYERS = 24
SIDE = {0.2: 2048, 0.8: 4096, 3.2: 8192}

MAKE = r"""
import sys, torch
from torch import nn
n, kind, path = int(sys.argv[1]), sys.argv[2], sys.argv[3]
with torch.device("meta"):
    model = nn.Sequential(*[nn.Linear(n, n) for _ in range({layers})]).to(torch.bfloat16)
model = model.to_empty(device="cpu").eval()
with torch.no_grad():
    for p in model.parameters():
        p.fill_(0.001)
if kind == "pt":
    torch.jit.script(model).save(path + ".tmp")
else:
    ep = torch.export.export(model, (torch.zeros(1, n, dtype=torch.bfloat16),))
    torch.export.save(ep, path + ".tmp")
""".replace("{layers}", str(LAYERS))

TORCHINFO = r"""
import sys, time, torch, torchinfo
from torch import nn
n, with_input = int(sys.argv[1]), sys.argv[2] == "1"
with torch.device("meta"):
    model = nn.Sequential(*[nn.Linear(n, n) for _ in range({layers})]).to(torch.bfloat16).eval()
data = [torch.zeros(1, n, dtype=torch.bfloat16, device="meta")] if with_input else None
start = time.perf_counter()
str(torchinfo.summary(model, input_data=data, verbose=0, mode="eval", device="meta"))
print(time.perf_counter() - start)
""".replace("{layers}", str(LAYERS))

MAXRSS = re.compile(r"Maximum resident set size \(kbytes\): (\d+)")


def timed(cmd):
    """(wall seconds, peak RSS in MB, stdout) of one process under /usr/bin/time -v."""
    start = time.perf_counter()
    p = subprocess.run(["/usr/bin/time", "-v", *cmd], capture_output=True, text=True)
    wall = time.perf_counter() - start
    if p.returncode != 0:
        sys.exit(f"big_summary: {' '.join(cmd)} failed ({p.returncode}):\n{p.stderr[-2000:]}")
    return wall, int(MAXRSS.search(p.stderr).group(1)) / 1024, p.stdout


def medians(runs, cmd):
    results = [timed(cmd) for _ in range(runs)]
    return (statistics.median(r[0] for r in results), statistics.median(r[1] for r in results),
            results[0][2])


def model_file(work, gb, kind):
    path = os.path.join(work, f"linear24_{gb}gb.{kind}")
    if not os.path.exists(path):
        subprocess.run([sys.executable, "-c", MAKE, str(SIDE[gb]), kind, path], check=True)
        os.replace(path + ".tmp", path)
    return path


def cat_time(path, runs):
    subprocess.run(["cat", path], stdout=subprocess.DEVNULL, check=True)  # into the page cache
    return statistics.median(timed(["sh", "-c", f"cat '{path}' > /dev/null"])[0]
                             for _ in range(runs))


def measure(args):
    # LibTorch's start alone: a process that reads no model. Any summary with an input runs the
    # graph through LibTorch, so this is the least such a summary can take.
    wall, rss, _ = medians(args.runs, [args.modrec, "--help"])
    rows = [{"gb": 0, "what": "modrec --help", "input": False, "process_s": wall, "rss_mb": rss}]
    for gb in args.gb:
        n = SIDE[gb]
        for with_input in (False, True):
            wall, rss, out = medians(args.runs, [sys.executable, "-c", TORCHINFO, str(n),
                                                 "1" if with_input else "0"])
            rows.append({"gb": gb, "what": "torchinfo (meta)", "input": with_input,
                         "call_s": float(out.split()[-1]), "process_s": wall, "rss_mb": rss})
        for kind in ("pt", "pt2"):
            path = model_file(args.work, gb, kind)
            size_mb = os.path.getsize(path) / 2**20
            cat = cat_time(path, args.runs)
            for with_input in (False, True):
                cmd = [args.modrec, "--threads", str(args.threads), "summary", path]
                if with_input:
                    cmd += ["--input-size", f"1x{n}:bfloat16"]
                wall, rss, _ = medians(args.runs, cmd)
                rows.append({"gb": gb, "what": f"modrec .{kind}", "input": with_input,
                             "file_mb": size_mb, "cat_s": cat, "process_s": wall, "rss_mb": rss,
                             "time_vs_cat": wall / cat, "rss_vs_file": rss / size_mb})
    return rows


def report(rows):
    print(f"{'GB':>4} {'what':<17} {'input':<5} {'time s':>7} {'cat s':>6} {'t/cat':>6} "
          f"{'RSS MB':>7} {'RSS/file':>8}  targets: t/cat <= 0.5, RSS/file <= 0.10")
    for r in rows:
        if "cat_s" in r:
            ok = "ok" if r["time_vs_cat"] <= 0.5 and r["rss_vs_file"] <= 0.10 else "MISSED"
            print(f"{r['gb']:>4} {r['what']:<17} {str(r['input']):<5} {r['process_s']:>7.3f} "
                  f"{r['cat_s']:>6.3f} {r['time_vs_cat']:>6.2f} {r['rss_mb']:>7.0f} "
                  f"{r['rss_vs_file']:>8.3f}  {ok}")
        else:
            note = (f"(summary call alone {r['call_s']:.3f} s)" if "call_s" in r
                    else "(LibTorch's start: the floor of a summary that runs the graph)")
            print(f"{r['gb']:>4} {r['what']:<17} {str(r['input']):<5} {r['process_s']:>7.3f} "
                  f"{'':>6} {'':>6} {r['rss_mb']:>7.0f} {'':>8}  {note}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--modrec", required=True)
    ap.add_argument("--work", required=True, help="where the models are written (GBs)")
    ap.add_argument("--gb", type=float, nargs="+", default=[0.2, 0.8, 3.2], choices=sorted(SIDE))
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--json")
    args = ap.parse_args()
    os.makedirs(args.work, exist_ok=True)
    rows = measure(args)
    report(rows)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)


if __name__ == "__main__":
    main()

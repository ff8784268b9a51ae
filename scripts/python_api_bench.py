#!/usr/bin/env python3
"""What the Python API (python/modrec) adds to the binary's own time (docs/python.md, "Cost";
docs/performance.md, "The Python API"):

1. `modrec.summary` of resnet18 (TorchScript, 1x3x224x224) against the binary alone
   (`modrec summary … --format json`, and the table), rounds alternating; target: at most 50 ms
   added.
2. `modrec.Run(path)` opening a recording of 10,000 tensors (5,000 calls, output and grad_output)
   and indexing a call in its middle; target: at most 0.3 s.
3. `run.to_pandas()` of a recording of 1,000 calls (2,000 rows); target: at most 0.2 s.

Each figure is the median of --rounds, with its spread (min to max). Run with the pinned
environment's Python; the binary is $MODREC_BIN, else build/modrec:

    MODREC_BIN=build/modrec $PY scripts/python_api_bench.py [--rounds 15]
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "python"))
os.environ.setdefault("MODREC_BIN", os.path.join(ROOT, "build", "modrec"))

import torch  # noqa: E402
import torchvision  # noqa: E402

import modrec  # noqa: E402


class Loop(torch.nn.Module):
    """One module called n times: n calls, n labels (1-1 … 1-n)."""

    def __init__(self) -> None:
        super().__init__()
        self.layer = torch.nn.Linear(4, 4)

    def forward(self, x: torch.Tensor, n: int) -> torch.Tensor:
        for _ in range(n):
            x = self.layer(x)
        return x


def timed(f, rounds, clock=time.perf_counter):
    times = []
    for _ in range(rounds):
        start = clock()
        f()
        times.append(clock() - start)
    return times


def wall_and_cpu(what, f, rounds, target):
    """Wall time, and this process's CPU time (what the Python side costs, whatever the load)."""
    print(f"{what}: wall {spread(timed(f, rounds))}; CPU "
          f"{spread(timed(f, rounds, time.process_time))} (target {target} ms)")


def spread(times):
    return (f"median {statistics.median(times) * 1000:.1f} ms "
            f"(min {min(times) * 1000:.1f}, max {max(times) * 1000:.1f}, n={len(times)})")


def binary(*args):
    subprocess.run([os.environ["MODREC_BIN"], *args], check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)


def summary_overhead(work, rounds):
    """The binary's own `--format json` run against modrec.summary (which runs it once and
    parses the JSON into rows), and str() of it (the table, made on first use) against the
    binary's table, rounds alternating so that a change of load touches both alike."""
    path = os.path.join(work, "resnet18.pt")
    torch.jit.save(torch.jit.script(torchvision.models.resnet18().eval()), path)
    args = ["summary", path, "--input-size", "1x3x224x224", "--depth", "3"]
    modrec.summary(path, input_size=["1x3x224x224"])  # warm the page cache
    alone, api, table_alone, table_api = [], [], [], []
    for _ in range(rounds):
        alone += timed(lambda: binary(*args, "--format", "json"), 1)
        made = []
        api += timed(lambda: made.append(modrec.summary(path, input_size=["1x3x224x224"])), 1)
        table_alone += timed(lambda: binary(*args), 1)
        table_api += timed(lambda: str(made[0]), 1)
    print(f"summary resnet18, modrec.summary, this process's CPU (the binary's not counted): "
          f"{spread(timed(lambda: modrec.summary(path, input_size=['1x3x224x224']), rounds, time.process_time))}")
    print(f"summary resnet18, binary --format json: {spread(alone)}")
    print(f"summary resnet18, modrec.summary:       {spread(api)}")
    print(f"  added: {spread([a - b for a, b in zip(api, alone)])} (target 50 ms)")
    print(f"summary resnet18, binary table:         {spread(table_alone)}")
    print(f"summary resnet18, str(summary):         {spread(table_api)}")
    print(f"  added: {spread([a - b for a, b in zip(table_api, table_alone)])}")


def recording(work, calls):
    model = os.path.join(work, "loop.pt")
    if not os.path.exists(model):
        torch.jit.save(torch.jit.script(Loop()), model)
    out = os.path.join(work, f"run-{calls}")
    start = time.perf_counter()
    modrec.record(model, {"x": torch.randn(2, 4), "n": calls}, out=out)
    print(f"(recording {calls} calls took {time.perf_counter() - start:.1f} s)")
    return out


def run_opening(work, rounds):
    out = recording(work, 5000)
    tensors = sum(len(c["files"]) for l in modrec.Run(out).manifest["layers"]
                  for c in l["captures"].values())

    def open_and_index():
        run = modrec.Run(out)
        run.layers
        run["1-2500"]

    wall_and_cpu(f"Run opening {tensors} tensors (layers, run['1-2500'])", open_and_index,
                 rounds, 300)


def to_pandas(work, rounds):
    out = recording(work, 1000)
    rows = len(modrec.Run(out).to_pandas())
    wall_and_cpu(f"to_pandas() of 1000 calls ({rows} rows, a new Run each time)",
                 lambda: modrec.Run(out).to_pandas(), rounds, 200)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=15)
    args = parser.parse_args()
    work = tempfile.mkdtemp(prefix="python-api-bench-")
    try:
        import pandas  # noqa: F401  (imported once, as in a notebook, before the timing)

        print(f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}")
        summary_overhead(work, args.rounds)
        run_opening(work, args.rounds)
        to_pandas(work, args.rounds)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""modrec's benchmark: modrec against plain LibTorch on the same model, in one run.

    python scripts/bench/bench.py --build DIR [--json FILE]
                     [--summary-runs 3] [--record-runs 5] [--threads N] [--device cpu|cuda]

DIR holds the Release build (modrec, scripts/bench/plain_libtorch) and DIR/models the scripted
torchvision resnet18/resnet50 (scripts/make_samples.py --torchvision). Measures
  1. summary: whole `modrec summary resnet50.pt --input-size 2x3x224x224` processes against
     plain_libtorch processes doing load + one no-grad forward (median of --summary-runs);
  2. record: resnet18, batch 8 at 224x224, the recorded forward+backward (modrec's
     `timing: batch 1 pass` debug line) against plain forward+backward, for one layer, all layers
     without tensors, all layers with tensors, run round-robin with the plain program; the
     write is reported apart, in MB/s;
  3. peak RSS of `record --layers all --save none` for 16 batches of 1 against 1 batch of 1 (the
     samples in a torch.save file, read whole, and in a .npy, read a batch at a time), and
     of `--save pt` against `--save none` for the batch of 8 (kept tensors go to disk as captured);
  4. the statistics kernel alone: ns per float (scripts/bench/stats_throughput, one thread);
  5. the FLOP observer: `summary --columns flops` on resnet18, batch 8 at 224x224 (its pass is a
     forward and a backward under the observer) against plain forward+backward, round-robin, and
     the whole process against `summary` without the column (a no-grad forward, no observer).
  6. streaming (only with --only streaming; it writes --stream-gb + 0.5 GB of .npy): peak RSS of
     `record --layers all --save none --batch-size 256` over a memory-mapped .npy of --stream-gb GB
     (default 8) against one of 0.5 GB, samples 3x64x64 float32, on samples/TinyConvNet.pt; and
     samples/s of each against plain_libtorch reading the same batches with pread (forward +
     backward of the same model, same threads).
  7. watch (also alone with --only watch): `watch resnet18 --layers all --every 1` (outputs,
     output gradients, parameters, their gradients and updates of every layer at every step;
     statistics only) against plain LibTorch SGD steps on the same batch of 8 at 224x224, loss
     the output's sum, train mode: the median step time after the first, and the whole
     processes, round-robin.
  8. steady state (also alone with --only steady): the marginal cost of a batch once warm.
     One process records 13 batches of 8 (--batch-size 8); a batch's cost is its pass plus its
     store, its disk writes apart (modrec's `timing: batch N pass|store|disk` lines), and the
     figure is the median over batches 2..13; plain_libtorch runs forward+backward on the same
     batches, median of repetitions 2..13. Cases: one layer, every layer statistics only, every
     layer with tensors, and `watch --every 1` steps (13 SGD steps over the same batches against
     plain SGD steps); on resnet18 at 224x224 and on ViTTinyEncoder (ViT-tiny's width, 4 blocks,
     64 tokens: scripts/models.py). Round-robin; ratio = median of the rounds' ratios, spread =
     their min-max.
  9. torch.export archives (also alone with --only pt2): `record resnet18.pt2` (resnet18.pt's
     model and weights exported by torch.export for batches of 8 at 224x224,
     scripts/bench/export_baseline.py) against torch.export's own ep.module() forward+backward
     in Python on the same batches, and against `record resnet18.pt` with the same flags: one
     layer, every layer statistics only. Each process goes over 13 batches of 8; first pass:
     batch 1, steady state: the median of batches 2..13 (disk apart). Round-robin; ratio =
     median of the rounds' ratios, spread = their min-max.
 10. a Llama-shaped archive (also alone with --only llm): `record llama.pt2 --layers all --save
     none` (a ~220 M-parameter Hugging Face Llama with random weights exported on 128 tokens by
     scripts/bench/export_baseline.py export-llm; its rotary embedding is a no_grad subgraph)
     against ep.module() forward+backward in Python, 6 sequences of 128 tokens per process, batch
     1; first pass and steady state as in 9; target <= 1.10x at steady state.
  11. big checkpoints (only with --only big; it writes ~8.4 GB of models): `summary` of 24
     Linear(n, n) in bfloat16 of 0.2, 0.8 and 3.2 GB, TorchScript and .pt2, without and with an
     input, against one `cat` of the file from the page cache and torchinfo on the eager model
     on the meta device: time and peak RSS (scripts/bench/big_summary.py).
 12. the notes' cost (also alone with --only notes): `record --layers all --save none` over
     NOTES_BATCHES batches of 8 of an archive modrec.export wrote against the same model's plain
     torch.export.save archive (scripts/bench/export_baseline.py export-both): torchvision's
     resnet18 at 224x224, and timm's DeiT-tiny at 64x64 (12 blocks of Identity chains the notes
     place; small images, so the notes weigh the most). Whole process, wall and CPU, and the load
     phase; round-robin; ratio = median of the rounds' ratios, spread = their min-max. Target
     (issue 48): reading the notes costs at most 5% of the record.
 13. memory measured (also alone with --only memory): `record --layers all --save none
     --columns saved_bytes,peak_bytes` against the same record without the columns, resnet18,
     MEMORY_BATCHES batches of 8 at 224x224 per process; first pass: batch 1, steady: the median
     of batches 2.. (pass + store, disk apart). Round-robin; ratio = median of the rounds' ratios,
     spread = their min-max. Target (issue 58): <= 1.10x.
 14. torchao (also alone with --only torchao): `record --layers all --save none` of a Llama-shaped
     decoder (~10 M parameters) quantized by torchao's Int8WeightOnlyConfig, exported with its
     subclass weights pickled, against the eager quantized model with a forward and a full
     backward hook on every module computing the same statistics of each output and output
     gradient (export_baseline.py eager-torchao), forward + backward, TORCHAO_BATCHES sequences
     of TORCHAO_TOKENS tokens, batch 1; first pass: sequence 1, steady: the median of the rest.
     Round-robin; ratio = median of the rounds' ratios, spread = their min-max. Target (issue
     56): <= 1.10x.
Every modrec process runs with -v, whose debug lines give the phase times (load, pass, write).
Both programs see the same input, thread count and device (--device cuda: model, input and
statistics on the GPU; both wait for the device before a pass's clock stops); the pass compared
is the first of a fresh process in both (the plain program's second repetition is reported as
the warm time).
"""
import argparse
import json
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import time

import torch

SUMMARY_TARGET = 1.3
NOTES_TARGET = 1.05  # a record of an archive with notes against the same without, whole process
LLM_TARGET = 1.10  # record --layers all of the Llama-shaped .pt2 against ep.module(), steady
MEMORY_TARGET = 1.10  # record --layers all with the memory columns against without
TORCHAO_TARGET = 1.10  # record --layers all of a torchao int8 decoder against eager with hooks
RSS_TARGET = 1.1
TIMING = re.compile(r"timing: (.+?) ([0-9.]+) s$")
# section 9's record cases, run on the .pt2 and on the TorchScript file alike
EXPORT_CASES = {"one_layer": ["--layers", "1-5", "--save", "pt"],
                "all_layers_stats": ["--layers", "all", "--save", "none"]}
EXPORT_BASELINE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "export_baseline.py")



def first_and_steady(rounds, mine, base, names):
    """Per-batch seconds of two cases over rounds: {"first": batch 1's, "steady": the median of
    batches 2..}, each {names[0]: median seconds, names[1]: ..., "ratio": the median of the
    rounds' ratios mine/base, "spread": their min-max}."""
    out = {}
    for name, at in (("first", lambda t: t[0]), ("steady", lambda t: median(t[1:]))):
        ratios = [at(r[mine]) / at(r[base]) for r in rounds]
        out[name] = {names[0]: median([at(r[mine]) for r in rounds]),
                     names[1]: median([at(r[base]) for r in rounds]),
                     "ratio": median(ratios), "spread": [min(ratios), max(ratios)]}
    return out


def disk_time(phases):
    """Time spent writing a recording: the final write plus each batch's store (modrec counts the
    writes of kept tensors, made as they are captured during the pass, as the store's and not the
    pass's); the issue reports disk time apart from the pass."""
    return phases["write"] + sum(v for k, v in phases.items() if k.endswith(" store"))

def cpu_of_children():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run(cmd, **kw):
    """Runs cmd, returns (wall seconds, CompletedProcess with .cpu_s, its user+sys seconds);
    fails loudly on a non-zero exit. CPU time is the figure that holds on a loaded machine."""
    cpu = cpu_of_children()
    start = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True, **kw)
    wall = time.perf_counter() - start
    proc.cpu_s = cpu_of_children() - cpu
    if proc.returncode != 0:
        sys.exit(f"bench: {' '.join(cmd)} failed ({proc.returncode}):\n{proc.stderr[-2000:]}")
    return wall, proc


def phases(stderr):
    """modrec's `timing: <phase> <seconds> s` debug lines as {phase: seconds}."""
    out = {}
    for line in stderr.splitlines():
        m = TIMING.search(line)
        if m:
            out[m.group(1)] = float(m.group(2))
    return out


def median(xs):
    return statistics.median(xs) if xs else float("nan")


class Bench:
    def __init__(self, args):
        self.build = os.path.abspath(args.build)
        self.modrec = os.path.join(self.build, "modrec")
        self.plain = os.path.join(self.build, "scripts", "bench", "plain_libtorch")
        self.models = os.path.join(self.build, "models")
        self.work = os.path.join(self.build, "bench-work")
        self.threads = args.threads or os.cpu_count()
        self.thread_args = ["--threads", str(self.threads)]
        self.device_args = ["--device", args.device]
        self.args = args

    def model(self, name):
        return os.path.join(self.models, name + ".pt")

    def modrec_run(self, cmd):
        """One modrec process with -v: (wall seconds, phase times, CPU seconds)."""
        wall, proc = run([self.modrec, "-v", *self.thread_args, *cmd, *self.device_args])
        return wall, phases(proc.stderr), proc.cpu_s

    def plain_run(self, model, inputs, mode, reps):
        wall, proc = run([self.plain, model, *inputs, "--mode", mode, "--reps", str(reps),
                          *self.thread_args, *self.device_args])
        result = json.loads(proc.stdout)
        result["process_cpu_s"] = proc.cpu_s
        return wall, result

    def input_file(self, shape):
        path = os.path.join(self.work, "input_" + "x".join(map(str, shape)) + ".pt")
        if not os.path.exists(path):
            torch.manual_seed(0)
            torch.save(torch.randn(*shape), path)
        return path

    def npy_file(self, shape):
        """input_file's tensor saved with numpy."""
        path = self.input_file(shape)[:-3] + ".npy"
        if not os.path.exists(path):
            import numpy
            numpy.save(path, torch.load(self.input_file(shape)).numpy())
        return path

    def fresh_dir(self, name):
        path = os.path.join(self.work, name)
        shutil.rmtree(path, ignore_errors=True)
        return path

    # 1. summary ---------------------------------------------------------------------------
    def summary(self):
        model, size, k = self.model("resnet50"), "2x3x224x224", self.args.summary_runs
        modrec = [self.modrec_run(["summary", model, "--input-size", size]) for _ in range(k)]
        plain = [self.plain_run(model, ["--input-size", size], "forward", 1) for _ in range(k)]
        wall_m, wall_p = median([w for w, _, _ in modrec]), median([w for w, _ in plain])
        pass_m = median([p["pass"] for _, p, _ in modrec])
        pass_p = median([r["times_s"][0] for _, r in plain])
        return {
            "model": "resnet50", "input_size": size, "runs": k,
            "modrec_process_s": wall_m, "plain_process_s": wall_p,
            "process_ratio": wall_m / wall_p, "target": SUMMARY_TARGET,
            "modrec_load_s": median([p["load"] for _, p, _ in modrec]),
            "plain_load_s": median([r["load_s"] for _, r in plain]),
            "modrec_forward_s": pass_m, "plain_forward_s": pass_p,
            "forward_ratio": pass_m / pass_p,
            "modrec_format_s": median([p["format"] for _, p, _ in modrec]),
            "modrec_process_cpu_s": median([c for _, _, c in modrec]),
            "plain_process_cpu_s": median([r["process_cpu_s"] for _, r in plain]),
        }

    # 5. the FLOP observer -----------------------------------------------------------------
    def flops(self):
        model, k = self.model("resnet18"), self.args.record_runs
        inp = self.input_file((8, 3, 224, 224))
        plain, counted, uncounted = [], [], []
        for _ in range(k):
            plain.append(self.plain_run(model, ["--input", inp], "backward", 2))
            counted.append(self.modrec_run(["summary", model, "--input", inp, "--columns",
                                            "output_size,mult_adds,flops"]))
            uncounted.append(self.modrec_run(["summary", model, "--input", inp, "--columns",
                                              "output_size,mult_adds"]))
        return {
            "model": "resnet18", "input": [8, 3, 224, 224], "runs": k,
            "plain_forward_backward_s": median([r["times_s"][0] for _, r in plain]),
            "flops_pass_s": median([p["pass"] for _, p, _ in counted]),
            "pass_ratio": median([p["pass"] / r["times_s"][0]
                                  for (_, p, _), (_, r) in zip(counted, plain)]),
            "pass_ratio_vs_warm": median([p["pass"] / r["times_s"][1]
                                          for (_, p, _), (_, r) in zip(counted, plain)]),
            "no_flops_pass_s": median([p["pass"] for _, p, _ in uncounted]),
            "process_ratio_vs_no_flops": median([w / v for (w, _, _), (v, _, _)
                                                 in zip(counted, uncounted)]),
        }

    # 7. watch ---------------------------------------------------------------------------
    def watch(self):
        model, k, steps = self.model("resnet18"), self.args.record_runs, 6
        inp = self.input_file((8, 3, 224, 224))
        plain, watched = [], []
        for _ in range(k):
            wall, proc = run([self.plain, model, "--input", inp, "--train-steps", str(steps),
                              "--lr", "0.01", *self.thread_args, *self.device_args])
            plain.append((wall, json.loads(proc.stdout)["step_times_s"]))
            wall, ph, _ = self.modrec_run(["watch", model, "--input", inp, "--loss", "sum",
                                           "--optimizer", "sgd", "--lr", "0.01", "--steps",
                                           str(steps), "--batch-size", "8", "--layers", "all",
                                           "--every", "1", "--out", self.fresh_dir("watch")])
            watched.append((wall, [ph[f"step {i}"] for i in range(1, steps + 1)]))
        return {
            "model": "resnet18", "input": [8, 3, 224, 224], "runs": k, "steps": steps,
            "plain_step_s": median([median(t[1:]) for _, t in plain]),
            "watch_step_s": median([median(t[1:]) for _, t in watched]),
            "step_ratio": median([median(w[1:]) / median(p[1:])
                                  for (_, w), (_, p) in zip(watched, plain)]),
            "first_step_ratio": median([w[0] / p[0] for (_, w), (_, p) in zip(watched, plain)]),
            "process_ratio": median([w / p for (w, _), (p, _) in zip(watched, plain)]),
        }

    # 8. steady state -------------------------------------------------------------------
    STEADY_BATCHES, STEADY_BATCH = 13, 8
    # model -> (sample shape, its one layer: a residual stage, an encoder block)
    STEADY_MODELS = {"resnet18": ((3, 224, 224), "1-5"), "ViTTinyEncoder": ((64, 192), "3-1")}
    STEADY_CASES = {  # name -> (record arguments, target ratio); None: watch --every 1
        "one_layer": (["--layers", "{layer}", "--save", "pt"], 1.03),
        "all_layers_stats": (["--layers", "all", "--save", "none"], 1.10),
        "all_layers_tensors": (["--layers", "all", "--save", "pt"], 1.15),
        "watch_step": (None, 1.15),
    }

    def steady_model(self, name, sample_shape):
        """(model file, input of STEADY_BATCHES batches) for resnet18 or the attention model."""
        model = self.model(name)
        if not os.path.exists(model):
            root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
            subprocess.run([sys.executable, os.path.join(root, "scripts", "make_samples.py"),
                            "--out", self.models, "--only", name], check=True)
        return model, self.input_file((self.STEADY_BATCHES * self.STEADY_BATCH, *sample_shape))

    def steady_modrec(self, model, inp, extra):
        """Seconds per batch, disk apart, of batches 2.. of one record (or watch) process."""
        batch = ["--batch-size", str(self.STEADY_BATCH)]
        if extra is None:
            _, ph, _ = self.modrec_run(["watch", model, "--input", inp, "--loss", "sum",
                                        "--optimizer", "sgd", "--lr", "0.01", "--steps",
                                        str(self.STEADY_BATCHES), *batch, "--layers", "all",
                                        "--every", "1", "--out", self.fresh_dir("steady")])
            return [ph[f"step {i}"] for i in range(2, self.STEADY_BATCHES + 1)]
        return self.record_batches(model, inp, extra)[1:]

    def record_batches(self, model, inp, extra, batch_size=STEADY_BATCH, batches=STEADY_BATCHES):
        """Seconds per batch, disk apart, of every batch of one record process over `inp` in
        batches of `batch_size`."""
        batch = ["--batch-size", str(batch_size)]
        ph = self.record_sample(model, inp, "steady", [*extra, *batch])[1]
        return [ph[f"batch {i} pass"] + ph[f"batch {i} store"] - ph[f"batch {i} disk"]
                for i in range(1, batches + 1)]

    def steady_plain(self, model, inp, train):
        """Seconds per batch of plain LibTorch on the same batches, after the first."""
        batch = ["--batch-size", str(self.STEADY_BATCH)]
        if train:
            _, proc = run([self.plain, model, "--input", inp, "--train-steps",
                           str(self.STEADY_BATCHES), "--lr", "0.01", *batch, *self.thread_args,
                           *self.device_args])
            return json.loads(proc.stdout)["step_times_s"][1:]
        _, r = self.plain_run(model, ["--input", inp, *batch], "backward", self.STEADY_BATCHES)
        return r["times_s"][1:]

    def steady(self):
        out = {"batches": self.STEADY_BATCHES, "batch_size": self.STEADY_BATCH,
               "runs": self.args.record_runs}
        for name, (shape, layer) in self.STEADY_MODELS.items():
            model, inp = self.steady_model(name, shape)
            rounds = []  # per round: case -> (modrec s, plain s)
            for _ in range(self.args.record_runs):
                plain = {train: median(self.steady_plain(model, inp, train))
                         for train in (False, True)}
                rounds.append({case: (median(self.steady_modrec(
                                          model, inp, extra and [a.format(layer=layer) for a in extra])),
                                      plain[extra is None])
                               for case, (extra, _) in self.STEADY_CASES.items()})
            out[name] = {}
            for case, (_, target) in self.STEADY_CASES.items():
                ratios = [r[case][0] / r[case][1] for r in rounds]
                out[name][case] = {"batch_s": median([r[case][0] for r in rounds]),
                                   "plain_batch_s": median([r[case][1] for r in rounds]),
                                   "ratio": median(ratios), "spread": [min(ratios), max(ratios)],
                                   "target": target}
        return out

    # 9. torch.export archives --------------------------------------------------------------
    def pt2_model(self):
        """resnet18.pt's model and weights exported by torch.export for batches of
        STEADY_BATCH at 224x224 (the archive's shapes are static)."""
        path = os.path.join(self.models, "resnet18.pt2")
        if not os.path.exists(path):
            run([sys.executable, EXPORT_BASELINE, "export", self.model("resnet18"), path,
                 "--batch", str(self.STEADY_BATCH)])
        return path

    def export_python(self, pt2, inp, batch_size=STEADY_BATCH):
        """Seconds per batch of ep.module() forward+backward in Python, one fresh process."""
        _, proc = run([sys.executable, EXPORT_BASELINE, "run", pt2, inp, "--batch-size",
                       str(batch_size), "--threads", str(self.threads)])
        return json.loads(proc.stdout)["times_s"]

    def pt2(self):
        """Round-robin: each round runs torch.export's Python once, then every case on the .pt2
        and on the TorchScript file; each process goes over STEADY_BATCHES batches. First pass:
        batch 1 of a fresh process; steady state: the median of batches 2.. ."""
        pt2, ts = self.pt2_model(), self.model("resnet18")
        inp = self.input_file((self.STEADY_BATCHES * self.STEADY_BATCH, 3, 224, 224))
        rounds = []
        for _ in range(self.args.record_runs):
            times = {"python": self.export_python(pt2, inp)}
            for case, extra in EXPORT_CASES.items():
                times[case, "pt2"] = self.record_batches(pt2, inp, extra)
                times[case, "ts"] = self.record_batches(ts, inp, extra)
            rounds.append(times)
        first = lambda t: t[0]
        steady = lambda t: median(t[1:])
        out = {"model": "resnet18", "batches": self.STEADY_BATCHES,
               "batch_size": self.STEADY_BATCH, "runs": self.args.record_runs,
               "python_s": {"first": median([first(r["python"]) for r in rounds]),
                            "steady": median([steady(r["python"]) for r in rounds])}}
        for case in EXPORT_CASES:
            out[case] = {"pt2_s": {}, "ts_s": {}, "vs_python": {}, "vs_torchscript": {}}
            for name, at in (("first", first), ("steady", steady)):
                out[case]["pt2_s"][name] = median([at(r[case, "pt2"]) for r in rounds])
                out[case]["ts_s"][name] = median([at(r[case, "ts"]) for r in rounds])
                for against, base in (("vs_python", "python"), ("vs_torchscript", (case, "ts"))):
                    ratios = [at(r[case, "pt2"]) / at(r[base]) for r in rounds]
                    out[case][against][name] = {"ratio": median(ratios),
                                                "spread": [min(ratios), max(ratios)]}
        return out

    # 12. the notes' cost -------------------------------------------------------------------
    NOTES_MODELS = {"resnet18": 224, "zoo_timm_deit_tiny": 64}
    NOTES_BATCHES = 4

    def notes(self):
        out = {"batches": self.NOTES_BATCHES, "batch_size": self.STEADY_BATCH,
               "runs": self.args.record_runs, "target": NOTES_TARGET}
        for arch, size in self.NOTES_MODELS.items():
            plain, noted = (os.path.join(self.models, f"{arch}.{kind}.pt2")
                            for kind in ("plain", "noted"))
            if not os.path.exists(noted):
                run([sys.executable, EXPORT_BASELINE, "export-both", arch, plain, noted,
                     "--batch", str(self.STEADY_BATCH), "--size", str(size)])
            inp = self.input_file((self.NOTES_BATCHES * self.STEADY_BATCH, 3, size, size))
            extra = [*EXPORT_CASES["all_layers_stats"], "--batch-size", str(self.STEADY_BATCH)]
            rounds = []
            for _ in range(self.args.record_runs):
                rounds.append({kind: self.record_sample(path, inp, "notes", extra)
                               for kind, path in (("plain", plain), ("noted", noted))})
            out[arch] = {}
            for name, at in (("process_s", lambda s: s[0]), ("process_cpu_s", lambda s: s[4]),
                             ("load_s", lambda s: s[1]["load"])):
                ratios = [at(r["noted"]) / at(r["plain"]) for r in rounds]
                out[arch][name] = {"plain": median([at(r["plain"]) for r in rounds]),
                                   "noted": median([at(r["noted"]) for r in rounds]),
                                   "ratio": median(ratios), "spread": [min(ratios), max(ratios)]}
        return out

    # 13. memory measured ------------------------------------------------------------------
    MEMORY_BATCHES = 5

    def memory(self):
        model = self.model("resnet18")
        inp = self.input_file((self.MEMORY_BATCHES * self.STEADY_BATCH, 3, 224, 224))
        plain = EXPORT_CASES["all_layers_stats"]
        cases = {"without": plain, "with": [*plain, "--columns", "saved_bytes,peak_bytes"]}
        rounds = [{case: self.record_batches(model, inp, extra, batches=self.MEMORY_BATCHES)
                   for case, extra in cases.items()} for _ in range(self.args.record_runs)]
        return {"model": "resnet18", "batches": self.MEMORY_BATCHES,
                "batch_size": self.STEADY_BATCH, "runs": self.args.record_runs,
                "target": MEMORY_TARGET,
                **first_and_steady(rounds, "with", "without", ("with_s", "without_s"))}

    # 14. a torchao int8 weight-only decoder ------------------------------------------------
    TORCHAO_TOKENS, TORCHAO_BATCHES = 64, 6

    def torchao(self):
        """Round-robin: each round runs the eager quantized decoder with statistics hooks on
        every module (export_baseline.py eager-torchao), then `record --layers all --save none`
        on its .pt2 (the int8 weights pickled as torchao's subclass), each over TORCHAO_BATCHES
        sequences of TORCHAO_TOKENS token ids, batch 1."""
        pt2 = os.path.join(self.models, "torchao_int8wo.pt2")
        inp = os.path.join(self.work, f"torchao_tokens_{self.TORCHAO_BATCHES}.pt")
        if not (os.path.exists(pt2) and os.path.exists(inp)):
            run([sys.executable, EXPORT_BASELINE, "export-torchao", pt2, inp, "--tokens",
                 str(self.TORCHAO_TOKENS), "--batches", str(self.TORCHAO_BATCHES)])
        rounds = []
        for _ in range(self.args.record_runs):
            _, proc = run([sys.executable, EXPORT_BASELINE, "eager-torchao", inp, "--threads",
                           str(self.threads)])
            rounds.append({"eager": json.loads(proc.stdout)["times_s"],
                           "pt2": self.record_batches(pt2, inp, EXPORT_CASES["all_layers_stats"],
                                                      1, self.TORCHAO_BATCHES)})
        return {"tokens": self.TORCHAO_TOKENS, "batches": self.TORCHAO_BATCHES,
                "runs": self.args.record_runs, "target": TORCHAO_TARGET,
                **first_and_steady(rounds, "pt2", "eager", ("pt2_s", "eager_s"))}

    # 10. a Llama-shaped torch.export archive -----------------------------------------------
    LLM_TOKENS, LLM_BATCHES = 128, 6

    def llm(self):
        """Round-robin: each round runs ep.module() in Python once, then `record --layers all
        --save none` on the Llama-shaped .pt2 (export_baseline.py export-llm), each process over
        LLM_BATCHES sequences of LLM_TOKENS random token ids, batch 1. First pass: sequence 1;
        steady state: the median of sequences 2.. ."""
        pt2 = os.path.join(self.models, "llama.pt2")
        if not os.path.exists(pt2):
            run([sys.executable, EXPORT_BASELINE, "export-llm", pt2, "--tokens",
                 str(self.LLM_TOKENS)])
        inp = os.path.join(self.work, f"tokens_{self.LLM_BATCHES}x{self.LLM_TOKENS}.pt")
        if not os.path.exists(inp):
            torch.manual_seed(0)
            torch.save(torch.randint(0, 32000, (self.LLM_BATCHES, self.LLM_TOKENS)), inp)
        rounds = [{"python": self.export_python(pt2, inp, 1),
                   "pt2": self.record_batches(pt2, inp, EXPORT_CASES["all_layers_stats"], 1,
                                              self.LLM_BATCHES)}
                  for _ in range(self.args.record_runs)]
        return {"tokens": self.LLM_TOKENS, "batches": self.LLM_BATCHES,
                "runs": self.args.record_runs, "target": LLM_TARGET,
                **first_and_steady(rounds, "pt2", "python", ("pt2_s", "python_s"))}

    # 6. streaming -------------------------------------------------------------------------
    def stream_file(self, gb):
        """A C-order float32 .npy of about `gb` GB of seeded normal 3x64x64 samples."""
        import numpy as np
        samples = int(gb * 1e9) // (3 * 64 * 64 * 4)
        path = os.path.join(self.work, f"stream_{samples}.npy")
        if not os.path.exists(path):
            rng = np.random.default_rng(0)
            a = np.lib.format.open_memmap(path + ".tmp", mode="w+", dtype=np.float32,
                                          shape=(samples, 3, 64, 64))
            for i in range(0, samples, 4096):
                a[i:i + 4096] = rng.standard_normal(a[i:i + 4096].shape, dtype=np.float32)
            a.flush()
            del a
            os.replace(path + ".tmp", path)
        return path, samples

    def timed_rss(self, cmd):
        """(wall seconds, peak RSS in kB, stdout) of one process under /usr/bin/time -v."""
        wall, proc = run(["/usr/bin/time", "-v", *cmd])
        m = re.search(r"Maximum resident set size \(kbytes\): (\d+)", proc.stderr)
        return wall, int(m.group(1)), proc.stdout

    def streaming(self):
        model = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "samples",
                             "TinyConvNet.pt")
        out = {"model": "TinyConvNet", "sample_shape": [3, 64, 64], "batch_size": 256}
        for name, gb in (("small", 0.5), ("large", self.args.stream_gb)):
            path, samples = self.stream_file(gb)
            run_dir = self.fresh_dir("stream-run")
            wall, rss, _ = self.timed_rss([self.modrec, *self.thread_args, "record", model,
                                           "--input", path, "--batch-size", "256", "--layers",
                                           "all", "--save", "none", "--out", run_dir])
            shutil.rmtree(run_dir)
            plain_wall, plain_rss, plain_out = self.timed_rss(
                [self.plain, model, "--stream-npy", path, "--batch-size", "256", "--mode",
                 "backward", *self.thread_args])
            out[name] = {"gb": os.path.getsize(path) / 1e9, "samples": samples,
                         "modrec_rss_kb": rss, "modrec_samples_per_s": samples / wall,
                         "plain_rss_kb": plain_rss, "plain_process_samples_per_s": samples / plain_wall,
                         "plain_pass_samples_per_s": json.loads(plain_out)["samples_per_s"]}
        out["rss_ratio"] = out["large"]["modrec_rss_kb"] / out["small"]["modrec_rss_kb"]
        out["target"] = RSS_TARGET
        return out

    # 2. record ----------------------------------------------------------------------------
    def plain_backward(self, runs):
        return {
            "cold_pass_s": median([r["times_s"][0] for _, r in runs]),
            "warm_pass_s": median([r["times_s"][1] for _, r in runs]),
            "load_s": median([r["load_s"] for _, r in runs]),
            # the process as if it stopped after its first pass
            "process_s": median([w - r["times_s"][1] for w, r in runs]),
            "process_cpu_s": median([r["process_cpu_s"] - r["cpu_times_s"][1] for _, r in runs]),
        }

    def record_sample(self, model, inp, name, extra):
        out = self.fresh_dir("rec_" + name)
        wall, ph, cpu = self.modrec_run(["record", model, "--input", inp, "--out", out, *extra])
        sample = (wall, ph, dir_bytes(out), recorded_elements(out), cpu)
        shutil.rmtree(out)
        os.sync()  # the next run must not share the machine with this one's writeback
        return sample

    def record_case(self, samples, extra):
        write = [disk_time(ph) for _, ph, *_ in samples]
        nbytes = samples[0][2]
        return {
            "args": extra,
            "pass_s": median([ph["batch 1 pass"] for _, ph, *_ in samples]),
            "load_s": median([ph["load"] for _, ph, *_ in samples]),
            "write_s": median(write),
            "written_mb": nbytes / 1e6,
            "write_mb_per_s": nbytes / 1e6 / median(write) if median(write) > 0 else None,
            "process_minus_write_s": median([w - disk_time(ph) for w, ph, *_ in samples]),
            "recorded_elements": samples[0][3],
            "process_cpu_s": median([s[4] for s in samples]),
        }

    def record(self):
        """Round-robin: each repetition runs plain LibTorch and then every case, so that a change
        in the machine's load shifts all of them alike; ratios are medians of the ratios within
        a repetition."""
        model, k = self.model("resnet18"), self.args.record_runs
        inp = self.input_file((8, 3, 224, 224))
        cases = {
            "one_layer_pt": ["--layers", "1-5", "--save", "pt"],
            "all_layers_none": ["--layers", "all", "--save", "none"],
            "all_layers_pt": ["--layers", "all", "--save", "pt"],
            # where the time goes: the same without the gradient capture
            "all_layers_none_output_only": ["--layers", "all", "--save", "none",
                                            "--capture", "output"],
        }
        plain_runs, samples = [], {name: [] for name in cases}
        for _ in range(k):
            plain_runs.append(self.plain_run(model, ["--input", inp], "backward", 2))
            for name, extra in cases.items():
                samples[name].append(self.record_sample(model, inp, name, extra))
        plain = self.plain_backward(plain_runs)
        cold = [r["times_s"][0] for _, r in plain_runs]
        warm = [r["times_s"][1] for _, r in plain_runs]
        out = {"model": "resnet18", "input": [8, 3, 224, 224], "runs": k, "plain": plain}
        for name, extra in cases.items():
            case = self.record_case(samples[name], extra)
            passes = [ph["batch 1 pass"] for _, ph, *_ in samples[name]]
            case["pass_ratio"] = median([m / p for m, p in zip(passes, cold)])
            case["pass_ratio_vs_warm"] = median([m / p for m, p in zip(passes, warm)])
            case["process_ratio"] = case["process_minus_write_s"] / plain["process_s"]
            case["process_cpu_ratio"] = case["process_cpu_s"] / plain["process_cpu_s"]
            extra_s = case["pass_s"] - plain["cold_pass_s"]
            n = case["recorded_elements"]
            case["overhead_ns_per_element"] = extra_s / n * 1e9 if n else None
            out[name] = case
        return out

    # 3. peak RSS --------------------------------------------------------------------------
    def peak_rss(self):
        model = self.model("resnet18")
        one = self.rss_of(model, self.input_file((1, 3, 224, 224)), [])
        # two batches: tells a one-time cost of the second pass from growth with the batches
        two = self.rss_of(model, self.input_file((2, 3, 224, 224)), ["--batch-size", "1"])
        many = self.rss_of(model, self.input_file((16, 3, 224, 224)), ["--batch-size", "1"])
        # the same samples as memory-mapped .npy files, read a batch at a time
        one_npy = self.rss_of(model, self.npy_file((1, 3, 224, 224)), [])
        many_npy = self.rss_of(model, self.npy_file((16, 3, 224, 224)), ["--batch-size", "1"])
        batch8 = self.input_file((8, 3, 224, 224))
        stats_only = self.rss_of(model, batch8, [])
        tensors = self.rss_of(model, batch8, [], save="pt")
        return {"model": "resnet18", "one_batch_kb": one, "two_batches_kb": two,
                "sixteen_batches_kb": many, "ratio": many / one, "ratio_vs_two": many / two,
                "one_batch_npy_kb": one_npy, "sixteen_batches_npy_kb": many_npy,
                "ratio_npy": many_npy / one_npy,
                "target": RSS_TARGET, "batch8_none_kb": stats_only, "batch8_pt_kb": tensors}

    def rss_of(self, model, inp, extra, save="none"):
        out = self.fresh_dir("rss")
        _, proc = run(["/usr/bin/time", "-v", self.modrec, *self.thread_args, "record", model,
                       "--input", inp, "--layers", "all", "--save", save, "--out", out, *extra,
                       *self.device_args])
        shutil.rmtree(out)
        m = re.search(r"Maximum resident set size \(kbytes\): (\d+)", proc.stderr)
        return int(m.group(1))

    def stats_kernel(self):
        _, proc = run([os.path.join(self.build, "scripts", "bench", "stats_throughput")])
        return json.loads(proc.stdout)

    def environment(self):
        return {"threads": self.threads, "cores": os.cpu_count(), "blas": blas(),
                "device": device_name(self.args.device),
                "torch_libraries": torch_libraries(self.modrec),
                "libtorch_version": torch.__version__, "load_avg": os.getloadavg()}


def dir_bytes(path):
    return sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(path) for f in fs)


def recorded_elements(run_dir):
    """Elements that went through the statistics: the sum of every recorded tensor's count."""
    total = 0

    def walk(node):
        nonlocal total
        if isinstance(node, dict):
            if isinstance(node.get("count"), int) and "mean" in node:
                total += node["count"]
                return
            for v in node.values():
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)

    with open(os.path.join(run_dir, "stats.json")) as f:
        walk(json.load(f))
    return total


def blas():
    """The BLAS the LibTorch of the pinned wheel was built with (the wheel links it in; the
    system's libblas is not used)."""
    m = re.search(r"BLAS_INFO=(\w+)", torch.__config__.show())
    return m.group(1) if m else "unknown"


def device_name(device):
    return torch.cuda.get_device_name() if device == "cuda" else "cpu"


def torch_libraries(binary):
    """The BLAS / oneDNN / OpenMP libraries and the allocator the binary really loads."""
    proc = subprocess.run(["ldd", binary], capture_output=True, text=True)
    keep = re.compile(r"blas|lapack|dnnl|mkl|omp|torch_cpu|tcmalloc")
    return sorted({line.split()[0] for line in proc.stdout.splitlines() if keep.search(line)})


def mark(ok):
    return "ok" if ok else "MISSES TARGET"


def report(res):
    env = res["environment"]
    print(f"environment: {env['device']}, {env['threads']} threads on {env['cores']} cores, "
          f"BLAS {env['blas']}, "
          f"torch {env['libtorch_version']}, load avg {env['load_avg'][0]:.2f}")
    print(f"  libraries: {', '.join(env['torch_libraries'])}")
    if "streaming" in res:
        return report_streaming(res["streaming"])
    if "pt2" in res and "record" not in res:
        return report_pt2(res["pt2"])
    if "llm" in res and "record" not in res:
        return report_llm(res["llm"])
    if "notes" in res and "record" not in res:
        return report_notes(res["notes"])
    if "memory" in res and "record" not in res:
        return report_memory(res["memory"])
    if "torchao" in res and "record" not in res:
        return report_torchao(res["torchao"])
    if "steady" in res and "record" not in res:
        return report_steady(res["steady"])
    if "rss" in res and "record" not in res:
        return report_rss(res["rss"])
    if "summary" not in res:  # --only flops or watch
        return report_flops(res["flops"]) if "flops" in res else report_watch(res["watch"])
    s, r, m = res["summary"], res["record"], res["rss"]
    print(f"\n1. summary resnet50 {s['input_size']} (median of {s['runs']} processes)")
    print(f"  process: modrec {s['modrec_process_s']:.3f} s, plain {s['plain_process_s']:.3f} s, "
          f"ratio {s['process_ratio']:.2f}x (target <= {s['target']}: "
          f"{mark(s['process_ratio'] <= s['target'])})")
    print(f"  process CPU (user+sys): modrec {s['modrec_process_cpu_s']:.3f} s, plain "
          f"{s['plain_process_cpu_s']:.3f} s, ratio "
          f"{s['modrec_process_cpu_s'] / s['plain_process_cpu_s']:.2f}x")
    print(f"  load:    modrec {s['modrec_load_s']:.3f} s, plain {s['plain_load_s']:.3f} s")
    print(f"  forward: modrec {s['modrec_forward_s']:.3f} s, plain {s['plain_forward_s']:.3f} s, "
          f"ratio {s['forward_ratio']:.2f}x; modrec table formatting {s['modrec_format_s']:.3f} s")
    p = r["plain"]
    print(f"\n2. record resnet18 8x3x224x224, forward+backward (median of {r['runs']} processes each, "
          f"run round-robin; ratios: medians of the ratios within a round)")
    print(f"  plain LibTorch: first pass {p['cold_pass_s']:.3f} s, second pass "
          f"{p['warm_pass_s']:.3f} s, load {p['load_s']:.3f} s, process CPU (one pass) "
          f"{p['process_cpu_s']:.3f} s")
    for name in ("one_layer_pt", "all_layers_none", "all_layers_pt",
                 "all_layers_none_output_only"):
        c = r[name]
        rate = f", {c['write_mb_per_s']:.0f} MB/s" if c["written_mb"] > 1 else ""
        per_el = c["overhead_ns_per_element"]
        per_el = f", {per_el:.1f} ns/recorded element" if per_el is not None else ""
        print(f"  {name:28s} pass {c['pass_s']:.3f} s = {c['pass_ratio']:.2f}x plain "
              f"({c['pass_ratio_vs_warm']:.2f}x warm); process-minus-write "
              f"{c['process_ratio']:.2f}x; write {c['write_s']:.3f} s for "
              f"{c['written_mb']:.1f} MB{rate}; {c['recorded_elements'] / 1e6:.1f} M elements"
              f"{per_el}; process CPU incl. write {c['process_cpu_ratio']:.2f}x")
    report_rss(m, r["all_layers_pt"]["written_mb"])
    k = res["stats_kernel"]
    print(f"\n4. statistics kernel: {k['ns_per_element']:.2f} ns per float, {k['gb_per_s']:.1f} GB/s "
          f"on one thread (AVX2 kernels: {'yes' if k['avx2'] else 'no'})")
    report_flops(res["flops"])
    report_watch(res["watch"])
    report_steady(res["steady"])
    report_pt2(res["pt2"])
    report_llm(res["llm"])
    report_notes(res["notes"])
    report_memory(res["memory"])
    report_torchao(res["torchao"])


def report_flops(f):
    print(f"\n5. FLOP observer: summary --columns flops, resnet18 8x3x224x224 (median of "
          f"{f['runs']} processes each, round-robin)")
    print(f"  pass (forward+backward under the observer) {f['flops_pass_s']:.3f} s against plain "
          f"forward+backward {f['plain_forward_backward_s']:.3f} s: {f['pass_ratio']:.2f}x "
          f"({f['pass_ratio_vs_warm']:.2f}x its second, specialized pass)")
    print(f"  whole process against summary without the column (no-grad forward, "
          f"{f['no_flops_pass_s']:.3f} s): {f['process_ratio_vs_no_flops']:.2f}x")


def report_rss(m, kept_mb=None):
    print(f"\n3. peak RSS record resnet18 --layers all --save none")
    print(f"  1 batch of 1: {m['one_batch_kb'] / 1024:.0f} MiB, 16 batches of 1: "
          f"{m['sixteen_batches_kb'] / 1024:.0f} MiB, ratio {m['ratio']:.3f} "
          f"(target <= {m['target']}: {mark(m['ratio'] <= m['target'])})")
    print(f"  the same from .npy files (memory-mapped, read a batch at a time): 1 batch "
          f"{m['one_batch_npy_kb'] / 1024:.0f} MiB, 16 batches {m['sixteen_batches_npy_kb'] / 1024:.0f}"
          f" MiB, ratio {m['ratio_npy']:.3f} ({mark(m['ratio_npy'] <= m['target'])})")
    print(f"  2 batches of 1: {m['two_batches_kb'] / 1024:.0f} MiB; 16 against 2 batches: "
          f"{m['ratio_vs_two']:.3f}")
    if kept_mb is not None:
        print(f"  batch of 8, all layers: --save none {m['batch8_none_kb'] / 1024:.0f} MiB, --save pt "
              f"{m['batch8_pt_kb'] / 1024:.0f} MiB ({kept_mb:.0f} MB kept)")


def report_watch(w):
    print(f"\n7. watch {w['model']} {'x'.join(map(str, w['input']))} --layers all --every 1 "
          f"against plain LibTorch SGD steps ({w['steps']} steps, median of {w['runs']} "
          f"processes each, round-robin)")
    print(f"  step (median after the first): watch {w['watch_step_s']:.3f} s, plain "
          f"{w['plain_step_s']:.3f} s: {w['step_ratio']:.2f}x; first step {w['first_step_ratio']:.2f}x; "
          f"whole process {w['process_ratio']:.2f}x")


def report_steady(st):
    print(f"\n8. steady state: the marginal cost of a warm batch ({st['batches']} batches of "
          f"{st['batch_size']} per process, median of batches 2..{st['batches']}; median of "
          f"{st['runs']} rounds, spread min-max over rounds)")
    for model in ("resnet18", "ViTTinyEncoder"):
        for case, c in st[model].items():
            print(f"  {model:15s} {case:19s} {c['batch_s']:.4f} s against plain "
                  f"{c['plain_batch_s']:.4f} s: {c['ratio']:.3f}x (spread {c['spread'][0]:.3f}-"
                  f"{c['spread'][1]:.3f}; target <= {c['target']}: {mark(c['ratio'] <= c['target'])})")


def report_pt2(x):
    p = x["python_s"]
    print(f"\n9. torch.export archive: record resnet18.pt2 against ep.module() forward+backward in "
          f"Python and against record resnet18.pt ({x['batches']} batches of {x['batch_size']} "
          f"at 224x224 per process; first pass: batch 1, steady: median of batches 2..; "
          f"median of {x['runs']} rounds, spread min-max over rounds)")
    print(f"  ep.module() in Python: first pass {p['first']:.3f} s, steady {p['steady']:.3f} s")
    for case in EXPORT_CASES:
        c = x[case]
        for name in ("first", "steady"):
            py, ts = c["vs_python"][name], c["vs_torchscript"][name]
            print(f"  {case:17s} {name:6s} .pt2 {c['pt2_s'][name]:.3f} s, .pt "
                  f"{c['ts_s'][name]:.3f} s: {py['ratio']:.2f}x Python ({py['spread'][0]:.2f}-"
                  f"{py['spread'][1]:.2f}), {ts['ratio']:.2f}x TorchScript ({ts['spread'][0]:.2f}-"
                  f"{ts['spread'][1]:.2f})")


def report_ratio_lines(x, mine, base):
    """first_and_steady's two lines: each side's seconds (named, keyed), the ratio, its spread
    and the target."""
    for name in ("first", "steady"):
        c = x[name]
        print(f"  {name:6s} {mine[0]} {c[mine[1]]:.3f} s, {base[0]} {c[base[1]]:.3f} s: "
              f"{c['ratio']:.3f}x (spread {c['spread'][0]:.3f}-{c['spread'][1]:.3f}; target <= "
              f"{x['target']}: {mark(c['ratio'] <= x['target'])})")


def report_memory(x):
    print(f"\n13. memory measured: record resnet18 --layers all --save none with --columns "
          f"saved_bytes,peak_bytes against without ({x['batches']} batches of {x['batch_size']} "
          f"at 224x224 per process; median of {x['runs']} rounds, spread min-max)")
    report_ratio_lines(x, ("with", "with_s"), ("without", "without_s"))


def report_torchao(x):
    print(f"\n14. torchao int8 weight-only decoder (~10 M parameters): record --layers all --save "
          f"none against the eager quantized model with statistics hooks, forward+backward "
          f"({x['batches']} sequences of {x['tokens']} tokens per process; median of {x['runs']} "
          f"rounds, spread min-max)")
    report_ratio_lines(x, ("modrec", "pt2_s"), ("eager", "eager_s"))


def report_notes(x):
    print(f"\n12. the notes' cost: record --layers all --save none of a modrec.export archive "
          f"against the plain archive of the same model ({x['batches']} batches of "
          f"{x['batch_size']} per process; median of {x['runs']} rounds, spread min-max)")
    for arch in Bench.NOTES_MODELS:
        for name, c in x[arch].items():
            target = f"; target <= {x['target']}: {mark(c['ratio'] <= x['target'])}" \
                if name == "process_s" else ""
            print(f"  {arch:18s} {name:13s} noted {c['noted']:.3f} s, plain {c['plain']:.3f} s: "
                  f"{c['ratio']:.3f}x (spread {c['spread'][0]:.3f}-{c['spread'][1]:.3f}{target})")


def report_llm(x):
    print(f"\n10. Llama-shaped torch.export archive (~220 M parameters, random weights): record "
          f"--layers all --save none against ep.module() forward+backward in Python ({x['batches']} "
          f"sequences of {x['tokens']} tokens per process, batch 1; median of {x['runs']} rounds, "
          f"spread min-max over rounds)")
    for name in ("first", "steady"):
        c = x[name]
        target = f"; target <= {x['target']}: {mark(c['ratio'] <= x['target'])}" \
            if name == "steady" else ""
        print(f"  {name:6s} .pt2 {c['pt2_s']:.3f} s, Python {c['python_s']:.3f} s: "
              f"{c['ratio']:.2f}x (spread {c['spread'][0]:.2f}-{c['spread'][1]:.2f}{target})")


def report_streaming(st):
    print(f"\n6. streaming: record {st['model']} --layers all --save none --batch-size "
          f"{st['batch_size']} over a memory-mapped .npy of {st['sample_shape']} float32 samples")
    for name in ("small", "large"):
        c = st[name]
        print(f"  {c['gb']:.2f} GB ({c['samples']} samples): peak RSS {c['modrec_rss_kb'] / 1024:.0f} "
              f"MiB (plain {c['plain_rss_kb'] / 1024:.0f} MiB); {c['modrec_samples_per_s']:.0f} "
              f"samples/s against plain LibTorch's {c['plain_process_samples_per_s']:.0f} (whole "
              f"processes; plain's pass alone {c['plain_pass_samples_per_s']:.0f})")
    print(f"  peak RSS large/small: {st['rss_ratio']:.3f} (target <= {st['target']}: "
          f"{mark(st['rss_ratio'] <= st['target'])})")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", required=True, help="Release build dir with models/ in it")
    ap.add_argument("--json", help="also write the results as JSON here")
    ap.add_argument("--summary-runs", type=int, default=3)
    ap.add_argument("--record-runs", type=int, default=5)
    ap.add_argument("--threads", type=int, default=0, help="default: the number of cores")
    ap.add_argument("--device", choices=("cpu", "cuda"), default="cpu")
    ap.add_argument("--only", choices=["flops", "streaming", "watch", "rss", "steady", "pt2", "llm",
                                       "notes", "big", "memory", "torchao"],
                    help="run this section alone")
    ap.add_argument("--stream-gb", type=float, default=8.0,
                    help="size of the large .npy of the streaming section")
    args = ap.parse_args()
    bench = Bench(args)
    os.makedirs(bench.work, exist_ok=True)
    start = time.perf_counter()
    if args.only == "flops":
        res = {"environment": bench.environment(), "flops": bench.flops()}
    elif args.only == "rss":
        res = {"environment": bench.environment(), "rss": bench.peak_rss()}
    elif args.only == "watch":
        res = {"environment": bench.environment(), "watch": bench.watch()}
    elif args.only == "steady":
        res = {"environment": bench.environment(), "steady": bench.steady()}
    elif args.only == "pt2":
        res = {"environment": bench.environment(), "pt2": bench.pt2()}
    elif args.only == "llm":
        res = {"environment": bench.environment(), "llm": bench.llm()}
    elif args.only == "notes":
        res = {"environment": bench.environment(), "notes": bench.notes()}
    elif args.only == "memory":
        res = {"environment": bench.environment(), "memory": bench.memory()}
    elif args.only == "torchao":
        res = {"environment": bench.environment(), "torchao": bench.torchao()}
    elif args.only == "big":
        import big_summary
        rows = big_summary.measure(argparse.Namespace(
            modrec=bench.modrec, work=os.path.join(bench.build, "models-big"),
            gb=sorted(big_summary.SIDE), runs=args.summary_runs, threads=bench.threads))
        big_summary.report(rows)
        res = {"environment": bench.environment(), "big_summary": rows}
        if args.json:
            with open(args.json, "w") as f:
                json.dump(res, f, indent=1)
        return
    elif args.only == "streaming":
        res = {"environment": bench.environment(), "streaming": bench.streaming()}
    else:
        res = {"environment": bench.environment(), "summary": bench.summary(),
               "record": bench.record(), "rss": bench.peak_rss(),
               "stats_kernel": bench.stats_kernel(), "flops": bench.flops(),
               "watch": bench.watch(), "steady": bench.steady(), "pt2": bench.pt2(),
               "llm": bench.llm(), "notes": bench.notes(), "memory": bench.memory(),
               "torchao": bench.torchao()}
    res["elapsed_s"] = time.perf_counter() - start
    report(res)
    print(f"\nbenchmark took {res['elapsed_s']:.0f} s")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(res, f, indent=1)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Issue 48's target, measured: modrec on `.pt2` archives of the unseen zoo (scripts/zoo_models.py)
against PyTorch on the same weights and input.

    MODREC_BUILD_DIR=build python scripts/pt2_zoo.py [--only NAME ...] [--no-captures]

Each model is exported twice, plainly (torch.export.export + save) and by modrec.export (the
archive with notes). Tables: `modrec summary --input X --columns <all>` at depths 1, 3 and 99
against torchinfo 1.8's (scripts/torchinfo_table.py) on both archives. Captures: `modrec record
--layers all` of the noted archive against eager hooks (scripts/oracle.py record), input, output,
grad_input and grad_output, tensor for tensor (rtol 1e-4, atol 1e-5); gradients modrec refuses
and lists under no_gradient (a documented limit of the archive) are counted apart. Prints a line per model and
the totals; a table that differs prints its first differing line, with modrec's warnings."""
import argparse
import os
import shutil
import sys
import tempfile
import time
import warnings

import torch

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [os.path.join(ROOT, d) for d in ("tests", "scripts", "python")]
from e2e import oracle, run  # noqa: E402
from test_pt2_hop import save, torchinfo_table  # noqa: E402
from test_record_oracle import CAPTURES, capture_mismatches, load_json  # noqa: E402
import models  # noqa: E402
import modrec  # noqa: E402
from zoo_models import ZOO_MODELS  # noqa: E402

COLUMNS = "input_size,output_size,num_params,params_percent,kernel_size,mult_adds,trainable"
DEPTHS = ("1", "3", "99")


def export(name, out):
    model, args = models.build(name), models.example_inputs(name)
    plain, noted = os.path.join(out, "plain.pt2"), os.path.join(out, "noted.pt2")
    torch.export.save(torch.export.export(model, args), plain)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        modrec.export(model, args, noted)
    return plain, noted, save(out, "input", args[0])


def first_difference(mine, want):
    for i, (a, b) in enumerate(zip(mine.splitlines(), want.splitlines())):
        if a != b:
            return f"line {i}:\n      modrec:    {a}\n      torchinfo: {b}"
    return "line counts differ"


def tables(name, archive, x):
    """(equal, compared, notes on the first difference)."""
    equal, problems = 0, []
    for depth in DEPTHS:
        args = ("--input", x, "--columns", COLUMNS, "--depth", depth)
        mine, err = run("summary", archive, *args, code=None)
        want = torchinfo_table(name, archive, *args)
        if mine == want:
            equal += 1
        elif not problems:
            problems.append(f"depth {depth}: {first_difference(mine, want)}")
            problems += [f"      {line}" for line in err.splitlines() if line][:4]
    return equal, len(DEPTHS), problems


def captures(name, archive, x):
    """(equal, compared, first problems) over every call's captured tensors."""
    out = tempfile.mkdtemp(prefix="zoo-rec-")
    try:
        mine = os.path.join(out, "run")
        run("record", archive, "--input", x, "--layers", "all", "--capture", ",".join(CAPTURES),
            "--out", mine)
        ref = oracle("record", name, "--weights", archive, "--input", x, "--labels", "all")
        layers = load_json(mine, "manifest.json")["layers"]
        paths = {layer["path"] for layer in layers}
        results = list(capture_mismatches(mine, ref, CAPTURES, paths, rtol=1e-4, atol=1e-5))
        refused = sum("no_gradient" in info for layer in layers
                      for info in layer["captures"].values())
        shutil.rmtree(os.path.dirname(ref), True)
    except AssertionError as e:
        return 0, 1, [str(e).splitlines()[0][:300]]
    finally:
        shutil.rmtree(out, True)
    mismatches = [f"{label} {capture}: {p}" for label, capture, p in results if p]
    notes = [f"{refused} gradient captures refused, listed under no_gradient"] if refused else []
    return len(results) - len(mismatches), len(results), mismatches[:3] + notes


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", nargs="+", default=list(ZOO_MODELS))
    parser.add_argument("--no-captures", action="store_true")
    args = parser.parse_args()
    totals = {key: [0, 0] for key in ("noted tables", "plain tables", "captures")}
    for name in args.only:
        out, start = tempfile.mkdtemp(prefix="zoo-"), time.time()
        try:
            try:
                plain, noted, x = export(name, out)
            except Exception as e:  # a model torch.export refuses is not modrec's to count
                print(f"{name}: not exported ({type(e).__name__}: {str(e).splitlines()[0][:150]})")
                continue
            try:
                results = {"noted tables": tables(name, noted, x),
                           "plain tables": tables(name, plain, x)}
                if not args.no_captures:
                    results["captures"] = captures(name, noted, x)
            except Exception as e:  # the oracle's failure: say so, and go on
                print(f"{name}: the oracle failed ({type(e).__name__}: {str(e)[:150]})")
                continue
            cells = []
            for key, (equal, compared, problems) in results.items():
                totals[key][0] += equal
                totals[key][1] += compared
                cells.append(f"{key} {equal}/{compared}")
            print(f"{name}: {', '.join(cells)} ({time.time() - start:.0f} s)", flush=True)
            for key, (_, _, problems) in results.items():
                for problem in problems:
                    print(f"    {key}: {problem}")
        finally:
            shutil.rmtree(out, True)
    print("total: " + ", ".join(f"{key} {e}/{c}" for key, (e, c) in totals.items() if c))


if __name__ == "__main__":
    main()

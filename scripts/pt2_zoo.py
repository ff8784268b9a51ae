#!/usr/bin/env python3
"""Issue 48's target, measured: modrec on `.pt2` archives of the unseen zoo (scripts/zoo_models.py)
against PyTorch on the same weights and input.

    MODREC_BUILD_DIR=build python scripts/pt2_zoo.py [--only NAME ...] [--no-captures]

Each model is exported twice, plainly (torch.export.export + save) and by modrec.export (the
archive with notes). Tables: `modrec summary --input X --columns <all>` at depths 1, 3 and 99
against torchinfo 1.8's (scripts/torchinfo_table.py) on both archives. Captures: `modrec record
--layers all` of the noted archive against eager hooks (scripts/oracle.py record), input, output,
grad_input and grad_output, tensor for tensor (rtol 1e-4, atol 1e-5); gradients modrec refuses
and lists under no_gradient (a documented limit of the archive) are counted apart. A table that
differs only where modrec's warnings say the archive does not keep what torchinfo shows (a
module's class, keyword arguments, a result's structure: the rows and cells of the modules they
name, and the activations' size) is counted apart as warned. Prints a line per model and the
totals; a table that differs otherwise prints its first differing line and the first
differences no warning said."""
import argparse
import json
import os
import re
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


def warned(err):
    """The module paths modrec's warnings (--log-format json: every path) name, by what they say
    the archive does not keep: a module's class (and an Identity's call), which arguments were
    keywords (Input Shape), a result's structure (Output Shape)."""
    paths = {"class": set(), "Input Shape": set(), "Output Shape": set()}
    for line in err.splitlines():
        message = json.loads(line)["message"]
        listed = set(message.partition("): ")[2].partition("; ")[0].split(", "))
        if "run no operator" in message:
            paths["class"] |= listed
        for column in ("Input Shape", "Output Shape"):
            if f"their {column}" in message:
                paths[column] |= listed
    return paths


def rows_by_path(table, paths):
    """{path: [row's cells, ...]} of a table whose rows are the lines from the fourth on, each
    cut where its header's titles start (a missing row can make the first column narrower), and
    the other lines (header, totals) with the dividers left out."""
    lines = table.splitlines()
    header = lines[1]
    titles = re.split(r"\s{2,}", header.strip())
    starts = [header.index(t) for t in titles] + [None]
    rows = {}
    for path, line in zip(paths, lines[3:]):
        rows.setdefault(path, []).append(
            {t: line[a:b].strip() for t, a, b in zip(titles, starts, starts[1:])})
    rest = [line for line in lines[:3] + lines[3 + len(paths):] if line.strip("=")]
    return rows, rest


def unwarned(mine, mine_paths, want, want_paths, said):
    """The differences between modrec's table and torchinfo's that no warning said (`said`:
    warned()'s): a row missing or added, a cell differing, a total."""
    mine_rows, mine_rest = rows_by_path(mine, mine_paths)
    want_rows, want_rest = rows_by_path(want, want_paths)
    out = []
    for path in dict.fromkeys(want_paths + mine_paths):
        got, expected = mine_rows.get(path, []), want_rows.get(path, [])
        if len(got) != len(expected) and path not in said["class"]:
            out.append(f"{path}: {len(got)} rows, torchinfo {len(expected)}")
        for a, b in zip(got, expected):
            for title, theirs in b.items():
                cell = a.get(title)
                if title.startswith("Layer"):  # the class; depth-idx shifts with a missing row
                    cell, theirs = (re.sub(r"^[│├└─ ]*", "", c or "").split(":")[0]
                                    for c in (cell, theirs))
                    warned_here = path in said["class"]
                else:
                    warned_here = path in said.get(title, ())
                if cell != theirs and not warned_here:
                    out.append(f"{path}: {title} {cell}, torchinfo {theirs}")
    # A missing Identity's output, a result sized by another tensor: the activations' total.
    sizes = ("Forward/backward pass size", "Estimated Total Size")
    for a, b in zip(mine_rest, want_rest):
        if a.split() != b.split() and not (any(said.values()) and a.startswith(sizes)):
            out.append(f"{a} | torchinfo {b}")
    return out


def tables(name, archive, x, out):
    """(equal, compared, notes on the first difference, warned): a table that differs only where
    a warning says the archive does not keep what torchinfo shows is warned."""
    equal, warned_only, problems = 0, 0, []
    row_paths = os.path.join(out, "rows.json")
    for depth in DEPTHS:
        args = ("--input", x, "--columns", COLUMNS, "--depth", depth)
        mine, err = run("--log-format", "json", "summary", archive, *args, code=None)
        want = torchinfo_table(name, archive, *args, "--row-paths", row_paths)
        if mine == want:
            equal += 1
            continue
        want_paths = load_json(out, "rows.json")["paths"]
        rows = json.loads(run("summary", archive, *args, "--format", "json")[0])["rows"]
        mine_paths = [r["path"] for r in rows if r["depth"] <= int(depth)]  # the printed rows
        left = unwarned(mine, mine_paths, want, want_paths, warned(err))
        if not left:
            warned_only += 1
        elif not problems:
            problems.append(f"depth {depth}: {first_difference(mine, want)}")
            problems += [f"      not warned: {d}" for d in left[:4]]
    return equal, len(DEPTHS), problems, warned_only


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


def with_warned(count):
    return f" (+{count} differing only where a warning says)" if count else ""


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", nargs="+", default=list(ZOO_MODELS))
    parser.add_argument("--no-captures", action="store_true")
    args = parser.parse_args()
    totals = {key: [0, 0, 0] for key in ("noted tables", "plain tables", "captures")}
    for name in args.only:
        out, start = tempfile.mkdtemp(prefix="zoo-"), time.time()
        try:
            try:
                plain, noted, x = export(name, out)
            except Exception as e:  # a model torch.export refuses is not modrec's to count
                print(f"{name}: not exported ({type(e).__name__}: {str(e).splitlines()[0][:150]})")
                continue
            try:
                results = {"noted tables": tables(name, noted, x, out),
                           "plain tables": tables(name, plain, x, out)}
                if not args.no_captures:
                    results["captures"] = captures(name, noted, x) + (0,)
            except Exception as e:  # the oracle's failure: say so, and go on
                print(f"{name}: the oracle failed ({type(e).__name__}: {str(e)[:150]})")
                continue
            cells = []
            for key, (equal, compared, _, warned_only) in results.items():
                totals[key] = [t + n for t, n in zip(totals[key], (equal, compared, warned_only))]
                cells.append(f"{key} {equal}/{compared}" + with_warned(warned_only))
            print(f"{name}: {', '.join(cells)} ({time.time() - start:.0f} s)", flush=True)
            for key, (_, _, problems, _) in results.items():
                for problem in problems:
                    print(f"    {key}: {problem}")
        finally:
            shutil.rmtree(out, True)
    print("total: " + ", ".join(f"{key} {e}/{c}{with_warned(w)}"
                                for key, (e, c, w) in totals.items() if c))


if __name__ == "__main__":
    main()

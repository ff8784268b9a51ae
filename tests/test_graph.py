"""modrec graph: the edges between module calls equal the data flow eager PyTorch shows
(scripts/graph_oracle.py: forward hooks and a TorchDispatchMode naming tensors by storage and
version, an independent method), folded to --depth the way docs/graph.md says; DOT parses with
Graphviz, SVG is well-formed XML; labels are summary's; errors follow the contract.
"""
import json
import os
import shutil
import subprocess
import tempfile
import unittest
import xml.etree.ElementTree as ET

import e2e
from e2e import SAMPLES, main, run, sample, tensor_file

ALL = "99"  # a depth beyond every model's: every atomic call is a node


def oracle(name, inputs):
    with tempfile.TemporaryDirectory(prefix="graph-oracle-") as tmp:
        out = os.path.join(tmp, "graph.json")
        e2e.run_script("graph_oracle", name, "--out", out,
                       *[a for f in inputs for a in ("--input", f)])
        with open(out) as f:
            return json.load(f)


def graph_json(model, inputs, depth=ALL, *extra):
    args = [a for f in inputs for a in ("--input", f)]
    stdout, _ = run("graph", model, *args, "--depth", depth, "--format", "json", *extra)
    return json.loads(stdout)


def end(node):
    """A node as the oracle names the ends: input:I, call:C, output:J."""
    return f"call:{node['call']}" if node["kind"] == "call" else f"{node['kind']}:{node['index']}"


def edges(graph):
    ends = {n["id"]: end(n) for n in graph["nodes"]}
    return {(ends[e["from"]], ends[e["to"]]) for e in graph["edges"]}


def fold(expected, depth):
    """The oracle's edges drawn at `depth` (docs/graph.md): a call deeper than depth as its ancestor at
    depth; edges inside one node dropped."""
    calls = expected["calls"]

    def shown(e):
        if not e.startswith("call:"):
            return e
        c = int(e[5:])
        chain = [c]
        while calls[chain[-1]]["parent"] >= 0:
            chain.append(calls[chain[-1]]["parent"])
        chain.reverse()  # root first: chain[d] is the ancestor at depth d
        return f"call:{chain[min(depth, len(chain) - 1)]}"

    return {(shown(a), shown(b)) for a, b in expected["edges"] if shown(a) != shown(b)}


class GraphCase(unittest.TestCase):
    def compare(self, name, inputs, model=None):
        """modrec's edges at every depth equal the oracle's; returns (modrec's graph, oracle's).
        `model`: the file modrec reads (default: the sample's TorchScript file)."""
        expected = oracle(name, inputs)
        model = model or sample(name)
        mine = graph_json(model, inputs)
        for n in mine["nodes"]:  # the same call numbers: the calls start in the same order
            if n["kind"] == "call":
                c = expected["calls"][n["call"]]
                self.assertEqual((n["path"], n["type"]), (c["path"], c["type"]))
        self.assertEqual(edges(mine), {tuple(e) for e in expected["edges"]})
        for depth in (0, 1, 2):
            self.assertEqual(edges(graph_json(model, inputs, str(depth))),
                             fold(expected, depth), f"depth {depth}")
        return mine, expected


class AgainstEager(GraphCase):
    def test_resnet18_skip_connections_and_downsample(self):
        mine, _ = self.compare("resnet18", [tensor_file((1, 3, 64, 64))])
        by_path = {}
        for n in mine["nodes"]:
            if n["kind"] == "call":
                by_path.setdefault(n["path"], []).append(f"call:{n['call']}")
        found = edges(mine)
        # layer1.0: `out += identity; relu(out)`: the block's second relu call reads bn2 and
        # the maxpool output (the skip connection)
        relu2 = by_path["layer1.0.relu"][1]
        self.assertIn((by_path["layer1.0.bn2"][0], relu2), found)
        self.assertIn((by_path["maxpool"][0], relu2), found)
        # layer2.0: the downsample branch, from the previous block's output into the sum
        relu2 = by_path["layer2.0.relu"][1]
        self.assertIn((by_path["layer2.0.downsample.1"][0], relu2), found)
        self.assertIn((by_path["layer1.1.relu"][1], by_path["layer2.0.downsample.0"][0]), found)
        # the root's flatten is folded into avgpool -> fc
        self.assertIn((by_path["avgpool"][0], by_path["fc"][0]), found)

    def test_custom_model(self):
        # integer tokens, cat, an in-place skip, a module called twice, two outputs
        mine, _ = self.compare("BranchNet", [sample("BranchNet", "input.pt")])
        self.assertEqual(sum(n["kind"] == "input" for n in mine["nodes"]), 2)
        self.assertEqual(sum(n["kind"] == "output" for n in mine["nodes"]), 2)

    def test_samples(self):
        for name in ["TinyConvNet", "ModuleListNet", "TwoInputNet", "ReusedModuleNet",
                     "MultiOutputNet", "MultiOutputDictNet", "SeqClassifier", "SimpleRNN",
                     "ContainerModule"]:
            with self.subTest(name):
                self.compare(name, [os.path.join(SAMPLES, name + ".input.pt")])

    def test_in_place_op_on_a_returned_view_known_difference(self):
        """docs/graph.md: after an in-place op on a view a call returned (AliasingNet's `z.mul_(3)` on
        Flatten's output) autograd routes around the view, so the edge into the next call starts
        where the view's base came from (ident), where eager data flow says flat."""
        inputs = [os.path.join(SAMPLES, "AliasingNet.input.pt")]
        expected = {tuple(e) for e in oracle("AliasingNet", inputs)["edges"]}
        mine = edges(graph_json(sample("AliasingNet"), inputs))
        self.assertEqual(mine - expected, {("call:2", "call:4")})
        self.assertEqual(expected - mine, {("call:3", "call:4")})


class Formats(unittest.TestCase):
    MODEL = os.path.join(SAMPLES, "TinyConvNet.pt")
    INPUT = os.path.join(SAMPLES, "TinyConvNet.input.pt")

    @unittest.skipUnless(shutil.which("dot"), "Graphviz's dot is not installed")
    def test_dot_parses_and_svg_is_xml(self):
        dot, _ = run("graph", self.MODEL, "--input", self.INPUT, "--params")
        p = subprocess.run(["dot", "-Tsvg"], input=dot, capture_output=True, text=True)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(p.stderr, "")
        svg, _ = run("graph", self.MODEL, "--input", self.INPUT, "--format", "svg")
        root = ET.fromstring(svg)
        self.assertEqual(root.tag, "{http://www.w3.org/2000/svg}svg")
        ns = {"s": "http://www.w3.org/2000/svg"}
        kinds = [g.get("class") for g in root.iter("{http://www.w3.org/2000/svg}g")]
        mine = graph_json(self.MODEL, [self.INPUT], "3")
        self.assertEqual(kinds.count("node"), len(mine["nodes"]))
        self.assertEqual(kinds.count("edge"), len(mine["edges"]))
        self.assertEqual(kinds.count("cluster"), len(mine["clusters"]))
        self.assertIn("2-1 Conv2d", "".join(root.itertext()))
        self.assertTrue(root.findall(".//s:title", ns))

    def test_labels_are_summary_labels_with_shapes_and_params(self):
        summary, _ = run("summary", self.MODEL, "--input", self.INPUT, "--format", "json")
        rows = {r["call"]: r for r in json.loads(summary)["rows"] if r.get("call") is not None}
        mine = graph_json(self.MODEL, [self.INPUT])
        for n in mine["nodes"]:
            if n["kind"] == "call":
                row = rows[n["call"]]
                self.assertEqual((n["label"], n["type"], n["path"], n["output_size"]),
                                 (row["label"], row["type"], row["path"], row["output_size"]))
        dot, _ = run("graph", self.MODEL, "--input", self.INPUT, "--params")
        self.assertIn('c2 [label="2-1 Conv2d\\n[2, 8, 16, 16]\\n224 params", tooltip="features.0"];',
                      dot)
        self.assertIn('subgraph cluster_1 {', dot)
        plain, _ = run("graph", self.MODEL, "--input", self.INPUT)
        self.assertNotIn("params", plain)

    def test_without_input_the_static_structure(self):
        mine = json.loads(run("graph", self.MODEL, "--format", "json")[0])
        self.assertFalse(mine["has_input"])
        self.assertTrue(mine["static_order"])
        calls = [n for n in mine["nodes"] if n["kind"] == "call"]
        self.assertEqual([n["path"] for n in calls],
                         [f"features.{i}" for i in range(7)] + ["pool", "classifier"])
        self.assertTrue(all(n["output_size"] is None for n in calls))
        chain = ["in0"] + [n["id"] for n in calls] + ["out0"]
        self.assertEqual([(e["from"], e["to"]) for e in mine["edges"]], list(zip(chain, chain[1:])))
        self.assertIn("style=dashed", run("graph", self.MODEL)[0])

    def test_help_has_an_example(self):
        out, _ = run("graph", "--help")
        self.assertIn("modrec graph model.pt", out)


class Errors(unittest.TestCase):
    MODEL = os.path.join(SAMPLES, "TinyConvNet.pt")

    def fails(self, code, *args, words=(), env=None):
        _, err = run("graph", self.MODEL, *args, code=code, env=env)
        self.assertEqual(len(err.strip().splitlines()), 1, err)
        self.assertRegex(err, r"^modrec: error: ")
        for w in words:
            self.assertIn(w, err)

    def test_bad_format(self):
        self.fails(2, "--format", "png", words=["--format"])

    def test_bad_depth(self):
        self.fails(2, "--depth", "-1", words=["--depth", "[0, 1000]"])
        self.fails(2, "--depth", "two", words=["--depth"])

    def test_missing_dot(self):
        empty = tempfile.mkdtemp(prefix="no-dot-")
        self.fails(2, "--format", "svg", env={"PATH": empty},
                   words=["Graphviz", "--format svg", "apt-get install graphviz"])
        os.rmdir(empty)

    def test_failing_dot(self):
        bin_dir = tempfile.mkdtemp(prefix="bad-dot-")
        fake = os.path.join(bin_dir, "dot")
        with open(fake, "w") as f:
            f.write("#!/bin/sh\necho 'Error: layout failed' >&2\nexit 1\n")
        os.chmod(fake, 0o755)
        self.fails(5, "--format", "svg", env={"PATH": bin_dir}, words=["layout failed"])
        shutil.rmtree(bin_dir)

    def test_model_failing(self):
        self.fails(4, "--input-size", "2x5", words=["Conv2d"])


if __name__ == "__main__":
    main()

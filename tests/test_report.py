"""modrec report: the page of a record run, a watch run and two runs side by side, opened in
headless Chromium (Debian's chromium): no console errors after its scripts ran, each chart holds
one mark per recorded layer (counted in the DOM Chromium dumps), every mark's layer has a table
row and statistics, and a screenshot shows the scale plot's marks drawn."""
import html.parser
import json
import os
import shutil
import subprocess
import tempfile
import unittest

from e2e import SAMPLES, run, main

try:
    from PIL import Image
except ImportError:  # the oracle venv has it (torchvision's dependency)
    Image = None

CHROMIUM = shutil.which("chromium")


def chromium(*args):
    return subprocess.run([CHROMIUM, "--headless", "--disable-gpu", "--no-sandbox",
                           "--enable-logging=stderr", "--v=0", *args],
                          capture_output=True, text=True, timeout=120)


def console_errors(stderr):
    """Chromium's console lines that report an error (uncaught exceptions, console.error)."""
    return [l for l in stderr.splitlines()
            if ":CONSOLE" in l and ("Uncaught" in l or "Error" in l or ":ERROR:CONSOLE" in l)]


class Marks(html.parser.HTMLParser):
    """Every element with data-chart: (chart, layer) pairs; ids; table rows' layers."""

    def __init__(self):
        super().__init__()
        self.marks, self.ids, self.rows = [], set(), []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "data-chart" in a:
            self.marks.append((a["data-chart"], a.get("data-series"), a["data-layer"]))
        if "id" in a:
            self.ids.add(a["id"])
        if tag == "tr" and "data-layer" in a:
            self.rows.append(a["data-layer"])


@unittest.skipUnless(CHROMIUM, "chromium is not installed (scripts/setup.sh installs it)")
class ReportInChromium(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.mkdtemp(prefix="report-")

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.dir)

    def path(self, name):
        return os.path.join(self.dir, name)

    def render(self, page):
        """The DOM after the page's scripts ran, parsed; asserts no console error."""
        p = chromium("--dump-dom", "file://" + page)
        self.assertEqual(p.returncode, 0, p.stderr[-2000:])
        self.assertEqual(console_errors(p.stderr), [], page)
        marks = Marks()
        marks.feed(p.stdout)
        return marks

    def test_the_console_check_can_fail(self):
        page = self.path("broken.html")
        with open(page, "w") as f:
            f.write("<html><body><script>notDefined();</script></body></html>")
        self.assertNotEqual(console_errors(chromium("--dump-dom", "file://" + page).stderr), [])

    def record(self, out, *extra):
        run("record", f"{SAMPLES}/TinyConvNet.pt", "--input", f"{SAMPLES}/TinyConvNet.input.pt",
            "--layers", "all", "--save", "none", "--out", self.path(out), *extra)
        with open(self.path(out + "/stats.json")) as f:
            return json.load(f)["layers"]

    def check_charts(self, marks, layers, prefix="r0-"):
        labels = [l["label"] for l in layers]
        with_output = [l["label"] for l in layers if l["captures"].get("output")]
        with_grad = [l["label"] for l in layers if l["captures"].get("grad_output")]
        scale = [(s, l) for c, s, l in marks.marks if c == "scale"]
        self.assertEqual([l for s, l in scale if s == "output std"], with_output)
        self.assertEqual([l for s, l in scale if s == "output abs_max"], with_output)
        self.assertEqual([l for s, l in scale if s == "grad_output std"], with_grad)
        self.assertEqual([l for c, s, l in marks.marks if c == "heatmap"], with_output)
        for label in labels:  # each layer links to its row and its statistics
            self.assertIn(prefix + "layer-" + label, marks.ids)
            self.assertIn(prefix + "stats-" + label, marks.ids)
        self.assertEqual(sorted(set(marks.rows)), sorted(labels))

    def test_a_record_run(self):
        layers = self.record("rec")
        page = self.path("rec.html")
        run("report", self.path("rec"), "--out", page)
        self.check_charts(self.render(page), layers)

    @unittest.skipUnless(Image, "PIL is missing")
    def test_the_screenshot_shows_the_scale_plot(self):
        layers = self.record("shot")
        page, png = self.path("shot.html"), self.path("shot.png")
        run("report", self.path("shot"), "--out", page)
        p = chromium(f"--screenshot={png}", "--window-size=1000,800", "--hide-scrollbars",
                     "file://" + page)
        self.assertEqual(p.returncode, 0, p.stderr[-2000:])
        image = Image.open(png).convert("RGB")
        # The output-std marks are #1f77b4: each layer's circle covers ~30 pixels.
        blue = sum(1 for px in image.getdata()
                   if abs(px[0] - 0x1f) < 12 and abs(px[1] - 0x77) < 12 and abs(px[2] - 0xb4) < 12)
        self.assertGreater(blue, 10 * len(layers))
        colors = len(set(image.getdata()))
        self.assertGreater(colors, 20)  # not a blank page

    def test_a_watch_run_has_lines_over_steps(self):
        out = self.path("watch")
        run("watch", f"{SAMPLES}/TinyConvNet.pt", "--input", f"{SAMPLES}/TinyConvNet.input.pt",
            "--loss", "mean", "--optimizer", "sgd", "--lr", "0.01", "--steps", "3", "--layers", "all",
            "--capture", "output,grad_output,param_grad,update", "--out", out)
        with open(os.path.join(out, "steps.jsonl")) as f:
            rows = [json.loads(l) for l in f]
        labels = list(dict.fromkeys(r["label"] for r in rows))
        page = self.path("watch.html")
        run("report", out, "--out", page)
        marks = self.render(page)
        for capture in ("output", "grad_output", "param_grad", "update"):  # one line per layer
            want = list(dict.fromkeys(r["label"] for r in rows if r["capture"] == capture))
            self.assertTrue(want, capture)
            self.assertEqual([l for c, s, l in marks.marks if c == "steps" and s == capture], want)
        self.assertEqual(sorted(set(marks.rows)), sorted(labels))

    def test_two_runs_side_by_side(self):
        a, b = self.record("a"), self.record("b", "--capture", "output")
        page = self.path("ab.html")
        run("report", self.path("a"), self.path("b"), "--out", page)
        marks = self.render(page)
        self.assertIn("r0-layer-" + a[0]["label"], marks.ids)
        self.assertIn("r1-layer-" + b[0]["label"], marks.ids)
        heat = [l for c, s, l in marks.marks if c == "heatmap"]
        self.assertEqual(len(heat), len(a) + len(b))

    def test_errors(self):
        _, err = run("report", self.path("missing"), code=3)
        self.assertIn("missing", err)
        _, err = run("report", self.dir, self.dir, self.dir, code=2)


if __name__ == "__main__":
    main()

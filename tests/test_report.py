"""modrec report: the page of a record run, a watch run and two runs side by side, opened in
headless Chromium (Debian's chromium): no console errors after its scripts ran, each chart holds
one mark per recorded layer (counted in the DOM Chromium dumps), every mark's layer has a table
row and statistics, the table's values are stats.json's, and a screenshot shows the scale plot's
marks drawn. At 1280 and 1920 px wide (a ResNet-50's 183 calls, a watch run): the charts take the
page's width, no two text labels' boxes meet (measured in the DOM), every series is in a legend;
the ResNet-50 page stays under 600 KB."""
import html.parser
import json
import os
import shutil
import subprocess
import tempfile
import unittest

from e2e import SAMPLES, run, main, sample

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
    """Every element with data-chart: (chart, series, layer); ids; table rows' layers and cells;
    the text of #layout (what LAYOUT measured)."""

    def __init__(self):
        super().__init__()
        self.marks, self.ids, self.rows, self.cells = [], set(), [], []
        self.values = []  # (series, layer, data-value) of the marks that carry their value
        self.layout, self.in_layout, self.in_cell = "", False, False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "data-chart" in a:
            self.marks.append((a["data-chart"], a.get("data-series"), a.get("data-layer")))
            if "data-value" in a:
                self.values.append((a["data-series"], a["data-layer"], a["data-value"]))
        if "id" in a:
            self.ids.add(a["id"])
        if tag == "tr" and "data-layer" in a:
            self.rows.append(a["data-layer"])
            self.cells.append([])
        if a.get("id") == "layout":
            self.in_layout = True
        if tag == "td" and self.cells:
            self.in_cell = True
            self.cells[-1].append("")

    def handle_endtag(self, tag):
        if tag == "td":
            self.in_cell = False
        if tag == "pre":
            self.in_layout = False

    def handle_data(self, data):
        if self.in_layout:
            self.layout += data
        elif self.in_cell:
            self.cells[-1][-1] += data


# Appended to a page: measures, after the page's script drew it, each figure's text labels
# (SVG text and legend items) for boxes that meet, the series its marks draw that its legend
# lacks, and how wide its chart is; writes them as JSON into #layout for --dump-dom.
LAYOUT = """<script>
(function () {
  function meet(a, b) {
    return a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
  }
  var out = {width: window.innerWidth, figures: []};
  document.querySelectorAll('.figure').forEach(function (fig) {
    var labels = Array.from(fig.querySelectorAll('svg text, .legend .item'));
    var boxes = labels.map(function (t) { return t.getBoundingClientRect(); });
    var meeting = [];
    for (var i = 0; i < boxes.length; i++)
      for (var j = i + 1; j < boxes.length; j++)
        if (meet(boxes[i], boxes[j])) meeting.push([labels[i].textContent, labels[j].textContent]);
    var key = function (e) {
      return e.dataset.series + (e.dataset.chart === 'steps' ? ' ' + e.dataset.layer : '');
    };
    var legend = new Set(Array.from(fig.querySelectorAll('.legend .item')).map(function (e) {
      return e.dataset.series + (e.dataset.layer !== undefined ? ' ' + e.dataset.layer : '');
    }));
    var series = Array.from(new Set(Array.from(fig.querySelectorAll('[data-chart]')).map(key)));
    out.figures.push({title: fig.querySelector('h3').textContent, labels: labels.length,
                      meeting: meeting, series: series.length,
                      missing: series.filter(function (s) { return !legend.has(s); }),
                      chart: fig.querySelector('svg').getBoundingClientRect().width,
                      page: document.body.clientWidth});
  });
  var pre = document.createElement('pre');
  pre.id = 'layout';
  pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
})();
</script>"""

# Appended to a page: how many layers the first run's scale plot (output std marks) and table
# (rows shown) show at first, with "layer3" in the filter, after a drag across the plot's second
# quarter, and after a double-click; as JSON into #layout.
INTERACT = """<script>
(function () {
  function shown() {
    return {marks: document.querySelectorAll('[data-chart=scale][data-series="output std"]').length,
            rows: Array.from(document.querySelectorAll('tbody tr')).filter(function (r) {
              return r.style.display !== 'none'; }).length};
  }
  function filter(text) {
    var box = document.querySelector('input.filter');
    box.value = text;
    box.dispatchEvent(new Event('input'));
  }
  function mouse(type, at) {
    var chart = document.querySelector('svg.scale-plot'), r = chart.getBoundingClientRect();
    chart.dispatchEvent(new MouseEvent(type, {clientX: r.left + at * r.width, clientY: r.top + 50,
                                              bubbles: true}));
  }
  var out = {all: shown()};
  filter('layer3');
  out.filtered = shown();
  filter('');
  mouse('mousedown', 0.25);
  mouse('mousemove', 0.5);
  mouse('mouseup', 0.5);
  out.zoomed = shown();
  mouse('dblclick', 0.5);
  out.unzoomed = shown();
  var pre = document.createElement('pre');
  pre.id = 'layout';
  pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
})();
</script>"""

# Appended to a page: the first run's scale plot's marks of a value of exactly 0 (series, layer,
# their top edge), the lowest bottom edge of its shaded bands, and its legend's "zero" items; as
# JSON into #layout.
ZEROS = """<script>
(function () {
  var chart = document.querySelector('svg.scale-plot');
  var out = {bands: Math.max.apply(null, Array.from(chart.querySelectorAll('rect.bf16, rect.fp16, rect.fp16-sub'))
                 .map(function (r) { return r.getBoundingClientRect().bottom; })),
             marks: Array.from(chart.querySelectorAll('.mark.zero')).map(function (m) {
               return [m.dataset.series, m.dataset.layer, m.getBoundingClientRect().top]; }),
             legend: Array.from(document.querySelectorAll('.legend .item')).filter(function (i) {
               return i.dataset.series === 'zero'; }).map(function (i) { return i.textContent; })};
  var pre = document.createElement('pre');
  pre.id = 'layout';
  pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
})();
</script>"""


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

    def render(self, page, width=1280):
        """The DOM after the page's scripts ran, parsed; asserts no console error."""
        p = chromium("--dump-dom", f"--window-size={width},900", "file://" + page)
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

    def check_values(self, marks, layers):
        """Each table row shows its tensor's stats.json values (to the 4 digits it prints)."""
        want = {(l["label"], capture, str(t.get("name", t["tensor"]))): (l, t)
                for l in layers for capture, tensors in l["captures"].items() for t in tensors}
        self.assertEqual(len(marks.cells), len(want))
        for cells in marks.cells:
            label, path, type_, capture, tensor, shape, *values = cells
            layer, t = want[(label, capture, tensor)]
            self.assertEqual((path, type_, shape),
                             (layer["path"], layer["type"], "x".join(map(str, t["shape"]))))
            for cell, key in zip(values, ("mean", "std", "abs_max", "zero_fraction")):
                if t[key] is None:
                    self.assertEqual(cell, "")
                else:
                    self.assertAlmostEqual(float(cell), t[key], delta=5e-4 * abs(t[key]))
            self.assertEqual(values[4:], [str(t["nan_count"]), str(t["inf_count"])])

    def measure(self, page, script, width=1280):
        """What `script`, appended to the page, wrote into #layout after the page's script ran."""
        measured = self.path(f"{os.path.basename(page)}-{width}.html")
        with open(page) as f, open(measured, "w") as out:
            out.write(f.read().replace("</body>", script + "</body>"))
        return json.loads(self.render(measured, width).layout)

    def check_layout(self, page, width):
        """The page at `width` px, measured by LAYOUT: labels apart, every series in a legend,
        charts as wide as the page."""
        layout = self.measure(page, LAYOUT, width)
        self.assertEqual(layout["width"], width)
        self.assertTrue(layout["figures"])
        for fig in layout["figures"]:
            self.assertEqual(fig["meeting"], [], (width, fig["title"]))
            self.assertEqual(fig["missing"], [], (width, fig["title"]))
            self.assertGreater(fig["series"], 0, fig["title"])
            self.assertGreater(fig["chart"], 0.95 * fig["page"], (width, fig["title"]))
        return layout

    def test_a_record_run(self):
        layers = self.record("rec")
        # The run's kind is its manifest's: a stray steps.jsonl makes it no watch run.
        with open(self.path("rec/steps.jsonl"), "w") as f:
            f.write("not a step row\n")
        page = self.path("rec.html")
        run("report", self.path("rec"), "--out", page)
        marks = self.render(page)
        self.check_charts(marks, layers)
        self.check_values(marks, layers)
        layout = self.check_layout(page, 1280)
        self.assertNotIn("Memory per layer (MB, measured)", [f["title"] for f in layout["figures"]])

    def test_a_resnet50_with_every_call(self):
        out = self.path("resnet50")
        run("record", sample("resnet50"), "--input", sample("resnet50.input"), "--layers", "all",
            "--save", "none", "--out", out)
        with open(os.path.join(out, "stats.json")) as f:
            layers = json.load(f)["layers"]
        self.assertGreaterEqual(len(layers), 177)  # 183: the root and containers are calls too
        page = self.path("resnet50.html")
        run("report", out, "--out", page)
        self.assertLessEqual(os.path.getsize(page), 600 * 1024)
        marks = self.render(page)
        self.check_charts(marks, layers)
        self.check_values(marks, layers)
        for width in (1280, 1920):
            self.check_layout(page, width)
        self.check_filter_and_zoom(page, layers)

    def check_filter_and_zoom(self, page, layers):
        """The filter and a drag across the scale plot narrow the charts and the table."""
        shown = self.measure(page, INTERACT)
        everything = {"marks": len(layers), "rows": sum(
            len(ts) for l in layers for ts in l["captures"].values())}
        self.assertEqual(shown["all"], everything)
        layer3 = [l for l in layers if "layer3" in f"{l['label']} {l['path']} {l['type']}".lower()]
        self.assertEqual(shown["filtered"], {"marks": len(layer3), "rows": sum(
            len(ts) for l in layer3 for ts in l["captures"].values())})
        self.assertLess(0.15 * len(layers), shown["zoomed"]["marks"])
        self.assertLess(shown["zoomed"]["marks"], 0.35 * len(layers))
        self.assertEqual(shown["unzoomed"], everything)

    @unittest.skipUnless(Image, "PIL is missing")
    def test_measured_memory_is_plotted_per_layer(self):
        # record --columns saved_bytes,peak_bytes: a bar per layer and figure, of stats.json's
        # bytes; a run without the columns has no memory figure (test_a_record_run's layout).
        layers = self.record("mem", "--columns", "saved_bytes,peak_bytes")
        page = self.path("mem.html")
        run("report", self.path("mem"), "--out", page)
        marks = self.render(page)
        want = [(figure, l["label"], str(l["memory"][figure]))
                for figure in ("saved_bytes", "peak_forward_bytes", "peak_backward_bytes")
                for l in layers]
        self.assertEqual(marks.values, want)
        titles = [f["title"] for f in self.check_layout(page, 1280)["figures"]]
        self.assertIn("Memory per layer (MB, measured)", titles)

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
        for width in (1280, 1920):
            titles = [f["title"] for f in self.check_layout(page, width)["figures"]]
            self.assertIn("Loss per step (log2)", titles)
            self.assertIn("update std over steps (log2)", titles)

    def test_a_std_of_zero_is_below_the_bands_and_named(self):
        # 1-1's output zeroed: 1-2's output is zeros (std and abs_max 0); the root's grad_output,
        # the ones of a sum loss, has a std of 0.
        layers = self.record("zero", "--edit", "1-1=zero")
        want = sorted([capture + " " + field, l["label"]]
                      for l in layers for capture in ("output", "grad_output")
                      if l["captures"].get(capture)
                      for field in ("std", "abs_max")
                      if l["captures"][capture][0][field] == 0)
        self.assertIn(["output std", "1-2"], want)
        self.assertIn(["grad_output std", "0-1"], want)
        page = self.path("zero.html")
        run("report", self.path("zero"), "--out", page)
        got = self.measure(page, ZEROS)
        self.assertEqual(sorted([s, l] for s, l, _ in got["marks"]), want)
        for series, layer, top in got["marks"]:  # below every band: not inside float16 subnormal
            self.assertGreater(top, got["bands"], (series, layer))
        self.assertEqual(len(got["legend"]), 1)
        self.assertIn("exactly 0", got["legend"][0])
        self.check_layout(page, 1280)
        self.record("nonzero", "--capture", "output")  # no 0: no such row, no such legend item
        run("report", self.path("nonzero"), "--out", self.path("nonzero.html"))
        self.assertEqual(self.measure(self.path("nonzero.html"), ZEROS)["legend"], [])

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

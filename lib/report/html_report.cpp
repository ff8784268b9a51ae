#include "report/html_report.h"

#include <cmath>
#include <sstream>

#include "report/svg_charts.h"
#include "rundir/stats_files.h"

namespace modrec {
namespace {

using nlohmann::json;

const char* const kStyle = R"(
body{font:14px/1.4 system-ui,sans-serif;margin:16px;color:#222}
.runs{display:grid;gap:24px}.runs.two{grid-template-columns:1fr 1fr}
.chart{max-width:100%;height:auto;background:#fff;border:1px solid #ddd}
.grid{stroke:#eee}.tick,.band-label,.axis-label{font-size:10px;fill:#555}
.fp16{fill:rgba(80,160,255,.15)}.fp16-sub{fill:rgba(80,160,255,.07)}.bf16{fill:rgba(255,170,60,.10)}
.mark.s0{fill:#1f77b4}.mark.s1{fill:#aec7e8}.mark.s2{fill:#d62728}.mark.s3{fill:#ff9896}
.mark.bad{fill:#f00;stroke:#000}.line{fill:none;stroke-width:1.5}.line.loss{stroke-width:2}
table{border-collapse:collapse;font-size:12px}td,th{border:1px solid #ddd;padding:2px 6px;text-align:right}
td.t,th.t{text-align:left}tr.nonfinite{background:#fdd}tr.dead{background:#ffd}tr.hl{outline:2px solid #36c}
.flag{color:#b00}pre{font-size:11px;max-height:300px;overflow:auto}.legend span{margin-right:12px}
)";

// Hovering a chart's mark outlines its layer's table rows; the filter box hides other rows.
const char* const kScript = R"(
document.querySelectorAll('[data-layer]').forEach(function (m) {
  var run = m.closest('.run');
  function rows() { return run.querySelectorAll('tr[data-layer="' + m.dataset.layer + '"]'); }
  m.addEventListener('mouseenter', function () { rows().forEach(function (r) { r.classList.add('hl'); }); });
  m.addEventListener('mouseleave', function () { rows().forEach(function (r) { r.classList.remove('hl'); }); });
});
document.querySelectorAll('input.filter').forEach(function (box) {
  box.addEventListener('input', function () {
    var text = box.value.toLowerCase();
    box.closest('.run').querySelectorAll('tbody tr').forEach(function (r) {
      r.style.display = r.textContent.toLowerCase().indexOf(text) < 0 ? 'none' : '';
    });
  });
});
)";

// An undefined statistic (NaN: no finite value) is an empty cell.
std::string cell(double v) {
  if (std::isnan(v)) return "<td></td>";
  std::ostringstream s;
  s.precision(4);
  s << "<td>" << v << "</td>";
  return s.str();
}

bool nonfinite(const RunTensor& t) { return t.stats.nan_count() + t.stats.inf_count() > 0; }

// NaN compares false: an undefined statistic never makes a layer dead.
bool dead(const RunTensor& t, const DeadLayerRule& rule) {
  return t.stats.zero_fraction() >= rule.zero_fraction || t.stats.std() <= rule.min_std;
}

struct Flags {
  std::vector<std::string> nonfinite, dead;  // labels
};

Flags flags_of(const ReportRun& run, const DeadLayerRule& rule) {
  Flags f;
  for (const auto& layer : run.layers) {
    bool bad = false;
    for (const RunCapture& c : layer.captures)
      for (const auto& t : c.tensors) bad = bad || nonfinite(t);
    if (bad) f.nonfinite.push_back(layer.ref.label);
    const RunCapture* out = layer.capture("output");
    if (out && !out->tensors.empty() && dead(out->tensors.front(), rule))
      f.dead.push_back(layer.ref.label);
  }
  return f;
}

void links(std::ostringstream& out, const std::vector<std::string>& labels, const std::string& p) {
  for (const auto& l : labels)
    out << " <a href='#" << p << "layer-" << escape_html(l) << "'>" << escape_html(l) << "</a>";
}

void table(std::ostringstream& out, const ReportRun& run, const std::string& p,
           const DeadLayerRule& rule) {
  out << "<h3>Layers</h3><input class='filter' placeholder='filter rows'><table><thead><tr>"
         "<th class='t'>label</th><th class='t'>path</th><th class='t'>type</th>"
         "<th class='t'>capture</th><th class='t'>tensor</th><th class='t'>shape</th><th>mean</th>"
         "<th>std</th><th>abs_max</th><th>zero_fraction</th><th>nan</th><th>inf</th></tr></"
         "thead><tbody>";
  for (const auto& layer : run.layers) {
    const LayerRef& ref = layer.ref;
    bool first = true;
    for (const RunCapture& c : layer.captures)
      for (size_t i = 0; i < c.tensors.size(); ++i) {
        const RunTensor& t = c.tensors[i];
        const std::string cls = nonfinite(t)                          ? "nonfinite"
                                : c.name == "output" && dead(t, rule) ? "dead"
                                                                      : "";
        std::string shape;
        for (int64_t d : t.shape) shape += (shape.empty() ? "" : "x") + std::to_string(d);
        out << "<tr class='" << cls << "' data-layer='" << escape_html(ref.label) << "'"
            << (first ? " id='" + p + "layer-" + escape_html(ref.label) + "'" : "") << ">"
            << "<td class='t'><a href='#" << p << "stats-" << escape_html(ref.label) << "'>"
            << escape_html(ref.label) << "</a></td><td class='t'>" << escape_html(ref.path)
            << "</td><td class='t'>" << escape_html(ref.type) << "</td><td class='t'>" << c.name
            << "</td><td class='t'>" << escape_html(t.name.empty() ? std::to_string(i) : t.name)
            << "</td><td class='t'>" << shape << "</td>" << cell(t.stats.mean())
            << cell(t.stats.std()) << cell(t.stats.abs_max()) << cell(t.stats.zero_fraction())
            << "<td>" << t.stats.nan_count() << "</td><td>" << t.stats.inf_count() << "</td></tr>";
        first = false;
      }
  }
  out << "</tbody></table>";
}

void statistics(std::ostringstream& out, const ReportRun& run, const std::string& p) {
  out << "<h3>Statistics per layer</h3>";
  for (const auto& layer : run.layers) {
    const json all = stats_json({layer}).at("layers").at(0).at("captures");
    const LayerRef& ref = layer.ref;
    out << "<details id='" << p << "stats-" << escape_html(ref.label) << "'><summary>"
        << escape_html(ref.label + " " + ref.path + " (" + ref.type + ")") << "</summary><pre>"
        << escape_html(all.dump(1)) << "</pre></details>";
  }
}

std::string heatmap_capture(const ReportRun& run) {
  for (const char* c : {"output", "grad_output", "input", "param"})
    for (const auto& layer : run.layers)
      if (layer.capture(c)) return c;
  return "output";
}

void run_section(std::ostringstream& out, const ReportRun& run, const std::string& p,
                 const DeadLayerRule& rule) {
  out << "<section class='run'><h2>" << escape_html(run.path) << "</h2><p>" << run.kind;
  if (run.manifest.contains("model"))
    out << " of " << escape_html(run.manifest["model"].value("path", ""));
  if (run.kind == "watch")
    out << ", " << run.losses.size() << " steps run; layers as of step " << run.step;
  out << "; " << run.layers.size() << " layers</p>";
  const Flags f = flags_of(run, rule);
  out << "<p class='flags'>NaN/Inf: <span class='flag'>" << f.nonfinite.size() << "</span>";
  links(out, f.nonfinite, p);
  out << "<br>dead (output zero fraction ≥ " << rule.zero_fraction << " or std ≤ " << rule.min_std
      << "): <span class='flag'>" << f.dead.size() << "</span>";
  links(out, f.dead, p);
  out << "</p><h3>Scale per layer (log2)</h3><p class='legend'><span>● output std (dark), "
         "abs-max (light)</span><span>■ grad_output std (dark), abs-max (light)</span></p>"
      << scale_plot(run.layers, p);
  const std::string hc = heatmap_capture(run);
  out << "<h3>Histograms, layer × bin (" << hc << ")</h3>" << histogram_heatmap(run.layers, hc, p);
  if (run.kind == "watch") {
    out << "<h3>Loss per step</h3>" << loss_line(run.losses);
    for (const char* c : {"output", "grad_output", "param_grad", "update"}) {
      bool any = false;
      for (const auto& [label, captures] : run.series) any = any || captures.count(c);
      if (any) out << "<h3>" << c << " std over steps (log2)</h3>" << step_lines(run, c, p);
    }
  }
  table(out, run, p, rule);
  statistics(out, run, p);
  out << "</section>";
}

}  // namespace

std::string html_report(const std::vector<ReportRun>& runs, const DeadLayerRule& dead) {
  std::ostringstream out;
  out << "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><title>modrec report</title>"
      << "<style>" << kStyle << "</style></head><body><h1>modrec report</h1><div class='runs"
      << (runs.size() > 1 ? " two" : "") << "'>";
  for (size_t i = 0; i < runs.size(); ++i)
    run_section(out, runs[i], "r" + std::to_string(i) + "-", dead);
  out << "</div><script>" << kScript << "</script></body></html>\n";
  return out.str();
}

}  // namespace modrec

#include "report/svg_charts.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace modrec {
namespace {

constexpr double kWidth = 900, kHeight = 300, kLeft = 56, kRight = 16, kTop = 16, kBottom = 28;

// A value's log2, or NaN for what a log axis cannot show (0, negative, NaN: undefined).
double log2_of(double x) { return x > 0 && std::isfinite(x) ? std::log2(x) : std::nan(""); }

bool is_nonfinite(const RunningStats& s) { return s.nan_count() > 0 || s.inf_count() > 0; }

std::string color(size_t i) { return "hsl(" + std::to_string(i * 137 % 360) + ",65%,42%)"; }

// A log2 y axis over [lo, hi] (powers of two) in the plot box.
struct LogAxis {
  double lo, hi;
  double y(double log2v) const {
    return kTop + (hi - log2v) / (hi - lo) * (kHeight - kTop - kBottom);
  }
  void draw(std::ostringstream& out) const {
    const int step = hi - lo > 64 ? 16 : hi - lo > 24 ? 8 : 4;
    for (int e = static_cast<int>(std::ceil(lo / step)) * step; e <= hi; e += step)
      out << "<line class='grid' x1='" << kLeft << "' x2='" << kWidth - kRight << "' y1='" << y(e)
          << "' y2='" << y(e) << "'/><text class='tick' x='" << kLeft - 4 << "' y='" << y(e) + 4
          << "' text-anchor='end'>2^" << e << "</text>";
  }
};

LogAxis axis_over(const std::vector<double>& values, double lo, double hi) {
  for (double v : values)
    if (std::isfinite(v)) lo = std::min(lo, std::floor(v)), hi = std::max(hi, std::ceil(v));
  return {lo - 1, hi + 1};
}

void band(std::ostringstream& out, const LogAxis& axis, double lo, double hi, const char* cls,
          const std::string& label) {
  lo = std::max(lo, axis.lo);
  hi = std::min(hi, axis.hi);
  if (lo >= hi) return;
  out << "<rect class='" << cls << "' x='" << kLeft << "' width='" << kWidth - kLeft - kRight
      << "' y='" << axis.y(hi) << "' height='" << axis.y(lo) - axis.y(hi)
      << "'/><text class='band-label' x='" << kWidth - kRight - 4 << "' y='" << axis.y(hi) + 12
      << "' text-anchor='end'>" << label << "</text>";
}

struct Series {
  const char* capture;
  const char* field;
  double (RunningStats::*value)() const;
  const char* shape;  // circle or square: forward or backward
};

const Series kScaleSeries[] = {{"output", "std", &RunningStats::std, "circle"},
                               {"output", "abs_max", &RunningStats::abs_max, "circle"},
                               {"grad_output", "std", &RunningStats::std, "square"},
                               {"grad_output", "abs_max", &RunningStats::abs_max, "square"}};

const RunningStats* first_tensor(const RunLayer& layer, const std::string& capture) {
  const RunCapture* c = layer.capture(capture);
  return c && !c->tensors.empty() ? &c->tensors.front().stats : nullptr;
}

std::string open_svg(const std::string& cls, double height) {
  std::ostringstream out;
  out << "<svg class='chart " << cls << "' viewBox='0 0 " << kWidth << " " << height << "' width='"
      << kWidth << "' height='" << height << "' xmlns='http://www.w3.org/2000/svg' role='img'>";
  return out.str();
}

std::string number_text(double v) {
  std::ostringstream s;
  s.precision(6);
  s << v;
  return s.str();
}

}  // namespace

std::string escape_html(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string scale_plot(const std::vector<RunLayer>& layers, const std::string& prefix) {
  std::vector<double> values;
  for (const auto& layer : layers)
    for (const auto& s : kScaleSeries)
      if (const RunningStats* t = first_tensor(layer, s.capture))
        values.push_back(log2_of((t->*s.value)()));
  const LogAxis axis = axis_over(values, -24, 16);
  std::ostringstream out;
  out << open_svg("scale-plot", kHeight);
  band(out, axis, -126, 128, "bf16", "bfloat16 normal range (2^-126 .. 2^128)");
  band(out, axis, -24, -14, "fp16-sub", "float16 subnormal");
  band(out, axis, -14, std::log2(65504.0), "fp16", "float16 normal range (2^-14 .. 65504)");
  axis.draw(out);
  const double dx = (kWidth - kLeft - kRight) / std::max<size_t>(layers.size(), 1);
  for (size_t i = 0; i < layers.size(); ++i) {
    const LayerRef& layer = layers[i].ref;
    const double x = kLeft + (i + 0.5) * dx;
    for (size_t k = 0; k < std::size(kScaleSeries); ++k) {
      const Series& s = kScaleSeries[k];
      const RunningStats* t = first_tensor(layers[i], s.capture);
      if (!t) continue;
      const double value = (t->*s.value)();
      const double v = log2_of(value);
      const bool bad = is_nonfinite(*t) || std::isnan(value);
      const double y = std::isfinite(v) ? axis.y(v) : bad ? axis.y(axis.hi) : axis.y(axis.lo);
      const std::string series = std::string(s.capture) + " " + s.field;
      out << "<a href='#" << prefix << "layer-" << escape_html(layer.label) << "'>";
      const std::string attrs = " class='mark s" + std::to_string(k) + (bad ? " bad" : "") +
                                "' data-chart='scale' data-layer='" + escape_html(layer.label) +
                                "' data-series='" + series + "'";
      if (std::string(s.shape) == "circle")
        out << "<circle" << attrs << " cx='" << x << "' cy='" << y << "' r='3.5'>";
      else
        out << "<rect" << attrs << " x='" << x - 3 << "' y='" << y - 3 << "' width='6' height='6'>";
      out << "<title>" << escape_html(layer.label + " " + layer.path) << ": " << series << " = "
          << (std::isnan(value) ? "undefined" : number_text(value)) << "</title></" << s.shape
          << "></a>";
    }
  }
  out << "<text class='axis-label' x='" << kLeft << "' y='" << kHeight - 8
      << "'>layer calls in call order →</text></svg>";
  return out.str();
}

std::string histogram_heatmap(const std::vector<RunLayer>& layers, const std::string& capture,
                              const std::string& prefix) {
  std::vector<std::pair<const LayerRef*, const RunningStats*>> rows;
  for (const auto& layer : layers)
    if (const RunningStats* t = first_tensor(layer, capture)) rows.emplace_back(&layer.ref, t);
  const double row_height = 12, height = kTop + rows.size() * row_height + kBottom;
  std::ostringstream out;
  out << open_svg("heatmap", height);
  for (size_t r = 0; r < rows.size(); ++r) {
    const auto& [layer, t] = rows[r];
    const Histogram histogram = t->histogram();
    const std::vector<double> counts(histogram.counts.begin(), histogram.counts.end());
    const std::vector<double>& edges = histogram.edges;
    const double top = counts.empty() ? 0 : *std::max_element(counts.begin(), counts.end());
    const double y = kTop + r * row_height;
    const double cell = (kWidth - kLeft - kRight - 70) / std::max<size_t>(counts.size(), 1);
    out << "<a href='#" << prefix << "layer-" << escape_html(layer->label)
        << "'><g class='heat-row mark' data-chart='heatmap' data-layer='"
        << escape_html(layer->label) << "'><title>" << escape_html(layer->label + " " + layer->path)
        << ": " << capture << " histogram over ±" << number_text(edges.empty() ? 0 : edges.back())
        << "</title><text class='tick' x='" << kLeft - 4 << "' y='" << y + 9
        << "' text-anchor='end'>" << escape_html(layer->label) << "</text>";
    for (size_t b = 0; b < counts.size(); ++b) {
      const double shade = top > 0 ? std::sqrt(counts[b] / top) : 0;
      out << "<rect x='" << kLeft + b * cell << "' y='" << y << "' width='" << cell + 0.3
          << "' height='" << row_height - 1 << "' fill='rgba(30,60,160," << shade << ")'/>";
    }
    out << "<text class='tick' x='" << kWidth - kRight - 66 << "' y='" << y + 9 << "'>±"
        << number_text(edges.empty() ? 0 : edges.back()) << "</text></g></a>";
  }
  out << "<text class='axis-label' x='" << kLeft << "' y='" << height - 8
      << "'>bins over each layer's [-R, R] (R the power of two ≥ abs-max), shade √(count / row max)"
      << "</text></svg>";
  return out.str();
}

namespace {

// A polyline through (step, log2 value) points; `attrs` goes on the element.
void polyline(std::ostringstream& out, const std::vector<std::pair<double, double>>& points,
              double first, double last, const LogAxis& axis, const std::string& attrs,
              const std::string& title) {
  out << "<polyline " << attrs << " points='";
  for (const auto& [step, v] : points) {
    if (!std::isfinite(v)) continue;
    const double x =
        kLeft + (last > first ? (step - first) / (last - first) : 0.5) * (kWidth - kLeft - kRight);
    out << x << "," << axis.y(v) << " ";
  }
  out << "'><title>" << title << "</title></polyline>";
}

}  // namespace

std::string step_lines(const ReportRun& run, const std::string& capture,
                       const std::string& prefix) {
  std::vector<double> values;
  double first = 1e300, last = -1e300;
  for (const auto& [label, captures] : run.series)
    if (auto it = captures.find(capture); it != captures.end())
      for (const StepPoint& p : it->second) {
        values.push_back(p.std > 0 ? std::log2(p.std) : std::nan(""));
        first = std::min<double>(first, p.step), last = std::max<double>(last, p.step);
      }
  const LogAxis axis = axis_over(values, 0, 0);
  std::ostringstream out;
  out << open_svg("step-lines", kHeight);
  axis.draw(out);
  size_t i = 0;
  for (const RunLayer& in_order : run.layers) {  // call order
    const LayerRef& layer = in_order.ref;
    const auto found = run.series.find(layer.label);
    if (found == run.series.end() || !found->second.count(capture)) continue;
    std::vector<std::pair<double, double>> points;
    for (const StepPoint& p : found->second.at(capture))
      points.emplace_back(p.step, p.std > 0 ? std::log2(p.std) : std::nan(""));
    out << "<a href='#" << prefix << "layer-" << escape_html(layer.label) << "'>";
    polyline(out, points, first, last, axis,
             "class='line mark' data-chart='steps' data-series='" + capture + "' data-layer='" +
                 escape_html(layer.label) + "' stroke='" + color(i++) + "'",
             escape_html(layer.label + " " + layer.path) + ": " + capture + " std");
    out << "</a>";
  }
  out << "<text class='axis-label' x='" << kLeft << "' y='" << kHeight - 8 << "'>steps "
      << number_text(first) << " … " << number_text(last) << " →</text></svg>";
  return out.str();
}

std::string loss_line(const std::vector<double>& losses) {
  std::vector<std::pair<double, double>> points;
  std::vector<double> values;
  for (size_t i = 0; i < losses.size(); ++i) {
    const double v = losses[i] > 0 ? std::log2(losses[i]) : std::nan("");
    points.emplace_back(i + 1, v);
    values.push_back(v);
  }
  const LogAxis axis = axis_over(values, 0, 0);
  std::ostringstream out;
  out << open_svg("loss-line", kHeight);
  axis.draw(out);
  polyline(out, points, 1, static_cast<double>(losses.size()), axis,
           "class='line loss' stroke='#222'", "loss");
  out << "<text class='axis-label' x='" << kLeft << "' y='" << kHeight - 8 << "'>steps 1 … "
      << losses.size() << " →</text></svg>";
  return out.str();
}

}  // namespace modrec

#include "report/svg_charts.h"

#include <doctest/doctest.h>

#include <cmath>

namespace modrec {
namespace {

size_t count(const std::string& text, const std::string& part) {
  size_t n = 0;
  for (size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
  return n;
}

// Statistics with the given std and abs-max: n values ±a around 0 (abs-max a) have a sample std
// of a*sqrt(n/(n-1)); one value a has no std (NaN). `nans` NaN values join them.
RunningStats stats(const std::vector<double>& values, int64_t nans = 0) {
  RunningStats s(4);
  s.add(values.data(), values.size());
  const std::vector<double> nan(static_cast<size_t>(nans), std::nan(""));
  s.add(nan.data(), nan.size());
  return s;
}

RunLayer layer(const std::string& label, RunningStats output) {
  RunTensor t{0, "", {4}, "float32", std::move(output)};
  return {{label, "p." + label, "Linear"}, 1, -1, {{"output", {std::move(t)}, {}}}};
}

}  // namespace

TEST_CASE("the scale plot has one mark per layer and series, on a log2 axis") {
  const std::vector<RunLayer> layers{layer("1-1", stats({-4, 4, 1, 1.5})),
                                     layer("1-2", stats({0, 0})), layer("1-3", stats({-2, 2}, 3))};
  const std::string svg = scale_plot(layers, "r0-");
  CHECK(count(svg, "data-series='output std'") == 3);
  CHECK(count(svg, "data-series='output abs_max'") == 3);
  CHECK(count(svg, "data-series='grad_output std'") == 0);  // not recorded
  CHECK(count(svg, " bad'") == 2);                          // the layer with NaNs, both series
  CHECK(count(svg, "href='#r0-layer-1-2'") == 2);
  CHECK(svg.find("float16 normal range") != std::string::npos);
  CHECK(svg.find(">2^-24<") != std::string::npos);  // the axis reaches float16's subnormals
}

TEST_CASE("the heatmap has one row per layer with the capture, one cell per bin") {
  const std::vector<RunLayer> layers{layer("1-1", stats({-4, 4, 1, 1.5})),
                                     layer("1-2", stats({1}))};
  const std::string svg = histogram_heatmap(layers, "output", "");
  CHECK(count(svg, "class='heat-row mark'") == 2);
  CHECK(count(svg, "fill='rgba(30,60,160,") == 8);     // 2 rows of 4 bins
  CHECK(count(svg, "fill='rgba(30,60,160,1)'") == 2);  // each row's fullest bin
  CHECK(histogram_heatmap(layers, "grad_output", "").find("heat-row") == std::string::npos);
}

TEST_CASE("text is escaped for HTML and attributes") {
  CHECK(escape_html("a<b>&'\"") == "a&lt;b&gt;&amp;&#39;&quot;");
}

}  // namespace modrec

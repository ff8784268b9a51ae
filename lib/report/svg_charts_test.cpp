#include "report/svg_charts.h"

#include <doctest/doctest.h>

namespace modrec {
namespace {

using nlohmann::json;

size_t count(const std::string& text, const std::string& part) {
  size_t n = 0;
  for (size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
  return n;
}

json tensor(double std, double abs_max, int64_t nans = 0) {
  return {{"std", std}, {"abs_max", abs_max}, {"nan_count", nans}, {"inf_count", 0},
          {"histogram", {{"edges", {-2.0, 0.0, 2.0}}, {"counts", {1, 3}}}}};
}

ReportLayer layer(const std::string& label, json output) {
  return {label, "p." + label, "Linear", {{"output", {std::move(output)}}}};
}

}  // namespace

TEST_CASE("the scale plot has one mark per layer and series, on a log2 axis") {
  const std::vector<ReportLayer> layers{layer("1-1", tensor(0.5, 4)), layer("1-2", tensor(0, 0)),
                                        layer("1-3", tensor(1, 2, 3))};
  const std::string svg = scale_plot(layers, "r0-");
  CHECK(count(svg, "data-series='output std'") == 3);
  CHECK(count(svg, "data-series='output abs_max'") == 3);
  CHECK(count(svg, "data-series='grad_output std'") == 0);  // not recorded
  CHECK(count(svg, " bad'") == 2);  // the layer with NaNs, both series
  CHECK(count(svg, "href='#r0-layer-1-2'") == 2);
  CHECK(svg.find("float16 normal range") != std::string::npos);
  CHECK(svg.find(">2^-24<") != std::string::npos);  // the axis reaches float16's subnormals
}

TEST_CASE("the heatmap has one row per layer with the capture, one cell per bin") {
  const std::vector<ReportLayer> layers{layer("1-1", tensor(0.5, 4)), layer("1-2", tensor(1, 1))};
  const std::string svg = histogram_heatmap(layers, "output", "");
  CHECK(count(svg, "class='heat-row mark'") == 2);
  CHECK(count(svg, "fill='rgba(30,60,160,") == 4);
  CHECK(count(svg, "fill='rgba(30,60,160,1)'") == 2);  // each row's fullest bin
  CHECK(histogram_heatmap(layers, "grad_output", "").find("heat-row") == std::string::npos);
}

TEST_CASE("text is escaped for HTML and attributes") {
  CHECK(escape_html("a<b>&'\"") == "a&lt;b&gt;&amp;&#39;&quot;");
}

}  // namespace modrec

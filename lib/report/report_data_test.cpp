#include "report/report_data.h"

#include <doctest/doctest.h>

#include <cmath>

#include "report/html_report.h"

namespace modrec {
namespace {

using nlohmann::json;

// Statistics of the given values; `nans` NaN values join them.
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

ReportRun record_run(std::vector<RunLayer> layers) {
  return {"run", RunKind::recording, json::object(), std::move(layers), 0, {}, {}};
}

}  // namespace

TEST_CASE("the page's data holds each layer's statistics once, the histogram as R and counts") {
  const ReportRun run = record_run({layer("1-1", stats({-4, 4, 1, 1.5})),
                                    layer("1-2", stats({0, 0})), layer("1-3", stats({-2, 2}, 3))});
  const json data = report_data(run);
  REQUIRE(data.at("layers").size() == 3);
  const json& first = data["layers"][0];
  CHECK(first.at("label") == "1-1");
  CHECK(first.at("path") == "p.1-1");
  const json& t = first.at("captures").at(0).at("tensors").at(0);
  CHECK(first["captures"][0]["name"] == "output");
  CHECK(t.at("stats").at("abs_max") == 4.0);
  CHECK(t["stats"].at("std") == run.layers[0].captures[0].tensors[0].stats.std());
  CHECK_FALSE(t["stats"].contains("histogram"));
  CHECK(t.at("histogram").at("range") == 4.0);  // the power of two >= abs-max
  CHECK(t["histogram"].at("counts") == json{1, 0, 2, 1});
  CHECK(data.at("heatmap_capture") == "output");
  CHECK(data.at("series").empty());  // a record run
}

TEST_CASE("the page's data flags dead layers and layers with NaN or Inf") {
  const json layers =
      report_data(record_run({layer("1-1", stats({-4, 4, 1, 1.5})), layer("1-2", stats({0, 0})),
                              layer("1-3", stats({-2, 2}, 3))}))
          .at("layers");
  CHECK(layers[0].at("dead") == false);
  CHECK(layers[1].at("dead") == true);  // all zeros
  CHECK(layers[2].at("nonfinite") == true);
  CHECK(layers[2].at("dead") == false);
  CHECK(layers[0].at("nonfinite") == false);
}

TEST_CASE("a watch run's data holds one line per layer and capture, in call order") {
  ReportRun run = record_run({layer("1-2", stats({1, 2})), layer("1-1", stats({1, 3}))});
  run.kind = RunKind::watch;
  run.series["1-1"]["output"] = {{1, 0.5, 1}, {2, std::nan(""), 1}};
  run.series["1-2"]["output"] = {{1, 0.25, 1}, {2, 0.125, 1}};
  run.losses = {1.5, std::nan("")};
  const json data = report_data(run);
  REQUIRE(data.at("series").size() == 1);
  const json& lines = data["series"][0].at("lines");
  CHECK(data["series"][0].at("capture") == "output");
  CHECK(lines.at(0).at("label") == "1-2");
  CHECK(lines.at(1).at("steps") == json{1, 2});
  CHECK(lines[1].at("std").dump() == "[0.5,null]");  // NaN: no value
  CHECK(data.at("losses").dump() == "[1.5,null]");
}

TEST_CASE("the page carries the data as JSON no label can end early") {
  const std::string page = html_report({record_run({layer("</script><b>", stats({1, 2}))})});
  CHECK(page.find("</script><b>") == std::string::npos);
  CHECK(page.find("\\u003c/script>\\u003cb>") != std::string::npos);
  CHECK(page.find("id='modrec-data'") != std::string::npos);
  CHECK(page.find("src=") == std::string::npos);  // nothing fetched
}

}  // namespace modrec

// check over a recording directory whose stats.json RunningStats wrote from known values.
#include <cmath>
#include <filesystem>
#include <limits>

#include <doctest/doctest.h>

#include "check/check_report.h"
#include "check/check_rules.h"
#include "rundir/test_fixtures.h"
#include "util/remove_tree.h"
#include "util/python_test_fixtures.h"
#include "util/error.h"

namespace modrec {
namespace {
using nlohmann::json;
const double kNaN = std::numeric_limits<double>::quiet_NaN();
const double kInf = std::numeric_limits<double>::infinity();

json tensor(std::vector<double> values, int index = 0) {
  return {{"tensor", index}, {"shape", {values.size()}}, {"dtype", "float32"}, {"values", values}};
}

json layer(const std::string& label, const std::string& path, const std::string& type,
           json captures) {
  return {{"label", label}, {"path", path}, {"type", type}, {"call", 1}, {"captures", captures}};
}

// 1-1: finite, std = sqrt(73/3), abs_max 7, half zeros. 1-2: NaN in output, Inf in grad_output.
// 1-3: constant (std 0, a dead layer).
struct CheckRun {
  std::string dir = test::temp_dir("check");
  CheckRun() {
    test::write_stats_json(
        dir,
        {{"layers",
          {layer("1-1", "conv", "Conv2d", {{"output", {tensor({-7, 0, 0, 5})}}}),
           layer("1-2", "act", "ReLU",
                 {{"output", {tensor({1, kNaN, 2})}}, {"grad_output", {tensor({kInf, 0})}}}),
           layer("1-3", "fc", "Linear", {{"output", {tensor({3, 3, 3}), tensor({1, 2}, 1)}}})}}});
  }
  ~CheckRun() { modrec::remove_tree(dir); }
  CheckResult check(const CheckRules& rules, const RunScope& scope = {}) const {
    return check_run(read_run_dir(dir), rules, scope);
  }
};

std::vector<std::string> names(const CheckResult& r) {
  std::vector<std::string> out;
  for (const auto& v : r.violations)
    out.push_back(v.layer.label + " " + v.capture + "#" + std::to_string(v.tensor) + " " + v.rule);
  return out;
}

using Names = std::vector<std::string>;

TEST_CASE("NaN and Inf are violations by default, and can be allowed") {
  CheckRun run;
  CheckResult r = run.check({});
  CHECK(names(r) == Names{"1-2 output#0 no-nan", "1-2 grad_output#0 no-inf"});
  CHECK(r.violations[0].value == 1);
  CHECK(r.violations[0].limit == 0);
  CHECK(r.layers_checked == 3);
  CHECK(r.tensors_checked == 5);
  CHECK(run.check({false, false}).violations.empty());
}

TEST_CASE("limits on abs_max, std and zero fraction") {
  CheckRun run;
  CheckRules rules{false, false};
  rules.max_abs = 6.5;
  rules.max_std = 4.9;
  rules.min_std = 1e-6;
  rules.max_zero_fraction = 0.4;
  const CheckResult r = run.check(rules);
  CHECK(names(r) == Names{"1-1 output#0 max-abs", "1-1 output#0 max-std",
                          "1-1 output#0 max-zero-fraction", "1-2 grad_output#0 max-zero-fraction",
                          "1-3 output#0 min-std"});
  CHECK(r.violations[0].value == 7);
  CHECK(r.violations[1].value == doctest::Approx(std::sqrt(73.0 / 3)).epsilon(1e-12));
  CHECK(r.violations[1].limit == 4.9);
  CHECK(r.violations[2].value == 0.5);
  CHECK(r.violations[3].value == 1);  // Inf takes no part: 1 zero of 1 finite value
  CHECK(r.violations[4].value == 0);
}

TEST_CASE("--layers and --captures narrow the rules") {
  CheckRun run;
  RunScope scope;
  scope.captures = CaptureSet::parse({"output"});
  CHECK(names(run.check({}, scope)) == Names{"1-2 output#0 no-nan"});
  scope = {};
  scope.layers = LayerMatcher("type:Linear,conv");
  CHECK(run.check({}, scope).violations.empty());
  CHECK(run.check({}, scope).layers_checked == 2);
}

TEST_CASE("a bad selector or capture is a usage error") {
  CheckRun run;
  RunScope scope;
  scope.layers = LayerMatcher("2-1");
  CHECK_THROWS_AS(run.check({}, scope), Error);
  try {
    run.check({}, scope);
  } catch (const Error& e) {
    CHECK(e.code() == Exit::usage);
    CHECK(e.hint().find("valid labels: 1-1") == 0);
  }
  try {  // refused where the flag is parsed, before any run is read
    CaptureSet::parse({"gradient"});
    FAIL("no error");
  } catch (const Error& e) {
    CHECK(e.code() == Exit::usage);
    CHECK(e.where() == "--capture");
  }
}

Exit read_error(const std::string& dir) {
  try {
    read_run_dir(dir);
  } catch (const Error& e) {
    return e.code();
  }
  return Exit::ok;
}

TEST_CASE("a missing or invalid recording directory is bad input") {
  const std::string dir = test::temp_dir("check-bad");
  CHECK(read_error(dir + "/nothing") == Exit::bad_input);
  CHECK(read_error(dir) == Exit::bad_input);  // no stats.json
  std::ofstream(dir + "/stats.json") << "{\"layers\": [";
  CHECK(read_error(dir) == Exit::bad_input);
  std::ofstream(dir + "/stats.json") << R"({"layers": [{"label": "1-1", "captures": {}}]})";
  CHECK(read_error(dir) == Exit::bad_input);
  std::ofstream(dir + "/stats.json")
      << R"({"layers": [{"label": "1-1", "path": "a", "type": "T", "captures": {"output": [{"tensor": 0, "shape": [1], "dtype": "float32", "count": 1}]}}]})";
  CHECK(read_error(dir) == Exit::bad_input);
  modrec::remove_tree(dir);
}

TEST_CASE("reports: table, markdown and json") {
  CheckRun run;
  const CheckResult r = run.check({});
  const std::string table = format_check(r, "RUN", ReportFormat::table);
  CHECK(table.rfind("check failed: 2 violations in 5 tensors of 3 layers in RUN\n"
                    "label  path  tensor       rule    value  limit\n",
                    0) == 0);
  CHECK(table.find("1-2    act   grad_output  no-inf  1      0\n") != std::string::npos);
  const std::string md = format_check(r, "RUN", ReportFormat::markdown);
  CHECK(md.find("| label | path | tensor | rule | value | limit |\n"
                "| --- | --- | --- | --- | --- | --- |\n") != std::string::npos);
  const json j = json::parse(format_check(r, "RUN", ReportFormat::json));
  CHECK(j["passed"] == false);
  CHECK(j["violations"][1]["rule"] == "no-inf");
  CHECK(format_check(run.check({false, false}), "RUN", ReportFormat::table) ==
        "check passed: no violations in 5 tensors of 3 layers in RUN\n");
}

}  // namespace
}  // namespace modrec

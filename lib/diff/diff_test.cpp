// diff over recording directories written by diff/testdata/diff_runs.py (PyTorch/NumPy), which
// also computes the expected metrics with NumPy.
#include <filesystem>
#include <fstream>

#include <doctest/doctest.h>

#include "diff/diff_report.h"
#include "diff/run_diff.h"
#include "rundir/test_fixtures.h"
#include "util/python_test_fixtures.h"
#include "util/error.h"

namespace modrec {
namespace {
using nlohmann::json;

struct Runs {
  test::TempDir dir{"diff", "/lib/diff/testdata/diff_runs.py"};
  json expected;
  Runs() {
    for (const char* run :
         {"base", "base_npy", "base_nosave", "perturbed", "perturbed_nosave", "reshaped"})
      test::stats_json_from_values_file(dir.path + "/" + run);
    std::ifstream in(dir.path + "/expected.json");
    expected = json::parse(in);
  }
  RunDiff diff(const std::string& a, const std::string& b, Tolerance tol = {},
               RunScope scope = {}) const {
    return diff_runs(read_run_dir(dir.path + "/" + a), read_run_dir(dir.path + "/" + b), tol,
                     scope);
  }
};

const Runs& runs() {
  static const Runs r;
  return r;
}

const TensorDiff& find(const RunDiff& d, const std::string& label, const std::string& capture,
                       int tensor = 0) {
  for (const auto& t : d.tensors)
    if (t.layer.label == label && t.capture == capture && t.tensor == tensor) return t;
  throw std::runtime_error("no diff row for " + label + " " + capture);
}

std::vector<std::string> labels(const std::vector<LayerRef>& refs) {
  std::vector<std::string> out;
  for (const auto& r : refs) out.push_back(r.label);
  return out;
}

TEST_CASE("identical runs: no difference, whether saved as .pt, .npy or not at all") {
  for (const char* other : {"base", "base_npy"}) {
    INFO(other);
    const RunDiff d = runs().diff("base", other, {0, 0});
    CHECK(d.passed());
    CHECK(d.tensors.size() == 6);  // 0-1, 1-1 x2, 1-2, 1-3 x2 (a tuple)
    for (const auto& t : d.tensors) {
      CHECK(t.source == "tensors");
      CHECK(t.values->max_abs == 0);
      CHECK(t.values->cosine == doctest::Approx(1.0).epsilon(1e-12));
    }
    CHECK(d.only_in_a.empty());
    CHECK(d.only_in_b.empty());
  }
  const RunDiff s = runs().diff("base_nosave", "base", {0, 0});
  CHECK(s.passed());
  CHECK(find(s, "1-1", "output").source == "stats");
}

TEST_CASE("a perturbed tensor: NumPy's errors, and allclose's verdict") {
  const json& want = runs().expected["tensors"];
  const RunDiff d = runs().diff("perturbed", "base");
  const TensorDiff& t = find(d, "1-1", "output");
  CHECK(t.source == "tensors");
  CHECK(t.values->max_abs == want["max_abs"].get<double>());
  CHECK(t.values->mean_abs == doctest::Approx(want["mean_abs"].get<double>()).epsilon(1e-12));
  CHECK(t.values->max_rel == doctest::Approx(want["max_rel"].get<double>()).epsilon(1e-12));
  CHECK(*t.values->cosine == doctest::Approx(want["cosine"].get<double>()).epsilon(1e-12));
  CHECK(want["close"] == false);
  CHECK_FALSE(t.passed());
  CHECK_FALSE(d.passed());
  CHECK(find(d, "1-1", "grad_output").passed());
  // Within a tolerance wider than the largest change, it passes.
  CHECK(runs().diff("perturbed", "base", {3e-3, 0}).passed());
  CHECK_FALSE(runs().diff("perturbed", "base", {2e-3, 0}).passed());
}

TEST_CASE("labels present in one run only are listed, not failed") {
  const RunDiff d = runs().diff("perturbed", "base", {1, 0});
  CHECK(d.passed());
  CHECK(labels(d.only_in_a) == std::vector<std::string>{"2-1"});
  CHECK(labels(d.only_in_b) == std::vector<std::string>{"1-3"});
}

TEST_CASE("without saved tensors the statistics are compared") {
  const json& want = runs().expected["stats"];
  const RunDiff d = runs().diff("perturbed_nosave", "base_nosave");
  const TensorDiff& t = find(d, "1-1", "output");
  CHECK(t.source == "stats");
  CHECK_FALSE(t.values->cosine.has_value());
  CHECK(t.values->max_abs == doctest::Approx(want["max_abs"].get<double>()).epsilon(1e-9));
  CHECK(t.values->mean_abs == doctest::Approx(want["mean_abs"].get<double>()).epsilon(1e-9));
  CHECK(t.values->max_rel == doctest::Approx(want["max_rel"].get<double>()).epsilon(1e-9));
  CHECK_FALSE(d.passed());
  CHECK(runs()
            .diff("perturbed_nosave", "base_nosave", {want["max_abs"].get<double>() * 1.01, 0})
            .passed());
  // One side saved, the other not: statistics.
  CHECK(find(runs().diff("perturbed", "base_nosave"), "1-1", "output").source == "stats");
}

TEST_CASE("a shape difference fails whatever the tolerance") {
  const RunDiff d = runs().diff("reshaped", "base", {1e9, 1e9});
  const TensorDiff& t = find(d, "1-2", "output");
  CHECK(t.shape_a == std::vector<int64_t>{2, 36});
  CHECK(t.shape_b == std::vector<int64_t>{2, 4, 3, 3});
  CHECK(t.problem == "shape 2x36 vs 2x4x3x3");
  CHECK_FALSE(t.values.has_value());
  CHECK_FALSE(d.passed());
  const RunDiff from_stats = runs().diff("reshaped", "base_nosave");
  const TensorDiff& s = find(from_stats, "1-2", "output");
  CHECK(s.problem == "shape 2x36 vs 2x4x3x3");
  CHECK_FALSE(s.values.has_value());
}

TEST_CASE("--layers and --captures select among both runs' labels") {
  RunScope scope;
  scope.layers = LayerMatcher("2-1,1-1");
  scope.captures = CaptureSet::parse({"grad_output"});
  const RunDiff d = runs().diff("perturbed", "base", {}, scope);
  CHECK(d.passed());
  CHECK(d.tensors.size() == 1);
  CHECK(labels(d.only_in_a) == std::vector<std::string>{"2-1"});
  scope.layers = LayerMatcher("3-1");
  CHECK_THROWS_AS(runs().diff("perturbed", "base", {}, scope), Error);
}

TEST_CASE("a tensor file that cannot be read is bad input") {
  const std::string run = runs().dir.path + "/broken";
  std::filesystem::copy(runs().dir.path + "/base_npy", run,
                        std::filesystem::copy_options::recursive);
  std::ofstream(run + "/tensors/1-2/output.npy") << "not a tensor";
  try {
    runs().diff("base", "broken");
    FAIL("no error");
  } catch (const Error& e) {
    CHECK(e.code() == Exit::bad_input);
  }
}

TEST_CASE("the report formats") {
  const RunDiff d = runs().diff("perturbed", "base");
  const DiffHeading h{"A", "B", {}};
  const std::string table = format_diff(d, h, ReportFormat::table);
  // Runs without a return order (these) name the first diverging call in start order.
  CHECK(table.rfind("diff failed: 1 of 4 tensors differ beyond atol=1e-08 rtol=1e-05 or in shape "
                    "(A vs B)\nfirst diverging call: 1-1 conv (",
                    0) == 0);
  CHECK(table.find("\nlabel  path  tensor       source   shape    max_abs") != std::string::npos);
  CHECK(table.find("|a-b| histogram 1-1 output [") != std::string::npos);
  CHECK(table.find("only in RUN_A: 2-1 (conv.inner)\nonly in RUN_B: 1-3 (lstm)\n") !=
        std::string::npos);
  const std::string md = format_diff(d, h, ReportFormat::markdown);
  CHECK(md.find("- only in RUN_A: 2-1 (conv.inner)\n- only in RUN_B: 1-3 (lstm)\n") !=
        std::string::npos);
  CHECK(md.find("| 1-1 | conv | output | tensors | 2x4x3x3 |") != std::string::npos);
  const json j = json::parse(format_diff(d, h, ReportFormat::json));
  CHECK(j["passed"] == false);
  CHECK(j["only_in_b"] == json::array({"1-3"}));
  CHECK(j["tensors"].size() == 4);
  CHECK(j["first_diverging"]["label"] == "1-1");
  CHECK(j["first_diverging"]["capture"] == "output");
  CHECK(j["first_diverging"]["element"] == "output");
}

}  // namespace
}  // namespace modrec

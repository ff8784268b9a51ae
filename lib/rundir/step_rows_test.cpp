#include "rundir/step_rows.h"

#include <doctest/doctest.h>

#include <fstream>

#include "rundir/run_paths.h"
#include "util/error_test_fixtures.h"
#include "util/scratch_dir.h"

using namespace modrec;
using modrec::testing::error_of;

namespace {

StepRow row(int64_t step, const std::string& capture, std::vector<double> values) {
  StepRow r;
  r.step = step;
  r.loss = step == 2 ? std::nan("") : 0.5 * static_cast<double>(step);
  r.layer = {"1-1", "fc", "Linear"};
  r.capture = capture;
  r.tensor.index = 0;
  r.tensor.shape = {static_cast<int64_t>(values.size())};
  r.tensor.dtype = "float32";
  r.tensor.stats.add(values.data(), values.size());
  if (capture == "update") {
    r.tensor.name = "weight";
    r.update_ratio = 0.01;
  } else {
    r.tensor.at = "1.0";
  }
  return r;
}

}  // namespace

TEST_CASE("step rows read back as written; the CSV has one line per row") {
  ScratchDir dir;
  const std::vector<StepRow> rows = {row(1, "output", {1, -2, 3}), row(1, "update", {0.5}),
                                     row(2, "output", {4, 4})};
  {
    StepFiles files(dir.path.string());
    for (const auto& r : rows) files.write(r);
    files.flush();
  }
  const std::vector<StepRow> back = read_step_rows(dir.path.string());
  REQUIRE(back.size() == rows.size());
  for (size_t i = 0; i < rows.size(); ++i) {
    CAPTURE(i);
    CHECK(back[i].step == rows[i].step);
    CHECK((std::isnan(rows[i].loss) ? std::isnan(back[i].loss) : back[i].loss == rows[i].loss));
    CHECK(back[i].layer.path == "fc");
    CHECK(back[i].capture == rows[i].capture);
    CHECK(back[i].tensor.name == rows[i].tensor.name);
    CHECK(back[i].tensor.at == rows[i].tensor.at);
    CHECK(back[i].tensor.shape == rows[i].tensor.shape);
    CHECK(back[i].tensor.stats.mean() == rows[i].tensor.stats.mean());
    CHECK(back[i].tensor.stats.abs_max() == rows[i].tensor.stats.abs_max());
    CHECK((rows[i].capture == "update" ? back[i].update_ratio == 0.01
                                       : std::isnan(back[i].update_ratio)));
  }
  std::ifstream csv(run_paths::steps_csv(dir.path.string()));
  int lines = 0;
  for (std::string line; std::getline(csv, line);) ++lines;
  CHECK(lines == 1 + 3);
}

TEST_CASE("a row not in the format is bad input naming steps.jsonl") {
  ScratchDir dir;
  std::ofstream(run_paths::steps_jsonl(dir.path.string())) << "{\"step\": 1}\n";
  auto [code, line] = error_of([&] { read_step_rows(dir.path.string()); });
  CHECK(code == Exit::bad_input);
  CHECK(line.find("steps.jsonl") != std::string::npos);
}

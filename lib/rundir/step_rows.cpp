#include "rundir/step_rows.h"

#include <nlohmann/json.hpp>

#include <sstream>

#include "rundir/run_paths.h"
#include "stats/stats_csv.h"
#include "util/error.h"
#include "util/regular_file.h"
#include "util/csv_path.h"
#include "util/text.h"
#include "util/json_text.h"

namespace modrec {
namespace {
using nlohmann::json;

std::string real_cell(double value) {
  if (std::isnan(value)) return "";
  std::ostringstream s;
  s.precision(17);
  s << value;
  return s.str();
}

json real_json(double value) { return std::isnan(value) ? json(nullptr) : json(value); }

Error not_a_step_row(const std::string& file, const std::string& why) {
  return Error(Exit::bad_input, "step row not in the format: " + why, file,
               "give a directory written by modrec watch");
}

double real_of(const json& j) { return j.is_null() ? std::nan("") : j.get<double>(); }

void write_csv(std::ostream& csv, const StepRow& r) {
  const RunTensor& t = r.tensor;
  csv << r.step << "," << r.layer.label << "," << csv_field(csv_path(r.layer.path)) << ","
      << csv_field(r.layer.type) << "," << r.capture << "," << t.index << "," << csv_field(t.name)
      << "," << shape_text(t.shape) << "," << t.dtype;
  for (const auto& cell : stats_csv_cells(t.stats)) csv << "," << cell;
  csv << "," << real_cell(r.update_ratio) << "," << real_cell(r.loss) << "\n";
}

json row_json(const StepRow& r) {
  const RunTensor& t = r.tensor;
  json j = t.stats.to_json();
  j["step"] = r.step;
  j["label"] = r.layer.label;
  j["path"] = r.layer.path;
  j["type"] = r.layer.type;
  j["capture"] = r.capture;
  j["tensor"] = t.index;
  if (!t.name.empty()) j["name"] = t.name;
  if (!t.at.empty()) j["at"] = t.at;
  j["shape"] = t.shape;
  j["dtype"] = t.dtype;
  if (r.capture == "update") j["update_ratio"] = real_json(r.update_ratio);
  j["loss"] = real_json(r.loss);
  return j;
}

StepRow read_row(const json& j) {
  StepRow r;
  r.step = j.at("step").get<int64_t>();
  r.loss = real_of(j.value("loss", json()));
  r.layer = {j.at("label"), j.at("path"), j.at("type")};
  r.capture = j.at("capture");
  r.tensor = read_run_tensor(j);
  r.update_ratio = real_of(j.value("update_ratio", json()));
  return r;
}

}  // namespace

StepFiles::StepFiles(const std::string& dir)
    : dir_(dir), csv_(run_paths::steps_csv(dir)), jsonl_(run_paths::steps_jsonl(dir)) {
  csv_ << "step,label,path,type,capture,tensor,name,shape,dtype";
  for (const auto& h : stats_csv_header()) csv_ << "," << h;
  csv_ << ",update_ratio,loss\n";
  if (!csv_ || !jsonl_)
    throw write_error("cannot write the step series", run_paths::steps_csv(dir_));
}

void StepFiles::write(const StepRow& row) {
  write_csv(csv_, row);
  jsonl_ << row_json(row).dump() << "\n";
}

void StepFiles::flush() {
  csv_.flush();
  jsonl_.flush();
  if (!csv_ || !jsonl_)
    throw write_error("cannot write the step series", run_paths::steps_csv(dir_));
}

std::vector<StepRow> read_step_rows(const std::string& dir) {
  const std::string file = run_paths::steps_jsonl(dir);
  require_regular_file(file, "recording file");
  std::ifstream in(file);
  std::vector<StepRow> rows;
  std::string line;
  try {
    while (std::getline(in, line))
      if (!line.empty()) rows.push_back(read_row(read_json(line)));
  } catch (const json::exception& e) {
    throw not_a_step_row(file, e.what());
  } catch (const Error& e) {
    throw not_a_step_row(file, e.what());
  }
  return rows;
}

}  // namespace modrec

#include "train/step_series.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <sstream>

#include "rundir/run_dir.h"
#include "rundir/run_paths.h"
#include "stats/stats_csv.h"
#include "util/error.h"
#include "util/text.h"

namespace modrec {
namespace {

std::string real_cell(double value) {
  if (std::isnan(value)) return "";
  std::ostringstream s;
  s.precision(17);
  s << value;
  return s.str();
}

nlohmann::json real_json(double value) {
  return std::isnan(value) ? nlohmann::json(nullptr) : nlohmann::json(value);
}

}  // namespace

struct StepSeries::Row {
  int64_t step;
  double loss;
  const LayerRecording& layer;
  std::string capture;
  size_t tensor;
  std::string name;  // of a parameter; empty otherwise
  std::string at;    // the tensor's place in the capture's value (CaptureSink::tensor_place)
  std::string element;
  const std::vector<int64_t>& shape;
  const std::string& dtype;
  const RunningStats& stats;
  double update_ratio;  // NaN except for update rows
};

StepSeries::StepSeries(const std::string& dir, EventFile* events)
    : dir_(dir),
      csv_(run_paths::steps_csv(dir)),
      jsonl_(run_paths::steps_jsonl(dir)),
      tensorboard_(events) {
  csv_ << "step,label,path,type,capture,tensor,name,shape,dtype";
  for (const auto& h : stats_csv_header()) csv_ << "," << h;
  csv_ << ",update_ratio,loss\n";
  if (!csv_ || !jsonl_)
    throw write_error("cannot write the step series", run_paths::steps_csv(dir_));
}

void StepSeries::add(int64_t step, double loss, const std::vector<LayerRecording>& layers,
                     const std::vector<ParameterUpdate>& updates) {
  const double none = std::nan("");
  for (const auto& layer : layers) {
    for (const auto& c : layer.captures)
      for (size_t i = 0; i < c.sink.num_tensors(); ++i) {
        const auto& names = c.sink.tensor_names();
        write({step, loss, layer, capture_name(c.capture), i, names.empty() ? "" : names[i],
               c.sink.tensor_place(i), c.sink.element(i), c.sink.shape(i), c.sink.dtype(i),
               c.sink.stats(i), none});
      }
    size_t i = 0;
    for (const auto& u : updates)
      if (u.label == layer.label)
        write({step, loss, layer, "update", i++, u.name, "",
               tensor_element("update", u.name, "", 0, 1), u.change.shape, u.change.dtype,
               u.change.stats, u.ratio});
  }
  csv_.flush();
  jsonl_.flush();
  if (!csv_ || !jsonl_)
    throw write_error("cannot write the step series", run_paths::steps_csv(dir_));
  if (tensorboard_) tensorboard_->flush();
}

void StepSeries::add_loss(int64_t step, double loss) {
  if (!tensorboard_) return;
  tensorboard_->scalar(step, "loss", loss);
  tensorboard_->flush();
}

void StepSeries::write(const Row& r) {
  csv_ << r.step << "," << r.layer.label << "," << csv_field(r.layer.path) << ","
       << csv_field(r.layer.type) << "," << r.capture << "," << r.tensor << "," << csv_field(r.name)
       << "," << shape_text(r.shape) << "," << r.dtype;
  for (const auto& cell : stats_csv_cells(r.stats)) csv_ << "," << cell;
  csv_ << "," << real_cell(r.update_ratio) << "," << real_cell(r.loss) << "\n";
  nlohmann::json j = r.stats.to_json();
  j["step"] = r.step;
  j["label"] = r.layer.label;
  j["path"] = r.layer.path;
  j["type"] = r.layer.type;
  j["capture"] = r.capture;
  j["tensor"] = r.tensor;
  if (!r.name.empty()) j["name"] = r.name;
  if (!r.at.empty()) j["at"] = r.at;
  j["shape"] = r.shape;
  j["dtype"] = r.dtype;
  if (r.capture == "update") j["update_ratio"] = real_json(r.update_ratio);
  j["loss"] = real_json(r.loss);
  jsonl_ << j.dump() << "\n";
  if (!tensorboard_) return;
  const std::string tag = statistics_tag(r.layer.path, r.layer.type, r.layer.label, r.element);
  tensorboard_->statistics(r.step, tag, r.stats);
  if (r.capture == "update") tensorboard_->scalar(r.step, tag + "/update_ratio", r.update_ratio);
}

}  // namespace modrec

#include "record/run_files.h"

#include <sstream>

#include "stats/stats_csv.h"
#include "util/error.h"
#include "util/text.h"

namespace modrec {
namespace {

template <class Fn>
void for_each_tensor(const std::vector<LayerRecording>& layers, Fn&& fn) {
  for (const auto& layer : layers)
    for (const auto& c : layer.captures)
      for (size_t i = 0; i < c.sink.num_tensors(); ++i) fn(layer, c, i);
}

}  // namespace

CaptureSink& LayerRecording::sink(Capture capture) {
  for (auto& c : captures)
    if (c.capture == capture) return c.sink;
  throw Error(Exit::usage, "capture not recorded", label);
}

void write_tensor_files(std::vector<LayerRecording>& layers) {
  for (auto& layer : layers)
    for (auto& c : layer.captures) c.files = c.sink.write();
}

nlohmann::json stats_json(const std::vector<LayerRecording>& layers) {
  nlohmann::json out = {{"layers", nlohmann::json::array()}};
  for (const auto& layer : layers) {
    nlohmann::json captures = nlohmann::json::object();
    for (const auto& c : layer.captures) {
      nlohmann::json tensors = nlohmann::json::array();
      for (size_t i = 0; i < c.sink.num_tensors(); ++i) {
        nlohmann::json t = c.sink.stats(i).to_json();
        t["tensor"] = i;
        if (!c.sink.tensor_names().empty()) t["name"] = c.sink.tensor_names()[i];
        t["shape"] = c.sink.shape(i);
        t["dtype"] = c.sink.dtype(i);
        tensors.push_back(std::move(t));
      }
      captures[capture_name(c.capture)] = std::move(tensors);
    }
    out["layers"].push_back({{"label", layer.label}, {"path", layer.path}, {"type", layer.type},
                             {"call", layer.call}, {"returned", layer.returned}, {"captures", std::move(captures)}});
  }
  return out;
}

std::string stats_csv(const std::vector<LayerRecording>& layers) {
  std::ostringstream out;
  out << "label,path,type,call,capture,tensor,shape,dtype";
  for (const auto& h : stats_csv_header()) out << "," << h;
  out << "\n";
  for_each_tensor(layers, [&](const LayerRecording& layer, const CaptureRecording& c, size_t i) {
    out << layer.label << "," << csv_field(layer.path) << "," << csv_field(layer.type) << ","
        << layer.call << "," << capture_name(c.capture) << "," << i << ","
        << shape_text(c.sink.shape(i)) << "," << c.sink.dtype(i);
    for (const auto& cell : stats_csv_cells(c.sink.stats(i))) out << "," << cell;
    out << "\n";
  });
  return out.str();
}

}  // namespace modrec

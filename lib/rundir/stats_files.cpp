#include "rundir/stats_files.h"

#include <algorithm>
#include <sstream>

#include "stats/stats_csv.h"
#include "util/csv_path.h"
#include "util/text.h"

namespace modrec {

nlohmann::json stats_json(const std::vector<RunLayer>& layers) {
  nlohmann::json out = {{"layers", nlohmann::json::array()}};
  for (const auto& layer : layers) {
    nlohmann::json captures = nlohmann::json::object(), refused = nlohmann::json::object();
    for (const auto& c : layer.captures) {
      nlohmann::json tensors = nlohmann::json::array();
      for (size_t i = 0; i < c.tensors.size(); ++i) {
        const RunTensor& r = c.tensors[i];
        nlohmann::json t = r.stats.to_json();
        t["tensor"] = i;
        if (!r.name.empty()) t["name"] = r.name;
        t["shape"] = r.shape;
        t["dtype"] = r.dtype;
        if (!r.at.empty()) t["at"] = r.at;
        tensors.push_back(std::move(t));
      }
      captures[c.name] = std::move(tensors);
      if (!c.no_gradient.empty()) refused[c.name] = no_gradient_json(c.no_gradient);
    }
    out["layers"].push_back({{"label", layer.ref.label},
                             {"path", layer.ref.path},
                             {"type", layer.ref.type},
                             {"call", layer.call},
                             {"returned", layer.returned},
                             {"captures", std::move(captures)}});
    if (!refused.empty()) out["layers"].back()["no_gradient"] = std::move(refused);
    if (layer.memory) out["layers"].back()["memory"] = *layer.memory;
  }
  return out;
}

namespace {
// Recorded with --columns saved_bytes,peak_bytes: stats.csv's rows end in their layer's figures.
bool has_memory(const std::vector<RunLayer>& layers) {
  return std::any_of(layers.begin(), layers.end(), [](const RunLayer& l) { return l.memory; });
}

std::string memory_cells(const std::optional<CallMemory>& m) {
  if (!m) return ",,,";
  return "," + std::to_string(m->saved_bytes) + "," + std::to_string(m->peak_forward_bytes) + "," +
         std::to_string(m->peak_backward_bytes);
}

}  // namespace

std::string stats_csv(const std::vector<RunLayer>& layers) {
  const bool memory = has_memory(layers);
  std::ostringstream out;
  out << "label,path,type,call,capture,tensor,element,shape,dtype";
  for (const auto& h : stats_csv_header()) out << "," << h;
  if (memory) out << ",saved_bytes,peak_forward_bytes,peak_backward_bytes";
  out << "\n";
  for (const auto& layer : layers)
    for (const auto& c : layer.captures)
      for (size_t i = 0; i < c.tensors.size(); ++i) {
        const RunTensor& t = c.tensors[i];
        out << layer.ref.label << "," << csv_field(csv_path(layer.ref.path)) << ","
            << csv_field(layer.ref.type) << "," << layer.call << "," << c.name << "," << i << ","
            << csv_field(tensor_element(c.name, t.name, t.at, i, c.tensors.size())) << ","
            << shape_text(t.shape) << "," << t.dtype;
        for (const auto& cell : stats_csv_cells(t.stats)) out << "," << cell;
        if (memory) out << memory_cells(layer.memory);
        out << "\n";
      }
  return out.str();
}

}  // namespace modrec

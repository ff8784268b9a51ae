#include "record/output/run_files.h"

#include "rundir/stats_files.h"
#include "util/error.h"

namespace modrec {
namespace {

// The layers' statistics in the form stats_files.h writes.
std::vector<RunLayer> recorded_stats(const std::vector<LayerRecording>& layers) {
  std::vector<RunLayer> out;
  for (const auto& layer : layers) {
    RunLayer r{{layer.label, layer.path, layer.type}, layer.call, layer.returned, {}, layer.memory};
    for (const auto& c : layer.captures) {
      RunCapture capture{capture_name(c.capture), {}, {}, c.sink.no_gradient()};
      for (size_t i = 0; i < c.sink.num_tensors(); ++i) {
        const std::string name = c.sink.tensor_names().empty() ? "" : c.sink.tensor_names()[i];
        capture.tensors.push_back({static_cast<int>(i), name, c.sink.shape(i), c.sink.dtype(i),
                                   c.sink.stats(i), c.sink.tensor_place(i)});
      }
      r.captures.push_back(std::move(capture));
    }
    out.push_back(std::move(r));
  }
  return out;
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
  return stats_json(recorded_stats(layers));
}

std::string stats_csv(const std::vector<LayerRecording>& layers) {
  return stats_csv(recorded_stats(layers));
}

}  // namespace modrec

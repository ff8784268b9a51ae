#include "record/recorded_layers.h"

#include <spdlog/spdlog.h>

namespace modrec {

void RecordedLayers::merge(std::deque<CapturedCall>& captured, const PassCalls& calls) {
  for (const CapturedCall& c : captured) {
    LayerRecording& layer =
        layer_for(calls.labels[c.call], c.module, calls.numbers[c.call], calls.trace.calls[c.call].traced_away);
    for (Capture capture : captures_.list()) layer.sink(capture).add(captured_value(c, capture));
  }
}

LayerRecording& RecordedLayers::layer_for(const std::string& label, int module, int number,
                                          bool traced_away) {
  auto it = by_label_.find(label);
  if (it != by_label_.end()) return layers_[it->second];
  const Module& m = tree_.modules[module];
  if (traced_away)
    spdlog::warn("layer {} {} ({}) was traced away: its call passes no tensor, nothing to record",
                 label, m.path, m.type);
  LayerRecording layer{label, m.path, m.type, number, traced_away, {}};
  for (Capture capture : captures_.list())
    layer.captures.push_back({capture, CaptureSink(save_, reduce_, run_dir_, label, capture), {}});
  by_label_[label] = layers_.size();
  layers_.push_back(std::move(layer));
  return layers_.back();
}

}  // namespace modrec

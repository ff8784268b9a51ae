#include "record/output/batch_events.h"

#include "rundir/run_dir.h"
#include "pass/value_meta.h"

namespace modrec {

void write_batch_events(EventFile& events, int64_t batch, const std::deque<CapturedCall>& captured,
                        const PassCalls& calls, const ModuleTree& tree, CaptureSet captures) {
  for (const CapturedCall& c : captured) {
    const Module& m = tree.modules[c.module];
    for (Capture capture : captures.list()) {
      if (is_module_capture(capture)) continue;
      const CapturedValue value = captured_value(c, capture);
      const std::vector<std::string> places = tensor_places(value.structure);
      const size_t n = value.tensors.size();
      for (size_t i = 0; i < n; ++i) {
        const std::string at = i < places.size() ? places[i] : "";
        events.statistics(batch,
                          statistics_tag(m.path, m.type, calls.labels[c.call],
                                         tensor_element(capture_name(capture), "", at, i, n)),
                          value.tensors[i].stats);
      }
    }
  }
  events.flush();
}

void write_module_events(EventFile& events, int64_t batch,
                         const std::vector<LayerRecording>& layers) {
  for (const LayerRecording& layer : layers)
    for (const CaptureRecording& c : layer.captures) {
      if (!is_module_capture(c.capture)) continue;
      for (size_t i = 0; i < c.sink.num_tensors(); ++i)
        events.statistics(batch,
                          statistics_tag(layer.path, layer.type, layer.label, c.sink.element(i)),
                          c.sink.stats(i));
    }
  events.flush();
}

}  // namespace modrec

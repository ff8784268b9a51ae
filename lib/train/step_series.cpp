#include "train/step_series.h"

#include "files/scalar_type.h"
#include "rundir/run_dir.h"

namespace modrec {

void StepSeries::add(int64_t step, double loss, const std::vector<LayerRecording>& layers,
                     const std::vector<ParameterUpdate>& updates) {
  for (const auto& layer : layers) {
    const LayerRef ref{layer.label, layer.path, layer.type};
    for (const auto& c : layer.captures)
      for (size_t i = 0; i < c.sink.num_tensors(); ++i) {
        const auto& names = c.sink.tensor_names();
        const RunTensor tensor{static_cast<int>(i), names.empty() ? "" : names[i],
                               c.sink.shape(i),     c.sink.dtype(i),
                               c.sink.stats(i),     c.sink.tensor_place(i)};
        write({step, loss, ref, capture_name(c.capture), tensor}, c.sink.element(i));
      }
    int i = 0;
    for (const auto& u : updates)
      if (u.label == layer.label)
        write({step,
               loss,
               ref,
               "update",
               {i++, u.name, u.change.shape, dtype_name(u.change.dtype), u.change.stats, ""},
               u.ratio},
              tensor_element("update", u.name, "", 0, 1));
  }
  files_.flush();
  if (tensorboard_) tensorboard_->flush();
}

void StepSeries::add_loss(int64_t step, double loss) {
  if (!tensorboard_) return;
  tensorboard_->scalar(step, "loss", loss);
  tensorboard_->flush();
}

void StepSeries::write(const StepRow& r, const std::string& element) {
  files_.write(r);
  if (!tensorboard_) return;
  const std::string tag = statistics_tag(r.layer.path, r.layer.type, r.layer.label, element);
  tensorboard_->statistics(r.step, tag, r.tensor.stats);
  if (r.capture == "update") tensorboard_->scalar(r.step, tag + "/update_ratio", r.update_ratio);
}

}  // namespace modrec

#include "record/output/manifest.h"

#include "load/version.h"
#include "rundir/run_dir.h"
#include "files/scalar_type.h"
#include "arguments/input_manifest.h"

namespace modrec {
namespace {

nlohmann::json or_null(bool present, nlohmann::json value) {
  return present ? std::move(value) : nlohmann::json();
}

nlohmann::json inputs_json(const RecordManifest& run) {
  nlohmann::json tensors = nlohmann::json::array(), sources = nlohmann::json::array();
  for (const auto& s : run.batches_run.sources()) {
    tensors.push_back({{"shape", s->sizes()}, {"dtype", dtype_name(s->dtype())}});
    sources.push_back(source_json(*s));
  }
  const SourcePtr& targets = run.batches_run.targets();
  nlohmann::json out = {
      {"files", run.inputs.files}, {"sizes", run.inputs.sizes},
      {"seed", run.inputs.seed},   {"tensors", tensors},
      {"sources", sources},        {"targets", targets ? source_json(*targets) : nlohmann::json()}};
  add_arguments_json(out, run.inputs, run.batches_run.arguments());
  return out;
}

nlohmann::json edits_json(const EditOptions& edits) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& spec : edits.specs) out.push_back(spec.text);
  return out;
}

nlohmann::json nonfinite_json(const std::optional<FirstNonFinite>& first) {
  if (!first) return nullptr;
  return {{"batch", first->batch},
          {"label", first->label},
          {"path", first->path},
          {"capture", capture_name(first->capture)}};
}

nlohmann::json columns_json(const std::vector<Column>& columns) {
  nlohmann::json out = nlohmann::json::array();
  for (Column c : columns) out.push_back(name_of(column_names(), c));
  return out;
}

nlohmann::json options_json(const RecordManifest& run) {
  const RecordOptions& o = run.options;
  nlohmann::json captures = nlohmann::json::array();
  for (Capture c : o.resolved_captures().list()) captures.push_back(capture_name(c));
  return {{"layers", o.layers.text()},
          {"capture", captures},
          {"loss", name_of(loss_names(), o.loss)},
          {"grad_file", or_null(!o.grad_file.empty(), o.grad_file)},
          {"backward", o.backward},
          {"save", name_of(save_format_names(), o.save)},
          {"batch_size", or_null(o.batch_size > 0, o.batch_size)},
          {"reduce", or_null(o.reduce != Reduce::none, name_of(reduce_names(), o.reduce))},
          {"edits", edits_json(o.edits)},
          {"when", or_null(o.when.kind != When::Kind::always, o.when.text)},
          {"targets_file", or_null(!o.targets_file.empty(), o.targets_file)},
          {"columns", columns_json(o.columns)},
          {"mode", name_of(mode_names(), run.model.mode)}};
}

nlohmann::json captures_json(const LayerRecording& layer) {
  nlohmann::json captures = nlohmann::json::object();
  for (const auto& c : layer.captures) {
    nlohmann::json shapes = nlohmann::json::array(), dtypes = nlohmann::json::array();
    for (size_t i = 0; i < c.sink.num_tensors(); ++i) {
      shapes.push_back(c.sink.saved_shape(i));
      dtypes.push_back(dtype_name(c.sink.saved_dtype(i)));
    }
    nlohmann::json& entry = captures[capture_name(c.capture)];
    entry = {{"files", c.files}, {"shapes", shapes}, {"dtypes", dtypes}};
    nlohmann::json values = c.sink.non_tensor_values();
    if (!values.empty()) entry["values"] = std::move(values);
    if (is_module_capture(c.capture)) entry["names"] = c.sink.tensor_names();
    if (c.capture == Capture::param_grad) entry["summed_over_calls"] = layer.param_calls;
    if (!c.sink.no_gradient().empty())
      entry["no_gradient"] = no_gradient_json(c.sink.no_gradient());
  }
  return captures;
}

nlohmann::json layers_json(const std::vector<LayerRecording>& layers) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& layer : layers) {
    out.push_back({{"label", layer.label},
                   {"path", layer.path},
                   {"type", layer.type},
                   {"call", layer.call},
                   {"returned", layer.returned},
                   {"captures", captures_json(layer)}});
    if (layer.traced_away) out.back()["traced_away"] = true;
    if (layer.memory) out.back()["memory"] = *layer.memory;
  }
  return out;
}

}  // namespace

RunManifest record_manifest(const RecordManifest& run) {
  RunManifest manifest =
      new_run_manifest(RunKind::recording, {modrec_version(), libtorch_version(), run.model.path});
  manifest.fields.update({{"inputs", inputs_json(run)},
                          {"options", options_json(run)},
                          {"batches", run.batches.size()},
                          {"kept_batches", run.batches},
                          {"first_nonfinite", nonfinite_json(run.first_nonfinite)},
                          {"shard", shard_json(run.inputs.shard, run.batches_run.range())},
                          {"samples", run.batches_run.range().size()},
                          {"total_samples", or_null(run.batches_run.total_samples() >= 0,
                                                    run.batches_run.total_samples())},
                          {"layers", layers_json(run.layers)}});
  if (run.memory) manifest.fields["memory"] = *run.memory;
  return manifest;
}

}  // namespace modrec

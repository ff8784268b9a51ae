#include "record/accumulate/accumulated_layers.h"

#include <algorithm>

#include "tensor_stats/tensor_stats.h"
#include "util/log.h"

namespace modrec {
namespace {

// Each call's position in the order the calls returned (innermost first). Calls nest, so a call
// returns once the calls started after it under another parent have; -1 for a call that never
// returned.
std::vector<int> return_order(const CallTrace& trace) {
  std::vector<int> order(trace.calls.size(), -1), open;
  int returned = 0;
  auto close_until = [&](int parent) {
    while (!open.empty() && open.back() != parent) {
      if (trace.calls[open.back()].finished) order[open.back()] = returned++;
      open.pop_back();
    }
  };
  for (size_t i = 0; i < trace.calls.size(); ++i) {
    close_until(trace.calls[i].parent_call);
    open.push_back(static_cast<int>(i));
  }
  close_until(-1);
  return order;
}

}  // namespace

void AccumulatedLayers::merge(std::deque<CapturedCall>& captured, const PassCalls& calls) {
  const std::vector<int> returned = return_order(calls.trace);
  for (const CapturedCall& c : captured) {
    LayerRecording& layer = layer_for(calls.labels[c.call], c.module, calls.numbers[c.call],
                                      calls.trace.calls[c.call].traced_away);
    if (layer.returned < 0) layer.returned = returned[c.call];  // the first pass's order
    if (calls.trace.memory.measured) {
      const CallMemory& m = calls.trace.calls[c.call].memory;
      layer.memory = layer.memory ? largest(*layer.memory, m) : m;
    }
    for (Capture capture : captures_.list())
      if (!is_module_capture(capture)) layer.sink(capture).add(captured_value(c, capture));
  }
}

namespace {

// The named tensors as one capture's value; `names` gets the names of the defined ones.
CapturedValue named_value(const std::vector<std::pair<std::string, at::Tensor>>& named,
                          BatchFile* file, std::vector<std::string>& names) {
  CapturedValue value;
  for (const auto& [name, t] : named) {
    if (!t.defined()) continue;  // a gradient that never arrived
    names.push_back(name);
    value.tensors.push_back(summarize_tensor(t));
    if (file) value.stored.push_back(file->write(t));
  }
  return value;
}

void add_named(CaptureSink& sink, const std::vector<std::pair<std::string, at::Tensor>>& named,
               BatchFile* file, const std::vector<NoGradient>& refused = {}) {
  std::vector<std::string> names;
  CapturedValue value = named_value(named, file, names);
  value.no_gradient = refused;
  sink.name_tensors(std::move(names));
  sink.add(value);
}

}  // namespace

void AccumulatedLayers::add_param_grads(const InstrumentedModel& model,
                                        const BlockedParameters& blocked) {
  if (!captures_.param_grad) return;
  for (const auto& [module, index] : param_owner_) {
    auto& sums = grad_sums_[module];
    const auto params = model.own_parameters(module);
    sums.resize(params.size());
    for (size_t i = 0; i < params.size(); ++i) {
      sums[i].first = params[i].first;
      if (auto b = blocked.find(params[i].second.unsafeGetTensorImpl()); b != blocked.end())
        refuse(module, params[i].first, b->second);
      if (is_refused(module, params[i].first)) {
        sums[i].second = at::Tensor();  // a part of a gradient is no gradient
        continue;
      }
      const at::Tensor& grad = params[i].second.grad();
      if (!grad.defined()) continue;  // no gradient reached it in this batch
      // No copy of the first: gradients are set to None before each batch (clear_gradients),
      // so autograd makes new ones and never accumulates into this tensor in place.
      sums[i].second = sums[i].second.defined() ? sums[i].second + grad : grad;
    }
  }
}

void AccumulatedLayers::merge_params(const InstrumentedModel& model, const PassCalls& calls,
                                     BatchFile* file) {
  if (!captures_.param && !captures_.param_grad) return;
  for (const auto& [module, index] : param_owner_) {
    LayerRecording& layer = layers_[index];
    auto values = model.own_parameters(module);
    for (auto& p : values) p.second = p.second.detach();
    if (captures_.param) add_named(layer.sink(Capture::param), values, file);
    if (captures_.param_grad) {
      add_named(layer.sink(Capture::param_grad), grad_sums_[module], file, refused_[module]);
      for (size_t i = 0; i < calls.labels.size(); ++i)
        if (calls.trace.calls[i].module == module) layer.param_calls.push_back(calls.labels[i]);
    }
  }
}

void AccumulatedLayers::refuse(int module, const std::string& name,
                               const std::vector<std::string>& through) {
  if (!is_refused(module, name)) refused_[module].push_back({name, through});
}

bool AccumulatedLayers::is_refused(int module, const std::string& name) const {
  auto it = refused_.find(module);
  if (it == refused_.end()) return false;
  return std::any_of(it->second.begin(), it->second.end(),
                     [&](const NoGradient& g) { return g.at == name; });
}

LayerRecording& AccumulatedLayers::layer_for(const std::string& label, int module, int number,
                                             bool traced_away) {
  auto it = by_label_.find(label);
  if (it != by_label_.end()) return layers_[it->second];
  const Module& m = tree_.modules[module];
  if (traced_away)
    log::warn("layer ", label, " ", m.path, " (", m.type,
              ") has nothing to record: its call passes no tensor (traced away, or run inside "
              "a delegate)");
  LayerRecording layer{label, m.path, m.type, number, traced_away, {}, {}};
  const bool owns_params = param_owner_.emplace(module, layers_.size()).second;
  for (Capture capture : captures_.list()) {
    if (is_module_capture(capture) && !owns_params) continue;
    // A module's parameters are no samples: nothing to reduce over.
    const Reduce reduce = is_module_capture(capture) ? Reduce::none : reduce_;
    layer.captures.push_back({capture, CaptureSink(save_, reduce, run_dir_, label, capture), {}});
  }
  by_label_[label] = layers_.size();
  layers_.push_back(std::move(layer));
  return layers_.back();
}

}  // namespace modrec

#include "graph/flow_collector.h"

#include "pass/value_meta.h"

namespace modrec {
namespace {

// The defined tensors of a value, in the order ValueMeta::tensors lists them.
std::vector<at::Tensor> defined_tensors(const c10::IValue& value) {
  std::vector<at::Tensor> all, defined;
  flatten_tensors(value, all);
  for (auto& t : all)
    if (t.defined()) defined.push_back(std::move(t));
  return defined;
}

}  // namespace

std::vector<c10::IValue> FlowCollector::take_inputs(const std::vector<c10::IValue>& inputs) {
  int index = 0;
  std::vector<c10::IValue> out;
  for (const auto& input : inputs)
    out.push_back(map_tensors(input, [&](const at::Tensor& t) {
      if (!t.defined()) return t;
      at::Tensor fresh = t.is_floating_point() ? t.detach().requires_grad_(true).clone() : t;
      produce(fresh, {FlowEnd::Kind::input, index++});
      return fresh;
    }));
  return out;
}

void FlowCollector::enter(int call, int, const std::vector<c10::IValue>& args) {
  if (!open_.empty()) open_.back().made_calls = true;
  Open frame{call};
  for (const auto& arg : args)
    for (const auto& t : defined_tensors(arg)) add_sources(t, frame.sources);
  open_.push_back(std::move(frame));
}

// Only a call that made no call is a producer: a container's result is its last call's (or is
// folded from its calls' by the ops after them).
c10::IValue FlowCollector::leave(int call, int, const c10::IValue& output) {
  const Open frame = std::move(open_.back());
  open_.pop_back();
  const auto tensors = defined_tensors(output);
  if (!frame.made_calls) {
    add_edges(frame.sources, {FlowEnd::Kind::call, call});
    for (const auto& t : tensors) produce(t, {FlowEnd::Kind::call, call});
  }
  if (open_.empty())
    for (size_t j = 0; j < tensors.size(); ++j) {
      std::set<FlowEnd> sources;
      add_sources(tensors[j], sources);
      add_edges(sources, {FlowEnd::Kind::output, static_cast<int>(j)});
    }
  return output;
}

FlowCollector::Identity FlowCollector::identity(const at::Tensor& t) {
  return {t.storage().unsafeGetStorageImpl(), t.storage_offset(), t.sizes().vec(),
          t.strides().vec(), t._version()};
}

void FlowCollector::produce(const at::Tensor& t, FlowEnd end) {
  autograd_.add(t, end);
  if (t.has_storage()) by_identity_[identity(t)] = {t.storage(), end};
}

void FlowCollector::add_sources(const at::Tensor& t, std::set<FlowEnd>& into) const {
  if (auto found = autograd_.sources(t)) {
    into.insert(found->begin(), found->end());
    return;
  }
  if (!t.has_storage()) return;
  auto it = by_identity_.find(identity(t));
  if (it != by_identity_.end()) into.insert(it->second.second);
}

void FlowCollector::add_edges(const std::set<FlowEnd>& sources, FlowEnd to) {
  for (const auto& from : sources)
    if (seen_.insert({from, to}).second) flow_.edges.push_back({from, to});
}

}  // namespace modrec

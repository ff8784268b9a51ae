// CallHooks that find the data flow between a pass's calls (DataFlow): which call's output (or
// which graph input) each argument of each atomic call and each graph output was computed from.
#pragma once
#include <map>
#include <set>
#include <tuple>

#include "graph/autograd_walk.h"
#include "graph/data_flow.h"
#include "instrument/call_hooks.h"

namespace modrec {

// The pass must run with autograd on: a tensor computed by ops between calls (resnet's
// `out += identity`) is traced back through its autograd nodes to the call outputs and graph
// inputs it came from. A tensor without autograd history (integers, no grad) is matched by
// identity: storage, place in it (offset, sizes, strides) and version.
class FlowCollector : public CallHooks {
 public:
  // The model's inputs as forward is to get them: each floating one a fresh tensor with autograd
  // history (a clone of a leaf that requires grad, so that in-place ops on it stay legal), each
  // registered as a graph input.
  std::vector<c10::IValue> take_inputs(const std::vector<c10::IValue>& inputs);

  void enter(int call, int module, const std::vector<c10::IValue>& args) override;
  c10::IValue leave(int call, int module, const c10::IValue& output) override;

  DataFlow take() { return std::move(flow_); }

 private:
  using Identity =
      std::tuple<const void*, int64_t, std::vector<int64_t>, std::vector<int64_t>, uint32_t>;
  struct Open {
    int call;
    bool made_calls = false;
    std::set<FlowEnd> sources;  // of its arguments
  };

  static Identity identity(const at::Tensor& t);
  void produce(const at::Tensor& t, FlowEnd end);
  void add_sources(const at::Tensor& t, std::set<FlowEnd>& into) const;
  void add_edges(const std::set<FlowEnd>& sources, FlowEnd to);

  AutogradProducers autograd_;
  // Storage is held so that no address is reused while the pass runs.
  std::map<Identity, std::pair<c10::Storage, FlowEnd>> by_identity_;
  std::vector<Open> open_;
  std::set<FlowEdge> seen_;
  DataFlow flow_;
};

}  // namespace modrec

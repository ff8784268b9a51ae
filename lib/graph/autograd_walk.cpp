#include "graph/autograd_walk.h"

#include <torch/csrc/autograd/function.h>
#include <torch/csrc/autograd/variable.h>

#include <deque>
#include <map>
#include <set>

namespace modrec {

using torch::autograd::Edge;
using torch::autograd::Node;

// Edges are told apart by node and slot: one node can make several outputs, of different calls.
// The nodes are held, so that no address is reused by a later node while the pass runs.
struct AutogradProducers::Impl {
  using Key = std::pair<const Node*, uint32_t>;
  std::map<Key, std::pair<decltype(Edge::function), FlowEnd>> ends;  // shared_ptr before 2.x

  const FlowEnd* end_of(const Edge& e) const {
    auto it = ends.find({e.function.get(), e.input_nr});
    return it == ends.end() ? nullptr : &it->second.second;
  }
};

AutogradProducers::AutogradProducers() : impl_(std::make_unique<Impl>()) {}
AutogradProducers::~AutogradProducers() = default;

bool AutogradProducers::add(const at::Tensor& t, FlowEnd end) {
  if (!t.requires_grad()) return false;
  Edge e = torch::autograd::impl::gradient_edge(t);
  if (!e.is_valid()) return false;
  impl_->ends[{e.function.get(), e.input_nr}] = {e.function, end};
  return true;
}

std::optional<std::vector<FlowEnd>> AutogradProducers::sources(const at::Tensor& t) const {
  if (!t.requires_grad()) return std::nullopt;
  const Edge start = torch::autograd::impl::gradient_edge(t);
  if (!start.is_valid()) return std::nullopt;
  std::set<FlowEnd> found;
  std::set<const Node*> seen;
  std::deque<Edge> todo{start};
  while (!todo.empty()) {
    const Edge e = std::move(todo.front());
    todo.pop_front();
    if (const FlowEnd* end = impl_->end_of(e)) {
      found.insert(*end);
    } else if (seen.insert(e.function.get()).second) {
      for (const Edge& next : e.function->next_edges())
        if (next.is_valid()) todo.push_back(next);
    }
  }
  return std::vector<FlowEnd>(found.begin(), found.end());
}

}  // namespace modrec

#include "record/collect/no_derivative.h"

#include <ATen/core/dispatch/Dispatcher.h>
#include <ATen/record_function.h>
#include <torch/csrc/autograd/function.h>
#include <torch/csrc/autograd/variable.h>

#include <set>
#include <typeindex>
#include <unordered_map>
#include <unordered_set>
#include <utility>

namespace modrec {
namespace {
using torch::autograd::Node;

// No kernel registered for autograd (the Autograd alias or a backend's AutogradCPU...), nor a
// CompositeImplicitAutograd one (it decomposes into operators that have theirs): a call with an
// input that requires grad goes to LibTorch's autograd fallback, whose node passes no gradient
// back. (The computed dispatch table cannot tell: it holds the fallback itself.)
bool lacks_derivative(const c10::OperatorName& name) {
  auto op = c10::Dispatcher::singleton().findOp(name);
  return op && !op->hasKernelForDispatchKey(c10::DispatchKey::Autograd) &&
         !op->hasKernelForDispatchKey(c10::DispatchKey::CompositeImplicitAutograd) &&
         !op->hasKernelForAnyDispatchKey(c10::autograd_dispatch_keyset);
}

// The fallback's node (WarnNotImplemented) and the generated one of operators declared without a
// derivative (NotImplemented) are told by their type's name: neither type is in LibTorch's headers.
bool passes_nothing_back(const Node& node) {
  static thread_local std::unordered_map<std::type_index, bool> known;
  auto [it, added] = known.try_emplace(std::type_index(typeid(node)), false);
  if (added) {
    const std::string name = node.name();
    const std::string suffix = "NotImplemented";
    it->second = name.size() >= suffix.size() &&
                 name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0;
  }
  return it->second;
}

using EdgeKey = std::pair<const Node*, uint32_t>;  // a node and one of its inputs

struct EdgeHash {
  size_t operator()(const EdgeKey& e) const {
    return std::hash<const Node*>()(e.first) ^ (static_cast<size_t>(e.second) << 1);
  }
};

// visit(node, input) for every edge reachable back from `from` (not into `from` itself); each node
// is expanded once.
template <class Visit>
void walk_back(const Node* from, Visit visit) {
  std::unordered_set<const Node*> seen{from};
  std::vector<const Node*> todo{from};
  while (!todo.empty()) {
    const Node* node = todo.back();
    todo.pop_back();
    for (const auto& next : node->next_edges()) {
      const Node* n = next.function.get();
      if (!n) continue;
      visit(n, next.input_nr);
      if (seen.insert(n).second) todo.push_back(n);
    }
  }
}

}  // namespace

using BlockedEdges = std::unordered_map<EdgeKey, std::set<std::string>, EdgeHash>;

struct NoDerivativeOps::State {
  std::unordered_map<const char*, bool> lacks;  // by the schema's name, which outlives the run
  // The operator without a derivative that ran when the autograd clock stood at each number: the
  // node it made has that sequence number (an operator that made none is followed by the one that
  // did, at the same number).
  std::unordered_map<int64_t, std::string> made_node;
  at::CallbackHandle handle = 0;
  const Node* walked_from = nullptr;  // blocking()'s root, while it lives: `blocked` is its
  BlockedEdges blocked;

  void start(const at::RecordFunction& fn) {
    if (fn.seqNr() < 0) return;  // not dispatched through autograd
    auto [it, added] = lacks.try_emplace(fn.name(), false);
    if (added) {
      const auto op = fn.operator_name();
      it->second = op && lacks_derivative(*op);
    }
    if (it->second) made_node[fn.seqNr()] = fn.name();
  }

  std::string op_of(const Node& node) const {
    auto it = made_node.find(static_cast<int64_t>(node.sequence_nr()));
    return it == made_node.end() ? "an operator without a derivative" : it->second;
  }
};

namespace {
thread_local NoDerivativeOps::State* t_state = nullptr;

std::unique_ptr<at::ObserverContext> on_start(const at::RecordFunction& fn) {
  if (t_state) t_state->start(fn);
  return nullptr;
}
}  // namespace

NoDerivativeOps::NoDerivativeOps() : state_(std::make_unique<State>()) {
  t_state = state_.get();
  state_->handle = at::addThreadLocalCallback(
      at::RecordFunctionCallback(on_start).scopes({at::RecordScope::FUNCTION}));
}

NoDerivativeOps::~NoDerivativeOps() {
  at::removeCallback(state_->handle);
  t_state = nullptr;
}

namespace {

// Each edge behind a node that passes nothing back (a stop) from `start`, with the operators of
// the stops it lies behind.
BlockedEdges blocked_edges(const Node* start, const NoDerivativeOps::State& state) {
  std::vector<const Node*> stops;
  if (passes_nothing_back(*start)) stops.push_back(start);
  std::unordered_set<const Node*> found;
  walk_back(start, [&](const Node* n, uint32_t) {
    if (passes_nothing_back(*n) && found.insert(n).second) stops.push_back(n);
  });
  BlockedEdges blocked;
  for (const Node* stop : stops) {
    const std::string op = state.op_of(*stop);
    walk_back(stop, [&](const Node* n, uint32_t input) { blocked[{n, input}].insert(op); });
  }
  return blocked;
}

}  // namespace

std::vector<std::vector<std::string>> NoDerivativeOps::blocking(
    const at::Tensor& root, const std::vector<const GradientEdge*>& edges) {
  std::vector<std::vector<std::string>> out(edges.size());
  if (!root.requires_grad()) return out;
  const auto start = torch::autograd::impl::gradient_edge(root);
  if (!start.function) return out;
  // The calls' gradients and the parameters' ask about the same graph: walked once.
  if (state_->walked_from != start.function.get()) {
    state_->blocked = blocked_edges(start.function.get(), *state_);
    state_->walked_from = start.function.get();
  }
  const BlockedEdges& blocked = state_->blocked;
  for (size_t i = 0; i < edges.size(); ++i) {
    const EdgeKey key{static_cast<const Node*>(edges[i]->node.get()), edges[i]->slot};
    auto it = blocked.find(key);
    if (it != blocked.end()) out[i].assign(it->second.begin(), it->second.end());
  }
  return out;
}

BlockedParameters blocked_parameters(NoDerivativeOps& ops, const at::Tensor& root,
                                     const std::vector<at::Tensor>& params) {
  std::vector<at::Tensor> leaves;
  std::vector<GradientEdge> edges;
  for (const at::Tensor& p : params)
    if (p.requires_grad()) {
      leaves.push_back(p);
      edges.push_back(gradient_edge(p));
    }
  std::vector<const GradientEdge*> pointers;
  for (const GradientEdge& e : edges) pointers.push_back(&e);
  const auto blocked = ops.blocking(root, pointers);
  BlockedParameters out;
  for (size_t i = 0; i < leaves.size(); ++i)
    if (!blocked[i].empty()) out[leaves[i].unsafeGetTensorImpl()] = blocked[i];
  return out;
}

}  // namespace modrec

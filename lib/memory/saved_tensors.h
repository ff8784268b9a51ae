// What autograd keeps for the backward: the tensors of the autograd nodes' SavedVariables. The
// only reader of them; LibTorch's compiled autograd enumerates them (Node::compiled_args visits
// every SavedVariable of every generated node and of C++ custom functions), which is the one
// generic way C++ has to list a node's saved tensors (SavedVariable hooks attach per variable,
// through each node type's own members).
#pragma once
#include <ATen/core/Tensor.h>

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <unordered_set>
#include <vector>

namespace torch::autograd {
struct Node;
}

namespace modrec {

// The storages of tensors that stay resident whatever the pass does (parameters, buffers), by
// their data pointer: left out of saved bytes (a weight's transpose is a view of the weight).
using StorageSet = std::unordered_set<const void*>;
StorageSet storages_of(const std::vector<at::Tensor>& tensors);

// The tensors `node` saved for its backward, unpacked (undefined ones left out); nullopt when the
// node cannot list them (a node type without compiled_args, such as a Python function's).
std::optional<std::vector<at::Tensor>> saved_tensors(torch::autograd::Node& node);

// What autograd saved in one span of the forward.
struct SavedInSpan {
  int64_t bytes = 0;  // each storage once; `resident` ones left out
  // Node types of the span that could not list what they saved (counted as nothing).
  std::set<std::string> untold;
};

// The nodes numbered [first, end) (autograd's sequence numbers: those made in the span) reachable
// from the grad_fn of `roots` (the span's results, and its arguments, which an in-place operator
// may have given a node of the span); the storages they saved.
SavedInSpan saved_in_span(const std::vector<at::Tensor>& roots, uint64_t first, uint64_t end,
                          const StorageSet& resident);

}  // namespace modrec

// The summaries of one pass's tensors, each tensor summarized once. A container's output is its
// last child's output, the very same tensor, and its gradient is the same gradient tensor too:
// resnet18's stages and blocks return what their last ReLU returned. Recording every layer
// would otherwise compute those statistics two or three times.
//
// A tensor is the same when it is the same TensorImpl at the same version: an in-place op (a
// ReLU that rewrites its input, an edit) bumps the version, and such a tensor is summarized
// anew. Entries hold weak references, so a freed tensor's memory is released as before, and no
// new tensor can take a remembered tensor's address while its entry lives.
#pragma once
#include <ATen/core/Tensor.h>
#include <c10/util/intrusive_ptr.h>

#include <mutex>
#include <unordered_map>

#include "tensor_stats/tensor_stats.h"

namespace modrec {

class TensorSummaryMemo {
 public:
  // summarize_tensor(t), or the summary made earlier for the same tensor. Thread-safe: autograd
  // may run gradient hooks on other threads.
  TensorSummary summarize(const at::Tensor& t);

 private:
  struct Entry {
    c10::weak_intrusive_ptr<c10::TensorImpl> impl;
    uint32_t version = 0;
    TensorSummary summary;
  };
  std::mutex mutex_;
  std::unordered_map<const c10::TensorImpl*, Entry> entries_;
};

}  // namespace modrec

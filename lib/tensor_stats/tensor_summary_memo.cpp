#include "tensor_stats/tensor_summary_memo.h"

namespace modrec {

TensorSummary TensorSummaryMemo::summarize(const at::Tensor& t) {
  const c10::TensorImpl* key = t.unsafeGetTensorImpl();
  const uint32_t version = t._version();
  {
    std::lock_guard<std::mutex> lock(mutex_);
    const auto it = entries_.find(key);
    if (it != entries_.end() && it->second.version == version &&
        t.sizes() == c10::IntArrayRef(it->second.summary.shape))  // resize_ keeps the version
      return it->second.summary;
  }
  TensorSummary summary = summarize_tensor(t);  // outside the lock: the expensive part
  std::lock_guard<std::mutex> lock(mutex_);
  entries_.insert_or_assign(
      key, Entry{c10::weak_intrusive_ptr<c10::TensorImpl>(t.getIntrusivePtr()), version, summary});
  return summary;
}

}  // namespace modrec

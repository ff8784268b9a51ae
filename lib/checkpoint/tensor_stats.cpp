#include "checkpoint/tensor_stats.h"

#include "checkpoint/tensor_bytes.h"

namespace modrec {
namespace {

// Elements per piece: enough that a piece's setup is noise, few enough that both cores share a
// large tensor. Conversions (bfloat16, float8) go through a buffer this size per call.
constexpr int64_t kPiece = int64_t{1} << 22;
constexpr size_t kBuffer = size_t{1} << 14;
// check reads no histogram: the fewest bins RunningStats keeps.
constexpr int kBins = 4;

// `n` elements of `type` widened to T a buffer at a time, into `stats`.
template <class T>
void add_widened(RunningStats& stats, DType type, const unsigned char* data, size_t n) {
  T buffer[kBuffer];
  for (size_t at = 0; at < n; at += kBuffer) {
    const size_t k = std::min(kBuffer, n - at);
    widen(type, data + at * dtype_bytes(type), k, buffer);
    stats.add(buffer, k);
  }
}

// `n` elements of `type` at `data` into `stats`: directly where RunningStats reads the type and
// the file placed them aligned for it, else widened a buffer at a time.
void add(RunningStats& stats, DType type, const unsigned char* data, size_t n) {
  if (reinterpret_cast<uintptr_t>(data) % static_cast<uintptr_t>(dtype_bytes(type)))
    return add_widened<double>(stats, type, data, n);
  switch (type) {
    case DType::float32:
      return stats.add(reinterpret_cast<const float*>(data), n);
    case DType::float64:
      return stats.add(reinterpret_cast<const double*>(data), n);
    case DType::int64:
      return stats.add(reinterpret_cast<const int64_t*>(data), n);
    case DType::int32:
      return stats.add(reinterpret_cast<const int32_t*>(data), n);
    case DType::int16:
      return stats.add(reinterpret_cast<const int16_t*>(data), n);
    case DType::int8:
      return stats.add(reinterpret_cast<const int8_t*>(data), n);
    case DType::uint8:
      return stats.add(reinterpret_cast<const uint8_t*>(data), n);
    case DType::uint16:
    case DType::uint32:
    case DType::uint64:
      return add_widened<double>(stats, type, data, n);
    default:  // float16, bfloat16, float8, bool's bytes (torch's 0 or 1): exact as float
      return add_widened<float>(stats, type, data, n);
  }
}

}  // namespace

std::vector<RunningStats> tensor_stats(const Checkpoint& checkpoint, int threads) {
  const TensorBytes bytes(checkpoint);
  std::vector<int64_t> numels;
  for (const CheckpointTensor& t : checkpoint.tensors) numels.push_back(t.numel());
  const std::vector<Piece> pieces = cut_into_pieces(numels, kPiece);
  std::vector<RunningStats> partial(pieces.size(), RunningStats(kBins));
  for_each_piece(pieces.size(), threads, [&](size_t k) {
    const Piece& p = pieces[k];
    const DType type = checkpoint.tensors[p.tensor].dtype;
    const uint64_t at = static_cast<uint64_t>(p.begin * dtype_bytes(type));
    add(partial[k], type, bytes.data(p.tensor) + at, static_cast<size_t>(p.count));
    bytes.release(p.tensor, at, static_cast<uint64_t>(p.count * dtype_bytes(type)));
  });
  // Merged in element order: the same figures whatever thread took which piece.
  std::vector<RunningStats> out(checkpoint.tensors.size(), RunningStats(kBins));
  for (size_t k = 0; k < pieces.size(); ++k) out[pieces[k].tensor].merge(partial[k]);
  return out;
}

RunDir as_run(const Checkpoint& checkpoint, const CheckpointSummary& summary,
              const std::vector<RunningStats>& stats) {
  RunDir run{checkpoint.path, {}, nullptr};
  for (const CheckpointRow& row : summary.rows) {
    if (row.tensors.empty()) continue;
    RunCapture capture{"param", {}, {}, {}};
    for (size_t i : row.tensors) {
      const CheckpointTensor& t = checkpoint.tensors[i];
      capture.tensors.push_back({static_cast<int>(capture.tensors.size()), t.leaf(), t.shape,
                                 dtype_name(t.dtype), stats[i], ""});
    }
    run.layers.push_back({{row.label, row.path, ""}, 1, -1, {std::move(capture)}});
  }
  return run;
}

}  // namespace modrec

#include "tensor_stats/tensor_stats.h"

#include <ATen/ATen.h>
#include <ATen/Parallel.h>

#include <algorithm>
#include <limits>
#include <vector>

#include "util/error.h"
#include "util/parallel_parts.h"

namespace modrec {
namespace {

// Below this many elements a tensor is not worth splitting across threads.
constexpr int64_t kParallelGrain = 1 << 16;

// Statistics are mergeable, so large tensors are split into as many parts as LibTorch has
// intra-op threads (the cores the user gave it, idle while a hook runs) and the parts merged in a
// fixed order: the result does not depend on timing. add_range(stats, lo, hi) adds elements
// [lo, hi) of n.
template <class AddRange>
void add_split(RunningStats& stats, int64_t n, const AddRange& add_range) {
  const int parts = static_cast<int>(std::min<int64_t>(statistics_threads(), n / kParallelGrain));
  if (parts < 2) {
    add_range(stats, 0, n);
    return;
  }
  std::vector<RunningStats> partial(static_cast<size_t>(parts));
  run_parts(parts, [&](int p) {
    add_range(partial[static_cast<size_t>(p)], n * p / parts, n * (p + 1) / parts);
  });
  for (const auto& p : partial) stats.merge(p);
}

template <class T>
void add_as(RunningStats& stats, const at::Tensor& t) {
  const T* data = t.data_ptr<T>();
  add_split(stats, t.numel(), [data](RunningStats& s, int64_t lo, int64_t hi) {
    s.add(data + lo, static_cast<size_t>(hi - lo));
  });
}

// after - before a piece at a time, each piece summarized while it is in L1: the difference is
// never written out whole. The pieces are a multiple of RunningStats' own chunks, so its chunks
// (and the result, to the bit) are those of one add() over the whole difference.
constexpr int64_t kPiece = 8192;

template <class T>
void add_difference(RunningStats& stats, const at::Tensor& after, const at::Tensor& before) {
  const T* a = after.data_ptr<T>();
  const T* b = before.data_ptr<T>();
  add_split(stats, after.numel(), [a, b](RunningStats& s, int64_t lo, int64_t hi) {
    thread_local std::vector<T> piece(kPiece);
    for (int64_t start = lo; start < hi; start += kPiece) {
      const int64_t len = std::min(kPiece, hi - start);
      for (int64_t i = 0; i < len; ++i) piece[i] = a[start + i] - b[start + i];
      s.add(piece.data(), static_cast<size_t>(len));
    }
  });
}

Error unsupported(const at::Tensor& t) {
  return Error(
      Exit::model_failed,
      std::string("statistics of dtype ") + c10::toString(t.scalar_type()) + " are not supported",
      "record", "record real-valued layers only");
}

}  // namespace

void add_tensor(RunningStats& stats, const at::Tensor& tensor) {
  at::Tensor t = tensor.detach().cpu().contiguous();
  switch (t.scalar_type()) {
    case at::kFloat:
      return add_as<float>(stats, t);
    case at::kDouble:
      return add_as<double>(stats, t);
    case at::kLong:
      return add_as<int64_t>(stats, t);
    case at::kInt:
      return add_as<int32_t>(stats, t);
    case at::kShort:
      return add_as<int16_t>(stats, t);
    case at::kChar:
      return add_as<int8_t>(stats, t);
    case at::kByte:
      return add_as<uint8_t>(stats, t);
    case at::kBool:
      return add_as<bool>(stats, t);
    case at::kHalf:
    case at::kBFloat16:
      return add_as<float>(stats, t.to(at::kFloat));
    default:
      throw unsupported(t);
  }
}

TensorSummary summarize_tensor(const at::Tensor& t) {
  if (!t.device().is_cpu()) return summarize_on_device(t);
  TensorSummary s{RunningStats(), t.sizes().vec(), t.scalar_type()};
  add_tensor(s.stats, t);
  return s;
}

TensorSummary summarize_difference(const at::Tensor& after, const at::Tensor& before) {
  const bool fused = after.device().is_cpu() && before.device().is_cpu() &&
                     after.scalar_type() == before.scalar_type() &&
                     (after.scalar_type() == at::kFloat || after.scalar_type() == at::kDouble) &&
                     after.sizes() == before.sizes() && after.is_contiguous() &&
                     before.is_contiguous();
  if (!fused) return summarize_tensor(after - before);
  TensorSummary s{RunningStats(), after.sizes().vec(), after.scalar_type()};
  if (after.scalar_type() == at::kFloat)
    add_difference<float>(s.stats, after, before);
  else
    add_difference<double>(s.stats, after, before);
  return s;
}

namespace {

// RunningStats' histogram over [-R, R]: R the smallest power of two >= abs_max (at least 2^-1000,
// 1 without a non-zero finite value). Bin indices come from exact power-of-two scaling; a
// negative value whose scaled form underflows to -0 still belongs below 0.
std::pair<at::Tensor, at::Tensor> histogram_on_device(const at::Tensor& x, const at::Tensor& finite,
                                                      const at::Tensor& abs_max, int bins) {
  const auto [mantissa, exponent] = at::frexp(abs_max);  // abs_max = mantissa * 2^exponent
  at::Tensor e = at::where(mantissa == 0.5, exponent - 1, exponent);
  e = at::where(abs_max > 0, e.clamp_min(-1000), at::zeros_like(e));
  const at::Tensor range = at::ldexp(at::ones_like(abs_max), e);
  const int half = bins / 2;
  at::Tensor index = at::floor(x / range * half).to(at::kLong) + half;
  index = at::where(x < 0, index.clamp_max(half - 1), index).clamp(0, bins - 1);
  index = at::where(finite, index, at::full_like(index, bins));  // NaN, Inf: a bin dropped below
  const at::Tensor counts = at::bincount(index, {}, bins + 1).narrow(0, 0, bins);
  return {counts, (x == range).sum()};
}

}  // namespace

TensorSummary summarize_on_device(const at::Tensor& t) {
  constexpr int kBins = 64;
  if (!at::isFloatingType(t.scalar_type()) && !at::isIntegralType(t.scalar_type(), true))
    throw unsupported(t);
  if (t.numel() == 0) return {RunningStats(kBins), t.sizes().vec(), t.scalar_type()};
  const at::Tensor x = t.detach().reshape(-1).to(at::kDouble);
  const at::Tensor finite = at::isfinite(x);
  const at::Tensor n = finite.sum().to(at::kDouble);
  const at::Tensor zero = at::zeros({}, x.options());
  const at::Tensor mean = at::where(finite, x, zero).sum() / n;
  const at::Tensor deviation = at::where(finite, x - mean, zero);
  const double inf = std::numeric_limits<double>::infinity();
  const at::Tensor min = at::where(finite, x, at::full({}, inf, x.options())).min();
  const at::Tensor max = at::where(finite, x, at::full({}, -inf, x.options())).max();
  const at::Tensor abs_max = at::where(n > 0, at::maximum(min.abs(), max.abs()), zero);
  const auto [counts, at_top] = histogram_on_device(x, finite, abs_max, kBins);
  const at::Tensor scalars =
      at::stack({n, at::isnan(x).sum().to(at::kDouble), (x == 0).sum().to(at::kDouble), mean,
                 (deviation * deviation).sum(), min, max, at_top.to(at::kDouble)});
  const at::Tensor host = at::cat({scalars, counts.to(at::kDouble)}).cpu();  // the one copy
  const double* v = host.data_ptr<double>();
  RunningStats::Parts parts;
  parts.count = x.numel();
  parts.finite = static_cast<int64_t>(v[0]);
  parts.nans = static_cast<int64_t>(v[1]);
  parts.zeros = static_cast<int64_t>(v[2]);
  parts.mean = v[3];
  parts.m2 = v[4];
  parts.min = v[5];
  parts.max = v[6];
  parts.at_top = static_cast<int64_t>(v[7]);
  parts.counts.assign(v + 8, v + 8 + kBins);
  return {RunningStats::from_parts(parts), t.sizes().vec(), t.scalar_type()};
}

int statistics_threads() { return at::get_num_threads(); }

}  // namespace modrec

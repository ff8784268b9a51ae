#include "merge/tensor_files.h"

#include <ATen/ATen.h>

#include <algorithm>
#include <filesystem>

#include "tensor_stats/tensor_stats.h"
#include "pass/value_meta.h"
#include "files/scalar_type.h"
#include "sources/npy_source.h"
#include "tensor_files/npy_stream.h"
#include "tensor_files/read_inputs.h"
#include "tensor_files/write_tensors.h"
#include "util/error.h"
#include "util/text.h"

namespace modrec {
namespace {

constexpr int64_t kChunkBytes = 8 << 20;  // streamed a few MiB at a time

[[noreturn]] void unfit(const CaptureFiles& c, const std::string& why) {
  throw Error(Exit::bad_input, "cannot merge the shards' tensors: " + why, c.where,
              "merge the shards of one recording");
}

bool is_npy(const std::string& path) {
  return path.size() >= 4 && path.compare(path.size() - 4, 4, ".npy") == 0;
}

std::string described(at::ScalarType type, const std::vector<int64_t>& shape) {
  return dtype_name(type) + " " + shape_text(shape);
}

// The shape of the shards' parts one after another along dim 0.
std::vector<int64_t> joined_shape(const CaptureFiles& c, const std::vector<at::ScalarType>& types,
                                  const std::vector<std::vector<int64_t>>& shapes) {
  std::vector<int64_t> whole = shapes.front();
  if (whole.empty()) unfit(c, "a 0-dim tensor has no dim 0 to concatenate along");
  for (size_t s = 1; s < shapes.size(); ++s) {
    if (types[s] != types[0] || shapes[s].size() != whole.size() ||
        !std::equal(whole.begin() + 1, whole.end(), shapes[s].begin() + 1))
      unfit(c, "cannot concatenate " + described(types[0], shapes[0]) + " and " +
                   described(types[s], shapes[s]));
    whole[0] += shapes[s][0];
  }
  return whole;
}

// A shard's .npy to read rows from: memory-mapped, or read whole when fortran_order.
SourcePtr open_rows(const std::string& path) { return npy_rows(open_input_file(path)); }

void concatenate_npy(const CaptureFiles& c, size_t file) {
  std::vector<SourcePtr> parts;
  std::vector<at::ScalarType> types;
  std::vector<std::vector<int64_t>> shapes;
  for (const auto& files : c.shard_files) {
    parts.push_back(open_rows(files[file]));
    types.push_back(parts.back()->dtype());
    shapes.push_back(parts.back()->sizes());
  }
  NpyStream out(c.out[file], types[0], joined_shape(c, types, shapes));
  for (const SourcePtr& part : parts) {
    const int64_t rows = part->samples();
    int64_t row_bytes = static_cast<int64_t>(c10::elementSize(part->dtype()));
    for (size_t d = 1; d < part->sizes().size(); ++d) row_bytes *= part->sizes()[d];
    const int64_t step = std::max<int64_t>(1, kChunkBytes / std::max<int64_t>(1, row_bytes));
    for (int64_t start = 0; start < rows; start += step)
      out.append(part->rows({start, std::min(rows, start + step)}));
  }
  out.close();
}

at::Tensor summed(const CaptureFiles& c, const std::vector<at::Tensor>& parts) {
  int64_t samples = 0;
  for (int64_t n : c.samples) samples += n;
  // A mean over no samples (a 0-dim capture) is record's plain sum.
  const bool weighted = c.combine == Combine::mean && samples > 0;
  at::Tensor total = at::zeros(parts[0].sizes(), at::kDouble);
  for (size_t s = 0; s < parts.size(); ++s) {
    if (parts[s].sizes() != parts[0].sizes() || parts[s].scalar_type() != parts[0].scalar_type())
      unfit(c, "cannot add " + described(parts[0].scalar_type(), parts[0].sizes().vec()) + " and " +
                   described(parts[s].scalar_type(), parts[s].sizes().vec()));
    total += parts[s].to(at::kDouble) * (weighted ? double(c.samples[s]) : 1.0);
  }
  if (weighted) total /= double(samples);
  return total.to(parts[0].scalar_type());
}

at::Tensor combined(const CaptureFiles& c, const std::vector<at::Tensor>& parts) {
  if (c.combine != Combine::concatenate) return summed(c, parts);
  std::vector<at::ScalarType> types;
  std::vector<std::vector<int64_t>> shapes;
  for (const auto& p : parts) {
    types.push_back(p.scalar_type());
    shapes.push_back(p.sizes().vec());
  }
  joined_shape(c, types, shapes);
  return at::cat(parts, 0);
}

// Whole values: each shard's file loaded, tensor by tensor combined, written in the first's form.
void merge_values(const CaptureFiles& c, size_t file) {
  std::vector<c10::IValue> values;
  std::vector<std::vector<at::Tensor>> tensors(c.shard_files.size());
  for (size_t s = 0; s < c.shard_files.size(); ++s) {
    values.push_back(read_saved_value(c.shard_files[s][file]));
    flatten_tensors(values.back(), tensors[s]);
    if (tensors[s].size() != tensors[0].size())
      unfit(c, std::to_string(tensors[0].size()) + " vs " + std::to_string(tensors[s].size()) +
                   " tensors in " + c.shard_files[s][file]);
  }
  std::vector<at::Tensor> merged;
  for (size_t i = 0; i < tensors[0].size(); ++i) {
    std::vector<at::Tensor> parts;
    for (const auto& shard : tensors) parts.push_back(shard[i]);
    merged.push_back(combined(c, parts));
  }
  if (is_npy(c.out[file]))
    write_npy(c.out[file], merged.at(0));
  else
    write_pt(c.out[file], rebuild_tensors(values[0], merged));
}

void copy_file(const std::string& from, const std::string& to) {
  if (!std::filesystem::is_regular_file(from))
    throw Error(Exit::bad_input, "a tensor file the manifest lists is missing", from,
                "record the shard again");
  std::error_code ec;
  std::filesystem::copy_file(from, to, ec);
  if (ec) throw Error(Exit::write_failed, "cannot copy " + from + ": " + ec.message(), to);
}

void merge_file(const CaptureFiles& c, size_t file) {
  if (c.shard_files.size() == 1 || c.combine == Combine::first)
    copy_file(c.shard_files[0][file], c.out[file]);
  else if (c.combine == Combine::concatenate && is_npy(c.out[file]))
    concatenate_npy(c, file);
  else
    merge_values(c, file);
}

}  // namespace

std::vector<RunningStats> merge_tensor_files(const CaptureFiles& c, bool statistics) {
  for (const auto& files : c.shard_files)
    if (files.size() != c.out.size())
      unfit(c, std::to_string(c.out.size()) + " vs " + std::to_string(files.size()) + " files");
  std::vector<RunningStats> stats;
  for (size_t f = 0; f < c.out.size(); ++f) {
    merge_file(c, f);
    if (!statistics) continue;
    std::vector<at::Tensor> written;
    flatten_tensors(read_saved_value(c.out[f]), written);
    for (const auto& t : written) stats.push_back(summarize_tensor(t).stats);
  }
  return stats;
}

}  // namespace modrec

// `modrec diff A B` of two checkpoints: tensor by tensor, by name, in float64 whatever the dtypes,
// streamed from the memory-mapped files on several threads (torch-free).
#pragma once
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "check/report_table.h"
#include "checkpoint/checkpoint.h"

namespace modrec {

struct CheckpointTolerance {
  double atol = 1e-8;  // torch.allclose's defaults; B is the reference
  double rtol = 1e-5;
};

struct TensorChange {
  enum class Status { same, differs, only_in_a, only_in_b, shape_changed, dtype_changed };
  std::string name;
  Status status = Status::same;
  std::vector<int64_t> shape_a, shape_b;
  std::optional<DType> dtype_a, dtype_b;  // nullopt in the checkpoint that lacks the tensor
  // Over the elements, when the shapes match (NaN otherwise): d = |a - b| (0 where both are
  // equal, NaN beside NaN included; inf where one side only is NaN).
  double max_abs = NAN;     // max d
  double mean_abs = NAN;    // mean d
  double rel_change = NAN;  // ||d||_2 / ||b||_2 (0 when d is all zero)
  double cosine = NAN;      // a.b / (||a|| ||b||); NaN when either is all zero
  int64_t mismatched = 0;   // elements with d > atol + rtol * |b| (torch.allclose's test)

  bool compared() const { return !std::isnan(max_abs); }
  bool passed() const { return status == Status::same; }
};

struct CheckpointDiff {
  std::vector<TensorChange> tensors;  // failures first, then by relative change, largest first
  size_t compared = 0;                // tensors compared element by element (in both, one shape)
  size_t held_a = 0, held_b = 0;      // the tensors each checkpoint's files hold
  bool passed() const;
};

// `threads` 0: one per core.
CheckpointDiff diff_checkpoints(const Checkpoint& a, const Checkpoint& b,
                                const CheckpointTolerance& tol, int threads);

// The verdict line (with how many tensors were compared of those the files hold) and the table
// (text, markdown), or {"a", "b", "atol", "rtol", "passed", "compared", "held_a", "held_b",
// "tensors": [...]} (json).
std::string format_checkpoint_diff(const CheckpointDiff& diff, const std::string& a,
                                   const std::string& b, const CheckpointTolerance& tol,
                                   ReportFormat format);

}  // namespace modrec

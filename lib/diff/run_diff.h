// `modrec diff`: two recording directories compared label by label (torch-free header).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "rundir/run_scope.h"
#include "rundir/run_dir.h"
#include "diff/value_diff.h"

namespace modrec {

struct TensorDiff {
  LayerRef layer;  // as RUN_A has it
  std::string capture;
  int tensor = 0;
  std::string element;  // RunCapture::element: "output[1][0]"
  std::string source;   // "tensors" when both runs saved them, else "stats"
  std::vector<int64_t> shape_a, shape_b;
  std::optional<ValueDiff> values;  // none when the tensors cannot be compared
  std::string problem;              // a structural difference: shapes, module path, NaN counts
  // A gradient one run could not record (RunCapture::no_gradient: no derivative on its way, or
  // untold): not compared, and no difference. Says which run, and the operators or the reason.
  std::string not_recorded;

  bool passed() const {
    return !not_recorded.empty() || (problem.empty() && values && values->close);
  }
};

// A layer's measured memory in both runs (recorded with --columns saved_bytes,peak_bytes): a
// figure that changed beyond Tolerance::memory_rtol of RUN_B's is a difference, so that a change
// which doubles a layer's saved bytes fails the diff.
struct MemoryDiff {
  LayerRef layer;  // as RUN_A has it
  CallMemory a, b;
  std::vector<std::string> changed;  // the figures beyond tolerance: "saved_bytes", ...

  bool passed() const { return changed.empty(); }
};

struct RunDiff {
  std::vector<TensorDiff> tensors;  // per (label, capture, tensor) present in both runs
  std::vector<MemoryDiff> memory;   // per label both runs measured
  std::vector<LayerRef> only_in_a, only_in_b;
  // Where the runs part: of the calls whose output differs, the one that returned first (RUN_A's
  // order; the calls around it return later and inherit its difference). An index into `tensors`
  // (that call's first differing output tensor); none when no output differs.
  std::optional<size_t> first_diverging;

  // Labels present in one run only do not fail a diff; they are listed.
  bool passed() const;
};

// `scope` selects among the labels of both runs. Throws Error(usage) on a bad selector,
// Error(bad_input) on an unreadable tensor file.
// `fail_fast` compares the calls in the order they returned and stops after the first whose
// output differs.
RunDiff diff_runs(const RunDir& a, const RunDir& b, const Tolerance& tol, const RunScope& scope,
                  bool fail_fast = false);

}  // namespace modrec

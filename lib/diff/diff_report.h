// What `modrec diff` prints: a verdict line, the first diverging call, a row per compared tensor,
// the error histograms of differing tensors, the labels of one run only
// (torch-free).
#pragma once
#include <string>

#include <nlohmann/json.hpp>

#include "check/report_table.h"
#include "diff/run_diff.h"

namespace modrec {

struct DiffHeading {
  std::string run_a, run_b;
  Tolerance tol;
};

// {"run_a", "run_b", "atol", "rtol", "rule", "error_stat", "passed", "first_diverging": {label,
// path, type, capture, tensor} or null, "tensors": [{label, path, capture, tensor, source,
// shape_a, shape_b, max_abs, mean_abs, max_rel, cosine, min_atol, min_rtol, histogram: {edges,
// counts} or null, passed, problem}], "memory_rtol", "memory": [{label, path, run_a: {saved_bytes,
// peak_forward_bytes, peak_backward_bytes}, run_b: {...}, changed: [figures], passed}] (the layers
// both runs measured), "only_in_a": [labels], "only_in_b": [labels]}; an undefined metric is
// null.
nlohmann::json diff_json(const RunDiff& diff, const DiffHeading& heading);

// markdown is for a GitHub job summary.
std::string format_diff(const RunDiff& diff, const DiffHeading& heading, ReportFormat format);

}  // namespace modrec

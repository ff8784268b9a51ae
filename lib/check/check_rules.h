// `modrec check`: rules over the statistics of a recording directory (torch-free).
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "rundir/run_scope.h"
#include "rundir/run_dir.h"

namespace modrec {

struct CheckRules {
  bool no_nan = true;                       // nan_count > 0 violates
  bool no_inf = true;                       // inf_count > 0 violates
  std::optional<double> max_abs;            // abs_max > X
  std::optional<double> max_std;            // std > X
  std::optional<double> min_std;            // std < X: a dead layer
  std::optional<double> max_zero_fraction;  // zero_fraction > F: dead ReLUs
  // More than one value, all equal: zero (no-dead) or another (no-constant). Unset: on for
  // checkpoints (a trained weight is neither), off for recorded runs.
  std::optional<bool> no_dead;
  std::optional<bool> no_constant;
};

struct Violation {
  LayerRef layer;
  std::string capture;
  int tensor = 0;
  std::string element;  // RunCapture::element: "output[1][0]"
  std::string rule;     // the flag's name without dashes: no-nan, max-abs, …
  double value = 0;
  double limit = 0;
};

// A gradient the run could not record (RunCapture::no_gradient): no rule applies to it.
struct NotRecorded {
  LayerRef layer;
  std::string element;  // "grad_output[0]"
  NoGradient refused;   // the operators without a derivative, or the reason
};

struct CheckResult {
  std::vector<Violation> violations;
  std::vector<NotRecorded> not_recorded;
  size_t layers_checked = 0;
  size_t tensors_checked = 0;
  // A checkpoint's: the tensors its files hold, of which tensors_checked were checked.
  std::optional<size_t> tensors_held;
};

// Throws Error(usage) on a bad selector or capture name; statistics that are undefined (std of
// one value, anything of no finite value) break no rule but no-nan/no-inf.
CheckResult check_run(const RunDir& run, const CheckRules& rules, const RunScope& scope);

}  // namespace modrec

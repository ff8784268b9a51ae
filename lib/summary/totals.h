// torchinfo's ModelStatistics totals over the rows (torch-free).
#pragma once
#include <cstdint>
#include <vector>

#include "summary/layer_row.h"

namespace modrec {

struct Totals {
  int64_t total_params = 0;
  int64_t trainable_params = 0;
  int64_t mult_adds = 0;
  int64_t param_bytes = 0;
  int64_t output_bytes = 0;   // forward/backward pass size: outputs of leaves with params, x2
  int64_t flops_forward = 0;  // the root call's: every operator that ran
  int64_t flops_backward = 0;
};

Totals compute_totals(const std::vector<LayerRow>& rows);

}  // namespace modrec

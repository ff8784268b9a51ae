#include "summary/totals.h"

#include <algorithm>

namespace modrec {

namespace {
void add_leaf(const LayerRow& row, Totals& t) {
  t.mult_adds += row.macs;
  if (row.num_params > 0) t.output_bytes += row.output_bytes * 2;  // x2 for gradients
  if (row.is_recursive) return;
  t.total_params += std::max<int64_t>(row.num_params, 0);
  t.trainable_params += std::max<int64_t>(row.trainable_params, 0);
  t.param_bytes += row.param_bytes;
}

// Parameters a container owns directly, or through submodules that got no row.
void add_container(const LayerRow& row, Totals& t) {
  if (row.is_recursive) return;
  t.total_params += std::max<int64_t>(row.leftover_params, 0);
  t.trainable_params += std::max<int64_t>(row.leftover_trainable_params, 0);
}
}  // namespace

Totals compute_totals(const std::vector<LayerRow>& rows) {
  Totals t;
  for (const LayerRow& row : rows) row.is_leaf ? add_leaf(row, t) : add_container(row, t);
  return t;
}

}  // namespace modrec

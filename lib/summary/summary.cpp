#include "summary/summary.h"

#include "summary/flops.h"
#include "summary/rows.h"

namespace modrec {

Summary summarize(const ModuleTree& tree, const CallTrace& trace, int64_t input_bytes) {
  Summary s;
  s.rows = build_rows(tree, trace);
  s.totals = compute_totals(s.rows);
  s.has_input = trace.ran;
  s.input_bytes = input_bytes;
  if (trace.flops_counted) add_flops(trace, s);
  return s;
}

bool row_visible(const LayerRow& row, const SummaryOptions& options) {
  if (row.depth > options.depth) return false;
  return !(row.is_recursive && options.has(RowSetting::hide_recursive_layers));
}

}  // namespace modrec

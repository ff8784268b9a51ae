#include "summary/summary.h"

#include "summary/flops.h"
#include "summary/rows.h"

namespace modrec {

namespace {
// A call by its row's label (model/module_tree.h's call_name); "" for none.
std::string peak_call(const ModuleTree& tree, const CallTrace& trace, const Summary& summary,
                      int call) {
  if (call < 0) return "";
  for (const LayerRow& row : summary.rows)
    if (row.call == call) return call_name(tree.modules[trace.calls[call].module], row.label);
  return "";
}

// Each row its call's measured figures (which include its nested calls').
void add_memory(const ModuleTree& tree, const CallTrace& trace, Summary& summary) {
  for (LayerRow& row : summary.rows) {
    if (row.call >= 0) row.memory = trace.calls[row.call].memory;
  }
  summary.memory = {trace.memory, peak_call(tree, trace, summary, trace.memory.forward_peak_call),
                    peak_call(tree, trace, summary, trace.memory.backward_peak_call)};
}
}  // namespace

Summary summarize(const ModuleTree& tree, const CallTrace& trace, int64_t input_bytes) {
  Summary s;
  s.rows = build_rows(tree, trace);
  s.totals = compute_totals(s.rows);
  s.has_input = trace.ran;
  s.input_bytes = input_bytes;
  if (trace.flops_counted) add_flops(trace, s);
  if (trace.memory.measured) add_memory(tree, trace, s);
  return s;
}

bool row_visible(const LayerRow& row, const SummaryOptions& options) {
  if (row.depth > options.depth) return false;
  return !(row.is_recursive && options.has(RowSetting::hide_recursive_layers));
}

}  // namespace modrec

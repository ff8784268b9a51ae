#include "summary/rows.h"

#include <map>
#include <set>

#include "summary/layer_params.h"
#include "summary/row_list.h"

namespace modrec {

namespace {

// The forward pre-hooks: one row per call, recursive when its module object already has a row.
void add_call_rows(const ModuleTree& tree, const CallTrace& trace, RowList& rows) {
  std::set<int> seen;
  for (size_t i = 0; i < trace.calls.size(); ++i) {
    LayerRow& row = rows.add_call(tree, trace.calls[i].module, static_cast<int>(i));
    count_params(tree, row, tree.modules[row.module].parent < 0);
    row.is_recursive = !seen.insert(tree.object_of(row.module)).second;
  }
}

bool descends_from(const CallTrace& trace, int call, int ancestor) {
  while (call > ancestor) call = trace.calls[call].parent_call;
  return call == ancestor;
}

// torchinfo's forward hook writes into the newest row of the module, which is the call's own
// row unless the module was re-entered inside that call. A call's descendants follow it.
int hook_target(const ModuleTree& tree, const CallTrace& trace, int call) {
  const int object = tree.object_of(trace.calls[call].module);
  int target = call;
  for (int j = call + 1; j < static_cast<int>(trace.calls.size()) && descends_from(trace, j, call);
       ++j)
    if (tree.object_of(trace.calls[j].module) == object) target = j;
  return target;
}

int64_t product(const Shape& shape) {
  int64_t out = 1;
  for (int64_t d : shape) out *= d;
  return out;
}

// Calls in the order they returned: each after all the calls made inside it.
std::vector<int> return_order(const CallTrace& trace) {
  std::vector<int> order, open;
  for (int i = 0; i < static_cast<int>(trace.calls.size()); ++i) {
    while (!open.empty() && open.back() != trace.calls[i].parent_call) {
      order.push_back(open.back());
      open.pop_back();
    }
    open.push_back(i);
  }
  order.insert(order.end(), open.rbegin(), open.rend());
  return order;
}

// The forward hooks, in the order they fired, for the calls that returned.
void apply_outputs(const ModuleTree& tree, const CallTrace& trace, RowList& rows) {
  for (int i : return_order(trace)) {
    const Call& call = trace.calls[i];
    if (!call.finished) continue;
    LayerRow& row = rows.objects[hook_target(tree, trace, i)];
    row.inputs = call.inputs;
    row.outputs = call.outputs;
    row.output_bytes = call.outputs.elem_bytes * product(call.outputs.size);
    row.executed = true;
    row.traced_away = call.traced_away;
    row.macs += call_macs(tree, call.module, call.outputs.size);
  }
}

// torchinfo's set_children_layers (DepthNumbering); a shared object keeps the values of its last
// place.
void number_rows(RowList& rows) {
  DepthNumbering numbering;
  const int n = static_cast<int>(rows.list.size());
  for (int i = 0; i < n; ++i) {
    LayerRow& row = rows.objects[rows.list[i]];
    row.depth_index = numbering.next(row.depth);
    row.children_begin = i + 1;
    row.children_end = i + 1;
    while (row.children_end < n && rows.objects[rows.list[row.children_end]].depth > row.depth)
      ++row.children_end;
  }
}

std::vector<LayerRow> materialize(const RowList& rows) {
  std::vector<LayerRow> out;
  for (int obj : rows.list) {
    out.push_back(rows.objects[obj]);
    LayerRow& row = out.back();
    row.label = row_label(row.depth, row.depth_index);
    row.parent = static_cast<int>(out.size()) - 2;
    while (row.parent >= 0 && out[row.parent].depth >= row.depth) --row.parent;
  }
  return out;
}

// torchinfo's leftover_params: children are every deeper row that follows, and a non-leaf
// child contributes its own leftover. Children come after their row, so go backwards.
void set_leftovers(std::vector<LayerRow>& rows) {
  for (int i = static_cast<int>(rows.size()) - 1; i >= 0; --i) {
    LayerRow& row = rows[i];
    row.leftover_params = row.num_params;
    row.leftover_trainable_params = row.trainable_params;
    for (int c = row.children_begin; c < row.children_end; ++c) {
      const LayerRow& child = rows[c];
      if (child.is_recursive) continue;
      row.leftover_params -= child.is_leaf ? child.num_params : child.leftover_params;
      row.leftover_trainable_params -=
          child.is_leaf ? child.trainable_params : child.leftover_trainable_params;
    }
  }
}

}  // namespace

std::vector<LayerRow> build_rows(const ModuleTree& tree, const CallTrace& trace) {
  RowList rows(tree);
  add_call_rows(tree, trace, rows);
  apply_outputs(tree, trace, rows);
  std::set<int> called;
  for (const Call& call : trace.calls) called.insert(tree.object_of(call.module));
  ContainerWalk(std::move(called)).walk(tree, rows);
  number_rows(rows);
  std::vector<LayerRow> out = materialize(rows);
  set_leftovers(out);
  return out;
}

}  // namespace modrec

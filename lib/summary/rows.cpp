#include "summary/rows.h"

#include <map>
#include <set>

#include "summary/layer_params.h"

namespace modrec {

namespace {

// Row objects as torchinfo holds them: `list` may name the same object twice (a container's
// fallback row inserted at two places), and both places then show that object's final state.
struct RowList {
  std::vector<LayerRow> objects;
  std::vector<int> list;      // torchinfo's summary_list, as indices into objects
  std::vector<int> fallback;  // module -> its fallback object, or -1 before first use
};

LayerRow new_row(const ModuleTree& tree, int module, int call) {
  const Module& m = tree.modules[module];
  LayerRow row;
  row.module = module;
  row.call = call;
  row.depth = m.depth;
  row.is_leaf = m.children.empty();
  row.kernel = m.kernel;
  return row;
}

// The forward pre-hooks: one row per call, recursive when its module already has a row.
void add_call_rows(const ModuleTree& tree, const CallTrace& trace, RowList& rows) {
  std::set<int> seen;
  for (size_t i = 0; i < trace.calls.size(); ++i) {
    LayerRow row = new_row(tree, trace.calls[i].module, static_cast<int>(i));
    count_params(tree, row, tree.modules[row.module].parent < 0);
    row.is_recursive = !seen.insert(row.module).second;
    rows.list.push_back(static_cast<int>(rows.objects.size()));
    rows.objects.push_back(std::move(row));
  }
}

bool descends_from(const CallTrace& trace, int call, int ancestor) {
  while (call > ancestor) call = trace.calls[call].parent_call;
  return call == ancestor;
}

// torchinfo's forward hook writes into the newest row of the module, which is the call's own
// row unless the module was re-entered inside that call. A call's descendants follow it.
int hook_target(const CallTrace& trace, int call) {
  int target = call;
  for (int j = call + 1; j < static_cast<int>(trace.calls.size()) && descends_from(trace, j, call);
       ++j)
    if (trace.calls[j].module == trace.calls[call].module) target = j;
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
    LayerRow& row = rows.objects[hook_target(trace, i)];
    row.inputs = call.inputs;
    row.outputs = call.outputs;
    row.output_bytes = call.outputs.elem_bytes * product(call.outputs.size);
    row.executed = true;
    row.traced_away = call.traced_away;
    row.macs += call_macs(tree, call.module, call.outputs.size);
  }
}

int fallback_row(const ModuleTree& tree, int module, RowList& rows) {
  if (rows.fallback[module] < 0) {
    rows.fallback[module] = static_cast<int>(rows.objects.size());
    rows.objects.push_back(new_row(tree, module, -1));
  }
  return rows.fallback[module];
}

// ancestors[d]: the module's ancestor at depth d (d >= 1).
std::map<int, int> ancestors_by_depth(const ModuleTree& tree, int module) {
  std::map<int, int> out;
  for (int p = tree.modules[module].parent; p >= 0 && tree.modules[p].depth > 0;
       p = tree.modules[p].parent)
    out[tree.modules[p].depth] = p;
  return out;
}

// Ensures the fallback row of ancestor `module` stands before list[pos]; returns whether inserted.
bool insert_if_missing(const ModuleTree& tree, int depth, int module, size_t pos,
                       std::map<int, int>& current, std::set<int>& layer_ids, RowList& rows) {
  auto it = current.find(depth);
  if (it != current.end() && rows.objects[it->second].module == module) return false;
  const int fb = fallback_row(tree, module, rows);
  // Python's list[-1] is the last row.
  const size_t before = pos == 0 ? rows.list.size() - 1 : pos - 1;
  if (rows.list[before] == fb) return false;
  LayerRow& row = rows.objects[fb];
  count_params(tree, row, false);
  if (layer_ids.count(module)) row.is_recursive = true;
  rows.list.insert(rows.list.begin() + static_cast<long>(pos), fb);
  layer_ids.insert(module);
  current[depth] = fb;
  return true;
}

void forget_deeper(std::map<int, int>& current, int depth) {
  for (int d = depth + 1; current.erase(d) > 0; ++d) {
  }
}

// torchinfo's add_missing_container_layers: containers never called themselves (ModuleList,
// an iterated Sequential) get a row before their first descendant after each change of branch.
// Like torchinfo it walks the list while inserting into it, so a row after an insertion point
// is visited again.
void add_missing_containers(const ModuleTree& tree, RowList& rows) {
  std::set<int> layer_ids;
  for (int obj : rows.list) layer_ids.insert(rows.objects[obj].module);
  std::map<int, int> current;
  for (size_t idx = 0; idx < rows.list.size(); ++idx) {
    const int obj = rows.list[idx];
    const int depth = rows.objects[obj].depth;
    const std::map<int, int> ancestors = ancestors_by_depth(tree, rows.objects[obj].module);
    size_t rel = 0;
    for (int d = 1; d < depth; ++d)
      if (insert_if_missing(tree, d, ancestors.at(d), idx + rel, current, layer_ids, rows)) ++rel;
    current[depth] = obj;
    forget_deeper(current, depth);
  }
}

// torchinfo's set_children_layers: one counter per depth over the whole list; a shared object
// keeps the values of its last place.
void number_rows(RowList& rows) {
  std::map<int, int> counter;
  const int n = static_cast<int>(rows.list.size());
  for (int i = 0; i < n; ++i) {
    LayerRow& row = rows.objects[rows.list[i]];
    row.depth_index = ++counter[row.depth];
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
    row.label = std::to_string(row.depth) + "-" + std::to_string(row.depth_index);
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
  RowList rows;
  rows.fallback.assign(tree.modules.size(), -1);
  add_call_rows(tree, trace, rows);
  apply_outputs(tree, trace, rows);
  add_missing_containers(tree, rows);
  number_rows(rows);
  std::vector<LayerRow> out = materialize(rows);
  set_leftovers(out);
  return out;
}

std::vector<std::string> call_labels(const ModuleTree& tree, const CallTrace& trace) {
  std::vector<std::string> labels(trace.calls.size());
  for (const LayerRow& row : build_rows(tree, trace))
    if (row.call >= 0) labels[row.call] = row.label;
  return labels;
}

}  // namespace modrec

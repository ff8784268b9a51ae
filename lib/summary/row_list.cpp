#include "summary/row_list.h"

#include "summary/layer_params.h"

namespace modrec {
namespace {

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

void forget_deeper(std::map<int, int>& current, int depth) {
  for (int d = depth + 1; current.erase(d) > 0; ++d) {
  }
}

}  // namespace

std::string row_label(int depth, int index) {
  return std::to_string(depth) + "-" + std::to_string(index);
}

LayerRow& RowList::add_call(const ModuleTree& tree, int module, int call) {
  list.push_back(static_cast<int>(objects.size()));
  objects.push_back(new_row(tree, module, call));
  return objects.back();
}

// Ensures the fallback row of ancestor `module` stands before list[pos]; returns whether inserted.
bool ContainerWalk::insert_if_missing(const ModuleTree& tree, int depth, int module, size_t pos,
                                      RowList& rows) {
  // torchinfo compares module objects; the rows it inserts are each path's own (its LayerInfo of
  // that place in the tree)
  const int object = tree.object_of(module);
  auto it = current_.find(depth);
  if (it != current_.end() && tree.object_of(rows.objects[it->second].module) == object)
    return false;
  const int fb = fallback_row(tree, module, rows);
  // Python's list[-1] is the last row.
  const size_t before = pos == 0 ? rows.list.size() - 1 : pos - 1;
  if (rows.list[before] == fb) return false;
  LayerRow& row = rows.objects[fb];
  count_params(tree, row, false);
  if (layer_ids_.count(object)) row.is_recursive = true;
  rows.list.insert(rows.list.begin() + static_cast<long>(pos), fb);
  layer_ids_.insert(object);
  current_[depth] = fb;
  return true;
}

void ContainerWalk::walk(const ModuleTree& tree, RowList& rows) {
  for (; next_ < rows.list.size(); ++next_) {
    const int obj = rows.list[next_];
    const int depth = rows.objects[obj].depth;
    const std::map<int, int> ancestors = ancestors_by_depth(tree, rows.objects[obj].module);
    size_t rel = 0;
    for (int d = 1; d < depth; ++d)
      if (insert_if_missing(tree, d, ancestors.at(d), next_ + rel, rows)) ++rel;
    current_[depth] = obj;
    forget_deeper(current_, depth);
  }
}

}  // namespace modrec

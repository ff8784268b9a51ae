// torchinfo's summary_list while it is built: the call rows and the container rows that
// add_missing_container_layers inserts between them. Shared by build_rows (the whole trace at
// once) and CallLabeler (one call at a time).
#pragma once
#include <map>
#include <set>
#include <string>
#include <vector>

#include "model/module_tree.h"
#include "summary/layer_row.h"

namespace modrec {

// torchinfo's "depth-index" label, "1-3".
std::string row_label(int depth, int index);

// torchinfo's set_children_layers: one counter per depth over the whole list, never reset per
// parent. The one numbering of rows, for build_rows (the whole list) and CallLabeler (a row at a
// time).
class DepthNumbering {
 public:
  // The index of the next row at `depth`, from 1.
  int next(int depth) { return ++counter_[depth]; }

 private:
  std::map<int, int> counter_;  // depth -> rows numbered at that depth so far
};

// Row objects as torchinfo holds them: `list` may name the same object twice (a container's
// fallback row inserted at two places), and both places then show that object's final state.
struct RowList {
  std::vector<LayerRow> objects;
  std::vector<int> list;      // torchinfo's summary_list, as indices into objects
  std::vector<int> fallback;  // module -> its fallback object, or -1 before first use

  explicit RowList(const ModuleTree& tree) : fallback(tree.modules.size(), -1) {}
  // Appends the row of one call (a forward pre-hook).
  LayerRow& add_call(const ModuleTree& tree, int module, int call);
};

// torchinfo's add_missing_container_layers: containers never called themselves (ModuleList,
// an iterated Sequential) get a row before their first descendant after each change of branch.
// Like torchinfo it walks the list while inserting into it, so a row after an insertion point
// is visited again. What it does at a row depends only on the rows before it, so the walk can
// stop at the end of the list and resume when calls were appended.
class ContainerWalk {
 public:
  // `called`: the module objects (ModuleTree::object_of) that have call rows; a container row of
  // one is recursive.
  explicit ContainerWalk(std::set<int> called = {}) : layer_ids_(std::move(called)) {}

  void note_call(int object) { layer_ids_.insert(object); }
  // Visits the rows from where the last walk stopped to the end of the list.
  void walk(const ModuleTree& tree, RowList& rows);

 private:
  bool insert_if_missing(const ModuleTree& tree, int depth, int module, size_t pos, RowList& rows);

  std::map<int, int> current_;  // depth -> the row object last seen at that depth
  std::set<int> layer_ids_;     // module objects with a row
  size_t next_ = 0;
};

}  // namespace modrec

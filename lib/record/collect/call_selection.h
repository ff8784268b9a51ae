// Which calls `record --layers` selects, decided as each call starts, and the facts about every
// call that the output names (labels, which call of its module it is).
#pragma once
#include <map>
#include <string>
#include <vector>

#include "model/layer_match.h"
#include "model/module_tree.h"
#include "labels/call_labeler.h"

namespace modrec {

class CallSelection {
 public:
  CallSelection(const LayerMatcher& matcher, const ModuleTree& tree)
      : matcher_(matcher), tree_(tree), labeler_(tree) {}

  // Asked once per call of a pass, in the order the calls start.
  bool operator()(int call, int module);

  const std::vector<std::string>& labels() const { return labeler_.labels(); }
  // Which call of its module instance each call is, from 1.
  const std::vector<int>& numbers() const { return numbers_; }
  // The calls as the matcher sees them, to validate --layers against a finished pass.
  std::vector<LayerRef> layer_refs() const;

 private:
  const LayerMatcher& matcher_;
  const ModuleTree& tree_;
  CallLabeler labeler_;
  std::vector<int> modules_;
  std::vector<int> numbers_;
  std::map<int, int> calls_of_;  // module -> its calls so far
};

}  // namespace modrec

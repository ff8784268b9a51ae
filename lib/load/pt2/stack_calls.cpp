#include "load/pt2/stack_calls.h"

#include <algorithm>
#include <string>
#include <utility>

namespace modrec::pt2 {
namespace {

// The calls each node runs in (outermost first), numbering calls as they start.
class CallWalker {
 public:
  CallWalker(const ModuleTree& tree, const std::vector<StackEntry>& base)
      : tree_(tree), base_(base) {
    out_.calls.push_back({0, -1});
    for (const auto& [key, module] : open_calls(base)) open_.emplace_back(key, 0);
    floor_ = open_.size();
  }

  // Moves the open calls to those of `stack`; returns them.
  std::vector<int> step(size_t node, const std::vector<StackEntry>& stack) {
    std::vector<std::pair<std::string, int>> wanted = open_calls(stack.empty() ? base_ : stack);
    size_t keep = 0;
    while (keep < open_.size() && keep < wanted.size() && open_[keep].first == wanted[keep].first)
      ++keep;
    if (keep < floor_) {
      keep = floor_;
      wanted.assign(open_.begin(), open_.begin() + static_cast<std::ptrdiff_t>(floor_));
    }
    grow(node);
    for (size_t i = open_.size(); i-- > keep;)
      out_.events_before[node].push_back({open_[i].second, false});
    open_.resize(keep);
    for (size_t i = keep; i < wanted.size(); ++i) start(node, wanted[i].first, wanted[i].second);
    std::vector<int> chain;
    for (const auto& [key, call] : open_) chain.push_back(call);
    return chain;
  }

  StackCalls finish(size_t nodes) {
    step(nodes, base_);
    return std::move(out_);
  }

 private:
  // The stack's entries that name a known module, below the root, as (key, module index).
  std::vector<std::pair<std::string, int>> open_calls(const std::vector<StackEntry>& stack) const {
    std::vector<std::pair<std::string, int>> out{{"", 0}};
    for (const StackEntry& e : stack)
      if (!e.path.empty())
        if (const int m = tree_.find(e.path); m > 0) out.emplace_back(e.key, m);
    return out;
  }

  void grow(size_t node) {
    out_.events_before.resize(std::max(out_.events_before.size(), node + 1));
  }

  void start(size_t node, const std::string& key, int module) {
    const int call = static_cast<int>(out_.calls.size());
    out_.calls.push_back({module, open_.back().second});
    out_.events_before[node].push_back({call, true});
    open_.emplace_back(key, call);
  }

  const ModuleTree& tree_;
  const std::vector<StackEntry>& base_;
  StackCalls out_;
  std::vector<std::pair<std::string, int>> open_;  // (stack key, call), outermost first
  size_t floor_ = 1;                               // open_'s entries that are the base's
};

}  // namespace

StackCalls stack_calls(const std::vector<std::vector<StackEntry>>& stacks, const ModuleTree& tree,
                       const std::vector<StackEntry>& base) {
  CallWalker walker(tree, base);
  std::vector<std::vector<int>> chains;
  for (size_t i = 0; i < stacks.size(); ++i) chains.push_back(walker.step(i, stacks[i]));
  StackCalls out = walker.finish(stacks.size());
  out.chains = std::move(chains);
  return out;
}

}  // namespace modrec::pt2

// Which part of a run check or diff looks at: the --layers selectors and --captures names
// (torch-free).
#pragma once
#include <string>
#include <vector>

#include "model/layer_match.h"

namespace modrec {

// Which part of a run check or diff looks at.
struct RunScope {
  std::string layers = "all";         // selectors, see layer_match.h
  std::vector<std::string> captures;  // empty: every capture

  // Indices of the selected layers; throws Error(usage) on a bad selector or capture name.
  std::vector<size_t> select(const std::vector<LayerRef>& layers) const;
  bool wants(const std::string& capture) const;
};

}  // namespace modrec

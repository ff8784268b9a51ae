// Which part of a run check or diff looks at: --layers and --capture, parsed where the flags are
// read (torch-free).
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "model/captures.h"
#include "model/layer_match.h"

namespace modrec {

// Which part of a run check or diff looks at.
struct RunScope {
  LayerMatcher layers;                 // --layers (default all)
  std::optional<CaptureSet> captures;  // none: every recorded capture

  // Indices of the selected layers; throws Error(usage) naming a selector that matches none.
  std::vector<size_t> select(const std::vector<LayerRef>& layers) const;
  bool wants(const std::string& capture) const;
};

}  // namespace modrec

#include "rundir/run_scope.h"

#include <algorithm>

#include "model/captures.h"

namespace modrec {

std::vector<size_t> RunScope::select(const std::vector<LayerRef>& layers) const {
  CaptureSet::parse(captures, "--captures");  // only to refuse unknown names
  return LayerMatcher(this->layers).select(layers);
}

bool RunScope::wants(const std::string& capture) const {
  return captures.empty() || std::find(captures.begin(), captures.end(), capture) != captures.end();
}

}  // namespace modrec

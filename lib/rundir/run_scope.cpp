#include "rundir/run_scope.h"

#include <algorithm>

#include "model/captures.h"

namespace modrec {

std::vector<size_t> RunScope::select(const std::vector<LayerRef>& layers) const {
  return this->layers.select(layers);
}

bool RunScope::wants(const std::string& capture) const {
  if (!captures) return true;
  const Capture* named = value_named(capture_names(), capture);
  if (!named) return false;
  const std::vector<Capture> listed = captures->list();
  return std::find(listed.begin(), listed.end(), *named) != listed.end();
}

}  // namespace modrec

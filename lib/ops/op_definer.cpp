#include "ops/op_definer.h"

#include <ATen/core/dispatch/Dispatcher.h>

namespace modrec::pt2 {

bool OpDefiner::registered(const std::string& schema) const {
  const std::string name = schema_name(schema);  // quantize_per_tensor.tensor
  const size_t dot = name.find('.');
  const std::string overload = dot == std::string::npos ? "" : name.substr(dot + 1);
  return c10::Dispatcher::singleton()
      .findSchema({ns_ + "::" + name.substr(0, dot), overload})
      .has_value();
}

}  // namespace modrec::pt2

#include "load/load_options.h"

namespace modrec {

const EnumNames<Device>& device_names() {
  static const EnumNames<Device> names{{"cpu", Device::cpu}, {"cuda", Device::cuda}};
  return names;
}

}  // namespace modrec

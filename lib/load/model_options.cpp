#include "load/model_options.h"

namespace modrec {

const EnumNames<Device>& device_names() {
  static const EnumNames<Device> names{{"cpu", Device::cpu}, {"cuda", Device::cuda}};
  return names;
}

const EnumNames<Mode>& mode_names() {
  static const EnumNames<Mode> names{{"eval", Mode::eval}, {"train", Mode::train}};
  return names;
}

}  // namespace modrec

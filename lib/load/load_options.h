// Which model to load and how, and which inputs to give it: plain data (torch-free), filled by
// the CLI, read by every job that runs a model.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "util/enum_names.h"

namespace modrec {

enum class Device { cpu, cuda };
const EnumNames<Device>& device_names();

struct ModelOptions {
  std::string path;
  bool train = false;           // --mode train
  Device device = Device::cpu;  // --device
  int threads = 0;              // --threads; 0: the number of cores
};

struct InputOptions {
  std::vector<std::string> files;  // --input, in forward argument order
  std::vector<std::string> sizes;  // --input-size SHAPE[:DTYPE]
  uint64_t seed = 0;               // --seed
  int64_t high = 2;                // --high: integer inputs are drawn from [0, high)

  bool given() const { return !files.empty() || !sizes.empty(); }
};

}  // namespace modrec

// Which model to load and how, and which inputs to give it: plain data (torch-free), filled by
// the CLI, read by every job that runs a model.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "load/shard.h"
#include "util/enum_names.h"

namespace modrec {

enum class Device { cpu, cuda };
const EnumNames<Device>& device_names();
enum class Mode { eval, train };  // --mode: the module's training flag (torchinfo: eval)
const EnumNames<Mode>& mode_names();

struct ModelOptions {
  std::string path;
  Mode mode = Mode::eval;       // --mode
  Device device = Device::cpu;  // --device
  int threads = 0;              // --threads; 0: the number of cores
};

struct InputOptions {
  // --input, in forward argument order: a tensor file (.pt, read whole; a tuple gives one
  // argument per item), a .npy (memory-mapped), or a directory or glob of .pt/.npy files
  // (samples along dim 0, in sorted order); see tensors/sample_source.h.
  std::vector<std::string> files;
  std::vector<std::string> sizes;  // --input-size SHAPE[:DTYPE]
  uint64_t seed = 0;               // --seed
  int64_t high = 2;                // --high: integer inputs are drawn from [0, high)
  std::optional<Shard> shard;      // --shard K/N

  bool given() const { return !files.empty() || !sizes.empty(); }
};

}  // namespace modrec

// Which model to load and how: plain data (torch-free), filled by the CLI, read by every job that
// runs a model. The inputs it is given are arguments/input_options.h.
#pragma once
#include <string>
#include <vector>

#include "util/enum_names.h"

namespace modrec {

enum class Device { cpu, cuda };
const EnumNames<Device>& device_names();
enum class Mode { eval, train };  // --mode: the module's training flag (torchinfo: eval)
const EnumNames<Mode>& mode_names();

// What loading a model does with its stored tensors: read them (every job that computes), or
// make meta tensors of their sizes and dtypes without reading a byte of them (a summary's table
// needs shapes, not values).
enum class Weights { read, meta };

// What only some formats read, parsed once from the command line (app/cli_common.h's
// add_format_flags) and passed down unchanged to open_model, which hands each format its own:
// adding one is a field here, its flag there and its reader's use. Other formats ignore it.
struct FormatOptions {
  // --etrecord: an ExecuTorch program's ETRecord, by which its module calls are reported too
  // (instrument/executorch/executorch_program.h).
  std::string etrecord;
};

struct ModelOptions {
  std::string path;
  Mode mode = Mode::eval;       // --mode
  Device device = Device::cpu;  // --device
  int threads = 0;              // --threads; 0: the number of cores
  // --load-library (else $MODREC_LOAD_LIBRARY): operator libraries loaded before the model.
  std::vector<std::string> libraries;
  FormatOptions formats;
};

}  // namespace modrec

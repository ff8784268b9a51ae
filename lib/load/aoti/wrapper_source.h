// What an AOTInductor package's compiled program declares, read from the C++ source it ships
// beside its library (<hash>.wrapper.cpp), not from the library: listing the constants needs no
// code of the package to run. AOTInductor's generator (torch/_inductor/codegen/cpp_wrapper_cpu.py)
// writes them as plain statements of the model's constructor, one a line:
//   constants_info_[0].name = "fc1_weight";   .dtype = cached_torch_dtype_float32;
//   constants_info_[0].shape = {8, 4};        .original_fqn = "fc1.weight";
//   inputs_info_[0].name = "arg4_1";          in_spec_ = R"([1, {...}])";
// and, per input, the checks of its static sizes (check_input_<i>: "input_handles[0]: unmatched
// dim value at 0, " then "expected: 4, "), which the library runs only under
// AOTI_RUNTIME_CHECK_INPUTS=1. Torch-free.
#pragma once
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace modrec::aoti {

struct CompiledConstant {
  std::string name;          // the compiled code's: "fc1_weight"
  std::string original_fqn;  // the model's: "fc1.weight" ("" when the code names none)
  std::string dtype;         // torch's name: "float32" (see CompiledInput::dtype)
  std::vector<int64_t> shape;
  bool from_folded = false;  // made at run time by constant folding: not held in the package
};

// What the compiled code checks of one dimension of an input.
struct CompiledDim {
  std::optional<int64_t> size;      // static: the one size compiled
  std::optional<int64_t> min, max;  // dynamic: its bounds, where the code checks them
};

struct CompiledInput {
  std::string name;  // the graph's: "arg4_1"
  // torch's name; "" when the code checks none. Text: the code may name any dtype torch has
  // (cached_torch_dtype_float8_e4m3fnuz), which modrec compares by name and reports.
  std::string dtype;
  std::vector<CompiledDim> dims;  // up to the last dimension a size or stride check names
};

struct WrapperSource {
  std::vector<CompiledConstant> constants;  // by index
  std::vector<CompiledInput> inputs;        // by index
  std::string in_spec, out_spec;            // pytree specs (JSON); "" where the code has none
};

// Reads `text`, a wrapper.cpp. Throws std::invalid_argument naming the line for a statement it
// cannot read (an index out of order, a value not of its field's form), and for constants or
// inputs the code numbers but never describes.
WrapperSource parse_wrapper_source(std::string_view text);

}  // namespace modrec::aoti

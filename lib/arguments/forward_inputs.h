// What a run passes to its model's forward: the --input sources (positional, in forward's order,
// or bound by name), --input-size's random tensors and --arg's values, bound to the arguments the
// forward's schema declares; the arguments not given take their defaults.
#pragma once
#include <ATen/core/ivalue.h>

#include <string>
#include <vector>

#include "arguments/input_options.h"
#include "arguments/forward_schema.h"
#include "sources/sample_source.h"

namespace modrec {

// One argument of forward, in its place.
struct ForwardArgument {
  std::string name;
  SourcePtr source;   // a tensor, read in batches along dim 0; null: `value`, the same every call
  c10::IValue value;  // an --arg's value or the declared default
  bool positional = false;  // a positional --input or --input-size: torchinfo's input_data
  // A List[Tensor] argument (a file holding a list): its tensors, passed whole to every call (a
  // list of samples, such as a detector's images of different sizes, is not cut along dim 0).
  std::vector<SourcePtr> items;
};
using ForwardArguments = std::vector<ForwardArgument>;

// The sources opened, before the model loads: a bad file or flag fails before the slower load.
class OpenedInputs {
 public:
  // Error(usage) for --input with --input-size; the files' errors are open_input's.
  explicit OpenedInputs(const InputOptions& options);

  // Bound to the arguments of `schema`: a file holding a list binds whole to a List[Tensor]
  // argument in its place, other files give one argument per tensor. Error(usage), each line
  // ending with the signature: more positional inputs than arguments, an unknown name, an
  // argument given twice, a tensor given with --arg or a value with --input NAME=, an --arg that
  // does not parse as its type, a required argument missing.
  ForwardArguments bind(const ForwardSchema& schema) const;

 private:
  std::vector<InputSources> positional_;  // per --input file or --input-size
  std::vector<std::pair<std::string, InputSources>> named_;
  std::vector<NamedText> args_;
};

// Sources given in forward's order, one per argument (as positional --inputs are).
ForwardArguments positional_arguments(const std::vector<SourcePtr>& sources);

// Of `values` (one per argument of `arguments`, as a batch gives them), those given by position
// (--input FILE, --input-size): torchinfo's input_data, the root call's positional arguments
// whatever the model tells of its own call (a .pt2 exported with keyword inputs only: none).
std::vector<c10::IValue> given_by_position(const ForwardArguments& arguments,
                                           const std::vector<c10::IValue>& values);

// The tensors among `arguments`, in forward's order.
std::vector<SourcePtr> tensor_sources(const ForwardArguments& arguments);

// --targets: one source of one tensor; null for an empty path.
SourcePtr open_targets(const std::string& path);

}  // namespace modrec

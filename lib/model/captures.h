// Which values of a layer call `record` keeps, and check and diff read back (torch-free).
#pragma once
#include <string>
#include <vector>

#include "util/enum_names.h"

namespace modrec {

// input .. grad_output are values of a call; param and param_grad belong to the called module.
enum class Capture { input, output, grad_input, grad_output, param, param_grad };

const EnumNames<Capture>& capture_names();  // the contract's names, in its order
const char* capture_name(Capture capture);
inline bool is_module_capture(Capture c) { return c == Capture::param || c == Capture::param_grad; }

struct CaptureSet {
  bool input = false;
  bool output = false;
  bool grad_input = false;   // module-local d(loss)/d(input), like register_full_backward_hook
  bool grad_output = false;  // d(loss)/d(output), exact even when an in-place op follows
  bool param = false;        // the module's own parameters (not its children's)
  bool param_grad = false;   // their .grad after backward: summed over the module's calls

  // "output,grad_output" style list; unknown names are a usage error naming `flag`.
  static CaptureSet parse(const std::vector<std::string>& names,
                          const std::string& flag = "--capture");
  void add(Capture capture);
  std::vector<Capture> list() const;
  bool any_grad() const { return grad_input || grad_output || param_grad; }
};

// A gradient that was not recorded because what it would have been is unknown (not zero): it
// would pass through operators without a derivative (LibTorch's autograd passes nothing back
// through them), or the model cannot tell it from other uses' gradients (`reason`: a .pt2
// archive's call whose argument and result are one graph value, instrument/pt2/untold_gradients.h).
struct NoGradient {
  std::string at;  // the tensor's place in the capture's value ("1.0"); a parameter's name
  std::vector<std::string> through;  // the operators, sorted
  std::string reason;                // when `through` is empty: why it is unknown

  // Why it was not recorded, as check says it: "no gradient flows back through OPS", or the
  // reason.
  std::string why() const;
};

}  // namespace modrec

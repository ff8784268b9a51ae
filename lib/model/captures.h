// Which values of a layer call `record` keeps, and check and diff read back (torch-free).
#pragma once
#include <string>
#include <vector>

#include "util/enum_names.h"

namespace modrec {

enum class Capture { input, output, grad_input, grad_output };

const EnumNames<Capture>& capture_names();  // the contract's names, in its order
const char* capture_name(Capture capture);

struct CaptureSet {
  bool input = false;
  bool output = false;
  bool grad_input = false;   // module-local d(loss)/d(input), like register_full_backward_hook
  bool grad_output = false;  // d(loss)/d(output), exact even when an in-place op follows

  // "output,grad_output" style list; unknown names are a usage error naming `flag`.
  static CaptureSet parse(const std::vector<std::string>& names,
                          const std::string& flag = "--capture");
  void add(Capture capture);
  std::vector<Capture> list() const;
  bool any_grad() const { return grad_input || grad_output; }
};

}  // namespace modrec

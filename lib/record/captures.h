// Which values of a layer call `record` keeps (torch-free).
#pragma once
#include <string>
#include <vector>

namespace modrec {

enum class Capture { input, output, grad_input, grad_output };

const char* capture_name(Capture capture);

struct CaptureSet {
  bool input = false;
  bool output = false;
  bool grad_input = false;   // module-local d(loss)/d(input), like register_full_backward_hook
  bool grad_output = false;  // d(loss)/d(output), exact even when an in-place op follows

  // "output,grad_output" style list; unknown names are a usage error naming --capture.
  static CaptureSet parse(const std::vector<std::string>& names);
  std::vector<Capture> list() const;
  bool any_grad() const { return grad_input || grad_output; }
};

}  // namespace modrec

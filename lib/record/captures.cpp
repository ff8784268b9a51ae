#include "record/captures.h"

#include "util/error.h"

namespace modrec {

const char* capture_name(Capture capture) {
  switch (capture) {
    case Capture::input: return "input";
    case Capture::output: return "output";
    case Capture::grad_input: return "grad_input";
    case Capture::grad_output: return "grad_output";
  }
  return "?";
}

CaptureSet CaptureSet::parse(const std::vector<std::string>& names) {
  CaptureSet set;
  for (const auto& name : names) {
    if (name == "input") set.input = true;
    else if (name == "output") set.output = true;
    else if (name == "grad_input") set.grad_input = true;
    else if (name == "grad_output") set.grad_output = true;
    else
      throw Error(Exit::usage, "unknown capture '" + name + "'", "--capture",
                  "use any of input,output,grad_input,grad_output");
  }
  return set;
}

std::vector<Capture> CaptureSet::list() const {
  std::vector<Capture> out;
  if (input) out.push_back(Capture::input);
  if (output) out.push_back(Capture::output);
  if (grad_input) out.push_back(Capture::grad_input);
  if (grad_output) out.push_back(Capture::grad_output);
  return out;
}

}  // namespace modrec

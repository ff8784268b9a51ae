#include "model/captures.h"

#include "util/error.h"
#include "util/text.h"

namespace modrec {

const EnumNames<Capture>& capture_names() {
  static const EnumNames<Capture> names{
      {"input", Capture::input},           {"output", Capture::output},
      {"grad_input", Capture::grad_input}, {"grad_output", Capture::grad_output},
      {"param", Capture::param},           {"param_grad", Capture::param_grad}};
  return names;
}

const char* capture_name(Capture capture) { return name_of(capture_names(), capture).c_str(); }

CaptureSet CaptureSet::parse(const std::vector<std::string>& names, const std::string& flag) {
  CaptureSet set;
  for (const auto& name : names) {
    const Capture* capture = value_named(capture_names(), name);
    if (!capture)
      throw Error(Exit::usage, "unknown capture '" + name + "'", flag,
                  "use any of input,output,grad_input,grad_output,param,param_grad");
    set.add(*capture);
  }
  return set;
}

void CaptureSet::add(Capture capture) {
  switch (capture) {
    case Capture::input:
      input = true;
      break;
    case Capture::output:
      output = true;
      break;
    case Capture::grad_input:
      grad_input = true;
      break;
    case Capture::grad_output:
      grad_output = true;
      break;
    case Capture::param:
      param = true;
      break;
    case Capture::param_grad:
      param_grad = true;
      break;
  }
}

std::vector<Capture> CaptureSet::list() const {
  std::vector<Capture> out;
  if (input) out.push_back(Capture::input);
  if (output) out.push_back(Capture::output);
  if (grad_input) out.push_back(Capture::grad_input);
  if (grad_output) out.push_back(Capture::grad_output);
  if (param) out.push_back(Capture::param);
  if (param_grad) out.push_back(Capture::param_grad);
  return out;
}

std::string NoGradient::why() const {
  return through.empty() ? reason : "no gradient flows back through " + join(through, ", ");
}

}  // namespace modrec

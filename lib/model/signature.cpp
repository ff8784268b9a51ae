#include "model/signature.h"

namespace modrec {

std::string Signature::text() const {
  std::string out = "forward(";
  for (size_t i = 0; i < params.size(); ++i) {
    const Parameter& p = params[i];
    out += (i ? ", " : "") + p.name + ": " + p.type;
    if (p.default_text) out += " = " + *p.default_text;
  }
  return out + ")";
}

int Signature::find(const std::string& name) const {
  for (size_t i = 0; i < params.size(); ++i)
    if (params[i].name == name) return static_cast<int>(i);
  return -1;
}

nlohmann::json to_json(const Signature& signature) {
  nlohmann::json out = nlohmann::json::array();
  for (const Parameter& p : signature.params)
    out.push_back({{"name", p.name},
                   {"type", p.type},
                   {"default", p.default_text ? nlohmann::json(*p.default_text) : nullptr},
                   {"tensor", p.takes_tensor}});
  return out;
}

}  // namespace modrec

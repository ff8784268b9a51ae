// The forward method's declared arguments (c10::Argument: TorchScript's schema, or a torch.export
// program's tensor inputs): the signature users see, each argument's default, and the text of
// --arg NAME=VALUE turned into a value of the argument's declared type.
#pragma once
#include <ATen/core/function_schema.h>
#include <ATen/core/ivalue.h>

#include "model/signature.h"

namespace modrec {

class ForwardSchema {
 public:
  // `args`: forward's arguments, self left out (InstrumentedModel::forward_arguments).
  explicit ForwardSchema(std::vector<c10::Argument> args);

  const Signature& signature() const { return signature_; }
  // Argument i's default; only where signature().params[i].default_text is set.
  c10::IValue default_value(size_t i) const;
  // `text` as argument i's declared type: int, float, bool (true/false/1/0), str, None,
  // List[int]/List[float]/List[bool]/List[str] as [2,3], Optional[...] of those ("None" for
  // None). Error(usage) naming --arg, the argument, its type and the text when it does not parse.
  c10::IValue parse(size_t i, const std::string& text) const;

 private:
  std::vector<c10::Argument> args_;  // self left out
  Signature signature_;
};

}  // namespace modrec

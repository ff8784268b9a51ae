// How lib/ops/ registers the operators that PyTorch's libraries define in Python only: an
// operator is defined unless the dispatcher has it already (a loaded library's, or an earlier
// definition), so that a library of the user's that defines it wins.
#pragma once
#include <torch/library.h>

#include <string>
#include <utility>

namespace modrec::pt2 {

// Defines the operators of one namespace into `library`, counting those it defines.
class OpDefiner {
 public:
  OpDefiner(torch::Library& library, std::string ns) : library_(library), ns_(std::move(ns)) {}

  template <class Kernel>
  void define(const char* schema, c10::DispatchKey key, Kernel* kernel) {
    if (registered(schema)) return;
    library_.def(schema, torch::dispatch(key, kernel));
    ++defined_;
  }
  // `schema`'s operator with one kernel per dispatch key (a forward and its autograd).
  template <class Kernel, class AutogradKernel>
  void define(const char* schema, c10::DispatchKey key, Kernel* kernel, AutogradKernel* autograd) {
    if (registered(schema)) return;
    library_.def(schema);
    const std::string name = schema_name(schema);
    library_.impl(name.c_str(), torch::dispatch(key, kernel));
    library_.impl(name.c_str(), torch::dispatch(c10::DispatchKey::Autograd, autograd));
    ++defined_;
  }
  int defined() const { return defined_; }

 private:
  // "quantize_per_tensor.tensor(Tensor input, ...) -> Tensor" -> "quantize_per_tensor.tensor"
  static std::string schema_name(const std::string& schema) {
    return schema.substr(0, schema.find('('));
  }
  bool registered(const std::string& schema) const;

  torch::Library& library_;
  std::string ns_;
  int defined_ = 0;
};

}  // namespace modrec::pt2

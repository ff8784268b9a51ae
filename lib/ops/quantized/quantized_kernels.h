// What quantized_ops.cpp registers (quantized_ops.h): the kernels of each namespace, and the
// helpers their Python definitions share.
#pragma once
#include <ATen/ATen.h>
#include <torch/library.h>

#include <optional>
#include <string>
#include <utility>

namespace modrec::pt2 {

// Defines an operator unless the dispatcher has it already (a loaded library's, or an earlier
// definition), counting those it defines.
class OpDefiner {
 public:
  OpDefiner(torch::Library& library, std::string ns) : library_(library), ns_(std::move(ns)) {}

  template <class Kernel>
  void define(const char* schema, c10::DispatchKey key, Kernel* kernel) {
    if (registered(schema)) return;
    library_.def(schema, torch::dispatch(key, kernel));
    ++defined_;
  }
  int defined() const { return defined_; }

 private:
  bool registered(const std::string& schema) const;

  torch::Library& library_;
  std::string ns_;
  int defined_ = 0;
};

void define_quantized_decomposed(OpDefiner& ops);
void define_torchao(OpDefiner& ops);
void define_export(OpDefiner& ops);  // subclass_inner.h

// torch's `1.0 / t` on a tensor: Tensor.__rdiv__, t.reciprocal() * 1.0 (the product is exact).
inline at::Tensor python_reciprocal(const at::Tensor& t) { return at::reciprocal(t); }

}  // namespace modrec::pt2

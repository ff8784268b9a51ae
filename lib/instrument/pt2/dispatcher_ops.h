// LibTorch's dispatcher, the only use of it: an operator found by its export target name and
// called with boxed arguments, through autograd like any eager call.
#pragma once
#include <ATen/core/function_schema.h>
#include <ATen/core/ivalue.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace modrec {

class DispatcherOp {
 public:
  // "torch.ops.aten.conv2d.default" -> aten::conv2d; nullopt when the target names no registered
  // operator (a Python function such as _operator.getitem, a higher-order op, a missing custom op).
  static std::optional<DispatcherOp> find(const std::string& target);

  const c10::FunctionSchema& schema() const;
  // Runs the operator on `args` (one per schema argument, in order); returns its results.
  std::vector<c10::IValue> call(std::vector<c10::IValue> args) const;

 private:
  struct Handle;
  explicit DispatcherOp(std::shared_ptr<const Handle> handle) : handle_(std::move(handle)) {}
  std::shared_ptr<const Handle> handle_;
};

}  // namespace modrec

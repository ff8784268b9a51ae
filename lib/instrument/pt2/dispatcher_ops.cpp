#include "instrument/pt2/dispatcher_ops.h"

#include <ATen/core/dispatch/Dispatcher.h>

#include "ops/quantized/quantized_ops.h"
#include "load/operator_libraries.h"

namespace modrec {

struct DispatcherOp::Handle {
  c10::OperatorHandle op;
};

std::optional<DispatcherOp> DispatcherOp::find(const std::string& target) {
  const std::string prefix = "torch.ops.";
  if (target.rfind(prefix, 0) != 0) return std::nullopt;
  const std::string qualified = target.substr(prefix.size());  // aten.conv2d.default
  const size_t first = qualified.find('.'), last = qualified.rfind('.');
  if (first == std::string::npos || first == last) return std::nullopt;
  const std::string name =
      qualified.substr(0, first) + "::" + qualified.substr(first + 1, last - first - 1);
  std::string overload = qualified.substr(last + 1);
  if (overload == "default") overload.clear();
  auto& dispatcher = c10::Dispatcher::singleton();
  auto op = dispatcher.findSchema({name, overload});
  // An operator of a namespace LibTorch lacks: the torch environment's library of it
  // (torchvision's), else modrec's own of those defined in Python only (quantization's).
  const std::string ns = qualified.substr(0, first);
  if (!op && (load_namespace_library(ns) || pt2::define_python_only_operators(ns)))
    op = dispatcher.findSchema({name, overload});
  if (!op) return std::nullopt;
  return DispatcherOp(std::make_shared<const Handle>(Handle{*op}));
}

const c10::FunctionSchema& DispatcherOp::schema() const { return handle_->op.schema(); }

std::vector<c10::IValue> DispatcherOp::call(std::vector<c10::IValue> args) const {
  handle_->op.callBoxed(args);  // replaces the arguments with the results
  return args;
}

}  // namespace modrec

#include "instrument/pt2/auto_functionalized.h"

#include <ATen/ATen.h>

#include <map>

#include "instrument/pt2/dispatcher_ops.h"
#include "instrument/pt2/node_args.h"

namespace modrec::pt2 {
namespace {

using Kwargs = std::map<std::string, c10::IValue>;

// A copy with the base's sizes, strides and offset over a copy of its whole storage, as
// torch._prims_common.clone_preserve_strides makes it (views regenerated from it see what
// views of the base saw).
at::Tensor clone_preserve_strides(const at::Tensor& base) {
  const int64_t needed = static_cast<int64_t>(base.storage().nbytes() / base.element_size());
  const at::Tensor buffer = base.as_strided({needed}, {1}, 0).clone();
  return buffer.as_strided(base.sizes(), base.strides(), base.storage_offset());
}

// The bases the operator mutates: copies, except those export proved need none.
std::vector<at::Tensor> new_bases(const Kwargs& kwargs) {
  const std::vector<at::Tensor> bases = kwargs.at("_all_bases").toTensorVector();
  std::vector<bool> clone(bases.size(), true);
  if (auto only = kwargs.find("_only_clone_these_bases");
      only != kwargs.end() && !only->second.isNone()) {
    clone.assign(bases.size(), false);
    for (int64_t i : only->second.toIntVector()) clone.at(static_cast<size_t>(i)) = true;
  }
  std::vector<at::Tensor> out;
  for (size_t i = 0; i < bases.size(); ++i)
    out.push_back(clone[i] ? clone_preserve_strides(bases[i]) : bases[i]);
  return out;
}

// The mutated argument `prefix` ("_x", "_xs_0") regenerated from the new bases.
c10::IValue view(const std::string& prefix, const Kwargs& kwargs,
                 const std::vector<at::Tensor>& bases) {
  const c10::IValue& index = kwargs.at(prefix + "_base_index");
  if (index.isNone()) return c10::IValue();
  const at::Tensor& base = bases.at(static_cast<size_t>(index.toInt()));
  const auto has = [&](const char* suffix) { return kwargs.count(prefix + suffix) > 0; };
  const auto get = [&](const char* suffix) { return kwargs.at(prefix + suffix); };
  if (has("_alias")) return at::alias(base);
  if (has("_storage_offset"))
    return base.as_strided(get("_size").toIntVector(), get("_stride").toIntVector(),
                           get("_storage_offset").toInt());
  if (has("_slice_dim"))
    return base.slice(get("_slice_dim").toInt(), get("_slice_start").toOptional<int64_t>(),
                      get("_slice_end").toOptional<int64_t>());
  return base;
}

bool mutated(const c10::Argument& param) {
  return param.alias_info() && param.alias_info()->isWrite();
}

// The operator's arguments: the mutated ones regenerated, the others as the node passes them.
std::vector<c10::IValue> op_arguments(const c10::FunctionSchema& schema, const Kwargs& kwargs,
                                      const std::vector<at::Tensor>& bases) {
  std::vector<c10::IValue> out;
  for (const c10::Argument& param : schema.arguments()) {
    const std::string prefix = "_" + param.name();
    if (mutated(param) && param.type()->kind() == c10::TypeKind::ListType) {
      const c10::IValue& length = kwargs.at(prefix + "_length");
      if (length.isNone()) {
        out.emplace_back();
        continue;
      }
      std::vector<at::Tensor> items;
      for (int64_t i = 0; i < length.toInt(); ++i)
        items.push_back(view(prefix + "_" + std::to_string(i), kwargs, bases).toTensor());
      out.emplace_back(std::move(items));
    } else if (mutated(param)) {
      out.push_back(view(prefix, kwargs, bases));
    } else if (auto given = kwargs.find(param.name()); given != kwargs.end()) {
      out.push_back(given->second);
    } else if (param.default_value()) {
      out.push_back(*param.default_value());
    } else {
      throw UnsupportedArgument("the argument " + param.name() + " is missing");
    }
  }
  return out;
}

}  // namespace

std::vector<c10::IValue> run_auto_functionalized(const std::vector<std::string>& names,
                                                 const std::vector<c10::IValue>& args) {
  if (args.empty() || !args[0].isString())
    throw UnsupportedArgument("its first argument is not an operator");
  const std::string target = args[0].toStringRef();
  const std::optional<DispatcherOp> op = DispatcherOp::find(target);
  if (!op) throw UnsupportedArgument("the operator " + target + " it runs is not in LibTorch");
  for (const c10::Argument& param : op->schema().arguments())
    if (param.is_out()) throw UnsupportedArgument("an out= operator (" + target + ")");
  Kwargs kwargs;
  for (size_t i = 1; i < args.size() && i < names.size(); ++i) kwargs[names[i]] = args[i];
  std::vector<at::Tensor> bases = new_bases(kwargs);
  std::vector<c10::IValue> out = op->call(op_arguments(op->schema(), kwargs, bases));
  if (out.empty()) out.emplace_back();  // Python's None
  for (at::Tensor& base : bases) out.emplace_back(std::move(base));
  return out;
}

}  // namespace modrec::pt2

#include "instrument/pt2/node_args.h"

#include <ATen/ATen.h>
#include <c10/core/Device.h>

#include <limits>

#include "load/pt2/schema_enums.h"

namespace modrec::pt2 {
namespace {

using nlohmann::json;

template <class T>
c10::IValue list_of(const json& items) {
  c10::List<T> out;  // element by element: List<bool> takes no std::vector<bool>
  for (const json& item : items) out.push_back(item.get<T>());
  return out;
}

// torch.export writes a float JSON has no number for as a string (torch/_export/serde's
// serialize.py): "Infinity", "-Infinity" (a decomposed softmax's mask fill), "NaN".
double float_of(const json& v) {
  if (!v.is_string()) return v.get<double>();
  const std::string text = v.get<std::string>();
  if (text == "Infinity") return std::numeric_limits<double>::infinity();
  if (text == "-Infinity") return -std::numeric_limits<double>::infinity();
  if (text == "NaN") return std::numeric_limits<double>::quiet_NaN();
  throw UnsupportedArgument("a float written as \"" + text + "\" is not supported");
}

c10::IValue floats(const json& items) {
  c10::List<double> out;
  for (const json& item : items) out.push_back(float_of(item));
  return out;
}

at::Tensor tensor_named(const json& ref, const ValueLookup& lookup) {
  return lookup(ref.at("name").get<std::string>()).toTensor();
}

// {"as_tensor": {...}} or {"as_none": ...}
std::optional<at::Tensor> optional_tensor(const json& j, const ValueLookup& lookup) {
  if (j.contains("as_tensor")) return tensor_named(j.at("as_tensor"), lookup);
  return std::nullopt;
}

// A SymInt, SymFloat or SymBool: {"as_int": 3} or {"as_name": "s0"} (a value computed in the
// graph).
c10::IValue sym(const json& j, const ValueLookup& lookup) {
  if (j.contains("as_name")) return lookup(j.at("as_name").get<std::string>());
  const std::string kind = j.begin().key();
  const json& value = j.begin().value();
  if (kind == "as_int") return value.get<int64_t>();
  if (kind == "as_float") return float_of(value);
  if (kind == "as_bool") return value.get<bool>();
  throw UnsupportedArgument("a symbolic value " + kind + " is not supported");
}

template <class T>
T mapped(std::optional<T> value, const std::string& kind) {
  if (!value) throw UnsupportedArgument("a " + kind + " of an unknown number");
  return *value;
}

c10::IValue tensors(const std::string& kind, const json& v, const ValueLookup& lookup) {
  if (kind == "as_tensors") {
    c10::List<at::Tensor> out;
    for (const json& ref : v) out.push_back(tensor_named(ref, lookup));
    return out;
  }
  if (kind == "as_optional_tensors") {
    c10::List<std::optional<at::Tensor>> out;
    for (const json& item : v) out.push_back(optional_tensor(item, lookup));
    return out;
  }
  if (kind == "as_optional_tensor") return optional_tensor(v, lookup);
  if (kind == "as_tensor") return tensor_named(v, lookup);
  throw UnsupportedArgument("an argument " + kind + " is not supported");
}

c10::IValue syms(const json& v, const ValueLookup& lookup) {
  c10::List<int64_t> out;
  for (const json& item : v) out.push_back(sym(item, lookup).toInt());
  return out;
}

c10::IValue scalars(const std::string& kind, const json& v) {
  if (kind == "as_int") return v.get<int64_t>();
  if (kind == "as_ints") return list_of<int64_t>(v);
  if (kind == "as_float") return float_of(v);
  if (kind == "as_floats") return floats(v);
  if (kind == "as_bool") return v.get<bool>();
  if (kind == "as_bools") return list_of<bool>(v);
  if (kind == "as_string") return v.get<std::string>();
  if (kind == "as_strings") return list_of<std::string>(v);
  if (kind == "as_scalar_type") return mapped(scalar_type(v.get<int>()), "dtype");
  if (kind == "as_memory_format") return mapped(memory_format(v.get<int>()), "memory format");
  if (kind == "as_layout") return mapped(layout(v.get<int>()), "layout");
  if (kind == "as_device")
    return c10::Device(
        v.at("type").get<std::string>() +
        (v.value("index", json()).is_null() ? "" : ":" + std::to_string(v.at("index").get<int>())));
  throw UnsupportedArgument("an argument " + kind + " is not supported");
}

// The kind of a schema type, through Optional.
c10::TypeKind kind_of(const c10::TypePtr& type) {
  if (auto optional = type->cast<c10::OptionalType>()) return kind_of(optional->getElementType());
  return type->kind();
}

// A number where the schema takes a Tensor (`x.mul_(3)` is recorded as aten.mul_.Tensor(x, 3)):
// what Python's argument parser makes of it, a 0-dim "wrapped number" that type promotion
// treats as a scalar.
at::Tensor wrapped_number(const c10::IValue& number) {
  const c10::Scalar scalar = number.toScalar();
  at::Tensor t = at::scalar_tensor(scalar, at::TensorOptions().dtype(scalar.type()));
  t.unsafeGetTensorImpl()->set_wrapped_number(true);
  return t;
}

}  // namespace

c10::IValue argument_value(const json& argument, const ValueLookup& lookup) {
  const std::string kind = argument.begin().key();
  const json& v = argument.begin().value();
  if (kind == "as_none") return c10::IValue();
  if (kind == "as_graph") return v.get<int64_t>();         // the index among the node's subgraphs
  if (kind == "as_operator") return v.get<std::string>();  // its target, "torch.ops.ns.op.overload"
  if (kind.find("tensor") != std::string::npos) return tensors(kind, v, lookup);
  if (kind == "as_sym_int" || kind == "as_sym_float" || kind == "as_sym_bool")
    return sym(v, lookup);
  if (kind == "as_sym_ints") return syms(v, lookup);
  return scalars(kind, v);
}

c10::IValue argument_value(const json& argument, const c10::Argument& param,
                           const ValueLookup& lookup) {
  c10::IValue value = argument_value(argument, lookup);
  const c10::TypeKind kind = kind_of(param.type());
  if (value.isInt() && kind == c10::TypeKind::FloatType) return static_cast<double>(value.toInt());
  if ((value.isInt() || value.isDouble() || value.isBool()) && kind == c10::TypeKind::TensorType)
    return wrapped_number(value);
  return value;
}

}  // namespace modrec::pt2

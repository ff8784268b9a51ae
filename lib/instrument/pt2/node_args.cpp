#include "instrument/pt2/node_args.h"

#include <ATen/ATen.h>
#include <c10/core/Device.h>

#include "load/pt2/schema_enums.h"

namespace modrec::pt2 {
namespace {

using K = Argument::Kind;

template <class T, class From>
c10::IValue list_of(const std::vector<From>& items) {
  c10::List<T> out;  // element by element: List<bool> takes no std::vector<bool>
  for (const From& item : items) out.push_back(static_cast<T>(item));
  return out;
}

template <class T>
T mapped(std::optional<T> value, const std::string& kind) {
  if (!value) throw UnsupportedArgument("a " + kind + " of an unknown number");
  return *value;
}

// A Sym* element: the value the graph computed under that name, else the number written.
c10::IValue sym(const Argument& a, size_t i, const ValueLookup& lookup) {
  if (!a.names.at(i).empty()) return lookup(a.names[i]);
  if (a.kind == K::sym_float) return a.floats.at(i);
  if (a.kind == K::sym_bool) return static_cast<bool>(a.ints.at(i));
  return a.ints.at(i);
}

c10::IValue tensors(const Argument& a, const ValueLookup& lookup) {
  if (a.kind == K::tensors) {
    c10::List<at::Tensor> out;
    for (const std::string& name : a.names) out.push_back(lookup(name).toTensor());
    return out;
  }
  c10::List<std::optional<at::Tensor>> out;
  for (const std::string& name : a.names)
    out.push_back(name.empty() ? std::nullopt : std::optional(lookup(name).toTensor()));
  return out;
}

c10::IValue device(const Argument& a) {
  const int64_t index = a.ints.at(0);
  return c10::Device(a.strings.at(0) + (index < 0 ? "" : ":" + std::to_string(index)));
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

bool is_number(K k) {
  return k == K::int_ || k == K::float_ || k == K::bool_ || k == K::sym_int || k == K::sym_float ||
         k == K::sym_bool;
}

// Whether an argument of kind `k` can be given where the schema's (non-optional) type `type`
// goes, as argument_value converts it. Types modrec has no rule for accept anything.
bool fits(K k, const c10::TypePtr& type) {
  using T = c10::TypeKind;
  switch (type->kind()) {
    case T::TensorType:
      return k == K::tensor || is_number(k);
    case T::IntType:
    case T::SymIntType:
      return k == K::int_ || k == K::sym_int || k == K::scalar_type || k == K::layout ||
             k == K::memory_format;
    case T::FloatType:
    case T::SymFloatType:
      return k == K::float_ || k == K::int_ || k == K::sym_float || k == K::sym_int;
    case T::BoolType:
    case T::SymBoolType:
      return k == K::bool_ || k == K::sym_bool;
    case T::NumberType:
      return is_number(k);
    case T::StringType:
      return k == K::string;
    case T::ScalarTypeType:
      return k == K::scalar_type || k == K::int_;
    case T::LayoutType:
      return k == K::layout || k == K::int_;
    case T::MemoryFormatType:
      return k == K::memory_format || k == K::int_;
    case T::DeviceObjType:
      return k == K::device;
    case T::ListType: {
      const c10::TypePtr element = type->castRaw<c10::ListType>()->getElementType();
      switch (element->kind()) {
        case T::TensorType:
          return k == K::tensors;
        case T::OptionalType:
          return k == K::optional_tensors || k == K::tensors;
        case T::IntType:
        case T::SymIntType:
          return k == K::ints || k == K::sym_ints;
        case T::FloatType:
          return k == K::floats;
        case T::BoolType:
          return k == K::bools;
        case T::StringType:
          return k == K::strings;
        default:
          return true;
      }
    }
    default:
      return true;
  }
}

}  // namespace

c10::IValue argument_value(const Argument& a, const ValueLookup& lookup) {
  switch (a.kind) {
    case K::none:
      return c10::IValue();
    case K::tensor:
      return lookup(a.names.at(0)).toTensor();
    case K::optional_tensor:
      return a.names.at(0).empty() ? c10::IValue() : c10::IValue(lookup(a.names[0]).toTensor());
    case K::tensors:
    case K::optional_tensors:
      return tensors(a, lookup);
    case K::int_:
    case K::graph:  // the index among the node's subgraphs
      return a.ints.at(0);
    case K::ints:
      return list_of<int64_t>(a.ints);
    case K::float_:
      return a.floats.at(0);
    case K::floats:
      return list_of<double>(a.floats);
    case K::bool_:
      return static_cast<bool>(a.ints.at(0));
    case K::bools:
      return list_of<bool>(a.ints);
    case K::string:
    case K::op:  // its target, "torch.ops.ns.op.overload"
      return a.strings.at(0);
    case K::strings:
      return list_of<std::string>(a.strings);
    case K::sym_int:
    case K::sym_float:
    case K::sym_bool:
      return sym(a, 0, lookup);
    case K::sym_ints: {
      c10::List<int64_t> out;
      for (size_t i = 0; i < a.names.size(); ++i) out.push_back(sym(a, i, lookup).toInt());
      return out;
    }
    case K::scalar_type:
      return mapped(scalar_type(static_cast<int>(a.ints.at(0))), "dtype");
    case K::memory_format:
      return mapped(memory_format(static_cast<int>(a.ints.at(0))), "memory format");
    case K::layout:
      return mapped(layout(static_cast<int>(a.ints.at(0))), "layout");
    case K::device:
      return device(a);
    case K::unsupported:
      break;
  }
  throw UnsupportedArgument("an argument " + tag_of(a) + " is not supported");
}

c10::IValue argument_value(const Argument& argument, const c10::Argument& param,
                           const ValueLookup& lookup) {
  c10::IValue value = argument_value(argument, lookup);
  const c10::TypeKind kind = kind_of(param.type());
  if (value.isInt() && kind == c10::TypeKind::FloatType) return static_cast<double>(value.toInt());
  if ((value.isInt() || value.isDouble() || value.isBool()) && kind == c10::TypeKind::TensorType)
    return wrapped_number(value);
  return value;
}

std::string argument_mismatch(const Argument& argument, const c10::Argument& param) {
  c10::TypePtr type = param.type();
  if (auto optional = type->cast<c10::OptionalType>()) {
    if (argument.kind == K::none) return "";
    type = optional->getElementType();
  }
  if (argument.kind == K::unsupported || fits(argument.kind, type)) return "";
  return tag_of(argument) + " where the operator takes " + type->str();
}

}  // namespace modrec::pt2

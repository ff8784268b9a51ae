#include "arguments/forward_schema.h"

#include <charconv>
#include <cmath>
#include <sstream>

#include "util/error.h"
#include "util/text.h"
#include "values/ivalue_walk.h"

namespace modrec {
namespace {

bool is_tensor(const c10::TypePtr& type) {
  if (auto optional = type->cast<c10::OptionalType>()) return is_tensor(optional->getElementType());
  return type->kind() == c10::TypeKind::TensorType;
}

bool is_tensor_list(const c10::TypePtr& type) {
  auto list = type->cast<c10::ListType>();
  return list && list->getElementType()->kind() == c10::TypeKind::TensorType;
}

// Python's repr of a float: the shortest text that reads back, with ".0" when it looks integral.
std::string python_float(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  char buf[64];
  const auto end = std::to_chars(buf, buf + sizeof buf, v).ptr;
  std::string text(buf, end);
  return text.find_first_of(".en") == std::string::npos ? text + ".0" : text;
}

// A default value as Python writes it in a signature: each container's text wraps its items'
// (a fold, not a walk of leaves).
std::string python_text(const c10::IValue& v) {
  if (v.isNone()) return "None";
  if (v.isBool()) return v.toBool() ? "True" : "False";
  if (v.isInt()) return std::to_string(v.toInt());
  if (v.isDouble()) return python_float(v.toDouble());
  if (v.isString()) return "'" + v.toStringRef() + "'";
  if (v.isList() || v.isTuple()) {
    const auto items = items_of(v);
    std::string out;
    for (const auto& item : items) out += (out.empty() ? "" : ", ") + python_text(item);
    return v.isList() ? "[" + out + "]" : "(" + out + (items.size() == 1 ? ",)" : ")");
  }
  std::ostringstream text;
  text << v;
  return text.str();
}

std::string trimmed(const std::string& text) {
  const auto first = text.find_first_not_of(" \t");
  if (first == std::string::npos) return "";
  return text.substr(first, text.find_last_not_of(" \t") - first + 1);
}

template <class T>
std::optional<T> number(const std::string& text) {
  T value{};
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

std::optional<double> real(const std::string& text) {
  if (text.empty()) return std::nullopt;
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (end != text.c_str() + text.size()) return std::nullopt;
  return value;
}

std::optional<bool> boolean(const std::string& text) {
  if (text == "true" || text == "True" || text == "1") return true;
  if (text == "false" || text == "False" || text == "0") return false;
  return std::nullopt;
}

std::optional<c10::IValue> parse_as(const c10::TypePtr& type, const std::string& text);

// "[2,3]" (or "[]") with each item parsed as the list's element type.
std::optional<c10::IValue> parse_list(const c10::ListType& type, const std::string& text) {
  if (text.size() < 2 || text.front() != '[' || text.back() != ']') return std::nullopt;
  c10::impl::GenericList list(type.getElementType());
  const std::string inner = trimmed(text.substr(1, text.size() - 2));
  if (inner.empty()) return c10::IValue(list);
  for (const std::string& item : split(inner, ',')) {
    auto value = parse_as(type.getElementType(), trimmed(item));
    if (!value) return std::nullopt;
    list.push_back(*value);
  }
  return c10::IValue(list);
}

std::optional<c10::IValue> parse_as(const c10::TypePtr& type, const std::string& text) {
  if (auto optional = type->cast<c10::OptionalType>())
    return text == "None" ? std::optional<c10::IValue>(c10::IValue())
                          : parse_as(optional->getElementType(), text);
  if (auto list = type->cast<c10::ListType>()) return parse_list(*list, text);
  switch (type->kind()) {
    case c10::TypeKind::IntType:
      if (auto v = number<int64_t>(text)) return c10::IValue(*v);
      return std::nullopt;
    case c10::TypeKind::FloatType:
      if (auto v = real(text)) return c10::IValue(*v);
      return std::nullopt;
    case c10::TypeKind::BoolType:
      if (auto v = boolean(text)) return c10::IValue(*v);
      return std::nullopt;
    case c10::TypeKind::StringType:
      return c10::IValue(text);
    case c10::TypeKind::NoneType:
      if (text == "None") return c10::IValue();
      return std::nullopt;
    default:
      return std::nullopt;
  }
}

}  // namespace

ForwardSchema::ForwardSchema(std::vector<c10::Argument> args) : args_(std::move(args)) {
  for (const c10::Argument& a : args_) {
    Parameter p{a.name(), a.type()->annotation_str(), std::nullopt, is_tensor(a.type()),
                is_tensor_list(a.type())};
    if (a.default_value()) p.default_text = python_text(*a.default_value());
    signature_.params.push_back(std::move(p));
  }
}

c10::IValue ForwardSchema::default_value(size_t i) const { return *args_.at(i).default_value(); }

c10::IValue ForwardSchema::parse(size_t i, const std::string& text) const {
  const c10::Argument& arg = args_.at(i);
  const std::string type = arg.type()->annotation_str();
  if (auto value = parse_as(arg.type(), text)) return *value;
  throw Error(
      Exit::usage,
      "'" + text + "' is no value of type " + type + " for forward's argument '" + arg.name() + "'",
      "--arg " + arg.name(),
      "give a value of its type (int 3, float 0.5, bool true/false/1/0, str text, None, "
      "List[int] [2,3]); the signature is " +
          signature_.text());
}

}  // namespace modrec

#include "load/aoti/wrapper_source.h"

#include <charconv>

namespace modrec::aoti {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
    s.remove_suffix(1);
  return s;
}

bool consume(std::string_view& s, std::string_view prefix) {
  if (!s.starts_with(prefix)) return false;
  s.remove_prefix(prefix.size());
  return true;
}

// A decimal integer at the start of `s` (C++'s L suffix allowed), `s` moved past it.
std::optional<int64_t> read_int(std::string_view& s) {
  int64_t value = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
  if (ec != std::errc()) return std::nullopt;
  s.remove_prefix(static_cast<size_t>(end - s.data()));
  consume(s, "L");
  return value;
}

// "[<index>]" at the start of `s`.
std::optional<size_t> read_index(std::string_view& s) {
  if (!consume(s, "[")) return std::nullopt;
  const std::optional<int64_t> index = read_int(s);
  if (!index || *index < 0 || !consume(s, "]")) return std::nullopt;
  return static_cast<size_t>(*index);
}

// A C string literal, its \" and \\ escapes read.
std::optional<std::string> read_string(std::string_view s) {
  if (s.size() < 2 || s.front() != '"' || s.back() != '"') return std::nullopt;
  std::string out;
  for (size_t i = 1; i + 1 < s.size(); ++i) {
    if (s[i] == '\\' && i + 2 < s.size()) ++i;
    out += s[i];
  }
  return out;
}

// "{8, 4}" (a shape).
std::optional<std::vector<int64_t>> read_ints(std::string_view s) {
  if (!consume(s, "{") || !s.ends_with("}")) return std::nullopt;
  s.remove_suffix(1);
  std::vector<int64_t> out;
  for (s = trim(s); !s.empty(); s = trim(s)) {
    const std::optional<int64_t> v = read_int(s);
    if (!v) return std::nullopt;
    out.push_back(*v);
    s = trim(s);
    if (!s.empty() && !consume(s, ",")) return std::nullopt;
  }
  return out;
}

// The element at `index` of `items`, made when it is the next one.
template <class T>
T* element(std::vector<T>& items, size_t index) {
  if (index == items.size()) items.emplace_back();
  return index < items.size() ? &items[index] : nullptr;
}

// A statement "<array>[<i>].<field> = <value>;": the index, field and value.
struct Statement {
  size_t index = 0;
  std::string_view field, value;
};

std::optional<Statement> read_statement(std::string_view line, std::string_view array) {
  if (!consume(line, array)) return std::nullopt;
  Statement st;
  const std::optional<size_t> index = read_index(line);
  if (!index || !consume(line, ".")) return std::nullopt;  // not a field's statement
  const size_t eq = line.find(" = ");
  if (eq == std::string_view::npos || !line.ends_with(";"))
    throw std::invalid_argument("cannot read the statement");
  st.index = *index;
  st.field = line.substr(0, eq);
  st.value = trim(line.substr(eq + 2, line.size() - eq - 3));
  return st;
}

class Parser {
 public:
  void line(std::string_view text) {
    text = trim(text);
    if (spec_) return spec_part(text);
    if (pending_) return expected(text);
    if (auto st = read_statement(text, "constants_info_")) return constant(*st);
    if (auto st = read_statement(text, "inputs_info_")) return input_name(*st);
    if (consume(text, "in_spec_ =")) return spec_start(out_.in_spec, text);
    if (consume(text, "out_spec_ =")) return spec_start(out_.out_spec, text);
    check(text);
  }

  WrapperSource finish() {
    for (const CompiledConstant& c : out_.constants)
      if (c.name.empty() || c.dtype.empty())
        throw std::invalid_argument("constant " + c.name + " has no name or no dtype");
    return std::move(out_);
  }

 private:
  void constant(const Statement& st) {
    CompiledConstant* c = element(out_.constants, st.index);
    if (!c) throw std::invalid_argument("constants_info_ is not numbered in order");
    std::string_view dtype = st.value;
    if (st.field == "name")
      c->name = string_value(st.value);
    else if (st.field == "original_fqn")
      c->original_fqn = string_value(st.value);
    else if (st.field == "dtype" && consume(dtype, "cached_torch_dtype_"))
      c->dtype = dtype;
    else if (st.field == "from_folded")
      c->from_folded = st.value == "true";
    else if (st.field == "shape") {
      auto shape = read_ints(st.value);
      if (!shape) throw std::invalid_argument("cannot read the shape");
      c->shape = std::move(*shape);
    } else if (st.field == "dtype")
      throw std::invalid_argument("cannot read the dtype");
  }

  void input_name(const Statement& st) {
    CompiledInput* in = element(out_.inputs, st.index);
    if (!in) throw std::invalid_argument("inputs_info_ is not numbered in order");
    if (st.field == "name") in->name = string_value(st.value);
  }

  static std::string string_value(std::string_view value) {
    std::optional<std::string> s = read_string(value);
    if (!s) throw std::invalid_argument("cannot read the string");
    return std::move(*s);
  }

  // in_spec_ = R"(...)"; on one line, or `in_spec_ =` and R"(...)" parts on the lines after.
  void spec_start(std::string& spec, std::string_view rest) {
    spec_ = &spec;
    spec_part(trim(rest));
  }
  void spec_part(std::string_view text) {
    if (consume(text, "R\"(")) {
      const size_t end = text.rfind(")\"");
      if (end == std::string_view::npos) throw std::invalid_argument("cannot read the spec");
      *spec_ += text.substr(0, end);
      text.remove_prefix(end + 2);
    }
    if (trim(text) == ";")
      spec_ = nullptr;
    else if (!trim(text).empty())
      throw std::invalid_argument("cannot read the spec");
  }

  // A line of check_input_<i>: its expected dtype, or the message of a dimension's check, whose
  // expected value the next line holds.
  void check(std::string_view text) {
    if (const size_t at = text.find("_expected_dtype = aoti_torch_dtype_");
        at != std::string_view::npos && check_input_) {
      std::string_view dtype = text.substr(at + 35);
      if (CompiledInput* in = element(out_.inputs, static_cast<size_t>(*check_input_)))
        in->dtype = dtype.substr(0, dtype.find('('));
      return;
    }
    if (consume(text, "AOTI_NOINLINE static void check_input_")) {
      check_input_ = read_int(text);
      return;
    }
    const size_t at = text.find("\"input_handles");
    if (at == std::string_view::npos) return;
    std::string_view message = text.substr(at + 14);
    const std::optional<size_t> input = read_index(message);
    if (!input || !consume(message, ": ")) return;
    for (const auto& [kind, words] : kKinds)
      if (consume(message, words)) {
        std::optional<int64_t> dim = read_int(message);
        if (!dim || *dim < 0 || *dim > 64) throw std::invalid_argument("cannot read the check");
        CompiledInput* in = element(out_.inputs, *input);
        if (!in) throw std::invalid_argument("the checks are not numbered in order");
        if (in->dims.size() <= static_cast<size_t>(*dim)) in->dims.resize(*dim + 1);
        if (kind != Kind::stride) pending_ = Pending{kind, &in->dims[*dim]};
      }
  }

  void expected(std::string_view text) {
    const size_t at = text.find("expected");
    const size_t digits = text.find_first_of("-0123456789", at);
    std::string_view number = at == std::string_view::npos || digits == std::string_view::npos
                                  ? std::string_view()
                                  : text.substr(digits);
    const std::optional<int64_t> value = read_int(number);
    if (!value) throw std::invalid_argument("cannot read the expected size");
    CompiledDim& dim = *pending_->dim;
    (pending_->kind == Kind::size  ? dim.size
     : pending_->kind == Kind::min ? dim.min
                                   : dim.max) = *value;
    pending_.reset();
  }

  enum class Kind { size, min, max, stride };
  static constexpr std::pair<Kind, std::string_view> kKinds[] = {
      {Kind::size, "unmatched dim value at "},
      {Kind::min, "dim value is too small at "},
      {Kind::max, "dim value is too large at "},
      {Kind::stride, "unmatched stride value at "}};
  struct Pending {
    Kind kind;
    CompiledDim* dim;
  };

  WrapperSource out_;
  std::string* spec_ = nullptr;         // inside a spec's raw strings
  std::optional<int64_t> check_input_;  // inside check_input_<i>
  std::optional<Pending> pending_;      // a check's message read, its expected value next
};

}  // namespace

WrapperSource parse_wrapper_source(std::string_view text) {
  Parser parser;
  size_t number = 1;
  for (size_t start = 0; start < text.size(); ++number) {
    const size_t end = std::min(text.find('\n', start), text.size());
    try {
      parser.line(text.substr(start, end - start));
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument("line " + std::to_string(number) + ": " + e.what());
    }
    start = end + 1;
  }
  return parser.finish();
}

}  // namespace modrec::aoti

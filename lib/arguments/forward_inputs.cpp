#include "arguments/forward_inputs.h"

#include <set>

#include "arguments/input_size_spec.h"
#include "util/error.h"
#include "sources/memory_source.h"

namespace modrec {
namespace {

std::vector<InputSources> positional_sources(const InputOptions& options) {
  if (!options.files.empty() && !options.sizes.empty())
    throw Error(Exit::usage, "--input and --input-size cannot be combined", "--input-size",
                "give the inputs either as files or as shapes");
  std::vector<InputSources> files;
  for (const auto& file : options.files) files.push_back(open_input_sources(file));
  std::vector<InputSizeSpec> specs;
  for (const auto& size : options.sizes) specs.push_back(parse_input_spec(size));
  for (auto& t : random_inputs(specs, options.seed, options.high))
    files.push_back({{memory_source(t)}});
  return files;
}

// A file's arguments in forward's order from argument `first` on: a list whole to a List[Tensor]
// argument, else one per tensor.
std::vector<ForwardArgument> file_arguments(const InputSources& file, const Signature& sig,
                                            size_t first, bool positional) {
  if (file.list && first < sig.params.size() && sig.params[first].takes_tensor_list)
    return {{"", nullptr, {}, positional, file.sources}};
  std::vector<ForwardArgument> out;
  for (const auto& s : file.sources) out.push_back({"", s, {}, positional});
  return out;
}

// Binds one argument after another, refusing what does not fit the signature.
class Binder {
 public:
  explicit Binder(const ForwardSchema& schema)
      : schema_(schema), sig_(schema.signature()), out_(sig_.params.size()) {}

  void positional(const std::vector<InputSources>& files) {
    std::vector<ForwardArgument> given;
    for (const auto& file : files)
      for (auto& a : file_arguments(file, sig_, given.size(), true)) given.push_back(std::move(a));
    if (given.size() > sig_.params.size())
      fail("forward takes " + std::to_string(sig_.params.size()) +
               " argument(s), the inputs give " + std::to_string(given.size()),
           "--input", "give one --input per argument");
    for (size_t i = 0; i < given.size(); ++i) {
      if (given[i].items.empty()) require_tensor(i, "--input");
      take(i, "--input", std::move(given[i]));
    }
  }

  // A named --input is one tensor, or a list for a List[Tensor] argument: a tuple file has no
  // single value to bind.
  void named(const std::string& name, const InputSources& file) {
    const std::string where = "--input " + name + "=";
    const size_t i = index(name, where);
    std::vector<ForwardArgument> given = file_arguments(file, sig_, i, false);
    if (given.size() != 1)
      fail("--input " + name + "= needs one tensor, the file holds " +
               std::to_string(file.sources.size()),
           where, "save the argument's tensor alone: torch.save(t, path)");
    if (given[0].items.empty()) require_tensor(i, where);
    take(i, where, std::move(given[0]));
  }

  void arg(const NamedText& arg) {
    const size_t i = index(arg.name, "--arg " + arg.name);
    if (sig_.params[i].takes_tensor && arg.text != "None")
      fail("forward's argument '" + arg.name + "' is a " + sig_.params[i].type, "--arg " + arg.name,
           "give the tensor with --input " + arg.name + "=FILE");
    take(i, "--arg " + arg.name, {"", nullptr, schema_.parse(i, arg.text), false});
  }

  // The arguments not given take their defaults; a required one missing is refused.
  ForwardArguments finish() {
    for (size_t i = 0; i < out_.size(); ++i) {
      if (bound(i)) continue;
      const Parameter& p = sig_.params[i];
      const bool file = p.takes_tensor || p.takes_tensor_list;
      if (!p.default_text)
        fail("forward's required argument '" + p.name + "' (" + p.type + ") is not given",
             file ? "--input" : "--arg",
             file ? "give it as the next --input or --input " + p.name + "=FILE"
                  : "give it with --arg " + p.name + "=VALUE");
      out_[i] = {p.name, nullptr, schema_.default_value(i), false};
    }
    return std::move(out_);
  }

 private:
  bool bound(size_t i) const { return given_.count(i) > 0; }

  void require_tensor(size_t i, const std::string& where) const {
    const Parameter& p = sig_.params[i];
    if (!p.takes_tensor)
      fail("forward's argument '" + p.name + "' is a " + p.type + ", not a tensor", where,
           p.takes_tensor_list ? "save its tensors as a list: torch.save([t1, t2], path)"
                               : "give it with --arg " + p.name + "=VALUE");
  }

  size_t index(const std::string& name, const std::string& where) const {
    const int i = sig_.find(name);
    if (i < 0) fail("forward has no argument '" + name + "'", where, "name one of its arguments");
    return static_cast<size_t>(i);
  }

  void take(size_t i, const std::string& where, ForwardArgument argument) {
    if (bound(i))
      fail("forward's argument '" + sig_.params[i].name + "' is given twice", where,
           "give each argument once, by place or by name");
    argument.name = sig_.params[i].name;
    out_[i] = std::move(argument);
    given_.insert(i);
  }

  // Every binding error ends with the signature, so the user sees what to pass.
  [[noreturn]] void fail(const std::string& what, const std::string& where,
                         const std::string& hint) const {
    throw Error(Exit::usage, what, where, hint + "; the signature is " + sig_.text());
  }

  const ForwardSchema& schema_;
  const Signature& sig_;
  ForwardArguments out_;
  std::set<size_t> given_;
};

}  // namespace

OpenedInputs::OpenedInputs(const InputOptions& options)
    : positional_(positional_sources(options)), args_(options.args) {
  for (const auto& named : options.named_files)
    named_.emplace_back(named.name, open_input_sources(named.text));
}

ForwardArguments OpenedInputs::bind(const ForwardSchema& schema) const {
  Binder binder(schema);
  binder.positional(positional_);
  for (const auto& [name, file] : named_) binder.named(name, file);
  for (const auto& arg : args_) binder.arg(arg);
  return binder.finish();
}

ForwardArguments positional_arguments(const std::vector<SourcePtr>& sources) {
  ForwardArguments out;
  for (const auto& s : sources) out.push_back({"", s, {}, true});
  return out;
}

std::vector<c10::IValue> given_by_position(const ForwardArguments& arguments,
                                           const std::vector<c10::IValue>& values) {
  std::vector<c10::IValue> out;
  for (size_t i = 0; i < arguments.size() && i < values.size(); ++i)
    if (arguments[i].positional) out.push_back(values[i]);
  return out;
}

std::vector<SourcePtr> tensor_sources(const ForwardArguments& arguments) {
  std::vector<SourcePtr> out;
  for (const auto& a : arguments)
    if (a.source) out.push_back(a.source);
  return out;
}

SourcePtr open_targets(const std::string& path) {
  if (path.empty()) return nullptr;
  std::vector<SourcePtr> sources = open_input(path);
  if (sources.size() != 1)
    throw Error(Exit::bad_input, "expected one tensor of targets", path,
                "save the targets with torch.save(t, FILE), one row per input sample");
  return sources[0];
}

}  // namespace modrec

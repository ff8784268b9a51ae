#include "instrument/aoti/compiled_package.h"

#include <map>

#include "files/scalar_type.h"
#include "instrument/aoti/loaded_package.h"
#include "instrument/pt2/pytree.h"
#include "instrument/root_only_model.h"
#include "load/pt2/program_json.h"
#include "load/aoti/input_match.h"
#include "load/aoti/package.h"
#include "util/error.h"

namespace modrec {
namespace {

class CompiledPackage : public RootOnlyModel {
 public:
  CompiledPackage(std::string path, Archive archive, aoti::Package package)
      : RootOnlyModel(std::move(path), "an AOTInductor package", "CompiledModel"),
        archive_(std::move(archive)),
        package_(std::move(package)) {
    if (!package_.program.in_spec.empty() && !package_.program.out_spec.empty()) {
      in_spec_ = pt2::parse_tree_spec(package_.program.in_spec);
      out_spec_ = pt2::parse_tree_spec(package_.program.out_spec);
    }
    std::map<std::string, aoti::CompiledConstant> by_fqn;  // sorted: a module's constants together
    for (aoti::CompiledConstant& c : package_.constants())
      by_fqn.emplace(c.original_fqn.empty() ? c.name : c.original_fqn, std::move(c));
    for (const auto& [fqn, c] : by_fqn) add_constant(fqn, c);
  }

  // The package's inputs (its in_spec's leaves, else the inputs it declares), as tensors.
  std::vector<c10::Argument> forward_arguments() const override {
    const size_t count = in_spec_ ? pt2::leaf_count(*in_spec_) : package_.program.inputs.size();
    std::vector<c10::Argument> args;
    for (size_t i = 0; i < count; ++i)
      args.emplace_back("input_" + std::to_string(i), c10::TensorType::get());
    return args;
  }

  // The constants' values live in the library: reading them loads it.
  std::vector<std::pair<std::string, at::Tensor>> own_parameters(int module) const override {
    std::vector<std::pair<std::string, at::Tensor>> out;
    const std::map<std::string, at::Tensor>& values = constant_values();
    const std::string& prefix = tree_.modules[static_cast<size_t>(module)].path;
    for (const Param& p : tree_.modules[static_cast<size_t>(module)].params)
      if (auto v = values.find(prefix.empty() ? p.name : prefix + "." + p.name); v != values.end())
        out.emplace_back(p.name, v->second);
    return out;
  }

 private:
  std::vector<at::Tensor> run(const std::vector<at::Tensor>& inputs) override {
    check_inputs(inputs);
    try {
      return loaded().loader().run(inputs);
    } catch (const c10::Error& e) {
      throw Error(Exit::model_failed,
                  "the compiled model failed: " + first_line(e.what_without_backtrace()), path_,
                  "give inputs of the shapes and dtypes the package was compiled for");
    }
  }

  void check_inputs(const std::vector<at::Tensor>& inputs) const {
    const auto& compiled = package_.program.inputs;
    for (size_t i = 0; i < inputs.size() && i < compiled.size(); ++i) {
      const std::string wrong = aoti::input_mismatch(
          compiled[i], dtype_name(inputs[i].scalar_type()), inputs[i].sizes().vec());
      if (!wrong.empty())
        throw Error(Exit::usage, "input input_" + std::to_string(i) + ": " + wrong, path_,
                    "give an input of the sizes and dtype the package was compiled for "
                    "(aoti_compile_and_package's dynamic_shapes lets a dimension vary)");
    }
  }

  c10::IValue pack(std::vector<c10::IValue> outputs) const override {
    return pt2::unflatten(out_spec_ ? &*out_spec_ : nullptr, outputs);
  }

  LoadedPackage& loaded() const {
    if (!loaded_) loaded_ = std::make_unique<LoadedPackage>(archive_, package_);
    return *loaded_;
  }

  // The constants' values by their model names (fc1.weight), read from the loaded library.
  const std::map<std::string, at::Tensor>& constant_values() const {
    if (values_) return *values_;
    torch::inductor::AOTIModelContainerRunner* runner = loaded().loader().get_runner();
    const auto fqns = runner->getConstantNamesToOriginalFQNs();
    values_.emplace();
    for (const auto& [name, value] : runner->extract_constants_map(false)) {
      const auto fqn = fqns.find(name);
      (*values_)[fqn == fqns.end() || fqn->second.empty() ? name : fqn->second] = value;
    }
    return *values_;
  }

  // A constant as a parameter of the module its model name's prefix names (fc1.weight: fc1),
  // not trainable.
  void add_constant(const std::string& fqn, const aoti::CompiledConstant& c) {
    const size_t dot = fqn.rfind('.');
    const int module = dot == std::string::npos ? 0 : module_at(fqn.substr(0, dot));
    int64_t numel = 1;
    for (const int64_t size : c.shape) numel *= size;
    const auto dtype = c10::getStringToDtypeMap().find(c.dtype);
    if (dtype == c10::getStringToDtypeMap().end())
      throw aoti::refused_package(
          archive_, "constant " + c.name + " is of a dtype torch does not name: " + c.dtype);
    tree_.modules[static_cast<size_t>(module)].params.push_back(
        Param{dot == std::string::npos ? fqn : fqn.substr(dot + 1), c.shape, numel,
              static_cast<int64_t>(c10::elementSize(dtype->second)), false});
  }

  // The module at `path`, made with its parents when new.
  int module_at(const std::string& path) {
    if (const int found = tree_.find(path); found >= 0) return found;
    const size_t dot = path.rfind('.');
    const int parent = dot == std::string::npos ? 0 : module_at(path.substr(0, dot));
    const std::string name = dot == std::string::npos ? path : path.substr(dot + 1);
    const int index = static_cast<int>(tree_.modules.size());
    tree_.modules.push_back(
        Module{path, name, "Module", "", tree_.modules[parent].depth + 1, parent, {}, {}, {}});
    tree_.modules[static_cast<size_t>(parent)].children.push_back(index);
    return index;
  }

  Archive archive_;
  aoti::Package package_;
  std::optional<pt2::TreeSpec> in_spec_, out_spec_;  // the call spec's, typed
  mutable std::unique_ptr<LoadedPackage> loaded_;    // at the first run or look at a value
  mutable std::optional<std::map<std::string, at::Tensor>> values_;
};

}  // namespace

std::unique_ptr<InstrumentedModel> open_compiled_package(const std::string& path,
                                                         const FileInfo& file) {
  // The archive's own path: `path` may name the compiled half of a package (file_kind.h).
  return std::make_unique<CompiledPackage>(path, *file.archive, aoti::read_package(*file.archive));
}

}  // namespace modrec

#include "instrument/aoti/compiled_package.h"

#include <torch/csrc/inductor/aoti_package/model_package_loader.h>

#include <map>

#include "instrument/pt2/pytree.h"
#include "instrument/root_only_model.h"
#include "load/pt2/program_json.h"
#include "load/operator_libraries.h"
#include "load/shared_library_file.h"
#include "util/error.h"

namespace modrec {
namespace {

using Loader = torch::inductor::AOTIModelPackageLoader;

// The name of the package's compiled model: its folder data/aotinductor/<model>/.
std::string model_name(const Archive& archive) {
  const std::string folder = "/data/aotinductor/";
  for (const ArchiveEntry& e : archive.entries())
    if (const size_t at = e.name.find(folder); at != std::string::npos) {
      const std::string rest = e.name.substr(at + folder.size());
      if (rest.find('/') != std::string::npos) return rest.substr(0, rest.find('/'));
    }
  return "model";
}

const char* const kHint =
    "give the .pt2 that torch.export.save wrote of the program, or compile the package again for "
    "this machine's device with the torch of this LibTorch";

// The compiled library must be there (without it LibTorch's loader would try to compile the
// package's C++ itself) and whole.
void check_library(const Archive& archive, const std::string& model) {
  const std::string folder = "/data/aotinductor/" + model + "/";
  for (const ArchiveEntry& e : archive.entries()) {
    if (e.name.find(folder) == std::string::npos || !e.name.ends_with(".so")) continue;
    if (const std::string defect = e.stored() ? shared_library_defect(archive.read(e)) : "";
        !defect.empty())
      throw Error(Exit::bad_input,
                  "AOTInductor package's compiled library is damaged: " + e.name + " " + defect,
                  archive.path(), kHint);
    return;
  }
  throw Error(Exit::bad_input,
              "AOTInductor package has no compiled library (data/aotinductor/" + model + "/*.so)",
              archive.path(), kHint);
}

std::unique_ptr<Loader> load(const std::string& path, const std::string& model) {
  load_cuda_backend();  // the compiled library links libtorch.so by name, as operator libraries
  try {
    return std::make_unique<Loader>(path, model);
  } catch (const std::exception& e) {  // c10::Error's first line is its message
    throw Error(Exit::bad_input, "AOTInductor package cannot be loaded: " + first_line(e.what()),
                path, kHint);
  }
}

class CompiledPackage : public RootOnlyModel {
 public:
  CompiledPackage(std::string path, std::unique_ptr<Loader> loader)
      : RootOnlyModel(std::move(path), "an AOTInductor package", "CompiledModel"),
        loader_(std::move(loader)) {
    const std::vector<std::string> spec = loader_->get_call_spec();
    if (spec.size() == 2) {
      in_spec_ = pt2::parse_tree_spec(spec[0]);
      out_spec_ = pt2::parse_tree_spec(spec[1]);
    }
    constants_.emplace_back();
    read_constants();
  }

  // The package's inputs (its in_spec's leaves), as tensors.
  std::vector<c10::Argument> forward_arguments() const override {
    std::vector<c10::Argument> args;
    for (size_t i = 0; in_spec_ && i < pt2::leaf_count(*in_spec_); ++i)
      args.emplace_back("input_" + std::to_string(i), c10::TensorType::get());
    return args;
  }

  std::vector<std::pair<std::string, at::Tensor>> own_parameters(int module) const override {
    return constants_[static_cast<size_t>(module)];
  }

 private:
  std::vector<at::Tensor> run(const std::vector<at::Tensor>& inputs) override {
    try {
      return loader_->run(inputs);
    } catch (const c10::Error& e) {
      throw Error(Exit::model_failed,
                  "the compiled model failed: " + first_line(e.what_without_backtrace()), path_,
                  "give inputs of the shapes and dtypes the package was compiled for");
    }
  }

  c10::IValue pack(std::vector<c10::IValue> outputs) const override {
    return pt2::unflatten(out_spec_ ? &*out_spec_ : nullptr, outputs);
  }

  // A module per prefix of the constants' original names (fc1.weight: fc1), its constants as
  // its parameters, not trainable.
  void read_constants() {
    torch::inductor::AOTIModelContainerRunner* runner = loader_->get_runner();
    const auto fqns = runner->getConstantNamesToOriginalFQNs();
    const auto values = runner->extract_constants_map(false);
    std::map<std::string, at::Tensor> by_fqn;  // sorted: a module's constants together
    for (const auto& [name, value] : values) {
      const auto fqn = fqns.find(name);
      by_fqn[fqn == fqns.end() ? name : fqn->second] = value;
    }
    for (const auto& [fqn, value] : by_fqn) {
      const size_t dot = fqn.rfind('.');
      const int module = dot == std::string::npos ? 0 : module_at(fqn.substr(0, dot));
      const std::string name = dot == std::string::npos ? fqn : fqn.substr(dot + 1);
      tree_.modules[static_cast<size_t>(module)].params.push_back(
          Param{name, value.sizes().vec(), value.numel(),
                static_cast<int64_t>(value.element_size()), false});
      constants_[static_cast<size_t>(module)].emplace_back(name, value);
    }
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
    constants_.emplace_back();
    return index;
  }

  std::unique_ptr<Loader> loader_;
  std::optional<pt2::TreeSpec> in_spec_, out_spec_;  // the call spec's, typed
  std::vector<std::vector<std::pair<std::string, at::Tensor>>> constants_;  // per module
};

}  // namespace

std::unique_ptr<InstrumentedModel> open_compiled_package(const std::string& path,
                                                         const FileInfo& file) {
  file.archive->verify_crc();  // a damaged library would be loaded as it is
  const std::string model = model_name(*file.archive);
  check_library(*file.archive, model);
  // The archive's own path: `path` may name the compiled half of a package (file_kind.h).
  return std::make_unique<CompiledPackage>(path, load(file.archive->path(), model));
}

}  // namespace modrec

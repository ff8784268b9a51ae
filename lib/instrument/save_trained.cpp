#include "instrument/save_trained.h"

#include <filesystem>
#include <map>

#include "load/load_model.h"
#include "util/error.h"

namespace modrec {
namespace {

// Parameters or buffers, matched by their full names (the same model file on both sides).
template <class NamedList>
void copy_named(const NamedList& from, const NamedList& to) {
  std::map<std::string, at::Tensor> values;
  for (const auto& p : from) values[p.name] = p.value;
  for (const auto& p : to) p.value.detach().copy_(values.at(p.name));
}

}  // namespace

void save_trained_model(const torch::jit::Module& trained, const std::string& model_path,
                        const std::string& out) {
  torch::jit::Module clean = load_model(model_path);
  {
    torch::NoGradGuard no_grad;
    copy_named(trained.named_parameters(), clean.named_parameters());
    copy_named(trained.named_buffers(), clean.named_buffers());
  }
  clean.train(trained.is_training());
  const std::string temporary = out + ".modrec-partial";
  try {
    clean.save(temporary);
    std::filesystem::rename(temporary, out);
  } catch (const std::exception& e) {
    std::error_code ignored;
    std::filesystem::remove(temporary, ignored);
    throw Error(Exit::write_failed, "cannot save the trained model: " + first_line(e.what()), out,
                "give --save-model a path in a writable directory");
  }
}

}  // namespace modrec

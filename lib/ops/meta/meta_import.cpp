#include "ops/meta/meta_import.h"

#include <ATen/core/Tensor.h>
#include <torch/library.h>

namespace modrec {
namespace {

bool unequal(const at::Tensor& /*self*/, const at::Tensor& /*other*/) { return false; }

}  // namespace

MetaImport::MetaImport()
    : library_(std::make_unique<torch::Library>(torch::Library::IMPL, "aten",
                                                c10::DispatchKey::Meta, __FILE__, __LINE__)) {
  library_->impl("equal", unequal);
}

MetaImport::~MetaImport() = default;

}  // namespace modrec

// An AOTInductor package handed to LibTorch's loader (torch::inductor::AOTIModelPackageLoader,
// the only use of it), the library's code run from here on: only what load/aoti checked is
// extracted, into modrec's own scratch folder, and the loader is given that folder. Given a
// folder, LibTorch 2.14.1 extracts nothing, makes no aotinductor_* folder in $TMPDIR and removes
// nothing; given the zip it would write every entry under data/aotinductor/<model> where its
// name says (a ".." climbs out), compile C++ it finds without a library through the shell, and
// leave its folder behind when it fails. $TMPDIR points into the scratch folder while it loads,
// so that nothing it makes is left behind either; the scratch folder goes with this object.
#pragma once
#include <torch/csrc/inductor/aoti_package/model_package_loader.h>

#include <memory>

#include "files/archive.h"
#include "load/aoti/package.h"
#include "util/scratch_dir.h"

namespace modrec {

class LoadedPackage {
 public:
  // Throws Error(Exit::bad_input) naming the package when LibTorch cannot load it (another
  // torch's ABI, a library that does not link), Error(Exit::write_failed) when the scratch
  // folder cannot be written.
  LoadedPackage(const Archive& archive, const aoti::Package& package);

  torch::inductor::AOTIModelPackageLoader& loader() { return *loader_; }

 private:
  ScratchDir scratch_;  // declared first: removed after the loader is gone
  std::unique_ptr<torch::inductor::AOTIModelPackageLoader> loader_;
};

}  // namespace modrec

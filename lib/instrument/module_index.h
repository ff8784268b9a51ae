// Reads the module hierarchy off a loaded TorchScript module (public jit::Module API only).
#pragma once
#include <torch/script.h>

#include <unordered_map>

#include "model/module_tree.h"

namespace modrec {

struct ModuleIndex {
  ModuleTree tree;
  // The module object (c10::ivalue::Object*) of every instance -> its index in `tree`. Instances of
  // one class share graphs, so the object passed at run time is what identifies the instance.
  std::unordered_map<const void*, int> by_object;
};

ModuleIndex index_modules(const torch::jit::Module& root);

}  // namespace modrec

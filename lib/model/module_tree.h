// The static module hierarchy of a loaded model, as plain data (torch-free). Built by instrument/
// (module_index.h), read by summary/ and record/. Mirrors what torchinfo reads off an nn.Module.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace modrec {

using Shape = std::vector<int64_t>;

struct Param {
  std::string name;  // attribute name on its owning module: "weight", "weight_ih_l0"
  Shape shape;
  int64_t numel = 0;
  int64_t elem_bytes = 4;
  bool trainable = true;  // requires_grad
  // The tensor's identity: a weight tied between modules (T5's shared embedding) is one
  // parameter under several names, counted once as named_parameters() yields it once. Null for
  // one known to be unshared.
  const void* tensor = nullptr;
};

// torchinfo prints a tuple kernel_size as "[5, 5]" and an int one as "3".
struct Kernel {
  Shape dims;
  bool is_int = false;
};

struct Module {
  std::string path;            // "" for the root, else "layer1.0.conv1"
  std::string var_name;        // attribute name in the parent; the root's is its type
  std::string type;            // class name, last component of the qualified name: "Conv2d"
  std::string qualified_type;  // "__torch__.torch.nn.modules.conv.Conv2d"
  int depth = 0;               // nesting in the module tree; root 0
  int parent = -1;             // index in ModuleTree::modules; -1 for the root
  std::vector<int> children;   // indices, definition order
  std::vector<Param> params;   // direct parameters only, definition order
  std::optional<Kernel> kernel;
  // One module object at several paths (`self.b = self.a`, a block inside two parents), each
  // listed by named_modules(remove_duplicate=False): the index of its first path, -1 at that
  // first path or for a module at one path. Known only where modrec.export's notes tell it.
  int same_as = -1;
};

// A convolution's kernel_size from its weight's shape ([out, in/groups, *kernel], transposed
// [in, out/groups, *kernel]): all that a traced module or a torch.export archive keeps of it.
// nullopt unless `type` (the class name) starts with "Conv" (or is torch.nn.utils.parametrize's
// "ParametrizedConv2d"...: torchinfo reads the kernel_size it keeps) and the weight has kernel
// dims.
std::optional<Kernel> conv_kernel(const std::string& type, const Shape& weight);

// A MaxPool/AvgPool/LPPool module's kernel_size from the list its call passes to the pooling
// operator: all that a traced module or a torch.export archive keeps of it. The list does not say
// whether kernel_size was an int (MaxPool2d(3): torchinfo prints 3) or a tuple ([3, 3]); equal dims
// are taken for an int, the common way of writing it. nullopt for any other `type` (a module
// calling a pooling function has no kernel_size for torchinfo to show) or an empty list.
std::optional<Kernel> pool_kernel(const std::string& type, const Shape& kernel_size);

// A call of `module` as modrec names one in messages and totals: "2-1 features.0 (Conv2d)" from
// its torchinfo `label`; the root by its type alone.
std::string call_name(const Module& module, const std::string& label);

struct ModuleTree {
  std::vector<Module> modules;  // preorder, definition order; modules[0] is the root

  // Index of the module with this path, or -1.
  int find(const std::string& path) const;
  // The module object at index m, as the index of its first path: torchinfo's id(module).
  int object_of(int m) const { return modules[m].same_as >= 0 ? modules[m].same_as : m; }
  // The path torchinfo's hooks report a call of module m under: the last of its object's paths
  // (torchinfo hooks each path in turn, and a later path's hooks replace an earlier one's).
  int hooked_path(int m) const;
};

}  // namespace modrec

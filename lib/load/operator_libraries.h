// Operator libraries: shared libraries whose static TORCH_LIBRARY registrations add operators that
// LibTorch lacks (torchvision::nms, a team's myops::...), loaded as torch.ops.load_library loads
// them (dlopen, through shared_libraries.h).
//
// LibTorch's CUDA backend is such a library too: modrec links libtorch_cpu alone, and loads
// libtorch_cuda (through libtorch.so, which in a CUDA build of torch depends on it) only for
// --device cuda, --version and before any operator library (torchvision's and a team's link
// libtorch.so by name, which their own RPATH does not find). Its loading takes a third of a second
// and 400 MB of resident memory, which every command paid before, `summary` of a 3 GB checkpoint
// included.
//
// A library built against PyTorch's Python bindings (torchvision 0.29's _C_stable.so, and any
// built by torch.utils.cpp_extension without is_standalone) links libtorch_python.so, whose Python
// C API symbols are undefined until a libpython is loaded. modrec then loads the libpython of the
// Python environment that holds the torch it runs on (RTLD_GLOBAL, once), and libtorch_python.so
// beside that torch. The interpreter is never initialised: the operators register and run
// without it.
#pragma once
#include <optional>
#include <string>

namespace modrec {

// --load-library PATH (and $MODREC_LOAD_LIBRARY): a team's own library, loaded now.
// Error(bad_input) naming PATH when it is missing or not a library this process can load.
void load_operator_library(const std::string& path);

// Loads, once, the library of the torch environment that registers the operators of namespace
// `ns`: torchvision's (torchvision, image) and torchaudio's, found in the site-packages of the
// torch modrec runs on. True when it loaded one now; false when it had been loaded before, when
// no library is known for `ns` or when it is not installed. Error(bad_input) when the library is
// there but cannot be loaded.
bool load_namespace_library(const std::string& ns);

// Loads, once, LibTorch's CUDA backend (libtorch.so beside the libtorch_cpu.so modrec runs on):
// its static registrations add the CUDA kernels, the device guard and the hooks that
// torch::cuda::is_available asks. Call it before anything asks about CUDA: LibTorch keeps the
// first answer (at::detail::getCUDAHooks). Returns the loader's message when it cannot be loaded
// (a broken CUDA installation), nullopt when loaded; a CPU-only torch loads and reports no CUDA.
std::optional<std::string> load_cuda_backend();

// Whether LibTorch or a loaded library registered operators of namespace `ns`.
bool namespace_registered(const std::string& ns);

// What to do for an operator of namespace `ns` that no loaded library provides: install the
// package whose library registers it, or load the team's library with --load-library.
std::string namespace_hint(const std::string& ns);

}  // namespace modrec

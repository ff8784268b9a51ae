// The one place modrec calls the dynamic loader (dlopen): operator libraries and LibTorch's CUDA
// backend (operator_libraries.h), and the ExecuTorch runtime with modrec's shim
// (executorch/executorch_runtime.h), all found beside the LibTorch this process runs on.
#pragma once
#include <filesystem>
#include <optional>
#include <string>
#include <variant>

namespace modrec {

// Where a library's own symbols go: kept to it (RTLD_LOCAL), or made global, for the libraries
// loaded after it to bind to (RTLD_GLOBAL: libpython, libtorch.so). Either binds them all now.
enum class Symbols { local, global };

// dlopen with the time it took at -v: the handle, or the loader's message.
std::variant<void*, std::string> open_shared_library(const std::string& path, Symbols symbols);

// The same, when only whether it loaded matters: nullopt, or the loader's message.
std::optional<std::string> load_shared_library(const std::string& path, Symbols symbols);

// The address of `name` in the library of `handle` (open_shared_library's); null when it has none.
void* library_symbol(void* handle, const char* name);

// The folder of the LibTorch this process runs on (torch/lib of a torch package), from the loaded
// libtorch_cpu.so itself: the RPATH, LD_LIBRARY_PATH or the pip launcher chose it. Empty when
// libtorch_cpu.so is not loaded.
std::filesystem::path torch_lib_dir();

// torch/lib/../..: the site-packages that holds torch, and beside it torchvision, torchaudio and
// executorch.
std::filesystem::path site_packages();

}  // namespace modrec

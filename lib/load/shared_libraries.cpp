#include "load/shared_libraries.h"

#include <dlfcn.h>
#include <limits.h>

#include <chrono>

#include "util/log.h"

namespace modrec {
namespace {

double ms_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

}  // namespace

std::variant<void*, std::string> open_shared_library(const std::string& path, Symbols symbols) {
  const auto start = std::chrono::steady_clock::now();
  void* handle =
      dlopen(path.c_str(), RTLD_NOW | (symbols == Symbols::global ? RTLD_GLOBAL : RTLD_LOCAL));
  if (!handle) return std::string(dlerror());
  log::debug("loaded ", path, " in ", ms_since(start), " ms");
  return handle;
}

std::optional<std::string> load_shared_library(const std::string& path, Symbols symbols) {
  auto opened = open_shared_library(path, symbols);
  if (auto* why = std::get_if<std::string>(&opened)) return std::move(*why);
  return std::nullopt;
}

void* library_symbol(void* handle, const char* name) { return dlsym(handle, name); }

std::filesystem::path torch_lib_dir() {
  void* handle = dlopen("libtorch_cpu.so", RTLD_NOW | RTLD_NOLOAD);
  char origin[PATH_MAX] = "";
  if (!handle || dlinfo(handle, RTLD_DI_ORIGIN, origin) != 0) return {};
  return origin;
}

std::filesystem::path site_packages() {
  const std::filesystem::path lib = torch_lib_dir();
  return lib.empty() ? std::filesystem::path() : lib.parent_path().parent_path();
}

}  // namespace modrec

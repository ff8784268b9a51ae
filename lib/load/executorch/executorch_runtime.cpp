#include "load/executorch/executorch_runtime.h"

#include <filesystem>
#include <optional>
#include <type_traits>
#include <variant>

#include "load/shared_libraries.h"
#include "util/error.h"

namespace modrec {
namespace {

namespace fs = std::filesystem;

const char* const kLowered =
    "give the .pt2 that torch.export.save wrote of the program before it was lowered (to_edge, "
    "to_executorch)";

// What the shim links, in the order each needs the one before: found by their sonames when the
// shim is loaded. The kernels and the XNNPACK delegate register themselves as they load.
const char* const kExecuTorchLibraries[] = {"libexecutorch.so", "libexecutorch_threadpool.so",
                                            "libexecutorch_kernels_optimized.so",
                                            "libexecutorch_backend_xnnpack.so"};

// A .pte refused: why, and what to do, else the .pt2 it came from.
Error cannot_run(const std::string& why, const std::string& fix) {
  return Error(Exit::bad_input, why, "", fix + ", or " + kLowered);
}

// The shim's handle, or why it cannot be had.
std::variant<void*, Error> open_executorch_shim() {
  const fs::path site = site_packages();
  const fs::path runtime = site / "executorch" / "lib";
  std::error_code ec;
  if (!fs::is_regular_file(runtime / kExecuTorchLibraries[0], ec))
    return cannot_run(
        "model file is an ExecuTorch program (.pte), and running one needs the "
        "executorch package beside torch in " +
            site.string() + ", which is not installed there",
        "pip install executorch==1.5.1 into that environment");
  const fs::path shim =
      fs::read_symlink("/proc/self/exe", ec).parent_path() / "libmodrec_executorch.so";
  if (!fs::is_regular_file(shim, ec))
    return cannot_run(
        "model file is an ExecuTorch program (.pte), and this modrec has no "
        "ExecuTorch shim beside it (libmodrec_executorch.so: built where the "
        "build's Python environment has executorch; the wheel does not carry it)",
        "build modrec with executorch installed in its Python environment");
  for (const char* library : kExecuTorchLibraries)
    if (auto why = load_shared_library((runtime / library).string(), Symbols::local))
      return cannot_run("ExecuTorch's runtime cannot be loaded: " + first_line(*why),
                        "reinstall executorch==1.5.1 beside torch");
  auto handle = open_shared_library(shim.string(), Symbols::local);
  if (auto* why = std::get_if<std::string>(&handle))
    return cannot_run("modrec's ExecuTorch shim cannot be loaded: " + first_line(*why),
                      "build modrec again against the executorch installed beside torch");
  return std::get<void*>(handle);
}

// The shim's functions, all found; nullopt when one is missing (a shim of another modrec).
std::optional<ExecuTorchShim> shim_functions(void* handle) {
  const auto find = [&](auto& function, const char* name) {
    function =
        reinterpret_cast<std::remove_reference_t<decltype(function)>>(library_symbol(handle, name));
    return function != nullptr;
  };
  ExecuTorchShim shim{};
  if (find(shim.set_log, "modrec_et_set_log") && find(shim.open, "modrec_et_open") &&
      find(shim.describe, "modrec_et_describe") && find(shim.run, "modrec_et_run") &&
      find(shim.close, "modrec_et_close"))
    return shim;
  return std::nullopt;
}

// The shim's functions, or why they cannot be had.
std::variant<ExecuTorchShim, Error> load_shim() {
  auto handle = open_executorch_shim();
  if (Error* failed = std::get_if<Error>(&handle)) return std::move(*failed);
  if (auto functions = shim_functions(std::get<void*>(handle))) return *functions;
  return Error(Exit::bad_input, "modrec's ExecuTorch shim lacks its functions", "",
               "build modrec again");
}

}  // namespace

const ExecuTorchShim& load_executorch_shim(const std::string& model) {
  static const std::variant<ExecuTorchShim, Error> shim = load_shim();
  if (const Error* failed = std::get_if<Error>(&shim))
    throw Error(failed->code(), failed->what(), model, failed->hint());
  return std::get<ExecuTorchShim>(shim);
}

}  // namespace modrec

#include "load/operator_libraries.h"

#include <ATen/core/dispatch/Dispatcher.h>
#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <mutex>
#include <optional>
#include <regex>
#include <set>
#include <vector>

#include "load/shared_library_file.h"
#include "load/shared_libraries.h"
#include "ops/torchvision_autograd.h"
#include "load/version.h"
#include "util/error.h"
#include "util/log.h"
#include "util/sha256.h"

namespace modrec {
namespace {

namespace fs = std::filesystem;

// The packages whose libraries register an operator namespace, and where each keeps it in
// site-packages (the newest layout first: torchvision 0.29's stable-ABI library, then older ones).
struct Provider {
  const char* ns;
  const char* package;
  std::vector<const char*> files;
};

const std::vector<Provider>& providers() {
  static const std::vector<Provider> known{
      {"torchvision", "torchvision", {"torchvision/_C_stable.so", "torchvision/_C.so"}},
      {"image", "torchvision", {"torchvision/image_stable.so", "torchvision/image.so"}},
      {"torchaudio", "torchaudio", {"torchaudio/lib/libtorchaudio.so"}},
  };
  return known;
}

const Provider* provider_of(const std::string& ns) {
  for (const auto& p : providers())
    if (ns == p.ns) return &p;
  return nullptr;
}

// The libpython of the Python whose site-packages is `site` (…/lib/python3.X/site-packages): in
// its prefix's lib (a Python installed there, conda), in the lib of the Python a venv was made from
// (pyvenv.cfg's home), else wherever the loader finds it (a system Python's libpython package).
std::vector<std::string> libpython_candidates(const fs::path& site) {
  const std::string python = site.parent_path().filename().string();  // python3.X
  if (python.rfind("python3.", 0) != 0) return {};
  const std::string name = "lib" + python + ".so.1.0";
  const fs::path prefix = site.parent_path().parent_path().parent_path();
  std::vector<std::string> out{(prefix / "lib" / name).string()};
  std::ifstream cfg(prefix / "pyvenv.cfg");
  for (std::string line; std::getline(cfg, line);)
    if (line.rfind("home", 0) == 0 && line.find('=') != std::string::npos) {
      const std::string home = line.substr(line.find_first_not_of(" =", line.find('=')));
      out.push_back((fs::path(home).parent_path() / "lib" / name).string());
    }
  out.push_back(name);
  return out;
}

// libpython (global: libtorch_python.so's Python symbols resolve against it), then
// libtorch_python.so beside the torch modrec runs on; once. Error(bad_input) for `library`, the
// one that needs them, when either cannot be loaded.
void load_python_runtime(const std::string& library) {
  static std::once_flag once;
  static std::optional<Error> failed;
  std::call_once(once, [&] {
    const fs::path site = site_packages();
    bool have_python = false;
    for (const auto& candidate : libpython_candidates(site))
      if (!load_shared_library(candidate, Symbols::global)) {
        have_python = true;
        break;
      }
    if (!have_python) {
      failed = Error(Exit::bad_input,
                     "library needs libtorch_python.so and a libpython, and no libpython was "
                     "found for the Python environment of " +
                         site.string(),
                     library,
                     "use a Python built with --enable-shared (it has a libpython3.X.so), or "
                     "preload it: LD_PRELOAD=/path/to/libpython3.X.so.1.0");
      return;
    }
    const std::string torch_python = (torch_lib_dir() / "libtorch_python.so").string();
    if (auto why = load_shared_library(torch_python, Symbols::local))
      failed =
          Error(Exit::bad_input,
                "library needs libtorch_python.so, which cannot be loaded: " + first_line(*why),
                library, "install the torch wheel from PyPI, which carries it");
  });
  if (failed) throw Error(failed->code(), failed->what(), library, failed->hint());
}

// An operator library loaded: what tells one file under two paths (or two copies of one build)
// from another, and the operator namespaces its registrations added.
struct LoadedLibrary {
  std::string path;
  dev_t device = 0;
  ino_t inode = 0;
  std::string sha256;
  std::set<std::string> namespaces;
};

std::vector<LoadedLibrary>& loaded_libraries() {
  static std::vector<LoadedLibrary> loaded;
  return loaded;
}

std::set<std::string> registered_namespaces() {
  std::set<std::string> out;
  for (const auto& op : c10::Dispatcher::singleton().getAllOpNames())
    out.insert(op.name.substr(0, op.name.find("::")));
  return out;
}

// The library loaded before that is `candidate`'s file, or a byte-for-byte copy of it.
const LoadedLibrary* loaded_before(const LoadedLibrary& candidate) {
  for (const LoadedLibrary& l : loaded_libraries())
    if ((l.device == candidate.device && l.inode == candidate.inode) ||
        l.sha256 == candidate.sha256)
      return &l;
  return nullptr;
}

// LibTorch refuses a second registration of an operator or of a TORCH_LIBRARY namespace by
// throwing from the library's static initialisers, out of dlopen; the namespace it names.
std::string namespace_registered_twice(const std::string& why) {
  std::smatch m;
  if (std::regex_search(why, m, std::regex("register the namespace ([A-Za-z0-9_]+)")) ||
      std::regex_search(why, m, std::regex("register an operator \\(([A-Za-z0-9_]+)::")))
    return m.str(1);
  return "";
}

Error registered_twice(const std::string& path, const std::string& why) {
  const std::string ns = namespace_registered_twice(why);
  std::string first = "LibTorch or a library loaded before";
  for (const LoadedLibrary& l : loaded_libraries())
    if (l.namespaces.count(ns)) first = l.path;
  return Error(Exit::bad_input,
               "cannot load the operator library: it registers operators of namespace " +
                   (ns.empty() ? std::string("?") : ns) + " that " + first +
                   " registered already (two builds of one library)",
               path, "load one build of each operator library: leave the other one out");
}

// dlopen, with a second registration (static initialisers throwing out of it) as Error.
std::optional<std::string> open_registering(const std::string& path) {
  try {
    return load_shared_library(path, Symbols::local);
  } catch (const c10::Error& e) {
    throw registered_twice(path, e.what_without_backtrace());
  }
}

// What torch.ops.load_library does: dlopen, which runs the library's static registrations, once
// per library: the same file or copy given again is said and skipped. Its ELF file is checked
// first (load/shared_library_file.h). A library that links libtorch_python.so gets the Python
// runtime first.
void load_library(const std::string& path) {
  check_shared_library_file(path);
  struct stat st {};
  ::stat(path.c_str(), &st);
  LoadedLibrary library{path, st.st_dev, st.st_ino, sha256_file(path), {}};
  if (const LoadedLibrary* same = loaded_before(library)) {
    log::warn("operator library ", path, " is ", same->path, ", loaded already: loaded once");
    return;
  }
  load_cuda_backend();  // operator libraries link libtorch.so by name, found only once it is loaded
  const std::set<std::string> before = registered_namespaces();
  auto why = open_registering(path);
  if (why && why->find("libtorch_python") != std::string::npos) {
    load_python_runtime(path);
    why = open_registering(path);
  }
  if (why)
    throw Error(Exit::bad_input, "cannot load the operator library: " + first_line(*why), path,
                "give a shared library built against LibTorch " + libtorch_version() +
                    " that registers operators (TORCH_LIBRARY), as torch.ops.load_library takes");
  std::ranges::set_difference(registered_namespaces(), before,
                              std::inserter(library.namespaces, library.namespaces.end()));
  loaded_libraries().push_back(std::move(library));
  add_torchvision_autograd();  // when it was torchvision's: what its Python would register
}

}  // namespace

void load_operator_library(const std::string& path) {
  std::error_code ec;
  if (!fs::is_regular_file(path, ec))
    throw Error(Exit::bad_input, "operator library does not exist or is no file", path,
                "give the path of a shared library (.so) that registers operators");
  // dlopen searches the loader's paths for a name without a slash; the user named a file.
  load_library(path.find('/') == std::string::npos ? "./" + path : path);
}

bool load_namespace_library(const std::string& ns) {
  static std::set<std::string> tried;
  const Provider* provider = provider_of(ns);
  if (!provider || !tried.insert(ns).second) return false;
  const fs::path site = site_packages();
  for (const char* file : provider->files) {
    const fs::path path = site / file;
    std::error_code ec;
    if (!fs::is_regular_file(path, ec)) continue;
    log::debug("operator namespace ", ns, ": loading ", path.string());
    load_library(path.string());
    return true;
  }
  return false;
}

std::optional<std::string> load_cuda_backend() {
  static const std::optional<std::string> why =
      load_shared_library((torch_lib_dir() / "libtorch.so").string(), Symbols::global);
  return why;
}

bool namespace_registered(const std::string& ns) {
  const std::string prefix = ns + "::";
  for (const auto& op : c10::Dispatcher::singleton().getAllOpNames())
    if (op.name.rfind(prefix, 0) == 0) return true;
  return false;
}

std::string namespace_hint(const std::string& ns) {
  const std::string load = "--load-library PATH (or MODREC_LOAD_LIBRARY)";
  if (const Provider* p = provider_of(ns))
    return std::string("install ") + p->package + " for torch " + libtorch_version() +
           " in the Python environment of the torch modrec runs on (" + site_packages().string() +
           "), or give its library with " + load;
  return "load the library that registers namespace " + ns + " with " + load +
         ", as torch.ops.load_library does in Python";
}

}  // namespace modrec

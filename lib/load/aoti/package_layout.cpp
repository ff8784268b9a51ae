#include "load/aoti/package_layout.h"

#include <set>

#include "load/aoti/entry_names.h"

namespace modrec::aoti {

Error refused_package(const Archive& archive, const std::string& what) {
  return Error(
      Exit::bad_input, "AOTInductor package: " + what, archive.path(),
      "give the .pt2 that torch.export.save wrote of the program, or a package that "
      "torch._inductor.aoti_compile_and_package compiled for this machine with the torch of this "
      "LibTorch");
}

namespace {

// The root folder every entry lies in, each entry's name and mode checked, none twice.
std::string checked_root(const Archive& archive) {
  std::set<std::string_view> seen;
  std::string root;
  for (const ArchiveEntry& e : archive.entries()) {
    std::string defect = entry_name_defect(e.name);
    if (defect.empty()) defect = entry_mode_defect(e.external_attributes, e.name);
    if (defect.empty() && !seen.insert(e.name).second) defect = "appears twice";
    if (root.empty()) root = e.name.substr(0, e.name.find('/') + 1);
    if (defect.empty() && root.size() < 2) defect = "lies in no folder (a package's entries do)";
    if (defect.empty() && !e.name.starts_with(root))
      defect = "lies outside the package's folder " + root;
    if (!defect.empty()) throw refused_package(archive, "entry " + e.name + " " + defect);
  }
  return root;
}

// The compiled model's folder name: "model" (the loader's default) or the only one there is.
std::string model_name(const Archive& archive, const std::string& folder) {
  std::set<std::string> models;
  for (const ArchiveEntry& e : archive.entries())
    if (e.name.starts_with(folder) && e.name.find('/', folder.size()) != std::string::npos)
      models.insert(e.name.substr(folder.size(), e.name.find('/', folder.size()) - folder.size()));
  if (models.empty() || models.contains("model")) return "model";
  if (models.size() == 1) return *models.begin();
  std::string names;
  for (const std::string& m : models) names += (names.empty() ? "" : ", ") + m;
  throw refused_package(archive, "holds several compiled models (" + names + "), none named model");
}

const ArchiveEntry* entry_named(const Archive& archive, const std::string& name) {
  for (const ArchiveEntry& e : archive.entries())
    if (e.name == name) return &e;
  return nullptr;
}

// The one library directly in `folder`.
ArchiveEntry library_in(const Archive& archive, const std::string& folder,
                        const std::string& model) {
  std::vector<const ArchiveEntry*> found;
  for (const ArchiveEntry& e : archive.entries())
    if (e.name.starts_with(folder) && e.name.ends_with(".so")) found.push_back(&e);
  if (found.empty())
    throw refused_package(archive,
                          "no compiled library (data/aotinductor/" + model +
                              "/*.so): modrec does not compile a package's C++ (LibTorch's "
                              "loader would run the compile command the package names)");
  if (found.size() > 1)
    throw refused_package(archive, std::to_string(found.size()) +
                                       " compiled libraries in data/aotinductor/" + model +
                                       "/, one expected");
  return *found[0];
}

}  // namespace

PackageLayout package_layout(const Archive& archive) {
  PackageLayout out;
  out.root = checked_root(archive);
  out.model = model_name(archive, out.root + "data/aotinductor/");
  const std::string folder = out.root + "data/aotinductor/" + out.model + "/";
  out.library = library_in(archive, folder, out.model);
  const std::string stem = out.library.name.substr(0, out.library.name.size() - 3);
  const ArchiveEntry* metadata = entry_named(archive, stem + "_metadata.json");
  if (!metadata)
    throw refused_package(archive, "no metadata beside its library (" + stem + "_metadata.json)");
  out.metadata = *metadata;
  const ArchiveEntry* source = entry_named(archive, stem + ".cpp");
  if (!source)
    throw refused_package(archive, "no C++ source beside its library (" + stem +
                                       ".cpp): modrec reads the constants and inputs there");
  out.source = *source;
  const auto relative = [&](const ArchiveEntry& e) { return e.name.substr(out.root.size()); };
  out.runtime = {{out.library, relative(out.library)}, {out.metadata, relative(out.metadata)}};
  const std::string constants = out.root + "data/constants/";
  for (const ArchiveEntry& e : archive.entries()) {
    if (e.name.starts_with(folder) && e.name.ends_with(".blob"))
      out.runtime.push_back({e, relative(e)});
    else if (e.name.starts_with(constants) && !e.name.ends_with("/"))  // by base name, as LibTorch
      out.runtime.push_back(
          {e, folder.substr(out.root.size()) + e.name.substr(e.name.rfind('/') + 1)});
  }
  return out;
}

}  // namespace modrec::aoti

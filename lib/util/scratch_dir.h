// A private directory under $TMPDIR, removed with everything in it when it goes out of scope.
#pragma once
#include <filesystem>
#include <string>

namespace modrec {

class ScratchDir {
 public:
  // Throws Error(Exit::write_failed) when no directory can be made ($TMPDIR unwritable).
  explicit ScratchDir(const std::string& prefix = "modrec");
  ~ScratchDir();  // never throws; restores owner permissions first so that removal succeeds
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;

  const std::filesystem::path path;
};

}  // namespace modrec

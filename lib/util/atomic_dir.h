// Output directories that appear complete or not at all, and Ctrl-C handling that lets them
// clean up. `record` writes into AtomicDir::path() and commits at the end; an error or an
// interrupt unwinds the stack and the destructor deletes the partial directory.
#pragma once
#include <string>

#include "util/error.h"
#include "util/interrupt.h"  // record uses both: interrupts unwind into ~AtomicDir

namespace modrec {

class AtomicDir {
 public:
  // Creates a hidden temporary directory beside `final_dir` (same parent, so commit() is a
  // rename on one filesystem): `.<basename>.modrec-tmp-<pid>-<random>`.
  // Throws Error(Exit::write_failed) when `final_dir` exists and !force, when it is a file
  // (never replaced, even with force), or when its parent is missing or not writable.
  AtomicDir(const std::string& final_dir, bool force);
  ~AtomicDir();  // removes the temporary directory unless committed; never throws
  AtomicDir(const AtomicDir&) = delete;
  AtomicDir& operator=(const AtomicDir&) = delete;

  const std::string& path() const { return temp_; }  // where to write

  // Renames the temporary directory to `final_dir`. With force and an existing `final_dir`, the
  // old directory is first renamed aside and deleted only after the new one is in place.
  // Throws Error(Exit::write_failed); the temporary directory is then still removed by ~AtomicDir.
  void commit();

 private:
  void replace_existing();

  std::string final_;
  std::string temp_;
  bool force_;
  bool committed_ = false;
};

}  // namespace modrec

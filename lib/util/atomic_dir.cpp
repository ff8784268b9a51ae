#include "util/atomic_dir.h"

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <random>

#include "util/remove_tree.h"

namespace modrec {
namespace fs = std::filesystem;
namespace {

// "out/" names the directory "out": drop trailing separators before taking basename/parent.
fs::path without_trailing_slash(const std::string& dir) {
  fs::path p(dir);
  while (p.has_parent_path() && !p.has_filename() && p != p.root_path()) p = p.parent_path();
  return p;
}

fs::path parent_of(const fs::path& p) {
  return p.has_parent_path() ? p.parent_path() : fs::path(".");
}

// A hidden sibling of `p` that no other process picks: pid plus a random number.
fs::path sibling_name(const fs::path& p, const char* role) {
  char suffix[48];
  std::snprintf(suffix, sizeof suffix, ".modrec-%s-%ld-%08x", role, static_cast<long>(getpid()),
                std::random_device{}());
  return parent_of(p) / ("." + p.filename().string() + suffix);
}

[[noreturn]] void fail(const std::string& what, const fs::path& where, const std::string& hint) {
  throw Error(Exit::write_failed, what, where.string(), hint);
}

void check_parent(const fs::path& parent) {
  std::error_code ec;
  if (!fs::exists(parent, ec))
    fail("parent directory does not exist", parent, "create it first, or choose another --out");
  if (!fs::is_directory(parent, ec))
    fail("parent of the output directory is not a directory", parent, "choose another --out");
}

void check_final(const fs::path& final_dir, bool force) {
  std::error_code ec;
  auto status = fs::symlink_status(final_dir, ec);
  if (!fs::exists(status)) return;
  if (!fs::is_directory(status))
    fail("output path exists and is not a directory", final_dir,
         "remove it or choose another --out; --force only replaces directories");
  if (!force)
    fail("output directory already exists", final_dir,
         "pass --force to replace it, or choose another --out");
}

fs::path make_temp_dir(const fs::path& final_dir) {
  std::error_code ec;
  for (int attempt = 0; attempt < 8; ++attempt) {
    fs::path temp = sibling_name(final_dir, "tmp");
    if (fs::create_directory(temp, ec)) return temp;
    if (ec) break;  // create_directory reports an existing name without an error: try again
  }
  fail("cannot create a directory in " + parent_of(final_dir).string() + ": " + ec.message(),
       final_dir, "check write permission on the parent directory, or choose another --out");
}

}  // namespace

AtomicDir::AtomicDir(const std::string& final_dir, bool force) : force_(force) {
  fs::path final_path = without_trailing_slash(final_dir);
  check_parent(parent_of(final_path));
  check_final(final_path, force);
  final_ = final_path.string();
  temp_ = make_temp_dir(final_path).string();
}

AtomicDir::~AtomicDir() {
  if (committed_) return;
  std::error_code ec;
  remove_tree(temp_, ec);  // best effort: a destructor must not throw
}

void AtomicDir::commit() {
  if (committed_) return;
  std::error_code ec;
  if (fs::exists(fs::symlink_status(final_, ec))) {
    check_final(final_, force_);  // it may have appeared since construction
    replace_existing();
  } else {
    fs::rename(temp_, final_, ec);
    if (ec)
      fail("cannot move the finished output into place: " + ec.message(), final_,
           "check write permission on the parent directory");
  }
  committed_ = true;
}

// Old directory aside, new one in, then delete the old: DIR is never missing or half-written.
void AtomicDir::replace_existing() {
  fs::path old = sibling_name(final_, "old");
  std::error_code ec;
  fs::rename(final_, old, ec);
  if (ec)
    fail("cannot move the existing output directory aside: " + ec.message(), final_,
         "check write permission on it and its parent, or choose another --out");
  fs::rename(temp_, final_, ec);
  if (ec) {
    std::error_code restore_ec;
    fs::rename(old, final_, restore_ec);
    fail("cannot move the finished output into place: " + ec.message(), final_,
         "the previous directory was kept; check write permission on the parent directory");
  }
  remove_tree(old, ec);  // the new output is complete; a leftover hidden dir is harmless
}

}  // namespace modrec

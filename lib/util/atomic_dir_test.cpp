#include "util/atomic_dir.h"

#include <doctest/doctest.h>
#include <unistd.h>

#include <csignal>
#include <fstream>

#include "util/scratch_dir.h"

namespace fs = std::filesystem;
using modrec::AtomicDir;
using modrec::Exit;
using modrec::ScratchDir;

namespace {

void touch(const fs::path& path, const std::string& text = "x") { std::ofstream(path) << text; }

std::string read(const fs::path& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// Runs `make` and returns the Error it throws; fails the test if it throws nothing.
template <typename F>
modrec::Error error_of(F make) {
  try {
    make();
  } catch (const modrec::Error& e) {
    return e;
  }
  FAIL("expected a modrec::Error");
  return modrec::Error(Exit::ok, "", "");
}

size_t entries_in(const fs::path& dir) {
  return static_cast<size_t>(std::distance(fs::directory_iterator(dir), {}));
}

}  // namespace

TEST_CASE("the temporary directory is a hidden sibling; commit renames it into place") {
  ScratchDir scratch;
  fs::path out = scratch.path / "run";
  AtomicDir dir(out.string(), false);
  fs::path temp = dir.path();
  CHECK(temp.parent_path() == scratch.path);
  CHECK(temp.filename().string().rfind(".run.modrec-tmp-" + std::to_string(getpid()) + "-", 0) ==
        0);
  CHECK(fs::is_directory(temp));
  CHECK_FALSE(fs::exists(out));
  touch(temp / "manifest.json", "m");
  dir.commit();
  CHECK(read(out / "manifest.json") == "m");
  CHECK_FALSE(fs::exists(temp));
  CHECK(entries_in(scratch.path) == 1);
}

TEST_CASE("a trailing slash names the same directory") {
  ScratchDir scratch;
  AtomicDir dir((scratch.path / "run").string() + "/", false);
  CHECK(fs::path(dir.path()).parent_path() == scratch.path);
  dir.commit();
  CHECK(fs::is_directory(scratch.path / "run"));
}

TEST_CASE("without commit the destructor removes the partial output") {
  ScratchDir scratch;
  fs::path temp;
  {
    AtomicDir dir((scratch.path / "run").string(), false);
    temp = dir.path();
    fs::create_directories(temp / "tensors" / "layer1");
    touch(temp / "tensors" / "layer1" / "out.npy");
  }
  CHECK_FALSE(fs::exists(temp));
  CHECK(entries_in(scratch.path) == 0);
}

TEST_CASE("an existing output directory is refused without force") {
  ScratchDir scratch;
  fs::path out = scratch.path / "run";
  fs::create_directory(out);
  auto e = error_of([&] { AtomicDir dir(out.string(), false); });
  CHECK(e.code() == Exit::write_failed);
  CHECK(std::string(e.what()) == "output directory already exists");
  CHECK(e.where() == out.string());
  CHECK(e.hint() == "pass --force to replace it, or choose another --out");
  CHECK(entries_in(scratch.path) == 1);  // no temporary left behind
}

TEST_CASE("force replaces the old directory only at commit") {
  ScratchDir scratch;
  fs::path out = scratch.path / "run";
  fs::create_directory(out);
  touch(out / "old.txt");
  AtomicDir dir(out.string(), true);
  touch(fs::path(dir.path()) / "new.txt");
  CHECK(fs::exists(out / "old.txt"));  // untouched until the new output is complete
  dir.commit();
  CHECK(fs::exists(out / "new.txt"));
  CHECK_FALSE(fs::exists(out / "old.txt"));
  CHECK(entries_in(scratch.path) == 1);  // neither the old copy nor the temporary remains
}

TEST_CASE("force without commit keeps the old directory") {
  ScratchDir scratch;
  fs::path out = scratch.path / "run";
  fs::create_directory(out);
  touch(out / "old.txt");
  { AtomicDir dir(out.string(), true); }
  CHECK(fs::exists(out / "old.txt"));
  CHECK(entries_in(scratch.path) == 1);
}

TEST_CASE("a file at the output path is never replaced, even with force") {
  ScratchDir scratch;
  fs::path out = scratch.path / "model.pt";
  touch(out, "weights");
  for (bool force : {false, true}) {
    auto e = error_of([&] { AtomicDir dir(out.string(), force); });
    CHECK(e.code() == Exit::write_failed);
    CHECK(e.where() == out.string());
  }
  CHECK(read(out) == "weights");
}

TEST_CASE("a missing parent or a file as parent is a write failure naming the parent") {
  ScratchDir scratch;
  touch(scratch.path / "file");
  for (fs::path parent : {scratch.path / "missing", scratch.path / "file"}) {
    auto e = error_of([&] { AtomicDir dir((parent / "run").string(), false); });
    CHECK(e.code() == Exit::write_failed);
    CHECK(e.where() == parent.string());
    CHECK_FALSE(e.hint().empty());
  }
}

TEST_CASE("an unwritable parent is a write failure") {
  ScratchDir scratch;
  fs::path parent = scratch.path / "readonly";
  fs::create_directory(parent);
  fs::permissions(parent, fs::perms::owner_read | fs::perms::owner_exec);
  if (::access(parent.c_str(), W_OK) == 0) {
    MESSAGE("skipped: running as root, permissions do not apply");
    return;
  }
  auto e = error_of([&] { AtomicDir dir((parent / "run").string(), false); });
  CHECK(e.code() == Exit::write_failed);
  CHECK(e.where() == (parent / "run").string());
  CHECK(e.hint().find("permission") != std::string::npos);
}

TEST_CASE("SIGINT under the guard becomes Interrupted and the partial output is removed") {
  ScratchDir scratch;
  fs::path temp;
  int caught_signal = 0;
  {
    modrec::InterruptGuard guard;
    CHECK_FALSE(modrec::interrupted());
    try {
      AtomicDir dir((scratch.path / "run").string(), false);
      temp = dir.path();
      touch(temp / "partial.npy");
      modrec::throw_if_interrupted();  // nothing pending: no throw
      std::raise(SIGINT);
      CHECK(modrec::interrupted());
      modrec::throw_if_interrupted();
      FAIL("throw_if_interrupted did not throw");
    } catch (const modrec::Interrupted& e) {
      caught_signal = e.signal();
      CHECK(e.code() == Exit::write_failed);
      CHECK(std::string(e.what()) == "interrupted by SIGINT");
      CHECK(e.exit_status() == 130);
    }
  }
  CHECK(caught_signal == SIGINT);
  CHECK_FALSE(temp.empty());
  CHECK_FALSE(fs::exists(temp));
  CHECK(entries_in(scratch.path) == 0);
}

TEST_CASE("SIGTERM maps to 143; the guard restores the previous handler") {
  struct sigaction before {};
  sigaction(SIGTERM, nullptr, &before);
  {
    modrec::InterruptGuard guard;
    std::raise(SIGTERM);
    CHECK(modrec::interrupt_signal() == SIGTERM);
    auto e = error_of([] { modrec::throw_if_interrupted(); });
    CHECK(std::string(e.what()) == "interrupted by SIGTERM");
  }
  struct sigaction after {};
  sigaction(SIGTERM, nullptr, &after);
  CHECK((after.sa_handler == before.sa_handler));
  CHECK(modrec::Interrupted(SIGTERM).exit_status() == 143);
}

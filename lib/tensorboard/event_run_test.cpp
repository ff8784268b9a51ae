#include "tensorboard/event_run.h"

#include <doctest/doctest.h>

#include <fstream>
#include <set>

#include "tensorboard/tensorboard_options.h"
#include "util/error_test_fixtures.h"
#include "util/scratch_dir.h"

using namespace modrec;
namespace fs = std::filesystem;

namespace {

void touch(const fs::path& path, const std::string& text) { std::ofstream(path) << text; }

std::string read(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// The names directly in `dir`.
std::set<std::string> names_in(const fs::path& dir) {
  std::set<std::string> names;
  for (const auto& entry : fs::directory_iterator(dir)) names.insert(entry.path().filename());
  return names;
}

Exit exit_of(const std::string& run_name) {
  return testing::error_of([&] { RunName::parse(run_name); }).first;
}

}  // namespace

TEST_CASE("a run name is one directory name") {
  CHECK(RunName::parse("lr-0.1").str() == "lr-0.1");
  CHECK(RunName::parse(std::string(255, 'a')).str().size() == 255);
  const std::vector<std::string> refused = {
      "", ".", "..", "a/b", "/", "a/", std::string("a\0b", 3), std::string(256, 'a')};
  for (const std::string& bad : refused) CHECK_MESSAGE(exit_of(bad) == Exit::usage, bad);
  CHECK(testing::error_of([] { RunName::parse("a/b"); }).second.find("--tensorboard-run") !=
        std::string::npos);
}

TEST_CASE("the default run name is --out's last component") {
  CHECK(RunName::of_out("runs/a").str() == "a");
  CHECK(RunName::of_out("runs/a/").str() == "a");
  CHECK(RunName::of_out("runs/./b/../a").str() == "a");
  CHECK(RunName::of_out(".").str() == fs::current_path().filename().string());
  const auto [code, line] = testing::error_of([] { RunName::of_out("/"); });
  CHECK(code == Exit::usage);
  CHECK(line.find("--tensorboard-run") != std::string::npos);
  const TensorBoardOptions named{"tb", RunName::parse("x")};
  CHECK(named.run_dir("runs/a") == "tb/x");
  CHECK(TensorBoardOptions{"tb/", {}}.run_dir("runs/a/") == "tb/a");
}

TEST_CASE("a new run makes its directories, and removes them when not committed") {
  ScratchDir scratch("event-run-test");
  const fs::path log_dir = scratch.path / "logs/tb";
  {
    EventRun run((log_dir / "a").string(), false);
    CHECK(fs::path(run.events().path()).parent_path() == log_dir / "a");
    CHECK(fs::is_regular_file(run.events().path()));
  }
  CHECK(names_in(scratch.path).empty());  // logs/ and logs/tb were made by it: gone too
  {
    EventRun run((log_dir / "a").string(), false);
    run.events().scalar(1, "loss", 0.5);
    run.events().flush();
    run.commit();
  }
  REQUIRE(names_in(log_dir / "a").size() == 1);
  CHECK(names_in(log_dir / "a").begin()->rfind("events.out.tfevents.", 0) == 0);
}

TEST_CASE("an existing run is refused without --force, and a file in its place even with it") {
  ScratchDir scratch("event-run-test");
  const fs::path run_dir = scratch.path / "a";
  fs::create_directory(run_dir);
  touch(run_dir / "events.out.tfevents.1.host.2", "old");
  const auto [code, line] = testing::error_of([&] { EventRun run(run_dir.string(), false); });
  CHECK(code == Exit::write_failed);
  CHECK(line.find(run_dir.string()) != std::string::npos);
  CHECK(line.find("--force") != std::string::npos);
  CHECK(names_in(run_dir) == std::set<std::string>{"events.out.tfevents.1.host.2"});
  touch(scratch.path / "b", "a file");
  CHECK(testing::error_of([&] { EventRun run((scratch.path / "b").string(), true); }).first ==
        Exit::write_failed);
  CHECK(read(scratch.path / "b") == "a file");
}

TEST_CASE("--force replaces the run's event files once committed, nothing else") {
  ScratchDir scratch("event-run-test");
  const fs::path run_dir = scratch.path / "a";
  fs::create_directories(run_dir / "nested");
  touch(run_dir / "events.out.tfevents.1.host.2", "old");
  touch(run_dir / "nested/events.out.tfevents.3.host.4", "another run's");
  touch(run_dir / "notes.txt", "mine");
  touch(scratch.path / "events.out.tfevents.5.host.6", "the log directory's own");
  const std::set<std::string> kept = {"nested", "notes.txt"};
  {
    EventRun run(run_dir.string(), true);  // not committed: as it was
    std::set<std::string> during = names_in(run_dir);
    CHECK(during.count("events.out.tfevents.1.host.2") == 0);  // out of TensorBoard's sight
    for (const auto& name : during)
      if (!kept.count(name)) CHECK((name[0] == '.') != (name.find("tfevents") != name.npos));
  }
  CHECK(read(run_dir / "events.out.tfevents.1.host.2") == "old");
  CHECK(names_in(run_dir).size() == 3);
  std::string written;
  {
    EventRun run(run_dir.string(), true);
    written = fs::path(run.events().path()).filename();
    run.commit();
  }
  std::set<std::string> after = kept;
  after.insert(written);
  CHECK(names_in(run_dir) == after);
  CHECK(read(run_dir / "nested/events.out.tfevents.3.host.4") == "another run's");
  CHECK(read(run_dir / "notes.txt") == "mine");
  CHECK(read(scratch.path / "events.out.tfevents.5.host.6") == "the log directory's own");
}

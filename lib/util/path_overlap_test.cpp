#include "util/path_overlap.h"

#include <doctest/doctest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "util/error_test_fixtures.h"
#include "util/scratch_dir.h"

using namespace modrec;

namespace {

std::pair<Exit, std::string> check(const std::string& out, const std::string& input) {
  return testing::error_of([&] {
    refuse_output_over_inputs({out, "--out"}, {{"", "--grad"}, {input, "--input"}});
  });
}

}  // namespace

TEST_CASE("an output equal to, inside or around an input is refused, naming both") {
  ScratchDir scratch("overlap-test");
  const std::string dir = scratch.path.string();
  std::filesystem::create_directories(dir + "/runs/a/tensors");
  std::ofstream(dir + "/model.pt") << "x";

  auto [code, line] = check(dir + "/runs/a", dir + "/runs/a");
  CHECK(code == Exit::usage);
  CHECK(line == "modrec: error: the output " + dir + "/runs/a is the input " + dir +
                    "/runs/a (--input) (--out): write the output elsewhere: modrec never changes "
                    "its inputs");
  CHECK(check(dir + "/runs/a/merged", dir + "/runs/a").second.find("lies inside the input") !=
        std::string::npos);
  CHECK(check(dir + "/runs", dir + "/runs/a").second.find("holds the input") != std::string::npos);
  CHECK(check(dir, dir + "/model.pt").second.find("holds the input") != std::string::npos);
  // The same places written otherwise: relative, with "..", through a link.
  const auto cwd = std::filesystem::current_path();
  REQUIRE(chdir(dir.c_str()) == 0);
  CHECK(check("runs/a/../a", dir + "/runs/a").first == Exit::usage);
  REQUIRE(symlink((dir + "/runs").c_str(), (dir + "/link").c_str()) == 0);
  CHECK(check(dir + "/link/a", "runs/a").first == Exit::usage);
  std::filesystem::current_path(cwd);
  // A glob input is the folder its pattern starts in.
  CHECK(check(dir + "/runs/a/out", dir + "/runs/a/*.npy").first == Exit::usage);
}

TEST_CASE("outputs beside the inputs, or sharing only a name prefix, are written") {
  ScratchDir scratch("overlap-test");
  const std::string dir = scratch.path.string();
  CHECK(check(dir + "/run-b", dir + "/run").first == Exit::ok);
  CHECK(check(dir + "/run", dir + "/run-b").first == Exit::ok);
  CHECK(check(dir + "/out/report.html", dir + "/runs/a").first == Exit::ok);
  CHECK(check(dir + "/x", "").first == Exit::ok);
}

TEST_CASE("two outputs of one command are refused when one is or holds the other") {
  ScratchDir scratch("overlap-test");
  const std::string dir = scratch.path.string();
  auto together = [](const std::string& a, const std::string& b) {
    return testing::error_of([&] {
             refuse_outputs_together({a, "--tensorboard"}, {b, "--out"});
           })
        .second;
  };
  CHECK(together(dir + "/run/tb", dir + "/run")
            .find("lies inside the output " + dir + "/run (--out)") != std::string::npos);
  CHECK(together(dir, dir + "/run").find("holds the output") != std::string::npos);
  CHECK(together(dir + "/tb", dir + "/tb").find("is the output") != std::string::npos);
  CHECK(together(dir + "/tb", dir + "/run").empty());
  CHECK(together("", dir + "/run").empty());
}

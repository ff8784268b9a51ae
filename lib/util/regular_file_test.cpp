#include "util/regular_file.h"

#include <doctest/doctest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>

#include "util/error_test_fixtures.h"
#include "util/scratch_dir.h"

using namespace modrec;

TEST_CASE("regular files and missing paths pass; devices, FIFOs, sockets and directories do not") {
  ScratchDir scratch("regular-file-test");
  const std::string dir = scratch.path.string();
  const std::string file = dir + "/x.pt";
  std::ofstream(file) << "x";
  CHECK(non_regular_kind(file).empty());
  CHECK(non_regular_kind(dir + "/missing").empty());
  CHECK_NOTHROW(require_regular_file(file, "input file"));

  CHECK(non_regular_kind("/dev/zero") == "a character device");
  CHECK(non_regular_kind(dir) == "a directory");
  const std::string fifo = dir + "/fifo";
  REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
  CHECK(non_regular_kind(fifo) == "a FIFO (named pipe)");
  const std::string link = dir + "/to-fifo";
  REQUIRE(symlink(fifo.c_str(), link.c_str()) == 0);
  CHECK(non_regular_kind(link) == "a FIFO (named pipe)");  // links are followed

  CHECK(testing::error_of([] { require_file_output("/dev/null"); }).first == Exit::write_failed);
  CHECK(testing::error_of([&] { require_file_output(dir); }).first == Exit::write_failed);
  CHECK_NOTHROW(require_file_output(file));
  CHECK_NOTHROW(require_file_output(dir + "/new.html"));

  const auto [code, line] =
      testing::error_of([] { require_regular_file("/dev/zero", "input file"); });
  CHECK(code == Exit::bad_input);
  CHECK(line.find("input file is a character device, not a regular file (/dev/zero)") !=
        std::string::npos);
}

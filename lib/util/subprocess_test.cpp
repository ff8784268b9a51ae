#include "util/subprocess.h"

#include <doctest/doctest.h>

namespace modrec {

TEST_CASE("run_process feeds stdin and collects stdout, stderr and the exit code") {
  const std::string big(1 << 20, 'x');  // beyond any pipe buffer both ways
  auto r = run_process({"sh", "-c", "cat; echo oops >&2; exit 3"}, big);
  REQUIRE(r);
  CHECK(r->out == big);
  CHECK(r->err == "oops\n");
  CHECK(r->status == 3);
}

TEST_CASE("run_process survives a program that stops reading its input") {
  auto r = run_process({"sh", "-c", "exec 0<&-; echo done"}, std::string(1 << 20, 'x'));
  REQUIRE(r);
  CHECK(r->out == "done\n");
  CHECK(r->status == 0);
}

TEST_CASE("run_process tells a missing program") {
  CHECK_FALSE(run_process({"modrec-no-such-program"}, ""));
}

}  // namespace modrec

#include "util/progress.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

using namespace modrec;

TEST_CASE("a phase is drawn, stepped and cleared; nothing without a drawer") {
  std::vector<std::string> drawn;
  progress::set_drawer([&drawn](const std::string& what, int done, int total) {
    drawn.push_back(what + " " + std::to_string(done) + "/" + std::to_string(total));
  });
  {
    progress::Phase phase("merging", 3);
    phase.step(1, 3);
    progress::clear();  // a log line
    progress::clear();  // nothing drawn: nothing to clear
    phase.step(2, 3);
  }
  CHECK(drawn ==
        std::vector<std::string>{"merging 0/3", "merging 1/3", " 0/0", "merging 2/3", " 0/0"});
  progress::set_drawer(nullptr);
  progress::Phase quiet("loading");
  quiet.step(1, 1);
  CHECK(drawn.size() == 5);
}

#include "load/aoti/package_layout.h"

#include <doctest/doctest.h>

#include <string>
#include <utility>
#include <vector>

#include "util/error_test_fixtures.h"
#include "util/python_test_fixtures.h"

using namespace modrec;
using namespace modrec::aoti;

namespace {

using Entries = std::vector<std::pair<std::string, uint32_t>>;  // name, external attributes

// A zip that Python's zipfile writes of `entries` (each holding a few bytes), in a folder of its
// own per test process.
std::string zip_of(const std::string& name, const Entries& entries) {
  static const std::string folder = test::temp_dir("aoti-layout");
  const std::string path = folder + "/" + name;
  std::string list;
  for (const auto& [entry, attributes] : entries)
    list += "('" + entry + "', " + std::to_string(attributes) + "),";
  REQUIRE(
      test::python_ok("import zipfile, warnings\nwarnings.simplefilter('ignore')\n"
                      "with zipfile.ZipFile('" +
                      path +
                      "', 'w') as z:\n"
                      "  for n, a in [" +
                      list +
                      "]:\n"
                      "    i = zipfile.ZipInfo(n); i.create_system = 3; i.external_attr = a\n"
                      "    z.writestr(i, b'bytes')\n"));
  return path;
}

const std::string kModel = "m/data/aotinductor/model/h.wrapper";

// A package's entries as aoti_compile_and_package writes them, and `more`.
Entries package(Entries more = {}) {
  Entries entries = {{kModel + ".cpp", 0},
                     {kModel + ".so", 0100755u << 16},
                     {kModel + "_metadata.json", 0},
                     {"m/archive_format", 0},
                     {"m/.data/version", 0}};
  entries.insert(entries.end(), more.begin(), more.end());
  return entries;
}

std::string refusal(const std::string& name, const Entries& entries) {
  return testing::error_of([&] { package_layout(Archive::open(zip_of(name, entries))); }).second;
}

}  // namespace

TEST_CASE("the library, its metadata and source are found, the runtime files placed") {
  const PackageLayout layout =
      package_layout(Archive::open(zip_of("ok.pt2", package({{"m/data/constants/c0", 0}}))));
  CHECK(layout.root == "m/");
  CHECK(layout.model == "model");
  CHECK(layout.library.name == kModel + ".so");
  CHECK(layout.metadata.name == kModel + "_metadata.json");
  CHECK(layout.source.name == kModel + ".cpp");
  REQUIRE(layout.runtime.size() == 3);
  CHECK(layout.runtime[0].to == "data/aotinductor/model/h.wrapper.so");
  CHECK(layout.runtime[1].to == "data/aotinductor/model/h.wrapper_metadata.json");
  CHECK(layout.runtime[2].to == "data/aotinductor/model/c0");
}

TEST_CASE("a hostile or foreign entry is named with what is wrong with it") {
  const std::string slip = "m/data/aotinductor/model/../../../../x";
  CHECK(refusal("slip.pt2", package({{slip, 0}})).find("entry " + slip + " climbs out") !=
        std::string::npos);
  CHECK(refusal("link.pt2", package({{kModel + "2.so", 0120777u << 16}}))
            .find("is a symbolic link") != std::string::npos);
  CHECK(refusal("twice.pt2", package({{kModel + ".cpp", 0}})).find("appears twice") !=
        std::string::npos);
  CHECK(refusal("outside.pt2", package({{"n/data/aotinductor/model/x.so", 0}}))
            .find("lies outside the package's folder m/") != std::string::npos);
  CHECK(refusal("abs.pt2", package({{"/abs/x", 0}})).find("is an absolute path") !=
        std::string::npos);
}

TEST_CASE("a package without its one library, metadata or source is refused, never compiled") {
  Entries cpp_only = package({{kModel + "_compile_flags.json", 0}});
  cpp_only.erase(cpp_only.begin() + 1);
  CHECK(refusal("cpp_only.pt2", cpp_only).find("no compiled library") != std::string::npos);
  CHECK(refusal("two.pt2", package({{"m/data/aotinductor/model/k.so", 0}}))
            .find("2 compiled libraries") != std::string::npos);
  Entries no_metadata = package();
  no_metadata.erase(no_metadata.begin() + 2);
  CHECK(refusal("no_metadata.pt2", no_metadata).find("no metadata") != std::string::npos);
  Entries no_source = package();
  no_source.erase(no_source.begin());
  CHECK(refusal("no_source.pt2", no_source).find("no C++ source") != std::string::npos);
}

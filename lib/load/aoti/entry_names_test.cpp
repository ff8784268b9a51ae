#include "load/aoti/entry_names.h"

#include <doctest/doctest.h>

#include <string>

using namespace modrec::aoti;

TEST_CASE("the names aoti_compile_and_package writes pass") {
  CHECK(entry_name_defect("m/data/aotinductor/model/c7mg.wrapper.so") == "");
  CHECK(entry_name_defect("m/.data/version") == "");
  CHECK(entry_name_defect("m/data/aotinductor/model/") == "");
  CHECK(entry_name_defect("m/a..b/x") == "");  // ".." only as a whole component
}

TEST_CASE("a name that escapes, is absolute or is read differently elsewhere is named") {
  CHECK(entry_name_defect("m/data/aotinductor/model/../../../../x").find("'..'") !=
        std::string::npos);
  CHECK(entry_name_defect("..").find("'..'") != std::string::npos);
  CHECK(entry_name_defect("/abs/data/x") == "is an absolute path");
  CHECK(entry_name_defect("\\abs") == "is an absolute path");
  CHECK(entry_name_defect("m\\..\\x") == "holds '\\'");
  CHECK(entry_name_defect("c:/x") == "holds ':'");
  CHECK(entry_name_defect(std::string("m/a\0b", 5)) == "holds a NUL byte");
  CHECK(entry_name_defect("m//x") == "has an empty or '.' path component");
  CHECK(entry_name_defect("m/./x") == "has an empty or '.' path component");
  CHECK(entry_name_defect("") == "is empty");
}

TEST_CASE("only regular files, and directories named as such, are extracted") {
  CHECK(entry_mode_defect(0, "m/x") == "");
  CHECK(entry_mode_defect(0100644u << 16, "m/x") == "");
  CHECK(entry_mode_defect(0040755u << 16, "m/d/") == "");
  CHECK(entry_mode_defect(0040755u << 16, "m/d") == "is a directory under a file's name");
  CHECK(entry_mode_defect(0120777u << 16, "m/x") == "is a symbolic link");
  CHECK(entry_mode_defect(0020666u << 16, "m/x") == "is a device");
  CHECK(entry_mode_defect(0060666u << 16, "m/x") == "is a device");
  CHECK(entry_mode_defect(0010644u << 16, "m/x") == "is a named pipe");
}

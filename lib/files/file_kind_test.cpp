#include "files/file_kind.h"

#include <doctest/doctest.h>

#include "load/test_fixtures.h"
#include "files/pickle_head.h"

using namespace modrec;
using modrec::test::fixture;

TEST_CASE("inspect_file tells the files torch and numpy write apart") {
  struct Case {
    const char* file;
    FileKind kind;
  } cases[] = {
      {"model.pt", FileKind::torchscript},
      {"state_dict.pt", FileKind::state_dict},
      {"eager.pt", FileKind::eager_module},
      {"eager_main.pt", FileKind::eager_module},
      {"tensor.pt", FileKind::tensor_pickle},
      {"tuple.pt", FileKind::tensor_pickle},
      {"legacy.pt", FileKind::legacy_pickle},
      {"array.npy", FileKind::numpy},
      {"empty.pt", FileKind::empty},
      {"random.bin", FileKind::not_zip},
      {"truncated.pt", FileKind::damaged},
      {"flipped_header.pt", FileKind::damaged},
      {"no_code.zip", FileKind::other_zip},
      {"folder.pt", FileKind::directory},
      {"missing.pt", FileKind::missing},
      // Damaged weight bytes keep the archive's structure; load_model's CRC check catches them.
      {"flipped_weight.pt", FileKind::torchscript},
  };
  for (const auto& c : cases) {
    INFO(std::string(c.file));
    CHECK(inspect_file(fixture(c.file)).kind == c.kind);
  }
}

TEST_CASE("sniff_file reads only the first bytes: any zip is a zip, pending a closer look") {
  for (const char* zip : {"model.pt", "truncated.pt", "no_code.zip", "tensor.pt"}) {
    INFO(std::string(zip));
    CHECK(sniff_file(fixture(zip)) == FileKind::zip);
  }
  CHECK(sniff_file(fixture("array.npy")) == FileKind::numpy);
  CHECK(sniff_file(fixture("legacy.pt")) == FileKind::legacy_pickle);
  CHECK(sniff_file(fixture("folder.pt")) == FileKind::directory);
  CHECK(kind_by_magic("") == FileKind::empty);
  CHECK(kind_by_magic("PK\x03") == FileKind::not_zip);
  CHECK(kind_by_magic(std::string("\x93NUMPY\x01\x00", 8)) == FileKind::numpy);
  // An ExecuTorch program: a FlatBuffer whose root offset precedes its identifier.
  CHECK(kind_by_magic(std::string("\x1c\x00\x00\x00"
                                  "ET12",
                                  8)) == FileKind::executorch);
  CHECK(kind_by_magic(std::string("\x1c\x00\x00\x00"
                                  "ET1",
                                  7)) == FileKind::not_zip);
}

TEST_CASE("describe names the pickled class of an eager module") {
  FileInfo eager = inspect_file(fixture("eager.pt"));
  CHECK(eager.detail == "torch.nn.modules.container.Sequential");
  CHECK(describe(eager).find("eager pickled module (torch.save(model))") != std::string::npos);
  CHECK(inspect_file(fixture("eager_main.pt")).detail == "__main__.Net");
  CHECK(describe(inspect_file(fixture("truncated.pt"))).find("is truncated") == 0);
}

TEST_CASE("pickle head reads protocol 2 and protocol 4 class references") {
  PickleHead p2 =
      read_pickle_head(std::string("\x80\x02"
                                   "ccollections\nOrderedDict\nq\x00)R",
                                   31));
  CHECK(p2.protocol == 2);
  CHECK(p2.global == "collections.OrderedDict");
  const char p4[] =
      "\x80\x04\x95\x10\x00\x00\x00\x00\x00\x00\x00\x8c\x0ctorch._utils\x94\x8c\x12_rebuild_tensor_"
      "v2\x94\x93";
  PickleHead h4 = read_pickle_head(std::string(p4, sizeof(p4) - 1));
  CHECK(h4.protocol == 4);
  CHECK(h4.global == "torch._utils._rebuild_tensor_v2");
  PickleHead list = read_pickle_head(std::string("\x80\x02]q\x00", 5));
  CHECK(list.first_op == ']');
  CHECK(list.global.empty());
}

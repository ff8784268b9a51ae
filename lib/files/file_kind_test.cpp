#include "files/file_kind.h"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>

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

namespace {

// A folder of files with the given contents, removed at the end of the test.
struct Folder {
  std::string path = test::temp_dir("file-kind");
  std::string put(const std::string& name, const std::string& bytes) const {
    std::filesystem::create_directories(std::filesystem::path(path + "/" + name).parent_path());
    std::ofstream(path + "/" + name, std::ios::binary) << bytes;
    return path + "/" + name;
  }
  ~Folder() {
    std::error_code ec;
    modrec::remove_tree(path, ec);
  }
};

}  // namespace

TEST_CASE("a folder save_pretrained wrote is a checkpoint folder naming the file it reads") {
  Folder f;
  f.put("config.json", "{}");
  CHECK(inspect_file(f.path).kind == FileKind::directory);
  CHECK(describe(inspect_file(f.path)).find("pytorch_model.bin.index.json") != std::string::npos);
  f.put("pytorch_model.bin", "PK");
  CHECK(inspect_file(f.path).detail == "pytorch_model.bin");
  // safetensors first, as from_pretrained looks for it first; a folder of that name is no file.
  std::filesystem::create_directories(f.path + "/model.safetensors");
  CHECK(inspect_file(f.path).detail == "pytorch_model.bin");
  f.put("model.safetensors.index.json", "{}");
  const FileInfo info = inspect_file(f.path);
  CHECK(info.kind == FileKind::checkpoint_folder);
  CHECK(info.detail == "model.safetensors.index.json");
  CHECK(is_checkpoint(info.kind));
}

TEST_CASE("a file named as a checkpoint whose bytes tell no kind is that checkpoint") {
  Folder f;
  CHECK(inspect_file(f.put("a.safetensors", "abc")).kind == FileKind::safetensors);
  CHECK(inspect_file(f.put("a.safetensors.index.json", "{weight")).kind ==
        FileKind::checkpoint_index);
  CHECK(inspect_file(f.put("empty.safetensors", "")).kind == FileKind::safetensors);
  CHECK(inspect_file(f.put("a.bin", "abc")).kind == FileKind::not_zip);
  CHECK(inspect_file(f.put("config.json", "{}")).kind == FileKind::json);
  // A header that is a JSON array: a safetensors file whatever its name.
  CHECK(inspect_file(f.put("array.bin", std::string("\x06\0\0\0\0\0\0\0[1, 2]", 14))).kind ==
        FileKind::safetensors);
}

TEST_CASE("a torch.save of a list says so") {
  const FileInfo list{FileKind::tensor_pickle, "a list"};
  CHECK(describe(list).find("torch.save of a list") != std::string::npos);
  CHECK(describe(list).find("neither a model nor a state_dict") != std::string::npos);
}

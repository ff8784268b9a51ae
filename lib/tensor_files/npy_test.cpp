// parse_npy on hand-made malformed headers: each must be a clean Error(bad_input), never an
// out-of-range read, a std::out_of_range from std::stoll/substr, or a huge allocation.
#include "tensor_files/npy.h"

#include <doctest/doctest.h>

#include "util/error.h"

using namespace modrec;

namespace {

// A version 1.0 .npy file: magic, version, little-endian header length, header, data.
std::string npy_v1(const std::string& header, const std::string& data = "") {
  std::string out = "\x93NUMPY\x01";
  out += '\0';
  out += static_cast<char>(header.size() & 0xFF);
  out += static_cast<char>(header.size() >> 8);
  return out + header + data;
}

std::string parse_error(const std::string& bytes) {
  try {
    parse_npy(bytes, "x.npy");
  } catch (const Error& e) {
    CHECK(e.code() == Exit::bad_input);
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("a well-formed header still parses") {
  std::string four_bytes("\x01\x00\x00\x00", 4);
  at::Tensor t = parse_npy(
      npy_v1("{'descr': '<i4', 'fortran_order': False, 'shape': (1,), }", four_bytes), "x.npy");
  CHECK(t.sizes() == at::IntArrayRef{1});
  CHECK(t.item<int>() == 1);
}

TEST_CASE("malformed .npy headers are rejected with a clear error") {
  struct Case {
    const char* header;
    const char* fragment;
  } cases[] = {
      {"{'descr':", "without a value for 'descr'"},
      {"{'descr':   ", "without a value for 'descr'"},
      {"{'descr'", "without a value for 'descr'"},
      {"{'descr': '<f4", "unterminated 'descr'"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (2,", "unterminated 'shape'"},
      {"{'descr': '<f4', 'fortran_order': False", "unterminated 'fortran_order'"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': 5, }", "bad .npy shape 5"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999999999999,), }",
       "bad .npy shape"},
  };
  for (const auto& c : cases) {
    std::string what = parse_error(npy_v1(c.header));
    INFO(c.header << " -> " << what);
    CHECK(what.find(c.fragment) != std::string::npos);
  }
}

TEST_CASE("a shape larger than the file is truncated, before anything is allocated") {
  for (const char* shape :
       {"(1000000000000,)", "(4294967296, 4294967296)", "(65536, 65536, 65536, 65536)"}) {
    std::string header =
        std::string("{'descr': '<f8', 'fortran_order': False, 'shape': ") + shape + ", }";
    INFO(shape);
    CHECK(parse_error(npy_v1(header, "12345678")).find("truncated .npy") != std::string::npos);
  }
  // A zero dimension holds no data whatever the others claim.
  at::Tensor t = parse_npy(
      npy_v1("{'descr': '<f8', 'fortran_order': False, 'shape': (1000000000000, 0), }"), "x.npy");
  CHECK(t.numel() == 0);
}

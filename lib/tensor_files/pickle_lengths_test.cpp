#include "tensor_files/pickle_lengths.h"

#include <doctest/doctest.h>

#include "util/python_test_fixtures.h"

using namespace modrec;

TEST_CASE("every pickle Python writes walks to its end without an overrun") {
  std::string dir = test::temp_dir("pickle");
  // str/bytes/int sizes that need 1-, 4- and 8-byte lengths, and every opcode family torch.save
  // uses.
  REQUIRE(test::python_ok(
      "import pickle, collections\n"
      "obj = ('s', 'x' * 300, b'b' * 70000, 2 ** 70, -1, 65000, 1.5, None, True, [1, (2,)], {'k': "
      "3},\n"
      "       collections.OrderedDict(a=1), {1, 2}, frozenset([3]), bytearray(b'ab'))\n"
      "for p in range(6):\n"
      "    open('" +
      dir + "/p%d' % p, 'wb').write(pickle.dumps(obj, protocol=p))\n"));
  for (int p = 0; p < 6; ++p) {
    std::string pickle = test::slurp(dir + "/p" + std::to_string(p));
    INFO("protocol " << p);
    REQUIRE(pickle.size() > 70000);
    PickleOverrun overrun;
    CHECK_FALSE(find_pickle_overrun(pickle, overrun));
    if (p == 0) continue;  // protocol 0 is text: newline-terminated, no lengths
    // Cut inside the 70000-byte bytes object: its length now runs past the end.
    size_t cut = pickle.find(std::string(100, 'b')) + 10;
    CHECK(find_pickle_overrun(pickle.substr(0, cut), overrun));
    CHECK(overrun.claimed == 70000);
  }
}

// The data.pkl of a fuzzer input: BINUNICODE ('X') claiming 0xFFFF0007 bytes at offset 39, which
// LibTorch allocated and zero-filled before finding that 166 bytes remain.
TEST_CASE("a string length past the end is found before LibTorch allocates it") {
  std::string pickle(
      "\x80\x02"
      "ctorch._utils\n_rebuild_tensor_v2\nq\x00((X\x07\x00\xff\xff\xff'orageq\x01.",
      54);
  PickleOverrun overrun;
  REQUIRE(find_pickle_overrun(pickle, overrun));
  CHECK(overrun.at == 39);
  CHECK(overrun.claimed == 0xFFFF0007u);
}

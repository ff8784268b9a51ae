// TensorSpool over a BatchFile: batches written as a .npy file must read back in NumPy as the
// concatenated array; take() gives at::cat of the batches.
#include "record/accumulate/tensor_spool.h"

#include <doctest/doctest.h>

#include <filesystem>

#include "util/python_test_fixtures.h"
#include "util/error.h"

using namespace modrec;

namespace {

// Batches of rows 0..n-1 of numpy.arange(n * 3).reshape(n, 3), split at `cuts`.
std::vector<at::Tensor> arange_batches(at::ScalarType type, std::vector<int64_t> cuts, int64_t n) {
  at::Tensor all =
      at::arange(n * 3, at::TensorOptions().dtype(at::kFloat)).reshape({n, 3}).to(type);
  std::vector<at::Tensor> out;
  int64_t start = 0;
  for (int64_t cut : cuts) out.push_back(all.narrow(0, start, cut - start)), start = cut;
  out.push_back(all.narrow(0, start, n - start));
  return out;
}

// Each batch stored in the file, between other tensors, as a pass stores them.
TensorSpool spooled(BatchFile& file, const std::vector<at::Tensor>& batches,
                    const std::string& where = "layer 1-1, output") {
  TensorSpool spool(where);
  for (const auto& b : batches) {
    file.write(at::ones({2}));
    spool.append(file.write(b));
  }
  return spool;
}

std::string spool_npy(const std::string& name, const std::vector<at::Tensor>& batches) {
  const std::string dir = test::temp_dir("spool");
  BatchFile file(dir + "/.spool/batch-1.raw");
  const std::string path = dir + "/" + name;
  spooled(file, batches).write_npy(path);
  return path;
}

// NumPy's own reading: dtype, shape, values, and data 64-byte aligned as numpy.save writes it.
bool numpy_reads(const std::string& path, const std::string& dtype, int64_t n) {
  return test::python_ok(
      "import numpy, sys\n"
      "a = numpy.load(" +
      test::shell_quote(path) +
      ")\n"
      "want = numpy.arange(" +
      std::to_string(n * 3) + ").reshape(" + std::to_string(n) + ", 3).astype('" + dtype +
      "')\n"
      "f = open(" +
      test::shell_quote(path) +
      ", 'rb'); f.read(8)\n"
      "aligned = (10 + int.from_bytes(f.read(2), 'little')) % 64 == 0\n"
      "sys.exit(0 if a.dtype == want.dtype and a.shape == want.shape and (a == want).all() "
      "and aligned else 1)");
}

std::string error_of(const std::vector<at::Tensor>& batches) {
  BatchFile file(test::temp_dir("spool") + "/batch-1.raw");
  try {
    spooled(file, batches, "layer 2-1, input");
  } catch (const Error& e) {
    CHECK(e.code() == Exit::model_failed);
    CHECK(e.where() == "layer 2-1, input");
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("npy spools read back in NumPy as the concatenated array") {
  CHECK(numpy_reads(spool_npy("f4.npy", arange_batches(at::kFloat, {2, 3}, 7)), "float32", 7));
  CHECK(numpy_reads(spool_npy("one.npy", arange_batches(at::kDouble, {}, 4)), "float64", 4));
  CHECK(numpy_reads(spool_npy("f2.npy", arange_batches(at::kHalf, {1}, 5)), "float16", 5));
  // bfloat16 has no NumPy dtype: float32, exactly (small integers are exact in both)
  CHECK(numpy_reads(spool_npy("bf16.npy", arange_batches(at::kBFloat16, {3}, 6)), "float32", 6));
  // empty batches: shape (0, 3)
  CHECK(numpy_reads(spool_npy("empty.npy", {at::empty({0, 3}), at::empty({0, 3})}), "float32", 0));
}

TEST_CASE("npy spool of a 0-dim tensor holds it as a 0-dim array") {
  const std::string path = spool_npy("scalar.npy", {at::full({}, 2.5, at::kFloat)});
  CHECK(test::python_ok("import numpy, sys; a = numpy.load(" + test::shell_quote(path) +
                        "); sys.exit(0 if a.shape == () and a == 2.5 else 1)"));
}

TEST_CASE("take() reads the batches back as at::cat, dtype kept") {
  BatchFile file(test::temp_dir("spool") + "/batch-1.raw");
  auto batches = arange_batches(at::kBFloat16, {1, 4}, 6);
  TensorSpool spool = spooled(file, batches);
  CHECK(spool.shape() == std::vector<int64_t>{6, 3});
  at::Tensor t = spool.take();
  CHECK((t.scalar_type() == at::kBFloat16));  // .pt files hold bfloat16
  CHECK(at::equal(t, at::cat(batches, 0)));
  CHECK(at::equal(spooled(file, {batches[0]}).take(), batches[0]));
}

TEST_CASE("batches that cannot be concatenated are refused") {
  CHECK(error_of({at::zeros({2, 3}), at::zeros({2, 4})})
            .find("cannot concatenate batches: shapes differ") != std::string::npos);
  CHECK(error_of({at::zeros({2, 3}), at::zeros({2, 3}, at::kDouble)}).find("shapes differ") !=
        std::string::npos);
  CHECK(error_of({at::zeros({}), at::zeros({})}).find("0-dim") != std::string::npos);
  CHECK(error_of({at::zeros({2, 3}), at::zeros({1, 3})}).empty());
}

#include "tensor_files/npy_stream.h"

#include "tensor_files/npy.h"
#include "util/error.h"

namespace modrec {

NpyStream::NpyStream(const std::string& path, at::ScalarType type, at::IntArrayRef shape)
    : path_(path), file_(std::fopen(path.c_str(), "wb"), &std::fclose) {
  if (!file_) throw write_error("cannot open", path);
  const std::string header = npy_header(type, shape, path);
  const at::ScalarType stored = type == at::kBFloat16 ? at::kFloat : type;
  expected_ = c10::elementSize(stored);
  for (int64_t d : shape) expected_ *= static_cast<uint64_t>(d);
  if (std::fwrite(header.data(), 1, header.size(), file_.get()) != header.size())
    throw write_error("cannot write", path);
}

void NpyStream::append(const at::Tensor& rows) {
  const at::Tensor t = npy_storable(rows);
  const size_t size = static_cast<size_t>(t.numel()) * t.element_size();
  // An empty tensor's data pointer may be null, which fwrite must not be given even for 0 bytes.
  if (size > 0 && std::fwrite(t.data_ptr(), 1, size, file_.get()) != size)
    throw write_error("cannot write", path_);
  written_ += size;
}

void NpyStream::close() {
  if (written_ != expected_)
    throw Error(Exit::write_failed,
                "wrote " + std::to_string(written_) + " data bytes of the " +
                    std::to_string(expected_) + " its header announces",
                path_);
  if (std::fflush(file_.get()) != 0) throw write_error("cannot write", path_);
}

}  // namespace modrec

#include "sources/sample_source.h"

#include "sources/file_sequence.h"
#include "sources/npy_source.h"
#include "tensor_files/read_inputs.h"

namespace modrec {
namespace {

class MemorySource final : public SampleSource {
 public:
  MemorySource(at::Tensor t, std::string kind, std::string path)
      : SampleSource(t.sizes().vec(), t.scalar_type()),
        t_(std::move(t)),
        kind_(std::move(kind)),
        path_(std::move(path)) {}

  at::Tensor rows(SampleRange range) override { return t_.narrow(0, range.start, range.size()); }
  at::Tensor all() override { return t_; }
  std::string kind() const override { return kind_; }
  std::vector<SourceFile> files() const override {
    if (path_.empty()) return {};
    return {identify_file(path_)};
  }

 private:
  at::Tensor t_;
  std::string kind_, path_;
};

}  // namespace

SourcePtr memory_source(at::Tensor t, std::string kind, std::string path) {
  return std::make_shared<MemorySource>(std::move(t), std::move(kind), std::move(path));
}

std::vector<SourcePtr> open_input(const std::string& text) {
  return open_input_sources(text).sources;
}

InputSources open_input_sources(const std::string& text) {
  if (names_many_files(text))
    return {{std::make_shared<FileSequenceSource>(list_input_files(text))}};
  const InputFile file = open_input_file(text);  // its kind told once
  if (file.kind == FileKind::numpy) return {{npy_rows(file)}};
  const c10::IValue value = read_saved_value(file);
  InputSources out{{}, value.isList()};
  for (auto& t : saved_tensors(value, text))
    out.sources.push_back(memory_source(std::move(t), "tensor_file", text));
  return out;
}

}  // namespace modrec

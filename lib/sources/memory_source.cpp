#include "sources/memory_source.h"

#include "sources/source_files.h"

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

}  // namespace modrec

#include "sources/sample_source.h"

#include "sources/file_sequence.h"
#include "sources/memory_source.h"
#include "sources/npy_source.h"
#include "tensor_files/read_inputs.h"

namespace modrec {
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

// A torch.export archive (.pt2, torch >= 2.8) read whole: its program and its stored tensors.
#pragma once
#include <ATen/core/Tensor.h>

#include <map>
#include <optional>
#include <string>

#include "files/archive.h"
#include "load/model_options.h"
#include "load/pt2/export_notes.h"
#include "load/pt2/program.h"

namespace modrec::pt2 {

struct StoredTensor {
  at::Tensor value;
  bool is_param = false;  // a parameter (else a buffer or a lifted constant)
};

struct ExportedArchive {
  std::string path;
  Program program;
  std::map<std::string, StoredTensor> state;  // parameters, buffers and constants by FQN
  // modrec.export's notes (extra/modrec-notes.json) when the archive has them and they are sound
  // and name the program's modules; a damaged or mismatching file is one warning and none.
  std::optional<ExportNotes> notes;
};

// Reads models/<name>.json and data/weights/ and data/constants/ through their configs, each
// entry read once and checked against its CRC-32 (the others checked first). With Weights::meta
// the stored tensors are meta tensors of the configs' sizes, strides and dtypes: their files are
// neither read nor checked. Throws Error(Exit::bad_input) naming the file: a damaged zip, a
// missing entry or weight, malformed JSON, another schema major version.
ExportedArchive read_exported(const Archive& archive, Weights weights);
// Archive::open(path), then its weights read.
ExportedArchive read_exported(const std::string& path);

}  // namespace modrec::pt2

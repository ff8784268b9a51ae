// What check and diff were given (RUN_DIR, A, B): a recording directory, a checkpoint (a file, an
// index or a save_pretrained folder) or a model to record first. Told from the file itself,
// before any flag is asked for, so that a damaged checkpoint is named as one, never taken for a
// model that lacks --input.
#pragma once
#include <string>

#include "files/file_kind.h"

namespace modrec {

struct Subject {
  enum Kind { recording, checkpoint, model } kind = recording;
  FileInfo file;  // inspect_file's answer
};

// Throws Error(bad_input) naming `path` and what it is when it is none of the three: a file that
// is no model nor checkpoint (a legacy torch.save, a tensor file, a damaged zip, a missing path),
// a folder holding neither a recording's files nor a save_pretrained checkpoint (the names it
// looked for). A damaged safetensors file or index is a checkpoint: its reader names the defect.
Subject subject_of(const std::string& path);

}  // namespace modrec

// Reading --input files: Python torch.save files (a tensor, or a tuple/list of tensors) and .npy.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include <ATen/ATen.h>
#include <ATen/core/ivalue.h>

#include "files/file_kind.h"
#include "util/read_only_file.h"

namespace modrec {

// An input file opened once and its kind told once, from its first bytes: what its readers (the
// value below, a memory-mapped .npy: sources/npy_source.h) read on with.
struct InputFile {
  std::string path;
  std::shared_ptr<const ReadOnlyFile> file;
  FileKind kind = FileKind::not_zip;  // kind_by_magic's: numpy, zip, legacy_pickle, ...
};

// Error(bad_input) saying why, in an input file's terms, for a file that is missing, a directory,
// no regular file, unreadable or empty.
InputFile open_input_file(const std::string& path);

// One tensor per forward argument: a tensor file gives one, a tuple/list of tensors gives one per
// item, a .npy file (recognised by its magic, whatever its name) gives one. Every file LibTorch
// cannot read or that holds something else is Error(Exit::bad_input) saying what the file is and
// how to save it: a TorchScript model, a state_dict, an eager module, an nn.Parameter, a dict, a
// one-element list or one-key dict (LibTorch 1.13 cannot unpickle those), pickle protocol 4, a
// legacy non-zip torch.save file, a truncated or foreign file, a missing file or a directory.
std::vector<at::Tensor> read_inputs(const std::string& path);

// The tensors of a value read_saved_value gave: itself, or the items of its tuple or list, else
// read_inputs' errors naming `path`.
std::vector<at::Tensor> saved_tensors(const c10::IValue& value, const std::string& path);

// The value a torch.save file holds as it is (a .npy's: its tensor): tuples, lists and dicts keep
// their structure, and values among them that are no tensors (None, a flag) stay, as `record`
// writes them. The same checks and errors as read_inputs, but for what the value holds.
c10::IValue read_saved_value(const InputFile& input);
c10::IValue read_saved_value(const std::string& path);

}  // namespace modrec

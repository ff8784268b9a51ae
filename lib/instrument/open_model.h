// The one place a model file's format is chosen, by content (files/file_kind.h): a TorchScript
// file (.pt), a torch.export archive (.pt2), an AOTInductor package (.pt2 of compiled code) or an
// ExecuTorch program (.pte, with its ETRecord when formats.etrecord names one) becomes the
// InstrumentedModel every job runs. Checkpoints have no forward: the jobs read them with
// checkpoint/ instead.
#pragma once
#include <memory>
#include <string>

#include "instrument/instrumented_model.h"
#include "files/file_kind.h"
#include "load/model_options.h"

namespace modrec {

// `file` is inspect_file's of `path`: the model is read through the file it opened, its
// weights as `weights` says, each format given what `formats` holds for it. Throws
// Error(Exit::bad_input) naming `path` when it is none of these formats, or damaged;
// Error(Exit::usage) when `options.savable` asks to save a format modrec cannot write (any but
// TorchScript).
std::unique_ptr<InstrumentedModel> open_model(const std::string& path, const FileInfo& file,
                                              Weights weights, const FormatOptions& formats = {},
                                              const InstrumentOptions& options = {});

}  // namespace modrec

// The shape cells a file cannot vouch for (Call::keywords_untold, Call::structure_untold: a .pt2
// archive's calls without a signature), among the rows and columns a table shows: Input Shape,
// the first tensor the call's operators read, where torchinfo shows forward's first positional
// argument, used or not (`--` for a call given keyword arguments only); Output Shape of a call
// returning several tensors, where torchinfo sizes the first returned, or a dict's last value,
// not the first made. Said in one warning each, so that a table differing from torchinfo's there
// says why.
#pragma once
#include <string>
#include <vector>

#include "model/call_trace.h"
#include "summary/options.h"

namespace modrec {

struct UntoldShapes {
  std::vector<std::string> inputs, outputs;  // module paths, once each, in call order
};

UntoldShapes untold_shapes(const CallTrace& trace, const ModuleTree& tree,
                           const SummaryOptions& options);

// Warns of `untold`, naming `path` (the model file).
void warn_untold_shapes(const UntoldShapes& untold, const std::string& path);

}  // namespace modrec

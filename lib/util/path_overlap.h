// No subcommand writes over, into or around one of its own inputs: an output that is an input, lies
// inside an input directory, or is a directory holding an input would, with --force, remove that
// input, and without it change it.
#pragma once
#include <string>
#include <vector>

namespace modrec {

// A path the command line gave, with the flag that gave it ("--out", "--input", "MODEL", "RUN").
struct FlagPath {
  std::string path;
  std::string flag;
};

// Each of `paths`, given by `flag`.
std::vector<FlagPath> flag_paths(const std::vector<std::string>& paths, const std::string& flag);

// Throws Error(usage) naming both paths and flags when `out` is equal to, inside, or around one
// of `inputs` (an empty path: none given). Paths are compared as they resolve (symbolic links,
// "..", relative to the working directory); a glob input counts as the directory its pattern starts
// in.
void refuse_output_over_inputs(const FlagPath& out, const std::vector<FlagPath>& inputs);

// Throws Error(usage) naming both when two outputs of one command are equal or one holds the
// other (--tensorboard and --out: the run directory is replaced as a whole).
void refuse_outputs_together(const FlagPath& a, const FlagPath& b);

}  // namespace modrec

// How a recording keeps its tensors (docs/run-dir.md): in which format its files are (--save)
// and whether each capture is reduced across batches (--reduce). Record writes a run by them,
// merge combines shard runs by them (torch-free).
#pragma once
#include "util/enum_names.h"

namespace modrec {

enum class SaveFormat { pt, npy, none };  // --save
enum class Reduce { none, sum, mean };    // --reduce: over samples, across batches

const EnumNames<SaveFormat>& save_format_names();
const EnumNames<Reduce>& reduce_names();

}  // namespace modrec

// The files behind an --input source: which ones a directory or glob names, and what identifies
// each one in a manifest, so that `modrec merge` can tell that shard runs read the same data.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace modrec {

// A file as a manifest records it: its size, modification time and the SHA-256 of its first
// 64 KiB (a .npy's header and first rows; hashing whole multi-GB sources would cost a read of
// all of them in every shard).
struct SourceFile {
  std::string path;
  int64_t bytes = 0;
  int64_t mtime_ns = 0;
  std::string head_sha256;
};

SourceFile identify_file(const std::string& path);  // Error(bad_input) if unreadable

// True when `text` is a directory or a pattern with * ? or [ that is not itself a file.
bool names_many_files(const std::string& text);

// The .pt and .npy files of a directory (not recursing), or the files a glob pattern matches,
// sorted by name as strings. Error(bad_input) naming `text` when there are none.
std::vector<std::string> list_input_files(const std::string& text);

}  // namespace modrec

#include "sources/source_files.h"

#include <glob.h>
#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "util/error.h"
#include "util/sha256.h"

namespace modrec {
namespace {

constexpr size_t kHeadBytes = 64 * 1024;

bool is_tensor_file_name(const std::filesystem::path& p) {
  return p.extension() == ".pt" || p.extension() == ".npy";
}

std::vector<std::string> directory_files(const std::string& dir) {
  std::vector<std::string> files;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec))
    if (entry.is_regular_file() && is_tensor_file_name(entry.path()))
      files.push_back(entry.path().string());
  if (ec)
    throw Error(Exit::bad_input, "input directory cannot be read: " + ec.message(), dir,
                "check the directory's permissions");
  return files;
}

std::vector<std::string> glob_files(const std::string& pattern) {
  glob_t found{};
  std::vector<std::string> files;
  if (glob(pattern.c_str(), 0, nullptr, &found) == 0)
    for (size_t i = 0; i < found.gl_pathc; ++i)
      if (std::filesystem::is_regular_file(found.gl_pathv[i]))
        files.emplace_back(found.gl_pathv[i]);
  globfree(&found);
  return files;
}

}  // namespace

SourceFile identify_file(const std::string& path) {
  struct stat st {};
  std::ifstream in(path, std::ios::binary);
  if (stat(path.c_str(), &st) != 0 || !in)
    throw Error(Exit::bad_input, "input file cannot be read", path, "check the path");
  std::string head(kHeadBytes, '\0');
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<size_t>(in.gcount()));
  return {path, static_cast<int64_t>(st.st_size),
          static_cast<int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec,
          sha256_hex(head)};
}

bool names_many_files(const std::string& text) {
  std::error_code ec;
  if (std::filesystem::is_directory(text, ec)) return true;
  return text.find_first_of("*?[") != std::string::npos && !std::filesystem::exists(text, ec);
}

std::vector<std::string> list_input_files(const std::string& text) {
  std::vector<std::string> files =
      std::filesystem::is_directory(text) ? directory_files(text) : glob_files(text);
  if (files.empty())
    throw Error(Exit::bad_input, "no .pt or .npy files found", text,
                "give a directory or a quoted glob of tensor files, e.g. --input 'data/*.npy'");
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace modrec

#include "load/aoti/entry_names.h"

namespace modrec::aoti {

std::string entry_name_defect(std::string_view name) {
  if (name.empty()) return "is empty";
  if (name.front() == '/' || name.front() == '\\') return "is an absolute path";
  for (const char c : {'\\', ':', '\0'})
    if (name.find(c) != std::string_view::npos)
      return c == '\0' ? "holds a NUL byte" : std::string("holds '") + c + "'";
  std::string_view rest = name;
  if (rest.back() == '/') rest.remove_suffix(1);  // a directory entry
  while (true) {
    const size_t slash = rest.find('/');
    const std::string_view part = rest.substr(0, slash);
    if (part == "..") return "climbs out of its folder ('..')";
    if (part.empty() || part == ".") return "has an empty or '.' path component";
    if (slash == std::string_view::npos) return "";
    rest.remove_prefix(slash + 1);
  }
}

std::string entry_mode_defect(uint32_t external_attributes, std::string_view name) {
  switch ((external_attributes >> 16) & 0170000) {  // S_IFMT of the Unix mode
    case 0:                                         // no Unix mode
    case 0100000:                                   // S_IFREG
      return "";
    case 0040000:  // S_IFDIR
      return name.ends_with('/') ? "" : "is a directory under a file's name";
    case 0120000:
      return "is a symbolic link";
    case 0020000:
    case 0060000:
      return "is a device";
    case 0010000:
      return "is a named pipe";
    case 0140000:
      return "is a socket";
    default:
      return "has an unknown file type in its mode";
  }
}

}  // namespace modrec::aoti

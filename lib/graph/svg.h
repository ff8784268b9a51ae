// SVG from DOT by Graphviz's `dot` program (Debian's package graphviz), run as a subprocess.
#pragma once
#include <string>

namespace modrec {

// Throws Error(Exit::usage) when no `dot` is on PATH, Error(Exit::write_failed) when it fails.
std::string render_svg(const std::string& dot);

}  // namespace modrec

#include "graph/svg.h"

#include "util/error.h"
#include "util/subprocess.h"

namespace modrec {

std::string render_svg(const std::string& dot) {
  const auto result = run_process({"dot", "-Tsvg"}, dot);
  if (!result)
    throw Error(Exit::usage, "Graphviz's dot program is not on PATH", "--format svg",
                "install Graphviz (apt-get install graphviz) or use --format dot");
  if (result->status != 0)
    throw Error(Exit::write_failed,
                "Graphviz's dot failed (exit " + std::to_string(result->status) +
                    "): " + first_line(result->err),
                "--format svg", "use --format dot and render it with your Graphviz");
  return result->out;
}

}  // namespace modrec

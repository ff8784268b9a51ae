// A model's forward signature as plain data (torch-free): what `summary` shows under the table and
// what the errors of --input NAME=FILE and --arg NAME=VALUE list. arguments/forward_schema.h fills
// it from the TorchScript schema.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace modrec {

struct Parameter {
  std::string name;
  std::string type;  // as Python annotates it: "Optional[Tensor]", "List[int]"
  std::optional<std::string> default_text;  // as Python writes it: "None", "1.0", "'mean'"
  bool takes_tensor = false;                // Tensor or Optional[Tensor]: given with --input
  bool takes_tensor_list = false;           // List[Tensor]: an --input file holding a list
};

struct Signature {
  std::vector<Parameter> params;  // forward's arguments, self left out

  // "forward(x: Tensor, size: List[int], mask: Optional[Tensor] = None)"
  std::string text() const;
  // The index of the argument named `name`, or -1.
  int find(const std::string& name) const;
};

// [{"name", "type", "default" (text, or null when required), "tensor"}]
nlohmann::json to_json(const Signature& signature);

}  // namespace modrec

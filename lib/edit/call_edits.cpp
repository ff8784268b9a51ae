#include "edit/call_edits.h"

#include <ATen/CPUGeneratorImpl.h>

#include "pass/value_meta.h"
#include "tensor_files/read_inputs.h"
#include "util/error.h"

namespace modrec {
namespace {

at::Tensor read_replacement(const EditSpec& spec) {
  auto tensors = read_inputs(spec.op.file);
  if (tensors.size() != 1)
    throw Error(Exit::bad_input, "expected one tensor", spec.op.file,
                "save the replacement with torch.save(t, FILE)");
  return tensors[0];
}

[[noreturn]] void cannot(const EditSpec& spec, const std::string& label, const std::string& why,
                         const std::string& todo) {
  throw Error(Exit::usage, "edit '" + spec.text + "' cannot apply to layer " + label + ": " + why,
              "--edit", todo);
}

std::string shape_of(const at::Tensor& t) { return c10::str(t.sizes()); }

}  // namespace

CallEdits::CallEdits(const EditOptions& options, const ModuleTree& tree)
    : tree_(tree), noise_(at::detail::createCPUGenerator(options.seed)) {
  for (const EditSpec& spec : options.specs) {
    at::Tensor replacement;
    if (spec.op.kind == EditKind::replace) replacement = read_replacement(spec);
    edits_.push_back({spec, spec.selectors, replacement});
  }
}

void CallEdits::on_call(int call, int module) {
  if (call == 0) {
    labeler_.emplace(tree_);
    calls_.clear();
    by_call_.clear();
  }
  const Module& m = tree_.modules[module];
  calls_.push_back({labeler_->add(module), m.path, m.type});
  std::vector<size_t> chosen;
  for (size_t i = 0; i < edits_.size(); ++i)
    if (edits_[i].matcher.matches(calls_.back())) chosen.push_back(i);
  by_call_.push_back(std::move(chosen));
}

c10::IValue CallEdits::apply(int call, const c10::IValue& output) {
  if (call >= static_cast<int>(by_call_.size()) || by_call_[call].empty()) return output;
  const std::string& label = calls_[call].label;
  c10::IValue out = output;
  for (size_t i : by_call_[call]) {
    const Edit& e = edits_[i];
    if (e.spec.op.kind == EditKind::replace && !output.isTensor())
      cannot(e.spec, label, "its output is not one tensor", "edit a layer that returns a tensor");
    out = map_tensors(
        out, [&](const at::Tensor& t) { return t.is_floating_point() ? edit(e, t, label) : t; });
  }
  return out;
}

at::Tensor CallEdits::edit(const Edit& e, const at::Tensor& t, const std::string& label) {
  const EditOp& op = e.spec.op;
  switch (op.kind) {
    case EditKind::zero:
      return t * 0;
    case EditKind::scale:
      return t * op.a;
    case EditKind::add:
      return t + op.a;
    case EditKind::clamp:
      return t.clamp(op.a, op.b);
    case EditKind::noise:
      return t +
             op.a * at::randn(t.sizes(), noise_, at::TensorOptions(t.scalar_type())).to(t.device());
    case EditKind::replace:
      if (!e.replacement.sizes().equals(t.sizes()) || e.replacement.dtype() != t.dtype())
        cannot(e.spec, label,
               "the replacement is " + shape_of(e.replacement) + " " +
                   std::string(e.replacement.dtype().name()) + ", the output " + shape_of(t) + " " +
                   std::string(t.dtype().name()),
               "save a replacement of the output's shape and dtype");
      return e.replacement.to(t.device());
    case EditKind::keep: {
      if (t.dim() < 2)
        cannot(e.spec, label, "its output has no dim 1", "keep channels of a 2-d or larger output");
      at::Tensor mask = at::zeros({t.size(1)}, t.options().requires_grad(false));
      for (int64_t c : op.channels) {
        if (c >= t.size(1))
          cannot(
              e.spec, label,
              "channel " + std::to_string(c) + " is past dim 1's size " + std::to_string(t.size(1)),
              "list channels below " + std::to_string(t.size(1)));
        mask[c] = 1;
      }
      std::vector<int64_t> shape(t.dim(), 1);
      shape[1] = t.size(1);
      return t * mask.view(shape);
    }
  }
  return t;
}

void CallEdits::check_all_matched() const {
  for (const Edit& e : edits_) {
    try {
      e.matcher.select(calls_);
    } catch (const Error& error) {
      throw Error(Exit::usage, "edit '" + e.spec.text + "': " + error.what(), "--edit",
                  error.hint());
    }
  }
}

}  // namespace modrec

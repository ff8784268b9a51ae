#include "diff/run_diff.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "check/report_table.h"
#include "util/text.h"
#include "diff/saved_tensor_diff.h"
#include "util/log.h"

namespace modrec {
namespace {

// B's tensor at A's tensor's place (by number in runs recorded without places).
const RunTensor* find_tensor(const RunCapture& c, const RunTensor& t) {
  for (const auto& u : c.tensors)
    if (t.at.empty() || u.at.empty() ? u.index == t.index : u.at == t.at) return &u;
  return nullptr;
}

// Differences that make values incomparable or that a tolerance cannot excuse.
std::string structural_problem(const RunLayer& la, const RunLayer& lb, const TensorDiff& d,
                               const RunningStats& a, const RunningStats& b) {
  if (la.ref.path != lb.ref.path)
    return "module path '" + la.ref.path + "' vs '" + lb.ref.path + "'";
  if (d.shape_a != d.shape_b)
    return "shape " + format_shape(d.shape_a) + " vs " + format_shape(d.shape_b);
  if (a.nan_count() != b.nan_count())
    return "nan_count " + std::to_string(a.nan_count()) + " vs " + std::to_string(b.nan_count());
  if (a.inf_count() != b.inf_count())
    return "inf_count " + std::to_string(a.inf_count()) + " vs " + std::to_string(b.inf_count());
  return "";
}

bool refused(const RunCapture& c, const std::string& at) {
  return std::any_of(c.no_gradient.begin(), c.no_gradient.end(),
                     [&](const NoGradient& g) { return g.at == at; });
}

// A gradient that run A (`in_a`) or B could not record: listed beside the other run's tensor at
// that place, not compared.
TensorDiff not_recorded(const RunLayer& la, const RunCapture& refusing, const NoGradient& g,
                        const RunCapture& other, bool in_a) {
  TensorDiff d{la.ref, refusing.name, -1, refusing.element(g), "-", {}, {}, std::nullopt, "", ""};
  d.not_recorded = std::string("no gradient in ") + (in_a ? "RUN_A" : "RUN_B") + ": " +
                   (g.through.empty() ? g.reason : "through " + join(g.through, ", "));
  for (const auto& t : other.tensors)
    if (t.at == g.at) {
      d.tensor = t.index;
      (in_a ? d.shape_b : d.shape_a) = t.shape;
    }
  return d;
}

void diff_capture(const RunLayer& la, const RunLayer& lb, const RunCapture& ca,
                  const RunCapture& cb, const Tolerance& tol, std::vector<TensorDiff>& out) {
  const bool saved = !ca.files.empty() && !cb.files.empty();
  std::vector<std::pair<const RunTensor*, const RunTensor*>> matched;
  std::vector<std::pair<size_t, size_t>> pairs;
  for (const RunTensor& ta : ca.tensors)
    if (const RunTensor* tb = find_tensor(cb, ta)) {
      matched.emplace_back(&ta, tb);
      pairs.emplace_back(ta.index, tb->index);
    }
  const auto saved_diffs = saved ? diff_saved_tensors(ca.files, cb.files, pairs, tol)
                                 : std::vector<std::optional<SavedTensorDiff>>{};
  for (size_t i = 0; i < matched.size(); ++i) {
    const auto [ta, tb] = matched[i];
    TensorDiff d{la.ref,
                 ca.name,
                 ta->index,
                 ca.element(*ta),
                 saved ? "tensors" : "stats",
                 ta->shape,
                 tb->shape,
                 std::nullopt,
                 "",
                 ""};
    if (saved && saved_diffs[i]) {
      d.shape_a = saved_diffs[i]->shape_a;
      d.shape_b = saved_diffs[i]->shape_b;
    }
    d.problem = structural_problem(la, lb, d, ta->stats, tb->stats);
    if (saved && saved_diffs[i])
      d.values = saved_diffs[i]->values;
    else if (saved)
      d.problem = d.element + " missing from the saved files";
    else if (d.shape_a == d.shape_b)
      d.values = compare_stats(ta->stats, tb->stats, tol);
    out.push_back(std::move(d));
  }
  for (const NoGradient& g : ca.no_gradient) out.push_back(not_recorded(la, ca, g, cb, true));
  for (const NoGradient& g : cb.no_gradient)
    if (!refused(ca, g.at)) out.push_back(not_recorded(la, cb, g, ca, false));
}

void diff_layer(const RunLayer& la, const RunLayer& lb, const Tolerance& tol, const RunScope& scope,
                std::vector<TensorDiff>& out) {
  for (const RunCapture& ca : la.captures) {
    if (!scope.wants(ca.name)) continue;
    const RunCapture* cb = lb.capture(ca.name);
    if (cb)
      diff_capture(la, lb, ca, *cb, tol, out);
    else
      log::warn(la.ref.label, " ", ca.name, " was recorded in the first run only");
  }
}

// Every label of either run, RUN_A's order first, for the selectors to choose from.
std::vector<LayerRef> union_refs(const RunDir& a, const RunDir& b) {
  std::vector<LayerRef> refs = a.refs();
  for (const auto& l : b.layers)
    if (!a.layer(l.ref.label)) refs.push_back(l.ref);
  return refs;
}

// A call's rank in the order calls returned; runs recorded without that order keep RUN_A's start
// order, which puts a container before what it holds.
int return_rank(const RunLayer& layer, size_t start_index) {
  return layer.returned >= 0 ? layer.returned : static_cast<int>(start_index);
}

bool diverges(const TensorDiff& d) { return d.capture == "output" && !d.passed(); }

std::optional<size_t> first_diverging(const std::vector<TensorDiff>& tensors, const RunDir& a) {
  std::optional<size_t> first;
  int first_rank = 0;
  for (size_t i = 0; i < tensors.size(); ++i) {
    if (!diverges(tensors[i])) continue;
    const RunLayer* layer = a.layer(tensors[i].layer.label);
    const int rank = return_rank(*layer, layer - a.layers.data());
    if (!first || rank < first_rank) {
      first = i;
      first_rank = rank;
    }
  }
  return first;
}

// The selected labels, in RUN_A's order of return when failing fast (labels of RUN_B only last).
std::vector<size_t> diff_order(const RunDir& a, const std::vector<LayerRef>& refs,
                               const RunScope& scope, bool fail_fast) {
  std::vector<size_t> order = scope.select(refs);
  if (!fail_fast) return order;
  auto rank = [&](size_t i) {
    const RunLayer* l = a.layer(refs[i].label);
    return l ? return_rank(*l, l - a.layers.data()) : std::numeric_limits<int>::max();
  };
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t x, size_t y) { return rank(x) < rank(y); });
  return order;
}

MemoryDiff diff_memory(const RunLayer& la, const RunLayer& lb, double rtol) {
  MemoryDiff d{la.ref, *la.memory, *lb.memory, {}};
  auto compare = [&](const char* figure, int64_t a, int64_t b) {
    if (std::abs(static_cast<double>(a - b)) > rtol * static_cast<double>(b))
      d.changed.push_back(figure);
  };
  compare("saved_bytes", d.a.saved_bytes, d.b.saved_bytes);
  compare("peak_forward_bytes", d.a.peak_forward_bytes, d.b.peak_forward_bytes);
  compare("peak_backward_bytes", d.a.peak_backward_bytes, d.b.peak_backward_bytes);
  return d;
}

}  // namespace

bool RunDiff::passed() const {
  return std::all_of(tensors.begin(), tensors.end(),
                     [](const TensorDiff& d) { return d.passed(); }) &&
         std::all_of(memory.begin(), memory.end(), [](const MemoryDiff& d) { return d.passed(); });
}

RunDiff diff_runs(const RunDir& a, const RunDir& b, const Tolerance& tol, const RunScope& scope,
                  bool fail_fast) {
  RunDiff diff;
  const auto refs = union_refs(a, b);
  for (size_t i : diff_order(a, refs, scope, fail_fast)) {
    const RunLayer* la = a.layer(refs[i].label);
    const RunLayer* lb = b.layer(refs[i].label);
    const size_t before = diff.tensors.size();
    if (la && lb) {
      diff_layer(*la, *lb, tol, scope, diff.tensors);
      if (la->memory && lb->memory) diff.memory.push_back(diff_memory(*la, *lb, tol.memory_rtol));
    } else
      (la ? diff.only_in_a : diff.only_in_b).push_back(refs[i]);
    if (fail_fast && std::any_of(diff.tensors.begin() + before, diff.tensors.end(), diverges))
      break;
  }
  diff.first_diverging = first_diverging(diff.tensors, a);
  return diff;
}

}  // namespace modrec

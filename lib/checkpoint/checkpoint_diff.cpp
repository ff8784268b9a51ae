#include "checkpoint/checkpoint_diff.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

#include "checkpoint/tensor_bytes.h"

namespace modrec {
namespace {
using nlohmann::json;
using Status = TensorChange::Status;

constexpr int64_t kPiece = int64_t{1} << 22;
constexpr size_t kBuffer = size_t{1} << 13;
constexpr double kInf = std::numeric_limits<double>::infinity();

// Sums over a piece of elements; pieces of a tensor add up in order.
struct Sums {
  double max_abs = 0, abs = 0, abs2 = 0, ab = 0, a2 = 0, b2 = 0;
  int64_t mismatched = 0;
  void add(const Sums& o) {
    max_abs = std::max(max_abs, o.max_abs), abs += o.abs, abs2 += o.abs2, ab += o.ab, a2 += o.a2,
    b2 += o.b2, mismatched += o.mismatched;
  }
};

// |x - y|, with equal values (inf == inf, NaN beside NaN) no error and NaN on one side an
// infinite one, as diff of recorded runs counts them (diff/value_diff.h).
double error(double x, double y) {
  const double d = std::abs(x - y);
  if (!std::isnan(d)) return d;
  return x == y || (std::isnan(x) && std::isnan(y)) ? 0 : kInf;
}

// Every element with its exact rules: NaN and infinities.
void accumulate_exact(const double* x, const double* y, size_t n, const CheckpointTolerance& tol,
                      Sums& s) {
  for (size_t i = 0; i < n; ++i) {
    const double d = error(x[i], y[i]);
    s.max_abs = std::max(s.max_abs, d);
    s.abs += d, s.abs2 += d * d, s.ab += x[i] * y[i], s.a2 += x[i] * x[i], s.b2 += y[i] * y[i];
    s.mismatched += d != 0 && !(d <= tol.atol + tol.rtol * std::abs(y[i]));
  }
}

// The same where no |a - b| is NaN (no NaN, no inf beside inf): a loop the compiler vectorizes,
// its sums reassociated (they differ from the sequential ones at rounding level). False, adding
// nothing, when one is NaN.
bool accumulate_finite(const double* x, const double* y, size_t n, const CheckpointTolerance& tol,
                       Sums& s) {
#if defined(__clang__)
#pragma clang fp reassociate(on)
#endif
  Sums t;
  bool nan = false;
  for (size_t i = 0; i < n; ++i) {
    const double d = std::abs(x[i] - y[i]);
    nan |= d != d;
    t.max_abs = d > t.max_abs ? d : t.max_abs;
    t.abs += d, t.abs2 += d * d, t.ab += x[i] * y[i], t.a2 += x[i] * x[i], t.b2 += y[i] * y[i];
    t.mismatched += d > tol.atol + tol.rtol * std::abs(y[i]);
  }
  if (nan) return false;
  s.add(t);
  return true;
}

void accumulate(const double* x, const double* y, size_t n, const CheckpointTolerance& tol,
                Sums& s) {
  if (!accumulate_finite(x, y, n, tol, s)) accumulate_exact(x, y, n, tol, s);
}

struct Pair {
  const CheckpointTensor *a, *b;
  size_t index_a, index_b;
  size_t change;  // index into CheckpointDiff::tensors
};

TensorChange change_of(const CheckpointTensor* a, const CheckpointTensor* b) {
  TensorChange c{a ? a->name : b->name};
  if (a) c.shape_a = a->shape, c.dtype_a = a->dtype;
  if (b) c.shape_b = b->shape, c.dtype_b = b->dtype;
  c.status = !b                     ? Status::only_in_a
             : !a                   ? Status::only_in_b
             : a->shape != b->shape ? Status::shape_changed
             : a->dtype != b->dtype ? Status::dtype_changed
                                    : Status::same;
  return c;
}

void finish(TensorChange& c, const Sums& s, int64_t n) {
  c.max_abs = s.max_abs;
  c.mean_abs = n ? s.abs / static_cast<double>(n) : 0;
  c.rel_change = s.abs2 == 0 ? 0 : std::sqrt(s.abs2) / std::sqrt(s.b2);
  c.cosine = s.ab / (std::sqrt(s.a2) * std::sqrt(s.b2));
  c.mismatched = s.mismatched;
  if (c.status == Status::same && s.mismatched) c.status = Status::differs;
}

// Failures (missing, shape, dtype, beyond tolerance) first, then the largest relative changes.
bool before(const TensorChange& x, const TensorChange& y) {
  if (x.passed() != y.passed()) return !x.passed();
  const double rx = std::isnan(x.rel_change) ? kInf : x.rel_change;
  const double ry = std::isnan(y.rel_change) ? kInf : y.rel_change;
  if (rx != ry) return rx > ry;
  return x.name < y.name;
}

const char* status_text(Status s) {
  switch (s) {
    case Status::same:
      return "same";
    case Status::differs:
      return "differs";
    case Status::only_in_a:
      return "only in A";
    case Status::only_in_b:
      return "only in B";
    case Status::shape_changed:
      return "shape changed";
    case Status::dtype_changed:
      return "dtype changed";
  }
  return "";
}

std::string name_of(const std::optional<DType>& type) { return type ? dtype_name(*type) : ""; }

std::string both(const std::string& a, const std::string& b) {
  if (a == b || b.empty()) return a;
  return a.empty() ? b : a + " -> " + b;
}

ReportTable table(const CheckpointDiff& diff) {
  ReportTable t{{"tensor", "status", "shape", "dtype", "max_abs", "mean_abs", "rel_change",
                 "cosine", "mismatched"},
                {}};
  auto shape = [](const std::vector<int64_t>& s, bool present) {
    return present ? format_shape(s) : std::string();
  };
  for (const TensorChange& c : diff.tensors) {
    const bool has_a = c.status != Status::only_in_b, has_b = c.status != Status::only_in_a;
    auto number = [&](double v) { return c.compared() ? format_number(v) : std::string("--"); };
    t.rows.push_back({c.name, status_text(c.status),
                      both(shape(c.shape_a, has_a), shape(c.shape_b, has_b)),
                      both(name_of(c.dtype_a), name_of(c.dtype_b)), number(c.max_abs),
                      number(c.mean_abs), number(c.rel_change), number(c.cosine),
                      c.compared() ? std::to_string(c.mismatched) : "--"});
  }
  return t;
}

std::string verdict(const CheckpointDiff& diff, const std::string& a, const std::string& b) {
  size_t failed = 0;
  for (const TensorChange& c : diff.tensors) failed += !c.passed();
  const std::string scope = std::to_string(diff.tensors.size()) + " tensors of " + a + " and " + b +
                            " (" + std::to_string(diff.compared) + " compared; the files hold " +
                            std::to_string(diff.held_a) + " and " + std::to_string(diff.held_b) +
                            ")";
  if (!failed) return "diff passed: no tensor differs beyond tolerance in " + scope;
  return "diff failed: " + std::to_string(failed) +
         (failed == 1 ? " tensor differs" : " tensors differ") + " in " + scope;
}

json number_or_null(double v) { return std::isnan(v) ? json(nullptr) : json(v); }

json to_json(const CheckpointDiff& diff, const std::string& a, const std::string& b,
             const CheckpointTolerance& tol) {
  json tensors = json::array();
  for (const TensorChange& c : diff.tensors)
    tensors.push_back({{"name", c.name},
                       {"status", status_text(c.status)},
                       {"passed", c.passed()},
                       {"shape_a", c.status == Status::only_in_b ? json(nullptr) : json(c.shape_a)},
                       {"shape_b", c.status == Status::only_in_a ? json(nullptr) : json(c.shape_b)},
                       {"dtype_a", c.dtype_a ? json(dtype_name(*c.dtype_a)) : json(nullptr)},
                       {"dtype_b", c.dtype_b ? json(dtype_name(*c.dtype_b)) : json(nullptr)},
                       {"max_abs", number_or_null(c.max_abs)},
                       {"mean_abs", number_or_null(c.mean_abs)},
                       {"rel_change", number_or_null(c.rel_change)},
                       {"cosine", number_or_null(c.cosine)},
                       {"mismatched", c.mismatched}});
  return {{"a", a},
          {"b", b},
          {"atol", tol.atol},
          {"rtol", tol.rtol},
          {"passed", diff.passed()},
          {"compared", diff.compared},
          {"held_a", diff.held_a},
          {"held_b", diff.held_b},
          {"tensors", tensors}};
}

}  // namespace

bool CheckpointDiff::passed() const {
  return std::all_of(tensors.begin(), tensors.end(), [](const auto& c) { return c.passed(); });
}

CheckpointDiff diff_checkpoints(const Checkpoint& a, const Checkpoint& b,
                                const CheckpointTolerance& tol, int threads) {
  std::map<std::string, size_t> in_b;
  for (size_t i = 0; i < b.tensors.size(); ++i) in_b.emplace(b.tensors[i].name, i);
  CheckpointDiff diff;
  diff.held_a = a.held, diff.held_b = b.held;
  std::vector<Pair> pairs;
  for (size_t i = 0; i < a.tensors.size(); ++i) {
    const auto it = in_b.find(a.tensors[i].name);
    const CheckpointTensor* other = it == in_b.end() ? nullptr : &b.tensors[it->second];
    diff.tensors.push_back(change_of(&a.tensors[i], other));
    if (other && other->shape == a.tensors[i].shape)
      pairs.push_back({&a.tensors[i], other, i, it->second, diff.tensors.size() - 1});
    if (other) in_b.erase(it);
  }
  for (const auto& [name, i] : in_b) diff.tensors.push_back(change_of(nullptr, &b.tensors[i]));

  const TensorBytes bytes_a(a), bytes_b(b);
  std::vector<int64_t> numels;
  for (const Pair& p : pairs) numels.push_back(p.a->numel());
  const std::vector<Piece> pieces = cut_into_pieces(numels, kPiece);
  std::vector<Sums> partial(pieces.size());
  for_each_piece(pieces.size(), threads, [&](size_t k) {
    const Piece& piece = pieces[k];
    const Pair& p = pairs[piece.tensor];
    const size_t ea = static_cast<size_t>(dtype_bytes(p.a->dtype)),
                 eb = static_cast<size_t>(dtype_bytes(p.b->dtype));
    const unsigned char* da = bytes_a.data(p.index_a) + piece.begin * ea;
    const unsigned char* db = bytes_b.data(p.index_b) + piece.begin * eb;
    std::vector<double> x(kBuffer), y(kBuffer);
    for (size_t at = 0; at < static_cast<size_t>(piece.count); at += kBuffer) {
      const size_t n = std::min(kBuffer, static_cast<size_t>(piece.count) - at);
      widen(p.a->dtype, da + at * ea, n, x.data());
      widen(p.b->dtype, db + at * eb, n, y.data());
      accumulate(x.data(), y.data(), n, tol, partial[k]);
    }
    bytes_a.release(p.index_a, piece.begin * ea, piece.count * ea);
    bytes_b.release(p.index_b, piece.begin * eb, piece.count * eb);
  });
  std::vector<Sums> sums(pairs.size());
  for (size_t k = 0; k < pieces.size(); ++k) sums[pieces[k].tensor].add(partial[k]);
  for (size_t i = 0; i < pairs.size(); ++i)
    finish(diff.tensors[pairs[i].change], sums[i], numels[i]);
  diff.compared = pairs.size();
  std::stable_sort(diff.tensors.begin(), diff.tensors.end(), before);
  return diff;
}

std::string format_checkpoint_diff(const CheckpointDiff& diff, const std::string& a,
                                   const std::string& b, const CheckpointTolerance& tol,
                                   ReportFormat format) {
  switch (format) {
    case ReportFormat::table:
      return verdict(diff, a, b) + "\n" + format_text(table(diff));
    case ReportFormat::markdown:
      return "### modrec " + verdict(diff, a, b) + "\n\n" + format_markdown(table(diff));
    case ReportFormat::json:
      break;
  }
  return to_json(diff, a, b, tol).dump(2) + "\n";
}

}  // namespace modrec

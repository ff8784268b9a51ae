#include "tensor_files/npy.h"

#include <algorithm>
#include <cstring>
#include <string_view>

#include "files/scalar_type.h"
#include "util/error.h"

namespace modrec {

namespace {

const char kMagic[] = "\x93NUMPY";
constexpr size_t kMagicSize = 6;

const std::pair<const char*, at::ScalarType> kDescr[] = {
    {"f2", at::kHalf},           {"f4", at::kFloat}, {"f8", at::kDouble}, {"c8", at::kComplexFloat},
    {"c16", at::kComplexDouble}, {"i1", at::kChar},  {"i2", at::kShort},  {"i4", at::kInt},
    {"i8", at::kLong},           {"u1", at::kByte},  {"b1", at::kBool},
};

Error bad_npy(const std::string& path, const std::string& what,
              const std::string& hint = "save it with numpy.save, or the tensor with torch.save") {
  return Error(Exit::bad_input, "input file " + what, path, hint);
}

// The text after "'key':" in the header dict, trimmed, up to the end of its value: a (tuple) or
// 'string' with its closing character, anything else up to the next ',' or '}'.
std::string dict_value(const std::string& header, const std::string& key, const std::string& path) {
  size_t at = header.find("'" + key + "'");
  if (at == std::string::npos) throw bad_npy(path, "has a .npy header without '" + key + "'");
  size_t colon = header.find(':', at);
  at = colon == std::string::npos ? colon : header.find_first_not_of(' ', colon + 1);
  if (at == std::string::npos)
    throw bad_npy(path, "has a .npy header without a value for '" + key + "'");
  char open = header[at];
  bool closed = open == '(' || open == '\'';
  size_t end = open == '('    ? header.find(')', at)
               : open == '\'' ? header.find('\'', at + 1)
                              : header.find_first_of(",}", at + 1);
  if (end == std::string::npos)
    throw bad_npy(path, "has a .npy header with an unterminated '" + key + "'");
  return header.substr(at, end - at + (closed ? 1 : 0));
}

std::vector<int64_t> parse_shape(const std::string& text, const std::string& path) {
  if (text[0] != '(') throw bad_npy(path, "has a bad .npy shape " + text);
  std::vector<int64_t> shape;
  std::string digits;
  for (char c : text.substr(1)) {
    if (std::isdigit(static_cast<unsigned char>(c))) {
      digits += c;
      if (digits.size() > 18) throw bad_npy(path, "has a bad .npy shape " + text);  // past int64
    } else if (!digits.empty()) {
      shape.push_back(std::stoll(digits));
      digits.clear();
    } else if (c != ' ' && c != ',' && c != ')' && c != 'L') {
      throw bad_npy(path, "has a bad .npy shape " + text);
    }
  }
  return shape;
}

at::ScalarType parse_descr(const std::string& descr, bool& swap, const std::string& path) {
  // descr is quoted: '<f4'; '|' means byte order does not apply, '>' is big-endian.
  std::string d = descr.size() > 2 ? descr.substr(1, descr.size() - 2) : descr;
  swap = !d.empty() && d[0] == '>';
  std::string code = !d.empty() && std::strchr("<>|=", d[0]) ? d.substr(1) : d;
  for (const auto& [name, type] : kDescr)
    if (code == name) return type;
  throw bad_npy(path, "is a .npy array of dtype " + descr + ", which modrec does not read",
                "convert it first, e.g. numpy.save(path, a.astype(numpy.float32))");
}

// The size of the data the header describes, checked against the `available` bytes before any
// allocation: a few header bytes can claim terabytes, or a numel that overflows int64.
size_t data_size(const std::vector<int64_t>& shape, size_t item, size_t available,
                 const std::string& path) {
  if (std::find(shape.begin(), shape.end(), 0) != shape.end()) return 0;
  size_t size = item;
  for (int64_t dim : shape) {
    if (size > available / static_cast<size_t>(dim))
      throw bad_npy(path, "is a truncated .npy file");
    size *= static_cast<size_t>(dim);
  }
  return size;
}

}  // namespace

NpyLayout parse_npy_header(std::string_view bytes, const std::string& path) {
  if (bytes.size() < 10 || bytes.compare(0, kMagicSize, kMagic) != 0)
    throw bad_npy(path, "is not a .npy file");
  int major = static_cast<unsigned char>(bytes[6]);
  size_t len_size = major == 1 ? 2 : 4;
  if (major < 1 || major > 3 || bytes.size() < 8 + len_size)
    throw bad_npy(path, "has an unknown .npy version");
  size_t header_len = 0;
  for (size_t i = len_size; i-- > 0;)
    header_len = header_len << 8 | static_cast<unsigned char>(bytes[8 + i]);
  NpyLayout layout;
  layout.data_at = 8 + len_size + header_len;
  if (layout.data_at > bytes.size()) throw bad_npy(path, "is a truncated .npy file");
  std::string header(bytes.substr(8 + len_size, header_len));
  layout.type = parse_descr(dict_value(header, "descr", path), layout.swap, path);
  layout.fortran = dict_value(header, "fortran_order", path) == "True";
  layout.shape = parse_shape(dict_value(header, "shape", path), path);
  if (layout.fortran) std::reverse(layout.shape.begin(), layout.shape.end());
  return layout;
}

size_t npy_data_size(const NpyLayout& layout, size_t available, const std::string& path) {
  return data_size(layout.shape, c10::elementSize(layout.type), available, path);
}

void npy_swap_bytes(at::Tensor& t) {
  size_t item = t.element_size(), count = static_cast<size_t>(t.numel());
  if (t.is_complex()) item /= 2, count *= 2;  // each half of a complex value is swapped on its own
  auto p = static_cast<char*>(t.data_ptr());
  for (size_t i = 0; i < count; ++i) std::reverse(p + i * item, p + (i + 1) * item);
}

at::Tensor parse_npy(const std::string& bytes, const std::string& path) {
  const NpyLayout layout = parse_npy_header(bytes, path);
  size_t nbytes = npy_data_size(layout, bytes.size() - layout.data_at, path);
  at::Tensor t = at::empty(layout.shape, at::TensorOptions().dtype(layout.type));
  if (nbytes > 0) std::memcpy(t.data_ptr(), bytes.data() + layout.data_at, nbytes);
  if (layout.swap) npy_swap_bytes(t);
  if (layout.fortran) {  // Fortran order is C order of the reversed shape, transposed back
    std::vector<int64_t> dims(layout.shape.size());
    for (size_t i = 0; i < dims.size(); ++i) dims[i] = static_cast<int64_t>(dims.size() - 1 - i);
    t = t.permute(dims).contiguous();
  }
  return t;
}

namespace {

std::string descr_of(at::ScalarType type, const std::string& path) {
  if (type == at::kBFloat16) type = at::kFloat;
  for (const auto& [name, t] : kDescr)
    if (t == type)
      return (std::strchr("iub", name[0]) && name[1] == '1' ? "|" : "<") + std::string(name);
  throw Error(Exit::write_failed, "cannot write a " + dtype_name(type) + " tensor as .npy", path,
              "use --save pt");
}

std::string shape_text(at::IntArrayRef sizes) {
  std::string s = "(";
  for (size_t i = 0; i < sizes.size(); ++i) s += (i ? ", " : "") + std::to_string(sizes[i]);
  return s + (sizes.size() == 1 ? ",)" : ")");
}

}  // namespace

std::string npy_header(at::ScalarType type, at::IntArrayRef shape, const std::string& path,
                       size_t min_length) {
  std::string dict = "{'descr': '" + descr_of(type, path) +
                     "', 'fortran_order': False, 'shape': " + shape_text(shape) + ", }";
  // numpy pads the header with spaces and a newline so that the data starts 64-byte aligned.
  bool v2 = dict.size() + 64 > 0xFFFF;  // version 2 only widens the header length to 4 bytes
  size_t prefix = kMagicSize + 2 + (v2 ? 4 : 2);
  size_t total = std::max(prefix + dict.size() + 1, min_length);
  dict += std::string((64 - total % 64) % 64 + (total - prefix - dict.size() - 1), ' ') + "\n";
  std::string out(kMagic, kMagicSize);
  out += v2 ? std::string("\x02\x00", 2) : std::string("\x01\x00", 2);
  for (size_t i = 0; i < (v2 ? 4u : 2u); ++i)
    out += static_cast<char>((dict.size() >> (8 * i)) & 0xFF);
  return out + dict;
}

at::Tensor npy_storable(const at::Tensor& tensor) {
  at::Tensor t = tensor.detach().to(at::kCPU);
  if (t.scalar_type() == at::kBFloat16) t = t.to(at::kFloat);
  return t.contiguous();
}

std::string npy_bytes(const at::Tensor& tensor, const std::string& path) {
  std::string out = npy_header(tensor.scalar_type(), tensor.sizes(), path);
  at::Tensor t = npy_storable(tensor);
  if (t.numel() > 0)
    out.append(static_cast<const char*>(t.data_ptr()),
               static_cast<size_t>(t.numel()) * t.element_size());
  return out;
}

}  // namespace modrec

#include "tensorboard/event_proto.h"

#include <cstring>

#include "tensorboard/crc32c.h"

namespace modrec {
namespace {

// Wire types: 0 varint, 1 64-bit, 2 length-delimited, 5 32-bit.
void varint(std::string& out, uint64_t v) {
  while (v >= 0x80) {
    out += static_cast<char>((v & 0x7F) | 0x80);
    v >>= 7;
  }
  out += static_cast<char>(v);
}

void key(std::string& out, int field, int wire_type) {
  varint(out, static_cast<uint64_t>(field) << 3 | static_cast<uint64_t>(wire_type));
}

template <class T>
void little_endian(std::string& out, T value) {  // x86-64 and aarch64 Linux are little-endian
  char bytes[sizeof(T)];
  std::memcpy(bytes, &value, sizeof(T));
  out.append(bytes, sizeof(T));
}

void double_field(std::string& out, int field, double v) {
  key(out, field, 1);
  little_endian(out, v);
}

void bytes_field(std::string& out, int field, const std::string& bytes) {
  key(out, field, 2);
  varint(out, bytes.size());
  out += bytes;
}

void packed_doubles(std::string& out, int field, const std::vector<double>& values) {
  std::string packed;
  for (double v : values) little_endian(packed, v);
  bytes_field(out, field, packed);
}

std::string event(double wall_time, int64_t step, const std::string& summary_value) {
  std::string summary, out;
  bytes_field(summary, 1, summary_value);  // Summary.value
  double_field(out, 1, wall_time);
  key(out, 2, 0);
  varint(out, static_cast<uint64_t>(step));
  bytes_field(out, 5, summary);  // Event.summary
  return out;
}

}  // namespace

std::string file_version_event(double wall_time) {
  std::string out;
  double_field(out, 1, wall_time);
  bytes_field(out, 3, "brain.Event:2");
  return out;
}

std::string scalar_event(double wall_time, int64_t step, const std::string& tag, float value) {
  std::string v;
  bytes_field(v, 1, tag);
  key(v, 2, 5);
  little_endian(v, value);
  return event(wall_time, step, v);
}

std::string histogram_event(double wall_time, int64_t step, const std::string& tag,
                            const HistogramValue& h) {
  std::string histo, v;
  double_field(histo, 1, h.min);
  double_field(histo, 2, h.max);
  double_field(histo, 3, h.num);
  double_field(histo, 4, h.sum);
  double_field(histo, 5, h.sum_squares);
  packed_doubles(histo, 6, h.bucket_limit);
  packed_doubles(histo, 7, h.bucket);
  bytes_field(v, 1, tag);
  bytes_field(v, 5, histo);
  return event(wall_time, step, v);
}

std::string tfrecord(const std::string& record) {
  std::string out;
  little_endian(out, static_cast<uint64_t>(record.size()));
  little_endian(out, masked_crc32c(out));
  out += record;
  little_endian(out, masked_crc32c(record));
  return out;
}

}  // namespace modrec

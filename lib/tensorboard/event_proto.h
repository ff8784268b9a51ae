// TensorBoard's Event messages in protobuf's wire format (torch-free): a scalar, a histogram, the
// file-version header. Five messages' worth of fields (event.proto, summary.proto and
// histogram.proto in TensorBoard; field numbers checked by tests/test_tensorboard.py through
// TensorBoard's own reader), encoded here rather than through protobuf's runtime: the wheel would
// carry a second protobuf beside the one LibTorch links, for four message types.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace modrec {

// HistogramProto: bucket i counts the values up to bucket_limit[i] (above the previous limit).
struct HistogramValue {
  double min = 0, max = 0, num = 0, sum = 0, sum_squares = 0;
  std::vector<double> bucket_limit, bucket;
};

// An Event holding only file_version: the first record of every event file.
std::string file_version_event(double wall_time);
// An Event at `step` whose Summary holds one value: simple_value, or histo.
std::string scalar_event(double wall_time, int64_t step, const std::string& tag, float value);
std::string histogram_event(double wall_time, int64_t step, const std::string& tag,
                            const HistogramValue& histogram);

// TFRecord's framing of one record: its length (uint64), the masked CRC-32C of those 8 bytes, the
// record, the masked CRC-32C of the record; little-endian.
std::string tfrecord(const std::string& record);

}  // namespace modrec

#include "rundir/saved_tensors.h"

namespace modrec {

const EnumNames<SaveFormat>& save_format_names() {
  static const EnumNames<SaveFormat> names{
      {"pt", SaveFormat::pt}, {"npy", SaveFormat::npy}, {"none", SaveFormat::none}};
  return names;
}

const EnumNames<Reduce>& reduce_names() {
  static const EnumNames<Reduce> names{
      {"none", Reduce::none}, {"sum", Reduce::sum}, {"mean", Reduce::mean}};
  return names;
}

}  // namespace modrec

// The translation unit that precompiles LibTorch's headers once for the whole build
// (lib/CMakeLists.txt, modrec_torch_pch): it has no code of its own.

# modrec_torch: what modrec's torch stages compile and link against, from the LibTorch that
# find_package(Torch) found (the pinned wheel's, via torch.utils.cmake_prefix_path).
#
# Torch's own TORCH_LIBRARIES also links the system CUDA toolkit's cudart and nvrtc into every
# binary (a second cudart beside the wheel's, and a start-up dependency on the toolkit). modrec
# calls no CUDA API itself: it links LibTorch's libraries only, and they find their CUDA libraries
# through their own RPATH, in the wheel.
add_library(modrec_torch INTERFACE)
target_include_directories(modrec_torch SYSTEM INTERFACE ${TORCH_INCLUDE_DIRS})
target_compile_options(modrec_torch INTERFACE ${TORCH_CXX_FLAGS})
get_target_property(torch_definitions torch INTERFACE_COMPILE_DEFINITIONS)
if(torch_definitions)
  target_compile_definitions(modrec_torch INTERFACE ${torch_definitions})
endif()
set(torch_lib_dir ${TORCH_INSTALL_PREFIX}/lib)
target_link_libraries(modrec_torch INTERFACE
  ${torch_lib_dir}/libtorch.so ${torch_lib_dir}/libtorch_cpu.so ${torch_lib_dir}/libc10.so)
if(EXISTS ${torch_lib_dir}/libtorch_cuda.so)
  # Nothing in modrec refers to these, but loading them registers the CUDA backend (--device cuda);
  # on a machine without a GPU or driver they load and report no device.
  target_link_libraries(modrec_torch INTERFACE
    "-Wl,--no-as-needed,${torch_lib_dir}/libtorch_cuda.so,${torch_lib_dir}/libc10_cuda.so,--as-needed")
  # The link resolves libtorch_cuda's own dependencies (NCCL, cuDNN, ...) from the wheel, as the
  # loader will, not from the toolkit's older copies that ld would otherwise find first.
  file(GLOB wheel_cuda_dirs ${TORCH_INSTALL_PREFIX}/../nvidia/*/lib)
  list(JOIN wheel_cuda_dirs ":" wheel_cuda_path)
  if(wheel_cuda_path)
    target_link_options(modrec_torch INTERFACE "LINKER:-rpath-link,${wheel_cuda_path}")
  endif()
endif()

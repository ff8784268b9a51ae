# modrec_torch: what modrec's torch stages compile and link against, from the LibTorch that
# cmake/ModrecFindTorch.cmake found.
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
set(MODREC_TORCH_LIB_DIR ${TORCH_INSTALL_PREFIX}/lib)
# libtorch.so is linked even though nothing refers to it (--no-as-needed): in a CUDA build of
# torch it is what depends on libtorch_cuda, whose loading registers the CUDA backend
# (--device cuda); in a CPU-only build it depends on libtorch_cpu alone. So one binary runs on
# either, and on a machine without a GPU or driver the CUDA libraries load and report no device.
target_link_libraries(modrec_torch INTERFACE
  "-Wl,--no-as-needed,${MODREC_TORCH_LIB_DIR}/libtorch.so,--as-needed"
  ${MODREC_TORCH_LIB_DIR}/libtorch_cpu.so ${MODREC_TORCH_LIB_DIR}/libc10.so)
# The link resolves libtorch_cuda's own dependencies (NCCL, cuDNN, ...) from the wheel, as the
# loader will, not from the toolkit's older copies that ld would otherwise find first.
file(GLOB wheel_cuda_dirs ${TORCH_INSTALL_PREFIX}/../nvidia/*/lib)
list(JOIN wheel_cuda_dirs ":" wheel_cuda_path)
if(wheel_cuda_path)
  target_link_options(modrec_torch INTERFACE "LINKER:-rpath-link,${wheel_cuda_path}")
endif()

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
# Only libtorch_cpu and libc10 are linked: libtorch.so, which in a CUDA build of torch depends on
# libtorch_cuda and its CUDA libraries, is loaded at run time for --device cuda, --version and
# operator libraries (load/operator_libraries.h). Loading it at start cost every command a third of a second and
# 400 MB of resident memory. So one binary runs on a CPU-only or a CUDA build of torch.
target_link_libraries(modrec_torch INTERFACE
  ${MODREC_TORCH_LIB_DIR}/libtorch_cpu.so ${MODREC_TORCH_LIB_DIR}/libc10.so)

# The ExecuTorch shim (lib/instrument/executorch/executorch_shim.cpp): a library beside the modrec
# binary that runs .pte programs through the executorch wheel's own C++ runtime, loaded with dlopen
# only when a .pte is given (executorch_program.cpp). Built only where the wheel is installed in
# MODREC_PYTHON's environment: its headers, its libraries and share/cmake's variables (CMake before
# 3.28 gets no imported targets from it). modrec itself never links ExecuTorch.
execute_process(
  COMMAND ${MODREC_PYTHON} -c [=[
import importlib.util
spec = importlib.util.find_spec("executorch")  # located, not imported (imports take ~20 s)
print(list(spec.submodule_search_locations)[0] if spec and spec.submodule_search_locations else "")
]=]
  OUTPUT_VARIABLE MODREC_EXECUTORCH_ROOT OUTPUT_STRIP_TRAILING_WHITESPACE)
if(MODREC_EXECUTORCH_ROOT)
  find_package(executorch CONFIG QUIET PATHS ${MODREC_EXECUTORCH_ROOT}/share/cmake NO_DEFAULT_PATH)
endif()
if(NOT EXECUTORCH_FOUND OR NOT EXISTS ${MODREC_EXECUTORCH_ROOT}/lib/libexecutorch.so)
  message(STATUS "modrec: no executorch wheel in ${MODREC_PYTHON}'s environment: .pte files are "
    "refused (pip install executorch there and configure again to run them)")
  return()
endif()
message(STATUS "modrec: ExecuTorch ${EXECUTORCH_BUILD_VERSION} at ${MODREC_EXECUTORCH_ROOT}")
add_library(modrec_executorch MODULE
  ${PROJECT_SOURCE_DIR}/lib/instrument/executorch/executorch_shim.cpp)
target_include_directories(modrec_executorch PRIVATE ${PROJECT_SOURCE_DIR}/lib)
target_include_directories(modrec_executorch SYSTEM PRIVATE ${EXECUTORCH_INCLUDE_DIRS})
target_compile_definitions(modrec_executorch PRIVATE ${EXECUTORCH_COMPILE_DEFINITIONS})
# The runtime, then the libraries that register what a program calls: the CPU kernels and the
# XNNPACK delegate (registration only: kept despite --as-needed). Not the quantized kernels: the
# wheel's own notes say they clash with its Python plugin's copy.
set(et_lib ${MODREC_EXECUTORCH_ROOT}/lib)
target_link_libraries(modrec_executorch PRIVATE ${et_lib}/libexecutorch.so
  "-Wl,--push-state,--no-as-needed,${et_lib}/libexecutorch_threadpool.so,${et_lib}/libexecutorch_kernels_optimized.so,${et_lib}/libexecutorch_backend_xnnpack.so,--pop-state")
set_target_properties(modrec_executorch PROPERTIES
  PREFIX lib LIBRARY_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}
  CXX_VISIBILITY_PRESET hidden VISIBILITY_INLINES_HIDDEN ON)

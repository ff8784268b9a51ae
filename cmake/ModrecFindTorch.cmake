# Finds the LibTorch that modrec builds against: the one inside the torch package of a Python
# environment (the pinned one that scripts/setup.sh makes, or the environment `pip install .` runs
# in), through torch.utils.cmake_prefix_path. That Python is also the tests' oracle (MODREC_PYTHON).
#
# Stops with one line when that Python has no torch, when its torch has no C++ headers, or when
# its version is one modrec cannot build against. Sets MODREC_PYTHON and MODREC_TORCH_VERSION
# ("A.B.C", without the local part such as +cu130).

# The torch releases modrec builds against: from MIN (older ones lack the APIs it uses) to
# TESTED, the newest built and tested (docs/development.md, "LibTorch versions"); a newer one gets a warning.
set(MODREC_TORCH_MIN 2.11)
set(MODREC_TORCH_TESTED 2.15)

set(MODREC_PYTHON "" CACHE FILEPATH "Python whose torch modrec builds against; the tests' oracle")
if(DEFINED SKBUILD AND Python_EXECUTABLE)  # pip install: always the Python that runs the build
  set(MODREC_PYTHON ${Python_EXECUTABLE} CACHE FILEPATH "" FORCE)
elseif(NOT MODREC_PYTHON)
  find_package(Python3 REQUIRED COMPONENTS Interpreter)
  set(MODREC_PYTHON ${Python3_EXECUTABLE})
endif()

# torch is located, not imported: importing it takes seconds and fails on a broken CUDA setup
# that the build does not care about.
execute_process(
  COMMAND ${MODREC_PYTHON} -c [=[
import importlib.metadata as m, importlib.util as u
s = u.find_spec("torch")
print(s.submodule_search_locations[0] + ";" + m.version("torch").split("+")[0])
]=]
  OUTPUT_VARIABLE torch_found OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET
  RESULT_VARIABLE torch_missing)
if(torch_missing)
  message(FATAL_ERROR "modrec: torch is not installed in ${MODREC_PYTHON}: install it there "
    "(pip install 'torch>=${MODREC_TORCH_MIN}'), or point -DMODREC_PYTHON at a Python that has it")
endif()
list(GET torch_found 0 torch_package)
list(GET torch_found 1 MODREC_TORCH_VERSION)
if(NOT EXISTS ${torch_package}/include/torch/script.h
   OR NOT EXISTS ${torch_package}/share/cmake/Torch/TorchConfig.cmake)
  message(FATAL_ERROR "modrec: the torch in ${torch_package} has no C++ headers or CMake files: "
    "install the torch wheel from PyPI (pip install --force-reinstall torch), which carries them")
endif()
if(MODREC_TORCH_VERSION VERSION_LESS MODREC_TORCH_MIN)
  message(FATAL_ERROR "modrec: torch ${MODREC_TORCH_VERSION} (${MODREC_PYTHON}) is too old: modrec "
    "builds against torch ${MODREC_TORCH_MIN} to ${MODREC_TORCH_TESTED}")
endif()
string(REGEX MATCH "^[0-9]+\\.[0-9]+" torch_minor ${MODREC_TORCH_VERSION})
if(torch_minor VERSION_GREATER MODREC_TORCH_TESTED)
  message(WARNING "modrec: torch ${MODREC_TORCH_VERSION} is newer than the newest tested "
    "(${MODREC_TORCH_TESTED}): build and run the tests before relying on it")
endif()

# A build folder configured again against another torch (pip builds from two environments share
# build-wheel/) forgets every cached path into the previous one (Torch_DIR, Caffe2_DIR, the
# libraries TorchConfig found), so that nothing of the two mixes.
if(MODREC_TORCH_PACKAGE AND NOT MODREC_TORCH_PACKAGE STREQUAL torch_package)
  get_cmake_property(cached CACHE_VARIABLES)
  foreach(var IN LISTS cached)
    string(FIND "${${var}}" "${MODREC_TORCH_PACKAGE}" at)
    if(at EQUAL 0)
      unset(${var} CACHE)
    endif()
  endforeach()
endif()
set(MODREC_TORCH_PACKAGE ${torch_package} CACHE INTERNAL "the torch package built against")

set(Torch_DIR ${torch_package}/share/cmake/Torch CACHE PATH "" FORCE)
find_package(Torch REQUIRED)
message(STATUS "modrec builds against torch ${MODREC_TORCH_VERSION} in ${torch_package}")

# modrec_torch_pch(TARGET): TARGET's translation units that include LibTorch (directly or through
# modrec's own headers) use LibTorch's headers precompiled once for the whole build.
#
# Why: those headers are parsed in every such translation unit, the larger part of its compile
# time (docs/development.md). The precompiled header is built once (modrec_torch_pch) and loaded by
# each; a unit that does not include LibTorch is left without it, since loading it (hundreds of MB
# with debug info) costs more than it saves there.
# GCC uses it only where the flags match those it was built with, so the torch stages must add
# none (-Winvalid-pch, which CMake adds, warns where they do). MODREC_PCH=OFF builds without.
option(MODREC_PCH "Precompile LibTorch's headers once for the torch stages" ON)

# modrec_portable_pch(TARGET): TARGET's precompiled header may come from another build folder
# through ccache (build-wheel/ beside build/, another clone or worktree: CMakeLists.txt, ccache).
# Clang writes no modification times of its inputs into it (-fno-pch-timestamp: with them ccache
# does not reuse a header made at another time), and the inputs' contents go into it
# (-fmodules-embed-all-files): a header made in a worktree since deleted would otherwise name a
# cmake_pch.hxx that no longer exists, and fail to load.
function(modrec_portable_pch target)
  if(CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    target_compile_options(${target} PRIVATE "SHELL:-Xclang -fno-pch-timestamp"
                                             "SHELL:-Xclang -fmodules-embed-all-files")
  endif()
endfunction()

if(MODREC_PCH)
  add_library(modrec_torch_pch OBJECT ${CMAKE_CURRENT_LIST_DIR}/torch_pch.cpp)
  target_link_libraries(modrec_torch_pch PRIVATE modrec_torch nlohmann_json::nlohmann_json)
  target_precompile_headers(modrec_torch_pch PRIVATE <torch/script.h>)
  modrec_portable_pch(modrec_torch_pch)
endif()

# Whether FILE includes a LibTorch header, itself or through the headers it includes that lie
# under ROOT (modrec's own: "stage/name.h"). Answers are kept per file for the whole configure.
function(modrec_includes_torch file root result)
  get_property(known GLOBAL PROPERTY "modrec_torch_${file}" SET)
  if(known)
    get_property(answer GLOBAL PROPERTY "modrec_torch_${file}")
    set(${result} ${answer} PARENT_SCOPE)
    return()
  endif()
  set_property(GLOBAL PROPERTY "modrec_torch_${file}" OFF)  # an include cycle ends here
  file(STRINGS ${file} includes REGEX "^#include [<\"]")
  set(answer OFF)
  foreach(line IN LISTS includes)
    if(line MATCHES "^#include <(torch|ATen|c10|caffe2)/")
      set(answer ON)
      break()
    elseif(line MATCHES "^#include \"([^\"]+)\"" AND EXISTS ${root}/${CMAKE_MATCH_1})
      modrec_includes_torch(${root}/${CMAKE_MATCH_1} ${root} nested)
      if(nested)
        set(answer ON)
        break()
      endif()
    endif()
  endforeach()
  set_property(GLOBAL PROPERTY "modrec_torch_${file}" ${answer})
  set(${result} ${answer} PARENT_SCOPE)
endfunction()

function(modrec_torch_pch target)
  if(NOT MODREC_PCH)
    return()
  endif()
  target_precompile_headers(${target} REUSE_FROM modrec_torch_pch)
  get_target_property(sources ${target} SOURCES)
  foreach(source IN LISTS sources)
    modrec_includes_torch(${source} ${PROJECT_SOURCE_DIR}/lib uses_torch)
    if(NOT uses_torch)
      set_source_files_properties(${source} TARGET_DIRECTORY ${target}
                                  PROPERTIES SKIP_PRECOMPILE_HEADERS ON)
    endif()
  endforeach()
endfunction()

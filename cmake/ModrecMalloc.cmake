# modrec_use_tcmalloc(TARGET): links gperftools' tcmalloc (Debian's libgoogle-perftools-dev) into
# an executable, so that every allocation in the process, LibTorch's included, goes to it.
#
# Why: glibc's malloc serves a pass's tensors from its heap once its mmap threshold has grown, and
# the heap fragments across passes, so the peak RSS grew with the number of batches. tcmalloc's
# size classes do not, and passes ran as fast or faster (bench.sh: peak RSS; docs/design-notes.md,
# Peak RSS). Not under the sanitizers, which bring their own allocator; without
# the library (the GPU machine's offline build) the system's malloc stays.
option(MODREC_TCMALLOC "Link modrec with tcmalloc when it is found" ON)
find_library(MODREC_TCMALLOC_LIBRARY tcmalloc_minimal)
# Decided on every configure, not cached: turning the sanitizers on (or this option off) in a
# build folder that once found the library must stop its use.
set(MODREC_USE_TCMALLOC OFF)
if(MODREC_TCMALLOC AND MODREC_TCMALLOC_LIBRARY AND NOT MODREC_SANITIZE AND NOT MODREC_FUZZ)
  set(MODREC_USE_TCMALLOC ON)
  message(STATUS "modrec allocator: ${MODREC_TCMALLOC_LIBRARY}")
else()
  message(STATUS "modrec allocator: the system's malloc")
endif()

function(modrec_use_tcmalloc target)
  if(MODREC_USE_TCMALLOC)
    # --no-as-needed: nothing calls tcmalloc by name; it is needed for the malloc it replaces.
    target_link_libraries(${target} PRIVATE
      "-Wl,--no-as-needed" ${MODREC_TCMALLOC_LIBRARY} "-Wl,--as-needed")
  endif()
endfunction()

# Run by app/CMakeLists.txt after each link of modrec (cmake -P): the man page and the completion
# scripts, each printed by the binary just built from its own flag definitions, so that they never
# describe other flags than the binary's. MODREC: the binary; OUT: the folder of share/.
function(modrec_write file)
  get_filename_component(dir ${OUT}/${file} DIRECTORY)
  file(MAKE_DIRECTORY ${dir})
  # A sanitizer build's LeakSanitizer would fail the build on LibTorch's allocations at exit.
  execute_process(COMMAND ${CMAKE_COMMAND} -E env ASAN_OPTIONS=detect_leaks=0 ${MODREC} ${ARGN}
                  OUTPUT_FILE ${OUT}/${file}.tmp RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "modrec ${ARGN} failed (${rc}): ${OUT}/${file} not written")
  endif()
  file(RENAME ${OUT}/${file}.tmp ${OUT}/${file})
endfunction()

modrec_write(share/man/man1/modrec.1 --man)
modrec_write(share/bash-completion/completions/modrec completion bash)
modrec_write(share/zsh/site-functions/_modrec completion zsh)
modrec_write(share/fish/vendor_completions.d/modrec.fish completion fish)

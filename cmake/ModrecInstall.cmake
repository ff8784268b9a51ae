# Installing modrec (what `pip install .` does through scikit-build-core, whose install prefix is
# site-packages): the binary goes into the Python package, as modrec/bin/modrec, beside the
# package's generated _build_info.py (what the binary was built against, for the `modrec` command
# that runs it: python/modrec/__main__.py). Component `modrec`: the binary's parts alone.
#
# The binary finds LibTorch by its RPATH, relative to itself: site-packages/modrec/bin/../../torch/lib,
# the torch package installed beside modrec. No LD_LIBRARY_PATH, and nothing else: the other C++
# libraries are header-only (cmake/ModrecDeps.cmake). In the build tree it keeps the absolute path
# of the LibTorch it was linked against.
set_target_properties(modrec PROPERTIES INSTALL_RPATH "$ORIGIN/../../torch/lib")
install(TARGETS modrec RUNTIME DESTINATION modrec/bin COMPONENT modrec)
# The ExecuTorch shim, where it is built, beside the binary, where a .pte makes modrec look for it.
# Its runtime libraries are not in the wheel: modrec loads them first from the executorch
# installed beside torch (load/operator_libraries.cpp), which the shim's DT_NEEDED names then find.
if(TARGET modrec_executorch)
  install(TARGETS modrec_executorch LIBRARY DESTINATION modrec/bin COMPONENT modrec)
endif()

configure_file(${PROJECT_SOURCE_DIR}/cmake/build_info.py.in
               ${PROJECT_BINARY_DIR}/python/_build_info.py @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/python/_build_info.py DESTINATION modrec COMPONENT modrec)

# The man page and the completion scripts (app/CMakeLists.txt writes them into build/share/):
# in a wheel, into its data, which pip installs under the environment's prefix (<venv>/share/man,
# found by man for <venv>/bin on PATH; bash-completion's folder beside the command's bin/).
if(DEFINED SKBUILD_DATA_DIR)
  set(modrec_data_dir ${SKBUILD_DATA_DIR})
else()
  set(modrec_data_dir .)
endif()
install(FILES ${PROJECT_BINARY_DIR}/share/man/man1/modrec.1
        DESTINATION ${modrec_data_dir}/share/man/man1 COMPONENT modrec)
install(FILES ${PROJECT_BINARY_DIR}/share/bash-completion/completions/modrec
        DESTINATION ${modrec_data_dir}/share/bash-completion/completions COMPONENT modrec)
install(FILES ${PROJECT_BINARY_DIR}/share/zsh/site-functions/_modrec
        DESTINATION ${modrec_data_dir}/share/zsh/site-functions COMPONENT modrec)
install(FILES ${PROJECT_BINARY_DIR}/share/fish/vendor_completions.d/modrec.fish
        DESTINATION ${modrec_data_dir}/share/fish/vendor_completions.d COMPONENT modrec)

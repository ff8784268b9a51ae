# The C++ libraries modrec uses besides LibTorch, all header-only in the binary so that it needs
# nothing at run time but the C/C++ runtime and torch's own libraries (the pip wheel's promise):
# CLI11 and nlohmann_json are header-only; spdlog and fmt are used in their header-only modes
# (Debian's packages also ship them as shared libraries, which a wheel would have to carry), by
# util/log.cpp alone. doctest only for the unit tests.
#
# util/log.cpp includes no LibTorch header and sees none of torch's include folders, which carry
# their own fmt (12.x) that would shadow the fmt spdlog is written for (Debian's 9.x).
find_package(CLI11 REQUIRED)
find_package(nlohmann_json REQUIRED)
find_package(Threads REQUIRED)
find_package(fmt REQUIRED)
find_package(spdlog REQUIRED)

# spdlog::spdlog_header_only would still link the shared libfmt: this is it with fmt inlined
# (lib/CMakeLists.txt links it into modrec_util, for util/log.cpp).
add_library(modrec_spdlog INTERFACE)
target_compile_definitions(modrec_spdlog INTERFACE SPDLOG_FMT_EXTERNAL)
target_link_libraries(modrec_spdlog INTERFACE fmt::fmt-header-only Threads::Threads)

if(MODREC_TESTS)
  find_package(doctest REQUIRED)
endif()

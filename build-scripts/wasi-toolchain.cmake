# clang targeting wasm32-wasi against Debian's wasi-libc (package wasi-libc) and compiler-rt
# builtins (package libclang-rt-14-dev-wasm32). Produces reactor modules with zero imports.
set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_SYSTEM_PROCESSOR wasm32)
set(PM_WASI ON CACHE BOOL "" FORCE)
set(CMAKE_C_COMPILER clang)
set(CMAKE_C_COMPILER_TARGET wasm32-wasi)
set(CMAKE_EXECUTABLE_SUFFIX ".wasm")
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)
set(CMAKE_C_FLAGS_INIT "-fvisibility=hidden")
set(CMAKE_EXE_LINKER_FLAGS_INIT "-fuse-ld=lld")
